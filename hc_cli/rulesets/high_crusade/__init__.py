"""High Crusade (Wessex Games, 2nd ed.): percentile SF skirmish. Tables and resolvers."""

from __future__ import annotations

from hc_cli.rulesets.high_crusade.commands import COMMANDS, complete
from hc_cli.rulesets.high_crusade.tables import (
    RULESET,
    SCHEMAS,
    HighCrusadeTables,
    cross_check,
)
from hc_cli.tables import load_merged

__all__ = ["COMMANDS", "complete", "load_tables", "schemas"]


def schemas() -> tuple[dict, object]:
    return SCHEMAS, cross_check


def load_tables(house_files: list[str] | None = None) -> HighCrusadeTables:
    return HighCrusadeTables.from_merged(load_merged(RULESET, schemas, house_files))

"""Twilight: 2000 "Combat rules v1.1": d20 tasks, direct and automatic fire, Initiative."""

from __future__ import annotations

from hc_cli.rulesets.t2k.commands import COMMANDS, complete
from hc_cli.rulesets.t2k.tables import RULESET, SCHEMAS, T2kTables, cross_check
from hc_cli.tables import load_merged

__all__ = ["COMMANDS", "complete", "load_tables", "schemas"]


def schemas() -> tuple[dict, object]:
    return SCHEMAS, cross_check


def load_tables(house_files: list[str] | None = None) -> T2kTables:
    return T2kTables.from_merged(load_merged(RULESET, schemas, house_files))

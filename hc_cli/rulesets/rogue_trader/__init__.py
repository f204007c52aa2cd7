"""Warhammer 40,000: Rogue Trader (1987): D6 to hit, to wound, save. Tables and resolvers."""

from __future__ import annotations

from hc_cli.rulesets.rogue_trader.commands import COMMANDS, complete
from hc_cli.rulesets.rogue_trader.tables import RULESET, SCHEMAS, RogueTraderTables, cross_check
from hc_cli.tables import load_merged

__all__ = ["COMMANDS", "complete", "load_tables", "schemas"]


def schemas() -> tuple[dict, object]:
    return SCHEMAS, cross_check


def load_tables(house_files: list[str] | None = None) -> RogueTraderTables:
    return RogueTraderTables.from_merged(load_merged(RULESET, schemas, house_files))

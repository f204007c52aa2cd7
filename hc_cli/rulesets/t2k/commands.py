"""Twilight: 2000 commands: option values -> typed requests, and the resolvers they go to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.mods import parse_mods
from hc_cli.plugin.declare import CommandSpec, Luck
from hc_cli.plugin.typed_tables import Tables, table_names
from hc_cli.rulesets.t2k import resolve
from hc_cli.rulesets.t2k.declaration import DECLARATION
from hc_cli.rulesets.t2k.game_zone import kept_count
from hc_cli.rulesets.t2k.tables import SCHEMAS, T2kTables, cross_check

TABLES = Tables(DECLARATION, SCHEMAS, cross_check, T2kTables.from_merged)
schemas, load_tables = TABLES.schemas, TABLES.load

INITIATIVE_LISTS = (
    "ambush",
    "opportunity_fire",
    "knocked_down",
    "surprised",
    "vehicle_pierced",
    "charged",
)


def _fire_request(v: dict[str, Any]) -> resolve.FireRequest:
    lists = ("zone", "zone_npc")
    fields: dict[str, Any] = {
        k: x for k, x in v.items() if x is not None and k not in (*lists, "mod")
    }
    given: dict[str, Any] = {k: tuple(v.get(k) or ()) for k in lists}
    if "kept" in fields:  # a number, or all (which a game makes the number kept)
        fields["kept"] = kept_count(fields["kept"])
    return resolve.FireRequest(**fields, **given, mods=parse_mods(v.get("mod")))


def _initiative_request(v: dict[str, Any]) -> resolve.InitiativeRequest:
    lists = {k: tuple(v.get(k) or ()) for k in INITIATIVE_LISTS}
    return resolve.InitiativeRequest(tuple(v.get("char") or ()), v.get("roster"), **lists)


COMMANDS = {
    "fire": CommandSpec(_fire_request, resolve.resolve_fire, resolve.fire_odds),
    "initiative": CommandSpec(
        _initiative_request, resolve.resolve_initiative, resolve.initiative_odds
    ),
    "deviate": CommandSpec(
        lambda v: resolve.DeviateRequest(
            v.get("range"), v.get("band"), v.get("throw_range"), v.get("weight")
        ),
        resolve.resolve_deviate,
        resolve.deviate_odds,
    ),
    "reload": CommandSpec(
        lambda v: resolve.ReloadRequest(
            v.get("weapon"),
            v.get("feed"),
            v.get("magazine"),
            bool(v.get("speed_loader")),
            bool(v.get("helper")),
        ),
        resolve.resolve_reload,
        resolve.reload_odds,
    ),
}

TABLE_OF_OPTION = {"weapon": "weapons", "movement": "movement", "mod": "modifiers"}


LUCK = {  # how hc luck rates a result for the side that acted (an Initiative is an order)
    "fire": Luck("hits", single={"hit": 1}),
    "deviate": Luck("distance (metres)", fewer=True),
}


def complete(tables: Any, command: str, option: str) -> list[str]:
    """Names an option of a command takes, from the tables in use (for TAB completion)."""
    if option == "shot":
        return list(resolve.SHOT_KINDS)
    if option == "ammo":
        return sorted(tables.ammunition)
    if option == "feed":
        return sorted(tables.feeds)
    return table_names(tables, TABLE_OF_OPTION.get(option))


if TYPE_CHECKING:  # this module keeps the contract of a rule set's `impl` (a type checker says)
    from hc_cli.plugin.contract import RuleSetModule
    from hc_cli.rulesets.t2k import commands as _this

    _contract: RuleSetModule = _this

"""Rogue Trader commands: option values -> typed requests, and the resolvers they go to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.core.mods import parse_mods
from hc_cli.plugin.declare import CommandSpec, Luck
from hc_cli.plugin.typed_tables import Tables, table_names
from hc_cli.rulesets.rogue_trader import resolve
from hc_cli.rulesets.rogue_trader.declaration import DECLARATION
from hc_cli.rulesets.rogue_trader.tables import SCHEMAS, RogueTraderTables, cross_check

# The modifiers the table counts per step (`per_inches`): named twice, they count twice.
STACKING = ("target-moved",)
TABLES = Tables(DECLARATION, SCHEMAS, cross_check, RogueTraderTables.from_merged)
schemas, load_tables = TABLES.schemas, TABLES.load


def _fire_request(f: dict[str, Any]) -> resolve.FireRequest:
    fields = {
        k: v
        for k, v in f.items()
        if v is not None and k not in ("target", "mod", "weapon_type", "wounded")
    }
    return resolve.FireRequest(
        **fields,
        targets=tuple(f.get("target") or ()),
        weapon_type=tuple(f.get("weapon_type") or ()),
        wounded=tuple(f.get("wounded") or ()),
        mods=parse_mods(f.get("mod"), STACKING),
    )


def _initiative_request(f: dict[str, Any]) -> resolve.InitiativeRequest:
    sides = f.get("side") or ["Side 1", "Side 2"]
    if len(sides) != 2:
        raise HcError(f"{len(sides)} --side given", "give --side NAME exactly twice")
    return resolve.InitiativeRequest((sides[0], sides[1]))


COMMANDS = {
    "initiative": CommandSpec(
        _initiative_request, resolve.resolve_initiative, resolve.initiative_odds
    ),
    "fire": CommandSpec(_fire_request, resolve.resolve_fire, resolve.fire_odds),
    "deviate": CommandSpec(
        lambda f: resolve.DeviateRequest(
            f.get("weapon"), f.get("radius"), f.get("range"), f.get("blasting_cover", False)
        ),
        resolve.resolve_deviate,
        resolve.deviate_odds,
    ),
    "move": CommandSpec(
        lambda f: resolve.MoveRequest(**{k: v for k, v in f.items() if v is not None}),
        resolve.resolve_move,
        resolve.move_odds,
    ),
    "hide": CommandSpec(lambda f: resolve.HideRequest(), resolve.resolve_hide, resolve.hide_odds),
    "melee": CommandSpec(
        lambda f: resolve.MeleeRequest(
            f.get("removed") or 0, f.get("wounds") or 0, bool(f.get("break"))
        ),
        resolve.resolve_melee,
        resolve.melee_odds,
    ),
    "rally": CommandSpec(
        lambda f: resolve.RallyRequest(f.get("profile"), f.get("ld")),
        resolve.resolve_rally,
        resolve.rally_odds,
    ),
}


TABLE_OF_OPTION = {
    "profile": "profiles",
    "weapon": "weapons",
    "target": "profiles",
    "firer": "profiles",
    "mount": "profiles",
    "friend": "profiles",
    "armour": "armour",
    "mod": "modifiers",
}


LUCK = {  # how hc luck rates a result for the side that acted
    "fire": Luck("wounds"),  # wounds caused: a model of several wounds counts each
    "deviate": Luck(order=("deviated", "on-target")),
    "rally": Luck(order=("routing", "rallied")),
    "initiative": Luck(sides=True),
}


def complete(tables: Any, command: str, option: str) -> list[str]:
    """Names an option of a command takes, from the tables in use (for TAB completion)."""
    if command == "deviate" and option == "weapon":
        return sorted(k for k, w in tables.weapons.items() if w.area is not None)
    return table_names(tables, TABLE_OF_OPTION.get(option))


if TYPE_CHECKING:  # this module keeps the contract of a rule set's `impl` (a type checker says)
    from hc_cli.plugin.contract import RuleSetModule
    from hc_cli.rulesets.rogue_trader import commands as _this

    _contract: RuleSetModule = _this

"""Twilight: 2000 commands: option values -> typed requests, and the resolvers they go to."""

from __future__ import annotations

from typing import Any

from hc_cli.mods import parse_mods
from hc_cli.rulesets import CommandSpec
from hc_cli.rulesets.t2k import fire as f
from hc_cli.rulesets.t2k import initiative as i

FIRE_FLAGS = frozenset(
    {
        "asset",
        "skill",
        "attribute",
        "riding",
        "weapon",
        "short_range",
        "rof",
        "recoil",
        "damage",
        "range",
        "shot",
        "shots",
        "strength",
        "movement",
        "obscured",
        "target_speed",
        "target_kph",
        "scope",
        "laser_sight",
        "braced",
        "two_weapons",
        "npc",
        "location",
        "damage_done",
        "riders",
        "zone",
        "thrown",
        "weight",
        "throw_range",
        "grenade_number",
        "ammo",
        "mod",
    }
)
INITIATIVE_FLAGS = frozenset(
    {
        "char",
        "roster",
        "ambush",
        "opportunity_fire",
        "knocked_down",
        "surprised",
        "vehicle_pierced",
        "charged",
    }
)


def _fire_request(v: dict[str, Any]) -> f.FireRequest:
    fields = {k: v[k] for k in FIRE_FLAGS if v.get(k) is not None and k not in ("zone", "mod")}
    return f.FireRequest(**fields, zone=tuple(v.get("zone") or ()), mods=parse_mods(v.get("mod")))


def _initiative_request(v: dict[str, Any]) -> i.InitiativeRequest:
    lists = {k: tuple(v.get(k) or ()) for k in INITIATIVE_FLAGS if k not in ("char", "roster")}
    return i.InitiativeRequest(tuple(v.get("char") or ()), v.get("roster"), **lists)


COMMANDS = {
    "fire": CommandSpec(FIRE_FLAGS, _fire_request, f.resolve_fire, f.fire_odds),
    "initiative": CommandSpec(
        INITIATIVE_FLAGS, _initiative_request, i.resolve_initiative, i.initiative_odds
    ),
    "deviate": CommandSpec(
        frozenset({"range", "band", "throw_range", "weight"}),
        lambda v: f.DeviateRequest(
            v.get("range"), v.get("band"), v.get("throw_range"), v.get("weight")
        ),
        f.resolve_deviate,
        f.deviate_odds,
    ),
}

TABLE_OF_OPTION = {"weapon": "weapons", "movement": "movement", "mod": "modifiers"}


def complete(tables: Any, command: str, option: str) -> list[str]:
    """Names an option of a command takes, from the tables in use (for TAB completion)."""
    if option == "shot":
        return list(f.SHOT_KINDS)
    if option == "ammo":
        return sorted(tables.ammunition)
    table = TABLE_OF_OPTION.get(option)
    return sorted(getattr(tables, table)) if table else []

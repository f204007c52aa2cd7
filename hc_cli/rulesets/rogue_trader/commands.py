"""Rogue Trader commands: option values -> typed requests, and the resolvers they go to."""

from __future__ import annotations

from typing import Any

from hc_cli.mods import parse_mods
from hc_cli.rulesets import CommandSpec
from hc_cli.rulesets.rogue_trader import move as m
from hc_cli.rulesets.rogue_trader import resolve as r

FIRE_FLAGS = frozenset(
    {
        "firer",
        "bs",
        "firer_wounded",
        "weapon",
        "short",
        "long",
        "maximum",
        "to_hit_short",
        "to_hit_long",
        "strength",
        "damage",
        "save_mod",
        "weapon_type",
        "radius",
        "range",
        "target",
        "toughness",
        "wounds_left",
        "wounds_taken",
        "save",
        "armour",
        "size",
        "moving_surface",
        "mounted_weapon",
        "target_moved",
        "soft_cover",
        "hard_cover",
        "improvised",
        "moved",
        "allow_7plus",
        "shots",
        "mount",
        "at_mount",
        "into_melee",
        "friend",
        "placed",
        "under",
        "partly",
        "blasting_cover",
        "closed_room",
        "mod",
    }
)


def _fire_request(f: dict[str, Any]) -> r.FireRequest:
    fields = {
        k: v
        for k, v in f.items()
        if k in FIRE_FLAGS and v is not None and k not in ("target", "mod", "weapon_type")
    }
    return r.FireRequest(
        **fields,
        targets=tuple(f.get("target") or ()),
        weapon_type=tuple(f.get("weapon_type") or ()),
        mods=parse_mods(f.get("mod")),
    )


COMMANDS = {
    "fire": CommandSpec(FIRE_FLAGS, _fire_request, r.resolve_fire, r.fire_odds),
    "deviate": CommandSpec(
        frozenset({"weapon", "radius", "range", "blasting_cover"}),
        lambda f: r.DeviateRequest(
            f.get("weapon"), f.get("radius"), f.get("range"), f.get("blasting_cover", False)
        ),
        r.resolve_deviate,
        r.deviate_odds,
    ),
    "move": CommandSpec(
        frozenset(
            {"profile", "m", "armour", "charge", "turns", "difficult", "very_difficult", "obstacle"}
        ),
        lambda f: m.MoveRequest(**{k: v for k, v in f.items() if v is not None}),
        m.resolve_move,
        m.move_odds,
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


def complete(tables: Any, command: str, option: str) -> list[str]:
    """Names an option of a command takes, from the tables in use (for TAB completion)."""
    table = TABLE_OF_OPTION.get(option)
    if command == "deviate" and option == "weapon":
        return sorted(k for k, w in tables.weapons.items() if w.area is not None)
    return sorted(getattr(tables, table)) if table else []

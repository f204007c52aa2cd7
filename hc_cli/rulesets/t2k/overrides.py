"""What a Twilight: 2000 player's options put in place of what the game holds (issue 37): in
a game, refused unless --anyway, which the entry records. A character's asset, Strength,
weapon, its load and whether a target is an NPC are the roster's (it gives each man one
weapon); a burst's kept danger zone dice go with its range and weapon; a skill and attribute or
a weapon's numbers given by hand stand in for the roster's or the tables'; a --mod given as a
number is a level the tables do not hold. (A hit's --location and --damage-done are dice read
off the table, as --dice are: no override.) Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hc_cli.plugin.game_rules import bare_mods, instead, option_words, overridden, possessive
from hc_cli.rulesets.t2k.game_zone import newest_kept

WEAPON_NUMBERS = ("short_range", "rof", "recoil", "damage")


def overrides(
    state: Mapping[str, Any], command: str, unit: str | None, at: list[str], given: dict,
    tables: Any,
) -> list[str]:  # fmt: skip
    units = state["units"]
    me = units.get(unit) if unit else None
    out = bare_mods(given)
    if me is None:
        return out
    if command == "fire":
        out += overridden(given, "asset", me["asset"], f"{possessive(unit or '')} asset, "
                          f"{me['asset']}")  # fmt: skip
        out += instead(given, ("skill", "attribute"), f"{possessive(unit or '')} asset, "
                       f"{me['asset']}")  # fmt: skip
        out += overridden(given, "strength", me["strength"], f"{possessive(unit or '')} "
                          f"Strength, {me['strength']}")  # fmt: skip
        kept = newest_kept(state, unit or "") if given.get("kept") else None
        if kept is not None:  # the dice go with their burst
            out += overridden(given, "weapon", kept["weapon"], f"the burst's weapon, "
                              f"{kept['weapon']}")  # fmt: skip
            out += overridden(given, "range", kept["range"], f"the burst's range, "
                              f"{kept['range']:g} m")  # fmt: skip
        else:
            out += overridden(given, "weapon", me["weapon"], f"{possessive(unit or '')} weapon, "
                              f"{me['weapon']} (the roster gives him one)")  # fmt: skip
        out += instead(given, WEAPON_NUMBERS, "the numbers of the weapon fired")
        target = units.get(at[0]) if at else None
        if given.get("npc") and target is not None and not target["npc"]:
            out.append(f"--npc overrides the roster: {at[0]} is no NPC")
        for name in given.get("zone_npc") or ():
            if name in units and not units[name]["npc"]:
                out.append(f"{option_words('zone_npc', name)} overrides the roster: {name} "
                           "is no NPC")  # fmt: skip
    elif command == "reload":
        out += overridden(given, "magazine", me["magazine"], f"{possessive(unit or '')} "
                          f"magazine, {me['magazine']} rounds")  # fmt: skip
        out += instead(given, ("feed",), f"how {possessive(unit or '')} {me['weapon']} is "
                       "loaded (its feed)")  # fmt: skip
    return out

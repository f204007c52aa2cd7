"""What a Rogue Trader player's options put in place of what the game holds (issue 37): in a
game, refused unless --anyway, which the entry records. A unit's profile and weapon are the
roster's, whether it moved and which of its models are wounded the game's, how far its target
moved in its last turn too; a BS, a Leadership, a move allowance, a weapon's or a target's
numbers given by hand stand in for a profile's or a weapon's; a --mod given as a number is a
bonus the tables do not hold, and one by name standing for what the game holds (the target's
size, how far it moved, the firer's wounds) overrides it. (The models fired at and their
wounds are refused outright in a game: `game_fire.KEPT`.) Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hc_cli.plugin.game_rules import bare_mods, instead, overridden, possessive

WEAPON_NUMBERS = ("strength", "short", "long", "maximum", "to_hit_short", "to_hit_long",
                  "damage", "save_mod", "weapon_type", "radius")  # fmt: skip
TARGET_NUMBERS = ("toughness", "save", "armour", "size")


def overrides(
    state: Mapping[str, Any], command: str, unit: str | None, at: list[str], given: dict,
    tables: Any,
) -> list[str]:  # fmt: skip
    name = (unit or "").partition(":")[0]
    me = state["units"].get(name)
    out = bare_mods(given)
    if me is None:
        return out
    profile = f"{possessive(name)} profile, {me['profile']}"
    if command == "fire":
        out += overridden(given, "firer", me["profile"], profile)
        out += instead(given, ("bs",), profile)
        weapon = me["weapon"] or "none"
        out += overridden(given, "weapon", me["weapon"], f"{possessive(name)} weapon, {weapon}")
        out += instead(given, WEAPON_NUMBERS, f"the numbers of {possessive(name)} weapon")
        out += _fire(state, unit or "", me, at, given)
    elif command == "move":
        out += overridden(given, "profile", me["profile"], profile)
        out += instead(given, ("m",), profile + " (its move)")
    elif command == "rally":
        out += overridden(given, "profile", me["profile"], profile)
        out += instead(given, ("ld",), profile + " (its Leadership)")
    return out


def _fire(state: Mapping[str, Any], unit: str, me: dict, at: list[str], given: dict) -> list[str]:
    """What the game knows of the firers (`unit`, or a model `unit:N`) and the target."""
    name, _, number = unit.partition(":")
    at_model = int(number) - 1 if number.isdigit() else None
    out = []
    if given.get("placed"):  # the marker placed where it landed: fired at the range it was
        waiting = [m for m in me["markers"] if at_model in (None, m["model"])]
        if waiting and waiting[0]["range"] is not None:
            out += overridden(given, "range", waiting[0]["range"], "the range the marker was "
                              f"fired at, {waiting[0]['range']:g}\"")  # fmt: skip
    if given.get("moved") and not me["moved"]:
        out.append(f"--moved overrides what the game holds: {name} has not moved this turn")
    wounded = [t for t in me["taken"] if 0 < t < me["w"]]
    for option in ("firer_wounded", "firers_wounded"):
        if given.get(option) and not wounded:
            out += instead(given, (option,), f"{possessive(name)} wounds: none of its models "
                           "is wounded")  # fmt: skip
    target = state["units"].get(at[0].partition(":")[0]) if at else None
    if target is not None:
        moved = target.get("inches", 0) if target["side"] != me["side"] else 0
        out += overridden(given, "target_moved", moved,
                          f"how far {at[0].partition(':')[0]} moved in its last turn, "
                          f"{moved:g}\"")  # fmt: skip
        out += instead(given, TARGET_NUMBERS, f"{possessive(at[0])} profile, {target['profile']}")
    out += instead(given, ("friend_wounded",), "the wounds of the friend fired near (the game's)")
    return out + _named(state, name, at, given)


def _named(state: Mapping[str, Any], name: str, at: list[str], given: dict) -> list[str]:
    """A --mod by name that stands for what the game holds: the target's size (its profile),
    how far it moved, the firer's wounds."""
    target = state["units"].get(at[0].partition(":")[0]) if at else None
    held = {"firer-wounded": f"{possessive(name)} wounds (the game's)"}
    held["target-moved"] = "how far the target moved in its last turn (the game's)"
    if target is not None:
        size = f"{possessive(at[0])} size, by its profile {target['profile']}"
        held |= {"large-target": size, "small-target": size}
    mods = [str(m) for m in given.get("mod") or ()]
    return [f"--mod {m} overrides {held[m.lower()]}" for m in mods if m.lower() in held]

"""What a High Crusade player's options put in place of what the game holds (issue 37): in a
game, refused unless --anyway, which the entry records. A Fireteam's troop, weapons, figures,
casualties, its order and the Morale triggers due are the game's; a defence factor, a chance,
a penetration or a template given as numbers stand in for a troop's or a weapon's; a --mod
given as a number is a bonus the tables do not hold. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hc_cli.plugin.game_rules import bare_mods, instead, option_words, overridden, possessive
from hc_cli.rulesets.high_crusade.game_morale import TRIGGERS


def overrides(
    state: Mapping[str, Any],
    command: str,
    unit: str | None,
    at: list[str],
    given: dict,
    tables: Any,
) -> list[str]:
    units = state["units"]
    me = units.get(unit) if unit else None
    name = at[0].partition(":")[0] if at else ""
    target = units.get(name)
    out = bare_mods(given)
    if me is None:
        return out
    if command == "fire" and target is not None:
        out += _fire(unit or "", me, name, target, given, tables)
    elif command == "melee" and target is not None:
        out += overridden(given, "attacker", me["troop"], f"{possessive(unit or '')} troop, "
                          f"{me['troop']}")  # fmt: skip
        out += overridden(given, "defender", target["troop"], f"{possessive(name)} troop, "
                          f"{target['troop']}")  # fmt: skip
    elif command in ("morale", "rally"):
        out += _tested(unit or "", me, given, command)
    return out


def _fire(unit: str, me: dict, name: str, target: dict, given: dict, tables: Any) -> list[str]:
    troop = target["troop"]
    out = []
    if "target" in given:
        out += overridden(given, "target", [troop] * len(given["target"] or [1]),
                          f"{possessive(name)} troop, {troop}")  # fmt: skip
    out += instead(given, ("df",), f"{possessive(name)} troop, {troop} (its defence factor)")
    out += instead(given, ("chance", "penetration", "template"), "the numbers of the weapon fired")
    carried = {w: n for w, n in me["weapons"].items() if n}
    weapon = str(given.get("weapon") or "").lower()
    if weapon and weapon not in carried:
        words = option_words("weapon", given["weapon"])
        out.append(f"{words} overrides the weapons {possessive(unit)} figures carry "
                   f"({', '.join(carried) or 'none'})")  # fmt: skip
    for item in given.get("volley") or ():
        what, _, figures = str(item).partition(":")
        most = carried.get(what.lower(), 0)
        if not most or (figures.isdigit() and int(figures) > most):
            out.append(f"--volley {item} overrides the weapons {possessive(unit)} figures "
                       f"carry ({', '.join(f'{w}:{n}' for w, n in carried.items())})")  # fmt: skip
    out += _orders(unit, me, name, target, given, tables)
    return out


def _orders(unit: str, me: dict, name: str, target: dict, given: dict, tables: Any) -> list[str]:
    """An order given by hand (--order, --target-order, or a --mod that is an order's
    modifier) other than the one the game holds for the Fireteam, or a --mod that is the held
    order's own modifier (the game applies it already)."""
    out = []
    mods = [str(m) for m in given.get("mod") or ()]
    for option, side, who, fireteam in (
        ("order", "firer", unit, me),
        ("target_order", "target", name, target),
    ):
        held = fireteam["order"]
        what = f"{possessive(who)} order, {held or 'none'}"
        out += overridden(given, option, held, what)
        found = tables.orders.get(held) if held else None
        mine = getattr(found, side, None)
        by_hand = {getattr(o, side) for o in tables.orders.values()} - {None, mine}
        out += [f"--mod {m} overrides {what}" for m in mods if m.lower() in by_hand]
        # The order's own modifier the game applies already: named again, it would count twice.
        out += [f"--mod {m} adds again what {what}, gives" for m in mods if mine and
                m.lower() == mine]  # fmt: skip
    return out


def _tested(unit: str, me: dict, given: dict, command: str) -> list[str]:
    """A Morale test's or a Regroup's: the troop, the casualties, the triggers due."""
    out = overridden(given, "troop", me["troop"], f"{possessive(unit)} troop, {me['troop']}")
    lost = me["casualties"]
    out += overridden(given, "casualties", lost, f"{possessive(unit)} casualties, {lost}")
    out += overridden(given, "strength", me["figures"],
                      f"{possessive(unit)} full strength, {me['figures']} figures")  # fmt: skip
    if given.get("has_casualties") and not lost:
        out.append(f"--has-casualties overrides {possessive(unit)} casualties, none")
    if command == "morale":
        due = ", ".join(TRIGGERS[t] for t in me["due"] if t in TRIGGERS) or "none"
        for trigger in TRIGGERS:
            if given.get(trigger) and trigger not in me["due"]:
                out.append(f"{option_words(trigger, True)} overrides the triggers due for "
                           f"{unit} ({due})")  # fmt: skip
    return out

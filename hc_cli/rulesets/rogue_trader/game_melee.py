"""Rogue Trader hand to hand in a game (seed 003, "Entering Hand-To-Hand Combat"): a charge names
its target and, once it made base-to-base contact, both units are engaged (each unit's `engaged`
list of enemy units); in part 3 of the turn the players record what the fight did (hc melee:
models removed, wounds), either side, whatever the turn: the seed stops before the blows, so hc
rolls none. A combat ends when one side of it is removed, or when the players say it broke off.
Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hc_cli.core.errors import HcError
from hc_cli.plugin.game_rules import Fill, Flags, enemy_check
from hc_cli.rulesets.rogue_trader.game_fire import living, model_label, strike_order, unit_and_model
from hc_cli.rulesets.rogue_trader.game_parts import to_part
from hc_cli.rulesets.rogue_trader.sequence import FIGHT, PHASE_NAMES, PHASE_OF

if TYPE_CHECKING:
    from hc_cli.rulesets.rogue_trader.state import RtState, RtUnit


def fill_charge(state: RtState, name: str, at: list[str], flags: Flags) -> None:
    """A charge in a game: at one enemy unit, and whether it made contact (the players know)."""
    if not flags.get("charge"):
        if at:
            raise HcError("--at goes with --charge: a move names no target", f"hc move {name}")
        return
    if len(at) != 1:
        raise HcError(
            f"a charge is at one enemy unit: {len(at)} --at given" if at else
            "a charge names its target: the enemy unit it charges",
            f"hc move {name} --charge --at TARGET --contact (or --no-contact)",
        )  # fmt: skip
    target, model = unit_and_model(state, at[0], "--at")
    if model is not None:
        raise HcError("a charge is at a unit: name the unit", f"--at {target}")
    enemy_check(state, name, target)
    if not living(state["units"][target]):
        raise HcError(f"every model of {target} is removed", "charge another unit")
    if not flags.get("contact") and not flags.get("no_contact"):
        raise HcError(
            "did the charge make base-to-base contact? hc cannot see the table",
            f"add --contact (hand-to-hand combat) or --no-contact (a charger that fails to "
            f"make contact does nothing else this turn): hc move {name} --charge --at {target} "
            "--contact",
        )


def engage(state: RtState, name: str, target: str) -> list[str]:
    units = state["units"]
    for one, other in ((name, target), (target, name)):
        if other not in units[one]["engaged"]:
            units[one]["engaged"].append(other)
    return [
        f"{name} and {target} are engaged in hand-to-hand combat: they fight in part 3 of "
        f"every turn ({FIGHT}); they may not fire in the shooting part, nor be fired at"
    ]


def disengage(state: RtState, name: str, target: str) -> None:
    units = state["units"]
    for one, other in ((name, target), (target, name)):
        if other in units[one]["engaged"]:
            units[one]["engaged"].remove(other)


def end_combats(state: RtState) -> list[str]:
    """The combats one side of which is removed: over, the units left no longer engaged."""
    notes = []
    for name, unit in state["units"].items():
        for other in list(unit["engaged"]):
            if not living(state["units"][other]):
                disengage(state, name, other)
                notes.append(f"{name} is no longer engaged: {other} is removed")
    return notes


def fill_melee(state: RtState, name: str, me: RtUnit, at: list[str], flags: Flags) -> Fill:
    if len(at) != 1:
        raise HcError("hc melee names the enemy unit its fight struck", f"hc melee {name} --at "
                      + (me["engaged"][0] if me["engaged"] else "TARGET"))  # fmt: skip
    target, model = unit_and_model(state, at[0], "--at")
    if model is not None:
        raise HcError("hc melee strikes a unit, its next model first", f"--at {target}")
    enemy_check(state, name, target)
    them = state["units"][target]
    left = strike_order(them)
    removed = flags.get("removed") or 0
    if removed > len(left):
        raise HcError(f"--removed {removed}: {target} has {len(left)} models left",
                      f"give --removed 0..{len(left)}")  # fmt: skip
    wounds = flags.get("wounds") or 0
    if wounds and removed >= len(left):
        raise HcError(f"--wounds {wounds}: no model of {target} is left to take them",
                      "leave out --wounds")  # fmt: skip
    if wounds:
        nxt = left[removed]
        room = them["w"] - them["taken"][nxt]
        if wounds > room:
            raise HcError(
                f"--wounds {wounds}: {model_label(target, them, nxt)} has {room} left",
                f"give --wounds 1..{room} (W reached: it is removed), or --removed for more",
            )
    refusal = None
    if not state["turn"]:
        refusal = "no turn has begun: flip for the first turn (hc initiative)"
    elif target not in me["engaged"]:
        refusal = (
            f"{name} is not engaged with {target}: only models in hand-to-hand combat fight "
            "(a charge that made contact: hc move UNIT --charge --at TARGET --contact)"
            + (f"; {name} is engaged with " + ", ".join(me["engaged"]) if me["engaged"] else "")
        )
    elif state["phase"] > PHASE_OF["melee"]:
        refusal = (
            f"the hand-to-hand part of the turn ({PHASE_OF['melee']}) is over: the turn is at "
            f"{state['phase']}, {PHASE_NAMES[state['phase']]} (hc game rules)"
        )
    notes = ["no dice: the players fought the blows and say what they did"]
    return Fill(flags, refusal=refusal, notes=notes)


def fought(state: RtState, name: str, target: str, flags: dict) -> list[str]:
    """What the players recorded: the target's models removed (the wounded first), wounds on
    its next model, the combat broken off."""
    notes = to_part(state, PHASE_OF["melee"])
    them = state["units"][target]
    for model in strike_order(them)[: flags.get("removed") or 0]:
        wound(state, target, model, them["w"] - them["taken"][model], notes)
    left = strike_order(them)
    if flags.get("wounds") and left:
        wound(state, target, left[0], flags["wounds"], notes)
    if flags.get("break") and target in state["units"][name]["engaged"]:
        disengage(state, name, target)
        notes.append(f"{name} and {target} broke off: no longer engaged")
    return notes


def wound(state: RtState, name: str, model: int, wounds: int, notes: list[str]) -> None:
    unit = state["units"][name]
    if not wounds or unit["taken"][model] >= unit["w"]:
        return
    unit["taken"][model] = min(unit["w"], unit["taken"][model] + wounds)
    label = model_label(name, unit, model)
    if unit["taken"][model] >= unit["w"]:
        left = len(living(unit))
        notes.append(
            f"{label} is a casualty and removed; {name}: {left} of {len(unit['taken'])} models left"
        )
    else:
        notes.append(
            f"{label}: {unit['taken'][model]} of {unit['w']} wounds taken (they stay until "
            "it is removed)"
        )

"""The order of action in a Twilight: 2000 game (seed 002), kept by the game: each action turn
the characters act in Initiative order, one action each ("Initiative higher than 5 receive
extra action at 1/2 the value"), and the order is made again from the Initiatives as wounds
leave them ("Reductions due too wounds: 1 if slightly; 3 if seriously; 5 if critically"). The
die of a tie ("then die roll") is rolled once, by `hc initiative`; the fold, which rolls
nothing, parts later ties as that roll ordered them. Pure: plain data in, plain data out.

A slot of the order is {"name", "initiative", "extra", "done"}: an action of the action turn,
taken or not yet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.plugin.game_rules import possessive

if TYPE_CHECKING:
    from hc_cli.rulesets.t2k.state import Slot, T2kState, T2kUnit

ACTION_TURNS = 6  # "Combat turn: 30 seconds Action Turn: 5 seconds"
# Exceptions to the order, by the options of hc initiative that name them: the involuntary
# actions (panic, bail out) are taken by that record; the others allow a fire or a reload.
INVOLUNTARY = ("knocked_down", "surprised", "vehicle_pierced", "charged")
OUTSIDE = {"ambush": "ambush", "opportunity_fire": "opportunity fire"}
EXCEPTIONS = (*OUTSIDE, *INVOLUNTARY)


# ---------------------------------------------------------------------------------------------
# Wounds and the Initiative they leave


def wound_of(unit: T2kUnit) -> str:
    """The wound level the table gives for the damage taken: the level with the greatest
    least damage the character has reached."""
    reached = [(least, level) for least, level in unit["wound_damage"] if unit["damage"] >= least]
    return max(reached)[1] if reached else "none"


def initiative_now(unit: T2kUnit) -> int:
    """Initiative less the wound's reduction, never below 0."""
    return max(0, unit["initiative"] - unit["reductions"].get(wound_of(unit), 0))


# ---------------------------------------------------------------------------------------------
# The order made from the state


def order_now(state: T2kState) -> tuple[list[Slot], list[str]]:
    """The slots of an action turn from every character still in the fight, and a note for
    each tie only the last roll could part. Ties: Agility - bulk, then Agility; then the
    order the last roll gave (a character whose Agility is not given keeps his place in it,
    and the others take the places left by Agility, as `hc initiative` places them)."""
    rank = {(name, extra): i for i, (name, extra) in enumerate(state["rolled"])}

    def last(slot: Slot) -> int:
        key = (slot["name"], slot["extra"])
        return rank.get(key, rank.get((slot["name"], not slot["extra"]), len(rank)))

    slots = []
    for name, unit in state["units"].items():
        if unit["out"]:
            continue
        value = initiative_now(unit)
        slots.append(_slot(name, value, False))
        if value > unit["extra_above"]:
            half = -(-value // 2) if unit["extra_round_up"] else value // 2
            slots.append(_slot(name, half, True))
    order, notes = [], []
    for value in sorted({s["initiative"] for s in slots}, reverse=True):
        tied = sorted((s for s in slots if s["initiative"] == value), key=last)
        known = sorted((s for s in tied if _agility(state, s) is not None), key=_by_agility(state))
        places = iter(known)
        order += [next(places) if _agility(state, s) is not None else s for s in tied]
        keys = [_agility(state, s) for s in tied]
        if len(tied) > 1 and (None in keys or len(set(keys)) < len(keys)):
            notes.append(
                f"tie at {value} ({', '.join(label(s) for s in tied)}): Agility - bulk and "
                "Agility do not part them all, so they go as the last roll ordered them"
            )
    return order, notes


def _slot(name: str, value: int, extra: bool) -> Slot:
    return {"name": name, "initiative": value, "extra": extra, "done": False}


def _agility(state: T2kState, slot: Slot) -> tuple[int, int] | None:
    unit = state["units"][slot["name"]]
    if unit["agility"] is None:
        return None
    return (unit["agility"] - (unit["bulk"] or 0), unit["agility"])


def _by_agility(state: T2kState) -> Any:
    def key(slot: Slot) -> tuple[int, int]:
        agility = _agility(state, slot)
        assert agility is not None
        return (-agility[0], -agility[1])

    return key


def label(slot: Slot) -> str:
    return f"{slot['name']} ({slot['initiative']}{', extra' if slot['extra'] else ''})"


# ---------------------------------------------------------------------------------------------
# Acting in the order


def actor(state: T2kState) -> Slot | None:
    """The slot whose action it is: the first not taken of a character still in the fight."""
    for slot in state["order"]:
        if not slot["done"] and not state["units"][slot["name"]]["out"]:
            return slot
    return None


def next_slot(state: T2kState, name: str) -> Slot | None:
    """The character's first action of this action turn not yet taken."""
    return next((s for s in state["order"] if s["name"] == name and not s["done"]), None)


def to_act(state: T2kState) -> list[Slot]:
    return [s for s in state["order"] if not s["done"] and not state["units"][s["name"]]["out"]]


def take(state: T2kState, name: str) -> Slot | None:
    """The character acts: his first action of the action turn not yet taken is spent (an
    action outside the order or out of his turn too: one action a character an action turn).
    Returns that slot, or None when he had none left."""
    slot = next_slot(state, name)
    if slot is not None:
        slot["done"] = True
    return slot


def go_on(state: T2kState, was: Slot | None) -> list[str]:
    """After an action: a new action turn when every action of this one is taken; who acts
    next, in words, when it is no longer the slot `was` (whose action it was before)."""
    notes: list[str] = []
    if state["order"] and actor(state) is None:
        if not any(not u["out"] for u in state["units"].values()):
            return ["nobody is left to act"]
        notes += new_action_turn(state)
    now = actor(state)
    if now is not None and now is not was:
        extra = ", an extra action" if now["extra"] else ""
        notes.append(
            f"next: {possessive(now['name'])} action (initiative {now['initiative']}{extra})"
        )
    return notes


def new_action_turn(state: T2kState) -> list[str]:
    """The next action turn (the next combat turn after the sixth), its order made again from
    the Initiatives as wounds leave them: from each action turn, or each combat turn (the
    reading wound-initiative); those out of the fight are left out."""
    state["action_turn"] += 1
    if state["action_turn"] > ACTION_TURNS:
        state["combat_turn"] += 1
        state["action_turn"] = 1
    state["outside"] = {}
    when = state["readings"]["wound-initiative"]
    before = state["order"]
    if when == "next-action-turn" or state["action_turn"] == 1:
        state["order"], ties = order_now(state)
    else:
        state["order"] = [{**s, "done": False} for s in before]
        ties = []
    line = f"combat turn {state['combat_turn']}, action turn {state['action_turn']} begins"
    notes = [line + ": " + ", ".join(label(s) for s in state["order"])]
    if _places(state, before) != _places(state, state["order"]):
        notes.append(
            "the order is made again from the Initiatives as wounds left them "
            f"(reading: wound-initiative = {when})"
        )
    return notes + ties


def _places(state: T2kState, order: list[Slot]) -> list[tuple[str, int, bool]]:
    """The order's slots of the characters still in the fight: what a wound can change."""
    return [
        (s["name"], s["initiative"], s["extra"])
        for s in order
        if not state["units"][s["name"]]["out"]
    ]


def pending_wounds(state: T2kState) -> list[str]:
    """The characters whose wounds have lowered their Initiative below the place they hold
    in this action turn's order: the change comes with the next order."""
    when = state["readings"]["wound-initiative"]
    until = (
        "the next action turn"
        if when == "next-action-turn"
        else f"combat turn {state['combat_turn'] + 1}"
    )
    out = []
    for name, unit in state["units"].items():
        held = [s["initiative"] for s in state["order"] if s["name"] == name and not s["extra"]]
        if not unit["out"] and held and held[0] != initiative_now(unit):
            out.append(
                f"{possessive(name)} wound lowers his Initiative to {initiative_now(unit)} from "
                f"{until} (reading: wound-initiative = {when})"
            )
    return out

"""The Morale rules of a High Crusade game, between actions (seed 001): the four occasions a
Fireteam must test, the casualties that bring them, the rout, the Regroup order and what a
Morale test or a Regroup takes from the game. Pure: plain data in, plain data out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.core.words import count
from hc_cli.plugin.game_rules import Fill
from hc_cli.rulesets.high_crusade.fireteam import falling_order, take_casualties
from hc_cli.rulesets.high_crusade.sequence import ORDERS, step_check
from hc_cli.rulesets.high_crusade.words import ROUT_ORDER

if TYPE_CHECKING:
    from hc_cli.rulesets.high_crusade.state import HcState, HcUnit

# The four occasions of seed 001 for a Morale test, by the morale command's flags.
TRIGGERS = {
    "fired_at": "first time fired at",
    "ambushed": "ambushed",
    "first_casualty": "first casualty",
    "below_half": "strength below 50%",
}


def rout(state: HcState, unit: HcUnit) -> None:
    """A routed Fireteam tests no more (seed 001): its tests due go with the rout."""
    unit["morale"] = "routed"
    unit["due"] = []
    unit["routed"] = state["move"]
    unit["order"], unit["order_move"] = ROUT_ORDER, state["move"]


def mark_fired_at(state: HcState, name: str, ambushed: bool, notes: list[str]) -> None:
    unit = state["units"][name]
    if not unit["fired_at"]:
        unit["fired_at"] = True
        fall_due(state, name, "fired_at", notes)
    if ambushed:
        fall_due(state, name, "ambushed", notes)


def remove_casualties(
    state: HcState, name: str, lost: int, notes: list[str], weapon: str | None = None
) -> None:
    """`lost` figures of the Fireteam removed: those of `weapon` first when it is known (it
    fought hand to hand with it), else as the casualties-fall-on reading says."""
    unit = state["units"][name]
    if lost > unit["left"]:  # a volley kills no more figures than a Fireteam has left
        over = lost - unit["left"]
        finds = "finds" if over == 1 else "find"
        notes.append(f"{over} of the kills {finds} no figure of {name} left")
    lost = min(lost, unit["left"])
    if not lost:
        return
    first = unit["casualties"] == 0
    unit["casualties"] += lost
    unit["left"] -= lost
    weapons = unit["weapons"]
    reading = state["readings"]["casualties-fall-on"]
    carried = [w for w, n in weapons.items() if n]
    fell = take_casualties(weapons, lost, falling_order(weapons, unit["weapon"], reading, weapon))
    said = f"{name}: {count(lost, 'casualty')}, {unit['left']} of {unit['figures']} left"
    if len(weapons) > 1:
        said += ": " + ", ".join(f"{n} {w}" for w, n in fell) + " fell"
        if len(carried) > 1 and not (weapon in carried and lost <= 1):
            said += f" (reading: casualties-fall-on = {reading})"
    notes.append(said)
    if not unit["left"]:
        unit["due"] = []
        due = f"{name} must test morale"  # said before the casualties: a wiped out team
        notes[:] = [n for n in notes if not n.startswith(due)]  # tests nothing
        notes.append(f"{name} is wiped out")
        return
    if unit["morale"] == "rallied" and unit["regroup"] == state["move"]:
        rout(state, unit)
        notes.append(f"casualties during its Regroup move: {name} routs at once (no test)")
    if first:
        fall_due(state, name, "first_casualty", notes)
    if 2 * unit["left"] < unit["figures"] and not unit["below_half"]:
        unit["below_half"] = True
        fall_due(state, name, "below_half", notes)


def fall_due(state: HcState, name: str, trigger: str, notes: list[str]) -> None:
    unit = state["units"][name]
    if unit["morale"] == "routed" or not unit["left"] or trigger in unit["due"]:
        return
    unit["due"].append(trigger)
    notes.append(f"{name} must test morale: {TRIGGERS[trigger]}")


def tests_first(state: HcState, before: str) -> str | None:
    """The Morale tests due: taken "whenever the following circumstances occur" (seed
    001), so before the move goes on."""
    due = [(n, u) for n, u in state["units"].items() if u["due"] and u["left"]]
    if not due:
        return None
    tests = "; ".join(f"{n} ({triggers_text(u)})" for n, u in due)
    commands = ", ".join(f"hc morale {n}" for n, _ in due)
    return (
        f"a Morale test is taken when it falls due (seed 001): {tests} must test before "
        f"{before}: {commands}"
    )


def triggers_text(unit: HcUnit) -> str:
    return ", ".join(TRIGGERS[t] for t in unit["due"])


def regroup_due(state: HcState) -> list[str]:
    """The routed Fireteams that may be given a Regroup order in this move's orders phase."""
    late = state["readings"]["regroup-after-rout"] == "next-move"
    return [
        name
        for name, u in state["units"].items()
        if u["morale"] == "routed"
        and u["left"]
        and u["regroup"] != state["move"]
        and not (late and u["routed"] == state["move"])
    ]


def routed_due(state: HcState, name: str, unit: HcUnit) -> str:
    advance = f"{name} is routed: it makes a full Advance move toward its own table edge"
    if unit["regroup"] == state["move"]:
        return f"{name} retreats a full Advance move toward its own table edge"
    in_orders = state["step"] == ORDERS and unit["routed"] < state["move"]
    at_once = unit["routed"] == state["move"] and (
        state["readings"]["regroup-after-rout"] == "at-once"
    )
    if in_orders or at_once:
        return f"{advance}, unless a Regroup order rallies it (hc rally {name})"
    return (
        f"{advance}, and again every move until a Regroup order rallies it (the orders "
        f"phase of move {state['move'] + 1}: hc rally {name})"
    )


def fill_morale(state, unit, me, at, flags, tables) -> Fill:
    if at:
        raise HcError("a Morale test is the Fireteam's own: it takes no --at", f"hc morale {unit}")
    notes = troop_and_casualties(me, flags)
    for trigger in me["due"]:
        if trigger not in flags:
            flags[trigger] = True
            notes.append(TRIGGERS[trigger])
    refusal = None
    if me["morale"] == "routed":
        refusal = f"{unit} is routed already: a Regroup order rallies it (hc rally {unit})"
    elif not me["due"]:
        refusal = f"no Morale test is due for {unit}"
    else:  # every step takes a test when it falls due
        refusal = step_check(state, "morale", me["side"])[1]
    return Fill(flags, refusal=refusal, notes=notes)


def fill_rally(state, unit, me, at, flags, tables) -> Fill:
    if at:
        raise HcError("a Regroup order is the Fireteam's own: it takes no --at", f"hc rally {unit}")
    notes = troop_and_casualties(me, flags)
    refusal = None
    reading = state["readings"]["regroup-after-rout"]
    if not state["move"]:
        refusal = "no move has begun: roll the Initiative first (hc initiative)"
    elif me["morale"] != "routed":
        refusal = f"{unit} is not routed: a Regroup order rallies a routed Fireteam"
    elif me["regroup"] == state["move"]:
        refusal = f"{unit} was given its Regroup order this move already"
    elif me["routed"] == state["move"] and reading == "next-move":
        refusal = (
            f"{unit} routed this move: a Regroup order is given in the orders phase of a "
            "later move (seed 001: the worked example rallies the move after the rout; "
            f"reading: regroup-after-rout = {reading}); the next is move "
            f"{state['move'] + 1}'s, after hc initiative"
        )
    elif me["routed"] == state["move"]:
        notes.append(f"routed this move (reading: regroup-after-rout = {reading})")
    else:
        refusal = step_check(state, "rally", me["side"])[1]
    return Fill(flags, refusal=refusal, notes=notes)


def troop_and_casualties(me: HcUnit, flags: dict[str, Any]) -> list[str]:
    """What a Morale test and a Regroup both take from the game: the troop type, and the
    casualties suffered (the casualty modifier's)."""
    notes = []
    if "troop" not in flags:
        flags["troop"] = me["troop"]
        notes.append(f"troop {me['troop']}")
    if me["casualties"] and "casualties" not in flags and "has_casualties" not in flags:
        flags["casualties"] = me["casualties"]
        notes.append(f"{count(me['casualties'], 'casualty')} suffered")
    return notes

"""The High Crusade move as data, in the seeds' own words: the orders phase and the five steps
(seed 000), the commands each step takes, and the rules a game keeps between actions. `hc game
rules` prints them; the game checks every action against them (`step_check`), so a command
taken where the sequence does not take it is refused with the rule's reason. Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.plugin.game_rules import Step
from hc_cli.rulesets.high_crusade.words import MOVE_SEQUENCE

if TYPE_CHECKING:
    from hc_cli.rulesets.high_crusade.state import HcState

PERIOD = "the move"
PLAYER_A, PLAYER_B, BOTH = "Player A", "Player B", "Both players"

# The orders phase opens the move (state["step"] 0), then the five steps (1..5): a step's
# number is its place here. "morale" is in every step: a test is taken when it falls due.
SEQUENCE = (
    Step(
        "orders",
        BOTH,
        "give their Fireteams their orders for the move; a routed Fireteam may be given a "
        "Regroup order, thrown after both sides use any Electronic Warfare Jammers",
        ("rally", "morale"),
        'seed 001: "issuing a Regroup order in the orders phase"',
    ),
    Step("1", PLAYER_A, "moves their Fireteams", ("morale",), "seed 000"),
    Step(
        "2",
        PLAYER_A,
        "may then fire any or all of their Fireteams, if they wish",
        ("fire", "morale"),
        "seed 000",
    ),
    Step("3", PLAYER_B, "moves", ("morale",), "seed 000"),
    Step(
        "4",
        PLAYER_A,
        "may fire any remaining Fireteams that have not fired this move",
        ("fire", "melee", "morale"),
        "seed 000",
    ),
    Step("5", PLAYER_B, "fires", ("fire", "melee", "morale"), "seed 000"),
)
ORDERS = 0
LAST = len(SEQUENCE) - 1

# Commands only the player whose step it is takes: "Player A may fire", "Player B fires". Any
# Fireteam fights hand to hand, takes its Morale test or is given its Regroup order.
OWN_COMMANDS = ("fire",)

# Where a command is taken, in the seeds' words: said when it is refused elsewhere.
RULE = {
    "fire": "{side} fires at {where} ({who}, seed 000)",
    "melee": "hand to hand is fought at {where}, once both sides have moved (seed 000: it "
    '"occurs when both sides troops have finished their respective movement")',
    "rally": 'a Regroup order is given in {where}, which opens the move (seed 001: "by issuing '
    'a Regroup order in the orders phase")',
}

BETWEEN = (
    'A move begins with its Initiative (hc initiative), won "at the start of the next move" '
    "(seed 000): taken before step 5, it ends the move all the same and says the steps it "
    "closes untaken; its orders phase comes next, before Player A moves: the modifiers to fire "
    '"depend on the firers orders for that move" (seed 000), a Regroup order is issued "in '
    'the orders phase" and a rallied Fireteam "will remain Static for the remainder of this '
    'move" (seed 001).',
    'Who fires when (seed 000): Player A at step 2 ("any or all of their Fireteams") and at '
    'step 4 ("any remaining Fireteams that have not fired this move"), Player B at step 5: a '
    "Fireteam fires once a move.",
    'Hand to hand (seed 000) "occurs when both sides troops have finished their respective '
    'movement and opposing troops end up with their bases touching": at step 4 or 5, once step '
    "3 is over. Whether a Fireteam that fought may still fire in its side's fire step is the "
    "reading fire-after-melee.",
    'Morale (seed 001): a Fireteam tests "whenever the following circumstances occur" (the '
    "first time it is fired at, ambushed, its first casualty, its strength below 50%): the "
    "game goes on to the next step or move once the tests due are taken (hc morale), or with "
    "--anyway.",
    'A Fireteam that fails its test "must immediately make a full Advance move towards its own '
    'table edge" and "will continue to do this every move, unless the player attempts to rally '
    'his unit, by issuing a Regroup order in the orders phase" (seed 001): it attacks no one hand '
    "to hand, but an enemy that reaches it fights it (the routed Fireteam named by --at): "
    "reading routed-attack.",
    'The Regroup order (seed 001) is thrown "after both sides use any Electronic Warfare '
    'Jammers": 5 or more rallies; the worked example rallies the move after the rout ("suffered '
    'their first casualty in the previous move"): reading regroup-after-rout.',
    'A rallied Fireteam (seed 001) is "regarded as a Static target" for the rest of the move '
    '(hc fills in --mod target-static) and "cannot fire any weapons during a Regroup move"; '
    '"Next move it can be ordered around as normal".',
    '"If during a Regroup move, the enemy inflicts further casualties on the Fireteam, then it '
    'will automatically rout" (seed 001): no roll.',
    'A heavy weapon (seed 000) fires under its template: "any figure (or part of) that falls '
    'with a heavy weapon template is treated as a target", each resolved on its own (--under N '
    "figures of the Fireteam fired at): reading heavy-weapon-shots.",
    'A figure "successfully hit and killed, is removed from the table" (seed 000): the kills '
    "come off the Fireteam fired at; which of its weapons' figures fall first: reading "
    "casualties-fall-on.",
)


def whose(step: Step, state: HcState) -> str | None:
    """The side whose step it is; None for a step of both players."""
    return {PLAYER_A: state["a"], PLAYER_B: state["b"]}.get(step.who)


def _takes(step: Step, command: str, side: str, state: HcState) -> bool:
    if command not in step.commands:
        return False
    return command not in OWN_COMMANDS or whose(step, state) == side


def step_check(
    state: HcState, command: str, side: str, empty: Any = None
) -> tuple[int, str | None]:
    """The step of the move `command` by a Fireteam of `side` is taken in, and why it may not
    be taken now. A step that does not take it ends when a later one that does is reached over
    steps of that side's own (or both players'), or over steps with nothing left to do
    (`empty(step)`, a fire step whose side has nothing left to fire): Player A's fire ends its
    move (step 1), Player B's fire its move (step 3) when Player A has nothing left to fire at
    step 4; it never ends the other player's step."""
    now = state["step"]
    if _takes(SEQUENCE[now], command, side, state):
        return now, None
    for later in range(now + 1, len(SEQUENCE)):
        if _takes(SEQUENCE[later], command, side, state):
            if all(
                whose(SEQUENCE[s], state) in (side, None) or (empty is not None and empty(s))
                for s in range(now, later)
            ):
                return later, None
            break
    return now, _refusal(state, command, side)


def _refusal(state: HcState, command: str, side: str) -> str:
    steps = [i for i, step in enumerate(SEQUENCE) if _takes(step, command, side, state)]
    if len(steps) > 1:
        where = "steps " + " and ".join(str(i) for i in steps)
    else:
        where = "the orders phase" if steps[0] == ORDERS else f"step {steps[0]}"
    rule = RULE[command].format(side=side, where=where, who=SEQUENCE[steps[0]].who)
    if any(i > state["step"] for i in steps):
        how = "hc game next moves the move on"
    else:
        how = f"it comes again in move {state['move'] + 1}: hc initiative"
    return f"{rule}; it is {where_now(state)} ({how})"


def where_now(state: HcState) -> str:
    """The step of the move, in words: "step 2: Orcs may fire any or all of its Fireteams"."""
    if state["step"] == ORDERS:
        return f"the orders phase: {step_words(state, ORDERS)}"
    return f"step {state['step']}: {step_words(state, state['step'])}"


def step_words(state: HcState, step: int) -> str:
    if step == ORDERS:
        return "both players give their orders, a Regroup order among them"
    return MOVE_SEQUENCE[step - 1].format(a=state["a"], b=state["b"])


def closed_undone(state: HcState, ready: Any) -> str | None:
    """The move ended by the Initiative of the next before its last step (the table comes
    first: the players may agree to skip): the steps it never reached, and the Fireteams that
    might still have fired in them (`ready(side)`), said. A fire step with nothing left to fire
    is not counted, nor what a player left undone in the step the move was at."""
    now = state["step"]
    steps, idle = [], []
    for step in range(now + 1, LAST + 1):
        side = whose(SEQUENCE[step], state)
        firing = "fire" in SEQUENCE[step].commands
        names = ready(side) if firing else []
        if firing and not names:
            continue
        steps.append(f"step {step} ({side} {'fire' if firing else 'move'})")
        idle += [n for n in names if n not in idle]
    if not steps:
        return None
    said = ", ".join(steps[:-1]) + " and " + steps[-1] if len(steps) > 1 else steps[0]
    fired = f": {', '.join(idle)} did not fire" if idle else ""
    return f"move {state['move']} is over: {said} not taken{fired}"

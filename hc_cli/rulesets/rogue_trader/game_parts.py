"""The parts of a Rogue Trader turn in a game (seed 003: movement, shooting, hand to hand,
reserves, psionics, rallying, in that order): what is still to do in them, and the word when an
action of a later part closes them with something left undone. Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hc_cli.rulesets.rogue_trader.game_fire import fired_models, living, side_playing
from hc_cli.rulesets.rogue_trader.sequence import PHASE_NAMES, PHASE_OF

if TYPE_CHECKING:
    from hc_cli.rulesets.rogue_trader.state import RtState


def ready_to_fire(state: RtState) -> list[str]:
    """The units of the side playing with a model left to fire this turn."""
    playing = side_playing(state)
    return [
        n
        for n, u in state["units"].items()
        if u["side"] == playing and living(u) and u["weapon"] and not u["stalled"]
        and not u["charged"] and not u["engaged"] and set(living(u)) - set(fired_models(u))
    ]  # fmt: skip


def fights(state: RtState) -> list[str]:
    """The combats of the game, each once: "boyz and marines"."""
    units = state["units"]
    return sorted({" and ".join(sorted((n, o))) for n, u in units.items() for o in u["engaged"]})


def to_part(state: RtState, part: int) -> list[str]:
    """The turn moved on to `part` (never back): the parts it closes with something left to do
    in them, said (a rally in the movement part ends the shooting with units still to fire)."""
    now = state.get("phase", 0)
    said = []
    if now <= PHASE_OF["fire"] < part and (ready := ready_to_fire(state)):
        said.append(f"the shooting part is over: {', '.join(ready)} did not fire")
    if now <= PHASE_OF["melee"] < part and (combats := fights(state)):
        said.append(f"the hand-to-hand part is over: {', '.join(combats)} did not fight")
    state["phase"] = max(now, part)
    if said and part != now:
        said.insert(0, f"the turn is at part {part}, {PHASE_NAMES[part]}")
    return said

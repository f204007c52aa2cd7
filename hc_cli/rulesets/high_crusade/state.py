"""The shape of a High Crusade game's state (what `game.GAME` folds a game file into, and what
a snapshot keeps as JSON), for the type checker: TypedDicts, so at run time the state is
plain dicts and lists, as JSON gives them back."""

from __future__ import annotations

from typing import TypedDict

from hc_cli.games.state import GameState


class HcUnit(TypedDict):
    """A Fireteam in the game (`unit_state`, with its side)."""

    side: str
    troop: str
    weapon: str  # the main weapon: the one most of its figures carry
    weapons: dict[str, int]  # the figures left with each weapon
    figures: int
    left: int
    casualties: int
    morale: str  # steady, routed, rallied (Static for the rest of its move)
    fired: bool  # this move
    fought: bool  # hand to hand, this move
    fired_at: bool  # ever: the first time is a Morale trigger
    below_half: bool  # its strength has fallen below 50%
    due: list[str]  # the triggers of the Morale test it must take
    regroup: int  # the move its last Regroup order was given in
    routed: int  # the move it last routed in
    order: str | None  # its order (orders.yaml): it stands until given again
    order_move: int  # the move it was given in


class HcState(GameState):
    """A game of High Crusade: the clock (move, step 0-5, Players A and B), the units."""

    units: dict[str, HcUnit]
    move: int
    step: int
    a: str | None
    b: str | None

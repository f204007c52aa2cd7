"""The shape of a Rogue Trader game's state (what `game.GAME` folds a game file into, and what
a snapshot keeps as JSON), for the type checker: TypedDicts, so at run time the state is
plain dicts and lists, as JSON gives them back."""

from __future__ import annotations

from typing import Any, TypedDict

from hc_cli.games.state import GameState


class RtUnit(TypedDict):
    """A unit in the game (`unit_state`, with its side): its models by their wounds taken."""

    side: str
    profile: str
    weapon: str | None
    w: int
    i: int | None  # it spots hiding enemies within this many inches
    taken: list[int]  # wounds on each model; W taken: removed
    fired: list[int]  # the models that have fired this turn
    moved: bool  # this turn, in the movement part
    inches: float  # moved in its side's turn (the last one, in the enemy's turn)
    charged: bool  # charged into hand-to-hand combat this turn
    stalled: bool  # a charge that failed to make contact: nothing else this turn
    reserve: bool  # made a reserve move this turn
    hidden: bool
    routing: bool
    markers: list[dict[str, Any]]  # each deviated marker waiting: model, range
    engaged: list[str]  # the enemy units it is in hand-to-hand combat with


class RtState(GameState):
    """A game of Rogue Trader: the turn, the side that went first and the one playing, the
    part of its turn (0-5), and the units."""

    units: dict[str, RtUnit]
    turn: int
    first: str | None
    playing: str | None
    phase: int

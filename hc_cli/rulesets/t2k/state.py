"""The shape of a Twilight: 2000 game's state (what `game.GAME` folds a game file into, and what
a snapshot keeps as JSON), for the type checker: TypedDicts, so at run time the state is
plain dicts and lists, as JSON gives them back."""

from __future__ import annotations

from typing import Any, TypedDict

from hc_cli.games.state import GameState


class T2kUnit(TypedDict):
    """A character in the game (`unit_state`, with its side)."""

    side: str
    asset: int
    strength: int
    initiative: int
    agility: int | None
    weapon: str
    bulk: int | None
    npc: bool
    magazine: int | None
    rounds: int | None
    feed: str | None
    # (least damage in all, wound level), as the tables give them (lists, read back from JSON)
    wound_damage: list[tuple[int, str]]
    out_damage: int
    reductions: dict[str, int]  # Initiative off, by wound level
    extra_above: int
    extra_round_up: int
    damage: int  # the wound level is the table's for it (game_order.wound_of)
    hits: list[dict[str, Any]]  # each hit taken: location, damage, who fired it
    out: bool  # killed, or out of the fight
    killed: bool  # by a quick kill
    reloading: int  # actions spent on a reload not yet done
    reload_needed: int  # the actions that reload takes
    reloaded_turn: int  # the combat turn of its last reload action


class Slot(TypedDict):
    """One place in an action turn's order: a character's action, or his extra one."""

    name: str
    initiative: int
    extra: bool
    done: bool


class T2kState(GameState):
    """A game of Twilight: 2000: the combat turn and action turn, this action turn's order, the
    order the last Initiative roll gave, and who may act outside the order."""

    units: dict[str, T2kUnit]
    combat_turn: int
    action_turn: int
    order: list[Slot]
    rolled: list[list]  # (name, extra) in the order the last roll gave
    outside: dict[str, str]  # name -> why he may act outside the order
    zone_kept: list[dict[str, Any]]  # each burst's danger zone dice kept (game_zone)

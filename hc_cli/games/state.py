"""What the state of every game holds, whatever its rules, for the type checker: its sides in
order, the readings chosen when it began, the game file's version. Each rule set's own state
module adds its units and its clock; nothing imports these at run time."""

from __future__ import annotations

from typing import NotRequired, TypedDict


class GameState(TypedDict):
    sides: list[str]
    readings: NotRequired[dict[str, str]]
    version: NotRequired[int]

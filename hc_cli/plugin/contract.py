"""The contract a rule set keeps with hc, for a type checker and a reader (nothing imports this
module at run time: `typing` is slow to import).

A rule set is a `hc_cli.plugin.declare.RuleSet` (its commands as data) whose `impl` module is a
`RuleSetModule`, and whose `game` module, if it keeps games, exposes `GAME`, a `GameRules`
(`hc_cli.plugin.game_rules.GameRules` is the base every bundled one extends; `KeepsGames` says
what the shared game code calls). Each bundled rule set's modules are checked against these
protocols at the bottom of its `commands.py` and `game.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from hc_cli.plugin.game_rules import Fill, Step
from hc_cli.tables.schema import Problems


class Resolver(Protocol):
    """How a rule set resolves one command (`hc_cli.plugin.declare.CommandSpec` is one)."""

    build: Callable[[dict[str, Any]], Any]  # option values -> typed request; or HcError
    resolve: Callable[[Any, Any, Any], Any]  # (tables, request, dice) -> Resolution
    odds: Callable[[Any, Any], Any]  # (tables, request) -> Resolution with odds


class RuleSetModule(Protocol):
    """The module a declaration's `impl` names: what the command line, `hc batch`, `hc replay`
    and TAB call."""

    @property
    def COMMANDS(self) -> Mapping[str, Resolver]:  # noqa: N802 - the module's constant
        """Command name -> (option values to a request; tables, request and dice to a
        Resolution; tables and request to the same Resolution with exact odds)."""

    def load_tables(self, house_files: list[str] | None = None, over: Any = None) -> Any:
        """The rule set's typed tables, with the house rules in force laid over them, and
        `over` (`hc sweep`'s one value, `hc_cli.tables.load.laid_over`) over those."""

    def schemas(self) -> tuple[dict, Any]:
        """The tables' schemas, and the check across tables (`cross_check`)."""

    def complete(self, tables: Any, command: str, option: str) -> list[str]:
        """The names TAB offers for an option of a command, from the tables in use."""


# The game state a rule set's GAME folds (its own TypedDict): the shared code hands back to
# a rule set only the state that rule set made.
State = TypeVar("State", contravariant=True)


class KeepsGames(Protocol[State]):
    """What the shared game code (`hc_cli.games`) asks of a rule set's `GAME`, for a game
    state of the shape `State` (`KeepsGames[HcState]`)."""

    @property
    def sides(self) -> tuple[int, int]: ...

    @property
    def whole_game(self) -> tuple[str, ...]: ...

    @property
    def unit_commands(self) -> tuple[str, ...]: ...

    @property
    def due_commands(self) -> tuple[str, ...]: ...

    @property
    def acting_unit_known(self) -> bool: ...

    @property
    def sequence(self) -> tuple[Step, ...]: ...

    @property
    def readings(self) -> dict[str, tuple[str, ...]]: ...

    @property
    def state_version(self) -> int: ...

    def check_unit(
        self, name: str, unit: dict, tables: Any, path: str, key: str, problems: Problems
    ) -> None: ...

    def resolved_unit(self, unit: dict, tables: Any) -> dict[str, Any]: ...

    def fill(
        self,
        state: State,
        command: str,
        unit: str | None,
        at: list[str],
        flags: dict[str, Any],
        tables: Any,
    ) -> Fill: ...

    def apply(self, state: State, entry: dict) -> list[str]: ...

    def next(self, state: State) -> list[str]: ...

    def due(self, state: State) -> list[str]: ...

    def due_units(self, state: State, command: str) -> list[str]: ...

    def hold(self, state: State) -> str | None: ...

    def clock(self, state: State) -> str: ...

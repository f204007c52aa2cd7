"""The contract a rule set keeps with hc, for a type checker and a reader (nothing imports this
module at run time).

A rule set is a `hc_cli.plugin.declare.RuleSet` (its commands as data) whose `impl` module is a
`RuleSetModule`, and whose `game` module, if it keeps games, exposes `GAME`, a `GameRules`
(`hc_cli.plugin.game_rules.GameRules`, the base every bundled one extends: `KeepsGames[State]`
names it for a rule set's own state). Each bundled rule set's modules are checked against
these at the bottom of its `commands.py` and `game.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeAlias, TypeVar

from hc_cli.core.dice import DiceSource
from hc_cli.core.model import Resolution
from hc_cli.plugin.game_rules import GameRules
from hc_cli.tables.load import TableSchemas
from hc_cli.tables.schema import Problems

# Every table's entries by name, as merged from the files: what a rule set's check across its
# tables reads, adding what is wrong to the problems.
CrossCheck = Callable[[dict[str, dict[str, dict[str, Any]]], Problems], None]
# `hc sweep`'s one value of the tables, laid over them: (what names it, table, entry, field,
# value), as `hc_cli.tables.load.laid_over` takes it.
Over = tuple[str, str, str, str, Any]


class Resolver(Protocol):
    """How a rule set resolves one command (`hc_cli.plugin.declare.CommandSpec` is one)."""

    build: Callable[[dict[str, Any]], Any]  # option values -> typed request; or HcError
    resolve: Callable[[Any, Any, DiceSource], Resolution]  # (tables, request, dice)
    odds: Callable[[Any, Any], Resolution]  # (tables, request) -> a Resolution with odds


class RuleSetModule(Protocol):
    """The module a declaration's `impl` names: what the command line, `hc batch`, `hc replay`
    and TAB call."""

    @property
    def COMMANDS(self) -> Mapping[str, Resolver]:  # noqa: N802 - the module's constant
        """Command name -> (option values to a request; tables, request and dice to a
        Resolution; tables and request to the same Resolution with exact odds)."""

    def load_tables(self, house_files: list[str] | None = None, over: Over | None = None) -> Any:
        """The rule set's typed tables, with the house rules in force laid over them, and
        `over` (`hc sweep`'s one value, `hc_cli.tables.load.laid_over`) over those."""

    def schemas(self) -> tuple[TableSchemas, CrossCheck | None]:
        """The tables' schemas, and the check across tables (`cross_check`)."""

    def complete(self, tables: Any, command: str, option: str) -> list[str]:
        """The names TAB offers for an option of a command, from the tables in use."""


# The game state a rule set's GAME folds (its own TypedDict): the shared code hands back to
# a rule set only the state that rule set made.
State = TypeVar("State", bound=Mapping[str, Any])

# What the shared game code (`hc_cli.games`) asks of a rule set's `GAME`, for a game state of
# the shape `State` (`KeepsGames[HcState]`): the base class's methods, as the rule set types
# them.
KeepsGames: TypeAlias = GameRules[State, Any]

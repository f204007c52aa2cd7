"""How a rule set declares its commands: plain data that the command line, the help, the TAB
completion, `hc batch` and `hc replay` are all built from.

A rule set is a package that exposes a `RuleSet` (registered under the `hc.rulesets` entry-point
group, see `hc_cli.plugin.registry`) and a `rules_data/<name>/` folder of YAML tables. Its
declaration imports nothing heavy: every TAB press reads it. The resolvers live in the module
named by `RuleSet.impl`, imported only when a command runs.

The implementation module exposes:
- `COMMANDS`: command name -> `CommandSpec` (request builder, resolver, odds);
- `load_tables(house_files, over)`: the merged, typed tables (see `hc_cli.tables.load`);
- `schemas()`: `(table schemas, cross_check)`, for `hc rules check`;
  (`hc_cli.plugin.typed_tables.Tables` makes these two from the schemas and a builder);
- `complete(tables, command, option)`: the names an option's value may take;
- `LUCK` (optional): command name -> `Luck`, how `hc luck` rates a result of it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

from hc_cli.tables.paths import data_root

if TYPE_CHECKING:
    from os import PathLike

    from hc_cli.plugin.contract import Over, RuleSetModule


# Units a distance or weight may carry: the word for help, the mark after a printed number.
UNITS = {"inches": '"', "metres": " m", "kg": " kg", "kph": " kph"}

KINDS = ("text", "number", "whole", "flag")
# What a number of a game may be unless its option says otherwise: distances, counts and
# characteristics all fit (a larger one is a typo, or volume for hc batch).
DEFAULT_BOUNDS: dict[str, tuple[float, float]] = {"number": (0, 100_000), "whole": (-1000, 1000)}


BEYOND_SHOTS = "hc batch for volume, --odds for a distribution"  # past the most --shots


class Option:
    """One option of a command (or, with `positional`, an argument).

    `kind` is text, number (a float), whole (an int) or flag; `many` makes it repeatable;
    `unit` (inches, metres, kg) is shown in the help and after the value in the output;
    `complete` says TAB offers names from the rule set's tables (its `complete()`);
    `conflicts` names options that cannot be given with this one.
    """

    __slots__ = (
        "name",
        "flags",
        "kind",
        "help",
        "unit",
        "many",
        "complete",
        "metavar",
        "default",
        "conflicts",
        "positional",
        "required",
        "low",
        "high",
        "most",
        "beyond",
    )

    def __init__(
        self,
        name: str,
        *flags: str,
        help: str,
        kind: str = "text",
        unit: str | None = None,
        many: bool = False,
        complete: bool = False,
        metavar: str | None = None,
        default: object = None,
        conflicts: tuple[str, ...] = (),
        positional: bool = False,
        required: bool = False,
        low: float | None = None,
        high: float | None = None,
        most: int | None = None,
        beyond: str = "",
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"option {name}: kind {kind!r} is not one of {KINDS}")
        if unit is not None and unit not in UNITS:
            raise ValueError(f"option {name}: unit {unit!r} is not one of {tuple(UNITS)}")
        self.name = name
        self.flags = flags or (() if positional else ("--" + name.replace("_", "-"),))
        self.kind = kind
        self.help = help
        self.unit = unit
        self.many = many
        self.complete = complete
        self.metavar = metavar
        self.default = False if kind == "flag" and default is None else default
        self.conflicts = conflicts
        self.positional = positional
        self.required = required
        # Bounds a player never meets: a number past them is a typo, or a job for hc batch.
        default_low, default_high = DEFAULT_BOUNDS.get(kind, (None, None))
        self.low = default_low if low is None else low
        self.high = default_high if high is None else high
        self.most = (1000 if positional else 100) if most is None else most  # repeats
        self.beyond = beyond

    def help_text(self) -> str:
        text = f"{self.help} ({self.unit})" if self.unit else self.help
        if self.kind in ("whole", "number") and (self.low, self.high) != DEFAULT_BOUNDS[self.kind]:
            from hc_cli.core.numbers import as_text

            low, high = self.low, self.high
            if low is not None and high is not None:
                text += f" [{as_text(low)}..{as_text(high)}]"
        return text

    # The options the rule sets' commands share, each declared once: a rule set calls one with
    # its own words (and unit).

    @classmethod
    def weapon(cls, help: str = "Weapon name.") -> Option:
        """-w/--weapon: a weapon of the tables (TAB offers them)."""
        return cls("weapon", "--weapon", "-w", complete=True, help=help)

    @classmethod
    def range(cls, unit: str, help: str = "Distance from the firer to the target.") -> Option:
        """-r/--range: a distance, in the rule set's unit."""
        return cls("range", "--range", "-r", kind="number", unit=unit, help=help)

    @classmethod
    def target(cls, help: str) -> Option:
        """-t/--target, repeatable: what is fired at, by its name in the tables."""
        return cls("target", "--target", "-t", many=True, complete=True, help=help, most=1000)

    @classmethod
    def shots(cls, help: str, high: int = 10_000, beyond: str = BEYOND_SHOTS) -> Option:
        """-n/--shots: how many shots the command fires together, 1 to `high`."""
        return cls(
            "shots", "--shots", "-n", kind="whole", help=help, low=1, high=high, beyond=beyond
        )

    @classmethod
    def mods(cls, help: str, name: str = "mod") -> Option:
        """--mod X (or another name), repeatable: a modifier by its table name or a number."""
        return cls(name, many=True, complete=True, metavar="X", help=help)

    @classmethod
    def sides(cls) -> Option:
        """--side NAME twice: the two sides of a roll-off."""
        return cls(
            "side",
            many=True,
            metavar="NAME",
            help="A side's name; give it twice (default: Side 1, Side 2).",
        )

    def __repr__(self) -> str:
        return f"Option({self.name!r})"


class Command:
    """One command: its one-line summary, a longer description, its options and examples.

    A rule set's commands resolve (`run` is None: the shared dispatcher builds the request with
    the rule set's `CommandSpec`) and take the options every resolving command takes, but
    one that rolls no dice (a move), which says `common=ROLLS_NOTHING`
    (`hc_cli.plugin.common_options`): no --seed, --dice or --odds. The shared commands (roll,
    tables, batch ...) name their own `run` and say which of the common options they take.
    """

    __slots__ = (
        "name",
        "summary",
        "description",
        "options",
        "examples",
        "common",
        "run",
        "sub",
        "dice",
        "called",
    )

    def __init__(
        self,
        name: str,
        summary: str,
        *,
        description: str = "",
        options: tuple[Option, ...] = (),
        examples: tuple[str, ...] = (),
        common: tuple[str, ...] | None = None,
        run: str | None = None,
        sub: tuple[Command, ...] = (),
        dice: str = "",
    ) -> None:
        self.name = name
        self.summary = summary
        self.description = description
        self.options = options
        self.examples = examples
        self.common = common
        self.run = run
        self.sub = sub
        # How a player calls it: "game next" for a command of a group.
        self.called = name
        for command in sub:
            command.called = f"{name} {command.called}"
        # The dice this command rolls, in the order the table rolls them, in the game's own
        # words: what --dice and --dice ask take (its --help says so, and only so).
        self.dice = dice

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def __repr__(self) -> str:
        return f"Command({self.name!r})"


class RuleSet:
    """A rule set as the command line sees it: its name, its game, where its tables are, its
    commands, and the module that resolves them (imported only to resolve)."""

    __slots__ = (
        "name",
        "title",
        "data",
        "commands",
        "impl",
        "field_units",
        "book",
        "game",
        "_module",
    )

    def __init__(
        self,
        name: str,
        title: str,
        *,
        data: str | PathLike[str],
        commands: tuple[Command, ...],
        impl: str,
        field_units: dict[str, str] | None = None,
        book: str = "the book",
        game: str | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.data = data
        self.commands = {c.name: c for c in commands}
        self.impl = impl
        # Distances among the results (a field, or `field.key` inside a mapping), beside the
        # options' own units: the output prints each with its unit.
        self.field_units = field_units or {}
        # What its tables' `source: seed NNN` tags are called in the output ("Rogue Trader
        # book"): a player must not take them for a random seed.
        self.book = book
        # The module whose `GAME` (an `hc_cli.plugin.game_rules.GameRules`) keeps a game of
        # this rule set: its roster and the rules between actions. None: the implementation
        # module's `GAME`, if it has one.
        self.game = game
        self._module: RuleSetModule | None = None

    @classmethod
    def bundled(
        cls,
        package: str,
        name: str,
        title: str,
        *,
        book: str,
        commands: tuple[Command, ...],
        field_units: dict[str, str] | None = None,
    ) -> RuleSet:
        """A rule set bundled with hc: its tables in hc's `rules_data/NAME`, its resolvers in
        `PACKAGE.commands` and its games in `PACKAGE.game`."""
        return cls(
            name,
            title,
            data=os.path.join(data_root(), name),
            impl=f"{package}.commands",
            game=f"{package}.game",
            book=book,
            commands=commands,
            field_units=field_units,
        )

    @property
    def module(self) -> RuleSetModule:
        """The module that resolves the rule set's commands, imported the first time it is
        wanted (help and TAB never import it)."""
        if self._module is None:
            import importlib

            self._module = importlib.import_module(self.impl)
        return self._module

    @property
    def game_rules(self) -> Any:
        """The `GAME` of the module it names for its games (`game`), else of its
        implementation module; None for a rule set that keeps no games."""
        import importlib

        return getattr(importlib.import_module(self.game or self.impl), "GAME", None)

    def load_tables(
        self, files: list[str] | tuple[str, ...] | None = None, over: Over | None = None
    ) -> Any:
        """Its tables, with the house-rules `files` over them (and `over`, one value: `hc
        sweep`'s point)."""
        if over is None:  # a plugin's load_tables need not take `over` until it is swept
            return self.module.load_tables(list(files) if files else None)
        return self.module.load_tables(list(files) if files else None, over)

    def units(self, command: str) -> dict[str, str]:
        """Name -> unit for every input and result of `command` that carries one."""
        cmd = self.commands.get(command)
        options = {o.name: o.unit for o in cmd.options if o.unit} if cmd else {}
        return {**self.field_units, **options}

    def __repr__(self) -> str:
        return f"RuleSet({self.name!r})"


@dataclass(frozen=True, slots=True)
class Luck:
    """How `hc luck` rates a command's result for the side that acted: where the result fell
    in its own exact distribution (`--odds` of the same action). One of three measures:
    - `count`: a number, better the more (`fewer` True: the fewer): the result's summary or
      field of that name, its odds distribution of that name; a lone shot with neither reads
      `single` (outcome -> count, others 0) against the odds' outcomes.
    - `order`: the outcome words from worst to best for the side that acted; `contest` True
      rates the same result for the target's side, the other way round.
    - `sides`: the outcome names the side that won (a roll-off): rated for every side."""

    count: str | None = None
    _: KW_ONLY
    fewer: bool = False
    single: dict[str, int] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    contest: bool = False
    sides: bool = False


class CommandSpec:
    """How a rule set resolves one command (in its implementation module)."""

    __slots__ = ("build", "resolve", "odds")

    def __init__(
        self,
        build: Callable[[dict[str, Any]], Any],  # option values -> typed request; or HcError
        resolve: Callable[[Any, Any, Any], Any],  # (tables, request, dice) -> Resolution
        odds: Callable[[Any, Any], Any],  # (tables, request) -> Resolution with odds
    ) -> None:
        self.build = build
        self.resolve = resolve
        self.odds = odds


def with_unit(value: object, unit: str | None) -> str:
    """A number as printed, with its unit's mark: 14 inches -> 14", 85 metres -> 85 m."""
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return text + UNITS[unit] if unit else text

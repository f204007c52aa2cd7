"""One resolution from plain values: the step the command line, `hc batch` and `hc replay`
share. No typer, no rich: a `Call` goes in, a `Resolution` comes out (or an `HcError`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hc_cli.core.dice import AskingDice, ScriptedDice, SeededDice, system_seed
from hc_cli.core.errors import HcError, UnknownName
from hc_cli.plugin import registry
from hc_cli.plugin.registry import DEFAULT_RULESET

if TYPE_CHECKING:
    from hc_cli.core.dice import DiceSource
    from hc_cli.core.model import Resolution
    from hc_cli.plugin.contract import Over, Resolver
    from hc_cli.plugin.declare import Command, Option, RuleSet

    # A call's checked request and how it resolves: the rule set, the command's resolver, the
    # typed request, and the unit of each input and result that carries one.
    Prepared = tuple[RuleSet, Resolver, Any, dict[str, str]]
    # The call before, with what it prepared: its options, the names given, its rule set and
    # command, how its options are spelt.
    Last = tuple[dict[str, Any], Iterable[str] | None, str, str, Callable[[str], str], Prepared]


def spell_option(name: str) -> str:
    """A command's option as typed on the command line: `wounds_left` -> `--wounds-left`."""
    return "--" + name.replace("_", "-")


@dataclass(frozen=True, slots=True)
class Call:
    command: str
    ruleset: str = DEFAULT_RULESET
    flags: dict[str, Any] = field(default_factory=dict)  # the command's own options
    seed: int | None = None
    dice: str | None = None
    odds: bool = False
    rules: tuple[str, ...] = ()
    exact: bool = False  # --exact: every exact probability of the odds, however long
    over: Over | None = None  # hc sweep's point: one table value laid over the rules


class Session:
    """Tables loaded once and reused by every call that asks for the same rule set and house
    rules: what makes a batch of thousands of resolutions fast."""

    def __init__(self) -> None:
        self._tables: dict[tuple[str, tuple[str, ...], Over | None], Any] = {}
        self._prepared: dict[Hashable, Prepared] = {}
        self._last: Last | None = None

    def tables(self, ruleset: RuleSet, rules: tuple[str, ...], over: Over | None = None) -> Any:
        key = (ruleset.name, rules, over)
        if key not in self._tables:
            self._tables[key] = ruleset.load_tables(rules, over)
        return self._tables[key]

    def prepared(
        self, call: Call, given: Iterable[str] | None, spell: Callable[[str], str]
    ) -> Prepared:
        """The checked, typed request of a call, and how it resolves: worked out once for
        every call that gives the same options (a batch of seeded fires builds one)."""
        last = self._last  # the very same options as the call before (a batch's seeded lines)
        if (
            last is not None
            and last[0] is call.flags
            and last[1] is given
            and last[2:5] == (call.ruleset, call.command, spell)
        ):
            return last[5]
        found = self._prepare(call, given, spell)
        self._last = (call.flags, given, call.ruleset, call.command, spell, found)
        return found

    def _prepare(
        self, call: Call, given: Iterable[str] | None, spell: Callable[[str], str]
    ) -> Prepared:
        names = frozenset(call.flags if given is None else given)
        try:
            key: Hashable | None = (
                call.ruleset,
                call.command,
                names,
                repr(sorted(call.flags.items())),
            )
            hash(key)
        except TypeError:
            key = None
        found = self._prepared.get(key) if key is not None else None
        if found is not None:
            return found
        ruleset = registry.get(call.ruleset)  # the one lookup of the rule set a call names
        declared = command_of(ruleset, call.command)
        check_options(declared, call.ruleset, set(names), spell, call.flags)
        spec = ruleset.module.COMMANDS[call.command]
        found = (ruleset, spec, spec.build(call.flags), ruleset.units(call.command))
        if key is not None and len(self._prepared) < 1024:
            self._prepared[key] = found
        return found

    def digest(self, ruleset: str, rules: tuple[str, ...]) -> str | None:
        tables = self._tables.get((ruleset, rules, None))
        return tables.merged.digest if tables is not None else None


def command_of(ruleset: RuleSet, command: str) -> Command:
    """The declaration of `command` in `ruleset`; a command it lacks is an error that names
    the rule sets that have it."""
    declared = ruleset.commands.get(command)
    if declared is None:
        raise missing_command(ruleset.name, command, list(ruleset.commands))
    return declared


def missing_command(ruleset: str, command: str, has: list[str]) -> HcError:
    elsewhere = registry.commands_elsewhere(command, ruleset)
    if elsewhere:
        hint = (
            f"{' and '.join(elsewhere)} {'has' if len(elsewhere) == 1 else 'have'} it: "
            f"hc {command} --ruleset {elsewhere[0]} ..."
        )
    else:
        hint = f"{ruleset} has: " + ", ".join([*has, "roll", "tables"])
    return HcError(f"{ruleset} has no '{command}' command", hint)


def shown(value: object, most: int = 40) -> str:
    """A value as a message quotes it: cut to a readable length."""
    text = (
        value
        if isinstance(value, str)
        else f"{value:g}"
        if isinstance(value, float)
        else repr(value)
    )
    return text if len(text) <= most else text[: most - 3] + "..."


TEXT_MOST = 1000  # characters: every name and value of a rule set is far shorter


def check_values(
    options: Iterable[Option], values: dict[str, Any], spell: Callable[[str], str] = spell_option
) -> None:
    """Every value within what its option declares: a finite number inside its bounds, no
    more repeats than a game has. The message names the option, the value and what is right."""
    import math

    from hc_cli.core.numbers import as_text

    for option in options:
        value = values.get(option.name)
        if value is None:
            continue
        items = value if isinstance(value, (list, tuple)) else [value]
        if option.many and len(items) > option.most:
            raise HcError(
                f"{len(items)} x {spell(option.name)}: more than the {option.most} a command takes",
                option.beyond or "split it over several commands, or use hc batch",
            )
        if option.kind == "text":
            for item in items:
                if isinstance(item, str) and len(item) > TEXT_MOST:
                    raise HcError(
                        f"{spell(option.name)}: a value of {len(item):,} characters, more than "
                        f"the {TEXT_MOST:,} a name or a value of a game ever needs",
                        f"give {spell(option.name)} a shorter value",
                    )
        low, high = option.low, option.high  # a number's bounds: every number has them
        if option.kind not in ("number", "whole") or low is None or high is None:
            continue
        for item in items:
            if isinstance(item, float) and not math.isfinite(item):
                raise HcError(
                    f"{spell(option.name)} {shown(item)} is not a number a table can use",
                    f"give {spell(option.name)} as a number from {as_text(low)} to {as_text(high)}",
                )
            if not low <= item <= high:
                unit = f" {option.unit}" if option.unit else ""
                raise HcError(
                    f"{spell(option.name)} {shown(item)} is out of bounds: {as_text(low)}.."
                    f"{as_text(high)}{unit}",
                    option.beyond
                    or f"give {spell(option.name)} from {as_text(low)} to {as_text(high)}",
                )


def check_options(
    declared: Command,
    ruleset: str,
    given: set[str],
    spell: Callable[[str], str] = spell_option,
    flags: dict[str, Any] | None = None,
) -> None:
    """Every option given is one the command declares, and none conflicts with another."""
    names = {o.name for o in declared.options}
    foreign = sorted(given - names)
    if foreign:
        raise HcError(
            ", ".join(spell(f) for f in foreign) + f" does not apply to {ruleset} {declared.name}",
            f"{ruleset} {declared.name} takes: " + ", ".join(spell(f) for f in sorted(names)),
        )
    check_values(declared.options, flags or {}, spell)
    for option in declared.options:
        clash = [c for c in option.conflicts if c in given]
        if option.name in given and clash:
            raise HcError(
                f"{spell(option.name)} and {spell(clash[0])} do not go together",
                f"give one of {spell(option.name)} or {spell(clash[0])}",
            )


_ECHOED: dict[tuple[int, tuple[str, ...]], tuple[dict[str, Any], list[tuple[str, Any]]]] = {}


def echo_inputs(res: Resolution, flags: dict[str, Any]) -> Resolution:
    """Every option the player gave among the resolution's inputs, named as the option: what
    a resolver did not list itself (a flag, an override) is added, so the inputs say whole
    what decided the result. Worked out once for the same options and inputs (a batch)."""
    key = (id(flags), tuple(res.inputs))
    found = _ECHOED.get(key)
    if found is not None and found[0] is flags:
        res.inputs.update(found[1])
        return res
    before = set(res.inputs)
    listed = None
    for name, value in flags.items():
        if name in res.inputs or name + "s" in res.inputs or _empty(value):
            continue
        if listed is None:  # compared with their types: True is not the shots' 1
            listed = {(type(v), repr(v)) for v in res.inputs.values() if not _empty(v)}
        value = list(value) if isinstance(value, tuple) else value
        if (type(value), repr(value)) not in listed:
            res.inputs[name] = value
    if len(_ECHOED) >= 256:
        _ECHOED.clear()
    _ECHOED[key] = (flags, [(k, v) for k, v in res.inputs.items() if k not in before])
    return res


def _empty(value: object) -> bool:
    return value is None or value is False or (isinstance(value, (str, list, tuple)) and not value)


Ask = tuple[Callable[[str], "str | None"], Callable[[str], None]]  # read a line; show a line


def execute(
    call: Call,
    session: Session | None = None,
    given: Iterable[str] | None = None,
    spell: Callable[[str], str] = spell_option,
    ask: Ask | None = None,
) -> Resolution:
    """Resolve (or enumerate, with `odds`) one call. `given` names the options the user set:
    any the rule set does not read is an error rather than silently ignored. `ask`: how to
    ask a person for dice (`--dice ask`), where there is one; otherwise the dice are the
    player's (`--dice`) or seeded with the call's seed."""
    session = session or Session()
    if call.dice is not None and not call.dice.strip():  # --dice "$D" with D unset: no roll
        raise HcError(  # of the computer's in its place
            "--dice is empty", "give your dice, e.g. --dice 4,6, or leave out --dice to roll"
        )
    if call.odds and (call.seed is not None or call.dice):
        raise HcError(
            "--odds rolls nothing, so --seed and --dice do not go with it",
            "leave out --seed/--dice, or leave out --odds to roll",
        )
    if call.seed is not None:
        from hc_cli.plugin.common_options import SEED_OPTION

        check_values((SEED_OPTION,), {"seed": call.seed}, spell)
    if call.seed is not None and call.dice:
        raise HcError(
            "--seed and --dice both given",
            "give --seed N to replay a roll, or --dice LIST to use your own dice",
        )
    if call.command == "roll":
        from hc_cli.core.roll import resolve_roll
        from hc_cli.core.weigh import roll_odds

        registry.get(call.ruleset)  # a roll names a rule set that exists
        expression = call.flags.get("expression")
        if not isinstance(expression, str):
            raise HcError("no dice to roll", "give an expression such as d100, 2d6+1 or d3")

        def resolve(dice: DiceSource) -> Resolution:
            return resolve_roll(expression, dice, call.ruleset)

        def odds() -> Resolution:
            return roll_odds(expression, call.ruleset)
    else:
        ruleset, spec, request, units = session.prepared(call, given, spell)
        tables = session.tables(ruleset, call.rules, call.over)
        book = ruleset.book

        # By name, as the breakdown names them (the log records each path and digest).
        house = [
            p.rpartition("/")[2] for p in getattr(getattr(tables, "merged", None), "house", [])
        ]

        def resolve(dice: DiceSource) -> Resolution:
            res = spec.resolve(tables, request, dice)
            res.units, res.book, res.house_rules = units, book, house
            return res

        def odds() -> Resolution:
            res = spec.odds(tables, request)
            res.units, res.book, res.house_rules = units, book, house
            return res

    if call.exact and not call.odds:
        raise HcError("--exact is for --odds", "add --odds, or leave out --exact")
    try:
        return _run(call, resolve, odds, ask)
    except UnknownName as error:
        raise _found_elsewhere(error, call) from None


def _found_elsewhere(error: UnknownName, call: Call) -> HcError:
    """A name the rule set in force lacks, said with the rule set that has it: `-w ingrave-ar`
    under t2k is a High Crusade weapon."""
    if error.suggestions:
        return error
    from hc_cli.plugin.values import values_for

    for other in registry.names():
        if other == call.ruleset:
            continue
        try:
            declared = registry.get(other).commands.get(call.command)
        except HcError:
            continue
        for option in declared.options if declared is not None else ():
            if option.complete and error.name in values_for(other, call.command, option.name, []):
                flag = spell_option(option.name)
                return HcError(
                    error.message + f" in {call.ruleset}",
                    f"{error.name} is a {error.kind} of {other}: hc {call.command} --ruleset "
                    f"{other} {flag} {error.name} ...",
                )
    return error


def _run(
    call: Call,
    resolve: Callable[[DiceSource], Resolution],
    odds: Callable[[], Resolution],
    ask: Ask | None,
) -> Resolution:
    if call.odds:
        res = echo_inputs(odds(), call.flags)
        if res.odds is not None:
            res.odds.every_exact = call.exact
        return res
    if call.dice and call.dice.strip().lower() == "ask":
        if ask is None:
            raise HcError(
                "--dice ask needs a player to ask", "give the dice as a list: --dice 3,3,4,1"
            )
        dice: DiceSource = AskingDice(*ask)
    elif call.dice:
        dice = ScriptedDice(call.dice)
    else:
        dice = SeededDice(call.seed if call.seed is not None else system_seed())
    res = echo_inputs(resolve(dice), call.flags)
    dice.finish()
    # A resolution that rolled nothing (a move, an automatic rout) has no seed to replay.
    rolled = res.rolls or any(shot.rolls for shot in res.shots)
    res.seed = dice.seed if rolled else None
    if call.dice:
        res.inputs["dice"] = dice.entered if isinstance(dice, AskingDice) else call.dice
    return res

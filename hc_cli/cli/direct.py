"""A resolving command, well formed, run without importing typer: the common case at the table.

Importing typer (and click inside it) costs several times a bare interpreter's start on its
own, and a command that resolves needs none of it: its options are declared as data
(`hc_cli.plugin.declare`). `parse` reads a command line the way click reads the generated command,
for the plain forms only: `--ruleset NAME` and `--game FILE` before the command, then the
command's declared options as `--name VALUE`, `--name=VALUE` or a declared short flag, its
positional arguments, and numbers written plainly (`14`, `-1`, `2.5`). Anything else (help,
`--version`, an unknown or misspelt option, a missing value or argument, `--`, a number click
would have to convert, a command that is not a resolving one) returns None and the typer
command line takes it, with its help and its messages. Both paths end in
`hc_cli.cli.runner.dispatch`; tests/test_two_ways_in.py runs every kind of command line both
ways and compares the bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hc_cli.cli.walk import GROUP_OPTIONS, group_options, words

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

_WHOLE = frozenset("0123456789")


def _direct_runs() -> frozenset:
    """What the direct path runs: a rule set's resolving commands (run None), roll, and the
    game's own commands (`hc_cli.cli.game_commands`); the rest (tables, batch ...) goes to typer."""
    from hc_cli.plugin.shared_commands import GAME_RUNS

    return frozenset((None, "roll", *GAME_RUNS))


def _plain_whole(text: str) -> bool:
    digits = text[1:] if text[:1] == "-" else text
    return bool(digits) and set(digits) <= _WHOLE


def _plain_number(text: str) -> bool:
    """A decimal number as a player or a script writes one: 14, -2.5, .5, 1e1, 2.5E-1 (what
    click's float reads in other forms, typer reads)."""
    mantissa, e, exponent = text.partition("e") if "e" in text else text.partition("E")
    if e and not _plain_whole(exponent[1:] if exponent[:1] == "+" else exponent):
        return False
    whole, dot, fraction = mantissa.partition(".")
    if dot and not (fraction and set(fraction) <= _WHOLE):
        return bool(dot) and not fraction and _plain_whole(whole)  # 14.
    return _plain_whole(whole) or (bool(dot) and whole in ("", "-"))


def _takes_value(option: Any) -> bool:
    return option.kind != "flag"


def _convert(kind: str, text: str) -> Any:
    """The value click would give, or None when click would have to decide."""
    if kind == "whole":
        return int(text) if _plain_whole(text) and len(text) < 40 else None
    if kind == "number":
        return float(text) if _plain_number(text) and len(text) < 40 else None
    return text


def parse(
    args: Sequence[str], env: Mapping[str, str]
) -> tuple[str, str, dict[str, Any], set[str], str | None] | None:
    """(command, rule set, option values, names given, what runs it) for a plain command line
    the direct path runs; None for anything the typer command line should read."""
    from hc_cli.core.errors import HcError
    from hc_cli.games import choice
    from hc_cli.plugin import registry
    from hc_cli.plugin.common_options import common_options
    from hc_cli.plugin.shared_commands import SHARED_COMMANDS

    tail: list[str] = []  # after --: hc roll's expression alone (hc roll -4d6), as typer reads it
    if "--" in args:
        cut = list(args).index("--")
        args, tail = list(args[:cut]), list(args[cut + 1 :])
        if len(tail) != 1:
            return None
    if not args:
        return None
    start, group_game = group_options(args)
    if start is None or start >= len(args):
        return None
    try:
        ruleset = choice.choose(args, env)[0]
        declaration = registry.get(ruleset)
    except HcError:
        return None  # the typer command line says what is wrong
    name = args[start]
    if tail and name != "roll":
        return None
    declared = declaration.commands.get(name)
    if declared is None:
        declared = next((c for c in SHARED_COMMANDS if c.name == name), None)
    if declared is not None and declared.sub:
        if start + 1 >= len(args):
            return None
        start += 1
        declared = next((c for c in declared.sub if c.name == args[start]), None)
    if declared is None or declared.run not in _direct_runs():
        return None
    options = [o for o in (*declared.options, *common_options(declared)) if not o.positional]
    by_flag = {flag: o for o in options for flag in o.flags}
    positional = [o for o in (*declared.options, *common_options(declared)) if o.positional]
    values: dict[str, Any] = {} if group_game is None else {"game": group_game}
    given: set[str] = set()
    for kind, option, text, equals, _ in words(args[start + 1 :], by_flag, _takes_value):
        if kind == "unknown":
            return None  # help, a misspelling, another game's option: typer explains
        if kind == "positional":
            if not positional:
                return None
            option = positional[0] if positional[0].many else positional.pop(0)
        elif kind == "flag":
            if equals:
                return None
            values[option.name] = True
            given.add(option.name)
            continue
        value = None if text is None else _convert(option.kind, text)
        if value is None:
            return None  # a value missing, or one click would have to convert
        if option.many:  # an argument takes every word left, as click's nargs=-1
            values[option.name] = (*values.get(option.name, ()), value)
        else:
            values[option.name] = value
        given.add(option.name)
    if tail:
        if not positional or positional[0].name in values:
            return None
        values[positional[0].name] = tail[0]
        given.add(positional[0].name)
    if any(o.required and o.name not in values for o in positional) or any(
        o.required and o.name not in values for o in options
    ):
        return None
    return name, ruleset, values, given, declared.run


def _asks_for_help(args: Sequence[str]) -> bool:
    """Whether a command line may ask for help or the version (looked at before anything is
    imported for it: a resolving command pays nothing for help)."""
    words = [w for w in args if not w.startswith(GROUP_OPTIONS)]
    return (
        len(words) <= 1
        or "--help" in args
        or "-h" in args
        or "--version" in args
        or any(c.sub for c in _shared() if c.name in words[:1])
    )


def _shared() -> tuple:
    from hc_cli.plugin.shared_commands import SHARED_COMMANDS

    return SHARED_COMMANDS


def help_text(args: Sequence[str], env: Mapping[str, str]) -> tuple[str, int, bool] | None:
    """The help (or version) a command line asks for, as typer would print it: (text, exit
    code, whether on stderr); None for anything else. Help is written from the declarations
    (`hc_cli.cli.help`), so no help needs typer."""
    if "--" in args or not _asks_for_help(args):
        return None
    from hc_cli.cli import help as helps
    from hc_cli.cli.runner import width
    from hc_cli.core.errors import HcError
    from hc_cli.games import choice
    from hc_cli.plugin import registry
    from hc_cli.plugin.common_options import common_options
    from hc_cli.plugin.shared_commands import SHARED_COMMANDS

    start = group_options(args)[0]
    if start is None:
        return None
    try:
        ruleset, source = choice.choose(args, env)
        flagged = source == "--ruleset"
        declaration = registry.get(ruleset)
    except HcError:
        return None  # the typer command line says what is wrong
    rest = args[start:]
    if not rest:
        return helps.main_help(ruleset, source, width()), 2, True
    if rest[0] in ("--help", "-h"):
        return helps.main_help(ruleset, source, width()), 0, False
    if rest[0] == "--version" and len(rest) == 1:
        return helps.version_text(ruleset, source), 0, False
    shared = {c.name: c for c in SHARED_COMMANDS}
    declared = declaration.commands.get(rest[0]) or shared.get(rest[0])
    if declared is None:
        return None
    rest = rest[1:]
    if declared.sub:
        if not rest:
            return helps.group_help(declared, width()), 2, True
        if rest[0] in ("--help", "-h"):
            return helps.group_help(declared, width()), 0, False
        declared = next((c for c in declared.sub if c.name == rest[0]), None)
        if declared is None:
            return None
        rest = rest[1:]
    options = [o for o in (*declared.options, *common_options(declared)) if not o.positional]
    by_flag = {flag: o for o in options for flag in o.flags}
    for kind, _, word, _, _ in words(rest, by_flag, _takes_value, equals_on_short=True):
        if kind == "unknown" and word in ("--help", "-h"):  # a flag, not an option's value
            own = declared.name in declaration.commands and declared not in shared.values()
            takes = any(o.name == "ruleset" for o in common_options(declared))
            carried = ruleset if flagged and takes else None
            text = helps.command_help(declared, ruleset if own else None, carried, width())
            return text, 0, False
    return None


def run(args: Sequence[str], env: Mapping[str, str]) -> int | None:
    """Resolve a plain command line and return its exit code; None: let typer read it."""
    asked = help_text(args, env)
    if asked is not None:
        from hc_cli.cli.runner import echo

        text, code, err = asked
        echo(text, err=err)
        return code
    parsed = parse(args, env)
    if parsed is None:
        return None
    from hc_cli.cli.runner import dispatch, echo

    name, ruleset, values, given, runs = parsed
    try:
        if runs is not None and runs != "roll":
            from hc_cli.cli.game_commands import run as run_game

            return run_game(runs, values)
        return dispatch(name, ruleset, values, given)
    except KeyboardInterrupt:  # Ctrl-C: 130, as typer's command line and a shell say it
        echo("", err=True)
        return 130
    except EOFError:  # as click ends a command whose input ended
        echo("", err=True)
        echo("Aborted!", err=True)
        return 1

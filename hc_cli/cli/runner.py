"""Running a resolving command once click has read its options: resolve, print, log.

Printing follows `click.echo`: one write and a flush.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from hc_cli.core.errors import HcError
from hc_cli.core.words import printable
from hc_cli.plugin.common_options import COMMON_NAMES


def echo(text: str, err: bool = False) -> None:
    """`click.echo` for a line of text: one write and a flush. Nothing to strip: the text
    holds escape codes only where colour was wanted (`wants_colour`)."""
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except Exception:  # a closed or odd stream: not a terminal
        return False


def say_error(command: str, error: HcError) -> int:
    """`hc COMMAND: what is wrong` and the hint below it, on stderr, wrapped between words to
    the terminal's width; the exit code (2)."""
    import textwrap

    lines = [printable(line) for line in str(error).splitlines()]  # a name from a file may
    # hold anything: nothing it holds reaches the terminal raw
    first = f"hc {command}: {lines[0]}" if command else f"hc: {lines[0]}"
    said = [(first, "", "    "), *((line, "  ", "    ") for line in lines[1:])]
    size = width(err=True)
    for text, lead, then in said:
        wrapped = textwrap.wrap(
            text,
            width=size,
            initial_indent=lead,
            subsequent_indent=then,
            break_long_words=False,
            break_on_hyphens=False,
        )
        echo("\n".join(wrapped or [lead]), err=True)
    return 2


def wants_colour(no_color: bool) -> bool:
    """Colour where rich would draw it (a terminal, or FORCE_COLOR or TTY_COMPATIBLE saying
    so, a TERM that has colour); never with --no-color or NO_COLOR: plain text, as CLI.md
    says. Asked only of text to draw, so JSON never imports rich."""
    if no_color:
        return False
    from rich.console import Console

    console = Console()
    return console.is_terminal and not console.no_color and console.color_system is not None


def width(err: bool = False) -> int:
    """The terminal's width (`shutil.get_terminal_size`: COLUMNS first, as shells set it); 80
    when there is none. `err`: for what goes to stderr (a message, a dice prompt's word), whose
    terminal is asked first: with stdout piped (| tee) a message is still wrapped to the
    screen it is shown on, between words."""
    import shutil

    given = os.environ.get("COLUMNS", "")
    columns = 0
    if err and not (given.isdigit() and int(given) > 0):
        try:
            columns = os.get_terminal_size(sys.__stderr__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    if columns <= 0:
        columns = shutil.get_terminal_size((80, 24)).columns
    return max(columns if columns > 0 else 80, 20)


def output(
    res: Any,
    json: bool,
    no_color: bool,
    quiet: bool = False,
    verbose: bool = False,
    collect: list | None = None,
) -> None:
    if json and collect is not None:  # one of several units' results: printed together
        from hc_cli.log.entry import as_dict

        collect.append(as_dict(res))
        return
    if json:
        from hc_cli.render.json_text import render as render_json

        echo(render_json(res))
        return
    from hc_cli.render.text import render

    colour = wants_colour(no_color)  # with colour, the odds are drawn as bars too
    echo(render(res, colour, colour, width(), quiet, verbose))


MAX_ENTRY = 4096  # characters: a line of dice, however many a volley asks for at once


def _ask_line(prompt: str) -> str | None:
    """One line of dice from the player (or a script's stdin); None at the end of input. At a
    terminal the line is read with the standard line editor (arrows, history), where Python
    has one. A line past MAX_ENTRY characters (no player types one; /dev/zero would) is an
    error."""
    if _isatty(sys.stdin) and _isatty(sys.stdout):
        try:
            import readline  # noqa: F401 - loading it gives input() the line editor
        except ImportError:
            pass
        try:
            line = input(prompt)
        except EOFError:
            return None
        if len(line) > MAX_ENTRY:
            raise HcError(
                f"--dice ask: an entry longer than {MAX_ENTRY:,} characters",
                "enter the dice a line at a time, values separated by spaces",
            )
        return line
    sys.stderr.write(prompt)
    sys.stderr.flush()
    line = sys.stdin.readline(MAX_ENTRY + 1)
    if len(line) > MAX_ENTRY:
        raise HcError(
            f"--dice ask: an entry longer than {MAX_ENTRY:,} characters",
            "enter the dice a line at a time, values separated by spaces",
        )
    if not sys.stdin.isatty():  # show what a script answered, as a person's typing shows
        sys.stderr.write(line if line.endswith("\n") else line + "\n")
    return line or None


def _tell(text: str) -> None:
    """A word to the player at a dice prompt, wrapped between words to the terminal."""
    import textwrap

    lines = textwrap.wrap(
        text,
        width=width(err=True),
        initial_indent="  ",
        subsequent_indent="    ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    echo("\n".join(lines or ["  "]), err=True)


def dispatch(command: str, ruleset: str, values: dict[str, Any], given: set[str]) -> int:
    """Resolve `command` of `ruleset` with the option values given (`given` names those set on
    the command line): the rule set builds the request and resolves it (`hc_cli.plugin.execute`);
    then print, and log if asked. Returns the exit code. Several units (`hc fire a b --at
    c`, `hc morale --due`) act one after another, each its own action of the game."""
    units = values.get("unit")
    if isinstance(units, (tuple, list)):
        values = {**values, "unit": units[0] if len(units) == 1 else None}
        if len(units) != 1:
            given = given - {"unit"}
    else:
        units = ()
    try:
        several = _several(command, values, tuple(units))
    except HcError as error:
        return say_error(command, error)
    if several is None:
        return _dispatch_one(command, ruleset, values, given)
    collect: list | None = [] if values.get("json") else None
    code = 0
    for i, (unit, dice, seed) in enumerate(several):
        one = {**values, "unit": unit, "dice": dice, "seed": seed, "due": None}
        code = _dispatch_one(command, ruleset, one, (given - {"due"}) | {"unit"}, collect)
        if code:
            if i:
                done = ", ".join(u for u, _, _ in several[:i])
                left = ", ".join(u for u, _, _ in several[i:])
                echo(f"  done: {done}; not done: {left}", err=True)
            break
    if collect:
        from hc_cli.render.json_text import dumps

        echo(dumps(collect))
    return code


def _several(
    command: str, values: dict[str, Any], units: tuple[str, ...]
) -> list[tuple[str, str | None, int | None]] | None:
    """Each unit that acts, with its dice and its seed; None for a command of one unit (or
    none). `--dice` for several: each unit's separated by '/' (4,6/3,3), or one value each;
    `--seed N`: N for the first, N + 1 for the next, and so on."""
    due = bool(values.get("due"))
    if due:
        if units:
            raise HcError(
                "--due takes every unit whose test is due: no unit is named with it",
                f"hc {command} --due, or hc {command} UNIT",
            )
        from hc_cli.games import choice
        from hc_cli.games.views import due_units

        found = choice.game_in_force(values.get("game"))
        if found is None:
            raise HcError(
                "--due takes the tests due in a game: no game is in force",
                "give --game FILE, or set HC_GAME=FILE",
            )
        units = tuple(due_units(found[0], command))
        if not units:
            raise HcError(f"no {command} test is due in the game", "hc status says what is")
    elif len(units) < 2:
        return None
    else:
        from hc_cli.games import choice

        found = choice.game_in_force(values.get("game"))
        if found is not None:
            from hc_cli.games.views import check_units

            check_units(found[0], command, units)
    dice = values.get("dice")
    chunks: list[str | None] = [dice] * len(units)
    if dice is not None and dice.strip().lower() != "ask":
        if "/" in dice:
            chunks = [part.strip() for part in dice.split("/")]
        else:
            chunks = [v for v in dice.replace(",", " ").split()]
        if len(chunks) != len(units):
            raise HcError(
                f"--dice for {len(units)} units ({', '.join(units)}): {len(chunks)} given",
                "give each unit's dice in turn, separated by '/' (--dice 4,6/3,3), or one "
                "value each when each rolls one die (--dice 4,7)",
            )
    seed = values.get("seed")
    seeds = [None if seed is None else (seed + i) % 2**63 for i in range(len(units))]
    return list(zip(units, chunks, seeds, strict=True))


def _dispatch_one(
    command: str,
    ruleset: str,
    values: dict[str, Any],
    given: set[str],
    collect: list | None = None,
) -> int:
    """One action: resolved (in the game in force, or sealed in it), printed, logged."""
    from hc_cli.plugin.execute import Session

    call = _call(command, ruleset, values, given)
    session = Session()
    try:
        game = _game_for(command, ruleset, values)
        if game is not None and (values.get("sealed") or values.get("hidden")):
            return _seal(call, game, values, session)
        res, report, call = _resolve(call, game, values, given, session)
    except HcError as error:
        return say_error(command, error)
    return _print_and_log(res, report, call, values, session, collect)


def _call(command: str, ruleset: str, values: dict[str, Any], given: set[str]) -> Any:
    """The call the options make: the command's own options given, and the common ones."""
    from hc_cli.plugin.execute import Call

    flags = {k: v for k, v in values.items() if k not in COMMON_NAMES and k in given}
    return Call(
        command,
        ruleset,
        flags,
        values.get("seed"),
        values.get("dice"),
        bool(values.get("odds")),
        tuple(values.get("rules") or ()),
        bool(values.get("exact")),
    )


def _game_for(command: str, ruleset: str, values: dict[str, Any]) -> str | None:
    """The game file the action is kept in (None: resolved on its own), or what is wrong with
    a sealed or hidden roll asked for where it cannot be."""
    if values.get("log") is not None:
        from hc_cli.log.chain import refuse_game_file

        refuse_game_file(values["log"])
    game = _game_of(command, ruleset, values)
    sealing = values.get("sealed") or values.get("hidden")
    if command == "roll" and values.get("sealed_roll"):  # a sealed roll's own dice
        game = values["game"]
    if sealing and command == "roll" and game is None:  # a plain roll, kept in the game
        from hc_cli.games import choice

        found = choice.game_in_force(values.get("game"))
        game = found[0] if found is not None else None
    if game is None and sealing:
        raise HcError("a sealed roll is a game's", "seal it in a game: --game FILE")
    if values.get("hidden") and command != "roll":
        raise HcError(
            "a hidden roll is a plain roll of dice (hc roll EXPR --hidden): a result the "
            "game keeps cannot wait sealed while the game goes on",
            "seal the action for both to see: --sealed",
        )
    return game


def _seal(call: Any, game: str, values: dict[str, Any], session: Any) -> int:
    """A sealed (or hidden) action: its seed comes from both players' secrets (hc seal)."""
    if values.get("log") is not None:
        raise HcError("a sealed roll is kept in the game file itself", "leave out --log")
    if values.get("seed") is not None or values.get("dice") or values.get("odds"):
        raise HcError(
            "a sealed roll takes its seed from both players' secrets: no --seed, --dice or --odds",
            "leave them out",
        )
    from hc_cli.games.actions import seal_action

    said = seal_action(call, game, *_acting(values), session, bool(values.get("hidden")),
                       bool(values.get("agreed")))  # fmt: skip
    if values.get("json"):
        import json

        echo(json.dumps({k: v for k, v in said.items() if k != "say"}))
    elif values.get("quiet"):
        echo(said["say"][-1].strip())  # the line to paste
    else:
        from hc_cli.render.wrap import wrap

        echo(wrap(said["say"], width()))
    echo(f"logged to {printable(game)}: receipt {said['receipt']}", err=True)
    return 0


def _acting(values: dict[str, Any]) -> tuple[str | None, list[str], bool]:
    """The unit that acts in the game, the units it acts against, and whether anyway."""
    return values.get("unit"), list(values.get("at") or ()), bool(values.get("anyway"))


def _resolve(
    call: Any, game: str | None, values: dict[str, Any], given: set[str], session: Any
) -> tuple[Any, dict[str, Any] | None, Any]:
    """(the resolution, the game's report or None, the call as the log keeps it)."""
    report = None
    if game is not None:
        from hc_cli.games.actions import act

        res, report, call = act(
            call,
            game,
            *_acting(values),
            session,
            ask=(_ask_line, _tell),
            rules_changed=bool(values.get("rules_changed")),
            reroll=bool(values.get("reroll")),
            sealed=values.get("sealed_roll"),
            hidden=bool(values.get("hidden_roll")),
            agreed=bool(values.get("agreed")),
        )
    else:
        from hc_cli.plugin.execute import execute

        res = execute(call, session, given - set(COMMON_NAMES), ask=(_ask_line, _tell))
    if call.dice and report is None:  # as entered, when asked for: the log replays the list
        from dataclasses import replace

        call = replace(call, dice=res.inputs.get("dice", call.dice))
    return res, report, call


def _print_and_log(
    res: Any,
    report: dict[str, Any] | None,
    call: Any,
    values: dict[str, Any],
    session: Any,
    collect: list | None,
) -> int:
    """The result printed, logged with --log, and the receipt to note."""
    log_failed, receipt = None, None
    if values.get("log") is not None:
        from hc_cli.log.chain import append, make_entry
        from hc_cli.log.entry import as_dict

        try:
            receipt = append(
                values["log"],
                make_entry(call, as_dict(res), session.digest(call.ruleset, call.rules)),
            )
        except HcError as error:
            log_failed = error  # the result is still printed; then the failure, exit 2
    output(
        res,
        bool(values.get("json")),
        bool(values.get("no_color")),
        bool(values.get("quiet")),
        bool(values.get("verbose")),
        collect,
    )
    if log_failed is not None:
        return say_error(call.command, log_failed)
    if receipt is not None:  # the chain's head, to note: hc replay LOG --head RECEIPT
        echo(f"logged to {printable(values['log'])}: receipt {receipt}", err=True)
    if report is not None and report.get("receipt"):
        echo(f"logged to {printable(report['game'])}: receipt {report['receipt']}", err=True)
    return 0


def _game_of(command: str, ruleset: str, values: dict[str, Any]) -> str | None:
    """The game file a command acts in: one naming a unit (or --at, --anyway) needs a game in
    force; a command the game takes for all its sides (its initiative) acts in one when there
    is one. None: resolve it on its own, as ever."""
    from hc_cli.games import choice

    unit = values.get("unit")
    wants = unit is not None or bool(values.get("at")) or bool(values.get("anyway"))
    found = choice.game_in_force(values.get("game"))
    if found is None:
        if not wants:
            return None
        if unit is not None and values.get("dice") and unit.replace(",", "").isdigit():
            raise HcError(
                f"'{unit}' is no unit: --dice takes one word",
                "write two dice as --dice 4,6 or --dice '4 6'",
            )
        raise HcError(
            f"no game in force to find {'unit ' + repr(unit) if unit else 'the units'} in",
            "start one (hc game new FILE --roster ROSTER), then give --game FILE or set "
            "HC_GAME=FILE",
        )
    from hc_cli.games.choice import game_file_problem, unreadable_game

    problem = game_file_problem(found[0])
    if problem is not None:
        raise unreadable_game(found, problem)
    if not wants:
        from hc_cli.games.choice import ruleset_of
        from hc_cli.games.roster import game_rules

        if ruleset_of(found[0]) != ruleset:  # --ruleset chose another game's rules: no game
            return None
        try:
            rules = game_rules(ruleset)
        except HcError:
            return None
        if command not in rules.whole_game and not (
            rules.acting_unit_known and command in rules.unit_commands
        ):
            return None
    if values.get("log") is not None:
        raise HcError("an action of a game is logged in the game file itself", "leave out --log")
    return found[0]

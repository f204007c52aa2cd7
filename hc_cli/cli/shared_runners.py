"""What the commands every rule set shares do once typer has parsed them (`hc tables`, `hc batch`,
`hc replay`, `hc rules check`, `hc completion`), and a resolving command's hand-over to
`hc_cli.cli.runner`."""

import sys
from typing import Any

import typer

from hc_cli.cli.runner import say_error, wants_colour, width
from hc_cli.core.errors import HcError
from hc_cli.plugin import registry
from hc_cli.plugin.declare import Command
from hc_cli.plugin.shared_commands import GAME_RUNS, SHARED_COMMANDS

SHARED = {c.name: c for c in SHARED_COMMANDS}

# ---------------------------------------------------------------------------------------------
# Running a command


def fail(command: str, error: HcError) -> None:
    raise typer.Exit(say_error(command, error))


def _given(ctx: Any) -> set[str]:
    from typer._click.core import ParameterSource

    return {
        name
        for name in ctx.params
        if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
    }


def values_of(ctx: Any) -> dict[str, Any]:
    """The command's option values, with the game `hc --game FILE` named before the command
    where the command names none itself."""
    values = dict(ctx.params)
    game = ctx.find_root().params.get("game")
    if values.get("game") is None and game is not None:
        values["game"] = game
    return values


def run_resolving(ctx: Any) -> None:
    """Resolve the command with the options given (`hc_cli.cli.runner`)."""
    from hc_cli.cli.runner import dispatch

    ruleset = ctx.find_root().meta["hc.ruleset"][0]
    code = dispatch(ctx.command.name or "", ruleset, values_of(ctx), _given(ctx))
    if code:
        raise typer.Exit(code)


def _tables(ctx: Any) -> None:
    from hc_cli.tables.listing import list_tables

    values = ctx.params
    ruleset = ctx.find_root().meta["hc.ruleset"][0]
    try:
        loaded = registry.get(ruleset).load_tables(values.get("rules"))
        listing = list_tables(loaded.merged, values.get("name"))
    except HcError as error:
        fail("tables", error)
        return
    if values.get("json"):
        import json

        typer.echo(json.dumps(listing.to_dict(), indent=2, ensure_ascii=False))
        return
    if values.get("quiet"):  # a line a table: its name, its entries' names
        from hc_cli.render.wrap import wrap

        lines = [f"{t.name}: " + ", ".join(row[0] for row in t.rows) for t in listing.tables]
        typer.echo(wrap(lines, width()))
        return
    from hc_cli.render.tables import render_listing

    colour = wants_colour(bool(values.get("no_color")))
    typer.echo(render_listing(listing, width(), registry.get(ruleset).book, colour), color=colour)


def _terminated(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # through the batch's clean-up: its workers end with it


def _batch(ctx: Any) -> None:
    import signal

    from hc_cli.batch.run import run as run_batch

    signal.signal(signal.SIGTERM, _terminated)
    try:
        jobs = ctx.params.get("jobs")
        if jobs is not None:
            from hc_cli.plugin.execute import check_values

            check_values(SHARED["batch"].options, {"jobs": jobs})
        root = ctx.find_root().params
        chosen = [  # hc --ruleset NAME / --game FILE batch: what lines without their own take
            word
            for name in ("ruleset", "game")
            if root.get(name) is not None
            for word in (f"--{name}", root[name])
        ]
        failed = run_batch(sys.stdin, sys.stdout, ctx.params.get("log"), jobs, args=chosen)
    except HcError as error:
        fail("batch", error)
        return
    if failed:
        raise typer.Exit(2)


def _replay(ctx: Any) -> None:
    """Each entry reported as it is replayed (text), or the report as one JSON object whose
    entries are written as they come: a log of any length in constant memory."""
    import json

    from hc_cli.core.words import printable
    from hc_cli.log.replay import Replay
    from hc_cli.render.wrap import wrap

    as_json = bool(ctx.params.get("json"))
    quiet = bool(ctx.params.get("quiet"))
    replay = None
    try:
        from hc_cli.games.store import GameCheck

        replay = Replay(
            ctx.params["file"],
            list(ctx.params.get("rules") or ()),
            ctx.params.get("head"),
            game=GameCheck(),
        )
        first = True
        for item in replay:
            if as_json:
                if isinstance(item, str):
                    continue  # listed in the summary
                text = json.dumps(item.to_dict(), ensure_ascii=False)
                typer.echo(('{"entries": [' if first else ",") + text, nl=False)
                first = False
            elif quiet and not isinstance(item, str) and item.reproduced:
                continue  # -q: what did not reproduce, and the summary
            else:  # what the log holds may be anything: none of it reaches a terminal raw
                lines = [item] if isinstance(item, str) else item.lines()
                typer.echo(wrap([printable(line) for line in lines], width()))
    except HcError as error:
        fail("replay", error)
        return
    finally:
        if replay is not None:
            replay.close()
    if as_json:
        rest = json.dumps(replay.summary(), ensure_ascii=False)[1:]
        typer.echo(("{" if first else "], ") + ('"entries": [], ' if first else "") + rest)
    else:
        typer.echo(wrap([printable(line) for line in replay.summary_lines()], width()))
    if replay.failed:
        raise typer.Exit(1)


def _rules_check(ctx: Any) -> None:
    from hc_cli.plugin.house_rules import check_file

    try:
        summary = check_file(ctx.params["file"])
    except HcError as error:
        fail("rules check", error)
        return
    typer.echo("\n".join(summary[:1] if ctx.params.get("quiet") else summary))


def _completion(ctx: Any) -> None:
    from hc_cli.cli.completion import install, script

    try:
        if ctx.params.get("install"):
            from hc_cli.cli.runner import width
            from hc_cli.render.wrap import wrap

            wrote, *notes = install(ctx.params["shell"], bool(ctx.params.get("quiet"))).split("\n")
            typer.echo("\n".join([wrote, *(wrap([n], width()) for n in notes)]))  # the notes
            # wrapped between words; the line naming the file whole, to copy as it is
        else:
            typer.echo(script(ctx.params["shell"]), nl=False)
    except HcError as error:
        fail("completion", error)


def _game(name: str) -> Any:
    """A game command (`hc_cli.cli.game_commands`)."""

    def run(ctx: Any) -> None:
        from hc_cli.cli.game_commands import run as run_game

        code = run_game(name, values_of(ctx))
        if code:
            raise typer.Exit(code)

    return run


def runner_for(declared: Command) -> Any:
    """What runs a declared command: the shared dispatcher for a rule set's (resolving)
    command, else the runner it names."""
    return run_resolving if declared.run is None else RUNNERS[declared.run]


RUNNERS = {
    **{name: _game(name) for name in GAME_RUNS},
    "roll": run_resolving,
    "tables": _tables,
    "batch": _batch,
    "replay": _replay,
    "rules_check": _rules_check,
    "completion": _completion,
}

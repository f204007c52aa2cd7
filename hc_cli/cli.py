"""The `hc` command line, generated from declarations (`hc_cli.declare`).

The rule set in force (`hc_cli.registry.choose`: flag, environment, settings file, default) is
found before any command is built; its declared commands, with their options, units, help and
examples, become typer commands, beside the commands every rule set shares
(`hc_cli.shared_commands`). Nothing here names a rule set's option. Only the command asked for
is built, so start-up stays flat however many commands and rule sets there are.
"""

import os
import sys
from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from hc_cli import registry
from hc_cli.declare import Command, Option
from hc_cli.errors import HcError
from hc_cli.runner import say_error, wants_colour, width
from hc_cli.shared_commands import COMMON_OPTIONS, SHARED_COMMANDS, common_options

_COMMON = {o.name: o for o in COMMON_OPTIONS}
_SHARED = {c.name: c for c in SHARED_COMMANDS}
_TYPES = {"text": str, "number": float, "whole": int}
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
SUMMARY = (
    "Dice and resolution for tabletop miniatures wargames: every modifier and roll shown, "
    "exact odds, replayable seeds, house rules as data."
)


# ---------------------------------------------------------------------------------------------
# Completion of option values through click (the fast path in hc_cli.complete answers first)


def _completer(command: str, option: str) -> Any:
    def complete(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
        from hc_cli.values import values_for

        root = ctx.find_root()
        ruleset = root.meta.get("hc.ruleset", (registry.DEFAULT_RULESET, ""))[0]
        names = values_for(ruleset, command, option, list(ctx.params.get("rules") or ()))
        return [n for n in names if n.startswith(incomplete)]

    return complete


# ---------------------------------------------------------------------------------------------
# Building commands from declarations


def _param(option: Option, command: str) -> Any:
    complete = _completer(command, option.name) if option.complete else None
    if option.positional:
        return TyperArgument(
            param_decls=[option.name],
            type=str,
            required=option.required,
            metavar=option.metavar,
            help=option.help_text(),
            autocompletion=complete,
            show_default=False,
        )
    metavar = option.metavar or (
        option.unit.upper()
        if option.unit
        else {"whole": "N", "number": "NUMBER"}.get(
            option.kind, "NAME" if option.complete else "TEXT"
        )
    )
    if option.kind == "flag":
        return TyperOption(
            param_decls=[*option.flags, option.name],
            is_flag=True,
            default=False,
            help=option.help_text(),
        )
    return TyperOption(
        param_decls=[*option.flags, option.name],
        type=_TYPES[option.kind],
        multiple=option.many,
        default=None,
        metavar=metavar,
        help=option.help_text(),
        autocompletion=complete,
    )


class HcCommand(TyperCommand):
    """A generated command; an option of another rule set's command is named as such. Its
    help is `hc_cli.help`'s, as the direct path writes it."""

    ruleset: str | None = None
    declared: Command | None = None
    carried: str | None = None

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from hc_cli.help import command_help

        assert self.declared is not None
        formatter.write(command_help(self.declared, self.ruleset, self.carried, width()))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        from typer._click.exceptions import NoSuchOption, UsageError

        given = list(args)  # the parser consumes the list it is given
        try:
            return super().parse_args(ctx, args)
        except NoSuchOption as error:
            if self.ruleset is not None:
                error.message = _foreign_option(error.option_name, self.ruleset, self.name or "")
                error.possibilities = None  # click's guesses would point at this game's options
            raise
        except UsageError as error:
            if "extra argument" in error.message and "--dice" in given:
                error.message += (
                    ". --dice takes one word: write two dice as --dice 4,6 or --dice '4 6'"
                )
            raise


def _foreign_option(flag: str, ruleset: str, command: str) -> str:
    having = []
    for name in registry.names():
        try:
            other = registry.get(name).commands.get(command) if name != ruleset else None
        except HcError:
            continue
        if other is not None and any(flag in o.flags for o in other.options):
            having.append(name)
    message = f"{flag} is not an option of {ruleset} {command}"
    if having:
        message += (
            f"; {' and '.join(having)} {command} {'has' if len(having) == 1 else 'have'} it "
            f"(hc {command} --ruleset {having[0]} ...)"
        )
    else:
        import difflib

        try:
            own = registry.get(ruleset).commands[command].options
        except (HcError, KeyError):
            own = ()
        flags = [f for o in own for f in o.flags] + [f for o in COMMON_OPTIONS for f in o.flags]
        close = difflib.get_close_matches(flag, flags, n=1, cutoff=0.6)
        if close:
            return message + f"; did you mean {close[0]}? See: hc {command} --help"
    return message + f". See: hc {command} --help"


def build_command(
    declared: Command,
    ruleset: str | None,
    flagged: bool = False,
    example_ruleset: str | None = None,
) -> Any:
    """A typer command for a declared command: a rule set's (`ruleset` given), or a shared
    one. `flagged`: the rule set was chosen by --ruleset, so the examples carry it (for a
    shared command, `example_ruleset` names it)."""
    if declared.sub:
        group = HcSubGroup(
            name=declared.name,
            help=declared.summary,
            no_args_is_help=True,
            rich_markup_mode=None,
            context_settings=CONTEXT,
        )
        group.declared = declared
        for sub in declared.sub:
            group.add_command(build_command(sub, None, example_ruleset=example_ruleset))
        return group
    params = [_param(o, declared.name) for o in (*declared.options, *common_options(declared))]
    run = _dispatch if declared.run is None else _RUNNERS[declared.run]

    def callback(**_: Any) -> None:
        run(typer_context())

    command = HcCommand(
        declared.name,
        callback=callback,
        params=params,
        help=declared.summary,
        short_help=declared.summary,
        rich_markup_mode=None,
        context_settings=CONTEXT,
    )
    command.ruleset = ruleset
    command.declared = declared
    takes_ruleset = any(o.name == "ruleset" for o in common_options(declared))
    command.carried = (ruleset if flagged else example_ruleset) if takes_ruleset else None
    return command


class HcSubGroup(TyperGroup):
    """A group of shared commands (`hc rules`), its help as the direct path writes it."""

    declared: Command | None = None

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from hc_cli.help import group_help

        assert self.declared is not None
        formatter.write(group_help(self.declared, width()))


def typer_context() -> Any:
    from typer._click.globals import get_current_context

    return get_current_context()


# ---------------------------------------------------------------------------------------------
# The group: the rule set in force decides which commands exist


class HcGroup(TyperGroup):
    def _main_shell_completion(
        self, ctx_args: Any, prog_name: str, complete_var: Any = None
    ) -> None:
        # Reached when the fast path (hc_cli.complete) leaves a TAB press to click; typer's
        # shell classes are registered only on demand.
        if os.environ.get("_HC_COMPLETE"):
            from typer.completion import completion_init

            completion_init()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        choice = None
        try:
            choice = registry.choose(args)
            declaration = registry.get(choice[0])
        except HcError as error:
            if not ctx.resilient_parsing:
                if choice is not None and choice[1] != "--ruleset":
                    error.message += f" (from {choice[1]})"
                _fail("", error)
            # Completing: the default rule set's commands, with no table values to offer.
            choice = (registry.ruleset_in_args(args) or registry.DEFAULT_RULESET, "--ruleset")
            declaration = registry.get(registry.DEFAULT_RULESET)
        ctx.meta["hc.ruleset"] = choice
        ctx.meta["hc.declaration"] = declaration
        ctx.meta["hc.built"] = {}
        return super().parse_args(ctx, args)

    def _own(self, ctx: Any) -> dict[str, Command]:
        declaration = ctx.find_root().meta.get("hc.declaration")
        return declaration.commands if declaration is not None else {}

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self._own(ctx), *_SHARED]

    def get_command(self, ctx: Any, name: str) -> Any:
        root = ctx.find_root()
        built = root.meta.setdefault("hc.built", {})
        if name not in built:
            own = self._own(ctx)
            if name in own:
                ruleset, source = root.meta["hc.ruleset"]
                built[name] = build_command(own[name], ruleset, source == "--ruleset")
            elif name in _SHARED:
                # No "Rule set:" line (they serve every game), but examples that carry the
                # rule set the flag chose, so each runs as written in that game.
                ruleset, source = root.meta["hc.ruleset"]
                built[name] = build_command(
                    _SHARED[name], None, example_ruleset=ruleset if source == "--ruleset" else None
                )
            else:
                return None
        return built[name]

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0]
        if self.get_command(ctx, name) is None and not name.startswith("-"):
            from hc_cli.execute import missing_command

            ruleset = ctx.find_root().meta["hc.ruleset"][0]
            if registry.commands_elsewhere(name, ruleset):
                _fail(name, missing_command(ruleset, name, list(self._own(ctx))))
        return super().resolve_command(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from hc_cli.help import main_help

        ruleset, source = ctx.meta.get("hc.ruleset", (registry.DEFAULT_RULESET, "default"))
        formatter.write(main_help(ruleset, source, width()))


def _version(ctx: Any, _param: Any, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from hc_cli.help import version_text

    ruleset, source = ctx.meta.get("hc.ruleset", (registry.DEFAULT_RULESET, "default"))
    typer.echo(version_text(ruleset, source))
    ctx.exit()


def make_app() -> Any:
    """The `hc` group; `main` runs it, tests invoke it."""
    group = HcGroup(
        name="hc",
        help=SUMMARY,
        no_args_is_help=True,
        rich_markup_mode=None,
        context_settings=CONTEXT,
    )
    group.params += [
        TyperOption(
            param_decls=["--ruleset", "ruleset"],
            metavar="NAME",
            help=_COMMON["ruleset"].help,
            autocompletion=_completer("", "ruleset"),
        ),
        TyperOption(
            param_decls=["--version", "version"],
            is_flag=True,
            is_eager=True,
            expose_value=False,
            callback=_version,
            help="The version, the rule set in force and where it came from, and the settings "
            "file.",
        ),
    ]
    return group


# ---------------------------------------------------------------------------------------------
# Running a command


def _fail(command: str, error: HcError) -> None:
    raise typer.Exit(say_error(command, error))


def _given(ctx: Any) -> set[str]:
    from typer._click.core import ParameterSource

    return {
        name
        for name in ctx.params
        if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
    }


def _dispatch(ctx: Any) -> None:
    """Resolve the command with the options given (`hc_cli.runner`, as the direct path does)."""
    from hc_cli.runner import dispatch

    ruleset = ctx.find_root().meta["hc.ruleset"][0]
    code = dispatch(ctx.command.name or "", ruleset, ctx.params, _given(ctx))
    if code:
        raise typer.Exit(code)


def _tables(ctx: Any) -> None:
    from hc_cli.listing import list_tables

    values = ctx.params
    ruleset = ctx.find_root().meta["hc.ruleset"][0]
    try:
        loaded = registry.implementation(ruleset).load_tables(values.get("rules") or None)
        listing = list_tables(loaded.merged, values.get("name"))
    except HcError as error:
        _fail("tables", error)
        return
    if values.get("json"):
        import json

        typer.echo(json.dumps(listing.to_dict(), indent=2, ensure_ascii=False))
        return
    from hc_cli.render.text import render_listing

    book = registry.get(ruleset).book
    if wants_colour(bool(values.get("no_color"))):
        from hc_cli.render.colour import paint

        typer.echo(render_listing(listing, paint, width(), book), color=True)
    else:
        typer.echo(render_listing(listing, width=width(), book=book))


def _terminated(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # through the batch's clean-up: its workers end with it


def _batch(ctx: Any) -> None:
    import signal

    from hc_cli.batch import run as run_batch

    signal.signal(signal.SIGTERM, _terminated)
    try:
        jobs = ctx.params.get("jobs")
        if jobs is not None:
            from hc_cli.execute import check_values

            check_values(_SHARED["batch"].options, {"jobs": jobs})
        failed = run_batch(sys.stdin, sys.stdout, ctx.params.get("log"), jobs)
    except HcError as error:
        _fail("batch", error)
        return
    if failed:
        raise typer.Exit(2)


def _replay(ctx: Any) -> None:
    """Each entry reported as it is replayed (text), or the report as one JSON object whose
    entries are written as they come: a log of any length in constant memory."""
    import json

    from hc_cli.replay import Replay

    as_json = bool(ctx.params.get("json"))
    replay = None
    try:
        replay = Replay(
            ctx.params["file"], list(ctx.params.get("rules") or ()), ctx.params.get("head")
        )
        first = True
        for item in replay:
            if as_json:
                if isinstance(item, str):
                    continue  # listed in the summary
                text = json.dumps(item.to_dict(), ensure_ascii=False)
                typer.echo(('{"entries": [' if first else ",") + text, nl=False)
                first = False
            else:
                typer.echo(item if isinstance(item, str) else "\n".join(item.lines()))
    except HcError as error:
        _fail("replay", error)
        return
    finally:
        if replay is not None:
            replay.close()
    if as_json:
        rest = json.dumps(replay.summary(), ensure_ascii=False)[1:]
        typer.echo(("{" if first else "], ") + ('"entries": [], ' if first else "") + rest)
    else:
        typer.echo("\n".join(replay.summary_lines()))
    if replay.failed:
        raise typer.Exit(1)


def _rules_check(ctx: Any) -> None:
    from hc_cli.house_rules import check_file

    try:
        summary = check_file(ctx.params["file"])
    except HcError as error:
        _fail("rules check", error)
        return
    typer.echo("\n".join(summary))


def _completion(ctx: Any) -> None:
    from hc_cli.completion_scripts import install, script

    try:
        if ctx.params.get("install"):
            typer.echo(install(ctx.params["shell"]))
        else:
            typer.echo(script(ctx.params["shell"]), nl=False)
    except HcError as error:
        _fail("completion", error)


_RUNNERS = {
    "roll": _dispatch,
    "tables": _tables,
    "batch": _batch,
    "replay": _replay,
    "rules_check": _rules_check,
    "completion": _completion,
}

app = make_app()


def main() -> None:
    """The `hc` entry point, named `hc` even when run as `python -m hc_cli` (so completion
    finds `_HC_COMPLETE`)."""
    app.main(prog_name="hc")

"""Typer commands built from declarations (`hc_cli.plugin.declare`): each option with its type,
help, unit and completion; help written by `hc_cli.cli.help`, as the direct path writes it; an
option of another rule set's command named as such."""

from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from hc_cli.cli.runner import width
from hc_cli.cli.shared_runners import RUNNERS, run_resolving
from hc_cli.core.errors import HcError
from hc_cli.games import choice
from hc_cli.plugin import registry
from hc_cli.plugin.common_options import COMMON_OPTIONS, common_options
from hc_cli.plugin.declare import Command, Option

COMMON = {o.name: o for o in COMMON_OPTIONS}

_TYPES = {"text": str, "number": float, "whole": int}

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

# ---------------------------------------------------------------------------------------------
# Completion of option values through click (the fast path in hc_cli.cli.complete answers first)


def completer(command: str, option: str) -> Any:
    def complete(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
        from hc_cli.plugin.values import values_for

        if option in ("unit", "at"):  # the units of the game in force
            from hc_cli.games.choice import fellow_names, target_names

            try:
                game = ctx.params.get("game") or ctx.find_root().params.get("game")
                found = choice.game_in_force(game)
            except HcError:
                found = None
            acting = ctx.params.get("unit")
            acting = [acting] if isinstance(acting, str) else list(acting or ())
            # While completing, click leaves the arguments before the option unparsed.
            acting = [*acting, *ctx.args]
            if not found:
                names = []
            elif option == "at":  # the other side's units: never the one acting
                names = target_names(found[0], acting)
            else:  # one more to act: the others of their side
                names = fellow_names(found[0], acting)
        else:
            root = ctx.find_root()
            ruleset = root.meta.get("hc.ruleset", (registry.DEFAULT_RULESET, ""))[0]
            names = values_for(ruleset, command, option, list(ctx.params.get("rules") or ()))
        return [n for n in names if n.startswith(incomplete)]

    return complete


# ---------------------------------------------------------------------------------------------
# Building commands from declarations


def _param(option: Option, command: str) -> Any:
    complete = completer(command, option.name) if option.complete else None
    if option.positional:
        return TyperArgument(
            param_decls=[option.name],
            type=str,
            nargs=-1 if option.many else 1,
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
        required=option.required,
        metavar=metavar,
        help=option.help_text(),
        autocompletion=complete,
    )


class HcCommand(TyperCommand):
    """A generated command; an option of another rule set's command is named as such. Its
    help is `hc_cli.cli.help`'s, as the direct path writes it."""

    ruleset: str | None = None
    declared: Command | None = None
    carried: str | None = None

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from hc_cli.cli.help import command_help

        assert self.declared is not None
        formatter.write(command_help(self.declared, self.ruleset, self.carried, width()))

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        # The help's usage line (click would write a required argument as {FILE}).
        from hc_cli.cli.help import usage_pieces

        assert self.declared is not None
        formatter.write_usage(ctx.command_path, usage_pieces(self.declared))

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
    try:
        declared = registry.get(ruleset).commands[command]
    except (HcError, KeyError):
        declared = None
    taken = common_options(declared) if declared is not None else COMMON_OPTIONS
    if declared is not None and not having:
        from hc_cli.plugin.common_options import DICE_OPTIONS

        dice_flags = {f for o in COMMON_OPTIONS if o.name in DICE_OPTIONS for f in o.flags}
        if flag in dice_flags and not any(flag in o.flags for o in taken):
            return (
                message + f": it rolls no dice (no --seed, --dice or --odds to give). "
                f"See: hc {command} --help"
            )
    if having:
        message += (
            f"; {' and '.join(having)} {command} {'has' if len(having) == 1 else 'have'} it "
            f"(hc {command} --ruleset {having[0]} ...)"
        )
    else:
        import difflib

        own = declared.options if declared is not None else ()
        flags = [f for o in (*own, *taken) for f in o.flags]
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
            short_help=declared.summary,
            no_args_is_help=True,
            rich_markup_mode=None,
            context_settings=CONTEXT,
        )
        group.declared = declared
        for sub in declared.sub:
            group.add_command(build_command(sub, None, example_ruleset=example_ruleset))
        return group
    params = [_param(o, declared.name) for o in (*declared.options, *common_options(declared))]
    run = run_resolving if declared.run is None else RUNNERS[declared.run]

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
        from hc_cli.cli.help import group_help

        assert self.declared is not None
        formatter.write(group_help(self.declared, width()))


def typer_context() -> Any:
    from typer._click.globals import get_current_context

    return get_current_context()

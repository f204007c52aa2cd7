"""The `hc` command line, generated from declarations (`hc_cli.plugin.declare`).

The rule set in force (`hc_cli.games.choice.choose`: flag, environment, settings file,
default) is found before any command is built; its declared commands, with their options,
units, help and examples, become typer commands, beside the commands every rule set shares
(`hc_cli.plugin.shared_commands`). Nothing here names a rule set's option. Only the command
asked for is built, so start-up stays flat however many commands and rule sets there are."""

import os
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

from hc_cli.cli.runner import width
from hc_cli.cli.shared_runners import SHARED, fail, runner_for
from hc_cli.cli.typer_commands import COMMON, CONTEXT, WIDEST, build_command, completer
from hc_cli.core.errors import HcError
from hc_cli.games import choice
from hc_cli.plugin import registry
from hc_cli.plugin.declare import Command

SUMMARY = (
    "Dice and resolution for tabletop miniatures wargames: every modifier and roll shown, "
    "exact odds, replayable seeds, house rules as data."
)
VERSION_HELP = "The version, the rule set in force and where it came from, and the settings file."

# ---------------------------------------------------------------------------------------------
# The group: the rule set in force decides which commands exist


class HcGroup(TyperGroup):
    def _main_shell_completion(
        self, ctx_args: Any, prog_name: str, complete_var: Any = None
    ) -> None:
        # A TAB press: typer's shell classes, with hc's own bash and zsh (hc_cli.cli.completion)
        if os.environ.get("_HC_COMPLETE"):
            from hc_cli.cli.completion import register

            register()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def make_context(self, *args: Any, **extra: Any) -> Any:
        from hc_cli.cli.output import quiet_broken_pipe

        if extra.get("parent") is None:  # the help as wide as the terminal (COLUMNS first)
            extra.setdefault("terminal_width", min(width(), WIDEST))
        with quiet_broken_pipe():  # hc --help | head -1
            return super().make_context(*args, **extra)

    def invoke(self, ctx: Any) -> Any:
        from hc_cli.cli.output import quiet_broken_pipe

        with quiet_broken_pipe():  # hc tables | head -1
            return super().invoke(ctx)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        chosen = None
        try:
            chosen = choice.choose(args)
            declaration = registry.get(chosen[0])
        except HcError as error:
            if not ctx.resilient_parsing:
                if chosen is not None and chosen[1] != "--ruleset":
                    error.message += f" (from {chosen[1]})"
                fail("", error)
            # Completing: the default rule set's commands, with no table values to offer.
            chosen = (choice.ruleset_in_args(args) or registry.DEFAULT_RULESET, "--ruleset")
            declaration = registry.get(registry.DEFAULT_RULESET)
        ctx.meta["hc.ruleset"] = chosen
        ctx.meta["hc.declaration"] = declaration
        ctx.meta["hc.built"] = {}
        return super().parse_args(ctx, args)

    def own(self, ctx: Any) -> dict[str, Command]:
        """The commands of the rule set in force."""
        declaration = ctx.find_root().meta.get("hc.declaration")
        return declaration.commands if declaration is not None else {}

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self.own(ctx), *SHARED]

    def get_command(self, ctx: Any, name: str) -> Any:
        root = ctx.find_root()
        built = root.meta.setdefault("hc.built", {})
        if name not in built:
            ruleset, source = root.meta.get("hc.ruleset", (registry.DEFAULT_RULESET, ""))
            own = self.own(ctx)
            flagged = source == "--ruleset"
            if name in own:
                built[name] = build_command(own[name], ruleset, runner_for, flagged)
            elif name in SHARED:
                # No "Rule set:" line (they serve every game), but examples that carry the
                # rule set the flag chose, so each runs as written in that game.
                carried = ruleset if flagged else None
                built[name] = build_command(SHARED[name], None, runner_for, example_ruleset=carried)
            else:
                return None
        return built[name]

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0]
        if self.get_command(ctx, name) is None and not name.startswith("-"):
            if ctx.resilient_parsing:  # TAB after a command this game has not (`hc rally `
                # in a T2K game): no error, and nothing to offer (click would offer commands)
                return name, TyperCommand(name, add_help_option=False), args[1:]
            from hc_cli.plugin.execute import missing_command

            ruleset = ctx.find_root().meta["hc.ruleset"][0]
            if registry.commands_elsewhere(name, ruleset):
                fail(name, missing_command(ruleset, name, list(self.own(ctx))))
            from hc_cli.core.errors import UnknownName

            misspelt = UnknownName("command", name, self.list_commands(ctx))
            if misspelt.suggestions:  # hc fier: did you mean 'fire'?
                fail(name, misspelt)
        return super().resolve_command(ctx, args)

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        """The rule sets, the one in force and where it came from, and their commands."""
        ruleset, source = ctx.meta.get("hc.ruleset", (registry.DEFAULT_RULESET, "default"))
        rows = []
        for name in registry.names():
            try:
                declaration = registry.get(name)
            except Exception as error:  # a third party's broken rule set: named, not fatal
                rows.append((name, str(getattr(error, "message", error))))
                continue
            mark = " (in force)" if name == ruleset else ""
            rows.append(
                (name + mark, f"{declaration.title}. Commands: " + ", ".join(declaration.commands))
            )
        formatter.write_paragraph()
        formatter.write_text(f"Rule sets (in force: {ruleset}, from {source}):")
        with formatter.indentation():
            formatter.write_text(
                f'Choose with --ruleset NAME, HC_RULESET, or ruleset = "NAME" in '
                f"{choice.settings_path()}; a game in force (--game FILE, HC_GAME) plays its "
                f"own. Every rule set also has: {', '.join(SHARED)}."
            )
            formatter.write_paragraph()
            formatter.write_dl(rows)


def version_text(ruleset: str, source: str) -> str:
    from hc_cli import __version__

    return (
        f"hc {__version__}\nrule set: {ruleset} (from {source})\n"
        f"settings file: {choice.settings_path()}"
    )


def _version(ctx: Any, _param: Any, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    ruleset, source = ctx.meta.get("hc.ruleset", (registry.DEFAULT_RULESET, "default"))
    typer.echo(version_text(ruleset, source))
    ctx.exit()


def make_app() -> Any:
    """The `hc` group; `hc_cli.cli.main` runs it, tests invoke it."""
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
            help=COMMON["ruleset"].help,
            autocompletion=completer("", "ruleset"),
        ),
        TyperOption(param_decls=["--game", "game"], metavar="FILE", help=COMMON["game"].help),
        TyperOption(
            param_decls=["--version", "version"],
            is_flag=True,
            is_eager=True,
            expose_value=False,
            callback=_version,
            help=VERSION_HELP,
        ),
    ]
    return group


app = make_app()

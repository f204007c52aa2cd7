"""Typer (click) commands built from declarations (`hc_cli.plugin.declare`): each option with its
type, metavar, help, unit and completion. Click parses every command line, writes the help
(summary, description, rule set, arguments, options, examples), the usage errors and TAB's
answers. An option of another rule set's command is named as such."""

from collections.abc import Callable
from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from hc_cli.core.errors import HcError
from hc_cli.core.notation import FUNCTIONS
from hc_cli.games import choice
from hc_cli.plugin import registry
from hc_cli.plugin.common_options import COMMON_OPTIONS, common_options
from hc_cli.plugin.declare import Command, Option

COMMON = {o.name: o for o in COMMON_OPTIONS}

_TYPES = {"text": str, "number": float, "whole": int}

HELP_OPTIONS = ["-h", "--help"]
WIDEST = 100  # help lines at most, however wide the terminal
CONTEXT: dict[str, Any] = {"help_option_names": HELP_OPTIONS, "max_content_width": WIDEST}

# ---------------------------------------------------------------------------------------------
# Completion of option and argument values (click asks these callbacks at each TAB)


def completer(command: str, option: str) -> Any:
    def complete(ctx: Any, args: list[str], incomplete: str) -> list[str]:
        from hc_cli.plugin.values import values_for

        if option in ("unit", "at", "zone", "zone_npc"):  # the units of the game in force
            from hc_cli.games.choice import able_names, fellow_names, target_names

            found = _game_in_force(ctx)
            acting = ctx.params.get("unit")
            acting = [acting] if isinstance(acting, str) else list(acting or ())
            # While completing, click leaves the arguments before the option unparsed.
            acting = [*acting, *ctx.args]
            if not found:
                names = []
            elif option == "at":  # the other side's units: never the one acting
                names = able_names(found[0], "", target_names(found[0], acting), incomplete)
            elif option == "unit":  # one more to act: the others of their side
                names = able_names(found[0], command, fellow_names(found[0], acting), incomplete)
            else:  # who else is in the danger zone, friend or foe: NAME:METRES for --zone
                near = [*acting, *(ctx.params.get("at") or ())]
                others = [n for n in choice.unit_names(found[0]) if n not in near]
                names = able_names(found[0], "", others, "")
                names = [f"{n}:" for n in names] if option == "zone" else names
        else:
            root = ctx.find_root()
            ruleset = root.meta.get("hc.ruleset", (registry.DEFAULT_RULESET, ""))[0]
            names = values_for(ruleset, command, option, list(ctx.params.get("rules") or ()))
            if command == "orders":  # hc orders sup<TAB>: support=ORDER for each order
                names = _unit_orders(ctx, names, incomplete)
        return [n for n in names if n.startswith(incomplete)]

    return complete


def _game_in_force(ctx: Any) -> Any:
    try:
        return choice.game_in_force(ctx.params.get("game") or ctx.find_root().params.get("game"))
    except HcError:
        return None


def _unit_orders(ctx: Any, orders: list[str], incomplete: str) -> list[str]:
    """What TAB offers `hc orders`: the orders, the sides (unless one is named), and UNIT=ORDER
    for the game's Fireteams that may take one whose names begin with what is typed (after
    `=`: that Fireteam's orders)."""
    if "=" in incomplete:
        return [f"{incomplete.partition('=')[0]}={order}" for order in orders]
    found = _game_in_force(ctx)
    if not found:
        return orders
    sides = choice.unit_sides(found[0])
    named = {*ctx.args, *(ctx.params.get("given") or ())}
    offered = [*orders, *([] if named & {s for s, _ in sides} else [s for s, _ in sides])]
    if not incomplete:
        return offered
    units = choice.able_names(found[0], "orders", [n for _, u in sides for n in u], "")
    return offered + [f"{u}={o}" for u in units if u.startswith(incomplete) for o in orders]


# ---------------------------------------------------------------------------------------------
# Building commands from declarations


def metavar(option: Option) -> str:
    """What the help and the usage line call an option's value: its own word, else its unit."""
    if option.metavar:
        return option.metavar
    if option.unit:
        return option.unit.upper()
    return {"whole": "N", "number": "NUMBER"}.get(
        option.kind, "NAME" if option.complete else "TEXT"
    )


def option_help(option: Option, command: Command) -> str:
    if option.name == "dice" and command.dice:
        return (
            f"Your own dice, in the order the table rolls them: {command.dice}. Commas or "
            "spaces between them (in quotes: --dice '4 6'); or 'ask' to be asked for each "
            "phase's dice."
        )
    return option.help_text()


def _param(option: Option, command: Command) -> Any:
    complete = completer(command.name, option.name) if option.complete else None
    if option.positional:
        return TyperArgument(
            param_decls=[option.name],
            type=_TYPES[option.kind],
            nargs=-1 if option.many else 1,
            required=option.required,
            metavar=metavar(option),
            help=option.help_text(),
            autocompletion=complete,
            show_default=False,
        )
    if option.kind == "flag":
        return TyperOption(
            param_decls=[*option.flags, option.name],
            is_flag=True,
            default=False,
            help=option_help(option, command),
        )
    return TyperOption(
        param_decls=[*option.flags, option.name],
        type=_TYPES[option.kind],
        multiple=option.many,
        default=None,
        required=option.required,
        metavar=metavar(option),
        help=option_help(option, command),
        autocompletion=complete,
    )


def expression_words(args: list[str], command: Any) -> list[str]:
    """`hc roll -4d6kh3`, `hc roll 2d6 + 3`: the words that are not the command's options
    joined into one expression, after `--`. Click alone would read a leading minus as an
    option (and -4d6kh3 as the short flags -4 -d ... -h, help); a word with a leading minus
    is an expression when what follows the minus signs starts one (a number, a die, a
    bracket, a function): ------2, -d4+10, -max(1,2); anything else with a minus is an
    option, known or not."""
    if "--" in args:
        return args
    takes_value = {o for p in command.params if not getattr(p, "is_flag", True) for o in p.opts}
    flags = {o for p in command.params for o in p.opts} | set(HELP_OPTIONS)
    options, words, value = [], [], False
    for word in args:
        start = word.lstrip("-")[:1]
        called = word.lstrip("-").partition("(")[0] in FUNCTIONS and "(" in word
        if value or word in flags or (word.startswith("-") and word.partition("=")[0] in flags):
            options.append(word)
            value = not value and word in takes_value
        elif (
            word.startswith("-")
            and word != "-"
            and not (start.isdigit() or start in "dD({[" or called)
        ):
            options.append(word)  # not an option of the command: click says so
        else:
            words.append(word)
    if len(words) == 1 and not words[0].startswith("-"):
        return args
    return [*options, "--", " ".join(words)] if words else args


class HcCommand(TyperCommand):
    """A generated command; an option of another rule set's command is named as such."""

    ruleset: str | None = None
    examples: list[str] = []

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        # Each example a paragraph of its own that click leaves as it is (\b): broken only
        # between options, with a continuation, to fit the terminal.
        for example in self.examples:
            formatter.write_paragraph()
            with formatter.indentation():
                lines = example_lines(example, formatter.width - formatter.current_indent)
                formatter.write_text("\b\n" + "\n".join(lines))

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        # [OPTIONS] FILE, [OPTIONS] [UNIT]...: the arguments as a player writes them (typer
        # would write a required one as {FILE}); the help and a usage error both print it.
        pieces = [self.options_metavar or "[OPTIONS]"]
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                word = param.metavar or (param.name or "").upper()
                word = word if param.required else f"[{word}]"
                pieces.append(word + ("..." if param.nargs == -1 else ""))
        return pieces

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        from typer._click.exceptions import NoSuchOption, UsageError

        if self.name == "roll":
            args = expression_words(args, self)
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
            return message + ": it rolls no dice (no --seed, --dice or --odds to give)"
    if having:
        message += (
            f"; {' and '.join(having)} {command} {'has' if len(having) == 1 else 'have'} it "
            f"(hc {command} --ruleset {having[0]} ...)"
        )
    else:
        import difflib

        own = declared.options if declared is not None else ()
        flags = [f for o in (*own, *taken) for f in o.flags]
        # Compared without their dashes, which every flag shares: --bogus is not near --log.
        bare = {f.lstrip("-"): f for f in flags}
        close = difflib.get_close_matches(flag.lstrip("-"), list(bare), n=1, cutoff=0.6)
        if close:
            return message + f"; did you mean {bare[close[0]]}?"
    return message  # click's "Try 'hc COMMAND -h' for help." is printed above it


def _help(declared: Command, ruleset: str | None) -> str:
    """The help's text: the summary, the description and the rule set, each a paragraph."""
    paragraphs = [
        declared.summary,
        declared.description,
        f"Rule set: {ruleset}." if ruleset else "",
    ]
    return "\n\n".join(p for p in paragraphs if p)


def _examples(declared: Command, carried: str | None) -> list[str]:
    """The examples, each naming the rule set --ruleset chose (`carried`), so that it runs as
    written in that game."""
    examples = []
    for example in declared.examples:
        if carried and "--ruleset" not in example:
            head, _, tail = example.partition(f"hc {declared.called}")
            example = f"{head}hc {declared.called} --ruleset {carried}{tail}"
        examples.append(example)
    return examples


def example_lines(example: str, width: int) -> list[str]:
    """An example as lines that fit the width, broken only between an option and the next,
    with a shell's line continuation, so it can still be copied whole."""
    import shlex

    groups: list[str] = []
    for word in shlex.split(example):
        if groups and not word.startswith("-") and groups[-1].startswith("-"):
            if " " not in groups[-1]:
                groups[-1] += " " + shlex.quote(word)
                continue
        groups.append(word if word in ("<", ">", "|") else shlex.quote(word))
    lines, line = [], "Example:"
    for group in groups:
        if len(line) + 1 + len(group) + 2 > width and line != "Example:":
            lines.append(line + " \\")
            line = "    " + group
        else:
            line = f"{line} {group}"
    return [*lines, line]


Runner = Callable[[Any], None]  # what runs a command, given click's context


def build_command(
    declared: Command,
    ruleset: str | None,
    run_of: Callable[[Command], Runner] | None = None,
    flagged: bool = False,
    example_ruleset: str | None = None,
) -> Any:
    """A typer command for a declared command: a rule set's (`ruleset` given), or a shared
    one, run by what `run_of` gives for it (None: a command that only parses). `flagged`: the
    rule set was chosen by --ruleset, so the examples carry it (for a shared command,
    `example_ruleset` names it)."""
    if declared.sub:
        group = TyperGroup(
            name=declared.name,
            help=declared.summary,
            short_help=declared.summary,
            no_args_is_help=True,
            rich_markup_mode=None,
            context_settings=CONTEXT,
        )
        for sub in declared.sub:
            group.add_command(build_command(sub, None, run_of, example_ruleset=example_ruleset))
        return group
    params = [_param(o, declared) for o in (*declared.options, *common_options(declared))]
    run = run_of(declared) if run_of is not None else None

    def callback(**_: Any) -> None:
        if run is not None:
            run(typer_context())

    takes_ruleset = any(o.name == "ruleset" for o in common_options(declared))
    carried = (ruleset if flagged else example_ruleset) if takes_ruleset else None
    command = HcCommand(
        declared.name,
        callback=callback,
        params=params,
        help=_help(declared, ruleset),
        short_help=declared.summary,
        rich_markup_mode=None,
        context_settings=CONTEXT,
    )
    command.ruleset = ruleset
    command.examples = _examples(declared, carried)
    return command


def typer_context() -> Any:
    from typer._click.globals import get_current_context

    return get_current_context()

"""Help, written from the declarations (`hc_cli.plugin.declare`) without importing typer, and laid
out for the terminal's width: every paragraph, option and example wrapped between words, never
inside one. The typer command line prints the same text (its commands' `format_help` calls
these), so `hc fire --help` reads the same whichever way it came in.
"""

from __future__ import annotations

import textwrap

from hc_cli.games import choice
from hc_cli.plugin import registry
from hc_cli.plugin.common_options import COMMON_OPTIONS, common_options
from hc_cli.plugin.shared_commands import SHARED_COMMANDS

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from hc_cli.plugin.declare import Command, Option

SUMMARY = (
    "Dice and resolution for tabletop miniatures wargames: every modifier and roll shown, "
    "exact odds, replayable seeds, house rules as data."
)
HELP_ROW = ("-h, --help", "Show this message and exit.")
NARROW = 50  # below this width a definition's text goes under its term
GROUP_OPTIONS = ("ruleset", "game")  # the common options `hc` takes before any command


def wrap(text: str, width: int, indent: str = "  ", then: str | None = None) -> list[str]:
    """`text` broken between words to fit `width` (a word longer than the line stays whole)."""
    return textwrap.wrap(
        text,
        width=max(width, len(indent) + 10),
        initial_indent=indent,
        subsequent_indent=indent if then is None else then,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [indent.rstrip()]


def definitions(rows: list[tuple[str, str]], width: int) -> list[str]:
    """Terms and their text in two columns (click's layout); at a narrow width, or for a term
    longer than the first column, the text under its term."""
    column = min(max((len(term) for term, _ in rows), default=0), 30, max(width // 3, 8))
    lines = []
    for term, text in rows:
        start = 2 + column + 2
        if width < NARROW:
            lines.append("  " + term)
            lines += wrap(text, width, " " * 6)
        elif len(term) > column:
            lines.append("  " + term)
            lines += wrap(text, width, " " * start)
        else:
            first = wrap(text, width - start, "")
            lines.append(f"  {term:<{column}}  {first[0]}".rstrip())
            lines += [" " * start + line for line in first[1:]]
    return lines


def example_lines(example: str, width: int) -> list[str]:
    """An example as lines that fit the width, broken only between an option and the next,
    with a shell's line continuation, so it can still be copied whole."""
    import shlex

    groups: list[str] = []
    for word in shlex.split(example):
        if (
            groups
            and not word.startswith("-")
            and groups[-1].startswith("-")
            and " " not in groups[-1]
        ):
            groups[-1] += " " + shlex.quote(word)
        else:
            groups.append(word if word in ("<", ">", "|") else shlex.quote(word))
    lines, line = [], "  Example:"
    for group in groups:
        if len(line) + 1 + len(group) + 2 > width and line.strip() != "Example:":
            lines.append(line + " \\")
            line = "      " + group
        else:
            line = f"{line} {group}"
    return [*lines, line]


def metavar(option: Option) -> str:
    if option.metavar:
        return option.metavar
    if option.unit:
        return option.unit.upper()
    return {"whole": "N", "number": "NUMBER"}.get(
        option.kind, "NAME" if option.complete else "TEXT"
    )


def option_term(option: Option) -> str:
    flags = ", ".join(sorted(option.flags, key=lambda f: (f.startswith("--"), f)))
    return flags if option.kind == "flag" else f"{flags} {metavar(option)}"


def option_help(option: Option, command: Command) -> str:
    if option.name == "dice" and command.dice:
        return (
            f"Your own dice, in the order the table rolls them: {command.dice}. Commas or "
            "spaces between them (in quotes: --dice '4 6'); or 'ask' to be asked for each "
            "phase's dice."
        )
    return option.help_text()


def usage_pieces(declared: Command) -> str:
    """What follows the command's name on its usage line: `[OPTIONS] FILE`, `[OPTIONS] [UNIT]`.
    The help and the usage a usage error prints (`hc_cli.cli.typer_commands`) both write it."""
    arguments = [o for o in (*declared.options, *common_options(declared)) if o.positional]
    return "[OPTIONS]" + "".join(
        (f" {metavar(a)}" if a.required else f" [{metavar(a)}]") + ("..." if a.many else "")
        for a in arguments
    )


def command_help(
    declared: Command, ruleset: str | None, carried: str | None, width: int, prog: str = "hc"
) -> str:
    """`hc COMMAND --help`. `ruleset`: the rule set whose command it is (None for a shared
    one); `carried`: the rule set its examples name (when --ruleset chose it)."""
    if declared.sub:
        return group_help(declared, width, prog)
    arguments = [o for o in (*declared.options, *common_options(declared)) if o.positional]
    lines = [f"Usage: {prog} {declared.called} {usage_pieces(declared)}", ""]
    lines += wrap(declared.summary, width)
    if declared.description:
        lines += ["", *wrap(declared.description, width)]
    if ruleset:
        lines += ["", *wrap(f"Rule set: {ruleset}.", width)]
    for example in declared.examples:
        if carried and "--ruleset" not in example:
            head, _, tail = example.partition(f"hc {declared.called}")
            example = f"{head}hc {declared.called} --ruleset {carried}{tail}"
        lines += ["", *example_lines(example, width)]
    if arguments:
        lines += ["", "Arguments:"]
        lines += definitions([(metavar(a), a.help_text()) for a in arguments], width)
    options = [o for o in (*declared.options, *common_options(declared)) if not o.positional]
    rows = [(option_term(o), option_help(o, declared)) for o in options] + [HELP_ROW]
    lines += ["", "Options:", *definitions(rows, width)]
    return "\n".join(lines)


def group_help(declared: Command, width: int, prog: str = "hc") -> str:
    """A group of commands (`hc rules`)."""
    lines = [f"Usage: {prog} {declared.name} [OPTIONS] COMMAND [ARGS]...", ""]
    lines += wrap(declared.summary, width)
    lines += ["", "Options:", *definitions([HELP_ROW], width)]
    lines += ["", "Commands:", *definitions([(c.name, c.summary) for c in declared.sub], width)]
    return "\n".join(lines)


def main_help(ruleset: str, source: str, width: int) -> str:
    """`hc --help`: the rule sets, the one in force, and its commands with the shared ones."""
    lines = ["Usage: hc [OPTIONS] COMMAND [ARGS]...", "", *wrap(SUMMARY, width), ""]
    lines += wrap(f"Rule sets (in force: {ruleset}, from {source}):", width, "")
    shared = ", ".join(c.name for c in SHARED_COMMANDS)
    lines += wrap(
        f'Choose with --ruleset NAME, HC_RULESET, or ruleset = "NAME" in '
        f"{choice.settings_path()}; a game in force (--game FILE, HC_GAME) plays its own. "
        f"Every rule set also has: {shared}.",
        width,
    )
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
    lines += definitions(rows, width)
    options = [
        (option_term(option), option.help_text())
        for option in COMMON_OPTIONS
        if option.name in GROUP_OPTIONS
    ]
    options += [
        ("--version", VERSION_HELP),
        HELP_ROW,
    ]
    lines += ["", "Options:", *definitions(options, width)]
    try:
        own = list(registry.get(ruleset).commands.values())
    except Exception:
        own = []
    commands = [(c.name, c.summary) for c in [*own, *SHARED_COMMANDS]]
    lines += ["", "Commands:", *definitions(commands, width)]
    return "\n".join(lines)


VERSION_HELP = "The version, the rule set in force and where it came from, and the settings file."


def version_text(ruleset: str, source: str) -> str:
    from hc_cli import __version__

    return (
        f"hc {__version__}\nrule set: {ruleset} (from {source})\n"
        f"settings file: {choice.settings_path()}"
    )

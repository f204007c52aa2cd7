"""TAB completion without typer: the fast path every TAB press takes.

Importing typer alone costs more than the whole budget of a TAB press, so this module answers
the shell's question (click's protocol, as the scripts in completions/ ask it) from the
declarations of the rule set in force (`hc_cli.plugin.declare`: plain data, cheap to import),
read word by word as the direct path reads them (`hc_cli.cli.walk`), and the table values of
that rule set, kept in the tables' own cache and rebuilt whenever a table or house-rules file
changes. It behaves as click's completion of the generated app does; a test
holds the two to the same answers. Anything it does not know returns None, and the full app
answers instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from hc_cli.cli.walk import words

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

SHELLS = {"complete_bash": "bash", "complete_zsh": "zsh", "complete_fish": "fish"}
Item = tuple[str, str | None]  # a candidate and its help


def _split(text: str) -> list[str]:
    """A command line's words as a POSIX shell splits them (`shlex.split`, whose import pulls
    in `re`, slower than the rest of a TAB press): quotes group, a backslash escapes; an
    unclosed quote keeps the partial word, as click does."""
    words: list[str] = []
    word: list[str] | None = None
    quote = ""
    i = 0
    while i < len(text):
        char = text[i]
        if quote == "'":
            if char == "'":
                quote = ""
            else:
                word.append(char)  # type: ignore[union-attr]
        elif quote == '"':
            if char == '"':
                quote = ""
            elif char == "\\" and i + 1 < len(text) and text[i + 1] in '"\\$`':
                i += 1
                word.append(text[i])  # type: ignore[union-attr]
            else:
                word.append(char)  # type: ignore[union-attr]
        elif char.isspace():
            if word is not None:
                words.append("".join(word))
                word = None
        else:
            word = [] if word is None else word
            if char in "'\"":
                quote = char
            elif char == "\\" and i + 1 < len(text):
                i += 1
                word.append(text[i])
            else:
                word.append(char)
        i += 1
    if word is not None:
        words.append("".join(word))
    return words


def _join_wordbreaks(words: list[str], cword: int) -> tuple[list[str], int]:
    """bash splits `--ruleset=t2k` at the '=' (it is in COMP_WORDBREAKS) into `--ruleset`,
    `=`, `t2k`: join them back into the one word click reads, and say where the word being
    completed now is."""
    out: list[str] = []
    at = cword
    i = 0
    while i < len(words):
        word = words[i]
        if word == "=" and out and out[-1].startswith("-") and "=" not in out[-1]:
            out[-1] += "="
            if i == cword:
                at = len(out) - 1
            if i + 1 < len(words):
                out[-1] += words[i + 1]
                if i + 1 == cword:
                    at = len(out) - 1
                i += 1
        else:
            if i == cword:
                at = len(out)
            out.append(word)
        i += 1
    return out, (len(out) if cword >= len(words) else at)


def _words(shell: str, env: Mapping[str, str]) -> tuple[list[str], str]:
    if shell == "bash":
        words, cword = _join_wordbreaks(
            _split(env.get("COMP_WORDS", "")), int(env.get("COMP_CWORD", "0"))
        )
        incomplete = words[cword] if cword < len(words) else ""
        return words[1:cword], incomplete
    line = env.get("_TYPER_COMPLETE_ARGS", "")
    args = _split(line)[1:]
    if args and not line.endswith(" "):
        return args[:-1], args[-1]
    return args, ""


_HELP = {
    "name": "help",
    "opts": ["--help", "-h"],
    "help": "Show this message and exit.",
    "flag": True,
    "multiple": False,
    "values": False,
}


def _option_entry(option: Any) -> dict[str, Any]:
    return {
        "name": option.name,
        "opts": list(option.flags),
        "help": option.help_text(),
        "flag": option.kind == "flag",
        "multiple": option.many,
        "values": option.complete,
    }


def _command_entry(command: Any) -> dict[str, Any]:
    from hc_cli.plugin.common_options import common_options

    declared = [o for o in command.options if not o.positional]
    return {
        "help": command.summary,
        "group": bool(command.sub),
        "options": [_option_entry(o) for o in (*declared, *common_options(command))] + [_HELP],
        "arguments": [
            _option_entry(o) for o in (*command.options, *common_options(command)) if o.positional
        ],
    }


def command_index(ruleset: str) -> dict[str, Any]:
    """Every command of the rule set and every shared command, with their options, as click
    sees them."""
    from hc_cli.core.errors import HcError
    from hc_cli.plugin import registry
    from hc_cli.plugin.common_options import COMMON_OPTIONS
    from hc_cli.plugin.shared_commands import SHARED_COMMANDS

    try:
        own = list(registry.get(ruleset).commands.values())
    except HcError:  # as the full app does: the default's commands, and no values to offer
        own = list(registry.get(registry.DEFAULT_RULESET).commands.values())
    group = [_option_entry(o) for o in COMMON_OPTIONS if o.name in ("ruleset", "game")]
    version = {
        "name": "version",
        "opts": ["--version"],
        "flag": True,
        "multiple": False,
        "values": False,
        "help": "The version, the rule set in force and where it came from, and the settings file.",
    }
    return {
        "group_options": [*group, version, _HELP],
        "commands": {c.name: _command_entry(c) for c in [*own, *SHARED_COMMANDS]},
    }


def _takes_value(option: dict[str, Any]) -> bool:
    return not option["flag"]


def _is_option(word: str) -> bool:
    return bool(word) and not word[0].isalnum()


def _options(options: list[dict], given: set[str], incomplete: str) -> list[Item]:
    return [
        (opt, o["help"])
        for o in options
        if o["multiple"] or o["name"] not in given
        for opt in o["opts"]
        if opt.startswith(incomplete)
    ]


def _ruleset_in_force(args: list[str], env: Mapping[str, str]) -> str | None:
    from hc_cli.core.errors import HcError
    from hc_cli.games import choice

    try:
        return choice.choose(args, env)[0]
    except HcError:
        return None  # a broken settings file: complete nothing, the command will say why


def candidates(args: list[str], incomplete: str, env: Mapping[str, str]) -> list[Item] | None:
    """What click would offer after `hc ARGS INCOMPLETE`; None when unsure."""
    ruleset = _ruleset_in_force(args, env)
    if ruleset is None:
        return []
    index = command_index(ruleset)
    if incomplete == "=":
        incomplete = ""
    elif "=" in incomplete and _is_option(incomplete):
        name, _, incomplete = incomplete.partition("=")
        args = [*args, name]
    group_opts = {opt: o for o in index["group_options"] for opt in o["opts"]}
    rest: list[str] | None = None
    command = None
    waiting = None
    for kind, option, text, _, after in words(
        args, group_opts, _takes_value, _is_option, equals_on_short=True
    ):
        if kind == "option" and text is None:
            waiting = option  # its value is the word being typed
        elif kind in ("option", "flag"):
            continue
        elif kind == "unknown" or text not in index["commands"] or index["commands"][text]["group"]:
            return None  # something click would have to parse (or a sub-group): let it
        else:
            command, rest = text, args[after:]
        break
    if command is None:
        if waiting is not None:
            return _values(ruleset, "", waiting["name"], [], incomplete)
        items = (
            _options(index["group_options"], set(), incomplete) if _is_option(incomplete) else []
        )
        return items + [
            (name, c["help"])
            for name, c in index["commands"].items()
            if name.startswith(incomplete)
        ]
    assert rest is not None
    spec = index["commands"][command]
    options = spec["options"]
    by_opt = {opt: o for o in options for opt in o["opts"]}
    given: set[str] = set()
    values: dict[str, list[str]] = {}
    positional = 0
    acting: list[str] = []  # the command's arguments: the unit that acts
    waiting = None
    for kind, option, text, equals, _ in words(
        rest, by_opt, _takes_value, _is_option, equals_on_short=True
    ):
        if kind == "positional" and text is not None:
            positional += 1
            acting.append(text)
        elif kind in ("option", "flag"):
            given.add(option["name"])
            if text is None:
                waiting = option if kind == "option" else None  # its value is being typed
            elif kind == "option" or equals:
                values.setdefault(option["name"], []).append(text)
    if "--" not in rest and _is_option(incomplete):
        return _options(options, given, incomplete)
    if waiting is None:
        arguments = spec["arguments"]
        if arguments and arguments[-1]["multiple"]:  # it takes every word left
            positional = min(positional, len(arguments) - 1)
        if positional < len(arguments) and arguments[positional]["values"]:
            waiting = arguments[positional]
        else:
            return []
    if not waiting["values"]:
        return []
    if waiting["name"] in ("unit", "at"):
        return _units(args, env, incomplete, acting, waiting["name"] == "at")
    return _values(ruleset, command, waiting["name"], values.get("rules") or [], incomplete)


def _units(
    args: list[str], env: Mapping[str, str], incomplete: str, acting: list[str], at: bool
) -> list[Item]:
    """The units of the game in force (--game, HC_GAME, the settings file); after --at
    (`acting`: the units that act), the other side's (`hc_cli.games.choice.target_names`);
    after units that act, the others of their side (`fellow_names`)."""
    from hc_cli.core.errors import HcError
    from hc_cli.games import choice
    from hc_cli.games.choice import fellow_names, game_in_args, target_names

    try:
        found = choice.game_in_force(game_in_args(args), env)
    except HcError:
        return []
    if found is None:
        return []
    if at:
        names = target_names(found[0], acting)
    else:
        names = fellow_names(found[0], acting)
    return [(name, None) for name in names if name.startswith(incomplete)]


def _values(
    ruleset: str, command: str, option: str, rules: list[str], incomplete: str
) -> list[Item]:
    # Case-sensitive, as click's own completion filters (table names are lowercase).
    from hc_cli.plugin.values import values_for

    return [
        (v, None) for v in values_for(ruleset, command, option, rules) if v.startswith(incomplete)
    ]


def _zsh_escape(s: str) -> str:
    return (
        s.replace('"', '""')
        .replace("'", "''")
        .replace("$", "\\$")
        .replace("`", "\\`")
        .replace(":", r"\\:")
    )


def render(shell: str, items: list[Item], env: Mapping[str, str]) -> tuple[str | None, int]:
    """The text click would print for these candidates, and the exit code."""
    if shell == "bash":
        return "\n".join(value for value, _ in items), 0
    if shell == "zsh":
        if not items:
            return "_files", 0
        lines = [
            f'"{_zsh_escape(v)}":"{_zsh_escape(h)}"' if h else f'"{_zsh_escape(v)}"'
            for v, h in items
        ]
        return "_arguments '*: :((" + "\n".join(lines) + "))'", 0
    action = env.get("_TYPER_COMPLETE_FISH_ACTION", "")
    if action == "is-args":
        return None, 0 if items else 1
    lines = [f"{v}\t{''.join(' ' if c.isspace() else c for c in h)}" if h else v for v, h in items]
    return ("\n".join(lines) if lines else ""), 0


def answer(env: Mapping[str, str]) -> tuple[str | None, int] | None:
    shell = SHELLS.get(env.get("_HC_COMPLETE", ""))
    if shell is None:
        return None  # e.g. source_bash: the full app writes the script
    args, incomplete = _words(shell, env)
    items = candidates(args, incomplete, env)
    if items is None:
        return None
    return render(shell, items, env)

"""TAB completion without typer: the fast path every TAB press takes.

Importing typer alone costs more than the whole budget of a TAB press, so this module answers
the shell's question (click's protocol, as the scripts in completions/ ask it) from two JSON
files: the command index shipped in the package (`completion_index.json`, generated from the
app) and the table values of the rule set in use, cached beside the tables' own cache and
rebuilt whenever a table or house-rules file changes. It behaves as click's completion does;
a test holds the two to the same answers. Anything it does not know returns None, and the
full app answers instead.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

SHELLS = {"complete_bash": "bash", "complete_zsh": "zsh", "complete_fish": "fish"}
DEFAULT_RULESET = "high-crusade"
Item = tuple[str, str | None]  # a candidate and its help


def _split(text: str) -> list[str]:
    lex = shlex.shlex(text, posix=True)
    lex.whitespace_split = True
    lex.commenters = ""
    out: list[str] = []
    try:
        out.extend(lex)
    except ValueError:  # an unclosed quote: keep the partial word, as click does
        out.append(lex.token)
    return out


def _words(shell: str, env: Mapping[str, str]) -> tuple[list[str], str]:
    if shell == "bash":
        words = _split(env.get("COMP_WORDS", ""))
        cword = int(env.get("COMP_CWORD", "0"))
        incomplete = words[cword] if cword < len(words) else ""
        return words[1:cword], incomplete
    line = env.get("_TYPER_COMPLETE_ARGS", "")
    args = _split(line)[1:]
    if args and not line.endswith(" "):
        return args[:-1], args[-1]
    return args, ""


def _index() -> dict[str, Any]:
    return json.loads((Path(__file__).parent / "completion_index.json").read_text("utf-8"))


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


def candidates(args: list[str], incomplete: str, env: Mapping[str, str]) -> list[Item] | None:
    """What click would offer after `hc ARGS INCOMPLETE`; None when unsure."""
    index = _index()
    if incomplete == "=":
        incomplete = ""
    elif "=" in incomplete and _is_option(incomplete):
        name, _, incomplete = incomplete.partition("=")
        args = [*args, name]
    group_opts = {opt for o in index["group_options"] for opt in o["opts"]}
    rest: list[str] | None = None
    command = None
    for i, word in enumerate(args):
        if word in group_opts:
            continue
        if word not in index["commands"] or index["commands"][word]["group"]:
            return None  # something click would have to parse (or a sub-group): let it
        command, rest = word, args[i + 1 :]
        break
    if command is None:
        items = (
            _options(index["group_options"], set(), incomplete) if _is_option(incomplete) else []
        )
        return items + [
            (name, c["help"])
            for name, c in index["commands"].items()
            if name.startswith(incomplete)
        ]
    assert rest is not None
    options = index["commands"][command]["options"]
    by_opt = {opt: o for o in options for opt in o["opts"]}
    given: set[str] = set()
    values: dict[str, list[str]] = {}
    waiting = None
    for word in rest:
        if waiting is not None:
            values.setdefault(waiting["name"], []).append(word)
            waiting = None
            continue
        option = by_opt.get(word)
        if option is not None:
            given.add(option["name"])
            waiting = None if option["flag"] else option
    if "--" not in rest and _is_option(incomplete):
        return _options(options, given, incomplete)
    if waiting is None or not waiting["values"]:
        return []
    name = waiting["name"]
    if name == "ruleset":
        from hc_cli.paths import available_rulesets

        return [(r, None) for r in available_rulesets() if r.startswith(incomplete)]
    ruleset = (values.get("ruleset") or [env.get("HC_RULESET") or DEFAULT_RULESET])[-1]
    table_values = _table_values(ruleset, values.get("rules") or [], index)
    if table_values is None:
        return []
    # Case-sensitive, as click's own completion filters (table names are lowercase).
    return [
        (v, None) for v in table_values.get(command, {}).get(name, []) if v.startswith(incomplete)
    ]


def _table_values(ruleset: str, rules: list[str], index: dict) -> dict | None:
    """Every completable value of every command's options for this rule set and these house
    rules: from the cache, or worked out once through the rule set and cached."""
    from hc_cli.paths import (
        available_rulesets,
        bundled_files,
        cache_dir,
        house_rule_paths,
        stat_key,
        write_atomically,
    )

    if ruleset not in available_rulesets():
        return None
    try:
        name, description = stat_key(ruleset, bundled_files(ruleset) + house_rule_paths(rules))
    except OSError:
        return None  # a house-rules file that is not there: nothing to offer
    cached = cache_dir() / f"completion-{name}.json"
    try:
        data = json.loads(cached.read_text("utf-8"))
        if data["source"] == description:
            return data["values"]
    except (OSError, ValueError, KeyError):
        pass
    built = build_values(ruleset, rules, index)
    if built is not None:
        write_atomically(cached, json.dumps({"source": description, "values": built}))
    return built


def build_values(ruleset: str, rules: list[str], index: dict) -> dict | None:
    from hc_cli.errors import HcError
    from hc_cli.rulesets import ruleset_module

    try:
        module = ruleset_module(ruleset)
        tables = module.load_tables(rules or None)
    except HcError:
        return None
    return {
        command: {
            o["name"]: module.complete(tables, command, o["name"])
            for o in spec["options"]
            if o["values"] and o["name"] != "ruleset"
        }
        for command, spec in index["commands"].items()
    }


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


def main() -> None:
    """The `hc` entry point: a TAB press is answered here; everything else goes to the app."""
    if "_HC_COMPLETE" in os.environ:
        result = answer(os.environ)
        if result is not None:
            text, code = result
            if text is not None:
                sys.stdout.write(text + "\n")
            sys.exit(code)
    from hc_cli.cli import main as app_main

    app_main()

"""One reading of a command line's words, shared by the direct path (`direct.parse`), the help
it writes (`direct.help_text`) and TAB completion (`complete.candidates`): where hc's own
options end and the command begins, and each word (of hc's own options, and after the
command) as what it is, an
option (with the value it takes, from `--name=VALUE` or the next word), a flag, a positional
argument, or an option of nobody's. Each reader then does its own part with the words: the
direct path converts the values, help looks for a `--help` that is a flag and not a value, TAB
finds the option or argument the word being completed belongs to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

GROUP_OPTIONS = ("--ruleset", "--game")  # what `hc` itself takes before the command


def group_options(args: Sequence[str]) -> tuple[int | None, str | None]:
    """Where the command begins after the options of `hc` itself (`--ruleset NAME`, `--game
    FILE`, each also with '='), and the last --game given there; None where the command
    would begin when they are not plain (a value missing, `--rulesetx`)."""
    game = None
    for kind, option, text, _, after in words(args, _GROUP, _always):
        if kind == "option":
            if text is None:
                return None, None  # a value missing
            if option == "--game":
                game = text
            continue
        if kind == "unknown" and args[after - 1].startswith(GROUP_OPTIONS):
            return None, None  # --rulesetx
        return after - 1, game
    return len(args), game


_GROUP = {flag: flag for flag in GROUP_OPTIONS}


def _always(option: Any) -> bool:
    return True


def long_option(word: str) -> bool:
    """A word the direct path reads as an option: it begins with '-'."""
    return word.startswith("-")


def words(
    rest: Sequence[str],
    by_flag: Mapping[str, Any],
    takes_value: Callable[[Any], bool],
    is_option: Callable[[str], bool] = long_option,
    equals_on_short: bool = False,
) -> Iterator[tuple[str, Any, str | None, bool, int]]:
    """Each word, as (kind, option, value, with '=', where the next word is): kind is "option"
    (an option and its value; None when the line ends before it), "flag", "positional" (the
    word is the value) or "unknown" (an option-like word no option has). `--name=VALUE` is read
    on long options (and on short ones with `equals_on_short`, as click's completion splits
    them)."""
    i = 0
    while i < len(rest):
        word = rest[i]
        i += 1
        if not is_option(word):
            yield "positional", None, word, False, i
            continue
        split = word.startswith("--") or equals_on_short
        flag, equals, text = word.partition("=") if split else (word, "", "")
        option = by_flag.get(flag)
        if option is None:
            yield "unknown", None, word, False, i
            continue
        if not takes_value(option):
            yield "flag", option, text if equals else None, bool(equals), i
            continue
        if not equals:
            if i >= len(rest):
                yield "option", option, None, False, i
                return
            text = rest[i]
            i += 1
        yield "option", option, text, bool(equals), i

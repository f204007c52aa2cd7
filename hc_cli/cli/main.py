"""The `hc` entry point (`[project.scripts]`): a TAB press is answered by the fast path
(`hc_cli.cli.complete`), a plain resolving command by the direct path (`hc_cli.cli.direct`),
everything else by the typer app (`hc_cli.cli.app`)."""

from __future__ import annotations

import os
import sys

from hc_cli.cli.complete import answer
from hc_cli.cli.output import silence, streams

# hc roll's options that take a value: a word after one of them is that value (--dice -1,0,1).
_ROLL_VALUES = frozenset(("--dice", "--seed", "--ruleset", "--game", "--log", "--rules"))


def expression_last(args: list[str]) -> list[str]:
    """`hc roll -4d6`, `hc roll 2d6 + 3`: the words of the expression (one with a leading
    minus too, which is an expression, not an option) are joined into one, after `--`, where
    the command line reads it as one."""
    if "roll" not in args or "--" in args:
        return args
    from hc_cli.cli.direct import group_options

    at = group_options(args)[0]  # the command's word, after the options of hc itself
    if at is None or at >= len(args) or args[at] != "roll":
        return args
    start = at + 1
    rest, words, i = list(args[:start]), [], start
    while i < len(args):
        word = args[i]
        expression = word in ("-", "+") or (len(word) > 1 and word[0] == "-"
                                             and word[1] in "0123456789dD({")  # fmt: skip
        if word.startswith("-") and not expression:
            rest.append(word)
            if word in _ROLL_VALUES and i + 1 < len(args):
                rest.append(args[i + 1])
                i += 1
        else:
            words.append(word)
        i += 1
    if len(words) == 1 and not words[0].startswith("-"):
        return args
    return [*rest, "--", " ".join(words)] if words else args


def main() -> None:
    """The `hc` entry point: a TAB press is answered here; everything else goes to the app.
    A standard stream that is closed, full or a broken pipe ends hc quietly: 141 for a broken
    pipe (as a shell reports SIGPIPE), 1 for the rest."""
    import errno

    closed = streams()
    try:
        if "_HC_COMPLETE" in os.environ:
            try:
                result = answer(os.environ)
            except (ValueError, IndexError):  # a malformed COMP_CWORD or the like
                result = ("", 0)
            if result is not None:
                text, code = result
                if text is not None:
                    sys.stdout.write(text + "\n")
                sys.stdout.flush()
                sys.exit(code)
        else:  # a TAB press the fast path leaves is click's: never run as a command
            from hc_cli.cli.direct import run as run_direct

            sys.argv[1:] = expression_last(sys.argv[1:])
            ran = run_direct(sys.argv[1:], os.environ)  # a plain resolving command: no typer
            if ran is not None:
                sys.stdout.flush()
                sys.exit(ran)
        from hc_cli.cli.app import main as app_main

        try:
            app_main()
        finally:
            sys.stdout.flush()
    except SystemExit as done:
        if closed and not done.code:
            sys.exit(1)  # it resolved, but nothing could be said: not a success
        raise
    except KeyboardInterrupt:  # Ctrl-C before or after a command ran: 130, quietly
        sys.exit(130)
    except BrokenPipeError:
        silence()
        sys.exit(141)
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EIO, errno.EBADF, errno.EDQUOT):
            raise
        silence()
        sys.exit(1)
    if closed:
        sys.exit(1)

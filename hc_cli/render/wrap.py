"""Lines broken between words to fit the terminal: one rule for plain text and for rich's.

A line too long is broken at spaces; each part after the first starts two spaces further in
than the line does. A word longer than the width stays whole. No rich here: plain text that
only needs wrapping (a game's notes, a replay) never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable


def parts(line: str, width: int) -> list[tuple[int, int]]:
    """Where `line` breaks for `width` (0: never): each part's start and end in `line`; the
    first part holds the line's own indent, the others are printed under it, two further in."""
    if width <= 0 or len(line) <= width:
        return [(0, len(line))]
    lead = len(line) - len(line.lstrip(" "))
    found = []
    start, length, at = 0, lead, lead
    for i, word in enumerate(line[lead:].split(" ")):
        if i and length + 1 + len(word) > width:
            found.append((start, at - 1))
            start, length = at, lead + 2 + len(word)
        else:
            length += (1 if i else 0) + len(word)
        at += len(word) + 1
    found.append((start, len(line)))
    return found


def indent(line: str) -> str:
    """What a line's continued parts start with."""
    return " " * (len(line) - len(line.lstrip(" ")) + 2)


def wrap(lines: Iterable[str], width: int) -> str:
    """The lines joined, each broken between words to fit `width` (0: no limit)."""
    out = []
    for line in lines:
        (first, end), *rest = parts(line, width)
        out.append(line[first:end])
        out += [indent(line) + line[a:b] for a, b in rest]
    return "\n".join(out)


def tell(text: str) -> None:
    """A word to the player on stderr, broken between words to the terminal's width (COLUMNS
    first, as hc's errors; 80 when there is none)."""
    import shutil
    import sys

    sys.stderr.write(wrap([text], shutil.get_terminal_size((80, 24)).columns) + "\n")

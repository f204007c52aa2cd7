"""Drawing through rich: lines of `rich.text.Text` (styled spans), tables as `rich.table.Table`,
written out with colour for a terminal or as their plain text for everything else.

Plain text is each line's `.plain`: the same characters the coloured lines hold, so the colour
is the only difference between the two, by construction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

from hc_cli.render.wrap import indent, parts, wrap

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

WIDE = 10_000  # no terminal is this wide: a table drawn at its natural width
LUMP = 200  # lines drawn together in colour: a long report is never drawn whole at once


def console(width: int = 0, colour: bool = False) -> Console:
    """A console drawing into a string: `colour` in the 16 standard colours (every terminal
    has them; hc's styles use no other), else no escape codes at all."""
    import io

    return Console(
        file=io.StringIO(),
        width=width or WIDE,
        force_terminal=colour,
        color_system="standard" if colour else None,
        no_color=not colour,
        highlight=False,
        markup=False,
        emoji=False,
        legacy_windows=False,
    )


def wrap_lines(lines: list[Text], width: int) -> list[Text]:
    """Each line broken between words to fit `width` (0: no limit), as `hc_cli.render.wrap`
    breaks plain text; styles go with the words."""
    out = []
    for line in lines:
        (first, end), *rest = parts(line.plain, width)
        out.append(line[first:end])
        out += [Text(indent(line.plain)) + line[a:b] for a, b in rest]
    return out


def show(lines: Iterable[Text], width: int = 0, colour: bool = False) -> str:
    """The lines wrapped to `width`, as a terminal shows them (`colour`) or as plain text (each
    line's text wrapped as it comes: a report of any length is never held twice over)."""
    if not colour:
        return wrap((line.plain for line in lines), width)
    screen = console(width, colour=True)
    drawn = []
    for lump in _lumps(lines):  # a line's spans end with it: lumps join as lines do
        with screen.capture() as captured:
            screen.print(Text("\n").join(wrap_lines(lump, width)), soft_wrap=True, end="")
        drawn.append(captured.get())
    return "\n".join(drawn)


def _lumps(lines: Iterable[Text]) -> Iterator[list[Text]]:
    """The lines, LUMP at a time."""
    from itertools import islice

    it = iter(lines)
    while lump := list(islice(it, LUMP)):
        yield lump


def table(*columns: Column | str, header: bool = True) -> Table:
    """A table drawn as hc's columns are: no lines, two spaces between columns, none at the
    edges."""
    return Table(
        *columns,
        box=None,
        padding=(0, 1),
        pad_edge=False,
        show_header=header,
        show_edge=False,
        header_style="",
    )


def table_lines(drawn: Table, width: int = 0, lead: str = "") -> list[Text]:
    """The table's lines, each led by `lead`, without the spaces that pad its end: the table as
    wide as its cells, or no wider than `width` (its wrapping columns narrowed)."""
    screen = console(WIDE)
    options = screen.options.update(width=(width - len(lead)) if width else WIDE)
    lines = []
    for segments in screen.render_lines(drawn, options, pad=False):
        line = Text(lead)
        for segment in segments:
            line.append(segment.text, segment.style)
        line.rstrip()
        lines.append(line)
    return lines

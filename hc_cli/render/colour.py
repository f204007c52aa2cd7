"""Colour for a terminal: escape codes for the styles hc paints with, laid out by
`hc_cli.render.text` exactly as the plain text is.

Importing rich costs a coloured command more start-up than the rest of it, and a style's
escape codes never change: so the styles hc uses are a fixed table of the codes rich renders
for them in the 16 standard colours (every terminal has them; a test checks the table against
rich). A style not in the table is rendered by rich.
"""

from __future__ import annotations

END = "\x1b[0m"
CODES = {  # style -> the escape code before the text (the one after is always END)
    "bold": "\x1b[1m",
    "dim": "\x1b[2m",
    "italic": "\x1b[3m",
    "dim italic": "\x1b[2;3m",
    "bold underline": "\x1b[1;4m",
    "red": "\x1b[31m",
    "green": "\x1b[32m",
    "yellow": "\x1b[33m",
    "magenta": "\x1b[35m",
    "cyan": "\x1b[36m",
    "bright_black": "\x1b[90m",
    "bold red": "\x1b[1;31m",
    "bold green": "\x1b[1;32m",
    "bold yellow": "\x1b[1;33m",
    "bold magenta": "\x1b[1;35m",
    "bold cyan": "\x1b[1;36m",
    "bold bright_black": "\x1b[1;90m",
}


def by_rich(style: str) -> tuple[str, str]:
    """A style's escape codes before and after the text, as rich renders them."""
    from rich.color import ColorSystem
    from rich.style import Style

    mark = "\x00"
    before, _, after = (
        Style.parse(style).render(mark, color_system=ColorSystem.STANDARD).partition(mark)
    )
    return before, after


def paint(style: str, text: str) -> str:
    if not style or not text:
        return text
    before = CODES.get(style)
    if before is None:
        before, after = by_rich(style)
        return f"{before}{text}{after}"
    return f"{before}{text}{END}"

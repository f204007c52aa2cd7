"""Colour for a terminal: rich's styles turned into escape codes, laid out by
`hc_cli.render.text` exactly as the plain text is.

Only `rich.style` is imported: rich's Console (and its tables) cost a coloured command more
start-up than all of hc's own code, and the layout needs neither.
"""

from __future__ import annotations

from rich.color import ColorSystem
from rich.style import Style

_STYLES: dict[str, Style] = {}


def paint(style: str, text: str) -> str:
    if not style or not text:
        return text
    parsed = _STYLES.get(style)
    if parsed is None:
        parsed = _STYLES[style] = Style.parse(style)
    # The 16 standard colours: every terminal has them, and hc's palette needs no more.
    return parsed.render(text, color_system=ColorSystem.STANDARD)

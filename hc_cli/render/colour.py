"""Colour for a terminal: rich's styles turned into escape codes, laid out by
`hc_cli.render.text` exactly as the plain text is.

Importing rich costs a coloured command more start-up than the rest of it, and a style's
escape codes never change: each style's codes, as rich renders them, are kept in hc's cache
folder, so rich is imported only for a style not yet seen.
"""

from __future__ import annotations

_CODES: dict[str, tuple[str, str]] | None = None  # style -> (before, after) the text
_LEARNT = False
_MARK = "\x00"


def _cache() -> tuple[str, str]:
    import os

    from hc_cli import __version__
    from hc_cli.tables.paths import cache_dir

    return os.path.join(cache_dir(), "colours.cache"), f"{__version__} standard colours"


def _known() -> dict[str, tuple[str, str]]:
    global _CODES
    if _CODES is None:
        from hc_cli.tables.files import read_cache

        path, source = _cache()
        found = read_cache(path, source, 100_000)
        _CODES = {}
        if isinstance(found, dict):
            _CODES = {
                k: (v[0], v[1])
                for k, v in found.items()
                if isinstance(k, str)
                and isinstance(v, tuple)
                and len(v) == 2
                and all(isinstance(part, str) for part in v)
            }
    return _CODES


def _learn(style: str) -> tuple[str, str]:
    """A style's escape codes from rich, kept for the next run."""
    global _LEARNT
    from rich.color import ColorSystem
    from rich.style import Style

    # The 16 standard colours: every terminal has them, and hc's palette needs no more.
    before, _, after = (
        Style.parse(style).render(_MARK, color_system=ColorSystem.STANDARD).partition(_MARK)
    )
    _known()[style] = (before, after)
    if not _LEARNT:
        _LEARNT = True
        import atexit

        atexit.register(_save)
    return before, after


def _save() -> None:
    from hc_cli.tables.files import write_cache

    path, source = _cache()
    write_cache(path, source, _known())


def paint(style: str, text: str) -> str:
    if not style or not text:
        return text
    before, after = _known().get(style) or _learn(style)
    return f"{before}{text}{after}"

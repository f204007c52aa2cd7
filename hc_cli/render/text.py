"""The breakdown as text, one layout for the terminal and for pipes.

`render` lays out a `Resolution` and calls `paint(style, text)` on each part: the plain
renderer's paint returns the text as it is; the colour renderer's (`hc_cli.render.colour`)
wraps it in escape codes. So coloured output is plain output with colour, by construction.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from hc_cli.model import Resolution
from hc_cli.render import sections as s

Paint = Callable[[str, str], str]

OUTCOME_STYLES = {
    "miss": "bold bright_black",
    "hit": "bold yellow",
    "kill": "bold red",
    "pass": "bold green",
    "rout": "bold red",
    "rallied": "bold green",
    "retreat": "bold yellow",
    "attacker": "bold cyan",
    "defender": "bold magenta",
    "draw": "bold yellow",
    "no-wound": "bold bright_black",
    "saved": "bold yellow",
    "wounded": "bold yellow",
    "casualty": "bold red",
    "quick-kill": "bold red",
    "deviated": "bold yellow",
    "on-target": "bold green",
}
BAR_WIDTH = 30


def plain(style: str, text: str) -> str:
    return text


def render(res: Resolution, paint: Paint = plain, bars: bool = False) -> str:
    lines = [paint("bold", s.title(res))]
    inputs = s.input_items(res)
    if inputs:
        lines.append(paint("dim", "inputs: ") + "; ".join(f"{k} {v}" for k, v in inputs))
    if res.modifiers:
        lines.append(paint("dim", "modifiers:"))
        rows = [s.modifier_row(m) for m in res.modifiers]
        width = max(len(r[0]) for r in rows)
        for name, value, target, source in rows:
            sign = (
                "green" if value[0] == "+" and value != "+0" else "red" if value[0] == "-" else ""
            )
            lines.append(
                f"  {name:<{width}}  {paint(sign, f'{value:>4}')}  {target:<10}  "
                + paint("yellow italic" if source == "sample" else "dim", source)
            )
    lines += _body(res, paint, indent="")
    for shot in res.shots:
        label, roll, outcome = s.shot_line(shot, res.units)
        tail = f": {paint(OUTCOME_STYLES.get(outcome, 'bold'), outcome)}" if outcome else ""
        lines.append(f"  {paint('bold', label)}: {roll}{tail}")
        lines += _odds(shot, paint, bars, indent="    ")
        lines += [] if shot.odds else [f"    {e}" for e in shot.explanation]
    if res.summary:
        lines.append(paint("dim", "summary: ") + paint("bold", s.summary_text(res.summary)))
    lines += _odds(res, paint, bars, indent="  ")
    if res.outcome:
        lines.append(
            paint("dim", "outcome: ")
            + paint(OUTCOME_STYLES.get(res.outcome, "bold cyan"), res.outcome)
        )
    if res.sample_values:
        lines.append(
            paint(
                "yellow italic", "sample values (not the book's): " + "; ".join(res.sample_values)
            )
        )
    return "\n".join(lines)


def _body(res: Resolution, paint: Paint, indent: str) -> list[str]:
    lines = []
    if res.rolls:
        lines.append(
            indent
            + paint("dim", "rolls: ")
            + "; ".join(paint("cyan", s.roll_text(r)) for r in res.rolls)
        )
    fields = s.field_items(res)
    if fields:
        lines.append(indent + "; ".join(f"{k} {paint('bold', v)}" for k, v in fields))
    for title, entries in (("order:", s.order_lines(res)), ("the move:", s.sequence_lines(res))):
        if entries:
            lines.append(indent + paint("bold", title))
            lines += [f"{indent}  {line}" for line in entries]
    lines += [indent + e for e in res.explanation]
    return lines


def _odds(res: Resolution, paint: Paint, bars: bool, indent: str) -> list[str]:
    if res.odds is None:
        return []
    lines = [f"{indent[:-2]}{paint('bold', 'odds:')}"]
    lines += _rows(res.odds.outcomes, paint, bars, indent, exact=True)
    for name, dist in res.odds.distributions.items():
        lines.append(f"{indent[:-2]}{paint('bold', name + ':')}")
        lines += _rows({str(k): p for k, p in dist.items()}, paint, bars, indent, exact=False)
    return lines


def _rows(
    outcomes: dict[str, Fraction], paint: Paint, bars: bool, indent: str, exact: bool
) -> list[str]:
    width = max((len(k) for k in outcomes), default=0)
    top = max(outcomes.values(), default=0) or 1
    lines = []
    for outcome, p in outcomes.items():
        style = OUTCOME_STYLES.get(outcome, "cyan").replace("bold ", "")
        line = (
            f"{indent}{outcome:>{width}}  {s.percent(p)}"
            if not exact
            else (f"{indent}{outcome:<{width}}  {s.percent(p)}  ({p.numerator}/{p.denominator})")
        )
        if bars:
            line += "  " + paint(style, "█" * round(float(p / top) * BAR_WIDTH))
        lines.append(line.rstrip())
    return lines


def render_listing(listing: Any, paint: Paint = plain) -> str:
    lines = [paint("bold", f"tables of {listing.ruleset}")]
    if listing.merged.skipped:
        lines.append(
            paint("yellow", "skipped (for another rule set): ") + "; ".join(listing.merged.skipped)
        )
    for table in listing.tables:
        lines += ["", paint("bold underline", table.name)]
        widths = [
            max([len(c)] + [len(r[i]) for r in table.rows]) for i, c in enumerate(table.columns)
        ]
        header = "  ".join(c.ljust(w) for c, w in zip(table.columns, widths, strict=True))
        lines.append("  " + paint("dim", header.rstrip()))
        source = table.columns.index("source") if "source" in table.columns else None
        for row in table.rows:
            cells = [v.ljust(w) for v, w in zip(row, widths, strict=True)]
            if source is not None and row[source].startswith("sample"):
                cells[source] = paint("yellow italic", cells[source])
            lines.append(("  " + "  ".join(cells)).rstrip())
    return "\n".join(lines)

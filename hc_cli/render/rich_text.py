"""The colour breakdown for a terminal: the same sections as plain text, styled with rich."""

from __future__ import annotations

from fractions import Fraction

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from hc_cli.model import Resolution
from hc_cli.render import sections as s

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
}
BAR_WIDTH = 30


def render(res: Resolution, console: Console) -> None:
    console.print(Text(s.title(res), style="bold"))
    inputs = s.input_items(res)
    if inputs:
        line = Text("  ")
        for k, v in inputs:
            line.append(f"{k} ", style="dim").append(v, style="bold").append("   ")
        console.print(line)
    if res.modifiers:
        table = Table(box=box.SIMPLE, show_header=True, header_style="dim", pad_edge=False)
        for col in ("modifier", "value", "to", "source"):
            table.add_column(col, justify="right" if col == "value" else "left")
        for name, value, target, source in map(s.modifier_row, res.modifiers):
            style = (
                "green"
                if value.startswith("+") and value != "+0"
                else "red"
                if value.startswith("-")
                else ""
            )
            table.add_row(
                name,
                Text(value, style=style),
                target,
                Text(source, style="yellow italic" if source == "sample" else "dim"),
            )
        console.print(table)
    _body(res, console)
    if res.shots:
        table = Table(box=box.SIMPLE, show_header=False, pad_edge=False)
        for _ in range(3):
            table.add_column()
        for shot in res.shots:
            label, roll, outcome = s.shot_line(shot)
            table.add_row(label, roll, Text(outcome, style=OUTCOME_STYLES.get(outcome, "bold")))
        console.print(table)
        for shot in res.shots:
            if shot.odds:
                console.print(Text(f"  {shot.label}", style="bold"))
                _odds(shot.odds.outcomes, console)
    if res.summary:
        console.print(Text("  " + s.summary_text(res.summary), style="bold"))
    if res.odds is not None:
        console.print(Text("odds", style="bold underline"))
        _odds(res.odds.outcomes, console)
        for name, dist in res.odds.distributions.items():
            console.print(Text(f"{name} (distribution)", style="bold underline"))
            _odds({str(k): p for k, p in dist.items()}, console)
    if res.outcome:
        console.print(
            Text("→ ").append(
                res.outcome.upper(), style=OUTCOME_STYLES.get(res.outcome, "bold cyan")
            )
        )
    if res.sample_values:
        console.print(
            Text(
                "sample values (not the book's): " + "; ".join(res.sample_values),
                style="yellow italic",
            )
        )


def _body(res: Resolution, console: Console) -> None:
    for roll in res.rolls:
        console.print(Text("  roll ", style="dim").append(s.roll_text(roll), style="cyan"))
    fields = s.field_items(res)
    if fields:
        line = Text("  ")
        for k, v in fields:
            line.append(f"{k} ", style="dim").append(v, style="bold").append("   ")
        console.print(line)
    order = s.order_lines(res)
    if order:
        console.print(Text("  order:", style="bold"))
        for line in order:
            console.print(f"    {line}", highlight=False)
    sequence = s.sequence_lines(res)
    if sequence:
        console.print(Text("  the move:", style="bold"))
        for step in sequence:
            console.print(f"    {step}", highlight=False)
    for e in res.explanation:
        console.print(Text(f"  {e}"))


def _odds(outcomes: dict[str, Fraction], console: Console) -> None:
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    for justify in ("left", "right", "left"):
        table.add_column(justify=justify)  # type: ignore[arg-type]
    top = max(outcomes.values(), default=Fraction(0)) or Fraction(1)
    for outcome, p in outcomes.items():
        cells = round(float(p / top) * BAR_WIDTH)
        bar = Text("█" * cells, style=OUTCOME_STYLES.get(outcome, "cyan").replace("bold ", ""))
        table.add_row(
            Text(f"  {outcome}", style=OUTCOME_STYLES.get(outcome, "")), s.percent(p).strip(), bar
        )
    console.print(table)


def render_listing(listing, console: Console) -> None:
    console.print(Text(f"tables of {listing.ruleset}", style="bold"))
    for t in listing.tables:
        table = Table(
            title=t.name,
            title_justify="left",
            title_style="bold underline",
            box=box.SIMPLE_HEAD,
            header_style="dim",
        )
        for column in t.columns:
            table.add_column(column, overflow="fold", no_wrap=column == "key")
        for row in t.rows:
            cells = [
                Text(v, style="yellow italic")
                if t.columns[i] == "source" and v.startswith("sample")
                else Text(v)
                for i, v in enumerate(row)
            ]
            table.add_row(*cells)
        console.print(table)

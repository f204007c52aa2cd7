"""The breakdown of a resolution as lines of rich `Text`: one layout, drawn with colour for a
terminal and as its plain characters for pipes (`hc_cli.render.draw.show`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rich.table import Column
from rich.text import Text

from hc_cli.core.model import Resolution
from hc_cli.log.entry import headline, percent
from hc_cli.render import sections as s
from hc_cli.render.draw import show, table, table_lines

if TYPE_CHECKING:
    from fractions import Fraction

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
SCREENFUL = 20  # shots listed one by one; more are summed up unless --verbose
TOO_SMALL = 0.00005  # a probability that prints as 0.00%


def render(
    res: Resolution,
    colour: bool = False,
    bars: bool = False,
    width: int = 0,
    quiet: bool = False,
    verbose: bool = False,
) -> str:
    """The headline first, then the breakdown; every line wrapped to `width` (0: no limit)
    between words, never inside one. `quiet`: the headline alone. A volley of more shots
    than a screen holds shows how its shots came out, not each shot, unless `verbose`."""
    return show(breakdown(res, bars, width, quiet, verbose), width, colour)


def breakdown(
    res: Resolution, bars: bool = False, width: int = 0, quiet: bool = False, verbose: bool = False
) -> list[Text]:
    style = OUTCOME_STYLES.get(res.outcome or "", "bold cyan") if res.odds is None else "bold"
    lines = [Text(headline(res), style)]
    game = res.fields.get("game")
    if quiet:  # the headline alone; in a game, and what it changed
        if isinstance(game, dict):
            lines += [Text(f"  {game['again']}")] if game.get("again") else []
            lines += [Text(f"  {game['anyway']}", "yellow")] if game.get("anyway") else []
            lines += [Text(f"  {change}") for change in game.get("changes", [])]
            lines += [Text(f"  {game['over']}")] if game.get("over") else []  # said, quiet or not
        return lines
    lines.append(Text(s.title(res), "dim"))
    inputs = s.input_items(res)
    if inputs:
        lines.append(Text.assemble(("inputs: ", "dim"), "; ".join(f"{k} {v}" for k, v in inputs)))
    if isinstance(game, dict) and game.get("filled"):
        lines.append(Text.assemble(("from the game: ", "dim"), "; ".join(game["filled"])))
    if res.modifiers:
        lines.append(Text("modifiers:", "dim"))
        lines += _modifiers(res)
    phases = res.fields.get("phases", [])
    lines += [Text(line if verbose else _few_dice(line), "cyan") for line in phases]
    lines += _body(res)
    lines += _shots(res, bars, width, verbose)
    if res.summary:
        lines.append(Text.assemble(("summary: ", "dim"), (s.summary_text(res.summary), "bold")))
    lines += _odds(res, bars, indent="  ", width=width)
    lines += [Text.assemble(("reading: ", "magenta"), r) for r in res.all_readings()]
    if res.sample_values:
        lines.append(Text(s.sample_footer(res, width), "dim italic"))
    if res.house_rules:
        lines.append(Text(s.house_footer(res), "yellow"))
    if isinstance(game, dict):
        lines += game_lines(game)
    return lines


def _modifiers(res: Resolution) -> list[Text]:
    """A row a modifier: its name, its value (green up, red down), what it applies to and
    where it comes from."""
    drawn = table("", Column(justify="right", min_width=4), Column(min_width=10), "", header=False)
    for name, value, target, source in (s.modifier_row(m, res.book) for m in res.modifiers):
        sign = "green" if value[0] == "+" and value != "+0" else "red" if value[0] == "-" else ""
        drawn.add_row(
            Text(name), Text(value, sign), Text(target),
            Text(source, "italic" if source == "sample" else "dim"),
        )  # fmt: skip
    return table_lines(drawn, lead="  ")


def _shots(res: Resolution, bars: bool, width: int, verbose: bool) -> list[Text]:
    """Each shot of a volley on its line; past a screenful, how many came out each way."""
    listed = res.shots if verbose or len(res.shots) <= SCREENFUL else []
    lines = []
    if len(listed) < len(res.shots):
        tally: dict[str, int] = {}
        for shot in res.shots:
            tally[shot.outcome or "-"] = tally.get(shot.outcome or "-", 0) + 1
        line = Text.assemble(("shots: ", "dim"))
        for i, (outcome, n) in enumerate(tally.items()):
            line.append(", " if i else "")
            line.append_tokens([(outcome, OUTCOME_STYLES.get(outcome, "bold")), (f" {n}", "")])
        line.append(f" (each of the {len(res.shots)}: --verbose, or --json)", "dim")
        lines.append(line)
    for shot in listed:
        label, roll, outcome = s.shot_line(shot, res.units)
        line = Text.assemble("  ", (label, "bold"), f": {roll}")
        if outcome:
            line.append_tokens([(": ", ""), (outcome, OUTCOME_STYLES.get(outcome, "bold"))])
        lines.append(line)
        lines += _odds(shot, bars, indent="    ", width=width)
        lines += [] if shot.odds else [Text(f"    {e}") for e in shot.explanation]
    return lines


def game_lines(game: dict) -> list[Text]:
    """What an action did to the game and what the rules now require: after the result. Its
    words name what the game file holds (units, sides): each is printed escaped."""
    from hc_cli.core.words import printable

    game = {
        k: printable(v) if isinstance(v, str) else [printable(str(x)) for x in v]
        if isinstance(v, list) else v
        for k, v in game.items()
    }  # fmt: skip
    lines = []
    if game.get("again"):
        lines.append(Text(game["again"], "yellow"))
    if game.get("anyway"):
        lines.append(Text(game["anyway"], "yellow"))
    if game.get("refused"):
        lines.append(Text(f"(as an action it would be refused: {game['refused']})", "yellow"))
    if game.get("note"):
        lines.append(Text(game["note"], "dim"))
    if game.get("clock") or game.get("changes"):
        lines.append(Text.assemble(("game: ", "bold"), game.get("clock", "")))
        lines += [Text(f"  {change}") for change in game.get("changes", [])]
    if game.get("due"):
        lines.append(Text("now:", "bold"))
        lines += [Text.assemble("  ", (due, "yellow")) for due in game["due"]]
    return lines


def _few_dice(phase: str) -> str:
    """A phase's dice past a screenful shown as the first few and how many there were."""
    head, _, tail = phase.partition(": ")
    values, arrow, result = tail.partition(" -> ")
    dice = values.split()
    if len(dice) <= SCREENFUL:
        return phase
    return f"{head}: {' '.join(dice[:SCREENFUL])} ... ({len(dice)} dice){arrow}{result}"


def _body(res: Resolution) -> list[Text]:
    lines = []
    if res.rolls:
        line = Text.assemble(("rolls: ", "dim"))
        for i, group in enumerate(s.roll_groups(res.rolls)):
            line.append_tokens([("; " if i else "", ""), (group, "cyan")])
        lines.append(line)
    fields = s.field_items(res)
    if fields:
        line = Text()
        for i, (k, v) in enumerate(fields):
            line.append_tokens([(f"{'; ' if i else ''}{k} ", ""), (v, "bold")])
        lines.append(line)
    lines += [Text.assemble((f"{k}: ", "dim"), (v, "bold")) for k, v in s.landed_lines(res)]
    for title, entries in (("order:", s.order_lines(res)), ("the move:", s.sequence_lines(res))):
        if entries:
            lines.append(Text(title, "bold"))
            lines += [Text(f"  {line}") for line in entries]
    lines += [Text(e) for e in res.explanation]
    return lines


def _odds(res: Resolution, bars: bool, indent: str, width: int = 0) -> list[Text]:
    if res.odds is None:
        return []
    from hc_cli.core.odds import mean

    lines = [Text.assemble(indent[:-2], ("odds:", "bold"))]
    outcomes = res.odds.outcomes
    if len(outcomes) > SCREENFUL and res.odds.distributions:  # a roll's totals: said below
        lines.append(Text(f"{indent}{len(outcomes):,} outcomes, each in the table below"))
    else:
        lines += _rows(outcomes, bars, indent, width)
    for name, dist in res.odds.distributions.items():
        numeric = all(isinstance(k, int) for k in dist)
        title = f"{name} (mean {float(mean(dist)):.2f})" if numeric else name
        lines.append(Text.assemble(indent[:-2], (title + ":", "bold")))
        lines += _distribution(dist, bars, indent, numeric, width)
    return lines


def _bar(p: Fraction | float, top: Fraction | float, style: str, room: int) -> Text:
    """A bar of up to BAR_WIDTH blocks, as many as the terminal's width leaves (`room`)."""
    size = max(0, min(BAR_WIDTH, room - 2))
    return Text("█" * round(float(p / (top or 1)) * size) if size and p else "", style)


def _rows(outcomes: dict[str, Fraction], bars: bool, indent: str, width: int = 0) -> list[Text]:
    """Each outcome, its percentage, its fraction while short enough to read (so the bars
    start in one column), and its bar."""
    top = max(outcomes.values(), default=0)
    exacts = {
        k: f"({p.numerator}/{p.denominator})" if p and p.denominator < 10**12 else ""
        for k, p in outcomes.items()
    }
    longest = max((len(e) for e in exacts.values()), default=0)
    names = max((len(k) for k in outcomes), default=0)
    room = (width or 200) - len(indent) - names - 9 - (2 + longest if longest else 0)
    drawn = table("", Column(justify="right"), *([""] if longest else []), "", header=False)
    for outcome, p in outcomes.items():
        style = OUTCOME_STYLES.get(outcome, "cyan").replace("bold ", "")
        bar = _bar(p, top, style, room) if bars else Text()
        drawn.add_row(outcome, percent(p), *([exacts[outcome]] if longest else []), bar)
    return table_lines(drawn, lead=indent)


def _distribution(
    dist: Mapping, bars: bool, indent: str, numeric: bool, width: int = 0
) -> list[Text]:
    """A count's distribution: each value exactly, and (for whole numbers) that value or more:
    "2 or more kills" is what a player asks."""
    from hc_cli.core.odds import at_least_floats, float_items

    rows = float_items(dist)
    cut: list[str] = []
    if numeric and len(rows) > SCREENFUL:
        # Thousands of counts: the tails too unlikely to show (0.00% each) are said in a line.
        seen = [i for i, (_, p) in enumerate(rows) if p >= TOO_SMALL]
        first, last = (seen[0], seen[-1]) if seen else (0, len(rows) - 1)
        for part in (rows[:first], rows[last + 1 :]):
            if part:
                cut.append(f"{part[0][0]}..{part[-1][0]}" if len(part) > 1 else f"{part[0][0]}")
        rows = rows[first : last + 1]
    keys = max([len(str(k)) for k, _ in rows] + [1])
    top = max((p for _, p in rows), default=0.0)
    more = at_least_floats(dist) if numeric else {}
    room = (width or 200) - len(indent) - keys - 9 - (9 if numeric else 0)
    heads = ["exactly", *(["or more"] if numeric else [])]
    drawn = table(*(Column(h, justify="right") for h in ["", *heads]), "")
    for k, p in rows:
        bar = _bar(p, top, "cyan", room) if bars else Text()
        drawn.add_row(str(k), percent(p), *([percent(more[k])] if numeric else []), bar)
    lines = table_lines(drawn, lead=indent)
    if cut:
        said = f"(left out: {' and '.join(cut)}, each under 0.005%; --json lists every one)"
        lines.insert(1, Text(indent + said))
    return lines

"""The breakdown as text, one layout for the terminal and for pipes.

`render` lays out a `Resolution` and calls `paint(style, text)` on each part: the plain
renderer's paint returns the text as it is; the colour renderer's (`hc_cli.render.colour`)
wraps it in escape codes. So coloured output is plain output with colour, by construction.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from hc_cli.core.model import Resolution
from hc_cli.render import sections as s

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from fractions import Fraction
    from typing import Any

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
SCREENFUL = 20  # shots listed one by one; more are summed up unless --verbose
TOO_SMALL = 0.00005  # a probability that prints as 0.00%


def plain(style: str, text: str) -> str:
    return text


def render(
    res: Resolution,
    paint: Paint = plain,
    bars: bool = False,
    width: int = 0,
    quiet: bool = False,
    verbose: bool = False,
) -> str:
    """The headline first, then the breakdown; every line wrapped to `width` (0: no limit)
    between words, never inside one. `quiet`: the headline alone. A volley of more shots
    than a screen holds shows how its shots came out, not each shot, unless `verbose`."""
    style = OUTCOME_STYLES.get(res.outcome or "", "bold cyan") if res.odds is None else "bold"
    lines = [paint(style, s.headline(res))]
    game = res.fields.get("game")
    if quiet:  # the headline alone; in a game, and what it changed
        if isinstance(game, dict):
            lines += [f"  {game['again']}"] if game.get("again") else []
            lines += [f"  {change}" for change in game.get("changes", [])]
        return wrap(lines, width)
    lines.append(paint("dim", s.title(res)))
    inputs = s.input_items(res)
    if inputs:
        lines.append(paint("dim", "inputs: ") + "; ".join(f"{k} {v}" for k, v in inputs))
    if isinstance(game, dict) and game.get("filled"):
        lines.append(paint("dim", "from the game: ") + "; ".join(game["filled"]))
    if res.modifiers:
        lines.append(paint("dim", "modifiers:"))
        rows = [s.modifier_row(m, res.book) for m in res.modifiers]
        name_width = max(len(r[0]) for r in rows)
        for name, value, target, source in rows:
            sign = (
                "green" if value[0] == "+" and value != "+0" else "red" if value[0] == "-" else ""
            )
            lines.append(
                f"  {name:<{name_width}}  {paint(sign, f'{value:>4}')}  {target:<10}  "
                + paint("italic" if source == "sample" else "dim", source)
            )
    lines += [
        paint("cyan", line if verbose else _few_dice(line)) for line in res.fields.get("phases", [])
    ]
    lines += _body(res, paint, indent="")
    listed = res.shots if verbose or len(res.shots) <= SCREENFUL else []
    if len(listed) < len(res.shots):
        tally: dict[str, int] = {}
        for shot in res.shots:
            tally[shot.outcome or "-"] = tally.get(shot.outcome or "-", 0) + 1
        lines.append(
            paint("dim", "shots: ")
            + ", ".join(f"{paint(OUTCOME_STYLES.get(o, 'bold'), o)} {n}" for o, n in tally.items())
            + paint("dim", f" (each of the {len(res.shots)}: --verbose, or --json)")
        )
    for shot in listed:
        label, roll, outcome = s.shot_line(shot, res.units)
        tail = f": {paint(OUTCOME_STYLES.get(outcome, 'bold'), outcome)}" if outcome else ""
        lines.append(f"  {paint('bold', label)}: {roll}{tail}")
        lines += _odds(shot, paint, bars, indent="    ", width=width)
        lines += [] if shot.odds else [f"    {e}" for e in shot.explanation]
    if res.summary:
        lines.append(paint("dim", "summary: ") + paint("bold", s.summary_text(res.summary)))
    lines += _odds(res, paint, bars, indent="  ", width=width)
    lines += [paint("magenta", "reading: ") + r for r in res.all_readings()]
    if res.sample_values:
        lines.append(paint("dim italic", s.sample_footer(res, width)))
    if res.house_rules:
        lines.append(paint("yellow", s.house_footer(res)))
    if isinstance(game, dict):
        lines += game_lines(game, paint)
    return wrap(lines, width)


def game_lines(game: dict, paint: Paint = plain) -> list[str]:
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
        lines.append(paint("yellow", game["again"]))
    if game.get("anyway"):
        lines.append(paint("yellow", game["anyway"]))
    if game.get("refused"):
        lines.append(paint("yellow", f"(as an action it would be refused: {game['refused']})"))
    if game.get("note"):
        lines.append(paint("dim", game["note"]))
    if game.get("clock") or game.get("changes"):
        lines.append(paint("bold", "game: ") + game.get("clock", ""))
        lines += [f"  {change}" for change in game.get("changes", [])]
    if game.get("due"):
        lines.append(paint("bold", "now:"))
        lines += ["  " + paint("yellow", due) for due in game["due"]]
    return lines


def _few_dice(phase: str) -> str:
    """A phase's dice past a screenful shown as the first few and how many there were."""
    head, _, tail = phase.partition(": ")
    values, arrow, result = tail.partition(" -> ")
    dice = values.split()
    if len(dice) <= SCREENFUL:
        return phase
    return f"{head}: {' '.join(dice[:SCREENFUL])} ... ({len(dice)} dice){arrow}{result}"


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def wrap(lines: list[str], width: int) -> str:
    """Each line broken between words to fit `width`, continued two spaces further in than
    it starts; escape codes take no room. A word longer than the width stays whole."""
    if width <= 0:
        return "\n".join(lines)
    out = []
    for line in lines:
        if len(ANSI.sub("", line)) <= width:
            out.append(line)
            continue
        body = line.lstrip(" ")
        lead = line[: len(line) - len(body)]
        words = body.split(" ")
        current, length = lead + words[0], len(lead) + len(ANSI.sub("", words[0]))
        for word in words[1:]:
            size = len(ANSI.sub("", word))
            if length + 1 + size > width:
                out.append(current)
                current, length = lead + "  " + word, len(lead) + 2 + size
            else:
                current, length = f"{current} {word}", length + 1 + size
        out.append(current)
    return "\n".join(out)


def _body(res: Resolution, paint: Paint, indent: str) -> list[str]:
    lines = []
    if res.rolls:
        lines.append(
            indent
            + paint("dim", "rolls: ")
            + "; ".join(paint("cyan", group) for group in s.roll_groups(res.rolls))
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


def _odds(res: Resolution, paint: Paint, bars: bool, indent: str, width: int = 0) -> list[str]:
    if res.odds is None:
        return []
    from hc_cli.core.odds import mean

    lines = [f"{indent[:-2]}{paint('bold', 'odds:')}"]
    outcomes = res.odds.outcomes
    if len(outcomes) > SCREENFUL and res.odds.distributions:  # a roll's totals: said below
        lines.append(f"{indent}{len(outcomes):,} outcomes, each in the table below")
    else:
        lines += _rows(outcomes, paint, bars, indent, width)
    for name, dist in res.odds.distributions.items():
        numeric = all(isinstance(k, int) for k in dist)
        title = f"{name} (mean {float(mean(dist)):.2f})" if numeric else name
        lines.append(f"{indent[:-2]}{paint('bold', title + ':')}")
        lines += _distribution(dist, paint, bars, indent, numeric, width)
    return lines


def _bar(
    p: Fraction | float, top: Fraction | float, style: str, paint: Paint, room: int = BAR_WIDTH
) -> str:
    """A bar of up to `room` blocks (the terminal's width left after the numbers)."""
    size = max(0, min(BAR_WIDTH, room - 2))
    return "  " + paint(style, "█" * round(float(p / (top or 1)) * size)) if size else ""


def _rows(
    outcomes: dict[str, Fraction], paint: Paint, bars: bool, indent: str, width: int = 0
) -> list[str]:
    """Each outcome, its percentage, its fraction while short enough to read (padded to the
    longest, so the bars start in one column), and its bar."""
    names = max((len(k) for k in outcomes), default=0)
    top = max(outcomes.values(), default=0)
    exacts = {
        k: f"({p.numerator}/{p.denominator})" if p and p.denominator < 10**12 else ""
        for k, p in outcomes.items()
    }
    longest = max((len(e) for e in exacts.values()), default=0)
    lines = []
    for outcome, p in outcomes.items():
        style = OUTCOME_STYLES.get(outcome, "cyan").replace("bold ", "")
        exact = f"  {exacts[outcome]:<{longest}}" if longest else ""
        line = f"{indent}{outcome:<{names}}  {s.percent(p)}{exact}"
        if bars and p:
            line += _bar(p, top, style, paint, (width or 200) - len(line))
        lines.append(line.rstrip())
    return lines


def _distribution(
    dist: Mapping, paint: Paint, bars: bool, indent: str, numeric: bool, width: int = 0
) -> list[str]:
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
    lines = [f"{indent}{'':>{keys}}  {'exactly':>7}" + ("  or more" if numeric else "")]
    if cut:
        lines.append(
            f"{indent}(left out: {' and '.join(cut)}, each under 0.005%; --json lists every one)"
        )
    for k, p in rows:
        line = f"{indent}{k!s:>{keys}}  {s.percent(p)}"
        if numeric:
            line += f"  {s.percent(more[k])}"
        if bars and p:
            line += _bar(p, top, "cyan", paint, (width or 200) - len(line))
        lines.append(line.rstrip())
    return lines


def render_listing(listing: Any, paint: Paint = plain, width: int = 0, book: str = "") -> str:
    """Each table as columns when it fits `width` (0: always), else one entry a block: its
    name, then a line for each field, wrapped between words."""
    lines = [paint("bold", f"tables of {listing.ruleset}")]
    if listing.merged.skipped:
        lines.append(
            paint("yellow", "skipped (for another rule set): ") + "; ".join(listing.merged.skipped)
        )
    for table in listing.tables:
        lines += ["", paint("bold underline", table.name)]
        source = table.columns.index("source") if "source" in table.columns else None
        rows = [
            [s.source_words(v, book) if i == source else v for i, v in enumerate(row)]
            for row in table.rows
        ]
        flat = [[v.replace("\n", " | ") for v in row] for row in rows]
        widths = [max([len(c)] + [len(r[i]) for r in flat]) for i, c in enumerate(table.columns)]
        if width and 2 + sum(widths) + 2 * (len(widths) - 1) > width:
            lines += _blocks(table.columns, rows, source, paint)
            continue
        header = "  ".join(c.ljust(w) for c, w in zip(table.columns, widths, strict=True))
        lines.append("  " + paint("dim", header.rstrip()))
        for row in flat:
            cells = [v.ljust(w) for v, w in zip(row, widths, strict=True)]
            if source is not None and row[source].startswith("sample"):
                cells[source] = paint("italic", cells[source])
            lines.append(("  " + "  ".join(cells)).rstrip())
    return wrap(lines, width)


def _blocks(
    columns: list[str], rows: list[list[str]], source: int | None, paint: Paint
) -> list[str]:
    lines = []
    for row in rows:
        lines.append("  " + paint("bold", row[0]))
        for i, (column, value) in enumerate(zip(columns[1:], row[1:], strict=True), 1):
            if "\n" in value:  # a mapping: each of its entries on a line of its own
                lines.append(f"    {paint('dim', column + ':')}")
                lines += [f"      {part}" for part in value.split("\n")]
            elif value:
                style = "italic" if i == source and value.startswith("sample") else ""
                lines.append(f"    {paint('dim', column + ':')} {paint(style, value)}")
    return lines


def _row_text(cells: list[str], widths: list[int]) -> str:
    return ("  " + "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))).rstrip()


def _row_lines(cells: list[str], widths: list[int], width: int) -> list[str]:
    """A row; a last cell too long for `width` is continued under its own column, where
    that column leaves room to read (else the row is wrapped as any line is)."""
    line = _row_text(cells, widths)
    start = 2 + sum(w + 2 for w in widths[:-1])  # where the last column begins
    if not width or len(line) <= width or width - start < 16:
        return [line]
    out, current = [], ""
    for word in cells[-1].split(" "):
        if current and len(current) + 1 + len(word) > width - start:
            out.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    out.append(current)
    head = _row_text([*cells[:-1], out[0]], [*widths[:-1], 0])
    return [head, *(" " * start + part for part in out[1:])]


def _cell(value: Any) -> str:
    from hc_cli.core.words import printable

    if value is None or value is False:
        return "-"
    if value is True:
        return "yes"
    if isinstance(value, list):
        return printable(", ".join(str(v) for v in value)) or "-"
    return printable(str(value))


def render_status(found: dict, paint: Paint = plain, width: int = 0) -> str:
    """`hc status`: where the game is first, then each side's units, then what is due; what
    the game file holds printed escaped."""
    from hc_cli.core.words import count, printable

    found = {
        **found,
        "clock": printable(found["clock"]),
        "due": [printable(d) for d in found["due"]],
        "title": printable(found.get("title") or ""),
        "game": printable(found["game"]),
        "sides": {printable(side): rows for side, rows in found["sides"].items()},
    }
    lines = [paint("bold", found["clock"] or "the game has begun")]
    cells = {
        side: [[_cell(r.get(k)) for k in found["keys"]] for r in rows]
        for side, rows in found["sides"].items()
    }
    every = [row for rows in cells.values() for row in rows]  # one width a column, every side
    widths = [max([len(c)] + [len(r[i]) for r in every]) for i, c in enumerate(found["columns"])]
    lines.append(paint("dim", _row_text(found["columns"], widths)))
    for side, rows in cells.items():
        lines.append(paint("bold cyan", side))
        lines += [text for row in rows for text in _row_lines(row, widths, width)]
    if found["due"]:
        lines.append(paint("bold", "now:"))
        lines += ["  " + paint("yellow", due) for due in found["due"]]
    title = f"{found['title']}, " if found.get("title") else ""
    lines.append(
        paint(
            "dim",
            f"{found['game']}: {title}{found['ruleset']}, {count(found['entries'], 'entry')}, "
            f"head {found['head']}",
        )
    )
    return wrap(lines, width)


def render_history(entries: list[dict], width: int = 0) -> str:
    """`hc history`: each entry under the move (or turn) it was taken in, what it changed
    below it; an entry taken back by an undo is marked so."""
    from hc_cli.core.words import printable

    lines: list[str] = []
    period = None
    for item in entries:
        if item["period"] != period:
            period = item["period"]
            lines.append(printable(period))
        mark = " (undone)" if item["undone"] else ""
        lines.append(f"  {item['entry']:>3}. {printable(item['what'])}{mark}")
        lines += [f"       {printable(change)}" for change in item["changes"]]
    return wrap(lines, width)


def render_luck(report: dict, width: int = 0, quiet: bool = False) -> str:
    """`hc luck`: each side's luck and its verdict first; then the counts against their
    expectation, each unit and kind of action, every action rated, the hand-entered dice and
    a chart of each side's running luck over the game."""
    from hc_cli.core.words import count, printable

    def signed(x: float) -> str:
        return f"{x:+.2f}"

    def group(name: str, g: dict) -> str:
        how = "" if g.get("method") in ("exact", "none") else f", by the {g['method']}"
        return (
            f"{printable(name)}: luck {signed(g['luck'])} over {count(g['actions'], 'action')}: "
            f"{g['verdict']}{how}"
        )

    lines = []
    sides = report["sides"]
    if report.get("unit"):
        lines.append(group(report["unit"], report["all"]))
    elif sides:
        lines += [group(side, g) for side, g in sides.items()]
    else:
        lines.append(group("all", report["all"]))
    rated, skipped = report["all"]["actions"], len(report["not_rated"])
    lines.append(
        f"{report['kind']} {printable(report['file'])} ({report['ruleset']}): "
        f"{count(rated, 'action')} rated" + (f", {skipped} not rated" if skipped else "")
        + (" (a roll-off counts for each side, and once in all)" if any(
            a["view"] == "roll-off" for a in report["actions"]) else "")
    )  # fmt: skip
    if quiet:
        return wrap(lines, width)
    for side, g in (sides or {"all": report["all"]}).items():
        for kind, c in g["counts"].items():
            lines.append(
                f"  {printable(side)}, {kind}: {c['actual']:g}, {c['expected']:g} expected"
            )
    if report["units"]:
        lines.append("by unit: " + ", ".join(
            f"{printable(u)} {signed(g['luck'])} ({g['actions']})"
            for u, g in report["units"].items()
        ))  # fmt: skip
    if report["kinds"]:
        lines.append("by kind: " + ", ".join(
            f"{k} {signed(g['luck'])} ({g['actions']})" for k, g in report["kinds"].items()
        ))  # fmt: skip
    lines.append("each result, in its own odds:")
    for a in report["actions"]:
        who = printable(a["unit"] or a["side"] or "")
        if a["expected"] is not None:
            value = _counted(a["value"], a["measure"])
        else:
            value = printable(str(a["value"]))
        if a["view"] == "roll-off":
            value = f"{'won' if a['value'] else 'lost'} the roll-off"
        expected = f" ({a['expected']:.2f} expected)" if a["expected"] is not None else ""
        as_target = " (its target's side)" if a["view"] == "target" else ""
        again = f" (re-rolled: entry {a['reroll_of']} set aside)" if a.get("reroll_of") else ""
        lines.append(
            f"  {a['entry']:>3}. {(who + ' ') if who else ''}{a['command']}{as_target}: "
            f"{value}{expected}; no better "
            f"{a['p_no_better']:.0%}, no worse {a['p_no_worse']:.0%}: luck "
            f"{signed(a['luck'])}{again}"
        )
    for n in report["not_rated"]:
        who = printable(str(n.get("unit") or ""))
        lines.append(f"  {n['entry']:>3}. {(who + ' ') if who else ''}{n['command']}: "
                     f"{printable(n['why'])}")  # fmt: skip
    for f in report.get("forfeits", []):
        who = printable(str(f.get("unit") or ""))
        lines.append(f"sealed roll {f['entry']} ({(who + ' ') if who else ''}{f['command']}) "
                     "given up after both players committed: a forfeit, not rated")  # fmt: skip
    for r in report["rerolls"]:
        lines.append(f"entry {r['entry']} re-rolled by agreement: entry {r['sets_aside']}'s dice "
                     "set aside")  # fmt: skip
    for d in report["hand_entered_dice"]:
        shown = (
            " ".join(str(c) for c in d["counts"])
            if len(d["counts"]) <= 20
            else (f"{d['rolls']} rolls")
        )
        grouped = f", {d['grouped']}" if d.get("grouped") else ""
        lines.append(
            f"dice entered by hand, {d['die']}, faces 1 to {len(d['counts'])}: {shown}; "
            f"{d['method']}"
            f"{grouped}: p = {d['p']:.3f}"
            + (" (fair dice give a count this far from even that often)" if d["rolls"] else "")
        )
    lines += _luck_chart(report["chart"], width or 80)
    return wrap(lines, width)


def _counted(value: float, measure: str) -> str:
    """3 kills, 1 kill, 1 casualty, 4 m of deviation."""
    word, _, unit = measure.partition(" (")
    if unit:  # a distance: "distance (metres)"
        return f"{value:g} {unit.rstrip(')')} of {word}"
    if value == 1:
        word = word[:-3] + "y" if word.endswith("ies") else word.removesuffix("s")
    return f"{value:g} {word}"


def _luck_chart(chart: list[dict], width: int) -> list[str]:
    """Each side's running luck after each part of the game, as bars either side of even."""
    if not chart:
        return []
    names = sorted({k for row in chart for k in row["luck"]})
    top = max((abs(v) for row in chart for v in row["luck"].values()), default=0) or 1
    label = max(len(row["period"]) for row in chart)
    name_w = max(len(n) for n in names)
    half = max(4, (width - label - name_w - 12) // 2)
    lines = [f"running luck (each side; | is even, a full bar {top:.2f}):"]
    for row in chart:
        for i, name in enumerate(names):
            v = row["luck"].get(name, 0.0)
            n = round(abs(v) / top * half)
            bar = (
                (" " * (half - n) + "#" * n + "|" + " " * half)
                if v < 0
                else (" " * half + "|" + "#" * n + " " * (half - n))
            )
            period = row["period"] if i == 0 else ""
            lines.append(f"{period:<{label}} {name:<{name_w}} {v:+.2f} {bar}".rstrip())
    return lines


def render_compare(found: dict, width: int = 0, quiet: bool = False, at_least: bool = False) -> str:
    """`hc compare`: the best shot first, then every shot as a row of the numbers that decide,
    the shots out of reach and the units that may not fire now, and the readings and house
    rules in force."""
    from hc_cli.core.words import printable

    columns = found["columns"]
    cells = found["cells"]
    bands = {c.get("band") for c in cells}
    band = next(iter(bands)) if len(bands) == 1 else None  # one band for all: said once

    def number(value: Any, key: str) -> str:
        if value is None:
            return "-"
        if not key.startswith("p_"):
            return f"{value:.2f}"
        if 0 < value < 0.005 or 0.995 <= value < 1:  # never a certainty it is not
            return "<1%" if value < 0.5 else ">99%"
        return f"{value:.0%}"

    def shot(cell: dict) -> str:
        at = f" ({cell['range']:g})" if isinstance(cell.get("range"), (int, float)) else ""
        if cell.get("band") and not band:
            at = f" ({cell['band']} {cell['range']:g})"
        return f"{printable(cell['unit'])} at {printable(cell['target'])}{at}"

    best = cells[0]
    said = ", ".join(f"{c['heading']} {number(best[c['key']], c['key'])}" for c in columns[:2])
    if not best[columns[0]["key"]]:
        lines = [f"best: none: {columns[0]['heading']} is 0% for every shot"]
    else:
        lines = [f"best: {shot(best)}: {said}"]
    if quiet:
        return wrap(lines, width)
    if band:
        lines.append(f"each at the farthest of {band}, its weapon's")
    shots = [shot(c) for c in cells]
    first = max(len(s) for s in [*shots, "shot"])
    heads = [c["heading"] for c in columns]
    sizes = [max(len(h), 5) for h in heads]
    header = "  ".join(f"{h:>{n}}" for h, n in zip(heads, sizes, strict=True))
    apart = 2 + first + 2 + len(header) > (width or 80)  # too wide: the numbers under the shot
    lines += ["  shot", f"      {header}"] if apart else [f"  {'shot':<{first}}  {header}"]
    for text, cell in zip(shots, cells, strict=True):
        row = "  ".join(f"{number(cell[c['key']], c['key']):>{n}}"
                        for c, n in zip(columns, sizes, strict=True))  # fmt: skip
        lines += [f"  {text}", f"      {row}"] if apart else [f"  {text:<{first}}  {row}"]
        table = cell.get("at_least") or {}
        if at_least and table.get("p"):
            lines.append(f"      at least, {table['of']}: " + ", ".join(
                f"{k} {number(p, 'p_')}" for k, p in table["p"].items()))  # fmt: skip
    for none in found.get("no_shot", []):
        lines.append(f"  {shot(none)}: no shot: {printable(none['why'])}")
    idle: dict[str, list[str]] = {}
    for unit in found["may_not_fire"]:
        idle.setdefault(unit.get("short") or unit["why"], []).append(printable(unit["unit"]))
    for why, names in idle.items():
        lines.append(f"{', '.join(names)} may not fire now: {printable(why)}")
    for given in found.get("unused_ranges", []):
        lines.append(f"--range {given}: no shot compared is at it")
    lines += [f"reading: {r}" for r in found["readings"]]
    if found["house_rules"]:
        lines.append("house rules: " + ", ".join(found["house_rules"]))
    if found.get("sample_values"):
        lines.append("sample values, not the book's: " + "; ".join(found["sample_values"]))
    if found.get("game"):
        lines.append("each cell is the exact --odds of that shot from the game as it stands; "
                     "nothing is logged")  # fmt: skip
    else:
        lines.append("each cell is the exact --odds of that pair")
    return wrap(lines, width)


def render_sweep(found: dict, width: int = 0, csv: bool = False, quiet: bool = False) -> str:
    """`hc sweep`: a row a value (the mean, and the chance of at least 1, 2, ...; or of each
    outcome), then a chart of the mean against the value. `csv`: the table as CSV."""
    rows = [r for r in found["rows"] if "no_shot" not in r]
    missed = [r for r in found["rows"] if "no_shot" in r]
    over, measure = found["over"].replace("_", "-"), found["measure"]
    if measure:
        ks = sorted({k for r in rows for k in r.get("at_least", {})})
        heads = [over, f"mean {measure}", *(f">={k}" for k in ks)]

        def cells_of(r: dict) -> list:
            if "mean" not in r:  # a point whose odds give no count of it: its outcomes only
                return [r["value"], "-", *("-" for _ in ks)]
            return [r["value"], f"{r['mean']:.3f}",
                    *(f"{r['at_least'].get(k, 0.0):.1%}" for k in ks)]  # fmt: skip
    else:
        words = list(rows[0]["outcomes"]) if rows else []
        heads = [over, *words]

        def cells_of(r: dict) -> list:
            return [r["value"], *(f"{r['outcomes'].get(w, 0.0):.1%}" for w in words)]

    blank = [""] * (len(heads) - 2)  # a point with no shot: said in its row
    table = [cells_of(r) if "no_shot" not in r else [r["value"], "no shot", *blank]
             for r in found["rows"]]  # fmt: skip
    if csv:
        import csv as csv_module
        import io

        out = io.StringIO()
        writer = csv_module.writer(out, lineterminator="\n")
        writer.writerow(heads)
        writer.writerows(table)
        return out.getvalue().rstrip("\n")
    cells = [[str(c) for c in row] for row in table]
    sizes = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(heads)]
    lines = [f"hc {found['command']} ({found['ruleset']}), each {over} its exact odds:"]
    lines.append("  ".join(f"{h:>{n}}" for h, n in zip(heads, sizes, strict=True)))
    lines += ["  ".join(f"{c:>{n}}" for c, n in zip(r, sizes, strict=True)).rstrip()
              for r in cells]  # fmt: skip
    rows = [r for r in rows if "mean" in r or not measure]
    if measure and not quiet and rows:
        top = max(r["mean"] for r in rows) or 1.0
        room = max(10, (width or 80) - sizes[0] - 12)
        lines.append(f"mean {measure} (a full bar {top:.2f}):")
        lines += [f"{str(r['value']):>{sizes[0]}} {r['mean']:6.2f} "
                  + "#" * round(r["mean"] / top * room) for r in rows]  # fmt: skip
    if missed:
        others = ", ".join(str(r["value"]) for r in missed[1:])
        said = f"no shot at {over} {missed[0]['value']}: {missed[0]['no_shot']}"
        lines.append(wrap([said + (f" (nor at {others})" if others else "")], width))
    if found.get("sample_values") and not quiet:
        said = "sample values, not the book's: " + "; ".join(found["sample_values"])
        lines.append(wrap([said], width))
    return "\n".join(lines)


def render_game_rules(view: dict, width: int = 0) -> str:
    """`hc game rules`: the sequence step by step (who acts, what they do, the commands it
    takes), the rules kept between actions, the readings the game plays by."""
    where = f"the game {view['game']}" if view.get("game") else "a game"
    lines = [f"{where} of {view['ruleset']}: {view['period']}, in the rules' order"]
    for step in view["sequence"]:
        commands = ", ".join(f"hc {c}" for c in step["commands"]) or "nothing for hc to resolve"
        source = f" ({step['source']})" if step["source"] else ""
        lines.append(f"  {step['step']}. {step['who']} {step['does']}{source}")
        lines.append(f"       {commands}")
    if view["between"]:
        lines.append("kept between actions:")
        lines += [f"  {rule}" for rule in view["between"]]
    if view["readings"]:
        lines.append("readings the game plays by (a house-rules file switches one):")
        for reading in view["readings"]:
            others = [a for a in reading["alternatives"] if a != reading["choice"]]
            lines.append(f"  {reading['name']} = {reading['choice']}: {reading['means']}")
            if others:
                lines.append(f"    or: {', '.join(others)}")
    return wrap(lines, width)

"""The reports drawn as tables (rich `Table`, no lines, two spaces between columns): `hc
tables`, `hc status`, `hc compare` and `hc sweep`."""

from __future__ import annotations

from typing import Any

from rich.table import Column
from rich.text import Text

from hc_cli.core.words import count, printable
from hc_cli.render import sections as s
from hc_cli.render.draw import show, table, table_lines
from hc_cli.render.reports import given_up_lines

FOLD_ROOM = 16  # a last column narrower than this is wrapped as a line is, not in its column


def render_listing(listing: Any, width: int = 0, book: str = "", colour: bool = False) -> str:
    """Each table as columns when it fits `width` (0: always), else one entry a block: its
    name, then a line for each field, wrapped between words."""
    lines = [Text(f"tables of {listing.ruleset}", "bold")]
    if listing.merged.skipped:
        lines.append(Text.assemble(
            ("skipped (for another rule set): ", "yellow"), "; ".join(listing.merged.skipped)
        ))  # fmt: skip
    for found in listing.tables:
        lines += [Text(""), Text(found.name, "bold underline")]
        source = found.columns.index("source") if "source" in found.columns else None
        rows = [
            [s.source_words(v, book) if i == source else v for i, v in enumerate(row)]
            for row in found.rows
        ]
        flat = [[v.replace("\n", " | ") for v in row] for row in rows]
        widths = [max([len(c)] + [len(r[i]) for r in flat]) for i, c in enumerate(found.columns)]
        if width and 2 + sum(widths) + 2 * (len(widths) - 1) > width:
            lines += _blocks(found.columns, rows, source)
            continue
        drawn = table(*(Column(Text(c, "dim")) for c in found.columns))
        for row in flat:
            drawn.add_row(*(
                Text(v, "italic" if i == source and v.startswith("sample") else "")
                for i, v in enumerate(row)
            ))  # fmt: skip
        lines += table_lines(drawn, lead="  ")
    return show(lines, width, colour)


def _blocks(columns: list[str], rows: list[list[str]], source: int | None) -> list[Text]:
    lines = []
    for row in rows:
        lines.append(Text.assemble("  ", (row[0], "bold")))
        for i, (column, value) in enumerate(zip(columns[1:], row[1:], strict=True), 1):
            if "\n" in value:  # a mapping: each of its entries on a line of its own
                lines.append(Text.assemble("    ", (column + ":", "dim")))
                lines += [Text(f"      {part}") for part in value.split("\n")]
            elif value:
                style = "italic" if i == source and value.startswith("sample") else ""
                lines.append(Text.assemble("    ", (column + ":", "dim"), " ", (value, style)))
    return lines


def _cell(value: Any) -> str:
    if value is None or value is False:
        return "-"
    if value is True:
        return "yes"
    if isinstance(value, list):
        return printable(", ".join(str(v) for v in value)) or "-"
    return printable(str(value))


def render_status(found: dict, width: int = 0, colour: bool = False, quiet: bool = False) -> str:
    """`hc status`: where the game is first, then each side's units, then what is due (`quiet`:
    only those); what the game file holds printed escaped. The units are one table whose
    columns line up across the sides; a last column too long for `width` is continued in its
    column while that leaves room to read."""
    lines = [Text(printable(found["clock"]) or "the game has begun", "bold")]
    due = [Text.assemble("  ", (printable(d), "yellow")) for d in found["due"]]
    if quiet:
        return show(lines + due, width, colour)
    cells = {
        printable(side): [[_cell(r.get(k)) for k in found["keys"]] for r in rows]
        for side, rows in found["sides"].items()
    }
    every = [row for rows in cells.values() for row in rows]  # one width a column, every side
    widths = [max([len(c)] + [len(r[i]) for r in every]) for i, c in enumerate(found["columns"])]
    start = 2 + sum(w + 2 for w in widths[:-1])  # where the last column begins
    fold = width if width - start >= FOLD_ROOM else 0

    def side_table(rows: list[list[str]], header: bool = False) -> list[Text]:
        fixed = [
            Column(c, width=w, no_wrap=True) for c, w in zip(found["columns"], widths, strict=True)
        ]
        drawn = table(*fixed[:-1], Column(found["columns"][-1], overflow="fold"), header=header)
        for row in rows:
            drawn.add_row(*map(Text, row))
        return table_lines(drawn, fold, lead="  ")

    lines.append(Text(side_table([], header=True)[0].plain, "dim"))
    for side, rows in cells.items():
        lines.append(Text(side, "bold cyan"))
        lines += side_table(rows)
    if due:
        lines += [Text("now:", "bold"), *due]
    lines += [Text(printable(line)) for line in given_up_lines(found.get("given_up") or {})]
    title = f"{printable(found['title'])}, " if found.get("title") else ""
    lines.append(Text(
        f"{printable(found['game'])}: {title}{found['ruleset']}, "
        f"{count(found['entries'], 'entry')}, head {found['head']}", "dim"
    ))  # fmt: skip
    return show(lines, width, colour)


def _number(value: Any, key: str) -> str:
    """A cell of `hc compare`: a chance as a whole percentage, never a certainty it is not."""
    if value is None:
        return "-"
    if not key.startswith("p_"):
        return f"{value:.2f}"
    if 0 < value < 0.005 or 0.995 <= value < 1:
        return "<1%" if value < 0.5 else ">99%"
    return f"{value:.0%}"


def render_compare(found: dict, width: int = 0, quiet: bool = False, at_least: bool = False) -> str:
    """`hc compare`: the best shot first, then every shot as a row of the numbers that decide,
    the shots out of reach and the units that may not fire now, and the readings and house
    rules in force."""
    columns, cells = found["columns"], found["cells"]
    bands = {c.get("band") for c in cells}
    band = next(iter(bands)) if len(bands) == 1 else None  # one band for all: said once

    def shot(cell: dict) -> str:
        at = f" ({cell['range']:g})" if isinstance(cell.get("range"), (int, float)) else ""
        if cell.get("band") and not band:
            at = f" ({cell['band']} {cell['range']:g})"
        if cell.get("shot"):  # a kind of shot (Twilight: 2000)
            at = f"{at[:-1]}, {cell['shot']})" if at else f" ({cell['shot']})"
        return f"{printable(cell['unit'])} at {printable(cell['target'])}{at}"

    best = cells[0] if cells else {}
    if not cells:  # every shot that may be taken needs what the player gives
        lines = ["best: none compared: every shot needs --under (hc compare --help)"]
    elif not best[columns[0]["key"]]:
        lines = [f"best: none: {columns[0]['heading']} is 0% for every shot"]
    else:
        said = ", ".join(f"{c['heading']} {_number(best[c['key']], c['key'])}" for c in columns[:2])
        lines = [f"best: {shot(best)}: {said}"]
    if quiet:
        return show([Text(line) for line in lines], width)
    if band:
        lines.append(f"each at the farthest of {band}, its weapon's")
    kinds = [c.get("shot") or "" for c in cells] if any(c.get("shot") for c in cells) else []
    ranges = {c.get("range") for c in cells}  # kinds of shot, a column of their own: 80 wide
    (reach,) = ranges if len(ranges) == 1 and not band and kinds else (None,)
    if isinstance(reach, (int, float)):  # one range for all: said once, the rows the shorter
        lines.append(f"each at range {reach:g}")

    def row(cell: dict) -> str:  # the shot's row: its range unless said once, its kind apart
        said = shot({**cell, "shot": None}) if kinds else shot(cell)
        return said.rpartition(" (")[0] if isinstance(reach, (int, float)) else said

    rows = ([row(c) for c in cells], [shot(c) for c in cells])  # side by side, or apart
    lines += _compare_rows(found, rows, width, at_least, kinds) if cells else []
    for none in found.get("no_shot", []):
        lines.append(f"  {shot(none)}: no shot: {printable(none['why'])}")
    for needs in found.get("needs", []):
        lines.append(f"  {printable(needs['unit'])} at {printable(needs['target'])}: needs "
                     f"{needs['needs']} N: {printable(needs['why'])}")  # fmt: skip
    idle: dict[str, list[str]] = {}
    for unit in found["may_not_fire"]:
        idle.setdefault(unit.get("short") or unit["why"], []).append(printable(unit["unit"]))
    for why, names in idle.items():
        lines.append(f"{', '.join(names)} may not fire now: {printable(why)}")
    for given in found.get("unused_ranges", []):
        lines.append(f"--range {given}: no shot compared is at it")
    for given in found.get("unused_unders", []):
        lines.append(f"--under {given}: no template or area shot compared is at it")
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
    return show([Text(line) for line in lines], width)


def _compare_rows(
    found: dict, rows: tuple[list[str], list[str]], width: int, at_least: bool, kinds: list[str]
) -> list[str]:
    """The table: a row a shot (its kind, where the rule set has kinds, a column of its own),
    a column a number; where the numbers and the shot do not fit `width` side by side (80
    when 0), each shot on its line with its numbers under it."""
    columns, cells = found["columns"], found["cells"]
    numbers = [Column(c["heading"], justify="right", min_width=5) for c in columns]
    header = 2 * len(columns) - 2 + sum(max(len(c["heading"]), 5) for c in columns)
    header += max(len(k) for k in [*kinds, "kind"]) + 2 if kinds else 0
    apart = 2 + max(len(s) for s in [*rows[0], "shot"]) + 2 + header > (width or 80)
    shots = rows[1] if apart else rows[0]  # apart, each shot's line says all of it
    named = ["shot", "kind"] if kinds and not apart else ["shot"]
    drawn = table(*numbers) if apart else table(*named, *numbers)
    for number, (text, cell) in enumerate(zip(shots, cells, strict=True)):
        numbers_of = [_number(cell[c["key"]], c["key"]) for c in columns]
        label = [text, kinds[number]] if kinds and not apart else [text]
        drawn.add_row(*numbers_of) if apart else drawn.add_row(*label, *numbers_of)
    drawn_lines = [line.plain for line in table_lines(drawn, lead="      " if apart else "  ")]
    lines = ["  shot", drawn_lines[0]] if apart else drawn_lines[:1]
    for text, cell, row in zip(shots, cells, drawn_lines[1:], strict=True):
        lines += [f"  {text}", row] if apart else [row]
        table_of = cell.get("at_least") or {}
        if at_least and table_of.get("p"):
            lines.append(f"      at least, {table_of['of']}: " + ", ".join(
                f"{k} {_number(p, 'p_')}" for k, p in table_of["p"].items()))  # fmt: skip
    return lines


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as a formula


def inert(cell: object) -> object:
    """A CSV cell no spreadsheet runs: text that would start a formula (a house rule's weapon
    named `=HYPERLINK(...)`) is led by an apostrophe, as OWASP advises; a number stays one."""
    if not isinstance(cell, str) or not cell.startswith(FORMULA_STARTS):
        return cell
    try:
        float(cell)
    except ValueError:
        return "'" + cell
    return cell


def render_sweep(
    found: dict, width: int = 0, csv: bool = False, quiet: bool = False, colour: bool = False
) -> str:
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
        # Every point's outcomes, in the order they first come: a rule swept may make an
        # outcome that the first point never gives (an extra action from some value on).
        words = list(dict.fromkeys(w for r in rows for w in r["outcomes"]))
        heads = [over, *words]

        def cells_of(r: dict) -> list:
            return [r["value"], *(f"{r['outcomes'].get(w, 0.0):.1%}" for w in words)]

    blank = [""] * (len(heads) - 2)  # a point with no shot: said in its row
    cells = [cells_of(r) if "no_shot" not in r else [r["value"], "no shot", *blank]
             for r in found["rows"]]  # fmt: skip
    if csv:
        import csv as csv_module
        import io

        out = io.StringIO()
        safe = [[inert(cell) for cell in row] for row in [heads, *cells]]
        csv_module.writer(out, lineterminator="\n").writerows(safe)
        return out.getvalue().rstrip("\n")
    drawn = table(*(Column(h, justify="right") for h in heads))
    for row in cells:
        drawn.add_row(*(str(c) for c in row))
    lines = [Text(f"hc {found['command']} ({found['ruleset']}), each {over} its exact odds:")]
    lines += table_lines(drawn)
    rows = [r for r in rows if "mean" in r or not measure]
    if measure and not quiet and rows:
        first = max(len(h) for h in [over, *(str(r["value"]) for r in found["rows"])])
        top = max(r["mean"] for r in rows) or 1.0
        room = max(10, (width or 80) - first - 12)
        lines.append(Text(f"mean {measure} (a full bar {top:.2f}):"))
        for r in rows:
            bar = "#" * round(r["mean"] / top * room)
            lines.append(
                Text.assemble(f"{str(r['value']):>{first}} {r['mean']:6.2f} ", (bar, "cyan"))
            )
    tail = []  # said in words, wrapped; the table and the chart never are
    if missed:
        others = ", ".join(str(r["value"]) for r in missed[1:])
        said = f"no shot at {over} {missed[0]['value']}: {missed[0]['no_shot']}"
        tail.append(Text(said + (f" (nor at {others})" if others else "")))
    if found.get("sample_values") and not quiet:
        tail.append(Text("sample values, not the book's: " + "; ".join(found["sample_values"])))
    return "\n".join([show(lines, 0, colour), *(show([line], width) for line in tail)])

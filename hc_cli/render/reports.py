"""The reports told in lines: `hc history`, `hc luck` and `hc game rules`."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from rich.text import Text

from hc_cli.core.words import count, printable
from hc_cli.render.draw import show
from hc_cli.render.wrap import wrap


def render_history(entries: list[dict], width: int = 0) -> str:
    """`hc history`: each entry under the move (or turn) it was taken in, what it changed
    below it; an entry taken back by an undo is marked so."""
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


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def _group(name: str, g: dict) -> str:
    how = "" if g.get("method") in ("exact", "none") else f", by the {g['method']}"
    return (
        f"{printable(name)}: luck {_signed(g['luck'])} over {count(g['actions'], 'action')}: "
        f"{g['verdict']}{how}"
    )


def render_luck(report: dict, width: int = 0, quiet: bool = False, colour: bool = False) -> str:
    """`hc luck`: each side's luck and its verdict first; then the counts against their
    expectation, each unit and kind of action, every action rated, the hand-entered dice and
    a chart of each side's running luck over the game."""
    lines = []
    sides = report["sides"]
    if report.get("unit"):
        lines.append(_group(report["unit"], report["all"]))
    elif sides:
        lines += [_group(side, g) for side, g in sides.items()]
    else:
        lines.append(_group("all", report["all"]))
    rated, skipped = report["all"]["actions"], len(report["not_rated"])
    lines.append(
        f"{report['kind']} {printable(report['file'])} ({report['ruleset']}): "
        f"{count(rated, 'action')} rated" + (f", {skipped} not rated" if skipped else "")
        + (" (a roll-off counts for each side, and once in all)" if any(
            a["view"] == "roll-off" for a in report["actions"]) else "")
    )  # fmt: skip
    lines += given_up_lines(report.get("given_up") or {})
    if quiet:
        return wrap(lines, width)
    for side, g in (sides or {"all": report["all"]}).items():
        for kind, c in g["counts"].items():
            lines.append(
                f"  {printable(side)}, {kind}: {c['actual']:g}, {c['expected']:g} expected"
            )
    if report["units"]:
        lines.append("by unit: " + ", ".join(
            f"{printable(u)} {_signed(g['luck'])} ({g['actions']})"
            for u, g in report["units"].items()
        ))  # fmt: skip
    if report["kinds_by_side"]:  # each side's own: a roll-off counts for both
        lines.append("by kind: " + "; ".join(
            f"{side}: " + ", ".join(f"{k} {_signed(g['luck'])} ({g['actions']})"
                                    for k, g in kinds.items())
            for side, kinds in report["kinds_by_side"].items()
        ))  # fmt: skip
    elif report["kinds"]:  # a log: no sides
        lines.append("by kind: " + ", ".join(
            f"{k} {_signed(g['luck'])} ({g['actions']})" for k, g in report["kinds"].items()
        ))  # fmt: skip
    lines.append("each result, in its own odds:")
    lines += _rated(report) + _set_aside(report)
    said = chain((Text(line) for line in lines), _luck_chart(report["chart"], width or 80))
    return show(said, width, colour)  # each line drawn as it comes: a long game's are many


def _rated(report: dict) -> list[str]:
    """Every action rated, in its own odds; then those that could not be."""
    lines = []
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
        if a.get("override"):
            again += f" (override, --anyway: {printable(a['override'])})"
        lines.append(
            f"  {a['entry']:>3}. {(who + ' ') if who else ''}{a['command']}{as_target}: "
            f"{value}{expected}; no better "
            f"{a['p_no_better']:.0%}, no worse {a['p_no_worse']:.0%}: luck "
            f"{_signed(a['luck'])}{again}"
        )
    for n in report["not_rated"]:
        who = printable(str(n.get("unit") or ""))
        lines.append(f"  {n['entry']:>3}. {(who + ' ') if who else ''}{n['command']}: "
                     f"{printable(n['why'])}")  # fmt: skip
    return lines


def given_up_lines(counts: dict[str, dict[str, int]]) -> list[str]:
    """The sealed rolls abandoned and forfeit (`hc_cli.games.seal_protocol.given_up`), a line
    a side, when any was; else none."""
    if not any(n for c in counts.values() for n in c.values()):
        return []
    return [f"{printable(side)}: sealed rolls abandoned {c['abandoned']}, forfeit {c['forfeit']}"
            for side, c in counts.items()]  # fmt: skip


def _set_aside(report: dict) -> list[str]:
    """The forfeits, the re-rolls by agreement and the dice entered by hand."""
    lines = []
    for f in report.get("forfeits", []):
        who = printable(str(f.get("unit") or ""))
        lines.append(f"sealed roll {f['entry']} ({(who + ' ') if who else ''}{f['command']}) "
                     "not revealed by its roller: a forfeit, not rated")  # fmt: skip
    for r in report["rerolls"]:
        lines.append(f"entry {r['entry']} re-rolled by agreement: entry {r['sets_aside']}'s dice "
                     "set aside")  # fmt: skip
    for a in report.get("agreed", []):
        changed = printable("; ".join(a["changed"]))
        lines.append(f"entry {a['entry']} taken in place of entry {a['in_place_of']} by "
                     f"agreement ({changed}): its dice set aside")  # fmt: skip
    for o in report.get("overrides", []):
        lines.append(f"entry {o['entry']} taken with an override, --anyway: "
                     f"{printable('; '.join(o['overrides']))}")  # fmt: skip
    for side, n in report.get("set_aside_by_side", {}).items():
        lines.append(f"{printable(side)}: {count(n['rerolls'], 're-roll')} and "
                     f"{count(n['agreed'], 're-take')} agreed, "
                     f"{count(n['overrides'], 'override')}")  # fmt: skip
    for d in report["hand_entered_dice"]:
        counts = d["counts"]
        shown = " ".join(str(c) for c in counts) if len(counts) <= 20 else f"{d['rolls']} rolls"
        grouped = f", {d['grouped']}" if d.get("grouped") else ""
        lines.append(
            f"dice entered by hand, {d['die']}, faces 1 to {len(counts)}: {shown}; "
            f"{d['method']}{grouped}: p = {d['p']:.3f}"
            + (" (fair dice give a count this far from even that often)" if d["rolls"] else "")
        )
    return lines


def _counted(value: float, measure: str) -> str:
    """3 kills, 1 kill, 1 casualty, 4 m of deviation."""
    word, _, unit = measure.partition(" (")
    if unit:  # a distance: "distance (metres)"
        return f"{value:g} {unit.rstrip(')')} of {word}"
    if value == 1:
        word = word[:-3] + "y" if word.endswith("ies") else word.removesuffix("s")
    return f"{value:g} {word}"


def _luck_chart(chart: list[dict], width: int) -> Iterator[Text]:
    """Each side's running luck after each part of the game, as bars either side of even (in
    one colour, good luck or bad: luck is no one's merit)."""
    if not chart:
        return
    names = sorted({k for row in chart for k in row["luck"]})
    top = max((abs(v) for row in chart for v in row["luck"].values()), default=0) or 1
    label = max(len(row["period"]) for row in chart)
    name_w = max(len(n) for n in names)
    half = max(4, (width - label - name_w - 12) // 2)
    yield Text(f"running luck (each side; | is even, a full bar {top:.2f}):")
    for row in chart:
        for i, name in enumerate(names):
            v = row["luck"].get(name, 0.0)
            n = round(abs(v) / top * half)
            period = row["period"] if i == 0 else ""
            line = Text(f"{period:<{label}} {name:<{name_w}} {v:+.2f} ")
            if v < 0:
                line.append_tokens([(" " * (half - n), ""), ("#" * n, "cyan"), ("|", "dim")])
            else:
                line.append_tokens([(" " * half, ""), ("|", "dim"), ("#" * n, "cyan")])
            line.rstrip()
            yield line


def render_game_rules(view: dict, width: int = 0) -> str:
    """`hc game rules`: the sequence step by step (who acts, what they do, the commands it
    takes), the rules kept between actions, the readings the game plays by, then those its
    actions read."""
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
    for key, title in (
        ("readings", "readings the game plays by (a house-rules file switches one):"),
        ("action_readings", "readings of its actions (the tables in force when each is taken):"),
    ):
        if view.get(key):
            lines.append(title)
        for reading in view.get(key) or ():
            others = [a for a in reading["alternatives"] if a != reading["choice"]]
            lines.append(f"  {reading['name']} = {reading['choice']}: {reading['means']}")
            if others:
                lines.append(f"    or: {', '.join(others)}")
    return wrap(lines, width)

"""Plain text: for pipes, `--no-color` and `NO_COLOR`. No escape codes, no rich import."""

from __future__ import annotations

from hc_cli.model import Resolution
from hc_cli.render import sections as s


def render(res: Resolution) -> str:
    lines = [s.title(res)]
    inputs = s.input_items(res)
    if inputs:
        lines.append("inputs: " + "; ".join(f"{k} {v}" for k, v in inputs))
    if res.modifiers:
        lines.append("modifiers:")
        rows = [s.modifier_row(m) for m in res.modifiers]
        width = max(len(r[0]) for r in rows)
        lines += [
            f"  {name:<{width}}  {value:>4}  {target:<10}  {source}"
            for name, value, target, source in rows
        ]
    lines += _body(res, indent="")
    for shot in res.shots:
        label, roll, outcome = s.shot_line(shot)
        lines.append(f"  {label}: {roll}: {outcome}" if outcome else f"  {label}: {roll}")
        lines += _odds(shot, indent="    ")
        lines += [f"    {e}" for e in shot.explanation] if not shot.odds else []
    if res.summary:
        lines.append("summary: " + s.summary_text(res.summary))
    lines += _odds(res, indent="  ")
    if res.outcome:
        lines.append(f"outcome: {res.outcome}")
    if res.sample_values:
        lines.append("sample values (not the book's): " + "; ".join(res.sample_values))
    return "\n".join(lines)


def _body(res: Resolution, indent: str) -> list[str]:
    lines = []
    if res.rolls:
        lines.append(indent + "rolls: " + "; ".join(s.roll_text(r) for r in res.rolls))
    fields = s.field_items(res)
    if fields:
        lines.append(indent + "; ".join(f"{k} {v}" for k, v in fields))
    order = s.order_lines(res)
    if order:
        lines.append(indent + "order:")
        lines += [f"{indent}  {line}" for line in order]
    sequence = s.sequence_lines(res)
    if sequence:
        lines.append(indent + "the move:")
        lines += [f"{indent}  {step}" for step in sequence]
    lines += [indent + e for e in res.explanation]
    return lines


def _odds(res: Resolution, indent: str) -> list[str]:
    if res.odds is None:
        return []
    lines = [f"{indent[:-2]}odds:"]
    width = max((len(k) for k in res.odds.outcomes), default=0)
    for outcome, p in res.odds.outcomes.items():
        lines.append(f"{indent}{outcome:<{width}}  {s.percent(p)}  ({p.numerator}/{p.denominator})")
    for name, dist in res.odds.distributions.items():
        lines.append(f"{indent[:-2]}{name}:")
        lines += [f"{indent}{k:>3}  {s.percent(p)}" for k, p in dist.items()]
    return lines


def render_listing(listing) -> str:
    lines = [f"tables of {listing.ruleset}"]
    for table in listing.tables:
        lines.append("")
        lines.append(f"{table.name}:")
        widths = [
            max(len(c), *(len(r[i]) for r in table.rows)) if table.rows else len(c)
            for i, c in enumerate(table.columns)
        ]
        lines.append(
            "  "
            + "  ".join(c.ljust(w) for c, w in zip(table.columns, widths, strict=True)).rstrip()
        )
        for row in table.rows:
            lines.append(
                "  " + "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip()
            )
    return "\n".join(lines)

"""What both text renderers show, in order, as plain strings: the breakdown's content.

Keeping the wording here means the colour and the plain output can only differ in styling.
"""

from __future__ import annotations

from hc_cli.core.dice import Roll
from hc_cli.core.model import Modifier, Resolution
from hc_cli.core.words import count
from hc_cli.plugin.declare import with_unit

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:  # fractions are imported where odds are shown, not for a plain roll
    from fractions import Fraction
    from typing import Any

FIELD_LABELS = {
    "base_chance": "basic chance",
    "chance": "chance to hit",
    "penetration": "penetration",
    "defence": "defence factor",
    "band": "range band",
    "total": "total",
    "needed": "needed",
    "attacker_total": "attacker total",
    "defender_total": "defender total",
    "player_a": "Player A",
    "player_b": "Player B",
    "tie_each_roll": "chance of a tie each roll-off",
    "odds_per": "odds per",
}
HIDDEN_FIELDS = {
    *("order", "orders", "sequence", "template", "phases", "game", "struck", "model", "lost"),
}


def title(res: Resolution) -> str:
    seed = (
        f" · seed {res.seed}"
        if res.seed is not None
        else (" · your dice" if res.inputs.get("dice") else "")
    )
    return f"hc {res.command} · {res.ruleset}{seed}"


def input_items(res: Resolution) -> list[tuple[str, str]]:
    return [
        (k.replace("_", "-"), "yes" if v is True else _value(v, res.units, k))
        for k, v in res.inputs.items()
        if v is not None and v is not False and v != [] and v != ""  # 0 is a value
    ]


def modifier_row(m: Modifier, book: str = "") -> tuple[str, str, str, str]:
    who = f"{m.side}: " if m.side else ""
    return (f"{who}{m.name}", f"{m.value:+d}", m.applies_to, source_words(m.source, book))


def _three_digits(text: str, at: int) -> bool:
    digits = text[at : at + 3]
    return (
        len(digits) == 3
        and digits.isdigit()
        and digits.isascii()
        and not (text[at + 3 : at + 4].isalnum())
    )


def source_words(source: str, book: str) -> str:
    """A source tag in words a player reads at once: "seed 003" (or "seed 000 or 001") is the
    book of the rule set in force ("Rogue Trader book"), not a random seed. (String work, not a
    regular expression: `re` costs a command more start-up than this module.)"""
    out: list[str] = []
    at = 0
    while True:
        start = source.find("seed", at)
        if start < 0:
            return "".join(out) + source[at:]
        end = start + 4 + (source[start + 4 : start + 5] == "s")
        if (
            (start and source[start - 1].isalnum())
            or source[end : end + 1] != " "
            or not (_three_digits(source, end + 1))
        ):
            out.append(source[at : start + 4])
            at = start + 4
            continue
        end += 4
        while True:  # " or 001", " and 002" ...
            for joint in (" or ", " and "):
                if source.startswith(joint, end) and _three_digits(source, end + len(joint)):
                    end += len(joint) + 3
                    break
            else:
                break
        out.append(source[at:start] + (book or "the book"))
        at = end


def house_footer(res: Resolution) -> str:
    """The house-rules files in force, by name, and the figures of theirs that decided this."""
    names = ", ".join(res.house_rules)
    decided = "; ".join(res.house_values)
    return f"house rules in force: {names}" + (f"; deciding here: {decided}" if decided else "")


def sample_footer(res: Resolution, width: int) -> str:
    """One short line: which numbers are samples, not the book's."""
    full = "sample numbers (not the book's): " + "; ".join(res.sample_values)
    if not width or len(full) <= width:
        return full
    return f"{count(len(res.sample_values), 'sample number')}, not the book's (--json lists them)"


def _unnumbered(purpose: str) -> str:
    """A purpose without the number of its die among its kind: "to hit #3" -> "to hit"."""
    head, mark, number = purpose.rpartition(" #")
    return head if mark and number.isdigit() and number.isascii() else purpose


def roll_groups(rolls: list[Roll]) -> list[str]:
    """The rolls as the table rolled them: dice of one kind and purpose rolled together in
    one group, "d20 to hit: 7 4 14 2", "d6 hit damage: 4 1"; a die on its own as `roll_text`
    says it."""
    groups: list[tuple[str, str, list[Roll]]] = []
    for roll in rolls:
        purpose = _unnumbered(roll.purpose)
        if groups and groups[-1][:2] == (roll.die, purpose):
            groups[-1][2].append(roll)
        else:
            groups.append((roll.die, purpose, [roll]))
    return [
        roll_text(dice[0])
        if len(dice) == 1
        else f"{die} {purpose}: " + " ".join(str(r.value) for r in dice)
        for die, purpose, dice in groups
    ]


def roll_text(roll: Roll) -> str:
    faces = f" (faces {','.join(map(str, roll.faces))})" if roll.faces else ""
    purpose = "" if roll.purpose == roll.die else f" {roll.purpose}"
    return f"{roll.die}{purpose}: {roll.value}{faces}"


def field_items(res: Resolution, units: dict[str, str] | None = None) -> list[tuple[str, str]]:
    units = res.units if units is None else units
    items = []
    for key, value in res.fields.items():
        if key in HIDDEN_FIELDS or value is None:
            continue
        label = FIELD_LABELS.get(key, key.replace("_", " "))
        if key == "tie_each_roll":
            value = f"{value:.1%}"
        items.append((label, _value(value, units, key)))
    template = res.fields.get("template")
    if template:
        items.append(
            (
                "template",
                f"{template['name']} ({template['shape']}): 15mm "
                f"{template['size_15mm']}; 25mm {template['size_25mm']}",
            )
        )
    return items


def order_lines(res: Resolution) -> list[str]:
    """An Initiative order, one action a line."""
    lines = []
    for i, slot in enumerate(res.fields.get("order", []), 1):
        role = slot.get("role", "Player")
        player = f"{role} {slot['player']}: " if slot.get("player") else ""
        extra = " (extra action)" if slot.get("extra") else ""
        value = f", initiative {slot['initiative']}" if slot.get("initiative") is not None else ""
        lines.append(f"{i}. {player}{slot['name']}{extra}{value}")
    return lines


def sequence_lines(res: Resolution) -> list[str]:
    return [f"{i}. {step}" for i, step in enumerate(res.fields.get("sequence", []), 1)]


def shot_line(shot: Resolution, units: dict[str, str]) -> tuple[str, str, str]:
    """A shot in one line: its dice, or (for odds) the numbers that decide it."""
    if shot.rolls:
        detail = ", ".join(f"{r.die} {r.value}" for r in shot.rolls)
    else:
        detail = "; ".join(f"{k} {v}" for k, v in field_items(shot, units))
    return (shot.label, detail, shot.outcome or "")


def summary_text(summary: dict[str, Any]) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in summary.items())


def percent(p: Fraction | float) -> str:
    """A probability as a percentage in 7 columns; an impossible one is a plain 0."""
    return f"{float(p) * 100:6.2f}%" if p else f"{'0':>7}"


def _value(v: Any, units: dict[str, str] | None = None, key: str = "") -> str:
    """A value as printed; a number whose name carries a unit gets the unit's mark."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)):
        return with_unit(v, (units or {}).get(key))
    if isinstance(v, list):
        return ", ".join(_value(x, units, key) for x in v)
    if isinstance(v, dict):
        return ", ".join(
            f"{k} {_value(x, units, f'{key}.{k}' if f'{key}.{k}' in (units or {}) else key)}"
            for k, x in v.items()
        )
    return str(v)


def headline(res: Resolution) -> str:
    """The result in one line, the first thing the eye finds: what happened, with the number
    that decided it."""
    if res.headline:
        return res.headline
    if res.odds is not None:
        return odds_headline(res)
    f, outcome = res.fields, res.outcome
    summary = res.summary or {}
    if "kills" in summary:
        hits_only = summary["hits_no_kill"]
        return f"{count(summary['kills'], 'kill')} of {count(summary['shots'], 'shot')}" + (
            f"; {count(hits_only, 'hit')} that cannot kill" if hits_only else ""
        )
    if "casualties" in summary:
        wounds = summary.get("wounds_taken", summary["wounds"])  # those that took
        line = (
            f"{count(summary['casualties'], 'casualty')} of "
            f"{count(summary['shots'], 'shot')}; "
            + (count(wounds, "wound") + " caused" if wounds else "no wounds caused")
        )
        if "targets_reached" in summary:
            line += f"; following fire reached {count(summary['targets_reached'], 'target')}"
        return line
    if res.command == "roll" and "total" in f:
        return f"total {f['total']}"
    if f.get("order"):
        first = f["order"][0]
        role = first.get("role", "Player")
        return f"{first['name']} acts first" + (
            f" ({role} A); {f['order'][1]['name']} is {role} B" if first.get("player") else ""
        )
    if outcome == "deviated" and "distance" in f:
        return f"deviates {_value(f['distance'], res.units, 'distance')} toward {f['direction']}"
    if outcome == "on-target":
        return "on target: no deviation"
    if "attacker_total" in f:
        totals = f"attacker {f['attacker_total']}, defender {f['defender_total']}"
        return ("a draw" if outcome == "draw" else f"the {outcome} wins") + f": {totals}"
    if "hits" in f and isinstance(f.get("dice"), int):
        line = f"{count(f['hits'], 'hit')} of {count(f['dice'], 'die')}"
        if f.get("zone_hits"):
            line += "; zone: " + ", ".join(f"{n} {h}" for n, h in f["zone_hits"].items())
        return line
    if outcome and res.rolls:
        first = res.rolls[0]
        need = next(
            (
                f", needs {f[k]}" + (" or less" if k in ("chance", "hit_number") else "")
                for k in ("chance", "needed_to_hit", "hit_number", "needed")
                if f.get(k) is not None
            ),
            "",
        )
        if "total" in f and "needed" in f:
            return f"{outcome}: total {f['total']}, needs {f['needed']}"
        landed = "; ".join(
            e["location"] + (f" {e['damage']} damage" if e["damage"] is not None else "")
            for e in f.get("hit_effects", [])
        )
        said = outcome
        if outcome == "hit" and f.get("penetration") is not None and f.get("defence") is not None:
            said = "hit, cannot kill"  # penetration short of the DF (High Crusade)
        return f"{said}: {first.die} {first.value}{need}" + (f"; {landed}" if landed else "")
    if outcome:
        return outcome
    if res.command == "move" and "move" in f:
        return f"moves {_value(f['move'], res.units, 'move')}"
    return f"hc {res.command}"


SINGULAR = {"casualties": "casualty", "kills": "kill", "hits": "hit", "wounds": "wound"}


def odds_headline(res: Resolution) -> str:
    """The likeliest outcomes; for a volley (its outcomes a shot's), first the chance of at
    least one of what it counts, and the mean."""
    from hc_cli.core.odds import mean

    assert res.odds is not None
    ranked = sorted(((k, p) for k, p in res.odds.outcomes.items() if p), key=lambda kv: -kv[1])
    parts = [f"{k} {percent(p).strip()}" for k, p in ranked[:3]]
    for name, dist in list(res.odds.distributions.items())[:1]:
        if all(isinstance(k, int) for k in dist):
            average = f"mean {name} {float(mean(dist)):.2f}"
            if res.fields.get("odds_per") == "shot" and name in SINGULAR and 0 in dist:
                some = f"at least one {SINGULAR[name]} {percent(1 - dist[0]).strip()}"
                return f"odds: {some}, {average}; a shot: {parts[0]}"
            parts.append(average)
    return "odds: " + ", ".join(parts)

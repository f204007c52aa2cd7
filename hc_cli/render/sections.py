"""What both text renderers show, in order, as plain strings: the breakdown's content.

Keeping the wording here means the colour and the plain output can only differ in styling.
"""

from __future__ import annotations

import re
from typing import Any

from hc_cli.core.dice import Roll
from hc_cli.core.model import Modifier, Resolution
from hc_cli.core.words import count
from hc_cli.log.entry import value_text

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
# Each hit where it landed and its damage (Twilight: 2000), a line of its own (landed_lines).
LANDED = {"hit_effects": "hits", "zone_effects": "zone hits", "other_effects": "the other's hits"}
HIDDEN_FIELDS = {
    *("order", "orders", "sequence", "template", "phases", "game", "struck", "model", "lost"),
    *LANDED,
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
        (k.replace("_", "-"), "yes" if v is True else value_text(v, res.units, k))
        for k, v in res.inputs.items()
        if v is not None and v is not False and v != [] and v != ""  # 0 is a value
    ]


def modifier_row(m: Modifier, book: str = "") -> tuple[str, str, str, str]:
    who = f"{m.side}: " if m.side else ""
    return (f"{who}{m.name}", f"{m.value:+d}", m.applies_to, source_words(m.source, book))


# "seed 003", "seeds 000 and 001": a source tag naming the rule set's book by its seed number.
SEED_TAG = re.compile(r"(?<![^\W_])seeds? [0-9]{3}(?![^\W_])(?:(?: or | and )[0-9]{3}(?![^\W_]))*")


def source_words(source: str, book: str) -> str:
    """A source tag in words a player reads at once: "seed 003" (or "seed 000 or 001") is the
    book of the rule set in force ("Rogue Trader book"), not a random seed."""
    return SEED_TAG.sub(lambda _: book or "the book", source)


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
        items.append((label, value_text(value, units, key)))
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


def landed_lines(res: Resolution) -> list[tuple[str, str]]:
    """The hits as a list, where each landed and its damage: ("hits", "chest 18, arm 7"); a
    danger zone's by whom they struck: ("zone hits", "ivanov abdomen 5; popov chest 12")."""

    def listed(effects: list[dict], hits: Any) -> str:
        said = ", ".join(
            str(e["location"]) + (f" {e['damage']}" if e.get("damage") is not None else "")
            for e in effects
        )
        dead = hits - len(effects) if isinstance(hits, int) else 0  # after a quick kill
        return said + (f", then {count(dead, 'hit')} on the dead, not rolled" if dead > 0 else "")

    lines = []
    zone = res.fields.get("zone_hits") or {}
    for key, label in LANDED.items():
        value = res.fields.get(key)
        if isinstance(value, dict):
            value = "; ".join(
                f"{name} {listed(hits, zone.get(name))}" for name, hits in value.items() if hits
            )
        elif isinstance(value, list):
            value = listed(value, res.fields.get("hits") if key == "hit_effects" else None)
        if value:
            lines.append((label, value))
    return lines


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

"""What both text renderers show, in order, as plain strings: the breakdown's content.

Keeping the wording here means the colour and the plain output can only differ in styling.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hc_cli.declare import with_unit
from hc_cli.dice import Roll
from hc_cli.model import Modifier, Resolution

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
HIDDEN_FIELDS = {"order", "sequence", "template"}


def title(res: Resolution) -> str:
    seed = (
        f" · seed {res.seed}"
        if res.seed is not None
        else (" · your dice" if res.inputs.get("dice") else "")
    )
    return f"hc {res.command} · {res.ruleset}{seed}"


def input_items(res: Resolution) -> list[tuple[str, str]]:
    return [
        (k, "yes" if v is True else _value(v, res.units, k))
        for k, v in res.inputs.items()
        if v not in (None, [], False, "")
    ]


def modifier_row(m: Modifier) -> tuple[str, str, str, str]:
    who = f"{m.side}: " if m.side else ""
    return (f"{who}{m.name}", f"{m.value:+d}", m.applies_to, m.source)


def roll_text(roll: Roll) -> str:
    faces = f" (faces {roll.faces[0]},{roll.faces[1]})" if roll.die == "d100" else ""
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
        player = f"Player {slot['player']}: " if slot.get("player") else ""
        extra = " (extra action)" if slot.get("extra") else ""
        lines.append(f"{i}. {player}{slot['name']}{extra}, initiative {slot['initiative']}")
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


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:6.2f}%"


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

"""What every High Crusade resolver shares: the result it starts from, the modifiers it sums,
odds put in the book's order. Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hc_cli.core.model import Modifier, Resolution
from hc_cli.core.mods import ModSpec
from hc_cli.rulesets.high_crusade.tables import RULESET, HighCrusadeTables

if TYPE_CHECKING:  # fractions are imported where odds are worked out
    from fractions import Fraction


def new_resolution(command: str, inputs: dict) -> Resolution:
    return Resolution(command=command, ruleset=RULESET, inputs=inputs)


def resolve_mods(
    tables: HighCrusadeTables,
    specs: tuple[ModSpec, ...],
    allowed: tuple[str, ...],
    default_target: str,
    command: str,
    res: Resolution,
    side: str | None = None,
) -> list[Modifier]:
    """`--mod` values as modifiers: table names looked up, direct numbers taken as given."""
    mods = []
    for spec in specs:
        if spec.name is not None:
            entry = tables.modifier(spec.name, allowed, command)
            mods.append(
                Modifier(entry.key, entry.value, entry.applies_to, entry.source_of("value"), side)
            )
            res.note_source(entry, "value", f"modifier {entry.key} {entry.value:+d}")
        else:
            assert spec.value is not None
            mods.append(Modifier(spec.label or "--mod", spec.value, default_target, "--mod", side))
    return mods


def mod_total(mods: list[Modifier], applies_to: str, side: str | None = None) -> int:
    return sum(m.value for m in mods if m.applies_to == applies_to and m.side == side)


def in_order(dist: dict, order: tuple[str, ...]) -> dict:
    from fractions import Fraction

    return {o: dist.get(o, Fraction(0)) for o in order}


def indicator(dist: dict[str, Fraction], success: set[str]) -> dict[int, Fraction]:
    from fractions import Fraction

    p = sum((v for k, v in dist.items() if k in success), Fraction(0))
    return {0: 1 - p, 1: p}

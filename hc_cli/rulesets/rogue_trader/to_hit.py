"""Rogue Trader's roll to hit, step by step: the firer's BS, the weapon (the table's, with any
direct numbers laid over it), the range band, every modifier to hit and the score the D6
needs (a 6 and a second D6 for 7+). Pure."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from hc_cli.core.errors import HcError, OutOfRange
from hc_cli.core.model import Modifier, Resolution
from hc_cli.core.numbers import is_whole
from hc_cli.core.roll import check_damage
from hc_cli.rulesets.rogue_trader.request import FireRequest, characteristic
from hc_cli.rulesets.rogue_trader.tables import RogueTraderTables, Weapon
from hc_cli.tables import readings


def firer_bs(t: RogueTraderTables, req: FireRequest, res: Resolution) -> int:
    bs = characteristic(t, req.bs, req.firer, "bs", res)
    if bs is None:
        raise HcError(
            "no firer given", "give --firer PROFILE (e.g. --firer space-marine) or --bs N"
        )
    if bs == 0:
        raise HcError(
            "BS 0: this firer has no ballistic skill and may not shoot or throw",
            "only a model with BS 1 or more can fire",
        )
    if not 1 <= bs <= 10:
        raise HcError(f"BS {bs} is off the chart", "BS runs from 1 to 10 (0 may not shoot)")
    return int(bs)  # a whole number: --bs is one, and so is a profile's


def weapon_of(t: RogueTraderTables, req: FireRequest, res: Resolution) -> Weapon:
    """The weapon from the table, with any direct numbers laid over it."""
    direct: dict[str, Any] = {
        "short": req.short,
        "long": req.long,
        "maximum": req.maximum,
        "to_hit_short": req.to_hit_short,
        "to_hit_long": req.to_hit_long,
        "strength": req.strength,
        "damage": req.damage,
        "save_modifier": req.save_mod,
        "area": req.radius,
    }
    given = {k: v for k, v in direct.items() if v is not None}
    if req.weapon_type:
        for kind in req.weapon_type:
            if kind.upper() not in ("S", "F"):
                raise HcError(
                    f"--weapon-type {kind} is not a type", "S (slow) or F (following fire)"
                )
        given["slow"] = any(k.upper() == "S" for k in req.weapon_type)
        given["following_fire"] = any(k.upper() == "F" for k in req.weapon_type)
    if req.weapon:
        weapon = t.weapon(req.weapon)
        for name in given:
            res.explanation.append(f"--{name.replace('_', '-')} given: used instead of the table's")
        weapon = replace(weapon, **given)
    else:
        if req.strength is None:
            raise HcError(
                "no weapon given and no --strength",
                "give --weapon NAME, or the numbers: --strength 4 --damage 1 --save-mod -1",
            )
        weapon = Weapon(
            key="weapon",
            source="given",
            name="weapon",
            **{"damage": "1", **{k: v for k, v in given.items()}},
        )
    if not 1 <= weapon.strength <= 10:
        raise HcError(f"Strength {weapon.strength} is off the wound chart", "give 1..10")
    if is_whole(weapon.damage):
        if int(weapon.damage) < 1:
            raise HcError(f"--damage {weapon.damage} does no damage", "give 1 or more, or dice: d6")
    else:
        check_damage(weapon.damage, "--damage" if req.damage else f"{weapon.key}'s damage")
    if weapon.area is not None and weapon.area <= 0:
        raise HcError(f"--radius {weapon.area:g} is no marker", "give the radius in inches, e.g. 2")
    res.inputs["weapon"] = weapon.key if req.weapon else None
    return weapon


def range_band(weapon: Weapon, req: FireRequest, res: Resolution) -> str | None:
    if req.range is not None and req.range < 0:
        raise HcError(
            f"--range {req.range:g} is negative", "give the distance in inches, 0 or more"
        )
    if weapon.short is None or weapon.reach is None:
        return None
    if req.range is None:
        raise HcError(
            f"--range is needed for {weapon.key}'s short and long range",
            f'short 0-{weapon.short:g}", long {weapon.short:g}-{weapon.long:g}", '
            f'maximum {weapon.reach:g}"',
        )
    if req.range > weapon.reach:
        raise OutOfRange(
            f'out of range: {weapon.key} reaches {weapon.reach:g}", the target is at '
            f'{req.range:g}": no shot, no roll',
            f'move within {weapon.reach:g}"',
        )
    woods = 2  # "visibility and all firing ranges are reduced to 2" maximum"
    if req.in_woods and req.range > woods:
        raise HcError(
            f'in woods all firing ranges are {woods}" at most; the target is at {req.range:g}": '
            "no shot",
            f'close to {woods}" (a model within 2" of the edge fires normally: leave out '
            "--in-woods)",
        )
    band = "short" if req.range <= weapon.short else "long"
    res.fields["band"] = band
    for name in ("short", "long", "maximum"):
        if getattr(weapon, name) is not None:
            res.note_source(weapon, name, f"{weapon.key} ranges")
    return band


def table_mod(t: RogueTraderTables, name: str, res: Resolution, times: int = 1) -> Modifier:
    entry = t.modifier(name)
    res.note_source(entry, "value", f"modifier {entry.key} {entry.value:+d}")
    label = entry.key if times == 1 else f"{entry.key} x{times}"
    return Modifier(label, entry.value * times, "to hit", entry.source_of("value"))


def to_hit_modifiers(
    t: RogueTraderTables, req: FireRequest, weapon: Weapon, band: str | None, res: Resolution
) -> list[Modifier]:
    mods: list[Modifier] = []
    if band is not None:
        value = weapon.to_hit_short if band == "short" else weapon.to_hit_long
        field = f"to_hit_{band}"
        mods.append(
            Modifier(f"{weapon.key} at {band} range", value, "to hit", weapon.source_of(field))
        )
        res.note_source(weapon, field, f"{weapon.key} to hit at {band} range {value:+d}")
    if req.moving_surface:
        exempt = (
            req.mounted_weapon
            and readings.choose(t.merged, "mounted-weapon-exemption", res)
            == "short-range-and-moving-surface"
        )
        if not exempt:
            mods.append(table_mod(t, "moving-surface", res))
    if req.target_moved is not None:
        if req.target_moved < 0:
            raise HcError(
                f"--target-moved {req.target_moved:g} is negative",
                "give the inches the target moved in its last turn",
            )
        per = t.modifier("target-moved").per_inches or 10
        times = math.floor(req.target_moved / per)
        if times:
            mods.append(table_mod(t, "target-moved", res, times))
    lying_covers = req.lying_down and (req.range is None or req.range > 4)
    if req.lying_down and not lying_covers:
        res.explanation.append('lying down: no cover once the target is within 4" of the firer')
    for flag, name in (
        (req.firer_wounded, "firer-wounded"),
        (req.soft_cover or lying_covers, "soft-cover"),
        (req.hard_cover, "hard-cover"),
        (req.improvised or weapon.improvised, "improvised"),
    ):
        if flag:
            mods.append(table_mod(t, name, res))
    flagged = {m.name.split(" x")[0] for m in mods}
    for spec in req.mods:
        if spec.name is not None and t.modifier(spec.name).key in flagged:
            # --hard-cover --mod hard-cover: one modifier said twice, applied once (as High
            # Crusade's Morale takes --ambushed --mod ambushed)
            res.explanation.append(f"--mod {spec.name}: given by its option already, once")
        elif spec.name is not None:
            mods.append(table_mod(t, spec.name, res))
        else:
            assert spec.value is not None
            mods.append(Modifier(spec.label or "--mod", spec.value, "to hit", "--mod"))
    return mods


def size_modifier(t: RogueTraderTables, size: str, res: Resolution) -> list[Modifier]:
    if size == "large":
        return [table_mod(t, "large-target", res)]
    if size == "small":
        return [table_mod(t, "small-target", res)]
    return []


def needed_to_hit(
    t: RogueTraderTables, bs: int, mods: list[Modifier], req: FireRequest, res: Resolution
) -> tuple[int, int | None, list[str]]:
    """Score needed on the D6 (floor applied), the second D6 for 7+, and how it was found."""
    base = t.charts.to_hit[bs - 1]
    total = sum(m.value for m in mods)
    raw = base - total
    floor = t.rule("minimum-to-hit")
    needed = max(raw, floor)
    notes = [
        f"BS {bs} needs {base}" + (f", modifiers {total:+d} on the roll: {raw}" if mods else "")
    ]
    if raw < floor:
        notes.append(f"never below {floor}: needs {floor} (a 1 always misses)")
    if needed <= 6:
        return needed, None, notes
    if needed - 7 >= len(t.charts.seven_plus):
        raise HcError(
            f"needs {needed} or more to hit: impossible, no shot",
            "10 or more cannot hit at all; find a better shot",
        )
    if not req.allow_7plus:
        raise HcError(
            f"needs {needed} to hit: only if the GM allows shots needing 7 or more",
            "add --allow-7plus to roll a 6 and then "
            f"{t.charts.seven_plus[needed - 7]}+ on a second D6",
        )
    second = t.charts.seven_plus[needed - 7]
    if readings.choose(t.merged, "seven-plus-chart", res) == "six-then-six":
        second = 6
    notes.append(
        f"needs {needed}: a 6, then {second}+ on a second D6 "
        f"({t.charts.sources.get('seven-plus', '')})"
    )
    return needed, second, notes

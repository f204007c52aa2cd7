"""Twilight: 2000 shooting's task, step by step: the firer's asset, the weapon, the range band,
every step that moves the difficulty, a moving target's levels, what each hit does. Pure."""

from __future__ import annotations

from dataclasses import replace

from hc_cli.core.errors import HcError, OutOfRange, UnknownName, did_you_mean
from hc_cli.core.model import Modifier, Resolution
from hc_cli.core.numbers import is_digits, is_whole, whole
from hc_cli.core.roll import check_damage
from hc_cli.rulesets.t2k.request import FireRequest, HitEffects
from hc_cli.rulesets.t2k.tables import BANDS, T2kTables, Weapon


def firer_asset(t: T2kTables, req: FireRequest, res: Resolution) -> int:
    if req.asset is not None:
        asset = req.asset
        if req.skill is not None or req.attribute is not None:
            raise HcError(
                "--asset and --skill/--attribute both given",
                "give the asset (skill + attribute), or the two parts",
            )
    elif req.skill is not None and req.attribute is not None:
        asset = req.skill + req.attribute
        res.explanation.append(f"asset: skill {req.skill} + attribute {req.attribute} = {asset}")
    else:
        raise HcError(
            "no asset given", "give --asset N (skill + attribute), or --skill N --attribute N"
        )
    if asset < 1:
        raise HcError(f"asset {asset} cannot succeed at anything", "give an asset of 1 or more")
    return asset


def weapon_of(t: T2kTables, req: FireRequest, res: Resolution) -> Weapon:
    if req.weapon:
        weapon = t.weapon(req.weapon)
        res.note_source(
            weapon, "damage", f"{weapon.key} (the seed prints no weapons: every number a sample)"
        )
    else:
        weapon = Weapon(
            key="weapon", source="given", name="weapon", type="thrown" if req.thrown else "rifle"
        )
    given: dict = {}
    if req.short_range is not None:
        given["short"] = req.short_range
    if req.rof is not None:
        kind = req.rof.strip().lower()
        if is_digits(kind):
            given["burst"] = whole(kind, "--rof (a burst size)", 1, 1000)
        elif kind in t.rof:
            given["rof"] = kind
        else:
            raise HcError(
                f"--rof {req.rof} is not a rate of fire",
                did_you_mean(
                    kind, t.rof, "a kind (" + ", ".join(t.rof) + ") or a burst size (3, 5, 10, 50)"
                ),
            )
    if req.recoil is not None:
        given["burst_recoil" if req.shot == "burst" or req.shot == "aimed-burst" else "recoil"] = (
            req.recoil
        )
    if req.damage is not None:
        given["damage"] = req.damage
    if req.ammo is not None:
        if req.ammo not in t.ammunition:
            raise HcError(
                f"unknown ammunition '{req.ammo}'", "ammunition: " + ", ".join(t.ammunition)
            )
        given["ammo"] = req.ammo
    if given and req.weapon:
        res.explanation.append("given numbers used instead of the table's: " + ", ".join(given))
    weapon = replace(weapon, **given)
    if weapon.damage.strip() and not is_whole(weapon.damage):
        check_damage(weapon.damage, "--damage" if req.damage else f"{weapon.key}'s damage")
    if not req.thrown and weapon.short is None:
        raise HcError("no weapon range", "give --weapon NAME or --short-range METRES")
    if weapon.rof is None and weapon.burst is None and not req.thrown:
        weapon = replace(weapon, rof="ss")
    res.inputs["weapon"] = weapon.key if req.weapon else None
    res.fields["skill"] = t.weapon_types.get(weapon.type, "Small Arms")
    return weapon


def mount_paces(t: T2kTables) -> list[str]:
    """The paces a mount moves at (the movement table's `mount_pace` entries)."""
    return [key for key, m in t.movement.items() if m.mount_pace]


def effective_strength(t: T2kTables, req: FireRequest, moving, res: Resolution) -> int:
    if req.strength is None:
        raise HcError("no Strength given", "give --strength N: recoil is measured against it")
    strength = req.strength
    if moving.strength_minus:
        strength -= moving.strength_minus
        res.explanation.append(f"{moving.key}: Strength -{moving.strength_minus} for recoil")
    if moving.strength_half:
        strength = strength // 2
        res.explanation.append(f"{moving.key}: half Strength for recoil")
    if req.two_weapons:
        strength -= t.rule("two-weapons-strength")
        res.explanation.append(
            f"a weapon in each hand: Strength -{t.rule('two-weapons-strength')} for recoil"
        )
    return strength


def range_band(t: T2kTables, req: FireRequest, weapon: Weapon, res: Resolution) -> int:
    if req.range is None:
        raise HcError("no range given", "give --range METRES to the target")
    if req.range < 0:
        raise HcError(f"--range {req.range:g} is negative", "give the distance in metres")
    factor = t.rule("range-band-factor")
    assert weapon.short is not None
    reaches = [weapon.short * factor**i for i in range(len(BANDS))]
    res.fields["bands"] = {b: r for b, r in zip(BANDS, reaches, strict=True)}
    index = next((i for i, reach in enumerate(reaches) if req.range <= reach), None)
    if index is None:
        raise OutOfRange(
            f"out of range: {weapon.key} reaches {reaches[-1]:g} m at Extreme, the "
            f"target is at {req.range:g} m: no shot, no roll",
            f"close within {reaches[-1]:g} m",
        )
    res.fields["band"] = BANDS[index]
    return index


def difficulty_mods(t: T2kTables, req: FireRequest, res: Resolution) -> list[Modifier]:
    """--mod: a named difficulty modifier from the tables, or a number of levels."""
    steps = []
    for spec in req.mods:
        if spec.name is not None:
            if spec.name not in t.modifier_levels:
                raise UnknownName("modifier", spec.name, t.modifier_levels)
            entry = t.modifiers[spec.name]
            steps.append(
                Modifier(
                    spec.name, t.modifier_levels[spec.name], "difficulty", entry.source_of("levels")
                )
            )
            res.note_source(
                entry, "levels", f"modifier {spec.name} {t.modifier_levels[spec.name]:+d} level(s)"
            )
        else:
            assert spec.value is not None
            steps.append(Modifier(spec.label or "--mod", spec.value, "difficulty", "--mod"))
    return steps


def target_speed_levels(t: T2kTables, req: FireRequest) -> tuple[int, str]:
    levels, why = 0, ""
    for metres, kph, step in t.target_speeds:
        if (req.target_speed is not None and req.target_speed >= metres) or (
            req.target_kph is not None and req.target_kph >= kph
        ):
            levels, why = step, f"target moving {metres:g} m/action ({kph:g} kph) or more"
    for value, flag in ((req.target_speed, "--target-speed"), (req.target_kph, "--target-kph")):
        if value is not None and value < 0:
            raise HcError(f"{flag} {value:g} is negative", "give the target's speed, 0 or more")
    return levels, why


def hit_effects(t: T2kTables, req: FireRequest, weapon: Weapon, res: Resolution) -> HitEffects:
    locations = tuple(t.hit_locations)
    if req.location is not None and req.location not in {name for _, name in locations}:
        raise UnknownName("hit location", req.location, [name for _, name in locations])
    if req.damage_done is not None and req.damage_done < 0:
        raise HcError(f"--damage-done {req.damage_done} is negative", "give 0 or more")
    if req.location is None:
        res.mark_sample(
            "hit locations (Twilight: 2000 2nd ed.'s table: the seed says only 'determine hit "
            "location and damage normally')"
        )
    return HitEffects(
        locations,
        t.rule("hit-location-die"),
        req.location,
        weapon.damage.strip(),
        req.damage_done,
        req.npc,
        t.rule("quick-kill-die"),
        req.zone_npc,
    )

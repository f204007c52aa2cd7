"""Twilight: 2000 thrown weapons: the danger zone, the throw's plan, a missed grenade's
deviation, with a throw or on its own (`hc deviate`). Pure."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hc_cli.core.dice import DiceSource, Roll
from hc_cli.core.errors import HcError, OutOfRange, did_you_mean
from hc_cli.core.model import Modifier, Odds, Resolution
from hc_cli.core.numbers import is_number, number, shown
from hc_cli.rulesets.t2k.request import FirePlan, FireRequest, new_resolution
from hc_cli.rulesets.t2k.tables import T2kTables, Weapon
from hc_cli.rulesets.t2k.task import difficulty_mods, hit_effects, target_speed_levels
from hc_cli.tables import readings


def danger_zone(t: T2kTables, req: FireRequest, res: Resolution) -> tuple[tuple[str, float], ...]:
    width = min(t.rule("danger-zone-metres"), req.range or 0)
    inside: list[tuple[str, float]] = []
    outside: list[tuple[str, float]] = []
    for text in req.zone:
        name, sep, metres = text.rpartition(":")
        if not sep or not name.strip() or not is_number(metres):
            raise HcError(
                f"--zone '{shown(text)}' needs NAME:METRES",
                "e.g. --zone Ivanov:3 (3 m from the intended target)",
            )
        distance = number(metres, f"--zone {shown(name.strip())}'s metres", 0, 100_000)
        (inside if distance <= width else outside).append((name.strip(), distance))
    named = {n for n, _ in inside + outside}
    for name in req.zone_npc:
        if name not in named:
            raise HcError(
                f"--zone-npc {shown(name)} is no target of --zone",
                "name a target given as --zone NAME:METRES",
            )
    if outside:
        res.explanation.append(
            "outside the danger zone (" + f"{width:g} m): " + ", ".join(n for n, _ in outside)
        )
    inside.sort(key=lambda z: z[1])
    res.fields["danger_zone"] = {"width": width, "targets": [n for n, _ in inside]}
    return tuple(inside)


def plan_thrown(
    t: T2kTables, req: FireRequest, weapon: Weapon, asset: int, res: Resolution
) -> tuple[Resolution, FirePlan]:
    if req.shots != 1 or req.shot != "aimed":
        raise HcError(
            "a throw is one task: --shots and --shot are for firing", "leave them out with --thrown"
        )
    band = _throw_band(t, req, weapon, res)
    asset += _further_grenade_bonus(t, req, res)
    difficulty = t.difficulty(_throw_rank(t, req, band, res))
    hit = t.hit_number(asset, difficulty)
    res.fields.update(difficulty=difficulty.key, hit_number=hit, skill=t.weapon_types["thrown"])
    res.explanation.append(
        f"{band} range: {difficulty.key}, asset {asset} x {difficulty.multiplier:g} = {hit}"
    )
    if weapon.knife:
        damage = f"1d{t.rule('thrown-damage-die')}"
    else:
        if req.strength is None:
            raise HcError("thrown objects do 1d6 + Strength", "give --strength N")
        damage = f"1d{t.rule('thrown-damage-die')}+{req.strength}"
    res.fields["penetration"] = "nil"
    grenade = None
    if weapon.grenade or req.grenade_number > 1:
        assert req.range is not None  # the band was measured from it
        grenade = (
            1.0 if band == "effective" else 2.0,
            req.range / 2,
            t.rule("grenade-deviation-die"),
            t.rule("grenade-direction-die"),
        )
        res.mark_sample(
            f"grenade deviation: d{t.rule('grenade-deviation-die')} and a "
            f"D{t.rule('grenade-direction-die')} clock face (the text gives neither)"
        )
    # A thrown object's hit lands and does damage as every hit does; a grenade's is its blast.
    effects = None if grenade else replace(hit_effects(t, req, weapon, res), damage=damage)
    return res, FirePlan(
        "thrown", hit, 1, effects=effects, grenade=grenade, task_die=t.rule("task-die")
    )


def _throw_band(t: T2kTables, req: FireRequest, weapon: Weapon, res: Resolution) -> str:
    """ "Effective range = Throw range divided by the weight of the object"; "Long range = 2x
    throw range divided by weight of the object"; beyond it, no throw."""
    if req.throw_range is None or req.throw_range <= 0:
        raise HcError("a throw needs --throw-range METRES", "the character's throw range")
    weight = req.weight if req.weight is not None else weapon.weight
    if weight is None or weight <= 0:
        raise HcError("a throw needs --weight KG", "the weight of the object thrown")
    if req.range is None or req.range < 0:
        raise HcError("a throw needs --range METRES", "the distance to the target, 0 or more")
    if req.grenade_number < 1:
        raise HcError(f"--grenade-number {req.grenade_number}", "the first grenade is 1")
    least = t.rule("min-throw-weight")
    counted = max(weight, least)
    effective = req.throw_range / counted
    band = "effective" if req.range <= effective else "long" if req.range <= 2 * effective else None
    res.fields.update(effective_range=effective, long_range=2 * effective, band=band)
    if band is None:
        raise OutOfRange(
            f"out of range: a {weight:g} kg throw reaches {2 * effective:g} m, the "
            f"target is at {req.range:g} m: no throw",
            f"close within {2 * effective:g} m",
        )
    if weight < least:
        res.explanation.append(f"{weight:g} kg throws as {least:g} kg")
    return band


def _further_grenade_bonus(t: T2kTables, req: FireRequest, res: Resolution) -> int:
    """ "Additional grenades at the same target are at +1 to skill" (each, or once: the reading
    further-grenades)."""
    further = req.grenade_number - 1
    if further and readings.choose(t.merged, "further-grenades", res) == "flat":
        further = 1
    bonus = t.rule("further-grenade-bonus") * further
    if bonus:
        res.modifiers.append(
            Modifier(
                f"grenade #{req.grenade_number} at the same target", bonus, "skill", "seed 002"
            )
        )
    return bonus


def _throw_rank(t: T2kTables, req: FireRequest, band: str, res: Resolution) -> int:
    """Effective range a Difficult task, long range Formidable; an obscured or moving target
    and --mod move it."""
    rank = t.rule("thrown-effective" if band == "effective" else "thrown-long")
    if req.obscured:
        rank += 1
        res.modifiers.append(Modifier("target obscured", 1, "difficulty", "seed 002"))
    levels, why = target_speed_levels(t, req)
    if levels:
        rank += levels
        res.modifiers.append(Modifier(why, levels, "difficulty", "seed 002"))
    mod_steps = difficulty_mods(t, req, res)
    rank = max(rank + sum(m.value for m in mod_steps), 0)
    res.modifiers.extend(mod_steps)
    if rank >= len(t.difficulties):
        raise HcError(f"harder than {t.difficulties[-1].key}: no throw", "get closer")
    return rank


def deviate_grenade(
    per_pip: float, cap: float, die: int, direction_die: int, dice: DiceSource
) -> tuple[dict, list[Roll], str]:
    """A missed grenade: distance die x metres per pip, never beyond half the throw."""
    distance = dice.roll(die, "deviation distance")
    direction = dice.roll(direction_die, "deviation direction (clock face)")
    metres = min(distance.value * per_pip, cap)
    fields = {
        "distance": metres,
        "rolled_distance": distance.value * per_pip,
        "direction": f"{direction.value} o'clock",
        "capped": distance.value * per_pip > cap,
    }
    text = (
        f"the grenade lands {metres:g} m toward {direction.value} o'clock (12 is straight "
        f"on, past the target)"
        + (
            f"; rolled {distance.value * per_pip:g} m, never more than half the throw ({cap:g} m)"
            if fields["capped"]
            else ""
        )
    )
    return fields, [distance, direction], text


# ---------------------------------------------------------------------------------------------
# A missed grenade's deviation on its own


@dataclass(frozen=True, slots=True)
class DeviateRequest:
    range: float | None = None
    band: str | None = None
    throw_range: float | None = None
    weight: float | None = None


def plan_deviate(
    t: T2kTables, req: DeviateRequest
) -> tuple[Resolution, tuple[float, float, int, int]]:
    res = new_resolution(
        "deviate",
        {
            "range": req.range,
            "band": req.band,
            "throw_range": req.throw_range,
            "weight": req.weight,
        },
    )
    if req.range is None or req.range < 0:
        raise HcError(
            "--range is needed: the length of the throw (deviation is never more than half of it)",
            "give --range METRES",
        )
    band = req.band
    if band is None:
        if req.throw_range is None or req.weight is None or req.weight <= 0:
            raise HcError(
                "effective or long range?",
                "give --band effective|long, or --throw-range M --weight KG",
            )
        effective = req.throw_range / max(req.weight, t.rule("min-throw-weight"))
        if req.range > 2 * effective:
            raise OutOfRange(
                f"out of range: a {req.weight:g} kg throw reaches {2 * effective:g} m, the "
                f"target is at {req.range:g} m: no throw, nothing to deviate",
                f"close within {2 * effective:g} m",
            )
        band = "effective" if req.range <= effective else "long"
        res.explanation.append(
            f"effective range {effective:g} m: a {req.range:g} m throw is at {band} range"
        )
    if band not in ("effective", "long"):
        raise HcError(
            f"--band {band} is not a throwing band",
            did_you_mean(band, ("effective", "long"), "effective or long"),
        )
    res.fields["band"] = band
    res.mark_sample(
        f"grenade deviation: d{t.rule('grenade-deviation-die')} and a "
        f"D{t.rule('grenade-direction-die')} clock face (the text gives neither)"
    )
    return res, (
        1.0 if band == "effective" else 2.0,
        req.range / 2,
        t.rule("grenade-deviation-die"),
        t.rule("grenade-direction-die"),
    )


def resolve_deviate(t: T2kTables, req: DeviateRequest, dice: DiceSource) -> Resolution:
    res, spec = plan_deviate(t, req)
    fields, rolls, text = deviate_grenade(*spec, dice)
    res.rolls, res.outcome = rolls, "deviated"
    res.fields.update(fields)
    res.explanation.append(text)
    return res


def deviate_odds(t: T2kTables, req: DeviateRequest) -> Resolution:
    from fractions import Fraction

    from hc_cli.core.odds import enumerate_outcomes

    res, spec = plan_deviate(t, req)
    dist = enumerate_outcomes(lambda d: deviate_grenade(*spec, d)[0]["distance"], lambda m: m)
    res.odds = Odds({"deviated": Fraction(1)}, {"distance (metres)": dict(sorted(dist.items()))})
    return res

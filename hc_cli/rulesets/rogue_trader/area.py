"""Rogue Trader area weapons: the marker's deviation (does it land, how far, which way),
with a fire or on its own (`hc deviate`). Pure."""

from __future__ import annotations

from dataclasses import dataclass

from hc_cli.core.dice import DiceSource
from hc_cli.core.errors import HcError
from hc_cli.core.model import Odds, Resolution
from hc_cli.rulesets.rogue_trader.tables import RULESET, RogueTraderTables
from hc_cli.tables import readings


@dataclass(frozen=True, slots=True)
class DeviateRequest:
    weapon: str | None = None
    radius: float | None = None
    range: float | None = None
    blasting_cover: bool = False


@dataclass(frozen=True, slots=True)
class DeviationSpec:
    radius: float
    measured_range: float
    deviates_on: int
    penalty: int
    distance_die: int
    direction_die: int


def deviation_spec(
    t: RogueTraderTables,
    radius: float,
    measured_range: float | None,
    blasting_cover: bool,
    res: Resolution,
) -> DeviationSpec:
    if measured_range is None:
        raise HcError(
            "--range is needed: deviation is never more than half the measured range",
            "give --range INCHES to the aiming point",
        )
    if measured_range < 0:
        raise HcError(f"--range {measured_range:g} is negative", "give the distance in inches")
    table = t.charts.deviation
    if readings.choose(t.merged, "deviation-table", res) == "inch-steps":
        table = tuple((2 * r, on) for r, on in table)
    between = not any(r == radius for r, _ in table) and table[0][0] < radius < table[-1][0]
    above = between and readings.choose(t.merged, "deviation-radius-between-rows", res) == (
        "row-above"
    )
    rows = [row for row in table if (row[0] >= radius if above else row[0] <= radius)]
    if not rows:
        raise HcError(
            f'no deviation row for a {radius:g}" marker',
            f'markers start at {table[0][0]:g}" radius',
        )
    deviates_on = rows[0][1] if above else rows[-1][1]
    penalty = t.rule("blasting-cover-penalty") if blasting_cover else 0
    res.fields.update(radius=radius, deviates_on=deviates_on)
    compass = readings.choose(t.merged, "deviation-direction", res) == "compass-d8"
    direction_die = 8 if compass else t.rule("deviation-direction-die")
    if not compass:
        res.note_source(
            t.rules["deviation-direction-die"],
            "value",
            f"deviation direction: D{direction_die} as a clock face (the tool's "
            "choice: the text gives no direction rule)",
        )
    source = t.charts.sources.get("deviation", "")
    res.explanation.append(
        f'a {radius:g}" marker deviates on {deviates_on}+ ({source})'
        + (f"; +{penalty} on the die for blasting cover" if penalty else "")
    )
    return DeviationSpec(
        radius,
        measured_range,
        deviates_on,
        penalty,
        t.rule("deviation-distance-die"),
        direction_die,
    )


def deviation_roll(spec: DeviationSpec, dice: DiceSource) -> Resolution:
    """Does the marker deviate, how far (capped at half the range) and which way."""
    res = Resolution(command="deviate", ruleset=RULESET, inputs={})
    roll = dice.roll(6, "deviation")
    res.rolls.append(roll)
    score = roll.value + spec.penalty
    if score < spec.deviates_on:
        res.outcome = "on-target"
        res.fields.update(distance=0, direction=None)
        res.explanation.append(f"deviation: {score}, deviates on {spec.deviates_on}+: on target")
        return res
    distance = dice.roll(spec.distance_die, "distance deviated")
    compass = spec.direction_die == 8
    direction = dice.roll(
        spec.direction_die, "direction (compass)" if compass else "direction (clock face)"
    )
    res.rolls += [distance, direction]
    cap = spec.measured_range / 2
    moved = min(distance.value, cap)
    res.outcome = "deviated"
    way, legend = (
        (f"point {direction.value} of 8", "1 is straight on, past the target, then clockwise")
        if compass
        else (f"{direction.value} o'clock", "12 is straight on, past the target")
    )
    res.fields.update(
        distance=moved, rolled_distance=distance.value, direction=way, capped=distance.value > cap
    )
    res.explanation.append(
        f'deviation: {score}, deviates on {spec.deviates_on}+: the marker moves {moved:g}" '
        f"toward {way} ({legend})"
        + (
            f'; rolled {distance.value}", never more than half the {spec.measured_range:g}" range'
            if distance.value > cap
            else ""
        )
    )
    return res


# ---------------------------------------------------------------------------------------------
# Deviation on its own


def plan_deviate(t: RogueTraderTables, req: DeviateRequest) -> tuple[Resolution, DeviationSpec]:
    res = Resolution(
        command="deviate",
        ruleset=RULESET,
        inputs={
            "weapon": req.weapon,
            "radius": req.radius,
            "range": req.range,
            "blasting_cover": req.blasting_cover,
        },
    )
    radius = req.radius
    if req.weapon:
        weapon = t.weapon(req.weapon)
        if weapon.area is None and radius is None:
            raise HcError(
                f"{weapon.key} has no area marker: it does not deviate",
                "give an area weapon (frag-grenade, krak-grenade) or --radius N",
            )
        radius = radius if radius is not None else weapon.area
    if radius is None:
        raise HcError("no marker given", "give --radius INCHES or --weapon NAME of an area weapon")
    if radius <= 0:
        raise HcError(f"--radius {radius:g} is no marker", "give the radius in inches, e.g. 2")
    return res, deviation_spec(t, radius, req.range, req.blasting_cover, res)


def resolve_deviate(t: RogueTraderTables, req: DeviateRequest, dice: DiceSource) -> Resolution:
    res, spec = plan_deviate(t, req)
    res.absorb(deviation_roll(spec, dice))
    return res


def deviate_odds(t: RogueTraderTables, req: DeviateRequest) -> Resolution:
    from fractions import Fraction

    from hc_cli.core.odds import enumerate_outcomes

    res, spec = plan_deviate(t, req)
    dist = enumerate_outcomes(
        lambda d: deviation_roll(spec, d), lambda r: (r.outcome, r.fields["distance"])
    )
    outcomes = {"on-target": Fraction(0), "deviated": Fraction(0)}
    distance: dict = {}
    for (outcome, inches), p in dist.items():
        outcomes[outcome] += p
        distance[inches] = distance.get(inches, Fraction(0)) + p
    res.odds = Odds(outcomes, {"distance (inches)": dict(sorted(distance.items()))})
    return res

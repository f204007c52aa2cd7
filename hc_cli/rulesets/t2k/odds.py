"""Twilight: 2000 odds: `fire_dice` under an enumerating dice source, whose `pool` answers a
burst's identical dice with the binomial; each hit's quick kill and damage combined by
probability laws."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hc_cli.core.model import Odds, Resolution
from hc_cli.rulesets.t2k.damage import land_hits
from hc_cli.rulesets.t2k.request import FireRequest, HitEffects, new_resolution
from hc_cli.rulesets.t2k.shooting import plan_fire
from hc_cli.rulesets.t2k.shots import fire_dice
from hc_cli.rulesets.t2k.tables import T2kTables

if TYPE_CHECKING:  # fractions are imported where odds are worked out
    from fractions import Fraction


# The work of the damage in all, in steps (hits x values of a hit x values of the sum): past
# it a fire of hundreds of hits gives its mean damage and no table of it (a few seconds else).
MAX_DAMAGE_WORK = 2_000_000


def _each_hit(effects: HitEffects) -> dict[tuple[bool, int], Fraction]:
    """One hit on the target: whether it killed outright and its damage (its location's roll,
    its damage dice or --damage-done, an NPC's quick-kill die), walked by the same
    `land_hits` that rolls them."""
    from hc_cli.core.odds import enumerate_outcomes

    return enumerate_outcomes(
        lambda d: land_hits(effects, 1, d, new_resolution("fire", {})),
        lambda r: (r[0], r[1][0]["damage"]),
    )


def _powers(
    alive: dict[int, int], killing: dict[int, int], most: int, below: int | None
) -> list[dict[int, int]]:
    """The damage of 0..most hits (integer weights over the hit's denominator to the n), each
    only below `below` when it is given: what the shot's odds weigh them by. A hit that kills
    outright (`killing`: its damage) ends the rolling: the later hits land on a dead man, roll
    nothing and deal nothing (`land_hits`), each weighing the whole of a hit's denominator."""
    total = sum(alive.values()) + sum(killing.values())
    living: dict[int, int] = {0: 1}
    dead: dict[int, int] = {}
    powers = [{0: 1}]
    for _ in range(most):
        now_living: dict[int, int] = {}
        now_dead = {a: w * total for a, w in dead.items()}
        for a, w in living.items():
            for each, into in ((alive, now_living), (killing, now_dead)):
                for b, x in each.items():
                    if below is None or a + b < below:
                        into[a + b] = into.get(a + b, 0) + w * x
        living, dead = now_living, now_dead
        step = dict(living)
        for a, w in dead.items():
            step[a] = step.get(a, 0) + w
        powers.append(step)
    return powers


def _weighed(powers: list[dict[int, int]], total: int, hits: dict[int, Fraction]) -> dict:
    """The damage of 0..most hits weighed by the chance of each count, summed in whole numbers
    over one denominator (a fraction a term was half the time of a burst's odds)."""
    import math
    from fractions import Fraction

    most = max(hits)
    common = math.lcm(*(p.denominator for p in hits.values()))
    out: dict[int, int] = {}
    for n, p in hits.items():
        scale = p.numerator * (common // p.denominator) * total ** (most - n)
        for damage, w in powers[n].items():
            out[damage] = out.get(damage, 0) + scale * w
    below = common * total**most
    return {damage: Fraction(w, below) for damage, w in sorted(out.items())}


def _damage(
    effects: HitEffects,
    each: dict[tuple[bool, int], Fraction],
    hits: dict[int, Fraction],
    t: T2kTables,
    odds: Odds,
) -> None:
    """The target's damage in all from its hits, each hit independent of the others: its
    distribution (`damage`) where the work is within bounds, else its mean; and for an NPC
    the part where no hit killed outright, below the damage that puts anyone out of the fight
    (`spared`: hc compare's chance of a serious wound or worse)."""
    import math
    from fractions import Fraction

    damage: dict[int, Fraction] = {}
    alive: dict[int, Fraction] = {}
    killing: dict[int, Fraction] = {}
    for (killed, d), p in each.items():
        damage[d] = damage.get(d, Fraction(0)) + p
        into = killing if killed else alive
        into[d] = into.get(d, Fraction(0)) + p
    total = math.lcm(*(p.denominator for p in each.values()))  # every weight below whole
    alive_w = {d: int(p * total) for d, p in alive.items()}
    killing_w = {d: int(p * total) for d, p in killing.items()}
    most = max(hits)
    span = (max(damage) - min(damage) + 1) * most
    if most * len(damage) * span <= MAX_DAMAGE_WORK:
        summed = _weighed(_powers(alive_w, killing_w, most, None), total, hits)
        odds.distributions = {**odds.distributions, "damage": summed}
    per_hit = sum((d * p for d, p in damage.items()), Fraction(0))
    # The k-th hit deals its damage only when none before it killed: P = spared^(k-1).
    spared = 1 - sum(killing.values(), Fraction(0))
    rolled = {n: Fraction(n) if spared == 1 else (1 - spared**n) / (1 - spared) for n in hits}
    odds.extra = {
        "mean_damage": per_hit * sum((rolled[n] * p for n, p in hits.items()), Fraction(0))
    }
    if effects.npc:
        below = max(t.rule("out-of-action-damage"), *(least for least, _ in t.wound_damage))
        odds.extra["spared"] = _weighed(_powers(alive_w, {}, most, below), total, hits)


def fire_odds(t: T2kTables, req: FireRequest) -> Resolution:
    """The task dice (and zone and riders) walked with each count answered by the binomial;
    every hit then quick-kills an NPC independently, with the chance one hit has: P(no quick
    kill | n hits) = (1 - q)^n. Probability laws, not dice paths, for the hits' own dice."""
    from fractions import Fraction

    from hc_cli.core.odds import add_independent, enumerate_outcomes

    res, plan = plan_fire(t, req)
    effects = plan.effects
    npc = effects is not None and effects.npc
    dist = enumerate_outcomes(
        lambda d: fire_dice(plan, d, effects=False),
        lambda r: (r.outcome, r.fields["hits"], sum(r.fields.get("zone_hits", {}).values())),
    )
    damaging = effects is not None and (effects.damage or effects.damage_done is not None)
    each = _each_hit(effects) if effects is not None and (npc or damaging) else {}  # once
    killing = sum((p for (killed, _), p in each.items() if killed), Fraction(0))
    spared = 1 - killing if npc else Fraction(1)
    outcomes = {"miss": Fraction(0), "hit": Fraction(0)}
    if npc:
        outcomes["quick-kill"] = Fraction(0)
    if plan.riders_percent is not None:
        outcomes["hit-other"] = Fraction(0)
    hits: dict[int, Fraction] = {}
    zone: dict[int, Fraction] = {}
    for (outcome, n, z), p in dist.items():
        if outcome == "hit" and npc:
            outcomes["hit"] += p * spared**n
            outcomes["quick-kill"] += p * (1 - spared**n)
        else:
            outcomes[outcome] += p
        hits[n] = hits.get(n, Fraction(0)) + p
        zone[z] = zone.get(z, Fraction(0)) + p
    bursts = req.shots if plan.kind == "burst" else 1
    if bursts > 1:  # independent bursts: their hits add up
        hits = dict(add_independent([hits] * bursts))
        zone = dict(add_independent([zone] * bursts))
        none = outcomes["miss"] ** bursts
        kill = 1 - (1 - outcomes.get("quick-kill", Fraction(0))) ** bursts
        outcomes = {"miss": none, "hit": 1 - none - kill}
        if npc:
            outcomes["quick-kill"] = kill
    counts = {"hits": dict(sorted(hits.items()))}
    if plan.zone:
        counts["danger zone hits"] = dict(sorted(zone.items()))
    res.odds = Odds(outcomes, counts)
    if effects is not None and damaging:
        _damage(effects, each, counts["hits"], t, res.odds)
    return res

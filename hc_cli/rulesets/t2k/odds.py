"""Twilight: 2000 odds: `fire_dice` under an enumerating dice source, whose `pool` answers a
burst's identical dice with the binomial; each hit's quick kill and damage combined by
probability laws."""

from __future__ import annotations

from hc_cli.core.model import Odds, Resolution
from hc_cli.rulesets.t2k.damage import _hit_effects
from hc_cli.rulesets.t2k.request import FireRequest, HitEffects, _new
from hc_cli.rulesets.t2k.shooting import plan_fire
from hc_cli.rulesets.t2k.shots import fire_dice
from hc_cli.rulesets.t2k.tables import T2kTables

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:  # fractions are imported where odds are worked out
    from fractions import Fraction


def _quick_kill_chance(effects: HitEffects) -> Fraction:
    """P(one hit on an NPC kills outright): its location, damage and quick-kill die, walked by
    the same `_hit_effects` that rolls them."""
    from fractions import Fraction

    from hc_cli.core.odds import enumerate_outcomes

    dist = enumerate_outcomes(
        lambda d: _hit_effects(effects, 1, d, _new("fire", {}))[0], lambda killed: killed
    )
    return dist.get(True, Fraction(0))


def _damage_of_a_hit(effects: HitEffects) -> dict[int, Fraction]:
    """The damage one hit on the target does (its location's roll, then its damage dice, or
    --damage-done), walked by the same `_hit_effects` that rolls them."""
    from hc_cli.core.odds import enumerate_outcomes

    return dict(
        enumerate_outcomes(
            lambda d: _hit_effects(effects, 1, d, _new("fire", {}))[1][0]["damage"],
            lambda damage: damage,
        )
    )


def _damage(effects: HitEffects, hits: dict[int, Fraction]) -> dict[int, Fraction]:
    """The target's damage in all from its hits: each hit's own damage, independent of the
    others, summed over as many hits as land (a sum of n copies for n hits)."""
    from fractions import Fraction

    from hc_cli.core.odds import add_independent

    each = _damage_of_a_hit(effects)
    out: dict[int, Fraction] = {}
    for n, p in hits.items():
        summed = dict(add_independent([each] * n)) if n else {0: Fraction(1)}
        for damage, q in summed.items():
            out[damage] = out.get(damage, Fraction(0)) + p * q
    return dict(sorted(out.items()))


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
    spared = 1 - _quick_kill_chance(effects) if effects is not None and npc else Fraction(1)
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
    if effects is not None and (effects.damage or effects.damage_done is not None):
        counts["damage"] = _damage(effects, counts["hits"])
    if plan.zone:
        counts["danger zone hits"] = dict(sorted(zone.items()))
    res.odds = Odds(outcomes, counts)
    if npc and "damage" in counts and effects is not None:
        res.odds.spared = _spared(effects, counts["hits"])
    return res


def _spared(effects: HitEffects, hits: dict[int, Fraction]) -> dict[int, Fraction]:
    """P(no hit kills outright, and this damage in all): each hit's damage where it killed
    no one (its location, damage and quick-kill die walked by `_hit_effects`), summed over
    as many hits as land; the rest of the probability is a quick kill."""
    from fractions import Fraction

    from hc_cli.core.odds import enumerate_outcomes

    each = enumerate_outcomes(
        lambda d: _hit_effects(effects, 1, d, _new("fire", {})),
        lambda r: (r[0], r[1][0]["damage"]),
    )
    alive = {damage: p for (killed, damage), p in each.items() if not killed}
    out: dict[int, Fraction] = {}
    power: dict[int, Fraction] = {0: Fraction(1)}  # n hits, none killing: their damage
    for n in range(max(hits) + 1):
        if n:
            step: dict[int, Fraction] = {}
            for a, p in power.items():
                for b, q in alive.items():
                    step[a + b] = step.get(a + b, Fraction(0)) + p * q
            power = step
        for damage, p in power.items():
            out[damage] = out.get(damage, Fraction(0)) + hits.get(n, Fraction(0)) * p
    return out

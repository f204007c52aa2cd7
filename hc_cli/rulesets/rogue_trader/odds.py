"""Rogue Trader odds: the same `shot_steps` under an enumerating dice source, one shot's
outcomes combined by probability laws over a volley, a model's wounds and following fire."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from hc_cli.core.model import Odds, Resolution
from hc_cli.rulesets.rogue_trader.area import deviation_roll
from hc_cli.rulesets.rogue_trader.request import (
    OUTCOMES,
    WOUND_DAMAGE,
    FireRequest,
    ShotSpec,
    new_resolution,
)
from hc_cli.rulesets.rogue_trader.shooting import plan_fire
from hc_cli.rulesets.rogue_trader.shots import drive, shot_steps
from hc_cli.rulesets.rogue_trader.tables import RogueTraderTables

if TYPE_CHECKING:  # fractions are imported where odds are worked out
    from fractions import Fraction

    from hc_cli.core.odds import Distribution

# ---------------------------------------------------------------------------------------------
# Odds: the same `shot_steps`, under an enumerating dice source


def _shot_odds(spec: ShotSpec) -> dict[tuple[str, int, bool], Fraction]:
    """(outcome, wounds, whether the shot's own victim was struck) -> probability."""
    from hc_cli.core.odds import enumerate_outcomes

    return enumerate_outcomes(
        lambda d: drive(shot_steps(spec), d),
        lambda r: (r.outcome, r.fields["wounds"], r.fields["victim"] == spec.victim.label),
    )


def _outcomes(
    dist: dict[tuple[str, int, bool], Fraction], into_melee: bool = False
) -> dict[str, Fraction]:
    """A shot's outcomes; fired into hand to hand, those of a friend struck apart."""
    from fractions import Fraction

    out = dict.fromkeys(OUTCOMES, Fraction(0))
    for (outcome, _, mine), p in dist.items():
        word = outcome if mine or not into_melee else f"friend {outcome}"
        out[word] = out.get(word, Fraction(0)) + p
    return out


def _wounds(
    dist: dict[tuple[str, int, bool], Fraction], own: bool | None = None
) -> dict[int, Fraction]:
    """The wounds of a shot; `own` True: on its own victim only (fired into hand to hand, the
    enemy), False: on the other only (the friend), a wound on the other counted 0."""
    from fractions import Fraction

    out: dict[int, Fraction] = {}
    for (_, wounds, mine), p in dist.items():
        wounds = wounds if own is None or own == mine else 0
        out[wounds] = out.get(wounds, Fraction(0)) + p
    return dict(sorted(out.items()))


def _casualty(
    dist: dict[tuple[str, int, bool], Fraction], own: bool | None = None
) -> dict[int, Fraction]:
    """A shot's casualty, 0 or 1; `own` True: its own victim's only (the enemy's)."""
    from fractions import Fraction

    p = sum((v for (o, _, mine), v in dist.items() if o == "casualty" and (own is None or mine)),
            Fraction(0))  # fmt: skip
    return {0: 1 - p, 1: p}


def _single_counts(spec: ShotSpec, dist: dict[tuple[str, int, bool], Fraction]) -> dict:
    """A lone shot's wounds; fired into hand to hand, those on the enemy and those on a
    friend apart (what the firer's side did to the enemy is the first)."""
    if spec.split != "melee" or spec.other is None:
        return {"wounds": _wounds(dist)}
    return {"wounds": _wounds(dist, True), "wounds on friends": _wounds(dist, False)}


def fire_odds(t: RogueTraderTables, req: FireRequest) -> Resolution:
    from fractions import Fraction

    from hc_cli.core.odds import POWER_BUDGET, Distribution, add_independent

    plan = plan_fire(t, req)
    res = plan.res
    per_shot = {}
    for spec in plan.specs:
        key = replace(spec, label="")
        if key not in per_shot:
            per_shot[key] = _shot_odds(key)
    dists = [per_shot[replace(s, label="")] for s in plan.specs]
    if plan.mode == "single":
        melee = plan.specs[0].split == "melee" and plan.specs[0].other is not None
        res.odds = Odds(_outcomes(dists[0], melee), _single_counts(plan.specs[0], dists[0]))
        return res
    if plan.mode == "following":
        casualties, reached = _following(plan.specs, dists)
        for spec, dist in zip(plan.specs, dists, strict=True):
            res.shots.append(_odds_shot(spec, dist))
        res.odds = Odds(
            {
                "no casualty": casualties.get(0, Fraction(0)),
                "at least one casualty": 1 - casualties.get(0, Fraction(0)),
            },
            {"casualties": casualties, "targets reached": reached},
        )
        return res
    # Fired into hand to hand, what struck a friend is counted apart (`_friends_apart`).
    melee = any(spec.split == "melee" and spec.other is not None for spec in plan.specs)
    own = True if melee else None
    each = [Distribution.of(_wounds(d, own)) for d in dists]
    # The total wounds of thousands of shots of multi-die damage: a distribution of tens of
    # thousands of sums of long integers. Past its budget only its mean is given.
    whole = len(per_shot) > 1 or each[0].power_cost(len(each)) <= POWER_BUDGET
    wounds = add_independent(each) if whole else None
    losses: Mapping[int, Fraction]
    if plan.mode == "unit":
        losses = _unit_casualties(plan, dists)
    else:  # the models under an area marker: a shot each
        losses = add_independent(_casualty(d, own) for d in dists)
    counts: dict[str, Mapping[int, Fraction]] = {"casualties": losses}
    if melee:
        counts["wounds on friends"] = add_independent(Distribution.of(_wounds(d, False))
                                                      for d in dists)  # fmt: skip
    if wounds is not None:
        counts["wounds"] = wounds
    else:
        total = sum(w.mean() for w in each)
        res.explanation.append(
            f"wounds: mean {float(total):.2f}; the odds of each of the "
            f"{max(each[0]) * len(each) + 1:,} totals of {len(each):,} shots are left out "
            "(they take too long to work out exactly: ask about fewer shots for them)"
        )
    a_model_a_shot = plan.mode != "unit" or (
        len(plan.left) == len(plan.specs) and not plan.numbered and plan.share == "spread"
    )
    if len(per_shot) == 1 and a_model_a_shot:
        res.fields["odds_per"] = "shot"
        outcomes = _outcomes(dists[0], melee)
    else:
        if len(per_shot) > 1:
            res.shots = [
                _odds_shot(spec, dist) for spec, dist in zip(plan.specs, dists, strict=True)
            ]
        outcomes = {
            "no casualty": losses.get(0, Fraction(0)),
            "at least one casualty": 1 - losses.get(0, Fraction(0)),
        }
    if plan.deviation is not None:
        outcomes, counts = _on_target(plan.deviation, outcomes, counts, res)
    res.odds = Odds(outcomes, counts)
    return res


def _on_target(deviation: Any, outcomes: dict, counts: dict, res: Resolution) -> tuple:
    """An area marker that may deviate: the odds of its landing, then those of the shot as
    they are with the marker on target (a deviated one is resolved again with --placed)."""
    from fractions import Fraction

    from hc_cli.core.odds import enumerate_outcomes

    deviates = enumerate_outcomes(lambda d: deviation_roll(deviation, d), lambda r: r.outcome)
    on_target = deviates.get("on-target", Fraction(0))
    res.explanation.append(
        "the odds below the deviation are for the marker on target; a "
        "deviated marker is resolved again with --placed"
    )
    outcomes = {
        "deviated": deviates.get("deviated", Fraction(0)),
        **{f"on target, {k}": v * on_target for k, v in outcomes.items()},
    }
    # Said as what they are: the counts of a marker on target, not of the throw.
    return outcomes, {f"{name} if on target": dist for name, dist in counts.items()}


def _unit_casualties(plan: Any, dists: list[dict]) -> Distribution:
    """Casualties of a volley at a unit's models, shared out as `share_out` shares them: the
    wounds on each model add up in the order fired, past its wounds left they are lost, and a
    mount or a friend struck instead is a casualty of its own. `spread`: each model takes the
    shots aimed at it, independently of the others (a model a shot: one shot's own odds);
    `next-standing`: the wounds fall on one model after another, followed shot by shot."""
    from hc_cli.core.odds import add_independent

    left = plan.left
    if plan.share != "spread":
        return _walk(dists, list(left))
    groups: dict[tuple, list] = {}  # models alike (wounds left, the shots aimed at them)
    for model in range(min(len(left), len(dists))):
        aimed = dists[model :: len(left)]
        key = (left[model], tuple(id(d) for d in aimed))
        groups.setdefault(key, [left[model], aimed, 0])[2] += 1
    per_model = []
    for wounds_left, aimed, copies in groups.values():
        per_model += [_walk(aimed, [wounds_left])] * copies
    return add_independent(per_model)


def _walk(dists: list[dict], left: list[int]) -> Distribution:
    """Casualties after the shots of `dists` in order, their wounds on the models of `left`
    one after another (each until removed): (models removed, wounds on the next one,
    casualties) followed shot by shot, in whole-number weights (a fraction's gcd at every
    step was most of the time: 2.4 s at 1,000 shots of d10 damage, 0.5 s so)."""
    import math

    from hc_cli.core.odds import Distribution

    def after(state: tuple[int, int, int], outcome: tuple) -> tuple[int, int, int]:
        removed, on, kills = state
        what, wounds, own = outcome
        if not own:
            return (removed, on, kills + (what == "casualty"))
        if wounds and removed < len(left):
            if on + wounds >= left[removed]:
                return (removed + 1, 0, kills + 1)
            return (removed, on + wounds, kills)
        return state

    # The states the walk reaches do not depend on the chances: counted first, so a walk too
    # long is refused at once.
    reached = {(0, 0, 0)}
    work = 0
    for dist in dists:
        work += len(reached) * len(dist)
        _within_reach(
            work,
            f"{len(dists)} shots at {len(left)} models",
            "ask about fewer shots or models, or volley-shares = spread",
        )
        reached = {after(state, outcome) for state in reached for outcome in dist}
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    denominator = 1
    shot_weights: dict[int, tuple[dict[tuple, int], int]] = {}  # a shot's odds, once each
    for dist in dists:
        if id(dist) not in shot_weights:
            d = Distribution.of({n: p for n, p in enumerate(dist.values())})
            weights = dict(zip(dist, (d.weights.get(n, 0) for n in range(len(dist))), strict=True))
            shot_weights[id(dist)] = weights, d.denominator
        weights, below = shot_weights[id(dist)]
        going: dict[tuple[int, int, int], int] = {}
        for state, p in states.items():
            for outcome, q in weights.items():
                key = after(state, outcome)
                going[key] = going.get(key, 0) + p * q
        states, denominator = going, denominator * below
    out: dict[int, int] = {}
    for (_, _, kills), p in states.items():
        out[kills] = out.get(kills, 0) + p
    common = math.gcd(denominator, *out.values())  # a few casualty counts: cheap, and exact
    return Distribution({k: w // common for k, w in out.items()}, denominator // common)


def _within_reach(work: int, asked: str, fix: str) -> None:
    """A walk of the states of wounds past MAX_PATHS steps is refused, naming what was asked."""
    from hc_cli.core.dice import TooManyOutcomes
    from hc_cli.core.odds import MAX_PATHS

    if work > MAX_PATHS:
        raise TooManyOutcomes(
            f"--odds for {asked} would follow more than {MAX_PATHS:,} states of wounds", fix
        )


def _odds_shot(spec: ShotSpec, dist: dict) -> Resolution:
    shot = new_resolution("fire", {})
    shot.label = spec.label
    shot.fields.update(
        needed_to_hit=spec.needed_to_hit,
        needed_to_wound=spec.victim.needed_to_wound,
        needed_to_save=spec.victim.needed_to_save,
    )
    shot.odds = Odds(_outcomes(dist))
    return shot


def _following(
    specs: list[ShotSpec], dists: list[dict]
) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """Casualties and targets reached along a following-fire chain: each shot is independent,
    the chain goes on only after wound damage, a model shot at again keeps its wounds, and a
    model already removed is passed over (no shot is spent on it)."""
    from fractions import Fraction

    # (wounds taken by each model shot at so far and shot at again later, casualties, shots
    # fired) -> probability, chain going. A model no later target names drops out of the
    # state: its wounds can no longer matter.
    State = tuple[tuple[tuple[str, int], ...], int, int]
    states: dict[State, Fraction] = {((), 0, 0): Fraction(1)}
    done: dict[int, Fraction] = {}
    reached: dict[int, Fraction] = {}
    later = [{s.model for s in specs[n + 1 :]} for n in range(len(specs))]
    work = 0

    def end(kills: int, fired: int, p: Fraction) -> None:
        done[kills] = done.get(kills, Fraction(0)) + p
        reached[fired] = reached.get(fired, Fraction(0)) + p

    for n, (spec, dist) in enumerate(zip(specs, dists, strict=True)):
        work += len(states) * len(dist)
        _within_reach(
            work,
            f"following fire along {len(specs)} targets",
            "ask about fewer targets, or fewer models shot at more than once",
        )
        going: dict[State, Fraction] = {}
        left = spec.victim.wounds_left
        for (taken, kills, fired), p in states.items():
            now = dict(taken)
            before = now.get(spec.model, 0)
            if before >= left:  # removed already: on to the next listed model
                going[(taken, kills, fired)] = going.get((taken, kills, fired), Fraction(0)) + p
                continue
            for (outcome, wounds, own), q in dist.items():
                if outcome not in WOUND_DAMAGE:  # a miss or no wound ends the chain here
                    end(kills, fired + 1, p * q)
                    continue
                after, more = dict(now), kills
                if own:
                    more += before < left <= before + wounds
                    after[spec.model] = min(before + wounds, left)
                else:  # the mount or the friend: a model of its own
                    more += outcome == "casualty"
                kept = tuple(sorted((m, w) for m, w in after.items() if m in later[n]))
                key = (kept, more, fired + 1)
                going[key] = going.get(key, Fraction(0)) + p * q
        states = going
    for (_, kills, fired), p in states.items():  # the list walked to its end
        end(kills, fired, p)
    return dict(sorted(done.items())), dict(sorted(reached.items()))

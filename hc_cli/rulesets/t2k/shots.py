"""Twilight: 2000 shots rolled: `fire_dice` decides every die of a shot, burst or throw in the
table's order (task dice, danger zone, a rider's miss, then each hit's location and damage).
Pure."""

from __future__ import annotations

from hc_cli.core.dice import DiceSource
from hc_cli.core.model import Resolution
from hc_cli.core.plans import planned
from hc_cli.core.words import count
from hc_cli.rulesets.t2k.damage import land_hits
from hc_cli.rulesets.t2k.request import FirePlan, FireRequest, new_resolution
from hc_cli.rulesets.t2k.shooting import plan_fire
from hc_cli.rulesets.t2k.tables import T2kTables
from hc_cli.rulesets.t2k.thrown import deviate_grenade


def fire_dice(
    plan: FirePlan, dice: DiceSource, effects: bool = True, dead: frozenset[str] = frozenset()
) -> Resolution:
    """Every die of a Twilight: 2000 shot, burst or throw: the one place they are decided. The
    table's order: the task dice, the danger zone's, a rider's miss, then where each hit lands
    and its damage (the target's hits, then the zone's, then the other's). `effects` False
    leaves out the hits' location and damage dice: the odds combine those per hit. `dead`: who
    an earlier burst of the action killed outright ("" the target): no die for their hits."""
    res = new_resolution("fire", {})
    say = res.explanation.append
    die = plan.task_die
    if plan.kind == "aimed-burst":
        return _aimed_burst(plan, dice, effects, res)
    if plan.dice == 1 and plan.kind in ("single", "thrown"):
        rolls = [dice.roll(die, "to hit")]
    else:
        rolls = dice.pool(plan.dice, die, plan.hit_number, "to hit")
    res.rolls.extend(rolls)
    successes = sum(r.value <= plan.hit_number for r in rolls)
    hits = successes * plan.hits_count
    misses = len(rolls) - successes
    say(
        f"{count(len(rolls), 'die')} at {plan.hit_number} or less: "
        + count(successes, "hit")
        + (f" x {plan.hits_count} = {hits}" if plan.hits_count > 1 else "")
    )
    outcome = "hit" if hits else "miss"
    zone_hits = _danger_zone(plan, misses, dice, res) if plan.kind == "burst" else {}
    other = _riders(plan, misses, dice, res) if plan.riders_percent is not None else 0
    if plan.kind == "thrown" and hits and plan.grenade:
        say("the grenade lands on its target")
    if plan.kind == "thrown" and not hits and plan.grenade:
        fields, more, text = deviate_grenade(*plan.grenade, dice)
        res.rolls.extend(more)
        res.fields.update(fields)
        say(text)
    if plan.effects is not None and effects:
        if hits:
            killed, res.fields["hit_effects"] = land_hits(
                plan.effects, hits, dice, res, dead="" in dead
            )
            outcome = "quick-kill" if killed else outcome
        zone_effects, zone_kills = {}, []
        for name, n in zone_hits.items():
            if n:
                killed_there, zone_effects[name] = land_hits(
                    plan.effects, n, dice, res, name, name in dead
                )
                if killed_there:
                    zone_kills.append(name)
        if zone_effects:
            res.fields["zone_effects"] = zone_effects
        if zone_kills:  # NPCs of the zone (--zone-npc) killed outright
            res.fields["zone_kills"] = zone_kills
        if other:
            res.fields["other_effects"] = land_hits(
                plan.effects, other, dice, res, who="the other"
            )[1]
        if plan.kind == "thrown" and hits:
            res.fields["damage"] = res.fields["hit_effects"][0]["damage"]
    if outcome == "miss" and other:
        outcome = "hit-other"
    _say_result(res, plan, rolls, hits, outcome)
    return _done(res, hits, outcome)


def _aimed_burst(plan: FirePlan, dice: DiceSource, effects: bool, res: Resolution) -> Resolution:
    """ "Aimed burst: If a hit is rolled roll d3 and determine hit location and damage
    normally": one task die, then a d3 of hits."""
    say, die = res.explanation.append, plan.task_die
    roll = dice.roll(die, "aimed burst")
    res.rolls.append(roll)
    if roll.value > plan.hit_number:
        say(f"aimed burst: {roll.value} > {plan.hit_number}: miss")
        _say_result(res, plan, [roll], 0, "miss")
        return _done(res, 0, "miss")
    many = dice.roll(3, "hits (d3)")
    res.rolls.append(many)
    hits = many.value * plan.hits_count
    say(
        f"aimed burst: {roll.value} <= {plan.hit_number}: hit; d3 = {many.value}"
        + (f" x {plan.hits_count}" if plan.hits_count > 1 else "")
        + f": {count(hits, 'hit')}"
    )
    killed = False
    if effects and plan.effects is not None:
        killed, res.fields["hit_effects"] = land_hits(plan.effects, hits, dice, res)
    _say_result(res, plan, [roll], hits, "quick-kill" if killed else "hit")
    return _done(res, hits, "quick-kill" if killed else "hit")


def _say_result(res: Resolution, plan: FirePlan, rolls: list, hits: int, outcome: str) -> None:
    """The headline in the game's words first, then the dice that decided it: "no hit of 3
    dice", "hit, chest 9 damage: d20 3, needs 12 or less", "1 hit of 5 dice: arm 11 damage;
    zone: nguyen 1 (chest 12 damage)". Each hit's damage is said beside whom it struck."""

    def landed(effects: list) -> str:
        return "; ".join(
            e["location"] + (f" {e['damage']} damage" if e["damage"] is not None else "")
            for e in effects
        )

    target = landed(res.fields.get("hit_effects", []))
    zone = res.fields.get("zone_hits") or {}
    zone_effects = res.fields.get("zone_effects") or {}
    killed = set(res.fields.get("zone_kills") or [])
    zone_words = ", ".join(
        f"{name} {n}"
        + (f" ({landed(zone_effects[name])}" + (", killed" if name in killed else "") + ")"
           if zone_effects.get(name) else "")
        for name, n in zone.items()
    )  # fmt: skip
    if len(rolls) > 1:  # a burst, or single shots fired together
        what = "shot" if plan.kind == "single" else "die"
        said = ("no hit" if not hits else count(hits, "hit")) + f" of {count(len(rolls), what)}"
        if outcome == "quick-kill":
            said = "quick kill, " + said
        elif outcome == "hit-other":
            said += ", but a miss hits the other"
        res.headline = (
            said
            + (f": {target}" if target else "")
            + (f"; zone: {zone_words}" if zone_words else "")
        )
        return
    words = {"miss": "no hit", "hit": "hit", "quick-kill": "quick kill", "hit-other":
             "no hit, but it hits the other"}.get(outcome, outcome)  # fmt: skip
    if plan.kind == "aimed-burst" and hits:  # a d3 of hits
        words = count(hits, "hit") if outcome == "hit" else f"quick kill, {count(hits, 'hit')}"
    die = f"{rolls[0].die} {rolls[0].value}, needs {plan.hit_number} or less" if rolls else ""
    res.headline = words + (f", {target}" if target else "") + (f": {die}" if die else "")


def _riders(plan: FirePlan, misses: int, dice: DiceSource, res: Resolution) -> int:
    """'Firing at riders any missed single shot has a 1-% chance of hitting the other than the
    target': a D100 for each missed shot. Returns how many hit the other (horse or rider)."""
    assert plan.riders_percent is not None
    other = 0
    rolls = dice.pool(misses, 100, plan.riders_percent, "riders: the other")
    res.rolls.extend(rolls)
    for n, roll in enumerate(rolls, 1):
        which = f" (miss {n})" if misses > 1 else ""
        if roll.value <= plan.riders_percent:
            other += 1
            res.explanation.append(
                f"D100 {roll.value} <= {plan.riders_percent}: the miss{which} hits the other "
                "(horse or rider)"
            )
        else:
            res.explanation.append(
                f"D100 {roll.value} > {plan.riders_percent}: the miss{which} hits nothing"
            )
    res.fields["hit_other"] = other > 0
    res.fields["other_hits"] = other
    return other


def _danger_zone(plan: FirePlan, misses: int, dice: DiceSource, res: Resolution) -> dict[str, int]:
    """Half the missed dice at the danger zone's targets, nearest first; their hits by name."""
    again = misses // 2
    res.fields["zone_dice"] = again
    if not plan.zone:
        kept, why = _kept(plan, misses, again, 0, res)
        res.fields.update(zone_hits={}, kept_back=kept)
        res.explanation.append(
            f"danger zone: no targets for {count(again, 'die')} (half the misses); "
            f"{count(kept, 'die')} kept for targets entering the zone ({why})"
        )
        return {}
    rolls = dice.pool(again, plan.task_die, plan.hit_number, "danger zone")
    res.rolls.extend(rolls)
    struck = sum(r.value <= plan.hit_number for r in rolls)
    hits = struck * plan.hits_count
    names = [name for name, _ in plan.zone]
    # Hits go to the zone's targets nearest first, one each, round again if more hits.
    zone_hits = {name: 0 for name in names}
    for i in range(hits):
        zone_hits[names[i % len(names)]] += 1
    kept, why = _kept(plan, misses, again, struck, res)
    res.fields.update(zone_hits=zone_hits, kept_back=kept)
    res.explanation.append(
        f"danger zone: half the {count(misses, 'miss')} = {count(again, 'die')} at "
        f"{plan.hit_number}: {count(hits, 'hit')} ("
        + ", ".join(f"{n} {h}" for n, h in zone_hits.items())
        + f"); {count(kept, 'die')} kept for targets entering the zone ({why})"
    )
    return zone_hits


def _kept(plan: FirePlan, misses: int, again: int, struck: int, res: Resolution) -> tuple[int, str]:
    """ "Half of the remainder after the second roll": of what, the reading zone-dice-remainder
    says; it is named where another of its alternatives would keep another number."""
    left = {
        "zone-misses": (
            again - struck,
            "the {} of the zone that missed"
            if plan.zone
            else "the {} of the zone, with no one to roll at",
        ),
        "not-rolled": (misses - again, "the {} not rolled at the zone"),
        "all-left": (misses - struck, "the {} no zone hit used"),
    }
    choice, note = plan.remainder
    remainder, what = left[choice]
    if note and len({n // 2 for n, _ in left.values()}) > 1 and note not in res.readings:
        res.readings.append(note)
    return remainder // 2, "half " + what.format(count(remainder, "die"))


def _done(res: Resolution, hits: int, outcome: str) -> Resolution:
    res.outcome = outcome
    res.fields["hits"] = hits
    return res


def resolve_fire(t: T2kTables, req: FireRequest, dice: DiceSource) -> Resolution:
    res, plan = planned(t, req, plan_fire)  # a batch of seeded fires plans once
    res = res.fresh()
    if plan.kind != "burst" or req.shots == 1:
        res.absorb(fire_dice(plan, dice))
        return res
    # Several bursts in one action: each loses dice to range and recoil as the first did; one
    # killed outright by an earlier burst takes its later hits dead (no die rolled for them).
    dead: frozenset[str] = frozenset()
    for n in range(1, req.shots + 1):
        burst = fire_dice(plan, dice, dead=dead)
        burst.label = f"burst {n}"
        res.shots.append(burst)
        killed = [""] if burst.outcome == "quick-kill" else []
        dead = dead.union(killed, burst.fields.get("zone_kills") or ())
    hits = sum(b.fields["hits"] for b in res.shots)
    res.fields["hits"] = hits
    res.outcome = (
        "quick-kill"
        if any(b.outcome == "quick-kill" for b in res.shots)
        else ("hit" if hits else "miss")
    )
    res.summary = {"bursts": req.shots, "dice": plan.dice * req.shots, "hits": hits}
    res.headline = (
        f"{count(hits, 'hit')} of {count(req.shots, 'burst')} ({count(plan.dice, 'die')} each)"
    )
    if plan.zone:
        zone = {
            name: sum(b.fields["zone_hits"].get(name, 0) for b in res.shots)
            for name, _ in plan.zone
        }
        res.fields["zone_hits"] = zone
        res.summary["zone_hits"] = zone
        res.headline += "; zone: " + ", ".join(f"{n} {h}" for n, h in zone.items())
    return res

"""Twilight: 2000 direct fire, planned: `plan_fire` turns a request into a `FirePlan` (the
skill, every step that moved the difficulty, the hit number with recoil, the dice of a burst or
throw), fixed before a die is rolled. Pure."""

from __future__ import annotations

from dataclasses import replace

from hc_cli.core.errors import HcError, did_you_mean
from hc_cli.core.model import Modifier, Resolution
from hc_cli.rulesets.t2k.bursts import (
    auto_shotgun_short_hit,
    plan_burst,
    plan_pellets,
    recoil_lowers,
    single_shot_recoil,
)
from hc_cli.rulesets.t2k.request import (
    SHOT_KINDS,
    Fire,
    FirePlan,
    FireRequest,
    new_resolution,
)
from hc_cli.rulesets.t2k.tables import BANDS, Movement, T2kTables, Weapon
from hc_cli.rulesets.t2k.task import (
    difficulty_mods,
    effective_strength,
    firer_asset,
    hit_effects,
    mount_paces,
    range_band,
    target_speed_levels,
    weapon_of,
)
from hc_cli.rulesets.t2k.thrown import plan_thrown
from hc_cli.tables import readings

MULTIPLIERS = "difficulty multipliers (Twilight: 2000 2nd ed.; the seed names the levels only)"


def plan_fire(t: T2kTables, req: FireRequest) -> tuple[Resolution, FirePlan]:
    if req.shot not in SHOT_KINDS:
        raise HcError(
            f"--shot {req.shot} is not a kind of shot",
            did_you_mean(req.shot, SHOT_KINDS, "aimed, quick, aimed-burst or burst"),
        )
    res = new_resolution(
        "fire",
        {
            "asset": req.asset,
            "range": req.range,
            "shot": req.shot,
            "shots": req.shots,
            "movement": req.movement,
        },
    )
    asset = firer_asset(t, req, res)
    weapon = weapon_of(t, req, res)
    moving = _moving(t, req, res)
    aimed = req.shot in ("aimed", "aimed-burst") and not req.thrown
    asset = _from_the_saddle(req, moving, aimed, asset, res)
    if req.thrown:
        return plan_thrown(t, req, weapon, asset, res)
    if req.shots < 1:
        raise HcError(f"--shots {req.shots} fires nothing", "give --shots 1 or more")
    if req.scope and (weapon.type != "rifle" or weapon.ammo):
        raise HcError(
            f"--scope: the text gives rifle scopes; {weapon.key} is a {weapon.type}",
            "leave out --scope",
        )
    strength = effective_strength(t, req, moving, res)
    band = range_band(t, req, weapon, res)
    ammo = _shotgun_ammo(t, weapon, band, res)
    band = _scope_band(req, band, aimed, res)
    steps: list[Modifier] = []
    shifted = band + _moving_band_shift(req, moving, aimed, steps)
    _check_bursts(req, weapon, t.rule("bursts-per-action"), res)
    if req.shot == "burst":
        shifted += _burst_target_speed(t, req, res, steps)
    effects = hit_effects(t, req, weapon, res)
    average = t.difficulty_named("average").rank
    # From a moving vehicle a shotgun's quick shot or burst is "at one higher range band"
    # too: the band decides whether it is a single shot or a pellet burst, and its dice.
    if ammo is not None and shifted > BANDS.index(ammo[0]):
        raise HcError(
            f"{weapon.ammo} reaches only {ammo[0]} range, and {req.movement} fire is one band "
            "further: no shot",
            f"close within {res.fields['bands'][BANDS[BANDS.index(ammo[0]) - 1]]:g} m",
        )
    fire = Fire(req, weapon, res, asset, strength, effects, steps)
    if req.shot == "burst" or (ammo is not None and shifted >= 1):
        return res, _plan_automatic(t, fire, shifted, ammo)
    rank, scope_easier = _difficulty_rank(t, fire, average + shifted, band, aimed)
    return res, _plan_task(t, fire, rank, band, aimed and req.scope and not scope_easier)


def _moving(t: T2kTables, req: FireRequest, res: Resolution) -> Movement:
    """Moving and firing: "No firing while crawling or running"; from the saddle, "the same as
    on foot except, movement rate is based on the animal"."""
    moving = t.movement.get(req.movement)
    if moving is None:
        from hc_cli.core.errors import UnknownName

        raise UnknownName("movement", req.movement, t.movement)
    if not moving.may_fire:
        raise HcError(f"no firing while {req.movement}", "stop, walk or trot to fire")
    if req.riding is not None and not moving.lower_of_riding:
        raise HcError(
            "--riding is the riding asset, for fire from the saddle",
            "add --movement saddle, or leave out --riding",
        )
    if req.gait is None:
        return moving
    if not moving.lower_of_riding:
        raise HcError("--gait is the mount's pace, for --movement saddle", "leave out --gait")
    paces = mount_paces(t)
    gait = t.movement.get(req.gait)
    if gait is None or req.gait not in paces:
        listed = "a mount's paces: " + ", ".join(paces)
        raise HcError(  # a movement that is no pace (crawling) is no typo
            f"--gait {req.gait} is no pace of a mount",
            listed if gait is not None else did_you_mean(req.gait, paces, listed),
        )
    res.explanation.append(f"from the saddle, the mount {req.gait}: as on foot at that pace")
    moving = replace(gait, lower_of_riding=True, key=f"saddle, {req.gait}")
    if not moving.may_fire:
        slower = [p for p in paces if t.movement[p].may_fire]
        raise HcError(
            f"no firing from a mount that is {req.gait}",
            "slow the mount to fire: " + ", ".join(slower),
        )
    return moving


def _from_the_saddle(
    req: FireRequest, moving: Movement, aimed: bool, asset: int, res: Resolution
) -> int:
    """ "No aimed shots while walking or trotting"; from the saddle the skill used is
    "marksmanship skill or riding witch ever is lower"."""
    if aimed and not moving.may_aim:
        doing = "in a moving vehicle" if req.movement == "vehicle" else req.movement
        raise HcError(
            f"no aimed shots while {doing}",
            "fire a quick shot or a burst (--shot quick / --shot burst)",
        )
    if not moving.lower_of_riding:
        return asset
    if req.riding is None:
        raise HcError(
            "firing from the saddle uses the lower of marksmanship and riding",
            "give --riding N (the riding asset)",
        )
    if req.riding < asset:
        res.explanation.append(f"from the saddle: riding {req.riding} is lower than {asset}: used")
        return req.riding
    return asset


def _shotgun_ammo(
    t: T2kTables, weapon: Weapon, band: int, res: Resolution
) -> tuple[str, list[str]] | None:
    """A shotgun's ammunition (its furthest band, its penetration by band): "Buck shot maximum
    range is medium, flechettes is long"."""
    ammo = t.ammunition.get(weapon.ammo) if weapon.ammo else None
    if ammo is None:
        return None
    if band > BANDS.index(ammo[0]):
        raise HcError(
            f"{weapon.ammo} reaches only {ammo[0]} range: no shot",
            f"close within {res.fields['bands'][ammo[0]]:g} m",
        )
    pens = ammo[1]
    res.fields["penetration"] = pens[band] if band < len(pens) else "nil"
    return ammo


def _scope_band(req: FireRequest, band: int, aimed: bool, res: Resolution) -> int:
    """Rifle scopes: "Extreme range shots are as if at long range", every shot."""
    if req.scope and band == 3:
        res.fields.update(band=BANDS[2], measured_band=BANDS[3])
        res.explanation.append("rifle scope: an Extreme range shot counts as Long")
        return 2
    if req.scope and not aimed:
        res.explanation.append(
            "rifle scope: no effect on this shot (its +15 is for aimed shots; Extreme counts "
            "as Long, and this shot is within Long)"
        )
    return band


def _moving_band_shift(
    req: FireRequest, moving: Movement, aimed: bool, steps: list[Modifier]
) -> int:
    """From a moving vehicle "quick shots and bursts are normal except at one higher range
    band"; "aimed shots are allowed from boats but at one higher range band"."""
    shift = 0
    if moving.quick_band_shift and not aimed:
        shift += moving.quick_band_shift
        steps.append(
            Modifier(
                f"{req.movement}: one range band further",
                moving.quick_band_shift,
                "range band",
                moving.source,
            )
        )
    if moving.aimed_band_shift and aimed:
        shift += moving.aimed_band_shift
        steps.append(
            Modifier(
                f"{req.movement}: aimed shots one range band further",
                moving.aimed_band_shift,
                "range band",
                moving.source,
            )
        )
    return shift


def _check_bursts(req: FireRequest, weapon: Weapon, bursts: int, res: Resolution) -> None:
    """ "A fully automatic weapon can fire 5 burst of it's ROF in a burst in a action"; the
    danger zone takes a burst's missed dice; riders are hit by a missed single shot."""
    burst_kind = req.shot in ("burst", "aimed-burst")
    if burst_kind and not weapon.burst:
        raise HcError(
            f"{weapon.key} fires no bursts",
            "give --shot aimed or quick, or --rof N for a burst size",
        )
    if req.shot == "aimed-burst" and req.shots != 1:
        raise HcError("an aimed burst is one task", "leave out --shots with --shot aimed-burst")
    if req.shot == "burst" and not 1 <= req.shots <= bursts:
        raise HcError(
            f"--shots {req.shots}: a fully automatic weapon fires up to {bursts} bursts an action",
            f"give --shots 1..{bursts} with --shot burst",
        )
    if req.kept and (req.shot != "burst" or req.shots != 1 or req.zone or req.ammo):
        raise HcError(
            "--kept rolls dice a burst kept for its danger zone, at one target entering it",
            "give --shot burst --kept N, without --shots, --zone or --ammo",
        )
    # Rounds this action uses: a burst holds the weapon's ROF in rounds (a game counts them);
    # dice kept for the zone were fired with their burst.
    res.fields["rounds"] = (
        0 if req.kept else (weapon.burst or 0) * req.shots if burst_kind else req.shots
    )
    if (req.zone or req.zone_npc) and req.shot != "burst":
        raise HcError(
            "--zone is for bursts: the danger zone takes a burst's missed dice",
            "add --shot burst, or leave out --zone" + (" and --zone-npc" if req.zone_npc else ""),
        )
    if req.riders and burst_kind:
        raise HcError(
            "--riders applies to a missed single shot; a burst is no single shot",
            "fire aimed or quick shots (--shot aimed / --shot quick)",
        )


def _burst_target_speed(
    t: T2kTables, req: FireRequest, res: Resolution, steps: list[Modifier]
) -> int:
    """A burst's dice are Impossible already: a moving target ("Using automatic fire increase
    range band by one") moves its band, as the reading automatic-fire-band says."""
    if req.obscured:
        raise HcError(
            "--obscured makes a task one level harder; every die of a burst is Impossible already",
            "leave out --obscured for a burst",
        )
    levels, why = target_speed_levels(t, req)
    if not levels:
        return 0
    if readings.choose(t.merged, "automatic-fire-band", res) != "moving-target":
        raise HcError(
            "--target-speed/--target-kph make a task harder; every die of a burst is "
            "Impossible whatever the speed (reading automatic-fire-band = aimed-burst)",
            "leave them out for a burst, or switch the reading to moving-target",
        )
    steps.append(Modifier(f"automatic fire at a {why}", 1, "range band", "seed 002"))
    return 1


def _plan_automatic(
    t: T2kTables, fire: Fire, shifted: int, ammo: tuple[str, list[str]] | None
) -> FirePlan:
    """Automatic fire ("each individual shot is resolved using impossible difficulty"), and a
    shotgun beyond Short ("treat as a 10 round burst"); an automatic shotgun at Short rolls "direct
    fire tasks for each round in the burst"."""
    req, weapon, res = fire.req, fire.weapon, fire.res
    if req.shot == "burst" and ammo is not None and shifted == 0:
        res.modifiers.extend(fire.steps)
        return plan_burst(t, fire, shifted, auto_shotgun_short_hit(t, fire), ammo)
    if ammo is not None and req.riders:
        raise HcError(
            f"--riders applies to a missed single shot; {weapon.key} beyond Short fires a "
            f"{t.rule('shotgun-pellets')}-round pellet burst",
            f"leave out --riders, or close within Short ({res.fields['bands'][BANDS[0]]:g} m)",
        )
    if req.mods:
        raise HcError(
            "--mod changes a task's difficulty; every die of a burst is Impossible "
            "whatever the difficulty",
            "leave out --mod for a burst",
        )
    res.modifiers.extend(fire.steps)
    impossible = t.difficulties[-1]
    hit = t.hit_number(fire.asset, impossible)
    res.fields.update(difficulty=impossible.key, hit_number=hit)
    res.explanation.append(
        f"every die is an {impossible.key} task: asset {fire.asset} x "
        f"{impossible.multiplier:g} = {hit}"
    )
    res.note_source(impossible, "multiplier", MULTIPLIERS)
    if ammo is not None and req.shot != "burst":
        return plan_pellets(t, fire, shifted, hit)
    return plan_burst(t, fire, shifted, hit, ammo)


def _difficulty_rank(
    t: T2kTables, fire: Fire, rank: int, band: int, aimed: bool
) -> tuple[int, bool]:
    """ "Hitting a target at short range with an aimed shot is an average task"; each range
    step, a quick shot, an obscured or moving target a level harder (a rifle scope on an aimed
    shot, by the reading scope-bonus, one easier: said by the second of what it returns);
    every step shown, --mod's too."""
    req, res, steps = fire.req, fire.res, fire.steps
    res.explanation.append(
        "an aimed shot at Short is Average; each modifier below is a level harder"
    )
    if band:
        steps.append(Modifier(f"{BANDS[band]} range", band, "difficulty", "seed 002"))
    if req.shot == "quick":
        rank += 1
        steps.append(Modifier("quick shot", 1, "difficulty", "seed 002"))
    if req.shot == "aimed-burst":
        if readings.choose(t.merged, "aimed-burst-difficulty", res) == "one-band-further":
            rank += 1
            steps.append(
                Modifier("automatic fire: one range band further", 1, "difficulty", "seed 002")
            )
    if req.obscured:
        rank += 1
        steps.append(Modifier("target obscured", 1, "difficulty", "seed 002"))
    levels, why = target_speed_levels(t, req)
    if levels:
        rank += levels
        steps.append(Modifier(why, levels, "difficulty", "seed 002"))
    scope_easier = bool(
        req.scope and aimed and readings.choose(t.merged, "scope-bonus", res) == "one-level-easier"
    )
    if scope_easier:
        rank -= 1
        steps.append(Modifier("rifle scope, aimed", -1, "difficulty", "seed 002"))
    mods = difficulty_mods(t, req, res)
    rank += sum(m.value for m in mods)
    steps += mods
    res.modifiers.extend(steps)
    return max(rank, 0), scope_easier


def _plan_task(t: T2kTables, fire: Fire, rank: int, band: int, scope_bonus: bool) -> FirePlan:
    """One task a shot: the difficulty's hit number (with `scope_bonus`, "increase by 15 for
    aimed shots"), lowered by recoil; an aimed burst is one task whose hit rolls d3 hits."""
    req, weapon, res = fire.req, fire.weapon, fire.res
    if rank >= len(t.difficulties):
        raise HcError(
            f"harder than {t.difficulties[-1].key}: no shot",
            "get closer, aim, or wait for a clearer target",
        )
    difficulty = t.difficulty(rank)
    hit = t.hit_number(fire.asset, difficulty)
    res.note_source(difficulty, "multiplier", MULTIPLIERS)
    res.explanation.append(
        f"{difficulty.key}: asset {fire.asset} x {difficulty.multiplier:g} = {hit}"
    )
    if scope_bonus:
        readings.choose(t.merged, "scope-bonus", res)
        hit += t.rule("scope-bonus")
        res.explanation.append(f"rifle scope, aimed: +{t.rule('scope-bonus')} = {hit}")
    task_die = t.rule("task-die")
    if req.shot == "aimed-burst":
        size = weapon.burst or 1
        rule = t.burst(size)
        over = weapon.burst_recoil - fire.strength
        if over > 0:  # one task: recoil lowers its hit number, as for non-automatic fire;
            # "For 10 round bursts reduce the number by double the number exceeding"
            what = f"burst recoil {weapon.burst_recoil}"
            if rule.recoil_factor > 1:
                what += f", x{rule.recoil_factor} for a {rule.as_burst or size}-round burst"
            hit = recoil_lowers(t, hit, over * rule.recoil_factor, res, what, fire.strength)
        res.fields.update(difficulty=difficulty.key, hit_number=hit)
        return FirePlan(
            "aimed-burst", hit, 1, rule.hits_count, task_die=task_die, effects=fire.effects
        )
    hit = single_shot_recoil(t, fire, band, hit)
    res.fields.update(difficulty=difficulty.key, hit_number=hit)
    if req.riders:
        res.mark_sample(
            f"riders: a miss hits the other on {t.rule('riders-percent')}% "
            "(the seed's figure is garbled)"
        )
    return FirePlan(
        "single",
        hit,
        req.shots,
        effects=fire.effects,
        riders_percent=t.rule("riders-percent") if req.riders else None,
        task_die=task_die,
    )

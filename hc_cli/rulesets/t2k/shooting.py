"""Twilight: 2000 direct fire, planned: `plan_fire` turns a request into a `FirePlan` (the
skill, every step that moved the difficulty, the hit number with recoil, the dice of a burst or
throw), fixed before a die is rolled. Pure."""

from __future__ import annotations

from dataclasses import replace

from hc_cli.core.errors import HcError
from hc_cli.core.model import Modifier, Resolution
from hc_cli.rulesets.t2k.bursts import (
    _auto_shotgun_short_hit,
    _plan_burst,
    _plan_pellets,
    _recoil_lowers,
    _single_shot_recoil,
)
from hc_cli.rulesets.t2k.request import SHOT_KINDS, FirePlan, FireRequest, _new
from hc_cli.rulesets.t2k.tables import BANDS, T2kTables
from hc_cli.rulesets.t2k.task import (
    _asset,
    _band,
    _effective_strength,
    _effects,
    _mod_steps,
    _target_speed_levels,
    _weapon,
    mount_paces,
)
from hc_cli.rulesets.t2k.thrown import _plan_thrown
from hc_cli.tables import readings


def plan_fire(t: T2kTables, req: FireRequest) -> tuple[Resolution, FirePlan]:
    if req.shot not in SHOT_KINDS:
        raise HcError(
            f"--shot {req.shot} is not a kind of shot", "aimed, quick, aimed-burst or burst"
        )
    res = _new(
        "fire",
        {
            "asset": req.asset,
            "range": req.range,
            "shot": req.shot,
            "shots": req.shots,
            "movement": req.movement,
        },
    )
    asset = _asset(t, req, res)
    weapon = _weapon(t, req, res)
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
    if req.gait is not None:
        if not moving.lower_of_riding:
            raise HcError("--gait is the mount's pace, for --movement saddle", "leave out --gait")
        paces = mount_paces(t)
        gait = t.movement.get(req.gait)
        if gait is None or req.gait not in paces:
            raise HcError(
                f"--gait {req.gait} is no pace of a mount", "a mount's paces: " + ", ".join(paces)
            )
        # "the same as on foot except, movement rate is based on the animal"
        res.explanation.append(f"from the saddle, the mount {req.gait}: as on foot at that pace")
        moving = replace(gait, lower_of_riding=True, key=f"saddle, {req.gait}")
        if not moving.may_fire:
            slower = [p for p in paces if t.movement[p].may_fire]
            raise HcError(
                f"no firing from a mount that is {req.gait}",
                "slow the mount to fire: " + ", ".join(slower),
            )
    aimed = req.shot in ("aimed", "aimed-burst") and not req.thrown
    if aimed and not moving.may_aim:
        doing = "in a moving vehicle" if req.movement == "vehicle" else req.movement
        raise HcError(
            f"no aimed shots while {doing}",
            "fire a quick shot or a burst (--shot quick / --shot burst)",
        )
    if moving.lower_of_riding:
        if req.riding is None:
            raise HcError(
                "firing from the saddle uses the lower of marksmanship and riding",
                "give --riding N (the riding asset)",
            )
        if req.riding < asset:
            res.explanation.append(
                f"from the saddle: riding {req.riding} is lower than {asset}: used"
            )
            asset = req.riding
    if req.thrown:
        return _plan_thrown(t, req, weapon, asset, res)
    if req.shots < 1:
        raise HcError(f"--shots {req.shots} fires nothing", "give --shots 1 or more")
    if req.scope and (weapon.type != "rifle" or weapon.ammo):
        raise HcError(
            f"--scope: the text gives rifle scopes; {weapon.key} is a {weapon.type}",
            "leave out --scope",
        )
    strength = _effective_strength(t, req, moving, res)
    band = _band(t, req, weapon, res)
    steps: list[Modifier] = []
    ammo = t.ammunition.get(weapon.ammo) if weapon.ammo else None
    if ammo is not None:
        max_band = BANDS.index(ammo[0])
        if band > max_band:
            raise HcError(
                f"{weapon.ammo} reaches only {ammo[0]} range: no shot",
                f"close within {res.fields['bands'][ammo[0]]:g} m",
            )
        pens = ammo[1]
        res.fields["penetration"] = pens[band] if band < len(pens) else "nil"
    if req.scope and band == 3:  # "Extreme range shots are as if at long range": every shot
        band = 2
        res.fields.update(band=BANDS[band], measured_band=BANDS[3])
        res.explanation.append("rifle scope: an Extreme range shot counts as Long")
    elif req.scope and not aimed:
        res.explanation.append(
            "rifle scope: no effect on this shot (its +15 is for aimed shots; Extreme counts "
            "as Long, and this shot is within Long)"
        )
    shifted = band
    if moving.quick_band_shift and not aimed:
        shifted += moving.quick_band_shift
        steps.append(
            Modifier(
                f"{req.movement}: one range band further",
                moving.quick_band_shift,
                "range band",
                moving.source,
            )
        )
    if moving.aimed_band_shift and aimed:
        shifted += moving.aimed_band_shift
        steps.append(
            Modifier(
                f"{req.movement}: aimed shots one range band further",
                moving.aimed_band_shift,
                "range band",
                moving.source,
            )
        )

    burst_kind = req.shot in ("burst", "aimed-burst")
    if burst_kind and not weapon.burst:
        raise HcError(
            f"{weapon.key} fires no bursts",
            "give --shot aimed or quick, or --rof N for a burst size",
        )
    bursts = t.rule("bursts-per-action")
    if req.shot == "aimed-burst" and req.shots != 1:
        raise HcError("an aimed burst is one task", "leave out --shots with --shot aimed-burst")
    if req.shot == "burst" and not 1 <= req.shots <= bursts:
        raise HcError(
            f"--shots {req.shots}: a fully automatic weapon fires up to {bursts} bursts an action",
            f"give --shots 1..{bursts} with --shot burst",
        )
    # Rounds this action uses: a burst holds the weapon's ROF in rounds (a game counts them).
    res.fields["rounds"] = (weapon.burst or 0) * req.shots if burst_kind else req.shots
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
    if req.shot == "burst":
        if req.obscured:
            raise HcError(
                "--obscured makes a task one level harder; every die of a burst is Impossible "
                "already",
                "leave out --obscured for a burst",
            )
        levels, why = _target_speed_levels(t, req)
        if levels:
            if readings.choose(t.merged, "automatic-fire-band", res) != "moving-target":
                raise HcError(
                    "--target-speed/--target-kph make a task harder; every die of a burst is "
                    "Impossible whatever the speed (reading automatic-fire-band = aimed-burst)",
                    "leave them out for a burst, or switch the reading to moving-target",
                )
            shifted += 1
            steps.append(Modifier(f"automatic fire at a {why}", 1, "range band", "seed 002"))
    effects = _effects(t, req, weapon, res)

    task_die = t.rule("task-die")
    rank_average = t.difficulty_named("average").rank
    # From a moving vehicle a shotgun's quick shot or burst is "at one higher range band"
    # too: the band decides whether it is a single shot or a pellet burst, and its dice.
    pellets = ammo is not None and shifted >= 1
    if ammo is not None and shifted > BANDS.index(ammo[0]):
        raise HcError(
            f"{weapon.ammo} reaches only {ammo[0]} range, and {req.movement} fire is one band "
            "further: no shot",
            f"close within {res.fields['bands'][BANDS[BANDS.index(ammo[0]) - 1]]:g} m",
        )
    if req.shot == "burst" and ammo is not None and shifted == 0:
        res.modifiers.extend(steps)
        hit = _auto_shotgun_short_hit(t, req, asset, res)
        return res, _plan_burst(
            t, req, weapon, res, shifted, strength, hit, task_die, ammo, effects
        )
    if pellets and req.riders:
        raise HcError(
            f"--riders applies to a missed single shot; {weapon.key} beyond Short fires a "
            f"{t.rule('shotgun-pellets')}-round pellet burst",
            f"leave out --riders, or close within Short ({res.fields['bands'][BANDS[0]]:g} m)",
        )
    if (req.shot == "burst" or pellets) and req.mods:
        raise HcError(
            "--mod changes a task's difficulty; every die of a burst is Impossible "
            "whatever the difficulty",
            "leave out --mod for a burst",
        )
    if req.shot == "burst" or pellets:
        # Every round of a burst (and every pellet of a shotgun beyond Short) is Impossible.
        res.modifiers.extend(steps)
        impossible = t.difficulties[-1]
        hit = t.hit_number(asset, impossible)
        res.fields.update(difficulty=impossible.key, hit_number=hit)
        res.explanation.append(
            f"every die is an {impossible.key} task: asset {asset} x "
            f"{impossible.multiplier:g} = {hit}"
        )
        res.note_source(
            impossible,
            "multiplier",
            "difficulty multipliers (Twilight: 2000 2nd ed.; the seed names the levels only)",
        )
        if ammo is not None and req.shot != "burst":
            return res, _plan_pellets(
                t, req, weapon, res, shifted, strength, hit, task_die, effects
            )
        return res, _plan_burst(
            t, req, weapon, res, shifted, strength, hit, task_die, ammo, effects
        )

    rank = rank_average + shifted
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
    levels, why = _target_speed_levels(t, req)
    if levels:
        rank += levels
        steps.append(Modifier(why, levels, "difficulty", "seed 002"))
    scope_easier = (
        req.scope and aimed and readings.choose(t.merged, "scope-bonus", res) == "one-level-easier"
    )
    if scope_easier:
        rank -= 1
        steps.append(Modifier("rifle scope, aimed", -1, "difficulty", "seed 002"))
    mod_steps = _mod_steps(t, req, res)
    rank += sum(m.value for m in mod_steps)
    steps += mod_steps
    res.modifiers.extend(steps)
    rank = max(rank, 0)
    if rank >= len(t.difficulties):
        raise HcError(
            f"harder than {t.difficulties[-1].key}: no shot",
            "get closer, aim, or wait for a clearer target",
        )
    difficulty = t.difficulty(rank)
    hit = t.hit_number(asset, difficulty)
    res.note_source(
        difficulty,
        "multiplier",
        "difficulty multipliers (Twilight: 2000 2nd ed.; the seed names the levels only)",
    )
    res.explanation.append(f"{difficulty.key}: asset {asset} x {difficulty.multiplier:g} = {hit}")
    if req.scope and aimed and not scope_easier:
        readings.choose(t.merged, "scope-bonus", res)
        hit += t.rule("scope-bonus")
        res.explanation.append(f"rifle scope, aimed: +{t.rule('scope-bonus')} = {hit}")
    if req.shot == "aimed-burst":
        size = weapon.burst or 1
        rule = t.burst(size)
        over = weapon.burst_recoil - strength
        if over > 0:  # one task: recoil lowers its hit number, as for non-automatic fire;
            # "For 10 round bursts reduce the number by double the number exceeding"
            what = f"burst recoil {weapon.burst_recoil}"
            if rule.recoil_factor > 1:
                what += f", x{rule.recoil_factor} for a {rule.as_burst or size}-round burst"
            hit = _recoil_lowers(t, hit, over * rule.recoil_factor, res, what, strength)
        res.fields.update(difficulty=difficulty.key, hit_number=hit)
        return res, FirePlan(
            "aimed-burst", hit, 1, rule.hits_count, task_die=task_die, effects=effects
        )
    hit = _single_shot_recoil(t, req, weapon, band, strength, hit, res)
    res.fields.update(difficulty=difficulty.key, hit_number=hit)
    plan = FirePlan(
        "single",
        hit,
        req.shots,
        effects=effects,
        riders_percent=t.rule("riders-percent") if req.riders else None,
        task_die=task_die,
    )
    if req.riders:
        res.mark_sample(
            f"riders: a miss hits the other on {t.rule('riders-percent')}% "
            "(the seed's figure is garbled)"
        )
    return res, plan

"""Twilight: 2000 recoil, automatic fire and shotguns: how recoil lowers the hit number, the
dice of a burst and of a shotgun's pellets. Pure."""

from __future__ import annotations

from hc_cli.core.errors import HcError
from hc_cli.core.model import Resolution
from hc_cli.core.words import count
from hc_cli.rulesets.t2k.request import Fire, FirePlan, new_resolution
from hc_cli.rulesets.t2k.tables import BANDS, T2kTables
from hc_cli.rulesets.t2k.task import target_speed_levels
from hc_cli.rulesets.t2k.thrown import danger_zone
from hc_cli.tables import readings


def recoil_lowers(
    t: T2kTables, hit: int, over: int, res: Resolution, what: str, strength: int
) -> int:
    """Recoil above Strength lowers the hit number by the difference; below 1, the reading
    recoil-floor decides: a floor of 1, or no hit at all."""
    lowered = hit - over
    if lowered >= 1:
        res.explanation.append(
            f"{what} vs Strength {strength}: hit number {hit} - {over} = {lowered}"
        )
        return lowered
    if readings.choose(t.merged, "recoil-floor", res) == "no-hit":
        res.explanation.append(
            f"{what} vs Strength {strength}: hit number {hit} - {over} = {lowered}: no hit possible"
        )
        return 0
    res.explanation.append(
        f"{what} vs Strength {strength}: hit number {hit} - {over} = {lowered}, never below 1"
    )
    return 1


def single_shot_recoil(t: T2kTables, fire: Fire, band: int, hit: int) -> int:
    """Shots an action: the rate of fire's ("SA Semi auto, can fire 5 times per action"), or
    a laser sight's "3 aimed shots in an action phase at short range"; then their recoil."""
    req, weapon, res = fire.req, fire.weapon, fire.res
    per_action = t.rof.get(weapon.rof or "ss", 1)
    allowed = per_action
    if req.laser_sight and req.shot == "aimed" and band == 0:
        reading = readings.choose(t.merged, "laser-sight", res)
        if reading == "three-for-any" or weapon.rof not in ("ba", "la"):
            allowed = max(allowed, t.rule("laser-sight-shots"))
    if req.shots > allowed:
        raise HcError(
            f"{req.shots} shots in one action: {weapon.key} ({weapon.rof}) fires "
            f"{per_action}" + (" (3 aimed at Short with a laser sight)" if req.laser_sight else ""),
            f"give --shots 1..{allowed}",
        )
    return _recoil_of_shots(t, fire, hit)


def _recoil_of_shots(t: T2kTables, fire: Fire, hit: int) -> int:
    """Non-automatic fire: the single-shot recoil times the shots fired this action, against
    Strength; what exceeds it comes off the hit number."""
    req, weapon, res, strength = fire.req, fire.weapon, fire.res, fire.strength
    recoil = weapon.recoil
    if req.braced:
        if weapon.type != "pistol" or req.movement != "stationary":
            raise HcError(
                "--braced is for a pistol held in both hands while stationary", "leave out --braced"
            )
        recoil -= t.rule("pistol-brace")
        res.explanation.append(f"pistol braced: recoil -{t.rule('pistol-brace')}")
    total = recoil * req.shots
    res.fields["recoil"] = total
    if total > strength:
        what = f"recoil {recoil} x {count(req.shots, 'shot')} = {total}"
        return recoil_lowers(t, hit, total - strength, res, what, strength)
    res.explanation.append(
        f"recoil {recoil} x {count(req.shots, 'shot')} = {total}, within Strength {strength}"
    )
    return hit


def plan_burst(
    t: T2kTables, fire: Fire, band: int, hit: int, ammo: tuple[str, list[str]] | None
) -> FirePlan:
    """Automatic fire: "The actual number of dice rolled is reduced by range and recoil", never
    below the minimum; an automatic shotgun's rounds beyond Short are pellet bursts."""
    req, weapon, res, strength = fire.req, fire.weapon, fire.res, fire.strength
    task_die, effects = t.rule("task-die"), fire.effects
    size = weapon.burst or 1
    rule = t.burst(size)
    counted = rule.as_burst or size
    if rule.as_burst:
        res.explanation.append(
            f"a {size}-round burst is rolled as a {counted}-round burst whose "
            f"every hit counts {rule.hits_count}"
        )
    if req.kept:  # a burst's dice kept for the zone: its range and recoil had their say
        res.explanation.append(
            f"{count(req.kept, 'die')} the burst kept for its danger zone, at the burst's hit "
            "number, at a target entering the zone"
        )
        res.fields["dice"] = res.inputs["kept"] = req.kept  # a number, as --kept all became
        return FirePlan("kept", hit, req.kept, rule.hits_count, task_die=task_die, effects=effects)
    if req.shot == "burst":
        _burst_band(t, fire, band)
    lost_range = rule.dice_lost_per_band * band
    over = max(0, weapon.burst_recoil - strength)
    lost_recoil = over * rule.recoil_factor
    dice = max(counted - lost_range - lost_recoil, rule.minimum_dice)
    beyond = (
        f"at Short; {rule.dice_lost_per_band} a band beyond it"
        if band == 0
        else f"{BANDS[band]}: {count(band, 'band')} beyond Short, {rule.dice_lost_per_band} each"
    )
    res.explanation.append(
        f"{counted} dice - {lost_range} for range ({beyond}) - {lost_recoil} for recoil (burst "
        f"recoil {weapon.burst_recoil} vs Strength {strength}"
        + (f", x{rule.recoil_factor}" if rule.recoil_factor > 1 else "")
        + ")"
        + (
            f": at least {rule.minimum_dice}"
            if counted - lost_range - lost_recoil < rule.minimum_dice
            else ""
        )
        + f" = {count(dice, 'die')}"
    )
    zone = danger_zone(t, req, res)
    left = _remainder(t)
    if ammo is not None and band == 0:
        res.fields["dice"] = dice
        return FirePlan(
            "burst", hit, dice, 1, zone, task_die=task_die, effects=effects, remainder=left
        )
    if ammo is not None:
        pellets = _pellet_dice(t, band)
        res.explanation.append(
            f"automatic shotgun beyond Short: each of the {dice} rounds is a "
            f"{t.rule('shotgun-pellets')}-pellet burst of {pellets} dice"
        )
        dice *= pellets
    res.fields["dice"] = dice
    return FirePlan(
        "burst",
        hit,
        dice,
        rule.hits_count,
        zone,
        task_die=task_die,
        effects=effects,
        remainder=left,
    )


def _remainder(t: T2kTables) -> tuple[str, str]:
    """The reading zone-dice-remainder, and how the output names it: the dice are rolled
    later, and it is named only where it decides how many are kept (shots._danger_zone)."""
    said = new_resolution("fire", {})
    return readings.choose(t.merged, "zone-dice-remainder", said), said.readings[0]


def _burst_band(t: T2kTables, fire: Fire, band: int) -> None:
    """The band a burst's dice are counted at: "Using automatic fire increase range band by
    one" moves it, or not, as the reading automatic-fire-band says (the output names it, for
    it decides the dice lost to range)."""
    choice = readings.choose(t.merged, "automatic-fire-band", fire.res)
    if choice == "aimed-burst":
        why = "the aimed burst's, not this burst's"
    elif not target_speed_levels(t, fire.req)[0]:
        why = "for a moving target, and this one is not moving"
    else:
        return  # the modifiers list the band the moving target added
    fire.res.explanation.append(
        f"'automatic fire increase range band by one' is {why}: the dice count at {BANDS[band]}"
    )


def auto_shotgun_short_hit(t: T2kTables, fire: Fire) -> int:
    """An automatic shotgun at Short rolls a direct-fire task for each round (after recoil):
    a quick shot's difficulty, not the Impossible of a burst's rounds."""
    req, asset, res = fire.req, fire.asset, fire.res
    rank = t.difficulty_named("average").rank + 1
    rank += (1 if req.obscured else 0) + target_speed_levels(t, req)[0]
    if rank >= len(t.difficulties):
        raise HcError(f"harder than {t.difficulties[-1].key}: no shot", "get a clearer target")
    difficulty = t.difficulty(rank)
    hit = t.hit_number(asset, difficulty)
    res.fields.update(difficulty=difficulty.key, hit_number=hit)
    res.explanation.append(
        f"automatic shotgun at Short: each round is a direct-fire task, "
        f"{difficulty.key} (a quick shot): asset {asset} x "
        f"{difficulty.multiplier:g} = {hit}"
    )
    return hit


def _pellet_dice(t: T2kTables, band: int) -> int:
    rule = t.burst(t.rule("shotgun-pellets"))
    return max(t.rule("shotgun-pellets") - rule.dice_lost_per_band * band, rule.minimum_dice)


def plan_pellets(t: T2kTables, fire: Fire, band: int, hit: int) -> FirePlan:
    """A shotgun beyond Short: each shot is a pellet burst of its own (a pump or double
    action fires up to 3 an action)."""
    req, weapon, res = fire.req, fire.weapon, fire.res
    per_action = t.rof.get(weapon.rof or "ss", 1)
    if req.shots > per_action:
        raise HcError(
            f"{req.shots} shots in one action: {weapon.key} ({weapon.rof}) fires {per_action}",
            f"give --shots 1..{per_action}",
        )
    # Pump and double action fire is not automatic: "Multiply SS recoil by the number of
    # shots fired. Compare to character strength ... > reduce hit number by the difference".
    hit = _recoil_of_shots(t, fire, hit)
    res.fields["hit_number"] = hit
    each = _pellet_dice(t, band)
    dice = each * req.shots
    res.fields["dice"] = dice
    res.explanation.append(
        f"a shotgun at {BANDS[band]} range is a {t.rule('shotgun-pellets')}"
        f"-round burst: {count(each, 'die')}"
        + (
            f"; {req.shots} shots, {req.shots} bursts: {count(dice, 'die')}"
            if req.shots > 1
            else ""
        )
    )
    return FirePlan("pellets", hit, dice, task_die=t.rule("task-die"), effects=fire.effects)

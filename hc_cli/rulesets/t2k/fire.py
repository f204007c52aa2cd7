"""Twilight: 2000 direct fire, automatic fire, shotguns and thrown weapons. Pure.

`plan_fire` turns a request into a `FirePlan`: the skill, every step that moved the
difficulty, the hit number with recoil, the dice of a burst. `fire_dice` rolls the plan; the
odds run `fire_dice` under an enumerating dice source, whose `pool` answers a burst's
identical dice with the binomial.
"""

from __future__ import annotations

from hc_cli import readings
from hc_cli.dice import DiceSource, Roll
from hc_cli.errors import HcError, UnknownName
from hc_cli.model import Modifier, Odds, Resolution
from hc_cli.mods import ModSpec
from hc_cli.numbers import is_digits, is_number, is_whole, number, shown, whole
from hc_cli.plans import planned
from hc_cli.record import record, replace
from hc_cli.roll import check_damage
from hc_cli.roll import parse as parse_dice
from hc_cli.rulesets.t2k.tables import BANDS, RULESET, T2kTables, Weapon
from hc_cli.words import count

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:  # fractions are imported where odds are worked out
    from fractions import Fraction


SHOT_KINDS = ("aimed", "quick", "aimed-burst", "burst")
QUICK_KILL_LOCATIONS = ("head", "chest")


@record(frozen=True)
class FireRequest:
    asset: int | None = None
    skill: int | None = None
    attribute: int | None = None
    riding: int | None = None
    weapon: str | None = None
    short_range: float | None = None
    rof: str | None = None
    recoil: int | None = None
    damage: str | None = None
    range: float | None = None
    shot: str = "aimed"
    shots: int = 1
    strength: int | None = None
    movement: str = "stationary"
    obscured: bool = False
    target_speed: float | None = None
    target_kph: float | None = None
    scope: bool = False
    laser_sight: bool = False
    braced: bool = False
    two_weapons: bool = False
    npc: bool = False
    location: str | None = None
    damage_done: int | None = None
    riders: bool = False
    zone: tuple[str, ...] = ()
    thrown: bool = False
    weight: float | None = None
    throw_range: float | None = None
    grenade_number: int = 1
    ammo: str | None = None
    gait: str | None = None
    mods: tuple[ModSpec, ...] = ()


@record(frozen=True)
class FirePlan:
    kind: str  # single, aimed-burst, burst, pellets, thrown
    hit_number: int
    dice: int  # task dice rolled together (shots this action, or a burst's dice)
    hits_count: int = 1  # a 50-round burst's hits count three
    zone: tuple[tuple[str, float], ...] = ()  # targets in the danger zone, nearest first
    effects: HitEffects | None = None  # each hit's location and damage (quick kill for NPCs)
    riders_percent: int | None = None
    grenade: tuple[float, float, int, int] | None = None  # (metres per pip, cap, die, direction)
    task_die: int = 20


@record(frozen=True)
class HitEffects:
    """What each hit does: where it lands (rolled, or --location) and its damage (rolled, or
    --damage-done); on an NPC's head or chest a quick-kill die may kill outright."""

    locations: tuple[tuple[int, str], ...]  # (highest roll, location)
    location_die: int
    location: str | None  # given: no location roll
    damage: str  # dice per hit; "" when the weapon gives none
    damage_done: int | None
    npc: bool
    kill_die: int


def _new(command: str, inputs: dict) -> Resolution:
    return Resolution(command=command, ruleset=RULESET, inputs=inputs)


def _asset(t: T2kTables, req: FireRequest, res: Resolution) -> int:
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


def _weapon(t: T2kTables, req: FireRequest, res: Resolution) -> Weapon:
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
                "a kind (" + ", ".join(t.rof) + ") or a burst size (3, 5, 10, 50)",
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


def _effective_strength(t: T2kTables, req: FireRequest, moving, res: Resolution) -> int:
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


def _band(t: T2kTables, req: FireRequest, weapon: Weapon, res: Resolution) -> int:
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
        raise HcError(
            f"out of range: {weapon.key} reaches {reaches[-1]:g} m at Extreme, the "
            f"target is at {req.range:g} m: no shot, no roll",
            f"close within {reaches[-1]:g} m",
        )
    res.fields["band"] = BANDS[index]
    return index


def _mod_steps(t: T2kTables, req: FireRequest, res: Resolution) -> list[Modifier]:
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


def _target_speed_levels(t: T2kTables, req: FireRequest) -> tuple[int, str]:
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
        from hc_cli.errors import UnknownName

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
    if req.zone and req.shot != "burst":
        raise HcError(
            "--zone is for bursts: the danger zone takes a burst's missed dice",
            "add --shot burst, or leave out --zone",
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


def _effects(t: T2kTables, req: FireRequest, weapon: Weapon, res: Resolution) -> HitEffects:
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
    )


def _recoil_lowers(
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


def _single_shot_recoil(
    t: T2kTables,
    req: FireRequest,
    weapon: Weapon,
    band: int,
    strength: int,
    hit: int,
    res: Resolution,
) -> int:
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
    return _recoil_of_shots(t, req, weapon, strength, hit, res)


def _recoil_of_shots(
    t: T2kTables, req: FireRequest, weapon: Weapon, strength: int, hit: int, res: Resolution
) -> int:
    """Non-automatic fire: the single-shot recoil times the shots fired this action, against
    Strength; what exceeds it comes off the hit number."""
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
        return _recoil_lowers(t, hit, total - strength, res, what, strength)
    res.explanation.append(
        f"recoil {recoil} x {count(req.shots, 'shot')} = {total}, within Strength {strength}"
    )
    return hit


def _plan_burst(
    t: T2kTables,
    req: FireRequest,
    weapon: Weapon,
    res: Resolution,
    band: int,
    strength: int,
    hit: int,
    task_die: int,
    ammo,
    effects: HitEffects | None = None,
) -> FirePlan:
    size = weapon.burst or 1
    rule = t.burst(size)
    counted = rule.as_burst or size
    if rule.as_burst:
        res.explanation.append(
            f"a {size}-round burst is rolled as a {counted}-round burst whose "
            f"every hit counts {rule.hits_count}"
        )
    lost_range = rule.dice_lost_per_band * band
    over = max(0, weapon.burst_recoil - strength)
    lost_recoil = over * rule.recoil_factor
    dice = max(counted - lost_range - lost_recoil, rule.minimum_dice)
    res.explanation.append(
        f"{counted} dice - {lost_range} for range ({rule.dice_lost_per_band} a band beyond "
        f"Short) - {lost_recoil} for recoil (burst recoil {weapon.burst_recoil} vs Strength "
        f"{strength}"
        + (f", x{rule.recoil_factor}" if rule.recoil_factor > 1 else "")
        + ")"
        + (
            f": at least {rule.minimum_dice}"
            if counted - lost_range - lost_recoil < rule.minimum_dice
            else ""
        )
        + f" = {count(dice, 'die')}"
    )
    zone = _zone(t, req, res)
    if ammo is not None and band == 0:
        res.fields["dice"] = dice
        return FirePlan("burst", hit, dice, 1, zone, task_die=task_die, effects=effects)
    if ammo is not None:
        pellets = _pellet_dice(t, band)
        res.explanation.append(
            f"automatic shotgun beyond Short: each of the {dice} rounds is a "
            f"{t.rule('shotgun-pellets')}-pellet burst of {pellets} dice"
        )
        dice *= pellets
    res.fields["dice"] = dice
    return FirePlan("burst", hit, dice, rule.hits_count, zone, task_die=task_die, effects=effects)


def _auto_shotgun_short_hit(t: T2kTables, req: FireRequest, asset: int, res: Resolution) -> int:
    """An automatic shotgun at Short rolls a direct-fire task for each round (after recoil):
    a quick shot's difficulty, not the Impossible of a burst's rounds."""
    rank = t.difficulty_named("average").rank + 1
    rank += (1 if req.obscured else 0) + _target_speed_levels(t, req)[0]
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


def _plan_pellets(
    t: T2kTables,
    req: FireRequest,
    weapon: Weapon,
    res: Resolution,
    band: int,
    strength: int,
    hit: int,
    task_die: int,
    effects: HitEffects,
) -> FirePlan:
    """A shotgun beyond Short: each shot is a pellet burst of its own (a pump or double
    action fires up to 3 an action)."""
    per_action = t.rof.get(weapon.rof or "ss", 1)
    if req.shots > per_action:
        raise HcError(
            f"{req.shots} shots in one action: {weapon.key} ({weapon.rof}) fires {per_action}",
            f"give --shots 1..{per_action}",
        )
    # Pump and double action fire is not automatic: "Multiply SS recoil by the number of
    # shots fired. Compare to character strength ... > reduce hit number by the difference".
    hit = _recoil_of_shots(t, req, weapon, strength, hit, res)
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
    return FirePlan("pellets", hit, dice, task_die=task_die, effects=effects)


def _zone(t: T2kTables, req: FireRequest, res: Resolution) -> tuple[tuple[str, float], ...]:
    width = min(t.rule("danger-zone-metres"), req.range or 0)
    inside, outside = [], []
    for text in req.zone:
        name, sep, metres = text.rpartition(":")
        if not sep or not name.strip() or not is_number(metres):
            raise HcError(
                f"--zone '{shown(text)}' needs NAME:METRES",
                "e.g. --zone Ivanov:3 (3 m from the intended target)",
            )
        distance = number(metres, f"--zone {shown(name.strip())}'s metres", 0, 100_000)
        (inside if distance <= width else outside).append((name.strip(), distance))
    if outside:
        res.explanation.append(
            "outside the danger zone (" + f"{width:g} m): " + ", ".join(n for n, _ in outside)
        )
    inside.sort(key=lambda z: z[1])
    res.fields["danger_zone"] = {"width": width, "targets": [n for n, _ in inside]}
    return tuple(inside)


def _plan_thrown(
    t: T2kTables, req: FireRequest, weapon: Weapon, asset: int, res: Resolution
) -> tuple[Resolution, FirePlan]:
    if req.shots != 1 or req.shot != "aimed":
        raise HcError(
            "a throw is one task: --shots and --shot are for firing", "leave them out with --thrown"
        )
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
        raise HcError(
            f"out of range: a {weight:g} kg throw reaches {2 * effective:g} m, the "
            f"target is at {req.range:g} m: no throw",
            f"close within {2 * effective:g} m",
        )
    if weight < least:
        res.explanation.append(f"{weight:g} kg throws as {least:g} kg")
    further = req.grenade_number - 1
    if further and readings.choose(t.merged, "further-grenades", res) == "flat":
        further = 1
    bonus = t.rule("further-grenade-bonus") * further
    if bonus:
        asset += bonus
        res.modifiers.append(
            Modifier(
                f"grenade #{req.grenade_number} at the same target", bonus, "skill", "seed 002"
            )
        )
    rank = t.rule("thrown-effective" if band == "effective" else "thrown-long")
    if req.obscured:
        rank += 1
        res.modifiers.append(Modifier("target obscured", 1, "difficulty", "seed 002"))
    levels, why = _target_speed_levels(t, req)
    if levels:
        rank += levels
        res.modifiers.append(Modifier(why, levels, "difficulty", "seed 002"))
    mod_steps = _mod_steps(t, req, res)
    rank = max(rank + sum(m.value for m in mod_steps), 0)
    res.modifiers.extend(mod_steps)
    if rank >= len(t.difficulties):
        raise HcError(f"harder than {t.difficulties[-1].key}: no throw", "get closer")
    difficulty = t.difficulty(rank)
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
    effects = None if grenade else replace(_effects(t, req, weapon, res), damage=damage)
    return res, FirePlan(
        "thrown", hit, 1, effects=effects, grenade=grenade, task_die=t.rule("task-die")
    )


# ---------------------------------------------------------------------------------------------
# The dice


def roll_damage(expression: str, dice: DiceSource, purpose: str) -> tuple[int, list[Roll]]:
    if is_whole(expression):
        return int(expression), []
    terms = parse_dice(expression, plain=True)
    each = [term for term in terms for _ in range(term.count)]
    wanted = [(term.sides, purpose) for term in each]
    # Rolled together, read as a total.
    rolls = dice.sum_of(purpose, wanted, tuple(t.sign for t in each)) if wanted else []
    faces = iter(rolls)
    total = 0
    for term in terms:
        if not term.count:
            total += term.sign * term.sides
            continue
        for _ in range(term.count):
            total += term.sign * next(faces).value
    return total, rolls


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


def fire_dice(plan: FirePlan, dice: DiceSource, effects: bool = True) -> Resolution:
    """Every die of a Twilight: 2000 shot, burst or throw: the one place they are decided. The
    table's order: the task dice, the danger zone's, a rider's miss, then where each hit lands
    and its damage (the target's hits, then the zone's, then the other's). `effects` False
    leaves out the hits' location and damage dice: the odds combine those per hit."""
    res = _new("fire", {})
    say = res.explanation.append
    die = plan.task_die
    if plan.kind == "aimed-burst":
        roll = dice.roll(die, "aimed burst")
        res.rolls.append(roll)
        if roll.value > plan.hit_number:
            say(f"aimed burst: {roll.value} > {plan.hit_number}: miss")
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
            killed, res.fields["hit_effects"] = _hit_effects(plan.effects, hits, dice, res)
        return _done(res, hits, "quick-kill" if killed else "hit")
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
            killed, res.fields["hit_effects"] = _hit_effects(plan.effects, hits, dice, res)
            outcome = "quick-kill" if killed else outcome
        zone_effects = {
            name: _hit_effects(plan.effects, n, dice, res, who=name)[1]
            for name, n in zone_hits.items()
            if n
        }
        if zone_effects:
            res.fields["zone_effects"] = zone_effects
        if other:
            res.fields["other_effects"] = _hit_effects(
                plan.effects, other, dice, res, who="the other"
            )[1]
        if plan.kind == "thrown" and hits:
            res.fields["damage"] = res.fields["hit_effects"][0]["damage"]
    if outcome == "miss" and other:
        outcome = "hit-other"
    return _done(res, hits, outcome)


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


def _hit_effects(
    effects: HitEffects, hits: int, dice: DiceSource, res: Resolution, who: str = ""
) -> tuple[bool, list[dict]]:
    """Each hit's location and damage ("determine hit location and damage normally"); on an
    NPC target (not a bystander in the danger zone, nor the other of a rider), a hit in head or
    chest may quick-kill. `who` names whose hits they are when not the target's (a zone target,
    the other): --location and --damage-done are the target's. Returns whether a hit killed
    outright, and where each landed with its damage."""
    killed = False
    landed = []
    for n in range(1, hits + 1):
        label = (f"{who} " if who else "") + (f"hit {n}" if hits > 1 else "hit")
        where = effects.location if not who else None
        if where is None:
            roll = dice.roll(effects.location_die, f"{label} location")
            res.rolls.append(roll)
            where = next(name for top, name in effects.locations if roll.value <= top)
        if effects.damage_done is not None and not who:
            damage = effects.damage_done
        elif effects.damage:
            damage, damage_rolls = roll_damage(effects.damage, dice, f"{label} damage")
            res.rolls.extend(damage_rolls)
        else:
            damage = None
        line = f"{label}: {where}" + (f", damage {damage}" if damage is not None else "")
        landed.append({"location": where, "damage": damage})
        if effects.npc and not who and where in QUICK_KILL_LOCATIONS and damage is not None:
            kill = dice.roll(effects.kill_die, f"{label} quick kill")
            res.rolls.append(kill)
            top = effects.kill_die
            if kill.value <= damage and kill.value != top:
                killed = True
                line += f"; quick kill: d{top} {kill.value} <= damage {damage}: killed outright"
            else:
                line += f"; quick kill: d{top} {kill.value}" + (
                    f" (a {top} never kills): no" if kill.value == top else f" > {damage}: no"
                )
        res.explanation.append(line)
    return killed, landed


def _danger_zone(plan: FirePlan, misses: int, dice: DiceSource, res: Resolution) -> dict[str, int]:
    """Half the missed dice at the danger zone's targets, nearest first; their hits by name."""
    again = misses // 2
    res.fields["zone_dice"] = again
    if not plan.zone:
        kept = again // 2
        res.fields.update(zone_hits={}, kept_back=kept)
        res.explanation.append(
            f"danger zone: no targets; {kept} of the {again} dice (half the "
            "misses) kept for targets entering the zone this turn"
        )
        return {}
    rolls = dice.pool(again, plan.task_die, plan.hit_number, "danger zone")
    res.rolls.extend(rolls)
    hits = sum(r.value <= plan.hit_number for r in rolls) * plan.hits_count
    names = [name for name, _ in plan.zone]
    # Hits go to the zone's targets nearest first, one each, round again if more hits.
    zone_hits = {name: 0 for name in names}
    for i in range(hits):
        zone_hits[names[i % len(names)]] += 1
    kept = (again - sum(r.value <= plan.hit_number for r in rolls)) // 2
    res.fields.update(zone_hits=zone_hits, kept_back=kept)
    res.explanation.append(
        f"danger zone: half the {count(misses, 'miss')} = {count(again, 'die')} at "
        f"{plan.hit_number}: {count(hits, 'hit')} ("
        + ", ".join(f"{n} {h}" for n, h in zone_hits.items())
        + f"); {count(kept, 'die')} kept for targets entering the zone"
    )
    return zone_hits


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
    # Several bursts in one action: each loses dice to range and recoil as the first did.
    for n in range(1, req.shots + 1):
        burst = fire_dice(plan, dice)
        burst.label = f"burst {n}"
        res.shots.append(burst)
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


def _quick_kill_chance(effects: HitEffects) -> Fraction:
    """P(one hit on an NPC kills outright): its location, damage and quick-kill die, walked by
    the same `_hit_effects` that rolls them."""
    from fractions import Fraction

    from hc_cli.odds import enumerate_outcomes

    dist = enumerate_outcomes(
        lambda d: _hit_effects(effects, 1, d, _new("fire", {}))[0], lambda killed: killed
    )
    return dist.get(True, Fraction(0))


def fire_odds(t: T2kTables, req: FireRequest) -> Resolution:
    """The task dice (and zone and riders) walked with each count answered by the binomial;
    every hit then quick-kills an NPC independently, with the chance one hit has: P(no quick
    kill | n hits) = (1 - q)^n. Probability laws, not dice paths, for the hits' own dice."""
    from fractions import Fraction

    from hc_cli.odds import add_independent, enumerate_outcomes

    res, plan = plan_fire(t, req)
    npc = plan.effects is not None and plan.effects.npc
    dist = enumerate_outcomes(
        lambda d: fire_dice(plan, d, effects=False),
        lambda r: (r.outcome, r.fields["hits"], sum(r.fields.get("zone_hits", {}).values())),
    )
    spared = 1 - _quick_kill_chance(plan.effects) if npc else Fraction(1)
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
        hits = add_independent([hits] * bursts)
        zone = add_independent([zone] * bursts)
        none = outcomes["miss"] ** bursts
        kill = 1 - (1 - outcomes.get("quick-kill", Fraction(0))) ** bursts
        outcomes = {"miss": none, "hit": 1 - none - kill}
        if npc:
            outcomes["quick-kill"] = kill
    counts = {"hits": dict(sorted(hits.items()))}
    if plan.zone:
        counts["danger zone hits"] = dict(sorted(zone.items()))
    res.odds = Odds(outcomes, counts)
    return res


# ---------------------------------------------------------------------------------------------
# A missed grenade's deviation on its own


@record(frozen=True)
class DeviateRequest:
    range: float | None = None
    band: str | None = None
    throw_range: float | None = None
    weight: float | None = None


def plan_deviate(t: T2kTables, req: DeviateRequest) -> tuple[Resolution, tuple]:
    res = _new(
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
            raise HcError(
                f"out of range: a {req.weight:g} kg throw reaches {2 * effective:g} m, the "
                f"target is at {req.range:g} m: no throw, nothing to deviate",
                f"close within {2 * effective:g} m",
            )
        band = "effective" if req.range <= effective else "long"
        res.explanation.append(
            f"effective range {effective:g} m: a {req.range:g} m throw is at {band} range"
        )
    if band not in ("effective", "long"):
        raise HcError(f"--band {band} is not a throwing band", "effective or long")
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

    from hc_cli.odds import enumerate_outcomes

    res, spec = plan_deviate(t, req)
    dist = enumerate_outcomes(lambda d: deviate_grenade(*spec, d)[0]["distance"], lambda m: m)
    res.odds = Odds({"deviated": Fraction(1)}, {"distance (metres)": dict(sorted(dist.items()))})
    return res

"""Rogue Trader resolvers: the shooting sequence (to hit, to wound, save, damage), following
fire, area weapons and their deviation. Pure: no printing, no typer, no rich.

As for every rule set, `plan_*` does every lookup and check before a die is rolled, one
function decides a shot from its dice (`shot_steps`), and the odds run that same function
under an `EnumeratingDice`. A volley rolls its dice in the table's phases (`fire_volley`).
"""

from __future__ import annotations

import math

from hc_cli import readings
from hc_cli.dice import DiceSource, Roll
from hc_cli.errors import HcError
from hc_cli.model import Modifier, Odds, Resolution
from hc_cli.mods import ModSpec
from hc_cli.numbers import is_whole
from hc_cli.plans import planned
from hc_cli.record import record, replace
from hc_cli.roll import check_damage
from hc_cli.roll import parse as parse_dice
from hc_cli.rulesets.rogue_trader.tables import RULESET, RogueTraderTables, Weapon
from hc_cli.words import count

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:  # fractions are imported where odds are worked out
    from collections.abc import Generator
    from fractions import Fraction

    # (phase, dice, signs): the dice a shot asks for at once, each (sides, purpose): one die,
    # or all the dice of one wound's damage (2d6 is one roll of two dice), each added (+1) or
    # taken away (-1)
    Request = tuple[int, tuple[tuple[int, str], ...], tuple[int, ...]]
    ShotSteps = Generator[Request, list[Roll], Resolution]


OUTCOMES = ("miss", "no-wound", "saved", "wounded", "casualty")
WOUND_DAMAGE = {"saved", "wounded", "casualty"}  # following fire goes on after these


def _new(command: str, inputs: dict) -> Resolution:
    return Resolution(command=command, ruleset=RULESET, inputs=inputs)


# ---------------------------------------------------------------------------------------------
# Requests


@record(frozen=True)
class FireRequest:
    firer: str | None = None
    bs: int | None = None
    firer_wounded: bool = False
    weapon: str | None = None
    short: float | None = None
    long: float | None = None
    maximum: float | None = None
    to_hit_short: int | None = None
    to_hit_long: int | None = None
    strength: int | None = None
    damage: str | None = None
    save_mod: int | None = None
    weapon_type: tuple[str, ...] = ()
    radius: float | None = None
    range: float | None = None
    targets: tuple[str, ...] = ()
    toughness: int | None = None
    wounds_left: int | None = None
    wounds_taken: int | None = None
    save: int | None = None
    armour: str | None = None
    size: str | None = None
    moving_surface: bool = False
    mounted_weapon: bool = False
    target_moved: float | None = None
    soft_cover: bool = False
    hard_cover: bool = False
    improvised: bool = False
    moved: bool = False
    allow_7plus: bool = False
    one_model: bool = False
    lying_down: bool = False
    in_woods: bool = False
    in_hand_to_hand: bool = False
    shots: int = 1
    mount: str | None = None
    at_mount: bool = False
    into_melee: bool = False
    friend: str | None = None
    placed: bool = False
    under: int | None = None
    partly: int = 0
    blasting_cover: bool = False
    closed_room: bool = False
    mods: tuple[ModSpec, ...] = ()


@record(frozen=True)
class DeviateRequest:
    weapon: str | None = None
    radius: float | None = None
    range: float | None = None
    blasting_cover: bool = False


# ---------------------------------------------------------------------------------------------
# Plans: everything fixed before a die is rolled


@record(frozen=True)
class Victim:
    """A model a shot can wound, with the numbers that decide it."""

    label: str
    strength: int
    toughness: int
    wounds_left: int
    needed_to_wound: int | None  # None: N on the chart, no effect
    needed_to_save: int | None  # None: no save


@record(frozen=True)
class ShotSpec:
    label: str
    needed_to_hit: int  # after the floor; 7..9 only when allowed
    second_roll: int | None  # for 7+: the second D6 needed after a 6
    victim: Victim
    other: Victim | None = None  # the mount, or the friend in hand to hand
    split: str | None = None  # "rider" or "melee": which D6 picks victim or other
    split_at: int = 3
    damage: str = "1"
    auto_hit: bool = False  # an area weapon in a closed room hits every occupant
    model: str = ""  # which model the victim is: shots at the same model add up their wounds
    under_die: bool = False  # partly under the marker, and a D6 decides whether it is a target


@record(frozen=True)
class DeviationSpec:
    radius: float
    measured_range: float
    deviates_on: int
    penalty: int
    distance_die: int
    direction_die: int


@record
class FirePlan:
    res: Resolution
    specs: list[ShotSpec]
    mode: str  # "single", "unit", "following", "area"
    deviation: DeviationSpec | None = None
    one_model: bool = False  # a unit's shots all at one model: its wounds add up


def characteristic(
    t: RogueTraderTables,
    direct: float | None,
    profile_name: str | None,
    name: str,
    res: Resolution,
) -> float | None:
    """A characteristic given as a number, else from the named profile (marked when it is a
    sample number); None when neither is given."""
    if direct is not None:
        return direct
    if not profile_name:
        return None
    profile = t.profile(profile_name)
    value = profile[name]
    res.note_source(profile, name, f"{profile.key} {name.upper()} {value}")
    return value


def _firer_bs(t: RogueTraderTables, req: FireRequest, res: Resolution) -> int:
    bs = characteristic(t, req.bs, req.firer, "bs", res)
    if bs is None:
        raise HcError(
            "no firer given", "give --firer PROFILE (e.g. --firer space-marine) or --bs N"
        )
    if bs == 0:
        raise HcError(
            "BS 0: this firer has no ballistic skill and may not shoot or throw",
            "only a model with BS 1 or more can fire",
        )
    if not 1 <= bs <= 10:
        raise HcError(f"BS {bs} is off the chart", "BS runs from 1 to 10 (0 may not shoot)")
    return bs


def _weapon(t: RogueTraderTables, req: FireRequest, res: Resolution) -> Weapon:
    """The weapon from the table, with any direct numbers laid over it."""
    direct = {
        "short": req.short,
        "long": req.long,
        "maximum": req.maximum,
        "to_hit_short": req.to_hit_short,
        "to_hit_long": req.to_hit_long,
        "strength": req.strength,
        "damage": req.damage,
        "save_modifier": req.save_mod,
        "area": req.radius,
    }
    given = {k: v for k, v in direct.items() if v is not None}
    if req.weapon_type:
        for kind in req.weapon_type:
            if kind.upper() not in ("S", "F"):
                raise HcError(
                    f"--weapon-type {kind} is not a type", "S (slow) or F (following fire)"
                )
        given["slow"] = any(k.upper() == "S" for k in req.weapon_type)
        given["following_fire"] = any(k.upper() == "F" for k in req.weapon_type)
    if req.weapon:
        weapon = t.weapon(req.weapon)
        for name in given:
            res.explanation.append(f"--{name.replace('_', '-')} given: used instead of the table's")
        weapon = replace(weapon, **given)
    else:
        if req.strength is None:
            raise HcError(
                "no weapon given and no --strength",
                "give --weapon NAME, or the numbers: --strength 4 --damage 1 --save-mod -1",
            )
        weapon = Weapon(
            key="weapon",
            source="given",
            name="weapon",
            **{"damage": "1", **{k: v for k, v in given.items()}},
        )
    if not 1 <= weapon.strength <= 10:
        raise HcError(f"Strength {weapon.strength} is off the wound chart", "give 1..10")
    if is_whole(weapon.damage):
        if int(weapon.damage) < 1:
            raise HcError(f"--damage {weapon.damage} does no damage", "give 1 or more, or dice: d6")
    else:
        check_damage(weapon.damage, "--damage" if req.damage else f"{weapon.key}'s damage")
    if weapon.area is not None and weapon.area <= 0:
        raise HcError(f"--radius {weapon.area:g} is no marker", "give the radius in inches, e.g. 2")
    res.inputs["weapon"] = weapon.key if req.weapon else None
    return weapon


def _band(weapon: Weapon, req: FireRequest, res: Resolution) -> str | None:
    if req.range is not None and req.range < 0:
        raise HcError(
            f"--range {req.range:g} is negative", "give the distance in inches, 0 or more"
        )
    if weapon.short is None or weapon.reach is None:
        return None
    if req.range is None:
        raise HcError(
            f"--range is needed for {weapon.key}'s short and long range",
            f'short 0-{weapon.short:g}", long {weapon.short:g}-{weapon.long:g}", '
            f'maximum {weapon.reach:g}"',
        )
    if req.range > weapon.reach:
        raise HcError(
            f'out of range: {weapon.key} reaches {weapon.reach:g}", the target is at '
            f'{req.range:g}": no shot, no roll',
            f'move within {weapon.reach:g}"',
        )
    woods = 2  # "visibility and all firing ranges are reduced to 2" maximum"
    if req.in_woods and req.range > woods:
        raise HcError(
            f'in woods all firing ranges are {woods}" at most; the target is at {req.range:g}": '
            "no shot",
            f'close to {woods}" (a model within 2" of the edge fires normally: leave out '
            "--in-woods)",
        )
    band = "short" if req.range <= weapon.short else "long"
    res.fields["band"] = band
    for name in ("short", "long", "maximum"):
        if getattr(weapon, name) is not None:
            res.note_source(weapon, name, f"{weapon.key} ranges")
    return band


def _table_mod(t: RogueTraderTables, name: str, res: Resolution, times: int = 1) -> Modifier:
    entry = t.modifier(name)
    res.note_source(entry, "value", f"modifier {entry.key} {entry.value:+d}")
    label = entry.key if times == 1 else f"{entry.key} x{times}"
    return Modifier(label, entry.value * times, "to hit", entry.source_of("value"))


def _to_hit_modifiers(
    t: RogueTraderTables, req: FireRequest, weapon: Weapon, band: str | None, res: Resolution
) -> list[Modifier]:
    mods: list[Modifier] = []
    if band is not None:
        value = weapon.to_hit_short if band == "short" else weapon.to_hit_long
        field = f"to_hit_{band}"
        mods.append(
            Modifier(f"{weapon.key} at {band} range", value, "to hit", weapon.source_of(field))
        )
        res.note_source(weapon, field, f"{weapon.key} to hit at {band} range {value:+d}")
    if req.moving_surface:
        exempt = (
            req.mounted_weapon
            and readings.choose(t.merged, "mounted-weapon-exemption", res)
            == "short-range-and-moving-surface"
        )
        if not exempt:
            mods.append(_table_mod(t, "moving-surface", res))
    if req.target_moved is not None:
        if req.target_moved < 0:
            raise HcError(
                f"--target-moved {req.target_moved:g} is negative",
                "give the inches the target moved in its last turn",
            )
        per = t.modifier("target-moved").per_inches or 10
        times = math.floor(req.target_moved / per)
        if times:
            mods.append(_table_mod(t, "target-moved", res, times))
    lying_covers = req.lying_down and (req.range is None or req.range > 4)
    if req.lying_down and not lying_covers:
        res.explanation.append('lying down: no cover once the target is within 4" of the firer')
    for flag, name in (
        (req.firer_wounded, "firer-wounded"),
        (req.soft_cover or lying_covers, "soft-cover"),
        (req.hard_cover, "hard-cover"),
        (req.improvised or weapon.improvised, "improvised"),
    ):
        if flag:
            mods.append(_table_mod(t, name, res))
    for spec in req.mods:
        if spec.name is not None:
            mods.append(_table_mod(t, spec.name, res))
        else:
            assert spec.value is not None
            mods.append(Modifier(spec.label or "--mod", spec.value, "to hit", "--mod"))
    return mods


def _size_modifier(t: RogueTraderTables, size: str, res: Resolution) -> list[Modifier]:
    if size == "large":
        return [_table_mod(t, "large-target", res)]
    if size == "small":
        return [_table_mod(t, "small-target", res)]
    return []


def _needed_to_hit(
    t: RogueTraderTables, bs: int, mods: list[Modifier], req: FireRequest, res: Resolution
) -> tuple[int, int | None, list[str]]:
    """Score needed on the D6 (floor applied), the second D6 for 7+, and how it was found."""
    base = t.charts.to_hit[bs - 1]
    total = sum(m.value for m in mods)
    raw = base - total
    floor = t.rule("minimum-to-hit")
    needed = max(raw, floor)
    notes = [
        f"BS {bs} needs {base}" + (f", modifiers {total:+d} on the roll: {raw}" if mods else "")
    ]
    if raw < floor:
        notes.append(f"never below {floor}: needs {floor} (a 1 always misses)")
    if needed <= 6:
        return needed, None, notes
    if needed - 7 >= len(t.charts.seven_plus):
        raise HcError(
            f"needs {needed} or more to hit: impossible, no shot",
            "10 or more cannot hit at all; find a better shot",
        )
    if not req.allow_7plus:
        raise HcError(
            f"needs {needed} to hit: only if the GM allows shots needing 7 or more",
            "add --allow-7plus to roll a 6 and then "
            f"{t.charts.seven_plus[needed - 7]}+ on a second D6",
        )
    second = t.charts.seven_plus[needed - 7]
    if readings.choose(t.merged, "seven-plus-chart", res) == "six-then-six":
        second = 6
    notes.append(
        f"needs {needed}: a 6, then {second}+ on a second D6 "
        f"({t.charts.sources.get('seven-plus', '')})"
    )
    return needed, second, notes


def _victim(
    t: RogueTraderTables,
    name: str | None,
    req: FireRequest,
    weapon: Weapon,
    res: Resolution,
    label: str | None = None,
) -> tuple[Victim, str]:
    """A target's numbers from its profile or the flags; returns it and its size."""
    if name is not None:
        profile = t.profile(name.partition(":")[0])
        toughness, wounds = profile["t"], profile["w"]
        for c in ("t", "w"):
            res.note_source(profile, c, f"{profile.key} {c.upper()} {profile[c]}")
        armour_name = profile.armour or "none"
        size = profile.size
        label = label or name
    else:
        if req.toughness is None:
            raise HcError(
                "no target given",
                "give --target PROFILE (e.g. --target ork) or "
                "--toughness N (with --save N, --wounds-left N)",
            )
        toughness, wounds, armour_name, size = req.toughness, 1, "none", "normal"
        label = label or f"T{toughness}"
    if req.toughness is not None:
        toughness = req.toughness
    if not 1 <= toughness <= 10:
        raise HcError(f"Toughness {toughness} is off the wound chart", "give 1..10")
    if req.size is not None:
        size = req.size
    wounds_left = wounds
    if req.wounds_taken is not None:
        if not 0 <= req.wounds_taken < wounds:
            raise HcError(
                f"--wounds-taken {req.wounds_taken} does not fit W {wounds}",
                f"give 0..{wounds - 1}: a model with W wounds taken is already a casualty",
            )
        wounds_left = wounds - req.wounds_taken
    if req.wounds_left is not None:
        if req.wounds_left < 1:
            raise HcError(
                f"--wounds-left {req.wounds_left}: that model is already a casualty",
                "give 1 or more",
            )
        wounds_left = req.wounds_left
    if req.armour is not None:
        armour_name = req.armour
    armour = t.armour_named(armour_name)
    save = req.save if req.save is not None else armour.save
    needed_to_save = save - weapon.save_modifier
    row = t.charts.wound[weapon.strength - 1]
    victim = Victim(
        label,
        weapon.strength,
        toughness,
        wounds_left,
        row[toughness - 1],
        needed_to_save if needed_to_save <= 6 else None,
    )
    return victim, size


def plan_fire(t: RogueTraderTables, req: FireRequest) -> FirePlan:
    if req.shots < 1:
        raise HcError(f"--shots {req.shots} fires nothing", "give --shots 1 or more")
    if req.in_hand_to_hand:
        raise HcError(
            "troops who have entered hand-to-hand combat may not fire during the shooting part "
            "of the turn",
            "fight it out in hand to hand; others may fire into it with --into-melee",
        )
    res = _new(
        "fire",
        {
            "firer": req.firer,
            "bs": req.bs,
            "range": req.range,
            "targets": list(req.targets),
            "shots": req.shots,
            "mods": [m.text for m in req.mods],
        },
    )
    bs = _firer_bs(t, req, res)
    weapon = _weapon(t, req, res)
    if weapon.slow and req.moved:
        raise HcError(
            f"{weapon.key} is a slow (S-type) weapon: it cannot fire after moving",
            "leave out --moved if the firer stayed still (turning counts as moving)",
        )
    band = _band(weapon, req, res)
    if req.moving_surface and req.mounted_weapon:
        readings.choose(t.merged, "mounted-weapon-exemption", res)
    if req.moving_surface and not req.mounted_weapon and band == "long":
        raise HcError(
            "firing from a moving vehicle or mount: short range only",
            f'close to {weapon.short:g}" or less (a vehicle-mounted weapon: --mounted-weapon)',
        )
    base_mods = _to_hit_modifiers(t, req, weapon, band, res)
    res.fields.update(
        bs=bs, strength=weapon.strength, damage=weapon.damage, save_modifier=weapon.save_modifier
    )
    res.note_source(weapon, "strength", f"{weapon.key} S{weapon.strength}, damage {weapon.damage}")
    res.note_source(
        weapon, "save_modifier", f"{weapon.key} save modifier {weapon.save_modifier:+d}"
    )

    area = weapon.area is not None
    names: list[str | None] = list(req.targets) or [None]
    if area:
        mode = "area"
        if req.under is not None:
            if req.under < 1 or len(names) > 1:
                raise HcError(
                    "--under N counts models of one --target under the marker",
                    "give one --target with --under N, or one --target per model",
                )
            names = names * req.under
        if not 0 <= req.partly <= len(names):
            raise HcError(
                f"--partly {req.partly} is more than the {count(len(names), 'model')} under "
                "the marker",
                f"give 0..{len(names)}",
            )
    else:
        for flag, value in (
            ("--under", req.under),
            ("--partly", req.partly or None),
            ("--placed", req.placed or None),
            ("--closed-room", req.closed_room or None),
        ):
            if value is not None:
                raise HcError(
                    f"{flag} is for area weapons; {weapon.key} has no area marker",
                    "give an area weapon (e.g. frag-grenade) or --radius N",
                )
        if len(names) > 1 and not weapon.following_fire:
            raise HcError(
                f"{len(names)} targets given, but {weapon.key} is no following-fire "
                "(F-type) weapon",
                "give one --target (with --shots N for a unit)",
            )
        if len(names) > 1 and req.shots > 1:
            raise HcError(
                "--shots and following fire do not go together",
                "following fire walks its --target list in order; --shots is for a unit",
            )
        mode = "following" if len(names) > 1 else ("unit" if req.shots > 1 else "single")
    if req.blasting_cover and not area:
        raise HcError("--blasting-cover is for area weapons", "leave it out")

    other_name, split = None, None
    if req.into_melee:
        if not req.friend:
            raise HcError(
                "--into-melee needs --friend PROFILE",
                "a D6 of 4-6 hits the firer's own model: say which profile it has",
            )
        other_name, split = req.friend, "melee"
    elif req.friend:
        raise HcError("--friend goes with --into-melee", "add --into-melee or leave out --friend")
    if req.mount:
        if req.into_melee:
            raise HcError("--mount and --into-melee do not go together", "give one of them")
        if band == "long":
            other_name, split = req.mount, "rider"
        elif req.at_mount:
            names = [req.mount] * len(names)
    elif req.at_mount:
        raise HcError("--at-mount needs --mount PROFILE", "name the vehicle or mount")

    specs = []
    notes_done = False
    for i, name in enumerate(names):
        victim, size = _victim(
            t,
            name,
            req,
            weapon,
            res,
            label=None if len(names) == 1 else f"{i + 1}: {name or 'target'}",
        )
        mods = base_mods + _size_modifier(t, size, res)
        partly = area and i >= len(names) - req.partly
        under_die = (
            partly and readings.choose(t.merged, "partly-under-marker", res) == "throw-a-dice"
        )
        if partly and not under_die:
            mods = mods + [_table_mod(t, "partly-under-marker", res)]
        if area and req.closed_room:
            # Every occupant is hit: no score is needed, so none can be too high.
            needed, second, notes = 0, None, ["closed room: no roll to hit"]
        else:
            needed, second, notes = _needed_to_hit(t, bs, mods, req, res)
        other = None
        if other_name is not None:
            other, _ = _victim(
                t,
                other_name,
                req,
                weapon,
                res,
                label=("mount: " if split == "rider" else "friend: ") + other_name,
            )
        specs.append(
            ShotSpec(
                victim.label if len(names) > 1 else "",
                needed,
                second,
                victim,
                other,
                split,
                t.rule("rider-split" if split == "rider" else "melee-split"),
                weapon.damage,
                auto_hit=area and req.closed_room,
                model=name or "target",
                under_die=under_die,
            )
        )
        if not notes_done:
            res.modifiers.extend(mods)
            res.explanation.extend(notes)
            notes_done = True
        elif partly:
            res.explanation.append(
                f"{victim.label}: partly under the marker, "
                + ("a D6 of 4-6 makes it a target" if under_die else f"needs {needed}")
            )
    if req.one_model and mode != "unit":
        raise HcError(
            "--one-model is for a unit's --shots N at one model",
            "give --shots N with one --target (following fire at the same model: repeat "
            "its --target)",
        )
    if mode == "unit":
        specs = [replace(specs[0], label=f"shot {n + 1}") for n in range(req.shots)]
    first = specs[0]
    res.fields.update(
        needed_to_hit=first.needed_to_hit,
        needed_to_wound=first.victim.needed_to_wound,
        needed_to_save=first.victim.needed_to_save,
    )
    plan = FirePlan(res, specs, mode, one_model=req.one_model)
    if req.one_model:
        res.explanation.append(
            f"every shot at one {specs[0].victim.label}: the wounds add up against its "
            f"{count(specs[0].victim.wounds_left, 'wound')} left"
        )
    if area:
        res.inputs.update(under=len(names), partly=req.partly, placed=req.placed)
        if req.closed_room:
            res.explanation.append(
                "closed room or vehicle (one building section): every occupant is hit automatically"
            )
        # "Area weapons thrown or fired into a closed room or vehicle, will hit all occupants
        # automatically": nothing to deviate from.
        if not req.placed and not req.closed_room:
            plan.deviation = _deviation_spec(t, weapon.area, req.range, req.blasting_cover, res)
    if mode == "following":
        res.explanation.append(
            f"following fire: each shot that causes wound damage (even if saved) fires again at "
            f'the next target, within {t.rule("following-fire-reach")}" of the last; a miss or a '
            "failure to wound stops it"
        )
    return plan


# ---------------------------------------------------------------------------------------------
# The dice


# The phases of a volley, in the order the table rolls them: all to-hit dice, then the second
# dice of the sixes (7+ to hit), then who each hit strikes, to wound, saves, damage.
PHASES = (
    "under the marker",
    "to hit",
    "to hit (after a 6)",
    "who is hit",
    "to wound",
    "save",
    "damage",
)
UNDER, HIT, AFTER_SIX, WHO, WOUND, SAVE, DAMAGE = range(len(PHASES))


def shot_steps(spec: ShotSpec, wounds_left: int | None = None) -> ShotSteps:
    """One shot, decided from its dice: to hit, who is hit, to wound, save, damage. A
    generator that asks for each die as `(phase, sides, purpose)` and is sent the `Roll`, so
    a single shot (`drive`), a volley rolled phase by phase (`fire_volley`) and the odds
    all run this one decision. `wounds_left`: of the model now, when earlier shots of the
    volley wounded it."""
    shot = _new("fire", {})
    shot.label = spec.label
    say = shot.explanation.append
    victim = spec.victim
    left = victim.wounds_left if wounds_left is None else wounds_left
    if spec.under_die:
        (under,) = yield UNDER, ((6, "under the marker"),), ()
        shot.rolls.append(under)
        if under.value <= 3:
            say(f"D6 {under.value}: not under the marker (1-3), not a target")
            return _finish(shot, "miss", victim, 0)
        say(f"D6 {under.value}: under the marker (4-6), a target")
    if spec.auto_hit:
        say("hit automatically")
    else:
        (roll,) = yield HIT, ((6, "to hit"),), ()
        shot.rolls.append(roll)
        if spec.second_roll is None:
            hit = roll.value >= spec.needed_to_hit
            say(f"to hit: {roll.value}, needs {spec.needed_to_hit}: " + ("hit" if hit else "miss"))
        elif roll.value < 6:
            hit = False
            say(f"to hit: {roll.value}, needs a 6 and then {spec.second_roll}+: miss")
        else:
            (follow,) = yield AFTER_SIX, ((6, "to hit (after a 6)"),), ()
            shot.rolls.append(follow)
            hit = follow.value >= spec.second_roll
            say(
                f"to hit: 6, then {follow.value}, needs {spec.second_roll}: "
                + ("hit" if hit else "miss")
            )
        if not hit:
            return _finish(shot, "miss", victim, 0)
    if spec.other is not None:
        split = "crew or vehicle" if spec.split == "rider" else "enemy or friend"
        (pick,) = yield WHO, ((6, split),), ()
        shot.rolls.append(pick)
        if pick.value > spec.split_at:
            victim = spec.other
            left = victim.wounds_left
        say(f"D6 {pick.value}: hits the {victim.label}")
    if victim.needed_to_wound is None:
        say(f"S{victim.strength} against T{victim.toughness} is N on the chart: it cannot wound")
        return _finish(shot, "no-wound", victim, 0)
    (wound,) = yield WOUND, ((6, "to wound"),), ()
    shot.rolls.append(wound)
    if wound.value < victim.needed_to_wound:
        say(f"to wound: {wound.value}, needs {victim.needed_to_wound}: no wound")
        return _finish(shot, "no-wound", victim, 0)
    say(f"to wound: {wound.value}, needs {victim.needed_to_wound}: wounds")
    if victim.needed_to_save is None:
        say("no saving throw")
    else:
        (save,) = yield SAVE, ((6, "save"),), ()
        shot.rolls.append(save)
        if save.value >= victim.needed_to_save:
            say(f"save: {save.value}, needs {victim.needed_to_save}: saved, no damage")
            return _finish(shot, "saved", victim, 0)
        say(f"save: {save.value}, needs {victim.needed_to_save}: failed")
    wounds, rolls = yield from damage_steps(spec.damage)
    shot.rolls.extend(rolls)
    if left <= 0:
        say(f"{count(wounds, 'wound')}, but the model is already a casualty")
        return _finish(shot, "wounded" if wounds else "no-wound", victim, wounds)
    if wounds >= left:
        say(f"{count(wounds, 'wound')} of {left} left: a casualty, remove the model")
        return _finish(shot, "casualty", victim, wounds)
    say(f"{count(wounds, 'wound')}: {left - wounds} left")
    return _finish(shot, "wounded" if wounds else "no-wound", victim, wounds)


def damage_steps(damage: str) -> Generator[Request, list[Roll], tuple[int, list[Roll]]]:
    """Wounds one wound-causing hit does: a fixed number, or dice (d4, d6, d10, 2d6...). The
    dice of one wound are one roll: asked for together, in the order the expression names
    them."""
    if is_whole(damage):
        return int(damage), []
    terms = parse_dice(damage, plain=True)
    dice = [term for term in terms for _ in range(term.count)]
    wanted = tuple((term.sides, f"damage {damage}") for term in dice)
    rolls = (yield DAMAGE, wanted, tuple(term.sign for term in dice)) if wanted else []
    faces = iter(rolls)
    total = 0
    for term in terms:
        if not term.count:
            total += term.sign * term.sides
            continue
        for _ in range(term.count):
            total += term.sign * next(faces).value
    return max(total, 0), list(rolls)


def roll_together(
    dice: DiceSource, label: str, request: Request, as_phase: bool = False
) -> list[Roll]:
    """The dice of one request: a single die as such (or, `as_phase`, as the phase's one
    die, as a volley asks for it), several as one roll of the phase; a damage roll's dice as
    dice of which only the total counts."""
    phase, wanted, signs = request
    if phase == DAMAGE:
        return dice.sum_of(label, list(wanted), signs)
    if len(wanted) == 1 and not as_phase:
        return [dice.roll(*wanted[0])]
    return dice.batch(label, list(wanted))


def drive(steps: ShotSteps, dice: DiceSource, as_phase: bool = False) -> Resolution:
    """Run one shot's steps to the end, each die from `dice` as it is asked for (`as_phase`:
    each phase's dice asked for as a volley of one shot asks for them)."""
    try:
        request = next(steps)
        while True:
            request = steps.send(roll_together(dice, PHASES[request[0]], request, as_phase))
    except StopIteration as done:
        return done.value


def fire_volley(
    specs: list[ShotSpec], dice: DiceSource, one_model: bool = False
) -> list[Resolution]:
    """Shots fired together, rolled as the table rolls them: every shot's to-hit die, then
    the to-wound dice of the hits, then the saves, then the damage. Each shot is still decided
    by `shot_steps`; only the order of the dice is the table's. A phase whose shots each ask
    for one die rolls them all at once; a damage of several dice (2d6) is one roll a wound, in
    the order of the wounded models. With `one_model`, every shot strikes the same model, so
    the wounds add up against its wounds left."""
    steps = [shot_steps(spec) for spec in specs]
    pending: dict[int, Request] = {}
    shots: list[Resolution | None] = [None] * len(specs)
    for i, step in enumerate(steps):
        try:
            pending[i] = next(step)
        except StopIteration as done:
            shots[i] = done.value
    while pending:
        phase = min(request[0] for request in pending.values())
        asked = [i for i in sorted(pending) if pending[i][0] == phase]
        if all(len(pending[i][1]) == 1 for i in asked):
            rolls = dice.batch(PHASES[phase], [pending[i][1][0] for i in asked])
            answers = [[roll] for roll in rolls]
        else:
            answers = [
                roll_together(dice, f"{PHASES[phase]} ({specs[i].label or 'shot'})", pending[i])
                for i in asked
            ]
        for i, answer in zip(asked, answers, strict=True):
            try:
                pending[i] = steps[i].send(answer)
            except StopIteration as done:
                shots[i] = done.value
                del pending[i]
    finished = [s for s in shots if s is not None]
    if one_model:
        _add_up(finished, specs[0].victim.wounds_left)
    return finished


def _add_up(shots: list[Resolution], wounds_left: int) -> None:
    """The wounds of a volley at one model, in shot order, against its wounds left."""
    left = wounds_left
    for shot in shots:
        wounds = shot.fields.get("wounds", 0)
        if not wounds:
            continue
        if left <= 0:
            shot.outcome = "wounded"
            shot.explanation[-1] = f"{count(wounds, 'wound')}, but the model is already a casualty"
        elif wounds >= left:
            shot.outcome = "casualty"
            shot.explanation[-1] = (
                f"{count(wounds, 'wound')} of {left} left: a casualty, remove the model"
            )
        else:
            shot.outcome = "wounded"
            shot.explanation[-1] = f"{count(wounds, 'wound')}: {left - wounds} left"
        left -= wounds


def _finish(shot: Resolution, outcome: str, victim: Victim, wounds: int) -> Resolution:
    shot.outcome = outcome
    shot.fields.update(
        victim=victim.label,
        needed_to_wound=victim.needed_to_wound,
        needed_to_save=victim.needed_to_save,
        wounds=wounds,
    )
    return shot


def _deviation_spec(
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
        table = [(2 * r, on) for r, on in table]
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
    res = _new("deviate", {})
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


def resolve_fire(t: RogueTraderTables, req: FireRequest, dice: DiceSource) -> Resolution:
    plan = planned(t, req, plan_fire)  # a batch of seeded fires plans once
    res = plan.res.fresh()
    if plan.deviation is not None:
        placed = deviation_roll(plan.deviation, dice)
        res.absorb(placed, outcome=False)
        if placed.outcome == "deviated":
            res.outcome = "deviated"
            res.explanation.append(
                "place the marker there, then resolve the models under it: "
                "hc fire ... --placed --target ... (no deviation roll)"
            )
            return res
    if plan.mode == "following":
        shots = _following_fire(plan.specs, dice, res)
    elif plan.mode == "single":  # a volley of one: the same dice, without a volley's machinery
        shots = [drive(shot_steps(plan.specs[0]), dice, as_phase=True)]
    else:
        shots = fire_volley(plan.specs, dice, plan.one_model)
    if plan.mode == "single":
        res.absorb(shots[0])
        return res
    res.shots = shots
    res.summary = _summary(
        [s.outcome or "" for s in shots], sum(s.fields.get("wounds", 0) for s in shots)
    )
    res.outcome = _worst(shots)
    if plan.mode == "following":
        res.summary["targets_reached"] = len(shots)
    else:
        res.fields["phases"] = phase_lines(shots)
    return res


def _following_fire(specs: list[ShotSpec], dice: DiceSource, res: Resolution) -> list[Resolution]:
    """Following fire, shot by shot: each goes on only after wound damage; a model shot at
    again (its --target repeated) keeps the wounds it took, and a model already removed is
    passed over for the next listed model still on the table."""
    shots: list[Resolution] = []
    taken: dict[str, int] = {}
    for spec in specs:
        before = taken.get(spec.model, 0)
        if before >= spec.victim.wounds_left:
            res.explanation.append(
                f"{spec.label}: already removed as a casualty; the next shot goes to the next "
                "listed model still on the table"
            )
            continue
        shot = drive(shot_steps(spec, spec.victim.wounds_left - before), dice)
        if shot.fields.get("victim") == spec.victim.label:
            taken[spec.model] = before + shot.fields.get("wounds", 0)
        shots.append(shot)
        if shot.outcome not in WOUND_DAMAGE:
            res.explanation.append(f"following fire stops at {spec.label}: {shot.outcome}")
            break
    return shots


SEVERITY = ("miss", "no-wound", "saved", "wounded", "casualty")


def _worst(shots: list[Resolution]) -> str:
    """A volley's outcome in one word: the most a shot of it did."""
    return max((s.outcome or "miss" for s in shots), key=SEVERITY.index)


def phase_lines(shots: list[Resolution]) -> list[str]:
    """The dice of a volley grouped by phase, as the table rolls them: "to hit: 3 3 -> 2 hits"."""
    by_phase: dict[str, list[str]] = {}
    for shot in shots:
        for roll in shot.rolls:
            phase = "damage" if roll.purpose.startswith("damage") else roll.purpose
            by_phase.setdefault(phase, []).append(str(roll.value))
    hits = sum(s.outcome != "miss" for s in shots)
    wounding = sum(s.outcome in WOUND_DAMAGE for s in shots)
    failed = sum(s.outcome in ("wounded", "casualty") for s in shots)
    wounds = sum(s.fields.get("wounds", 0) for s in shots)
    # A 7+ volley: the first dice decide only which shots roll a second die.
    seconds = sum(any(r.purpose == "to hit (after a 6)" for r in s.rolls) for s in shots)
    results = {
        "to hit": f"{seconds} need a second die" if seconds else count(hits, "hit"),
        "to hit (after a 6)": count(hits, "hit"),
        "to wound": count(wounding, "wounding hit"),
        "save": f"{count(wounding - failed, 'save')} made, {failed} failed",
        "damage": count(wounds, "wound") + " caused",
    }
    return [
        f"{phase}: {' '.join(values)}" + (f" -> {results[phase]}" if phase in results else "")
        for phase, values in sorted(by_phase.items(), key=lambda kv: _phase_rank(kv[0]))
    ]


def _phase_rank(purpose: str) -> int:
    for rank, name in enumerate(PHASES):
        if purpose == name:
            return rank
    return PHASES.index("who is hit")


def _summary(outcomes: list[str], wounds: int) -> dict:
    counts = {o: outcomes.count(o) for o in OUTCOMES}
    return {
        "shots": len(outcomes),
        "hits": len(outcomes) - counts["miss"],
        "wounds": wounds,
        "saved": counts["saved"],
        "casualties": counts["casualty"],
    }


# ---------------------------------------------------------------------------------------------
# Odds: the same `shot_steps`, under an enumerating dice source


def _shot_odds(spec: ShotSpec) -> dict[tuple[str, int, bool], Fraction]:
    """(outcome, wounds, whether the shot's own victim was struck) -> probability."""
    from hc_cli.odds import enumerate_outcomes

    return enumerate_outcomes(
        lambda d: drive(shot_steps(spec), d),
        lambda r: (r.outcome, r.fields["wounds"], r.fields["victim"] == spec.victim.label),
    )


def _outcomes(dist: dict[tuple[str, int], Fraction]) -> dict[str, Fraction]:
    from fractions import Fraction

    out = dict.fromkeys(OUTCOMES, Fraction(0))
    for (outcome, *_), p in dist.items():
        out[outcome] += p
    return out


def _wounds(dist: dict[tuple[str, int], Fraction]) -> dict[int, Fraction]:
    from fractions import Fraction

    out: dict[int, Fraction] = {}
    for (_, wounds, *_), p in dist.items():
        out[wounds] = out.get(wounds, Fraction(0)) + p
    return dict(sorted(out.items()))


def _casualty(dist: dict[tuple[str, int], Fraction]) -> dict[int, Fraction]:
    from fractions import Fraction

    p = sum((v for (o, *_), v in dist.items() if o == "casualty"), Fraction(0))
    return {0: 1 - p, 1: p}


def fire_odds(t: RogueTraderTables, req: FireRequest) -> Resolution:
    from fractions import Fraction

    from hc_cli.odds import POWER_BUDGET, Distribution, add_independent, enumerate_outcomes

    plan = plan_fire(t, req)
    res = plan.res
    per_shot = {}
    for spec in plan.specs:
        key = replace(spec, label="")
        if key not in per_shot:
            per_shot[key] = _shot_odds(key)
    dists = [per_shot[replace(s, label="")] for s in plan.specs]
    if plan.mode == "single":
        res.odds = Odds(_outcomes(dists[0]), {"wounds": _wounds(dists[0])})
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
    each = [Distribution.of(_wounds(d)) for d in dists]
    # The total wounds of thousands of shots of multi-die damage: a distribution of tens of
    # thousands of sums of long integers. Past its budget only its mean is given.
    whole = len(per_shot) > 1 or each[0].power_cost(len(each)) <= POWER_BUDGET
    wounds = add_independent(each) if whole else None
    if plan.one_model:
        left = plan.specs[0].victim.wounds_left
        dead = each[0].power_tail(len(each), left)  # the sums below its wounds left, alone
        casualties = {0: 1 - dead, 1: dead}
    else:
        casualties = add_independent(_casualty(d) for d in dists)
    counts = {"casualties": casualties}
    if wounds is not None:
        counts["wounds"] = wounds
    else:
        total = sum(w.mean() for w in each)
        res.explanation.append(
            f"wounds: mean {float(total):.2f}; the odds of each of the "
            f"{max(each[0]) * len(each) + 1:,} totals of {len(each):,} shots are left out "
            "(they take too long to work out exactly: ask about fewer shots for them)"
        )
    if len(per_shot) == 1:
        res.fields["odds_per"] = "shot"
        outcomes = _outcomes(dists[0])
    else:
        res.shots = [_odds_shot(spec, dist) for spec, dist in zip(plan.specs, dists, strict=True)]
        outcomes = {
            "no casualty": casualties.get(0, Fraction(0)),
            "at least one casualty": 1 - casualties.get(0, Fraction(0)),
        }
    if plan.deviation is not None:
        deviates = enumerate_outcomes(
            lambda d: deviation_roll(plan.deviation, d), lambda r: r.outcome
        )
        on_target = deviates.get("on-target", Fraction(0))
        res.explanation.append(
            "the odds below the deviation are for the marker on target; a "
            "deviated marker is resolved again with --placed"
        )
        outcomes = {
            "deviated": deviates.get("deviated", Fraction(0)),
            **{f"on target, {k}": v * on_target for k, v in outcomes.items()},
        }
    res.odds = Odds(outcomes, counts)
    return res


def _odds_shot(spec: ShotSpec, dist: dict) -> Resolution:
    shot = _new("fire", {})
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

    from hc_cli.dice import TooManyOutcomes
    from hc_cli.odds import MAX_PATHS

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
        if work > MAX_PATHS:
            raise TooManyOutcomes(
                f"--odds for following fire along {len(specs)} targets would follow more than "
                f"{MAX_PATHS:,} states of wounds",
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


# ---------------------------------------------------------------------------------------------
# Deviation on its own


def plan_deviate(t: RogueTraderTables, req: DeviateRequest) -> tuple[Resolution, DeviationSpec]:
    res = _new(
        "deviate",
        {
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
    return res, _deviation_spec(t, radius, req.range, req.blasting_cover, res)


def resolve_deviate(t: RogueTraderTables, req: DeviateRequest, dice: DiceSource) -> Resolution:
    res, spec = plan_deviate(t, req)
    res.absorb(deviation_roll(spec, dice))
    return res


def deviate_odds(t: RogueTraderTables, req: DeviateRequest) -> Resolution:
    from fractions import Fraction

    from hc_cli.odds import enumerate_outcomes

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


# ---------------------------------------------------------------------------------------------
# The first turn: "Flip a coin to see which side has the first turn."


@record(frozen=True)
class InitiativeRequest:
    sides: tuple[str, str] = ("Side 1", "Side 2")


def plan_initiative(req: InitiativeRequest) -> Resolution:
    a, b = (s.strip() for s in req.sides)
    if not a or not b or a.lower() == b.lower():
        raise HcError(
            f"the two sides need two different names, not '{a}' and '{b}'",
            "give --side NAME twice, e.g. --side Imperials --side Orks",
        )
    return _new("initiative", {"sides": [a, b]})


def coin_flip(res: Resolution, dice: DiceSource) -> Resolution:
    """The coin: heads (1) the first side named goes first, tails (2) the other."""
    a, b = res.inputs["sides"]
    res = replace(res, rolls=[], explanation=[], fields={})
    coin = dice.roll(2, "coin (1 heads, 2 tails)")
    res.rolls.append(coin)
    first, second = (a, b) if coin.value == 1 else (b, a)
    res.outcome = first
    res.fields["order"] = [
        {"name": first, "initiative": None, "extra": False, "player": "A", "role": "side"},
        {"name": second, "initiative": None, "extra": False, "player": "B", "role": "side"},
    ]
    res.explanation += [
        f"the coin falls {'heads' if coin.value == 1 else 'tails'}: {first} has the first turn "
        f"(side A), then {second} (side B), then {first} again, in strict rotation"
    ]
    return res


def resolve_initiative(
    t: RogueTraderTables, req: InitiativeRequest, dice: DiceSource
) -> Resolution:
    return coin_flip(plan_initiative(req), dice)


def initiative_odds(t: RogueTraderTables, req: InitiativeRequest) -> Resolution:
    from hc_cli.odds import enumerate_outcomes

    res = plan_initiative(req)
    res.odds = Odds(enumerate_outcomes(lambda d: coin_flip(res, d), lambda r: r.outcome))
    return res

"""Rogue Trader shooting, planned: the firer, the weapon, the range band, every to-hit modifier,
the score needed, each target's toughness, wounds and save; fixed before a die is rolled.
Pure: no printing, no typer, no rich."""

from __future__ import annotations

import math
from dataclasses import replace

from hc_cli.core.errors import HcError, OutOfRange
from hc_cli.core.model import Modifier, Resolution
from hc_cli.core.numbers import is_whole
from hc_cli.core.roll import check_damage
from hc_cli.core.words import count
from hc_cli.rulesets.rogue_trader.area import _deviation_spec
from hc_cli.rulesets.rogue_trader.request import FirePlan, FireRequest, ShotSpec, Victim
from hc_cli.rulesets.rogue_trader.tables import RULESET, RogueTraderTables, Weapon
from hc_cli.rulesets.rogue_trader.volley import SHARES, models_left, wounded_firers
from hc_cli.tables import readings

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any


def _new(command: str, inputs: dict) -> Resolution:
    return Resolution(command=command, ruleset=RULESET, inputs=inputs)


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
    return int(bs)  # a whole number: --bs is one, and so is a profile's


def _weapon(t: RogueTraderTables, req: FireRequest, res: Resolution) -> Weapon:
    """The weapon from the table, with any direct numbers laid over it."""
    direct: dict[str, Any] = {
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
        raise OutOfRange(
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
    taken: int | None = None,
) -> tuple[Victim, str]:
    """A target's numbers from its profile or the flags; returns it and its size. `taken`:
    the wounds a mount or a friend has taken (the target's flags are not theirs)."""
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
    if taken is not None:
        if not 0 <= taken < wounds:
            raise HcError(
                f"--friend-wounded {taken} does not fit W {wounds}",
                f"give 0..{wounds - 1}: a model with W wounds taken is already a casualty",
            )
        wounds_left = wounds - taken
    elif req.wounds_taken is not None:
        if not 0 <= req.wounds_taken < wounds:
            raise HcError(
                f"--wounds-taken {req.wounds_taken} does not fit W {wounds}",
                f"give 0..{wounds - 1}: a model with W wounds taken is already a casualty",
            )
        wounds_left = wounds - req.wounds_taken
    if req.wounds_left is not None and taken is None:
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
        wounds,
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
    elif req.friend or req.friend_wounded:
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

    if req.one_model and mode != "unit":
        raise HcError(
            "--one-model is for a unit's --shots N at one model",
            "give --shots N with one --target (following fire at the same model: repeat "
            "its --target)",
        )
    hurt_shots = wounded_firers(req, mode)
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
                taken=req.friend_wounded if split == "melee" else 0,
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
            if hurt_shots:
                hurt = [*mods, _table_mod(t, "firer-wounded", res)]
                hurt_needed, hurt_second, hurt_notes = _needed_to_hit(t, bs, hurt, req, res)
        elif partly:
            res.explanation.append(
                f"{victim.label}: partly under the marker, "
                + ("a D6 of 4-6 makes it a target" if under_die else f"needs {needed}")
            )
    left = models_left(req, mode, specs)
    if mode != "unit":  # a model a spec: each with the wounds it has left
        specs = [
            replace(spec, victim=replace(spec.victim, wounds_left=wounds))
            for spec, wounds in zip(specs, left, strict=True)
        ]
    if mode == "unit":
        first = specs[0]
        specs = [replace(first, label=f"shot {n + 1}") for n in range(req.shots)]
        if hurt_shots:
            specs[:hurt_shots] = [
                replace(
                    spec,
                    label=f"{spec.label} (wounded firer)",
                    needed_to_hit=hurt_needed,
                    second_roll=hurt_second,
                )
                for spec in specs[:hurt_shots]
            ]
            res.explanation.append(
                f"{count(hurt_shots, 'shot')} from wounded models (the first): "
                + "; ".join(hurt_notes[:1] + hurt_notes[2:])
            )
    first = specs[0]
    res.fields.update(
        needed_to_hit=first.needed_to_hit,
        needed_to_wound=first.victim.needed_to_wound,
        needed_to_save=first.victim.needed_to_save,
    )
    plan = FirePlan(res, specs, mode)
    if mode == "unit":
        plan.left = tuple(left)
        plan.numbered = req.models is not None
        if req.models is not None:
            plan.share = readings.choose(t.merged, "volley-shares", res)
            res.inputs.update(models=req.models, wounded=list(req.wounded))
            res.explanation.append(
                f"{count(req.shots, 'shot')} at {count(len(left), 'model')} of "
                f"{first.victim.label}: shared {SHARES[plan.share]}"
            )
        elif req.one_model:
            res.explanation.append(
                f"every shot at one {first.victim.label}: the wounds add up against its "
                f"{count(left[0], 'wound')} left"
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
            radius = weapon.area or 0.0  # an area weapon: its area is its radius
            plan.deviation = _deviation_spec(t, radius, req.range, req.blasting_cover, res)
    if mode == "following":
        res.explanation.append(
            f"following fire: each shot that causes wound damage (even if saved) fires again at "
            f'the next target, within {t.rule("following-fire-reach")}" of the last; a miss or a '
            "failure to wound stops it"
        )
    return plan

"""Rogue Trader shooting, planned: the roll to hit (`to_hit`), the mode of fire, each target's
toughness, wounds and save, and every shot's numbers; fixed before a die is rolled. Pure: no
printing, no typer, no rich."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hc_cli.core.errors import HcError
from hc_cli.core.model import Modifier, Resolution
from hc_cli.core.words import count
from hc_cli.rulesets.rogue_trader.area import deviation_spec
from hc_cli.rulesets.rogue_trader.request import (
    FRIEND,
    FirePlan,
    FireRequest,
    ShotSpec,
    Victim,
    new_resolution,
)
from hc_cli.rulesets.rogue_trader.tables import RogueTraderTables, Weapon
from hc_cli.rulesets.rogue_trader.to_hit import (
    firer_bs,
    needed_to_hit,
    range_band,
    size_modifier,
    table_mod,
    to_hit_modifiers,
    weapon_of,
)
from hc_cli.rulesets.rogue_trader.volley import SHARES, models_left, wounded_firers
from hc_cli.tables import readings


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
    res = new_resolution(
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
    bs = firer_bs(t, req, res)
    weapon = weapon_of(t, req, res)
    if weapon.slow and req.moved:
        raise HcError(
            f"{weapon.key} is a slow (S-type) weapon: it cannot fire after moving",
            "leave out --moved if the firer stayed still (turning counts as moving)",
        )
    band = range_band(weapon, req, res)
    if req.moving_surface and req.mounted_weapon:
        readings.choose(t.merged, "mounted-weapon-exemption", res)
    if req.moving_surface and not req.mounted_weapon and band == "long":
        raise HcError(
            "firing from a moving vehicle or mount: short range only",
            f'close to {weapon.short:g}" or less (a vehicle-mounted weapon: --mounted-weapon)',
        )
    base_mods = to_hit_modifiers(t, req, weapon, band, res)
    res.fields.update(
        bs=bs, strength=weapon.strength, damage=weapon.damage, save_modifier=weapon.save_modifier
    )
    res.note_source(weapon, "strength", f"{weapon.key} S{weapon.strength}, damage {weapon.damage}")
    res.note_source(
        weapon, "save_modifier", f"{weapon.key} save modifier {weapon.save_modifier:+d}"
    )
    mode, names = _mode(req, weapon)
    other, names = _the_other(req, band, names)
    if req.one_model and mode != "unit":
        raise HcError(
            "--one-model is for a unit's --shots N at one model",
            "give --shots N with one --target (following fire at the same model: repeat "
            "its --target)",
        )
    aim = Aim(req, weapon, res, bs, base_mods, mode, wounded_firers(req, mode))
    specs, hurt = _shot_specs(t, aim, names, other)
    left = models_left(req, mode, specs)
    specs = _each_model(aim, specs, left, hurt)
    first = specs[0]
    res.fields.update(
        needed_to_hit=first.needed_to_hit,
        needed_to_wound=first.victim.needed_to_wound,
        needed_to_save=first.victim.needed_to_save,
    )
    plan = FirePlan(res, specs, mode)
    if mode == "unit":
        _unit_volley(t, req, plan, left)
    if mode == "area":
        _area_marker(t, req, weapon, plan, len(names))
    if mode == "following":
        res.explanation.append(
            f"following fire: each shot that causes wound damage (even if saved) fires again at "
            f'the next target, within {t.rule("following-fire-reach")}" of the last; a miss or a '
            "failure to wound stops it"
        )
    return plan


@dataclass(frozen=True, slots=True)
class Aim:
    """What each shot of a fire reads: the request, the weapon, the resolution being written,
    the firer's BS, the to-hit modifiers every target shares, the mode of fire and how many
    of a unit's shots come from wounded models."""

    req: FireRequest
    weapon: Weapon
    res: Resolution
    bs: int
    base_mods: list[Modifier]
    mode: str
    hurt_shots: int


def _mode(req: FireRequest, weapon: Weapon) -> tuple[str, list[str | None]]:
    """The mode of fire and the models fired at: an area weapon's models under the marker,
    following fire's targets in order, a unit's shots, or a single shot."""
    names: list[str | None] = list(req.targets) or [None]
    if weapon.area is not None:
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
        return "area", names
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
            f"{len(names)} targets given, but {weapon.key} is no following-fire (F-type) weapon",
            "give one --target (with --shots N for a unit)",
        )
    if len(names) > 1 and req.shots > 1:
        raise HcError(
            "--shots and following fire do not go together",
            "following fire walks its --target list in order; --shots is for a unit",
        )
    if req.blasting_cover:
        raise HcError("--blasting-cover is for area weapons", "leave it out")
    return ("following" if len(names) > 1 else ("unit" if req.shots > 1 else "single")), names


def _the_other(
    req: FireRequest, band: str | None, names: list[str | None]
) -> tuple[tuple[str, str] | None, list[str | None]]:
    """The other a shot may hit, and which (a D6 decides): the firer's own model when firing
    into hand to hand, the mount when firing at a rider at long range; a shot at the mount
    hits the mount."""
    other = None
    if req.into_melee:
        if not req.friend:
            raise HcError(
                "--into-melee needs --friend PROFILE",
                "a D6 of 4-6 hits the firer's own model: say which profile it has",
            )
        other = (req.friend, "melee")
    elif req.friend or req.friend_wounded:
        raise HcError("--friend goes with --into-melee", "add --into-melee or leave out --friend")
    if req.mount:
        if req.into_melee:
            raise HcError("--mount and --into-melee do not go together", "give one of them")
        if band == "long":
            other = (req.mount, "rider")
        elif req.at_mount:
            names = [req.mount] * len(names)
    elif req.at_mount:
        raise HcError("--at-mount needs --mount PROFILE", "name the vehicle or mount")
    return other, names


def _shot_specs(
    t: RogueTraderTables, aim: Aim, names: list[str | None], other: tuple[str, str] | None
) -> tuple[list[ShotSpec], tuple[int, int | None, list[str]] | None]:
    """A shot for each model fired at: its victim (and the other), the score it needs to hit
    with the target's size and cover; and what a wounded firer needs (-1 to hit)."""
    req, weapon, res = aim.req, aim.weapon, aim.res
    area = aim.mode == "area"
    other_name, split = other if other is not None else (None, None)
    specs = []
    hurt = None
    for i, name in enumerate(names):
        victim, size = _victim(
            t,
            name,
            req,
            weapon,
            res,
            label=None if len(names) == 1 else f"{i + 1}: {name or 'target'}",
        )
        mods = aim.base_mods + size_modifier(t, size, res)
        partly = area and i >= len(names) - req.partly
        under_die = (
            partly and readings.choose(t.merged, "partly-under-marker", res) == "throw-a-dice"
        )
        if partly and not under_die:
            mods = mods + [table_mod(t, "partly-under-marker", res)]
        if area and req.closed_room:
            # Every occupant is hit: no score is needed, so none can be too high.
            needed, second, notes = 0, None, ["closed room: no roll to hit"]
        else:
            needed, second, notes = needed_to_hit(t, aim.bs, mods, req, res)
        other_victim = None
        if other_name is not None:
            other_victim, _ = _victim(
                t,
                other_name,
                req,
                weapon,
                res,
                label=("mount: " if split == "rider" else FRIEND) + other_name,
                taken=req.friend_wounded if split == "melee" else 0,
            )
        specs.append(
            ShotSpec(
                victim.label if len(names) > 1 else "",
                needed,
                second,
                victim,
                other_victim,
                split,
                t.rule("rider-split" if split == "rider" else "melee-split"),
                weapon.damage,
                auto_hit=area and req.closed_room,
                model=name or "target",
                under_die=under_die,
            )
        )
        if i == 0:
            res.modifiers.extend(mods)
            res.explanation.extend(notes)
            if aim.hurt_shots:
                hurt = needed_to_hit(
                    t, aim.bs, [*mods, table_mod(t, "firer-wounded", res)], req, res
                )
        elif partly:
            res.explanation.append(
                f"{victim.label}: partly under the marker, "
                + ("a D6 of 4-6 makes it a target" if under_die else f"needs {needed}")
            )
    return specs, hurt


def _each_model(
    aim: Aim,
    specs: list[ShotSpec],
    left: list[int],
    hurt: tuple[int, int | None, list[str]] | None,
) -> list[ShotSpec]:
    """A model a spec, each with the wounds it has left; a unit's volley a spec a shot, the
    first ones from wounded models."""
    if aim.mode != "unit":
        return [
            replace(spec, victim=replace(spec.victim, wounds_left=wounds))
            for spec, wounds in zip(specs, left, strict=True)
        ]
    specs = [replace(specs[0], label=f"shot {n + 1}") for n in range(aim.req.shots)]
    if hurt is not None:
        hurt_needed, hurt_second, hurt_notes = hurt
        specs[: aim.hurt_shots] = [
            replace(
                spec,
                label=f"{spec.label} (wounded firer)",
                needed_to_hit=hurt_needed,
                second_roll=hurt_second,
            )
            for spec in specs[: aim.hurt_shots]
        ]
        aim.res.explanation.append(
            f"{count(aim.hurt_shots, 'shot')} from wounded models (the first): "
            + "; ".join(hurt_notes[:1] + hurt_notes[2:])
        )
    return specs


def _unit_volley(t: RogueTraderTables, req: FireRequest, plan: FirePlan, left: list[int]) -> None:
    """A unit's shots at another unit: the wounds each model fired at has left, and how the
    shots are shared among them (or all at one model)."""
    res, first = plan.res, plan.specs[0]
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


def _area_marker(
    t: RogueTraderTables, req: FireRequest, weapon: Weapon, plan: FirePlan, under: int
) -> None:
    """An area weapon's marker: where it lands (a deviation unless placed), or a closed room
    whose every occupant is hit."""
    res = plan.res
    res.inputs.update(under=under, partly=req.partly, placed=req.placed)
    if req.closed_room:
        res.explanation.append(
            "closed room or vehicle (one building section): every occupant is hit automatically"
        )
    # "Area weapons thrown or fired into a closed room or vehicle, will hit all occupants
    # automatically": nothing to deviate from.
    if not req.placed and not req.closed_room:
        radius = weapon.area or 0.0  # an area weapon: its area is its radius
        plan.deviation = deviation_spec(t, radius, req.range, req.blasting_cover, res)

"""High Crusade fire: the weapon's numbers at the range, each target's shots planned before a
die is rolled (`plan_fire`), one D100 per shot decided by `decide_shot`, and the odds from the
same step under an enumerating dice source. A volley of several weapons (a Fireteam whose
officer carries a machine-pistol) is planned by `plan_volley`, each figure with its own
weapon's band, and rolled and enumerated by the very same steps. Pure."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hc_cli.core.dice import DiceSource, Roll
from hc_cli.core.errors import HcError, OutOfRange
from hc_cli.core.model import Modifier, Odds, Resolution
from hc_cli.core.mods import ModSpec
from hc_cli.core.plans import planned
from hc_cli.core.words import count
from hc_cli.rulesets.high_crusade.steps import (
    in_order,
    indicator,
    mod_total,
    new_resolution,
    resolve_mods,
)
from hc_cli.rulesets.high_crusade.tables import HighCrusadeTables, RangeBand, Weapon

# ---------------------------------------------------------------------------------------------
# Fire


@dataclass(frozen=True, slots=True)
class TargetSpec:
    """A target: a troop type (its DF from the table) or a bare defence factor, or both."""

    troop: str | None = None
    defence: int | None = None


@dataclass(frozen=True, slots=True)
class FireRequest:
    weapon: str | None = None
    range: float | None = None
    chance: int | None = None
    penetration: int | None = None
    targets: tuple[TargetSpec, ...] = ()
    shots: int = 1
    template: str | None = None
    mods: tuple[ModSpec, ...] = ()
    ambush: bool = False
    # A volley of several weapons (--volley): (weapon, figures firing it), in firing order.
    weapons: tuple[tuple[str, int], ...] = ()
    under: int | None = None  # figures of the (one) --target under each template
    order: str | None = None  # the firer's order for the move (orders.yaml)
    target_order: str | None = None  # the target's


@dataclass(frozen=True, slots=True)
class ShotSpec:
    """Everything one shot needs, fixed before its die is rolled."""

    label: str
    chance: int
    penetration: int
    defence: int


def _to_hit(spec: ShotSpec) -> str:
    return f"to hit {spec.label}" if spec.label else "to hit"


def fire_shot(spec: ShotSpec, dice: DiceSource) -> Resolution:
    return decide_shot(spec, dice.d100(_to_hit(spec)))


def decide_shot(spec: ShotSpec, roll: Roll) -> Resolution:
    """One D100 against one target: the only place a High Crusade shot is decided."""
    shot = new_resolution("fire", {})
    shot.label = spec.label
    shot.rolls.append(roll)
    shot.fields.update(chance=spec.chance, penetration=spec.penetration, defence=spec.defence)
    if roll.value > spec.chance:
        shot.outcome = "miss"
        shot.explanation.append(f"D100 {roll.value} > {spec.chance}: miss")
    elif spec.penetration >= spec.defence:
        shot.outcome = "kill"
        shot.explanation.append(
            f"D100 {roll.value} <= {spec.chance}: hit; penetration "
            f"{spec.penetration} >= DF {spec.defence}: killed, remove it"
        )
    else:
        shot.outcome = "hit"
        shot.explanation.append(
            f"D100 {roll.value} <= {spec.chance}: hit; penetration "
            f"{spec.penetration} < DF {spec.defence}: it cannot kill"
        )
    return shot


def plan_fire(tables: HighCrusadeTables, req: FireRequest) -> tuple[Resolution, list[ShotSpec]]:
    if req.shots < 1:
        raise HcError(f"--shots {req.shots} fires nothing", "give --shots 1 or more")
    if req.range is not None and req.range < 0:
        raise HcError(
            f"--range {req.range:g} is negative", "give the distance in inches, 0 or more"
        )
    for value, flag in ((req.chance, "--chance"), (req.penetration, "--penetration")):
        if value is not None and value < 0:
            raise HcError(f"{flag} {value} is negative", f"give {flag} as 0 or more")
    if req.under is not None and len(req.targets) > 1:
        raise HcError(
            "--under N counts the figures of one --target under the template",
            "give one --target with --under N, or one --target per figure",
        )
    if req.weapons:
        return plan_volley(tables, req)
    weapon = tables.weapon(req.weapon) if req.weapon else None
    inputs: dict = {
        "weapon": weapon.key if weapon else None,
        "range": req.range,
        "shots": req.shots,
        "mods": [m.text for m in req.mods],
    }
    res = new_resolution("fire", inputs)
    chance, penetration = _base_numbers(weapon, req, res)

    template_name = _template_name(weapon, req)
    if len(req.targets) > 1 and template_name is None:
        raise HcError(
            f"{len(req.targets)} targets given, but "
            f"{weapon.key if weapon else 'this weapon'} fires without a template",
            "give one --target (with --shots N for a Fireteam), or --template "
            "cone|circle for a heavy weapon",
        )
    if len(req.targets) > 1 and req.shots > 1:
        raise HcError(
            "--shots and several --target do not go together",
            "a template shot already resolves every figure under it: give the "
            "targets once, and fire again for another shot",
        )
    if req.under is not None and template_name is None:
        raise HcError(
            f"--under {req.under} counts the figures under a template: "
            f"{weapon.key if weapon else 'this weapon'} fires without one",
            "leave out --under, or fire a heavy weapon (--template cone|circle for one given "
            "by numbers)",
        )
    if template_name is not None:
        inputs["template"] = _note_template(tables, template_name, res)

    mods = _fire_mods(tables, req, res)
    chance_mod = mod_total(mods, "chance")
    defence_mod = mod_total(mods, "defence")
    res.fields.update(base_chance=chance, chance=chance + chance_mod, penetration=penetration)

    targets = _targets(tables, req.targets * (req.under or 1), res)
    specs = []
    for n in range(req.shots if len(targets) == 1 or req.under else 1):
        for label, defence in targets:
            if len(targets) > 1:
                tag = f"template {n + 1}: {label}" if req.shots > 1 else label
            else:
                tag = f"shot {n + 1}" if req.shots > 1 else ""
            specs.append(ShotSpec(tag, chance + chance_mod, penetration, defence + defence_mod))
    inputs["targets"] = [label for label, _ in targets]
    if req.under is not None:
        inputs["under"] = req.under
    return _finish_plan(req, res, specs)


def plan_volley(tables: HighCrusadeTables, req: FireRequest) -> tuple[Resolution, list[ShotSpec]]:
    """A volley of several weapons at one target: each figure fires its own weapon's band at
    the range, in the order the weapons are given; a heavy weapon's figure fires a template
    shot over --under figures of the target. A weapon the range is beyond does not fire."""
    if len(req.targets) > 1:
        raise HcError(
            "a volley of several weapons fires at one --target",
            "give one --target, and --under N for the figures under a template",
        )
    if req.range is None:
        raise HcError("--range is needed to find each weapon's range band", "give --range INCHES")
    weapons = [(tables.weapon(name), figures) for name, figures in req.weapons]
    if len({weapon.key for weapon, _ in weapons}) < len(weapons):
        raise HcError(
            "a weapon is given twice in the volley",
            "give each weapon once, with all its figures: --volley NAME:N",
        )
    res = new_resolution(
        "fire",
        {
            "volley": [f"{weapon.key}:{figures}" for weapon, figures in weapons],
            "range": req.range,
            "shots": 0,  # the figures that fire, counted below
            "mods": [m.text for m in req.mods],
        },
    )
    mods = _fire_mods(tables, req, res)
    chance_mod, defence_mod = mod_total(mods, "chance"), mod_total(mods, "defence")
    _check_under(weapons, req.under)
    ((target, defence),) = _targets(tables, req.targets, res)
    specs = []
    bands, base, chance, penetration = {}, {}, {}, {}
    for weapon, figures in weapons:
        band = _band_at(weapon, req.range, res)
        if band is None:
            res.explanation.append(
                f'{weapon.key} reaches {weapon.bands[-1].up_to:g}": out of range at '
                f'{req.range:g}", {count(figures, "figure")} with it '
                + ("does" if figures == 1 else "do")
                + " not fire"
            )
            continue
        bands[weapon.key], base[weapon.key] = band.label, band.chance
        chance[weapon.key], penetration[weapon.key] = band.chance + chance_mod, band.penetration
        if weapon.template:
            res.inputs["template"] = _note_template(tables, weapon.template, res)
        for n in range(figures):
            shot = ShotSpec("", band.chance + chance_mod, band.penetration, defence + defence_mod)
            if not weapon.template:
                specs.append(replace(shot, label=f"{weapon.key} shot {n + 1}"))
                continue
            template = f" template {n + 1}" if figures > 1 else ""
            specs += [
                replace(shot, label=f"{weapon.key}{template}: target {i + 1} ({target})")
                for i in range(req.under or 1)
            ]
    if not specs:
        raise _out_of_range(
            max((w for w, _ in weapons), key=lambda w: w.bands[-1].up_to), req.range
        )
    # The figures that fire: those of a weapon the range is beyond do not.
    shots = sum(figures for weapon, figures in weapons if weapon.key in bands)
    res.inputs.update(shots=shots, targets=[target], under=req.under)
    res.fields.update(
        band=bands,
        base_chance=base,
        chance=chance,
        penetration=penetration,
        defence=defence + defence_mod,
    )
    return _finish_plan(req, res, specs)


def _check_under(weapons: list[tuple[Weapon, int]], under: int | None) -> None:
    """A heavy weapon fires under its template: --under says how many figures of the target
    are under it, and is for no other weapon."""
    if any(weapon.template for weapon, _ in weapons) and under is None:
        heavy = next(weapon.key for weapon, _ in weapons if weapon.template)
        raise HcError(
            f"{heavy} fires under its template: how many figures of the target are under it?",
            "give --under N (each figure under it is a target)",
        )
    if under is not None and not any(weapon.template for weapon, _ in weapons):
        raise HcError(
            f"--under {under} counts the figures under a template: no weapon of the volley "
            "fires under one",
            "leave out --under",
        )


def _fire_mods(tables: HighCrusadeTables, req: FireRequest, res: Resolution) -> list[Modifier]:
    """The modifiers of a shot: the firer's order's and the target's (seed 000: they "depend
    on the firers orders for that move and the targets"), then each --mod."""
    names = []
    for order_name, side, said in (
        (req.order, "firer", "order"),
        (req.target_order, "target", "target-order"),
    ):
        if order_name is None:
            continue
        order = tables.order(order_name)
        res.inputs[said.replace("-", "_")] = order.key
        modifier = order.firer if side == "firer" else order.target
        if modifier is None:
            res.explanation.append(f"{side} on {order.key.capitalize()} orders: no modifier")
            continue
        if any(spec.name == modifier for spec in req.mods):
            raise HcError(
                f"--{said} {order.key} and --mod {modifier} give the same modifier twice",
                f"leave out --mod {modifier}: the order gives it",
            )
        names.append(ModSpec(modifier, name=modifier))
    mods = resolve_mods(tables, (*names, *req.mods), ("chance", "defence"), "chance", "fire", res)
    res.modifiers.extend(mods)
    return mods


def _finish_plan(
    req: FireRequest, res: Resolution, specs: list[ShotSpec]
) -> tuple[Resolution, list[ShotSpec]]:
    if req.ambush:
        res.inputs["ambush"] = True
        res.explanation.append(
            "an ambush: the Fireteam fired at must test its Morale (hc morale --ambushed); in "
            "a game, hc says so after the result"
        )
    if len(specs) == 1:
        res.fields["defence"] = specs[0].defence
    return res, specs


def _note_template(tables: HighCrusadeTables, name: str, res: Resolution) -> str:
    """The template a heavy weapon fires under, its sizes in the fields and what it means."""
    template = tables.template(name)
    res.fields["template"] = {
        "name": template.key,
        "shape": template.shape,
        "size_15mm": template.size_15mm,
        "size_25mm": template.size_25mm,
    }
    res.note_source(template, "size_15mm", f"{template.key} template sizes")
    res.explanation.append(
        f"{template.key} template: every figure wholly or partly under "
        "it is a target, each resolved on its own"
    )
    return template.key


def _base_numbers(weapon, req: FireRequest, res: Resolution) -> tuple[int, int]:
    """Chance and penetration: the weapon's band at this range, or the numbers given."""
    if weapon is None:
        missing = [
            f
            for f, v in (("--chance", req.chance), ("--penetration", req.penetration))
            if v is None
        ]
        if missing:
            raise HcError(
                "no weapon given and no " + " or ".join(missing),
                "give --weapon NAME --range INCHES, or the numbers: --chance 65 --penetration 4",
            )
        res.inputs.update(chance=req.chance, penetration=req.penetration)
        return req.chance, req.penetration  # type: ignore[return-value]
    band = None
    if req.range is None:
        if req.chance is None or req.penetration is None:
            raise HcError(
                f"--range is needed to find {weapon.key}'s range band",
                "give --range INCHES (its bands: "
                + ", ".join(f"{b.label} {b.chance}/{b.penetration}" for b in weapon.bands)
                + ")",
            )
    else:
        band = _band_at(weapon, req.range, res)
        if band is None:
            raise _out_of_range(weapon, req.range)
        res.inputs["band"] = band.label
        res.fields["band"] = band.label
    chance = band.chance if band else 0
    penetration = band.penetration if band else 0
    if req.chance is not None:
        res.explanation.append(
            f"--chance {req.chance} given: used instead of the table's "
            + (f"{chance}" if band else "band")
        )
        chance = req.chance
    if req.penetration is not None:
        res.explanation.append(
            f"--penetration {req.penetration} given: used instead of the "
            "table's " + (f"{penetration}" if band else "band")
        )
        penetration = req.penetration
    res.inputs.update(chance=req.chance, penetration=req.penetration)
    return chance, penetration


def _band_at(weapon: Weapon, distance: float, res: Resolution) -> RangeBand | None:
    """The weapon's band at the range (its numbers noted as the table's), or None beyond it."""
    band = weapon.band_at(distance)
    if band is not None:
        res.note_source(
            weapon, "bands", f"{weapon.key} band {band.label}: {band.chance}/{band.penetration}"
        )
    return band


def _out_of_range(weapon: Weapon, distance: float) -> HcError:
    last = weapon.bands[-1].up_to
    return OutOfRange(
        f'out of range: {weapon.key} reaches {last:g}", the target is at '
        f'{distance:g}": no shot, no roll',
        f'move within {last:g}" to fire {weapon.key}',
    )


def _template_name(weapon, req: FireRequest) -> str | None:
    if weapon is not None and req.template is not None and weapon.template != req.template:
        owned = (
            f"uses the {weapon.template} template"
            if weapon.template
            else "fires without a template"
        )
        raise HcError(
            f"--template {req.template} does not fit {weapon.key}: it {owned}",
            "leave out --template for a weapon from the table",
        )
    return req.template if req.template is not None else (weapon.template if weapon else None)


def _targets(
    tables: HighCrusadeTables, targets: tuple[TargetSpec, ...], res: Resolution
) -> list[tuple[str, int]]:
    if not targets:
        raise HcError("no target given", "give --target TROOP (e.g. --target crusader) or --df N")
    result = []
    noted = set()
    for i, target in enumerate(targets):
        if target.defence is not None and target.defence < 0:
            raise HcError(f"defence factor {target.defence} is negative", "give a DF of 0 or more")
        if target.troop is None:
            assert target.defence is not None
            label = (
                f"target {i + 1} (DF {target.defence})"
                if len(targets) > 1
                else f"DF {target.defence}"
            )
            result.append((label, target.defence))
            continue
        troop = tables.troop(target.troop)
        label = f"target {i + 1} ({troop.key})" if len(targets) > 1 else troop.key
        if target.defence is not None:
            if target not in noted:  # once, however many figures of it are under a template
                res.explanation.append(
                    f"--df {target.defence} given: used instead of {troop.key}'s DF {troop.defence}"
                )
            noted.add(target)
            result.append((label, target.defence))
        else:
            res.note_source(troop, "defence", f"{troop.key} DF {troop.defence}")
            result.append((label, troop.defence))
    return result


def resolve_fire(tables: HighCrusadeTables, req: FireRequest, dice: DiceSource) -> Resolution:
    res, specs = planned(tables, req, plan_fire)
    res = res.fresh()
    if len(specs) == 1:
        res.absorb(fire_shot(specs[0], dice))
        return res
    # A Fireteam, or the figures under a template: every D100 rolled together, then read.
    rolls = dice.batch("to hit", [(100, _to_hit(spec)) for spec in specs])
    shots = [decide_shot(spec, roll) for spec, roll in zip(specs, rolls, strict=True)]
    res.shots = shots
    res.summary = _fire_summary([s.outcome for s in shots])
    res.outcome = max((s.outcome or "miss" for s in shots), key=("miss", "hit", "kill").index)
    hits, kills = res.summary["hits"], res.summary["kills"]
    res.fields["phases"] = [
        "to hit: "
        + " ".join(f"{r.value:02d}" for r in rolls)  # as a D100 reads: 07, not 7
        + f" -> {hits} hit{'' if hits == 1 else 's'}, {kills} kill{'' if kills == 1 else 's'}"
    ]
    return res


def _fire_summary(outcomes: list[str | None]) -> dict:
    kills = outcomes.count("kill")
    hits = kills + outcomes.count("hit")
    return {
        "shots": len(outcomes),
        "hits": hits,
        "kills": kills,
        "hits_no_kill": hits - kills,
        "misses": len(outcomes) - hits,
    }


def _outcome(res: Resolution) -> str:
    return str(res.outcome)


def fire_odds(tables: HighCrusadeTables, req: FireRequest) -> Resolution:
    from fractions import Fraction
    from functools import partial

    from hc_cli.core.odds import add_independent, enumerate_outcomes

    res, specs = plan_fire(tables, req)
    # Shots differ only by label when they share chance, penetration and DF: enumerate once.
    specs = (
        [replace(spec, label="") for spec in specs]
        if len({replace(s, label="") for s in specs}) == 1
        else specs
    )
    per_shot = {spec: enumerate_outcomes(partial(fire_shot, spec), _outcome) for spec in set(specs)}
    order = ("miss", "hit", "kill")
    # Shots are independent, so counts over several add up by convolution.
    kill_each = [indicator(per_shot[s], {"kill"}) for s in specs]
    hit_each = [indicator(per_shot[s], {"hit", "kill"}) for s in specs]
    kills = add_independent(kill_each)
    # Every hit kills when no penetration falls short of a DF: then the counts are the same.
    hits = kills if hit_each == kill_each else add_independent(hit_each)
    counts = {"kills": kills, "hits": hits} if len(specs) > 1 else {}
    if len(set(specs)) == 1:
        # One target, or a Fireteam's identical shots: each shot's odds once, then the counts.
        res.odds = Odds(in_order(per_shot[specs[0]], order), counts)
        res.fields["defence"] = specs[0].defence
        if len(specs) > 1:
            res.fields["odds_per"] = "shot"
        return res
    for spec in specs:
        shot = new_resolution("fire", {})
        shot.label = spec.label
        shot.fields.update(chance=spec.chance, penetration=spec.penetration, defence=spec.defence)
        shot.odds = Odds(in_order(per_shot[spec], order))
        res.shots.append(shot)
    none = kills.get(0, Fraction(0))
    res.odds = Odds({"no kill": none, "at least one kill": 1 - none}, counts)
    return res

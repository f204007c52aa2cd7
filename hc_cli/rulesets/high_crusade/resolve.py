"""High Crusade resolvers: typed request + tables + dice source -> one `Resolution`.

Pure: no printing, no typer, no rich. Each command has a `plan_*` step (every lookup and
modifier, fixed before any die is rolled), the dice step that rolls, and an `*_odds` step that
runs the very same dice step under an `EnumeratingDice`.
"""

from __future__ import annotations

from hc_cli import readings
from hc_cli.dice import DiceSource, Roll
from hc_cli.errors import HcError
from hc_cli.model import Modifier, Odds, Resolution
from hc_cli.mods import ModSpec
from hc_cli.plans import planned
from hc_cli.record import field, record, replace
from hc_cli.rulesets.high_crusade.tables import RULESET, HighCrusadeTables

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:  # fractions are imported where odds are worked out
    from fractions import Fraction


ROUT_MEANS = (
    "it must at once make a full Advance move toward its own table edge, and again "
    "every move until a Regroup order rallies it (hc rally)"
)
RETREAT_MEANS = "it retreats another full Advance move toward its own table edge"
RALLIED_MEANS = (
    "it stays Static for the rest of this move: it counts as a Static target and "
    "may not fire; next move it takes orders as normal"
)
MOVE_SEQUENCE = (
    "{a} moves its Fireteams",
    "{a} may fire any or all of its Fireteams",
    "{b} moves",
    "{a} may fire the Fireteams that have not fired this move",
    "{b} fires",
)


def _new(command: str, inputs: dict) -> Resolution:
    return Resolution(command=command, ruleset=RULESET, inputs=inputs)


def _resolve_mods(
    tables: HighCrusadeTables,
    specs: tuple[ModSpec, ...],
    allowed: tuple[str, ...],
    default_target: str,
    command: str,
    res: Resolution,
    side: str | None = None,
) -> list[Modifier]:
    """`--mod` values as modifiers: table names looked up, direct numbers taken as given."""
    mods = []
    for spec in specs:
        if spec.name is not None:
            entry = tables.modifier(spec.name, allowed, command)
            mods.append(
                Modifier(entry.key, entry.value, entry.applies_to, entry.source_of("value"), side)
            )
            res.note_source(entry, "value", f"modifier {entry.key} {entry.value:+d}")
        else:
            assert spec.value is not None
            mods.append(Modifier(spec.label or "--mod", spec.value, default_target, "--mod", side))
    return mods


def _sum(mods: list[Modifier], applies_to: str, side: str | None = None) -> int:
    return sum(m.value for m in mods if m.applies_to == applies_to and m.side == side)


# ---------------------------------------------------------------------------------------------
# Fire


@record(frozen=True)
class TargetSpec:
    """A target: a troop type (its DF from the table) or a bare defence factor, or both."""

    troop: str | None = None
    defence: int | None = None


@record(frozen=True)
class FireRequest:
    weapon: str | None = None
    range: float | None = None
    chance: int | None = None
    penetration: int | None = None
    targets: tuple[TargetSpec, ...] = ()
    shots: int = 1
    template: str | None = None
    mods: tuple[ModSpec, ...] = ()


@record(frozen=True)
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
    shot = _new("fire", {})
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
    weapon = tables.weapon(req.weapon) if req.weapon else None
    inputs: dict = {
        "weapon": weapon.key if weapon else None,
        "range": req.range,
        "shots": req.shots,
        "mods": [m.text for m in req.mods],
    }
    res = _new("fire", inputs)
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
    if template_name is not None:
        template = tables.template(template_name)
        inputs["template"] = template.key
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

    mods = _resolve_mods(tables, req.mods, ("chance", "defence"), "chance", "fire", res)
    res.modifiers.extend(mods)
    chance_mod = _sum(mods, "chance")
    defence_mod = _sum(mods, "defence")
    res.fields.update(base_chance=chance, chance=chance + chance_mod, penetration=penetration)

    targets = _targets(tables, req, res)
    specs = []
    for label, defence in targets:
        shots = req.shots if len(targets) == 1 else 1
        for n in range(shots):
            tag = label if len(targets) > 1 else (f"shot {n + 1}" if shots > 1 else "")
            specs.append(ShotSpec(tag, chance + chance_mod, penetration, defence + defence_mod))
    inputs["targets"] = [label for label, _ in targets]
    if len(specs) == 1:
        res.fields["defence"] = specs[0].defence
    return res, specs


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
        band = weapon.band_at(req.range)
        if band is None:
            last = weapon.bands[-1].up_to
            raise HcError(
                f'out of range: {weapon.key} reaches {last:g}", the target is at '
                f'{req.range:g}": no shot, no roll',
                f'move within {last:g}" to fire {weapon.key}',
            )
        res.inputs["band"] = band.label
        res.fields["band"] = band.label
        res.note_source(
            weapon, "bands", f"{weapon.key} band {band.label}: {band.chance}/{band.penetration}"
        )
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


def _targets(tables: HighCrusadeTables, req: FireRequest, res: Resolution) -> list[tuple[str, int]]:
    if not req.targets:
        raise HcError("no target given", "give --target TROOP (e.g. --target crusader) or --df N")
    result = []
    for i, target in enumerate(req.targets):
        if target.defence is not None and target.defence < 0:
            raise HcError(f"defence factor {target.defence} is negative", "give a DF of 0 or more")
        if target.troop is None:
            assert target.defence is not None
            label = (
                f"target {i + 1} (DF {target.defence})"
                if len(req.targets) > 1
                else f"DF {target.defence}"
            )
            result.append((label, target.defence))
            continue
        troop = tables.troop(target.troop)
        label = f"target {i + 1} ({troop.key})" if len(req.targets) > 1 else troop.key
        if target.defence is not None:
            res.explanation.append(
                f"--df {target.defence} given: used instead of {troop.key}'s DF {troop.defence}"
            )
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


def fire_odds(tables: HighCrusadeTables, req: FireRequest) -> Resolution:
    from fractions import Fraction

    from hc_cli.odds import add_independent, enumerate_outcomes

    res, specs = plan_fire(tables, req)
    # Shots differ only by label when they share chance, penetration and DF: enumerate once.
    specs = (
        [replace(spec, label="") for spec in specs]
        if len({replace(s, label="") for s in specs}) == 1
        else specs
    )
    per_shot = {
        spec: enumerate_outcomes(lambda d, s=spec: fire_shot(s, d), lambda r: r.outcome)
        for spec in set(specs)
    }
    order = ("miss", "hit", "kill")
    # Shots are independent, so counts over several add up by convolution.
    kill_each = [_indicator(per_shot[s], {"kill"}) for s in specs]
    hit_each = [_indicator(per_shot[s], {"hit", "kill"}) for s in specs]
    kills = add_independent(kill_each)
    # Every hit kills when no penetration falls short of a DF: then the counts are the same.
    hits = kills if hit_each == kill_each else add_independent(hit_each)
    counts = {"kills": kills, "hits": hits} if len(specs) > 1 else {}
    if len(set(specs)) == 1:
        # One target, or a Fireteam's identical shots: each shot's odds once, then the counts.
        res.odds = Odds(_ordered(per_shot[specs[0]], order), counts)
        res.fields["defence"] = specs[0].defence
        if len(specs) > 1:
            res.fields["odds_per"] = "shot"
        return res
    for spec in specs:
        shot = _new("fire", {})
        shot.label = spec.label
        shot.fields.update(chance=spec.chance, penetration=spec.penetration, defence=spec.defence)
        shot.odds = Odds(_ordered(per_shot[spec], order))
        res.shots.append(shot)
    none = kills.get(0, Fraction(0))
    res.odds = Odds({"no kill": none, "at least one kill": 1 - none}, counts)
    return res


def _ordered(dist: dict, order: tuple[str, ...]) -> dict:
    from fractions import Fraction

    return {o: dist.get(o, Fraction(0)) for o in order}


def _indicator(dist: dict[str, Fraction], success: set[str]) -> dict[int, Fraction]:
    from fractions import Fraction

    p = sum((v for k, v in dist.items() if k in success), Fraction(0))
    return {0: 1 - p, 1: p}


# ---------------------------------------------------------------------------------------------
# Hand to hand


@record(frozen=True)
class MeleeRequest:
    attacker: str | None = None
    attacker_weapon: str | None = None
    defender: str | None = None
    defender_weapon: str | None = None
    attacker_mods: tuple[ModSpec, ...] = ()
    defender_mods: tuple[ModSpec, ...] = ()


def plan_melee(tables: HighCrusadeTables, req: MeleeRequest) -> Resolution:
    res = _new(
        "melee",
        {
            "attacker": req.attacker,
            "attacker_weapon": req.attacker_weapon,
            "defender": req.defender,
            "defender_weapon": req.defender_weapon,
            "mods": [m.text for m in req.attacker_mods],
            "defender_mods": [m.text for m in req.defender_mods],
        },
    )
    for side, troop_name, weapon_name, specs in (
        ("attacker", req.attacker, req.attacker_weapon, req.attacker_mods),
        ("defender", req.defender, req.defender_weapon, req.defender_mods),
    ):
        if troop_name:
            troop = tables.troop(troop_name)
            res.modifiers.append(
                Modifier(troop.key, troop.melee, "melee", troop.source_of("melee"), side)
            )
            res.note_source(troop, "melee", f"{troop.key} melee {troop.melee:+d}")
        if weapon_name:
            weapon = tables.weapon(weapon_name)
            res.modifiers.append(
                Modifier(
                    f"carrying {weapon.key}", weapon.melee, "melee", weapon.source_of("melee"), side
                )
            )
            res.note_source(weapon, "melee", f"{weapon.key} melee {weapon.melee:+d}")
        res.modifiers.extend(_resolve_mods(tables, specs, ("melee",), "melee", "melee", res, side))
    for side, troop_name, specs, mod_flag in (
        ("attacker", req.attacker, req.attacker_mods, "--mod"),
        ("defender", req.defender, req.defender_mods, "--defender-mod"),
    ):
        if not troop_name and not specs:
            names = ", ".join(sorted(tables.troops)[:3])
            raise HcError(
                f"a melee needs both sides: no {side} given",
                f"add --{side} TROOP ({names} ...), or {mod_flag} N for a side given by numbers",
            )
    return res


def melee_contest(res: Resolution, dice: DiceSource) -> Resolution:
    res = replace(res, rolls=[], explanation=list(res.explanation), fields=dict(res.fields))
    totals = {}
    # Each player rolls a D10: rolled together, and asked for together.
    rolls = dice.batch("for the melee (attacker, defender)", [(10, "attacker"), (10, "defender")])
    for side, roll in zip(("attacker", "defender"), rolls, strict=True):
        res.rolls.append(roll)
        totals[side] = roll.value + _sum(res.modifiers, "melee", side)
        res.fields[f"{side}_total"] = totals[side]
    if totals["attacker"] > totals["defender"]:
        res.outcome = "attacker"
    elif totals["defender"] > totals["attacker"]:
        res.outcome = "defender"
    else:
        res.outcome = "draw"
    for side in ("attacker", "defender"):
        parts = " ".join(f"{m.value:+d}" for m in res.modifiers if m.side == side)
        roll_value = next(r.value for r in res.rolls if r.purpose == side)
        res.explanation.append(f"{side}: {roll_value} {parts} = {totals[side]}".replace("  ", " "))
    if res.outcome == "draw":
        res.explanation.append("equal totals: a draw, both figures stay on the table")
    else:
        loser = "defender" if res.outcome == "attacker" else "attacker"
        res.explanation.append(f"the {res.outcome} wins; the {loser} is removed as a casualty")
    return res


def resolve_melee(tables: HighCrusadeTables, req: MeleeRequest, dice: DiceSource) -> Resolution:
    return melee_contest(plan_melee(tables, req), dice)


def melee_odds(tables: HighCrusadeTables, req: MeleeRequest) -> Resolution:
    from hc_cli.odds import enumerate_outcomes

    res = plan_melee(tables, req)
    dist = enumerate_outcomes(lambda d: melee_contest(res, d), lambda r: r.outcome)
    res.odds = Odds(_ordered(dist, ("attacker", "defender", "draw")))
    return res


# ---------------------------------------------------------------------------------------------
# Morale and Regroup: one D10 test each


@record(frozen=True)
class D10Test:
    """A modified D10 against a threshold; `d10_test` is all of its dice."""

    needed: int
    purpose: str


def d10_test(res: Resolution, test: D10Test, dice: DiceSource) -> Resolution:
    res = replace(res, rolls=[], explanation=list(res.explanation), fields=dict(res.fields))
    roll = dice.roll(10, test.purpose)
    res.rolls.append(roll)
    total = roll.value + sum(m.value for m in res.modifiers)
    parts = " ".join(f"{m.value:+d} ({m.name})" for m in res.modifiers)
    res.fields.update(total=total, needed=test.needed)
    res.explanation.insert(
        0, f"D10 {roll.value} {parts} = {total}, needs {test.needed} or more".replace("  ", " ")
    )
    return res


@record(frozen=True)
class MoraleRequest:
    troop: str | None = None
    fired_at: bool = False
    ambushed: bool = False
    first_casualty: bool = False
    below_half: bool = False
    strength: int | None = None
    casualties: int | None = None
    mods: tuple[ModSpec, ...] = ()
    has_casualties: bool = False


TRIGGER_FLAGS = {
    "fired_at": "fired-at",
    "ambushed": "ambushed",
    "first_casualty": "first-casualty",
    "below_half": "below-half",
}
CASUALTIES = "casualties"  # the modifier for casualties suffered (the Regroup example's -1)


def _troop_modifier(tables: HighCrusadeTables, name: str | None, res: Resolution) -> None:
    if not name:
        return
    troop = tables.troop(name)
    res.modifiers.append(Modifier(troop.key, troop.morale, "morale", troop.source_of("morale")))
    res.note_source(troop, "morale", f"{troop.key} morale {troop.morale:+d}")


def _flagged_mods(
    tables: HighCrusadeTables, specs: tuple[ModSpec, ...], flags: set[str], command: str
) -> tuple[set[str], tuple[ModSpec, ...]]:
    """`--mod NAME` for a modifier one of the command's flags stands for is that flag: the
    modifier counts once however it is given. Returns the names so given and the rest."""
    named, rest = set(), []
    for spec in specs:
        if spec.name is not None:
            key = tables.modifier(spec.name, ("morale",), command).key
            if key in flags:
                named.add(key)
                continue
        rest.append(spec)
    return named, tuple(rest)


def _casualty_modifier(
    tables: HighCrusadeTables, suffered: int, command: str, res: Resolution
) -> None:
    """The modifier for casualties a Fireteam has suffered, on the same terms in a Morale
    test and a Regroup: -1 once, or -1 a casualty under the per-casualty reading."""
    if not suffered:
        return
    entry = tables.modifier(CASUALTIES, ("morale",), command)
    reading = readings.choose(tables.merged, "casualty-modifier", res)
    times = suffered if reading == "per-casualty" else 1
    name = entry.key if times == 1 else f"{entry.key} x{times}"
    res.modifiers.append(Modifier(name, entry.value * times, "morale", entry.source_of("value")))
    res.note_source(entry, "value", f"modifier {entry.key} {entry.value:+d}")


def plan_morale(tables: HighCrusadeTables, req: MoraleRequest) -> tuple[Resolution, D10Test]:
    res = _new(
        "morale",
        {
            "troop": req.troop,
            "fired_at": req.fired_at,
            "ambushed": req.ambushed,
            "first_casualty": req.first_casualty,
            "below_half": req.below_half,
            "strength": req.strength,
            "casualties": req.casualties,
            "has_casualties": req.has_casualties,
            "mods": [m.text for m in req.mods],
        },
    )
    named, other_mods = _flagged_mods(
        tables, req.mods, {*TRIGGER_FLAGS.values(), CASUALTIES}, "morale"
    )
    below_half = req.below_half or "below-half" in named
    if req.strength is not None and req.casualties is None:
        raise HcError(
            "--strength goes with --casualties",
            "give both, e.g. --strength 10 --casualties 6, or --below-half",
        )
    if req.casualties is not None and req.casualties < 0:
        raise HcError(f"--casualties {req.casualties} is negative", "give 0 or more")
    if req.strength is not None and req.casualties is not None:
        if req.strength < 1:
            raise HcError(
                f"--strength {req.strength} is not a Fireteam",
                "give the Fireteam's full strength in figures, 1 or more",
            )
        if not 0 <= req.casualties <= req.strength:
            raise HcError(
                f"--casualties {req.casualties} does not fit --strength {req.strength}",
                f"give 0..{req.strength} casualties",
            )
        left = req.strength - req.casualties
        derived = 2 * left < req.strength
        if below_half and not derived:
            raise HcError(
                f"--below-half contradicts --strength {req.strength} --casualties "
                f"{req.casualties}: {left} of {req.strength} is not below 50%",
                "leave out --below-half; hc derives it from the numbers",
            )
        below_half = derived
        res.explanation.append(
            f"{left} of {req.strength} figures left: "
            + ("below 50%" if derived else "not below 50%")
        )
    flags = {
        "fired_at": req.fired_at,
        "ambushed": req.ambushed,
        "first_casualty": req.first_casualty,
        "below_half": below_half,
    }
    _troop_modifier(tables, req.troop, res)
    triggers = []
    for flag, name in TRIGGER_FLAGS.items():
        if flags[flag] or name in named:
            entry = tables.modifier(name, ("morale",), "morale")
            res.modifiers.append(
                Modifier(entry.key, entry.value, "morale", entry.source_of("value"))
            )
            res.note_source(entry, "value", f"modifier {entry.key} {entry.value:+d}")
            triggers.append(entry.key)
    # The casualty modifier of the Regroup example is one of "the modifiers above": a Morale
    # test takes it on the same terms. The morale example's Fireteam at its first casualty
    # scores 5 + 2 - 4 - 2 = 1, no -1: the first-casualty modifier stands for the casualties
    # of the move in which the first falls.
    suffered = req.casualties if req.casualties is not None else 0
    suffered = max(suffered, int(req.has_casualties or CASUALTIES in named))
    first_now = flags["first_casualty"] or "first-casualty" in named
    if suffered and first_now:
        res.explanation.append(
            "first casualty this move: the first-casualty modifier applies, not the casualty "
            "modifier (the morale example: 5 + 2 - 4 - 2 = 1)"
        )
    else:
        _casualty_modifier(tables, suffered, "morale", res)
    extra = _resolve_mods(tables, other_mods, ("morale",), "morale", "morale", res)
    res.modifiers.extend(extra)
    triggers += [
        m.name
        for m in extra
        if m.name in tables.modifiers and tables.modifiers[m.name].morale_trigger
    ]
    if not triggers:
        names = sorted(k for k, m in tables.modifiers.items() if m.morale_trigger)
        raise HcError(
            "nothing calls for a Morale test",
            "flag what happened: --fired-at, --ambushed, --first-casualty, "
            "--below-half (or --strength N --casualties N)"
            + (f"; triggers in the tables: {', '.join(names)}" if names else ""),
        )
    res.fields["triggers"] = triggers
    rule = tables.rule("morale-pass")
    res.note_source(rule, "value", f"morale passes on {rule.value}+")
    return res, D10Test(rule.value, "morale")


def morale_test(res: Resolution, test: D10Test, dice: DiceSource) -> Resolution:
    res = d10_test(res, test, dice)
    if res.fields["total"] >= test.needed:
        res.outcome = "pass"
        res.explanation.append("passed: the Fireteam carries on as normal")
    else:
        res.outcome = "rout"
        res.explanation.append(f"routs: {ROUT_MEANS}")
    return res


def resolve_morale(tables: HighCrusadeTables, req: MoraleRequest, dice: DiceSource) -> Resolution:
    res, test = plan_morale(tables, req)
    return morale_test(res, test, dice)


def morale_odds(tables: HighCrusadeTables, req: MoraleRequest) -> Resolution:
    from hc_cli.odds import enumerate_outcomes

    res, test = plan_morale(tables, req)
    dist = enumerate_outcomes(lambda d: morale_test(res, test, d), lambda r: r.outcome)
    res.odds = Odds(_ordered(dist, ("pass", "rout")))
    res.fields["needed"] = test.needed
    return res


@record(frozen=True)
class RallyRequest:
    troop: str | None = None
    has_casualties: bool = False
    casualties_during_regroup: bool = False
    mods: tuple[ModSpec, ...] = ()
    casualties: int | None = None  # how many it has suffered (the per-casualty reading)


def plan_rally(tables: HighCrusadeTables, req: RallyRequest) -> tuple[Resolution, D10Test]:
    res = _new(
        "rally",
        {
            "troop": req.troop,
            "has_casualties": req.has_casualties,
            "casualties": req.casualties,
            "casualties_during_regroup": req.casualties_during_regroup,
            "mods": [m.text for m in req.mods],
        },
    )
    _troop_modifier(tables, req.troop, res)
    if req.casualties is not None and req.casualties < 0:
        raise HcError(f"--casualties {req.casualties} is negative", "give 0 or more")
    named, other_mods = _flagged_mods(tables, req.mods, {CASUALTIES}, "rally")
    suffered = req.casualties if req.casualties is not None else 0
    suffered = max(suffered, int(req.has_casualties or CASUALTIES in named))
    _casualty_modifier(tables, suffered, "rally", res)
    res.modifiers.extend(_resolve_mods(tables, other_mods, ("morale",), "morale", "rally", res))
    rule = tables.rule("rally-pass")
    res.note_source(rule, "value", f"Regroup rallies on {rule.value}+")
    res.fields["needed"] = rule.value
    return res, D10Test(rule.value, "regroup")


def rally_test(
    res: Resolution, test: D10Test, dice: DiceSource, casualties_during_regroup: bool
) -> Resolution:
    if casualties_during_regroup:
        res = replace(res, rolls=[], explanation=list(res.explanation), fields=dict(res.fields))
        res.outcome = "rout"
        res.fields["total"] = None
        res.explanation.append(
            "the enemy caused casualties during the Regroup move: it routs "
            f"automatically, no roll; {ROUT_MEANS}"
        )
        return res
    res = d10_test(res, test, dice)
    if res.fields["total"] >= test.needed:
        res.outcome = "rallied"
        res.explanation.append(f"rallied: {RALLIED_MEANS}")
    else:
        res.outcome = "retreat"
        res.explanation.append(f"the Regroup fails: {RETREAT_MEANS}")
    return res


def resolve_rally(tables: HighCrusadeTables, req: RallyRequest, dice: DiceSource) -> Resolution:
    res, test = plan_rally(tables, req)
    return rally_test(res, test, dice, req.casualties_during_regroup)


def rally_odds(tables: HighCrusadeTables, req: RallyRequest) -> Resolution:
    from hc_cli.odds import enumerate_outcomes

    res, test = plan_rally(tables, req)
    dist = enumerate_outcomes(
        lambda d: rally_test(res, test, d, req.casualties_during_regroup), lambda r: r.outcome
    )
    res.odds = Odds(_ordered(dist, ("rallied", "retreat", "rout")))
    return res


# ---------------------------------------------------------------------------------------------
# Initiative


@record(frozen=True)
class InitiativeRequest:
    sides: tuple[str, str] = ("Side 1", "Side 2")
    first_mods: tuple[ModSpec, ...] = ()
    second_mods: tuple[ModSpec, ...] = ()


# Ties roll again. Seeded or scripted dice end the loop long before this; it only guards
# against a house rule that can never be decided.
MAX_ROLL_OFFS = 1000


@record
class _RollOff:
    winner: str | None
    rolls: list[Roll] = field(default_factory=list)
    totals: tuple[int, int] = (0, 0)


def plan_initiative(
    tables: HighCrusadeTables, req: InitiativeRequest
) -> tuple[Resolution, int, bool]:
    a, b = (s.strip() for s in req.sides)
    if not a or not b or a.lower() == b.lower():
        raise HcError(
            f"the two sides need two different names, not '{a}' and '{b}'",
            "give --side NAME twice, e.g. --side Crusaders --side Orcs",
        )
    res = _new(
        "initiative",
        {
            "sides": [a, b],
            "mods": [m.text for m in req.first_mods],
            "second_mods": [m.text for m in req.second_mods],
        },
    )
    for side, specs in ((a, req.first_mods), (b, req.second_mods)):
        res.modifiers.extend(
            _resolve_mods(tables, specs, ("initiative",), "initiative", "initiative", res, side)
        )
    rule = tables.rule("initiative-die")
    res.note_source(
        rule,
        "value",
        f"Initiative roll-off: D{rule.value} each, highest wins, ties roll again "
        "(the texts do not say how Initiative is won)",
    )
    if rule.value < 2:
        raise HcError(
            f"initiative-die {rule.value} cannot decide a roll-off",
            "set rules.initiative-die to 2 or more in the house rules",
        )
    first_wins_ties = (
        readings.choose(tables.merged, "initiative-rolloff", res) == "first-side-wins-ties"
    )
    return res, rule.value, first_wins_ties


def roll_off_round(
    res: Resolution, die: int, dice: DiceSource, round_no: int, first_wins_ties: bool = False
) -> _RollOff:
    a, b = res.inputs["sides"]
    again = f" (roll-off {round_no})" if round_no > 1 else ""
    ra, rb = dice.batch(
        f"for the Initiative ({a}, {b}){again}", [(die, f"{a}{again}"), (die, f"{b}{again}")]
    )
    ta = ra.value + _sum(res.modifiers, "initiative", a)
    tb = rb.value + _sum(res.modifiers, "initiative", b)
    winner = a if ta > tb or (first_wins_ties and ta == tb) else b if tb > ta else None
    return _RollOff(winner, [ra, rb], (ta, tb))


def _settle_initiative(res: Resolution, rounds: list[_RollOff]) -> Resolution:
    a, b = res.inputs["sides"]
    last = rounds[-1]
    winner = last.winner
    assert winner is not None
    loser = b if winner == a else a
    res.outcome = winner
    for n, r in enumerate(rounds, 1):
        res.rolls.extend(r.rolls)
        res.explanation.append(
            f"roll-off {n}: {a} {r.totals[0]}, {b} {r.totals[1]}"
            + (": tie, roll again" if r.winner is None else "")
        )
    totals = dict(zip((a, b), last.totals, strict=True))
    res.fields.update(
        player_a=winner,
        player_b=loser,
        order=[
            {"name": winner, "initiative": totals[winner], "extra": False, "player": "A"},
            {"name": loser, "initiative": totals[loser], "extra": False, "player": "B"},
        ],
        sequence=[step.format(a=winner, b=loser) for step in MOVE_SEQUENCE],
    )
    res.explanation.append(
        f"{winner} has the Initiative: Player A for this move; {loser} is Player B"
    )
    return res


def resolve_initiative(
    tables: HighCrusadeTables, req: InitiativeRequest, dice: DiceSource
) -> Resolution:
    res, die, first_wins_ties = plan_initiative(tables, req)
    rounds: list[_RollOff] = []
    while not rounds or rounds[-1].winner is None:
        if len(rounds) >= MAX_ROLL_OFFS:
            raise HcError(f"{MAX_ROLL_OFFS} roll-offs all tied", "check the initiative modifiers")
        rounds.append(roll_off_round(res, die, dice, len(rounds) + 1, first_wins_ties))
    return _settle_initiative(res, rounds)


def initiative_odds(tables: HighCrusadeTables, req: InitiativeRequest) -> Resolution:
    from fractions import Fraction

    from hc_cli.odds import enumerate_outcomes, until_decided

    res, die, first_wins_ties = plan_initiative(tables, req)
    one_round = enumerate_outcomes(
        lambda d: roll_off_round(res, die, d, 1, first_wins_ties), lambda r: r.winner
    )
    a, b = res.inputs["sides"]
    decided = until_decided(one_round, None)
    res.odds = Odds({a: decided.get(a, Fraction(0)), b: decided.get(b, Fraction(0))})
    res.fields["tie_each_roll"] = float(one_round.get(None, Fraction(0)))
    res.fields["sequence"] = [step.format(a="Player A", b="Player B") for step in MOVE_SEQUENCE]
    return res

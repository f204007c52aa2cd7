"""High Crusade Morale and Regroup: one D10 test each, its modifiers (troop quality, the
triggers, casualties suffered) planned first; a failed Morale test routs, a passed Regroup rallies.
Pure."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hc_cli.core.dice import DiceSource
from hc_cli.core.errors import HcError
from hc_cli.core.model import Modifier, Odds, Resolution
from hc_cli.core.mods import ModSpec
from hc_cli.rulesets.high_crusade.steps import in_order, new_resolution, resolve_mods
from hc_cli.rulesets.high_crusade.tables import HighCrusadeTables
from hc_cli.rulesets.high_crusade.words import RALLIED_MEANS, RETREAT_MEANS, ROUT_MEANS
from hc_cli.tables import readings

# ---------------------------------------------------------------------------------------------
# Morale and Regroup: one D10 test each


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


def _below_half(req: MoraleRequest, below_half: bool, res: Resolution) -> bool:
    """Strength below 50%: flagged, or derived from --strength and --casualties (which must
    then agree with the flag)."""
    if req.strength is not None and req.casualties is None:
        raise HcError(
            "--strength goes with --casualties",
            "give both, e.g. --strength 10 --casualties 6, or --below-half",
        )
    if req.casualties is not None and req.casualties < 0:
        raise HcError(f"--casualties {req.casualties} is negative", "give 0 or more")
    if req.strength is None or req.casualties is None:
        return below_half
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
    res.explanation.append(
        f"{left} of {req.strength} figures left: " + ("below 50%" if derived else "not below 50%")
    )
    return derived


def _trigger_modifiers(
    tables: HighCrusadeTables, flags: dict[str, bool], named: set[str], res: Resolution
) -> list[str]:
    """The modifier of each occasion that calls for the test (seed 001), flagged or named."""
    triggers = []
    for flag, name in TRIGGER_FLAGS.items():
        if flags[flag] or name in named:
            entry = tables.modifier(name, ("morale",), "morale")
            res.modifiers.append(
                Modifier(entry.key, entry.value, "morale", entry.source_of("value"))
            )
            res.note_source(entry, "value", f"modifier {entry.key} {entry.value:+d}")
            triggers.append(entry.key)
    return triggers


def _casualties_suffered(
    tables: HighCrusadeTables,
    req: MoraleRequest,
    first_now: bool,
    named: set[str],
    res: Resolution,
) -> None:
    """The casualty modifier of the Regroup example is one of "the modifiers above": a Morale
    test takes it on the same terms. The morale example's Fireteam at its first casualty
    scores 5 + 2 - 4 - 2 = 1, no -1: the first-casualty modifier stands for the casualties
    of the move in which the first falls."""
    suffered = req.casualties if req.casualties is not None else 0
    suffered = max(suffered, int(req.has_casualties or CASUALTIES in named))
    if suffered and first_now:
        res.explanation.append(
            "first casualty this move: the first-casualty modifier applies, not the casualty "
            "modifier (the morale example: 5 + 2 - 4 - 2 = 1)"
        )
    else:
        _casualty_modifier(tables, suffered, "morale", res)


def plan_morale(tables: HighCrusadeTables, req: MoraleRequest) -> tuple[Resolution, D10Test]:
    res = new_resolution(
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
    flags = {
        "fired_at": req.fired_at,
        "ambushed": req.ambushed,
        "first_casualty": req.first_casualty,
        "below_half": _below_half(req, req.below_half or "below-half" in named, res),
    }
    _troop_modifier(tables, req.troop, res)
    triggers = _trigger_modifiers(tables, flags, named, res)
    first_now = flags["first_casualty"] or "first-casualty" in named
    _casualties_suffered(tables, req, first_now, named, res)
    extra = resolve_mods(tables, other_mods, ("morale",), "morale", "morale", res)
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
    from hc_cli.core.odds import enumerate_outcomes

    res, test = plan_morale(tables, req)
    dist = enumerate_outcomes(lambda d: morale_test(res, test, d), lambda r: r.outcome)
    res.odds = Odds(in_order(dist, ("pass", "rout")))
    res.fields["needed"] = test.needed
    return res


@dataclass(frozen=True, slots=True)
class RallyRequest:
    troop: str | None = None
    has_casualties: bool = False
    casualties_during_regroup: bool = False
    mods: tuple[ModSpec, ...] = ()
    casualties: int | None = None  # how many it has suffered (the per-casualty reading)


def plan_rally(tables: HighCrusadeTables, req: RallyRequest) -> tuple[Resolution, D10Test]:
    res = new_resolution(
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
    res.modifiers.extend(resolve_mods(tables, other_mods, ("morale",), "morale", "rally", res))
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
    from hc_cli.core.odds import enumerate_outcomes

    res, test = plan_rally(tables, req)
    dist = enumerate_outcomes(
        lambda d: rally_test(res, test, d, req.casualties_during_regroup), lambda r: r.outcome
    )
    res.odds = Odds(in_order(dist, ("rallied", "retreat", "rout")))
    return res

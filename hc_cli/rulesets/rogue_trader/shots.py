"""Rogue Trader shots rolled: one function decides a shot from its dice (`shot_steps`: to
hit, who is hit, to wound, save, damage), a volley rolls them in the table's phases
(`fire_volley`), following fire walks its targets. Pure."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from hc_cli.core.dice import DiceSource, Roll
from hc_cli.core.model import Resolution
from hc_cli.core.numbers import is_whole
from hc_cli.core.plans import planned
from hc_cli.core.roll import parse as parse_dice
from hc_cli.core.roll import plain_dice, plain_total
from hc_cli.core.words import count
from hc_cli.rulesets.rogue_trader.area import deviation_roll
from hc_cli.rulesets.rogue_trader.request import (
    FRIEND,
    OUTCOMES,
    WOUND_DAMAGE,
    FireRequest,
    ShotSpec,
    Victim,
    new_resolution,
)
from hc_cli.rulesets.rogue_trader.shooting import plan_fire
from hc_cli.rulesets.rogue_trader.tables import RogueTraderTables

if TYPE_CHECKING:
    # (phase, dice, signs): the dice a shot asks for at once, each (sides, purpose): one die,
    # or all the dice of one wound's damage (2d6 is one roll of two dice), each added (+1) or
    # taken away (-1)
    Request = tuple[int, tuple[tuple[int, str], ...], tuple[int, ...]]
    ShotSteps = Generator[Request, list[Roll], Resolution]

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
    shot = new_resolution("fire", {})
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
    terms = parse_dice(damage)
    dice = plain_dice(terms)
    wanted = tuple((term.sides, f"damage {damage}") for term in dice)
    rolls = (yield DAMAGE, wanted, tuple(term.sign for term in dice)) if wanted else []
    return max(plain_total(terms, rolls), 0), list(rolls)


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


def fire_volley(specs: list[ShotSpec], dice: DiceSource) -> list[Resolution]:
    """Shots fired together, rolled as the table rolls them: every shot's to-hit die, then
    the to-wound dice of the hits, then the saves, then the damage. Each shot is still decided
    by `shot_steps`; only the order of the dice is the table's. A phase whose shots each ask
    for one die rolls them all at once; a damage of several dice (2d6) is one roll a wound, in
    the order of the wounded models."""
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
    return [s for s in shots if s is not None]


def share_out(
    shots: list[Resolution], specs: list[ShotSpec], left: tuple[int, ...], share: str, say: bool
) -> None:
    """A volley at a unit: the model each shot strikes, by the reading volley-shares, and
    what its wounds do there, in the order fired: a model's wounds add up, and wounds past
    the last it has are lost. `spread`: shot i is aimed at model i (round again past the
    last); `next-standing`: at the first model still standing. The dice are the same either
    way: only who takes the wounds differs. `say`: name the model (the player's --models)."""
    remaining = list(left)
    current = 0
    for i, (shot, spec) in enumerate(zip(shots, specs, strict=True)):
        if shot.fields.get("victim") != spec.victim.label:
            continue  # the mount, or the friend: a model of its own
        if share == "spread":
            model: int | None = i % len(remaining)
        else:
            while current < len(remaining) and remaining[current] <= 0:
                current += 1
            model = current if current < len(remaining) else None
        if model is not None:
            shot.fields["model"] = model + 1
        wounds = shot.fields.get("wounds", 0)
        if not wounds:
            continue
        where = f" on model {model + 1}" if say and model is not None else ""
        if model is None or remaining[model] <= 0:
            shot.outcome = "wounded"
            shot.fields["lost"] = True
            whom = "every model" if model is None else f"model {model + 1}" if say else "the model"
            shot.explanation[-1] = f"{count(wounds, 'wound')}, but {whom} is already a casualty"
        elif wounds >= remaining[model]:
            shot.outcome = "casualty"
            shot.explanation[-1] = (
                f"{count(wounds, 'wound')} of {remaining[model]} left{where}: a casualty, "
                "remove the model"
            )
            remaining[model] = 0
        else:
            shot.outcome = "wounded"
            remaining[model] -= wounds
            shot.explanation[-1] = f"{count(wounds, 'wound')}{where}: {remaining[model]} left"


def struck(shots: list[Resolution], specs: list[ShotSpec], left: list[int]) -> list[dict]:
    """What the shots did to each model fired at (its number in the order fired at, from 1):
    the wounds it took (no more than it had left) and whether it is a casualty; a mount or a
    friend struck instead, by its label. What a game keeps of a fire, and no more."""
    remaining = dict(enumerate(left, 1))
    taken: dict[int, int] = {}
    others = []  # a mount or a friend struck: each shot's its own (the model it rides, or
    for shot, spec in zip(shots, specs, strict=False):  # fights beside)
        wounds = shot.fields.get("wounds", 0)
        if not wounds:
            continue
        if shot.fields.get("victim") != spec.victim.label:
            assert spec.other is not None
            dealt = min(wounds, spec.other.wounds_left)
            others.append(
                {"other": str(shot.fields.get("victim")), "wounds": dealt,
                 "casualty": shot.outcome == "casualty"}
            )  # fmt: skip
            continue
        model = shot.fields.get("model", 1)
        dealt = min(wounds, remaining[model])
        if dealt:
            remaining[model] -= dealt
            taken[model] = taken.get(model, 0) + dealt
    struck_models = [
        {"model": model, "wounds": wounds, "casualty": remaining[model] <= 0}
        for model, wounds in taken.items()
    ]
    return struck_models + others


def _finish(shot: Resolution, outcome: str, victim: Victim, wounds: int) -> Resolution:
    shot.outcome = outcome
    shot.fields.update(
        victim=victim.label,
        needed_to_wound=victim.needed_to_wound,
        needed_to_save=victim.needed_to_save,
        wounds=wounds,
    )
    shot.headline = _said(shot, victim)
    friend, _, profile = victim.label.partition(FRIEND)
    if not friend and profile:  # fired into hand to hand, the D6 struck no enemy
        shot.headline = f"a friend struck ({profile}): {shot.headline}"
    return shot


def _said(shot: Resolution, victim: Victim) -> str:
    """A shot's result in the game's words first, then the die that decided it: "3 wounds
    caused: 3 left", "no wound: to wound 2, needs 4", "saved: save 5, needs 4"."""
    outcome, wounds = shot.outcome, shot.fields.get("wounds", 0)
    last = shot.rolls[-1] if shot.rolls else None
    if outcome == "casualty":
        return f"casualty: {count(wounds, 'wound')} caused"
    if outcome == "wounded":
        return f"{count(wounds, 'wound')} caused: {shot.explanation[-1].rpartition(': ')[2]}"
    if outcome == "saved" and last is not None:
        return f"saved: save {last.value}, needs {victim.needed_to_save}"
    if outcome == "no-wound":
        if victim.needed_to_wound is None or last is None or last.purpose != "to wound":
            return f"no wound: S{victim.strength} cannot wound T{victim.toughness}"
        return f"no wound: to wound {last.value}, needs {victim.needed_to_wound}"
    if last is not None and last.purpose.startswith("under"):
        return "miss: not under the marker"
    needs = shot.explanation[-1].partition("needs ")[2].rpartition(":")[0]
    return f"miss: to hit {last.value if last else '-'}, needs {needs}"


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
            res.fields["struck"] = []
            return res
    specs = plan.specs
    if plan.mode == "following":
        shots, specs, left = _following_fire(plan.specs, dice, res)
    elif plan.mode == "single":  # a volley of one: the same dice, without a volley's machinery
        shots = [drive(shot_steps(specs[0]), dice, as_phase=True)]
        left = [specs[0].victim.wounds_left]
    else:
        shots = fire_volley(specs, dice)
        if plan.mode == "unit":
            share_out(shots, specs, plan.left, plan.share, plan.numbered)
            left = list(plan.left)
        else:  # the models under an area marker, one shot each
            for n, shot in enumerate(shots, 1):
                shot.fields["model"] = n
            left = [spec.victim.wounds_left for spec in specs]
    if plan.mode == "single":
        res.absorb(shots[0])
        res.fields["struck"] = struck(shots, specs, left)
        if specs[0].split == "melee" and specs[0].other is not None:  # the enemy's, a friend's
            wounds = shots[0].fields.get("wounds", 0)
            friend = shots[0].fields.get("victim") == specs[0].other.label
            res.summary = {
                "wounds": 0 if friend else wounds,
                "wounds_on_friends": wounds * bool(friend),
            }
        return res
    res.shots = shots
    res.summary = _summary(
        [s.outcome or "" for s in shots],
        sum(s.fields.get("wounds", 0) for s in shots),
        sum(bool(s.fields.get("lost")) for s in shots),
    )
    res.outcome = _worst(shots)
    _friends_apart(res, shots, specs)
    res.fields["struck"] = struck(shots, specs, left)
    taken = sum(hit["wounds"] for hit in res.fields["struck"])
    if taken != res.summary["wounds"]:  # wounds past a model's last, or on one removed: lost
        res.summary["wounds_taken"] = taken
    if plan.mode == "following":
        res.summary["targets_reached"] = len(shots)
    else:
        res.fields["phases"] = phase_lines(shots)
    return res


def _following_fire(
    specs: list[ShotSpec], dice: DiceSource, res: Resolution
) -> tuple[list[Resolution], list[ShotSpec], list[int]]:
    """Following fire, shot by shot: each goes on only after wound damage; a model shot at
    again (its --target repeated) keeps the wounds it took, and a model already removed is
    passed over for the next listed model still on the table. The shots, the specs they were
    fired by, and the wounds each listed model had left (by its number, first listed first)."""
    models = list(dict.fromkeys(spec.model for spec in specs))
    left = [next(s.victim.wounds_left for s in specs if s.model == m) for m in models]
    shots: list[Resolution] = []
    fired: list[ShotSpec] = []
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
        shot.fields["model"] = models.index(spec.model) + 1
        shots.append(shot)
        fired.append(spec)
        if shot.outcome not in WOUND_DAMAGE:
            res.explanation.append(f"following fire stops at {spec.label}: {shot.outcome}")
            break
    return shots, fired, left


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


def _friends_apart(res: Resolution, shots: list[Resolution], specs: list[ShotSpec]) -> None:
    """Fired into hand to hand, the wounds and casualties on friends counted apart from the
    enemy's (what the firer's side did to the enemy is the count), and said first."""
    summary = res.summary
    if summary is None or not any(s.split == "melee" and s.other is not None for s in specs):
        return
    friends = [s for s, spec in zip(shots, specs, strict=False)
               if s.fields.get("victim") not in (None, spec.victim.label)]  # fmt: skip
    wounds = sum(s.fields.get("wounds", 0) for s in friends)
    casualties = sum(s.outcome == "casualty" for s in friends)
    summary["wounds"] -= wounds
    summary["casualties"] -= casualties
    summary.update(wounds_on_friends=wounds, friend_casualties=casualties)
    if friends:
        res.headline = (
            f"a friend struck ({count(casualties, 'casualty')}, "
            f"{count(wounds, 'wound')}): {_volley_said(summary)}"
        )


def _volley_said(summary: dict) -> str:
    return (
        f"{count(summary['casualties'], 'casualty')} of "
        f"{count(summary['shots'], 'shot')}; {count(summary['wounds'], 'wound')} caused"
    )


def _summary(outcomes: list[str], wounds: int, lost: int = 0) -> dict:
    counts = {o: outcomes.count(o) for o in OUTCOMES}
    summary = {
        "shots": len(outcomes),
        "hits": len(outcomes) - counts["miss"],
        "wounds": wounds,
        "saved": counts["saved"],
        "casualties": counts["casualty"],
    }
    if lost:  # wound damage at a model an earlier shot of the volley removed
        summary["lost"] = lost
    return summary

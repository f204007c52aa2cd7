"""High Crusade initiative: both sides roll a D10 with their modifiers, ties roll again; the
winner's side moves first in the move sequence. Pure."""

from __future__ import annotations

from dataclasses import dataclass, field

from hc_cli.core.dice import DiceSource, Roll
from hc_cli.core.errors import HcError
from hc_cli.core.model import Odds, Resolution
from hc_cli.core.mods import ModSpec
from hc_cli.rulesets.high_crusade.steps import mod_total, new_resolution, resolve_mods
from hc_cli.rulesets.high_crusade.tables import HighCrusadeTables
from hc_cli.rulesets.high_crusade.words import MOVE_SEQUENCE
from hc_cli.tables import readings

# ---------------------------------------------------------------------------------------------
# Initiative


@dataclass(frozen=True, slots=True)
class InitiativeRequest:
    sides: tuple[str, str] = ("Side 1", "Side 2")
    first_mods: tuple[ModSpec, ...] = ()
    second_mods: tuple[ModSpec, ...] = ()


# Ties roll again. Seeded or scripted dice end the loop long before this; it only guards
# against a house rule that can never be decided.
MAX_ROLL_OFFS = 1000


@dataclass(slots=True)
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
    res = new_resolution(
        "initiative",
        {
            "sides": [a, b],
            "mods": [m.text for m in req.first_mods],
            "second_mods": [m.text for m in req.second_mods],
        },
    )
    for side, specs in ((a, req.first_mods), (b, req.second_mods)):
        res.modifiers.extend(
            resolve_mods(tables, specs, ("initiative",), "initiative", "initiative", res, side)
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
    ta = ra.value + mod_total(res.modifiers, "initiative", a)
    tb = rb.value + mod_total(res.modifiers, "initiative", b)
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

    from hc_cli.core.odds import enumerate_outcomes, until_decided

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

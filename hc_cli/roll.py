"""`hc roll EXPR`: the dice these rules use, summed. `d100` (or `d%`) is two D10 read as tens
and units the High Crusade way (0-0 is 100); every other die is 1..S."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hc_cli.dice import DiceSource, Roll, TooManyOutcomes
from hc_cli.errors import HcError
from hc_cli.model import Odds, Resolution

if TYPE_CHECKING:  # fractions are imported where odds are worked out
    pass

MAX_DICE = 100
MAX_SIDES = 1000
MAX_ODDS_WORK = 200_000  # dice x span of totals: the convolution's cost, bounded to stay instant
_TERM = re.compile(r"([+-])(?:(\d*)d(\d+|%)|(\d+))")


@dataclass(frozen=True)
class Term:
    sign: int
    count: int  # 0 for a constant
    sides: int  # 100 also for d%; the constant's value when count == 0

    @property
    def text(self) -> str:
        count = str(self.count) if self.count > 1 else ""
        body = f"{count}d{self.sides}" if self.count else str(self.sides)
        return ("-" if self.sign < 0 else "+") + body


def parse(expression: str) -> list[Term]:
    text = expression.replace(" ", "").lower()
    if not text:
        raise HcError("no dice to roll", "give an expression such as d100, 2d6+1 or d3")
    if text[0] not in "+-":
        text = "+" + text
    terms, pos = [], 0
    while pos < len(text):
        m = _TERM.match(text, pos)
        if not m:
            raise HcError(
                f"cannot read '{expression}' at '{text[pos:].lstrip('+')}'",
                "write dice as NdS joined by + or -, e.g. d100, 2d6+1, d10-2, 3d6",
            )
        sign = -1 if m.group(1) == "-" else 1
        if m.group(4) is not None:
            terms.append(Term(sign, 0, int(m.group(4))))
        else:
            count = int(m.group(2)) if m.group(2) else 1
            sides = 100 if m.group(3) == "%" else int(m.group(3))
            if not 1 <= count <= MAX_DICE:
                raise HcError(
                    f"{count} dice in '{m.group(0).lstrip('+')}'",
                    f"roll 1..{MAX_DICE} dice of a kind",
                )
            if not 2 <= sides <= MAX_SIDES:
                raise HcError(f"a d{sides} has no sides to roll", f"dice have 2..{MAX_SIDES} sides")
            terms.append(Term(sign, count, sides))
        pos = m.end()
    if not any(t.count for t in terms):
        raise HcError(f"'{expression}' rolls no dice", "add a die, e.g. d6+2")
    return terms


def roll_die(term: Term, index: int, dice: DiceSource) -> Roll:
    """One die of a term: the only place `hc roll` touches the dice."""
    purpose = term.text.lstrip("+") + (f" #{index + 1}" if term.count > 1 else "")
    return dice.d100(purpose) if term.sides == 100 else dice.roll(term.sides, purpose)


def resolve_roll(expression: str, dice: DiceSource, ruleset: str) -> Resolution:
    terms = parse(expression)
    res = Resolution("roll", ruleset, {"expression": expression})
    total, parts = 0, []
    for term in terms:
        if not term.count:
            total += term.sign * term.sides
            parts.append(term.text)
            continue
        values = []
        for i in range(term.count):
            roll = roll_die(term, i, dice)
            res.rolls.append(roll)
            values.append(roll.value)
        total += term.sign * sum(values)
        rolled = "+".join(map(str, values))
        parts.append(
            ("-" if term.sign < 0 else "+") + (f"({rolled})" if len(values) > 1 else rolled)
        )
    res.fields["total"] = total
    res.explanation.append(" ".join(parts).lstrip("+") + f" = {total}")
    return res


def roll_odds(expression: str, ruleset: str) -> Resolution:
    from fractions import Fraction

    from hc_cli.odds import add_independent, enumerate_outcomes

    terms = parse(expression)
    dice_count = sum(t.count for t in terms)
    span = sum(t.count * t.sides for t in terms)
    if dice_count * span > MAX_ODDS_WORK:
        raise TooManyOutcomes(
            f"--odds for '{expression}' would take too long to compute exactly",
            "ask about fewer or smaller dice (e.g. up to 20d20)",
        )
    res = Resolution("roll", ruleset, {"expression": expression})
    # Every die is independent, so the total's distribution is the convolution of each die's,
    # and each die's comes from enumerating `roll_die` itself.
    dists = []
    for term in terms:
        if not term.count:
            dists.append({term.sign * term.sides: Fraction(1)})
            continue
        one = enumerate_outcomes(lambda d, t=term: roll_die(t, 0, d), lambda r: r.value)
        signed = {term.sign * k: p for k, p in one.items()}
        dists.extend([signed] * term.count)
    total = add_independent(dists)
    res.odds = Odds({str(k): p for k, p in total.items()})
    return res

"""`hc roll EXPR`: wargame dice. Terms joined by + and -:

- `NdS`: N dice of S sides, summed; `d100` (or `d%`) is two D10 read as tens and units the
  High Crusade way (0-0 is 100);
- `d66`, `d666`: two or three D6 read as tens and units (11..66), as wargamers mean them;
- `4d6kh3`, `2d20kl1`, `4d6dl1`, `5d6dh2`: keep the highest / lowest, drop the lowest /
  highest;
- `10d6>=4` (also `>`, `<=`, `<`, `=`): count the dice that succeed, not their sum;
- `d6!`: exploding: a die showing its top face is rolled again and added (at most
  `MAX_EXPLOSIONS` times, a bound no table reaches);
- a bare number: added or taken away.

Rolling and `--odds` share `roll_term`: the odds enumerate it, die by die where the dice are
independent (then combine them by convolution), or whole where keeping or dropping ties them.
"""

from __future__ import annotations

import re

from hc_cli.core.dice import DiceSource, Roll, TooManyOutcomes
from hc_cli.core.errors import HcError
from hc_cli.core.model import Odds, Resolution
from hc_cli.core.numbers import LONGEST, shown
from hc_cli.core.record import record

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from fractions import Fraction


MAX_DICE = 100
MAX_SIDES = 1000
MAX_CONSTANT = 100_000  # a number added or taken away
MAX_TERMS = 50  # terms joined by + and -: no table writes more
MAX_EXPLOSIONS = 20
# The work of adding terms up for --odds (the distinct values of each die, squared, for each
# die; then each term's values against the total's): counted before any is done, so a
# question too big for a second is refused at once.
MAX_ODDS_WORK = 4_000_000
# A term: [+-](N?d(S|%)!?(kh|kl|dh|dl N)?(>=|<=|>|<|= N)? | N); its groups 1..9 are the sign;
# count; sides or %; !; kh/kl/dh/dl; how many; >=, <=, >, <, =; its target; a constant. ASCII
# digits only: a superscript or another script's digit is none.
_TERM = re.compile(
    r"([+-])(?:(\d*)d(\d+|%)(!)?(?:(kh|kl|dh|dl)(\d+))?(?:(>=|<=|>|<|=)(\d+))?|(\d+))", re.ASCII
)


EXAMPLES = "d100, 2d6+1, 4d6kh3, 2d20kl1, 10d6>=4, d6!, d66"


@record(frozen=True)
class Term:
    sign: int
    count: int  # 0 for a constant
    sides: int  # 100 also for d%; the constant's value when count == 0
    keep: tuple[str, int] | None = None  # ("kh" | "kl" | "dh" | "dl", how many)
    explode: bool = False
    success: tuple[str, int] | None = None  # (">=", 4): count the dice that succeed
    digits: int = 0  # d66 = 2, d666 = 3: that many D6 read as digits

    @property
    def text(self) -> str:
        count = str(self.count) if self.count > 1 else ""
        if not self.count:
            body = str(self.sides)
        else:
            body = f"{count}d{self.sides}" + ("!" if self.explode else "")
            body += f"{self.keep[0]}{self.keep[1]}" if self.keep else ""
            body += f"{self.success[0]}{self.success[1]}" if self.success else ""
        return ("-" if self.sign < 0 else "+") + body


_PARSED: dict[tuple[str, bool], tuple[Term, ...]] = {}  # a batch rolls the same dice again


def parse(expression: str, plain: bool = False) -> list[Term]:
    """The terms of a dice expression. `plain`: sums of NdS and numbers only (damage)."""
    found = _PARSED.get((expression, plain))
    if found is None:
        found = tuple(_parse(expression, plain))
        if len(_PARSED) < 256:
            _PARSED[(expression, plain)] = found
    return list(found)


def _parse(expression: str, plain: bool) -> list[Term]:
    text = expression.replace(" ", "").lower()
    if not text:
        raise HcError("no dice to roll", f"give an expression such as {EXAMPLES}")
    if text[0] not in "+-":
        text = "+" + text
    terms, pos = [], 0
    while pos < len(text):
        m = _TERM.match(text, pos)
        fancy = m is not None and any(m.group(i) for i in (4, 5, 7))
        if not m or (plain and fancy):
            raise HcError(
                f"cannot read '{shown(expression)}' at '{shown(text[pos:].lstrip('+'))}'",
                "write dice as NdS joined by + or -, e.g. d6, 2d6+1"
                if plain
                else f"write dice such as {EXAMPLES}",
            )
        terms.append(_term(m))
        pos = m.end()
        if len(terms) > MAX_TERMS:
            raise HcError(
                f"'{shown(expression)}' joins more than {MAX_TERMS} terms",
                f"write at most {MAX_TERMS} terms (10d6 is one term of ten dice)",
            )
    if not any(t.count for t in terms):
        raise HcError(f"'{shown(expression)}' rolls no dice", "add a die, e.g. d6+2")
    return terms


def plain_dice(terms: list[Term]) -> list[Term]:
    """Each die of a plain expression (sums of NdS and numbers), in the order it names them."""
    return [term for term in terms for _ in range(term.count)]


def plain_total(terms: list[Term], rolls: list[Roll]) -> int:
    """A plain expression's total, its dice read from `rolls`: one each, as `plain_dice`."""
    faces = iter(rolls)
    total = 0
    for term in terms:
        if not term.count:
            total += term.sign * term.sides
            continue
        for _ in range(term.count):
            total += term.sign * next(faces).value
    return total


def check_damage(expression: str, what: str) -> None:
    """A damage (a number, or sums of NdS) that `what` gives; an error names `what`."""
    try:
        parse(expression, plain=True)
    except HcError as error:
        raise HcError(f"{what}: {error.message}", error.hint) from None


def _term(m: re.Match) -> Term:
    sign = -1 if m.group(1) == "-" else 1
    written = m.group(0).lstrip("+-")
    for group in m.groups()[1:]:
        if group is not None and group.isdigit() and len(group) > LONGEST:
            raise HcError(
                f"'{shown(written)}' holds a number of {len(group):,} digits",
                f"dice are 1..{MAX_DICE} of 2..{MAX_SIDES} sides; a number added is at most "
                f"{MAX_CONSTANT:,}",
            )
    if m.group(9) is not None:
        constant = int(m.group(9))
        if constant > MAX_CONSTANT:
            raise HcError(
                f"'{shown(written)}' adds more than {MAX_CONSTANT:,}",
                f"a number added or taken away is 0..{MAX_CONSTANT:,}",
            )
        return Term(sign, 0, constant)
    count = int(m.group(2)) if m.group(2) else 1
    sides = 100 if m.group(3) == "%" else int(m.group(3))
    digits = {66: 2, 666: 3}.get(sides, 0)
    if not 1 <= count <= MAX_DICE:
        raise HcError(f"{count} dice in '{written}'", f"roll 1..{MAX_DICE} dice of a kind")
    if not digits and not 2 <= sides <= MAX_SIDES:
        raise HcError(f"a d{sides} has no sides to roll", f"dice have 2..{MAX_SIDES} sides")
    keep = (m.group(5), int(m.group(6))) if m.group(5) else None
    if keep and not 1 <= keep[1] <= count - (keep[0][0] == "d"):
        raise HcError(
            f"'{written}' {'keeps' if keep[0][0] == 'k' else 'drops'} {keep[1]} of {count} dice",
            f"keep 1..{count} (kh, kl) or drop 1..{count - 1} (dh, dl)",
        )
    success = (m.group(7), int(m.group(8))) if m.group(7) else None
    explode = bool(m.group(4))
    if explode and (digits or sides == 100):
        raise HcError(f"'{written}' cannot explode", "only a plain die explodes, e.g. d6!")
    return Term(sign, count, sides, keep, explode, success, digits)


def _one_die(term: Term, purpose: str, dice: DiceSource) -> tuple[int, list[Roll]]:
    """One die of a term as it is read: a D100, a d66, an exploding die, or a plain one."""
    if term.sides == 100:
        roll = dice.d100(purpose)
        return roll.value, [roll]
    if term.digits:
        faces = [
            dice.roll(6, f"{purpose} {place}") for place in ("tens", "units", "")[: term.digits]
        ]
        digits = tuple(r.value for r in faces)
        value = int("".join(map(str, digits)))
        return value, [Roll(f"d{term.sides}", value, purpose, digits)]
    rolls = [dice.roll(term.sides, purpose)]
    while term.explode and rolls[-1].value == term.sides and len(rolls) <= MAX_EXPLOSIONS:
        rolls.append(dice.roll(term.sides, f"{purpose} (exploded)"))
    return sum(r.value for r in rolls), rolls


def _succeeds(value: int, test: tuple[str, int]) -> bool:
    op, target = test
    return {
        ">=": value >= target,
        "<=": value <= target,
        ">": value > target,
        "<": value < target,
        "=": value == target,
    }[op]


def roll_term(term: Term, dice: DiceSource) -> tuple[int, list[Roll], str]:
    """A term's value (signed), its dice, and how it was read: the only place `hc roll`
    touches the dice."""
    if not term.count:
        return term.sign * term.sides, [], term.text
    values, rolls = [], []
    for i in range(term.count):
        purpose = term.text.lstrip("+-") + (f" #{i + 1}" if term.count > 1 else "")
        value, die_rolls = _one_die(term, purpose, dice)
        values.append(value)
        rolls += die_rolls
    kept = values
    if term.keep:
        how, n = term.keep
        ordered = sorted(values, reverse=how in ("kh", "dl"))
        kept = ordered[:n] if how[0] == "k" else ordered[: len(values) - n]
    if term.success:
        value = sum(_succeeds(v, term.success) for v in kept)
        shown = f"{value} of ({' '.join(map(str, kept))}) {term.success[0]}{term.success[1]}"
    else:
        value = sum(kept)
        dropped = list(values)
        for v in kept:
            dropped.remove(v)
        shown = "+".join(map(str, kept)) + (
            f" (dropped {' '.join(map(str, dropped))})" if dropped else ""
        )
        shown = f"({shown})" if len(kept) > 1 or dropped else shown
    return term.sign * value, rolls, ("-" if term.sign < 0 else "+") + shown


def resolve_roll(expression: str, dice: DiceSource, ruleset: str) -> Resolution:
    res = Resolution("roll", ruleset, {"expression": expression})
    total, parts = 0, []
    for term in parse(expression):
        value, rolls, shown = roll_term(term, dice)
        res.rolls += rolls
        total += value
        parts.append(shown)
    res.fields["total"] = total
    res.explanation.append(" ".join(parts).lstrip("+") + f" = {total}")
    return res


def _paths_of_one(term: Term) -> int:
    """How many dice paths one die of a term walks: a D100 is one 100-way choice, a d66 two
    D6, an exploding die its faces again on each top face."""
    if term.sides == 100:
        return 100
    if term.digits:
        return 6**term.digits
    return term.sides + (term.sides - 1) * MAX_EXPLOSIONS if term.explode else term.sides


def _size(n: int) -> str:
    return f"{n:,}" if n < 10**15 else f"about 10^{len(str(n)) - 1}"


def _check_work(terms: list[Term], expression: str) -> None:
    """Refuse at once an expression whose totals would take too long to add up exactly: the
    powers of each term (its dice's values, squared, per die) and the convolutions of the
    terms' totals, counted before any is done."""
    work, span = 0, 1
    for term in terms:
        if not term.count:
            continue
        values = term.count + 1 if term.success else _paths_of_one(term)
        if term.count > 1 and not term.keep:
            work += term.count * values * values
        term_span = term.count * values
        work += span * term_span
        span += term_span
    if work > MAX_ODDS_WORK:
        raise TooManyOutcomes(
            f"--odds for '{shown(expression)}' would take {_size(work)} steps to add up exactly "
            f"(more than {MAX_ODDS_WORK:,})",
            "ask about fewer or smaller dice (e.g. up to 100d20, or 20d100)",
        )


def _first_roll(term: Term, dice: DiceSource) -> int:
    return roll_term(term, dice)[0]


def _same(value: int) -> int:
    return value


def roll_odds(expression: str, ruleset: str) -> Resolution:
    from fractions import Fraction
    from functools import partial

    from hc_cli.core.odds import MAX_PATHS, add_independent, enumerate_outcomes

    terms = parse(expression)
    _check_work(terms, expression)
    res = Resolution("roll", ruleset, {"expression": expression})
    dists: list[dict[int, Fraction]] = []
    for term in terms:
        if not term.count:
            dists.append({term.sign * term.sides: Fraction(1)})
            continue
        if term.keep:
            # Keeping or dropping ties the dice together: enumerate the whole term, when its
            # paths are few enough; counted before a die is walked, so a refusal is at once.
            paths = _paths_of_one(term) ** term.count
            if paths > MAX_PATHS:
                raise TooManyOutcomes(
                    f"--odds for '{shown(term.text.lstrip('+-'))}' would walk "
                    f"{_size(paths)} dice paths (more than {MAX_PATHS:,}): keeping or "
                    "dropping dice ties them together",
                    "ask about fewer dice kept or dropped (e.g. up to 6d6kh3, 3d20kh1)",
                )
            dists.append(enumerate_outcomes(partial(_first_roll, term), _same))
            continue
        # Independent dice: enumerate one (as `roll_term` reads it), add up the rest.
        one = Term(term.sign, 1, term.sides, None, term.explode, term.success, term.digits)
        die = enumerate_outcomes(partial(_first_roll, one), _same)
        dists.extend([die] * term.count)
    total = add_independent(dists)
    res.odds = Odds({str(k): p for k, p in total.items()}, {"total": total})
    return res

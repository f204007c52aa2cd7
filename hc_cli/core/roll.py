"""`hc roll EXPR`: the dice notation of the common rollers (avrae/d20, rpg-dice-roller), read
into a small tree and either rolled or weighed exactly.

- numbers and `+ - * / // % ^` with parentheses and the usual precedence (`^` binds first and
  to the right; a leading or unary minus is an expression: `-4d6`, `2*-d4`); `/` is exact (a
  fraction), `//` rounds down;
- `NdS`; `d%` (or `d100`) is the D100 of these rules, 1..100 (d20 reads `d%` as a tens die:
  write `d10*10-10`); `d66`, `d666` D6 read as digits; `dF` a Fudge die (-1, 0, +1);
- keep and drop: `kh3`, `kl1`, `k3` (keep the highest 3: rpg-dice-roller's reading; d20 reads
  `k3` as "keep the 3s": write `k=3`), `dh1`, `dl1`, `d1` (the lowest), d20's `ph1`, `pl1`,
  and by value: `k>3`, `p<2`;
- rerolls: `r` and `rr` until the face is another (`r` alone: the 1s), `ro` once, `ra` once and
  added; each with a compare point (`r<3`, `ro1`);
- explosions: `!` on the top face, or on a compare point (`!>=5`, `!=1`; d20's `e6`, `e>5`);
  `!!` compounding, `!p` penetrating (each further roll less 1); at most `MAX_EXPLOSIONS`;
- clamps: `mi2`, `ma5` (each roll at least 2, at most 5);
- success counts: `10d6>=4` counts the dice at 4 or more (also `>`, `<=`, `<`, `=`), `f<2`
  takes away those at under 2. A compare point right after `!` is the explosion's, as every
  other roller reads it: `6d10!>=8` explodes on 8, 9 and 10; to explode on 10 and count the
  8s or more, write `6d10!=10>=8`;
- groups: `{4d6, 3d8}kh1`, `{d20, d20, 5}>=10`: each part a value, kept or counted as dice.

A roll and its `--odds` share each step: a die's faces come from the dice source, and how a
pool is read (`Pool.step`, visited outcome by outcome) is the same fold for the dice rolled and
for every count of each outcome the odds weigh. The odds work by distribution, never by paths:
a die's faces, then its rerolls and explosions by their series up to the cap; a pool kept or
dropped by dynamic programming over its sorted outcomes (each outcome's count binomial in the
dice not yet placed); sums by convolution. Every part's work is counted before any is done, so
a question too big is refused at once, naming the part.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hc_cli.core.dice import DiceSource, Roll, TooManyOutcomes
from hc_cli.core.errors import HcError
from hc_cli.core.model import Odds, Resolution
from hc_cli.core.numbers import shown

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any


MAX_DICE = 100  # dice of one term
MAX_SIDES = 1000
MAX_CONSTANT = 100_000  # a number written
MAX_TERMS = 50  # dice terms and numbers in one expression: no table writes more
MAX_LENGTH = 500  # characters of an expression
MAX_EXPLOSIONS = 20  # further rolls of one exploding die
# The rolls one roll of an expression may take, on average (rerolls until, explosions): a
# die rerolled until one face of 1,000 takes 1,000; past this it is refused before a die.
MAX_ROLLS = 100_000
MAX_REROLLS = 100 * MAX_ROLLS  # one die gives up: never, in practice (its odds are the limit)
# The work --odds may take, in steps of its inner loops, counted for each part before any is
# done: about a second of this machine's time in all.
MAX_ODDS_WORK = 1_500_000  # about a microsecond a step: 100d100 is 1,000,000, 0.3 s
MAX_VALUES = 200_000  # distinct totals of one part
MAX_DEPTH = 50  # parentheses, groups and signs within one another
MAX_MAGNITUDE = 10**15  # a value past this is no total a table reads

EXAMPLES = "d100, 2d6+1, 4d6kh3, 2d20kl1, 10d6>=4, d6!, 3d6r1, (d8+2)*2, 4dF"
_CMP = (">=", "<=", ">", "<", "=")


def _matches(value: Any, point: tuple[str, int]) -> bool:
    op, n = point
    if op == ">=":
        return value >= n
    if op == "<=":
        return value <= n
    if op == ">":
        return value > n
    if op == "<":
        return value < n
    return value == n


# ---------------------------------------------------------------------------------------------
# The tree


@dataclass(frozen=True, slots=True)
class Die:
    """One die as it is read: its faces, clamps, reroll and explosion."""

    sides: int  # 100 for d%/d100; 3 for dF; 6 for d66/d666
    kind: str = ""  # "" a plain die, "%" the D100, "F" Fudge, "66"/"666" D6 as digits
    low: int | None = None  # mi: each roll at least this
    high: int | None = None  # ma: each roll at most this
    reroll: tuple[str, tuple[str, int]] | None = None  # ("until" | "once" | "add", point)
    explode: tuple[str, tuple[str, int]] | None = None  # ("add" | "compound" | "penetrate", pt)

    def faces(self) -> list[int]:
        """Every face a roll can show, before the clamps."""
        if self.kind == "F":
            return [-1, 0, 1]
        if self.kind in ("66", "666"):
            digits = len(self.kind)
            return sorted(
                int("".join(str((i // 6**p) % 6 + 1) for p in reversed(range(digits))))
                for i in range(6**digits)
            )
        return list(range(1, self.sides + 1))

    def clamped(self, face: int) -> int:
        if self.low is not None and face < self.low:
            face = self.low
        if self.high is not None and face > self.high:
            face = self.high
        return face


@dataclass(frozen=True, slots=True)
class Pool:
    """How a pool of values is read: which are kept, and what each kept value counts. The
    outcomes are visited in `order` (highest first for keeping the highest); `step` takes the
    `count` values of one outcome into the state (kept so far, total)."""

    keep: int | None = None  # the first `keep` visited are kept; None: every one (or by value)
    highest_first: bool = True
    by_value: tuple[bool, tuple[str, int]] | None = None  # (keep it?, point): k>3, p<2
    success: tuple[str, int] | None = None  # each kept value at this point counts 1
    failure: tuple[str, int] | None = None  # and at this point takes 1 away

    def counts(self, value: Any) -> Any:
        if self.success is None and self.failure is None:
            return value
        hit = 1 if self.success is not None and _matches(value, self.success) else 0
        return hit - (1 if self.failure is not None and _matches(value, self.failure) else 0)

    def step(self, state: tuple[int, Any], outcome: Any, count: int) -> tuple[int, Any]:
        kept, total = state
        take = count
        if self.keep is not None:
            take = min(count, self.keep - kept)
        elif self.by_value is not None and _matches(outcome, self.by_value[1]) != self.by_value[0]:
            take = 0
        return kept + take, total + take * self.counts(outcome) if take else total

    @property
    def plain(self) -> bool:
        return self == _PLAIN

    def read(self, values: list[Any]) -> Any:
        """The pool's value: its values visited outcome by outcome, as the odds visit them."""
        state: tuple[int, Any] = (0, 0)
        for outcome in sorted(set(values), reverse=self.highest_first):
            state = self.step(state, outcome, values.count(outcome))
        return state[1]


_PLAIN = Pool()


@dataclass(frozen=True, slots=True)
class Num:
    value: int
    at: int = 0


@dataclass(frozen=True, slots=True)
class Dice:
    count: int
    die: Die
    pool: Pool
    text: str
    at: int = 0


@dataclass(frozen=True, slots=True)
class Group:
    parts: tuple
    pool: Pool
    text: str
    at: int = 0


@dataclass(frozen=True, slots=True)
class Unary:
    op: str
    part: Any
    at: int = 0


@dataclass(frozen=True, slots=True)
class Binary:
    op: str
    left: Any
    right: Any
    at: int = 0


# ---------------------------------------------------------------------------------------------
# Reading an expression


class _Reader:
    """A recursive descent over the text; an error names the column of the first character it
    cannot read and what would be right there."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.terms = 0
        self.depth = 0

    def deeper(self, at: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise HcError(
                f"'{shown(self.text)}' nests more than {MAX_DEPTH} deep at column {at + 1}",
                f"write at most {MAX_DEPTH} parentheses, groups or signs within one another",
            )

    def fail(self, expected: str, at: int | None = None) -> HcError:
        at = self.pos if at is None else at
        found = self.text[at : at + 12]
        where = f"'{shown(found)}' at column {at + 1}" if found else f"the end (column {at + 1})"
        return HcError(
            f"cannot read '{shown(self.text)}': {where}",
            f"{expected} there; dice are written like {EXAMPLES}",
        )

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def peek(self, word: str) -> bool:
        self.skip()
        return self.text.startswith(word, self.pos)

    def take(self, word: str) -> bool:
        if self.peek(word):
            self.pos += len(word)
            return True
        return False

    def number(self, what: str) -> int:
        self.skip()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
            self.pos += 1
        if start == self.pos:
            raise self.fail(what)
        digits = self.text[start : self.pos]
        if len(digits) > 7:
            raise HcError(
                f"'{shown(self.text)}' holds a number of {len(digits):,} digits at column "
                f"{start + 1}",
                f"dice are 1..{MAX_DICE} of 2..{MAX_SIDES} sides; a number is at most "
                f"{MAX_CONSTANT:,}",
            )
        return int(digits)

    def point(self, what: str, bare: str | None = "=") -> tuple[str, int] | None:
        """A compare point (`>=4`, `<3`, `=1`); a bare number is `bare` (None: no point)."""
        self.skip()
        for op in _CMP:
            if self.text.startswith(op, self.pos):
                self.pos += len(op)
                return op, self.number(f"a number after {op} ({what})")
        if bare is not None and self.pos < len(self.text) and self.text[self.pos].isdigit():
            return bare, self.number(what)
        return None

    # -- the grammar -----------------------------------------------------------------------

    def whole(self) -> Any:
        if len(self.text) > MAX_LENGTH:
            raise HcError(
                f"an expression of {len(self.text):,} characters",
                f"write at most {MAX_LENGTH} (10d6 is one term of ten dice)",
            )
        if not self.text.strip():
            raise HcError("no dice to roll", f"give an expression such as {EXAMPLES}")
        tree = self.sum()
        self.skip()
        if self.pos < len(self.text):
            split = self.text[self.pos - 1 : self.pos] == " "  # a shell's words joined again
            raise self.fail("an operator (+ - * / // % ^) or the end" + (
                " (quote an expression a shell would expand: hc roll '{d20,d20}kh1')"
                if split else ""))  # fmt: skip
        return tree

    def sum(self) -> Any:
        tree = self.product()
        while True:
            at = self.pos
            if self.take("+"):
                tree = Binary("+", tree, self.product(), at)
            elif self.take("-"):
                tree = Binary("-", tree, self.product(), at)
            else:
                return tree

    def product(self) -> Any:
        tree = self.unary()
        while True:
            self.skip()
            at = self.pos
            op = next((o for o in ("//", "*", "/", "%") if self.text.startswith(o, at)), None)
            if op is None:
                return tree
            self.pos += len(op)
            tree = Binary(op, tree, self.unary(), at)

    def unary(self) -> Any:
        self.skip()
        at = self.pos
        if self.take("-") or self.take("+"):
            self.deeper(at)
            part = self.unary()
            self.depth -= 1
            return Unary("-", part, at) if self.text[at] == "-" else part
        return self.power()

    def power(self) -> Any:
        base = self.atom()
        self.skip()
        at = self.pos
        if self.take("^") or self.take("**"):
            self.deeper(at)
            exponent = self.unary()
            self.depth -= 1
            return Binary("^", base, exponent, at)
        return base

    def atom(self) -> Any:
        self.skip()
        at = self.pos
        if self.take("("):
            self.deeper(at)
            tree = self.sum()
            self.depth -= 1
            if not self.take(")"):
                raise self.fail("')' to close the '(' at column " + str(at + 1))
            return tree
        if self.take("{"):
            self.deeper(at)
            parts = [self.sum()]
            while self.take(","):
                parts.append(self.sum())
            self.depth -= 1
            if not self.take("}"):
                raise self.fail("',' or '}' to close the '{' at column " + str(at + 1))
            if len(parts) > MAX_DICE:
                raise HcError(f"a group of {len(parts)} parts", f"at most {MAX_DICE}")
            pool = self.pool_modifiers(len(parts), at)
            return Group(tuple(parts), pool, self.text[at : self.pos].strip(), at)
        if self.pos < len(self.text) and self.text[self.pos].isdigit():
            n = self.number("a number")
            if self.pos < len(self.text) and self.text[self.pos] in "dD":
                return self.dice(n, at)
            if n > MAX_CONSTANT:
                raise HcError(
                    f"'{shown(self.text)}' writes {n:,} at column {at + 1}",
                    f"a number is 0..{MAX_CONSTANT:,}",
                )
            self.count_term()
            return Num(n, at)
        if self.pos < len(self.text) and self.text[self.pos] in "dD":
            return self.dice(1, at)
        raise self.fail("a number, a die (d6), '(' or '{'")

    def count_term(self) -> None:
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise HcError(
                f"'{shown(self.text)}' joins more than {MAX_TERMS} terms",
                f"write at most {MAX_TERMS} terms (10d6 is one term of ten dice)",
            )

    def dice(self, count: int, at: int) -> Dice:
        self.pos += 1  # the d
        self.count_term()
        if not 1 <= count <= MAX_DICE:
            raise HcError(
                f"{count} dice at column {at + 1} of '{shown(self.text)}'",
                f"roll 1..{MAX_DICE} dice of a kind",
            )
        here = self.pos
        if self.take("%"):
            die = Die(100, "%")
        elif self.take("F") or self.take("f"):
            die = Die(3, "F")
        else:
            sides = self.number("the die's sides (d6, d20, d%, dF)")
            kind = {66: "66", 666: "666"}.get(sides, "")
            if sides == 100:
                kind = "%"
            if not kind and not 2 <= sides <= MAX_SIDES:
                raise HcError(
                    f"a d{sides} has no sides to roll (column {here + 1})",
                    f"dice have 2..{MAX_SIDES} sides",
                )
            die = Die(6 if kind in ("66", "666") else sides, kind)
        die = self.die_modifiers(die)
        pool = self.pool_modifiers(count, at)
        if pool.keep is not None and die.explode is not None and die.explode[0] != "compound":
            raise HcError(
                f"'{shown(self.text)}' keeps or drops dice an explosion adds (column {at + 1})",
                "an exploded roll is a die of its own; to keep each die whole with its rolls "
                "added, compound it: 4d6!!kh3",
            )
        return Dice(count, die, pool, self.text[at : self.pos].strip(), at)

    def die_modifiers(self, die: Die) -> Die:
        from dataclasses import replace

        faces = die.faces()
        while True:
            self.skip()
            at = self.pos
            if self.take("mi") or self.take("ma"):
                low = self.text[at : at + 2] == "mi"
                n = self.number("a number after " + ("mi (each roll at least)" if low
                                                     else "ma (each roll at most)"))  # fmt: skip
                if (low and n > max(faces)) or (not low and n < min(faces)):
                    raise HcError(
                        f"'{shown(self.text)}': {'mi' if low else 'ma'}{n} at column {at + 1} "
                        f"is past every face ({min(faces)}..{max(faces)})",
                        f"clamp within the faces, e.g. mi2 or ma{max(faces) - 1}",
                    )
                die = replace(die, low=n) if low else replace(die, high=n)
            elif self.peek("!") or self.peek("e"):
                if die.explode:
                    raise self.fail("at most one explosion on a die", at)
                if die.kind in ("66", "666"):
                    raise HcError(f"'{shown(self.text)}': a d{die.kind} cannot explode",
                                  "explode a plain die: d6!")  # fmt: skip
                if self.take("e"):
                    mode = "add"
                    point = self.point("the faces that explode", bare="=")
                    if point is None:
                        raise self.fail("a face or a compare point after e (e6, e>5)")
                else:
                    self.take("!")
                    mode = (
                        "compound" if self.take("!") else "penetrate" if self.take("p") else "add"
                    )
                    point = self.point("the faces that explode") or ("=", max(faces))
                matching = [f for f in faces if _matches(die.clamped(f), point)]
                if len(matching) in (0, len(faces)):
                    said = "every face" if matching else "no face"
                    raise HcError(f"'{shown(self.text)}' explodes on {said} (column {at + 1})",
                                  "explode on some faces only, e.g. d6! or d10!>=9")  # fmt: skip
                die = replace(die, explode=(mode, point))
            elif self.peek("r"):
                if die.reroll:
                    raise self.fail("at most one reroll on a die", at)
                self.take("r")
                mode = "once" if self.take("o") else "add" if self.take("a") else "until"
                if mode == "until":
                    self.take("r")
                point = self.point("the faces rerolled") or ("=", min(faces))
                matching = [f for f in faces if _matches(f, point)]  # the face rolled
                if not matching or (mode == "until" and len(matching) == len(faces)):
                    said = "every face" if matching else "no face"
                    raise HcError(f"'{shown(self.text)}' rerolls {said} (column {at + 1})",
                                  "reroll some faces only, e.g. d6r1 or d20r<3")  # fmt: skip
                die = replace(die, reroll=(mode, point))
            else:
                return die

    def pool_modifiers(self, count: int, at: int) -> Pool:
        from dataclasses import replace

        pool = Pool()
        while True:
            self.skip()
            here = self.pos
            word = next((w for w in ("kh", "kl", "k", "dh", "dl", "ph", "pl", "p", "d")
                         if self.text.startswith(w, here)), None)  # fmt: skip
            if word is not None and (word != "d" or self.text[here + 1 : here + 2].isdigit()):
                if pool.keep is not None or pool.by_value is not None:
                    raise self.fail("at most one keep or drop on a term (4d6kh3, 4d6dl1)", here)
                self.pos += len(word)
                keeps = word[0] == "k"
                point = None if word[-1] in "hl" else self.point("", bare=None)
                if point is not None:
                    pool = replace(pool, by_value=(keeps, point))
                    continue
                n = self.number(
                    f"how many dice after {word} (4d6{word}1)"
                    if word[-1] in "hl"
                    else f"h or l, how many dice (4d6{word}1) or a compare point (4d6{word}>3) "
                    f"after {word}"
                )
                drops = not keeps
                lowest = word[-1] == "l" or (drops and word in ("d", "p"))
                if not 1 <= n <= count - drops:
                    raise HcError(
                        f"'{shown(self.text)}' {'keeps' if keeps else 'drops'} {n} of {count} "
                        f"dice at column {here + 1}",
                        f"keep 1..{count} (kh, kl) or drop 1..{count - 1} (dh, dl)",
                    )
                kept = n if keeps else count - n
                highest = not lowest if keeps else lowest  # dropping the lowest keeps the highest
                pool = replace(pool, keep=kept, highest_first=highest)
                continue
            if self.take("f"):
                point = self.point("the failures", bare="=")
                if point is None:
                    raise self.fail("a compare point after f (f<2)")
                pool = replace(pool, failure=point)
                continue
            point = self.point("the successes", bare=None)
            if point is None:
                return pool
            if pool.success is not None:
                raise self.fail("at most one success count on a term", here)
            pool = replace(pool, success=point)


_PARSED: dict[str, Any] = {}  # a batch rolls the same dice again


def read(expression: str) -> Any:
    """The tree of a dice expression (an error names the column it cannot read), checked
    whole before a die is rolled or weighed: every value it can take within 10^15, and the
    rolls one roll of it takes on average within `MAX_ROLLS`."""
    found = _PARSED.get(expression)
    if found is None:
        found = _Reader(expression).whole()
        low, high = _bounds(found)
        if max(abs(low), abs(high)) > MAX_MAGNITUDE:
            raise HcError(
                f"'{shown(expression)}' can reach a value past 10^{len(str(MAX_MAGNITUDE)) - 1}",
                "no table reads a total this large: join smaller parts",
            )
        rolls = _rolls(found)
        if rolls > MAX_ROLLS:
            raise HcError(
                f"'{shown(expression)}' takes about {rolls:,.0f} rolls to roll once (more than "
                f"{MAX_ROLLS:,})",
                "reroll fewer faces, or fewer dice",
            )
        if len(_PARSED) < 256:
            _PARSED[expression] = found
    return found


def _die_bounds(die: Die) -> tuple[int, int]:
    faces = [die.clamped(f) for f in die.faces()]
    low, high = min(faces), max(faces)
    if die.reroll is not None and die.reroll[0] == "add":
        low, high = min(low, 2 * low), max(high, 2 * high)
    if die.explode is not None:
        more = MAX_EXPLOSIONS * (high - (1 if die.explode[0] == "penetrate" else 0))
        low, high = min(low, low + MAX_EXPLOSIONS * min(0, low)), max(high, high + more)
    return low, high


def _bounds(node: Any) -> tuple[Any, Any]:
    """The least and the greatest value a node can take, or bounds wider than those."""
    if isinstance(node, Num):
        return node.value, node.value
    if isinstance(node, (Dice, Group)):
        if isinstance(node, Dice):
            each = [_die_bounds(node.die)] * node.count
            if node.die.explode is not None and node.die.explode[0] != "compound":
                each = each * (MAX_EXPLOSIONS + 1)  # each further roll a die of its own
        else:
            each = [_bounds(part) for part in node.parts]
        if node.pool.success is not None or node.pool.failure is not None:
            return -len(each), len(each)
        return sum(min(0, lo) for lo, _ in each), sum(max(0, hi) for _, hi in each)
    if isinstance(node, Unary):
        low, high = _bounds(node.part)
        return -high, -low
    (a, b), (c, d) = _bounds(node.left), _bounds(node.right)
    if node.op == "+":
        return a + c, b + d
    if node.op == "-":
        return a - d, b - c
    if node.op == "^":
        top = max(abs(a), abs(b)) ** max(0, min(int(d), 64)) if abs(d) <= 64 else 10**100
        return -top, top
    if node.op == "*":
        corners = (a * c, a * d, b * c, b * d)
        return min(corners), max(corners)
    top = max(abs(a), abs(b))  # / // %: never past the number divided (or the divisor for %)
    return -max(top, abs(c), abs(d)), max(top, abs(c), abs(d))


def _rolls(node: Any) -> float:
    """About how many rolls one roll of a node takes."""
    if isinstance(node, Dice):
        die, each = node.die, 1.0
        faces = die.faces()
        if die.reroll is not None:
            mode, point = die.reroll
            hit = sum(1 for f in faces if _matches(f, point))
            each = len(faces) / (len(faces) - hit) if mode == "until" else 1 + hit / len(faces)
        if die.explode is not None:
            top = sum(1 for f in faces if _matches(die.clamped(f), die.explode[1]))
            each += min(MAX_EXPLOSIONS, top / (len(faces) - top)) if top < len(faces) else 0
        return node.count * each
    if isinstance(node, Group):
        return sum(_rolls(part) for part in node.parts)
    if isinstance(node, Unary):
        return _rolls(node.part)
    if isinstance(node, Binary):
        return _rolls(node.left) + _rolls(node.right)
    return 0.0


# ---------------------------------------------------------------------------------------------
# Plain dice: damage (sums of NdS and numbers), as the rule sets' tables write it


@dataclass(frozen=True, slots=True)
class Term:
    sign: int
    count: int  # 0 for a number
    sides: int  # the number's value when count == 0


def parse(expression: str) -> list[Term]:
    """The terms of a plain expression (sums of NdS and numbers: a weapon's damage)."""
    terms: list[Term] = []

    def walk(node: Any, sign: int) -> bool:
        if isinstance(node, Num):
            terms.append(Term(sign, 0, node.value))
            return True
        if isinstance(node, Dice):
            if not node.pool.plain or node.die != Die(node.die.sides, node.die.kind) or (
                    node.die.kind not in ("", "%")):  # fmt: skip
                return False
            terms.append(Term(sign, node.count, node.die.sides))
            return True
        if isinstance(node, Binary) and node.op in "+-":
            return walk(node.left, sign) and walk(node.right, sign * (-1 if node.op == "-" else 1))
        if isinstance(node, Unary):
            return walk(node.part, -sign)
        return False

    tree = read(expression)
    if not walk(tree, 1):
        raise HcError(
            f"cannot read '{shown(expression)}' as dice added up",
            "write dice as NdS joined by + or -, e.g. d6, 2d6+1",
        )
    if not any(t.count for t in terms):
        raise HcError(f"'{shown(expression)}' rolls no dice", "add a die, e.g. d6+2")
    return terms


def plain_dice(terms: list[Term]) -> list[Term]:
    """Each die of a plain expression, in the order it names them."""
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
        parse(expression)
    except HcError as error:
        raise HcError(f"{what}: {error.message}", error.hint) from None


# ---------------------------------------------------------------------------------------------
# Rolling


def _face(die: Die, dice: DiceSource, purpose: str) -> tuple[int, list[Roll]]:
    """One roll of the die as the dice source gives it (before its clamps)."""
    if die.kind == "%":
        roll = dice.d100(purpose)
        return roll.value, [roll]
    if die.kind in ("66", "666"):
        places = ("tens", "units", "")[: len(die.kind)]
        faces = [dice.roll(6, f"{purpose} {place}".strip()) for place in places]
        digits = tuple(r.value for r in faces)
        value = int("".join(map(str, digits)))
        return value, [Roll(f"d{die.kind}", value, purpose, digits)]
    if die.kind == "F":
        roll = dice.roll(3, purpose)
        return roll.value - 2, [roll]
    roll = dice.roll(die.sides, purpose)
    return roll.value, [roll]


def roll_die(die: Die, dice: DiceSource, purpose: str) -> tuple[list[int], list[Roll]]:
    """One die, in one order whatever the order written: its roll and its reroll (on the face
    rolled), its clamps, its explosion (each further roll clamped too). Its values, one for
    each roll an explosion adds as a die of its own (`!`, `!p`, `e`: each a die the pool
    counts), or one in all (`!!`: compounding, the rolls added into one die)."""
    value, rolls = _face(die, dice, purpose)
    if die.reroll is not None:
        mode, point = die.reroll
        if mode == "until":
            times = 0
            while _matches(value, point):
                times += 1
                if times > MAX_REROLLS:
                    raise HcError(f"{purpose}: rerolled {MAX_REROLLS:,} times", "roll again")
                value, more = _face(die, dice, f"{purpose} (rerolled)")
                rolls += more
        elif _matches(value, point):
            again, more = _face(die, dice, f"{purpose} (rerolled)")
            rolls += more
            value = (
                die.clamped(again) if mode == "once" else die.clamped(value) + die.clamped(again)
            )
    value = die.clamped(value) if die.reroll is None or die.reroll[0] != "add" else value
    values = [value]
    if die.explode is not None:
        mode, point = die.explode
        last, times = value, 0
        while _matches(last, point) and times < MAX_EXPLOSIONS:
            last, more = _face(die, dice, f"{purpose} (exploded)")
            last = die.clamped(last)
            rolls += more
            values.append(last - (1 if mode == "penetrate" else 0))
            times += 1
        if mode == "compound":
            values = [sum(values)]
    return values, rolls


def _show_pool(values: list[Any], pool: Pool) -> tuple[Any, str]:
    """The pool's value (`Pool.read`) and how it was read: kept and dropped, or counted."""
    total = pool.read(values)
    kept = list(values)
    if pool.keep is not None:
        ordered = sorted(values, reverse=pool.highest_first)
        kept = ordered[: pool.keep]
    elif pool.by_value is not None:
        keeps, point = pool.by_value
        kept = [v for v in values if _matches(v, point) == keeps]
    dropped = list(values)
    for v in kept:
        dropped.remove(v)
    if pool.success is not None or pool.failure is not None:
        said = " ".join(
            f"{p[0]}{p[1]}" for p in (pool.success, pool.failure) if p is not None
        )  # fmt: skip
        text = f"{total} of ({' '.join(map(_text, kept))}) {said}"
        return total, text + (f" (dropped {' '.join(map(_text, dropped))})" if dropped else "")
    text = "".join(("" if i == 0 or _text(v).startswith("-") else "+") + _text(v)
                   for i, v in enumerate(kept)) or "0"  # fmt: skip
    text += f" (dropped {' '.join(map(_text, dropped))})" if dropped else ""
    return total, f"({text})" if len(kept) > 1 or dropped else text


def _text(value: Any) -> str:
    if isinstance(value, int):  # a roll's total, most often: fractions not imported for it
        return str(value)
    return str(value.numerator) if value.denominator == 1 else f"{value}"


def _evaluate(node: Any, dice: DiceSource, rolls: list[Roll]) -> tuple[Any, str]:
    """A node's value and how it reads, its dice rolled in the order the expression names
    them (left to right, each die whole)."""
    if isinstance(node, Num):
        return node.value, str(node.value)
    if isinstance(node, Dice):
        values = []
        for i in range(node.count):
            purpose = node.text + (f" #{i + 1}" if node.count > 1 else "")
            die_values, die_rolls = roll_die(node.die, dice, purpose)
            values += die_values
            rolls += die_rolls
        return _show_pool(values, node.pool)
    if isinstance(node, Group):
        parts = [_evaluate(part, dice, rolls) for part in node.parts]
        total, text = _show_pool([v for v, _ in parts], node.pool)
        return total, "{" + ", ".join(t for _, t in parts) + "} " + text
    if isinstance(node, Unary):
        value, text = _evaluate(node.part, dice, rolls)
        return -value, f"-{text}"
    left, left_text = _evaluate(node.left, dice, rolls)
    right, right_text = _evaluate(node.right, dice, rolls)
    return _apply(node.op, left, right, node), f"{left_text} {node.op} {right_text}"


def _apply(op: str, a: Any, b: Any, node: Any) -> Any:
    found = _operate(op, a, b, node)
    if abs(found) > MAX_MAGNITUDE:
        raise HcError(
            f"a value past 10^{len(str(MAX_MAGNITUDE)) - 1} at column {node.at + 1} ({op})",
            "no table reads a total this large: join smaller parts",
        )
    return found


def _operate(op: str, a: Any, b: Any, node: Any) -> Any:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    from fractions import Fraction  # only for these: it is slow to import

    if op == "^":
        if b < 0 or b > 64 or abs(a) > 10**6:
            raise HcError(
                f"{_text(a)} ^ {_text(b)} (column {node.at + 1}) is past what hc raises",
                "raise to a power of 0..64",
            )
        result = a ** int(b) if Fraction(b).denominator == 1 else None
        if result is None:
            raise HcError(f"^ {_text(b)}: a power must be whole", "raise to 0..64")
        return result
    if b == 0:
        raise HcError(
            f"division by 0 at column {node.at + 1}", "divide by something that cannot be 0"
        )
    if op == "/":
        found = Fraction(a) / Fraction(b)
        return found.numerator if found.denominator == 1 else found
    if op == "//":
        return math.floor(Fraction(a) / Fraction(b))
    return a - b * math.floor(Fraction(a) / Fraction(b))  # % as Python's: the sign of b


def resolve_roll(expression: str, dice: DiceSource, ruleset: str) -> Resolution:
    res = Resolution("roll", ruleset, {"expression": expression})
    rolls: list[Roll] = []
    total, text = _evaluate(read(expression), dice, rolls)
    res.rolls += rolls
    res.fields["total"] = total if isinstance(total, int) else float(total)
    res.explanation.append(f"{text} = {_text(total)}")
    return res


# ---------------------------------------------------------------------------------------------
# The odds: every part by its distribution, its work counted before it is done


def _size(n: int) -> str:
    return f"{n:,}" if n < 10**15 else f"about 10^{len(str(n)) - 1}"


class _Budget:
    def __init__(self, expression: str) -> None:
        self.expression = expression
        self.spent = 0

    def spend(self, steps: int, part: str, hint: str) -> None:
        self.spent += steps
        if self.spent > MAX_ODDS_WORK:
            raise TooManyOutcomes(
                f"--odds for '{shown(self.expression)}': {part} would take {_size(steps)} "
                f"steps to weigh exactly (more than {MAX_ODDS_WORK:,} in all)",
                hint,
            )


def _die_weights(
    die: Die, budget: _Budget, text: str, counts: Any = None
) -> tuple[dict[int, int], int]:
    """A die's value as integer weights over a denominator: its faces clamped, then its
    reroll and its explosion by their series (as `roll_die` reads them). `counts`: what the
    pool counts of each roll an explosion adds as a die of its own, summed for the die."""
    clamp = die.clamped

    def add(into: dict[int, int], value: int, weight: int) -> None:
        into[value] = into.get(value, 0) + weight

    faces = die.faces()
    base: dict[int, int] = {}  # a roll's value: its face clamped
    for face in faces:
        add(base, clamp(face), 1)
    weights, total = dict(base), len(faces)
    if die.reroll is not None:  # on the face rolled, before the clamps
        mode, point = die.reroll
        hit = [f for f in faces if _matches(f, point)]
        miss = [f for f in faces if not _matches(f, point)]
        weights = {}
        if mode == "until":  # rerolled until it shows another face: those faces, in proportion
            for f in miss:
                add(weights, clamp(f), 1)
            total = len(miss)
        elif mode == "once":  # a face rerolled once shows whatever the second roll shows
            for f in miss:
                add(weights, clamp(f), total)
            for v, w in base.items():
                add(weights, v, len(hit) * w)
            total *= total
        else:  # once, and added
            for f in miss:
                add(weights, clamp(f), total)
            for f in hit:
                for u, x in base.items():
                    add(weights, clamp(f) + u, x)
            total *= total
    if die.explode is not None:
        mode, point = die.explode
        lower = 1 if mode == "penetrate" else 0
        # What is carried to depth d is a sum of d exploding faces: d * their spread values.
        exploding = [v for v in {*weights, *base} if _matches(v, point)] or [0]
        spread = max(exploding) - min(exploding)
        steps = sum((d * spread + 1) * len(base) for d in range(MAX_EXPLOSIONS + 1))
        budget.spend(steps, f"'{shown(text)}' exploding", "explode fewer faces or smaller dice")
        base_total = len(faces)
        out: dict[int, int] = {}
        carry = {0: 1}
        first, first_total = weights, total
        # Denominators: the first roll's `first_total`, each further roll's `base_total`.
        for depth in range(MAX_EXPLOSIONS + 1):
            rolled = first if depth == 0 else base
            scale = base_total ** (MAX_EXPLOSIONS - depth)
            step: dict[int, int] = {}
            for acc, w in carry.items():
                for face, x in rolled.items():
                    added = face - (lower if depth else 0)
                    value = acc + (added if counts is None else counts(added))
                    if _matches(face, point) and depth < MAX_EXPLOSIONS:
                        step[value] = step.get(value, 0) + w * x
                    else:
                        out[value] = out.get(value, 0) + w * x * scale
            carry = step
            if not carry:
                break
        # Those that stopped early were scaled to the full depth's denominator.
        return out, first_total * base_total**MAX_EXPLOSIONS
    return weights, total


def _keep_weights(
    weights: dict[Any, int], total: int, n: int, pool: Pool, budget: _Budget, text: str
) -> tuple[dict[Any, int], int]:
    """A pool of `n` dice kept or dropped, by dynamic programming over its outcomes in the
    pool's order: the count of each outcome is binomial in the dice not yet placed, and a
    pool whose `keep` is reached places the rest anywhere after (their weights summed)."""
    outcomes = sorted(weights, reverse=pool.highest_first)
    keep = pool.keep
    assert keep is not None
    spread = max(abs(pool.counts(o)) for o in outcomes) * keep + 1
    # the states of a pool not yet full are few of those its counts could reach: measured
    # here, an eighth of outcomes x keep^2 x spread (100d100kh10: 1.2 million, 0.9 s)
    budget.spend(len(outcomes) * keep * keep * spread // 8,
                 f"'{shown(text)}' keeping {keep} of {n}",
                 "ask about fewer or smaller dice (e.g. up to 100d6kh50, 100d100kh10)")  # fmt: skip
    after = [0] * (len(outcomes) + 1)
    for i in range(len(outcomes) - 1, -1, -1):
        after[i] = after[i + 1] + weights[outcomes[i]]
    states: dict[tuple[int, Any], int] = {(0, 0): 1}
    final: dict[Any, int] = {}
    combs = [[math.comb(r, c) for c in range(r + 1)] for r in range(n + 1)]
    for i, outcome in enumerate(outcomes):
        w, rest = weights[outcome], after[i + 1]
        powers_w = [w**c for c in range(keep + 1)]
        powers_rest = [rest**c for c in range(n + 1)]
        whole = [(w + rest) ** r for r in range(n + 1)]
        step: dict[tuple[int, Any], int] = {}
        for state, ways in states.items():
            r = n - state[0]
            need = keep - state[0]
            short = 0
            for c in range(min(need, r + 1)):
                term = combs[r][c] * powers_w[c]
                moved = pool.step(state, outcome, c)
                step[moved] = step.get(moved, 0) + ways * term
                short += term * powers_rest[r - c]
            value = pool.step(state, outcome, need)[1]  # the keep is full
            final[value] = final.get(value, 0) + ways * (whole[r] - short)
        states = {s: ways for s, ways in step.items() if ways}
        if not states:
            break
    return {v: ways for v, ways in final.items() if ways}, total**n


def _power(weights: dict[Any, int], total: int, n: int, budget: _Budget, text: str) -> Any:
    """The sum of `n` independent copies, by repeated squaring of its convolution."""
    from hc_cli.core.odds import Distribution

    spread = max(weights) - min(weights) + 1  # Miller's recurrence: each sum from each value,
    digits = max(1, total.bit_length() * n // 1024)  # with numbers of n dice's digits
    budget.spend(len(weights) * spread * n * digits, f"'{shown(text)}' added up",
                 "ask about fewer or smaller dice (e.g. up to 100d100)")  # fmt: skip
    return Distribution(weights, total).power(n)


def _dist(weights: dict[Any, int], total: int) -> Any:
    from fractions import Fraction

    from hc_cli.core.odds import Distribution

    if all(isinstance(v, int) for v in weights):
        return Distribution(weights, total)
    return {v: Fraction(w, total) for v, w in sorted(weights.items())}


def _pool_odds(values: Any, n: int, pool: Pool, budget: _Budget, text: str) -> Any:
    """The distribution of a pool of `n` values alike (each with the distribution
    `values`, as integer weights and a denominator) read by `pool`."""
    weights, total = values
    if pool.keep is None or pool.keep == n:
        counted: dict[Any, int] = {}
        for v, w in weights.items():  # each die on its own: its value as the pool reads it
            got = pool.step((0, 0), v, 1)[1]
            counted[got] = counted.get(got, 0) + w
        return _power(counted, total, n, budget, text) if n > 1 else _dist(counted, total)
    return _dist(*_keep_weights(weights, total, n, pool, budget, text))


def _odds_of(node: Any, budget: _Budget) -> Any:

    if isinstance(node, Num):
        return _dist({node.value: 1}, 1)
    if isinstance(node, Dice):
        explode = node.die.explode
        if explode is not None and explode[0] != "compound" and not node.pool.plain:
            # each roll a die of its own: the pool counts each, summed die by die
            def counts(value: int) -> Any:
                return node.pool.step((0, 0), value, 1)[1]

            weights = _die_weights(node.die, budget, node.text, counts)
            return _pool_odds(weights, node.count, _PLAIN, budget, node.text)
        weights = _die_weights(node.die, budget, node.text)
        return _pool_odds(weights, node.count, node.pool, budget, node.text)
    if isinstance(node, Group):
        parts = [_odds_of(part, budget) for part in node.parts]
        return _group_odds(parts, node, budget)
    if isinstance(node, Unary):
        part = _odds_of(node.part, budget)
        return _combine(_dist({0: 1}, 1), part, "-", budget, node)
    left = _odds_of(node.left, budget)
    right = _odds_of(node.right, budget)
    found = _combine(left, right, node.op, budget, node)
    return found


def _combine(a: Any, b: Any, op: str, budget: _Budget, node: Any) -> Any:
    """Two independent parts joined by `op`: sums and differences by convolution, the rest
    value by value."""

    from hc_cli.core.odds import Distribution

    if op in "+-" and isinstance(a, Distribution) and isinstance(b, Distribution):
        if op == "-":
            b = Distribution({-v: w for v, w in b.weights.items()}, b.denominator)
        budget.spend(len(a.weights) * len(b.weights), f"the part at column {node.at + 1}",
                     "ask about fewer or smaller dice")  # fmt: skip
        return a.convolve(b)
    wa, da = _weights_of(a)
    wb, db = _weights_of(b)
    # a pair is a few steps (a value worked out, a dict entry), long weights more
    size = 4 * max(1, (da.bit_length() + db.bit_length()) // 128)
    if op == "/" or not all(isinstance(v, int) for v in (*wa, *wb)):
        size *= 8  # a fraction made for each pair
    budget.spend(len(wa) * len(wb) * size, f"'{op}' at column {node.at + 1}",
                 "join smaller parts: each value of one against each of the other")  # fmt: skip
    out: dict[Any, int] = {}  # integer weights over da * db: no fraction in the loop
    for x, p in wa.items():
        for y, q in wb.items():
            v = _apply(op, x, y, node)
            out[v] = out.get(v, 0) + p * q
    if len(out) > MAX_VALUES:
        raise TooManyOutcomes(
            f"--odds for '{shown(budget.expression)}': {len(out):,} totals at column {node.at + 1}",
            "ask about fewer values",
        )
    return _dist({v: w for v, w in out.items() if w}, da * db)


def _weights_of(dist: Any) -> tuple[dict[Any, int], int]:
    """A part's distribution as integer weights over one denominator."""
    from hc_cli.core.odds import Distribution

    if isinstance(dist, Distribution):
        return dict(dist.weights), dist.denominator
    common = math.lcm(*(p.denominator for p in dist.values()))
    return {v: int(p * common) for v, p in dist.items() if p}, common


def _group_odds(parts: list[Any], node: Group, budget: _Budget) -> Any:
    """A group's parts read as a pool (`Pool.read`, as the roll reads it): each value of each
    part against each of the others (the parts are unlike, so no pool of alike dice serves)."""
    import itertools

    weighted = [_weights_of(part) for part in parts]
    pool = node.pool
    if pool.keep == 1 and pool.success is None and pool.failure is None:
        return _one_of(weighted, pool.highest_first, budget, node)
    budget.spend(math.prod(len(w) for w, _ in weighted) * len(parts) * 4,
                 f"the group '{shown(node.text)}'",
                 "group fewer parts, or parts of fewer values")  # fmt: skip
    out: dict[Any, int] = {}
    for combo in itertools.product(*(w.items() for w, _ in weighted)):
        value = node.pool.read([v for v, _ in combo])
        out[value] = out.get(value, 0) + math.prod(q for _, q in combo)
    return _dist(out, math.prod(d for _, d in weighted))


def _one_of(
    weighted: list[tuple[dict[Any, int], int]], highest: bool, budget: _Budget, node: Group
) -> Any:
    """The highest (or lowest) of independent parts, by their distributions: P(the highest is
    at most v) is the product of each part's P(at most v), so no combination is listed."""
    values = sorted({v for w, _ in weighted for v in w}, reverse=not highest)
    budget.spend(len(values) * len(weighted), f"the group '{shown(node.text)}'",
                 "group fewer parts, or parts of fewer values")  # fmt: skip
    below = [0] * len(weighted)  # each part's weight at or past v, from the far end
    out: dict[Any, int] = {}
    before = 0
    for v in values:
        for i, (w, _) in enumerate(weighted):
            below[i] += w.get(v, 0)
        upto = math.prod(below)  # every part at or under v (at or over, for the lowest)
        if upto != before:
            out[v] = upto - before
        before = upto
    return _dist(out, math.prod(d for _, d in weighted))


def roll_odds(expression: str, ruleset: str) -> Resolution:
    from hc_cli.core.odds import Distribution

    tree = read(expression)
    res = Resolution("roll", ruleset, {"expression": expression})
    total = _odds_of(tree, _Budget(expression))
    if isinstance(total, Distribution):
        res.odds = Odds({str(k): p for k, p in total.items()}, {"total": total})
    else:
        res.odds = Odds({_text(k): p for k, p in total.items()}, {})
    return res

"""`hc roll EXPR`: the dice notation of the common rollers (avrae/d20, rpg-dice-roller), read
(`hc_cli.core.parser`) into the small tree here, then rolled (`hc_cli.core.roll`) or weighed
exactly (`hc_cli.core.weigh`).

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

A roll and its `--odds` share each step: a die's faces (`Die.faces`, `Die.clamped`), how a pool
is read (`Pool.step`, visited outcome by outcome) and what an operator makes of two values
(`operate`) are the same for the dice rolled and for every value the odds weigh.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeAlias

from hc_cli.core.errors import HcError

if TYPE_CHECKING:
    from fractions import Fraction

    Value: TypeAlias = int | Fraction | float  # `/` is exact: a fraction; sqrt(2): a float
    Point: TypeAlias = tuple[str, Any]  # a compare point: (">=", 4); ("|", (p, q)): either
    Node: TypeAlias = "Num | Dice | Counted | Group | Unary | Binary"


MAX_EXPLOSIONS = 20  # further rolls of one exploding die
# The rolls one roll of an expression may take, on average (rerolls until, explosions): a
# die rerolled until one face of 1,000 takes 1,000; past this it is refused before a die.
MAX_ROLLS = 100_000
MAX_MAGNITUDE = 10**15  # a value past this is no total a table reads
COMPARISONS = (">=", "<=", "<>", "!=", "==", ">", "<", "=")  # <> is !=, == is =
ONE_VALUE = ("abs", "ceil", "floor", "round", "sign", "trunc", "fix", "sqrt", "exp", "log",
             "sin", "cos", "tan")  # fmt: skip
FUNCTIONS = (*ONE_VALUE, "min", "max", "pow")  # min, max: two values or more; pow: two
EVERY = ("c", 0)  # the point every value is at: GNOLL's 10d10c counts the dice


def matches(value: Value, point: tuple[str, Any]) -> bool:
    """Whether `value` is at the compare point (`(">=", 4)`: 4 or more). DiceParser's
    conditions: `("|", points)` any of them, `("&", points)` each, `("%", (2, 0))` even."""
    op = point[0]
    n: Value = point[1]
    if op == "=":
        return value == n
    if op == ">=":
        return value >= n
    if op == "<=":
        return value <= n
    if op == ">":
        return value > n
    if op == "<":
        return value < n
    if op == "!=":
        return value != n
    if op == "|":
        return any(matches(value, p) for p in point[1])
    if op == "&":
        return all(matches(value, p) for p in point[1])
    if op == "%":
        return bool(value % point[1][0] == point[1][1])
    return op == "c"


def point_text(point: tuple[str, Any]) -> str:
    """A compare point as written: `>=4`, `[<2|>7]`, `[%2=0]`, `c`."""
    op, n = point
    if op in "|&":
        return "[" + op.join(point_text(p).strip("[]") for p in n) + "]"
    if op == "%":
        return f"[%{n[0]}={n[1]}]"
    return "c" if op == "c" else f"{op}{value_text(n)}"


# ---------------------------------------------------------------------------------------------
# The tree


@dataclass(frozen=True, slots=True)
class Die:
    """One die as it is read: its faces, clamps, reroll and explosion."""

    sides: int  # 100 for d%/d100; 3 for dF; 6 for d66/d666; the faces listed for d{2,4,6}
    kind: str = ""  # "" a plain die, "%" the D100, "F" Fudge, "66"/"666" D6 as digits, "list"
    listed: tuple[int, ...] = ()  # a die of listed faces (d{2,4,6}, d[-1..1]), in that order
    low: int | None = None  # mi: each roll at least this
    high: int | None = None  # ma: each roll at most this
    reroll: tuple[str, Point] | None = None  # ("until" | "once" | "add", point)
    explode: tuple[str, Point] | None = None  # ("add" | "compound" | "penetrate", pt)

    def faces(self) -> list[int]:
        """Every face a roll can show, before the clamps."""
        if self.kind == "F":
            return [-1, 0, 1]
        if self.listed:
            return list(self.listed)
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
    skip: int = 0  # ... after the first `skip` visited (3d20dhdl: the middle one)
    highest_first: bool = True
    by_value: tuple[bool, Point] | None = None  # (keep it?, point): k>3, p<2
    success: Point | None = None  # each kept value at this point counts 1
    failure: Point | None = None  # and at this point takes 1 away
    double: Point | None = None  # a value at this point counts 2 (caith's tt9)
    drop: int | None = None  # of a count rolled ((2d6)d10dl1): `keep` once the count is known
    unique: bool = False  # u: each die rerolled until it shows a value no other die shows
    # How the values are shown, not what they make: sorted ("a", "d"); critical marks
    # (success, failure): `cs>19` marks a 20 "**", `cf1` marks a 1 "__" (rpg-dice-roller's).
    order: str = ""
    critical: tuple[Point | None, Point | None] = (None, None)

    @property
    def counting(self) -> bool:
        """Whether each value counts as a success, a failure or none (not as itself)."""
        return self.success is not None or self.failure is not None or self.double is not None

    def counts(self, value: Value) -> Value:
        if self.success is None and self.failure is None and self.double is None:
            return value
        hit = 1 if self.success is not None and matches(value, self.success) else 0
        if self.double is not None and matches(value, self.double):
            hit = 2  # caith's tt9: two successes at 9 or more
        return hit - (1 if self.failure is not None and matches(value, self.failure) else 0)

    def step(self, state: tuple[int, Value], outcome: Value, count: int) -> tuple[int, Value]:
        kept, total = state
        take = count
        if self.keep is not None:  # the window: past the first `skip` visited, `keep` more
            take = min(count, self.skip + self.keep - kept)
            if self.skip and kept < self.skip:
                counted = take - min(take, self.skip - kept)
                return kept + take, total + counted * self.counts(outcome) if counted else total
        elif self.by_value is not None and matches(outcome, self.by_value[1]) != self.by_value[0]:
            take = 0
        return kept + take, total + take * self.counts(outcome) if take else total

    @property
    def plain(self) -> bool:
        return replace(self, order="", critical=(None, None)) == PLAIN

    def sized(self, count: int) -> Pool:
        """The pool of `count` dice: a keep past the pool keeps every die; a drop is a keep."""
        if self.drop is not None:
            return replace(self, keep=max(0, count - self.drop), drop=None)
        if self.keep is None:
            return self
        return replace(self, keep=min(self.keep, max(0, count - self.skip)))

    def window(self, count: int) -> tuple[int, int]:
        """The dice kept, as positions highest first: (first, past the last)."""
        if self.keep is None:
            return 0, count
        start = self.skip if self.highest_first else count - self.skip - self.keep
        return start, start + self.keep

    def windowed(self, first: int, end: int, count: int) -> Pool:
        """This pool keeping the dice at positions first..end - 1, highest first."""
        end = max(first, end)
        if first == 0:
            return replace(self, keep=end, skip=0, highest_first=True)
        if end == count:
            return replace(self, keep=count - first, skip=0, highest_first=False)
        return replace(self, keep=end - first, skip=first, highest_first=True)

    def read(self, values: list[Value]) -> Value:
        """The pool's value: its values visited outcome by outcome, as the odds visit them."""
        state: tuple[int, Value] = (0, 0)
        for outcome in sorted(set(values), reverse=self.highest_first):
            state = self.step(state, outcome, values.count(outcome))
        return state[1]


PLAIN = Pool()  # every value kept, each counting itself


@dataclass(frozen=True, slots=True)
class Num:
    value: Value  # 7, or a decimal written (1.5: 3/2, exact)
    at: int = 0


@dataclass(frozen=True, slots=True)
class Dice:
    count: int
    die: Die
    pool: Pool
    text: str
    at: int = 0


@dataclass(frozen=True, slots=True)
class Counted:
    """Dice whose count (`(2d6)d10`) or sides (`d(1d10)`) are rolled first: `dice` is their
    term (its count and sides stand in)."""

    count: Node
    dice: Dice
    at: int = 0
    sides: Node | None = None  # the sides rolled (after the count), or the die's own


def sized_dice(node: Counted, count: Value, sides: Value | None = None) -> Dice:
    """The dice of a count (and sides) rolled first, once they are known (rounded down)."""
    dice = node.dice
    if sides is not None:
        if math.floor(sides) < 1:
            raise HcError(
                f"a d{value_text(math.floor(sides))} at column {node.at + 1} (its sides rolled)",
                "a die has 1 side or more: add to them, e.g. d(1d4+1)",
            )
        dice = replace(dice, die=Die(math.floor(sides)))
    n = math.floor(count)
    if n < 0:
        raise HcError(
            f"{value_text(count)} dice at column {node.at + 1} (the count rolled)",
            "a count of dice cannot be less than 0: add to it, e.g. (d6-3+3)d6",
        )
    faces = dice.die.faces()
    if dice.pool.unique and n > len(faces):
        raise HcError(f"{n} dice with u (no two alike) of {len(faces)} faces at column "
                      f"{node.at + 1}", "roll as many dice as faces at most")  # fmt: skip
    return replace(dice, count=n, pool=dice.pool.sized(n))


@dataclass(frozen=True, slots=True)
class Group:
    parts: tuple[Node, ...]
    pool: Pool
    text: str
    at: int = 0


@dataclass(frozen=True, slots=True)
class Unary:
    op: str
    part: Node
    at: int = 0


@dataclass(frozen=True, slots=True)
class Binary:
    op: str
    left: Node
    right: Node
    at: int = 0


# ---------------------------------------------------------------------------------------------
# What the operators make of two values


def value_text(value: Value) -> str:
    """A value as the breakdown and the odds write it: `7`, `7/2`, `1.4142135623730951`."""
    if isinstance(value, int):  # a roll's total, most often: fractions not imported for it
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value.numerator) if value.denominator == 1 else f"{value}"


def apply(op: str, a: Value, node: Unary | Binary | None = None) -> Value:
    """A function of one value: `abs`, `sign`, the roundings (`round`: half away from zero, as
    the rollers round a total: round(5/2) is 3, round(-5/2) is -3; `trunc`, `fix`: toward
    zero), and rpg-dice-roller's `sqrt`, `exp`, `log`, `sin`, `cos`, `tan` (a float)."""
    if op == "-":
        return -a
    if op == "abs":
        return -a if a < 0 else a
    if op == "sign":
        return int(a > 0) - int(a < 0)
    if op in ("sqrt", "exp", "log", "sin", "cos", "tan"):
        return _real(op, a, node)
    if isinstance(a, int):
        return a
    if op == "floor":
        return math.floor(a)
    if op == "ceil":
        return math.ceil(a)
    if op in ("trunc", "fix"):
        return math.trunc(a)
    half = math.floor(2 * (-a if a < 0 else a) + 1) // 2  # |a| + 1/2, rounded down
    return half if a > 0 else -half


def _real(op: str, a: Value, node: Unary | Binary | None) -> float:
    where = f" at column {node.at + 1}" if node is not None else ""
    if (op == "sqrt" and a < 0) or (op == "log" and a <= 0) or (op == "exp" and a > 34):
        raise HcError(
            f"{op}({value_text(a)}){where} has no value hc gives",
            "sqrt of 0 or more, log of more than 0, exp of at most 34 (10^15)",
        )
    return float(getattr(math, op)(a))


def operate(op: str, a: Value, b: Value, node: Unary | Binary) -> Value:
    """`a op b` as the notation reads it; past `MAX_MAGNITUDE` is an error naming the column."""
    if op in COMPARISONS:
        return int(matches(a, (op, b)))
    if op == "min" or op == "max":
        return min(a, b) if op == "min" else max(a, b)
    found = _arithmetic(op, a, b, node)
    if not -MAX_MAGNITUDE <= found <= MAX_MAGNITUDE:
        raise HcError(
            f"a value past 10^{len(str(MAX_MAGNITUDE)) - 1} at column {node.at + 1} ({op})",
            "no table reads a total this large: join smaller parts",
        )
    return found


def _arithmetic(op: str, a: Value, b: Value, node: Unary | Binary) -> Value:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    from fractions import Fraction  # only for these: it is slow to import

    if op == "^":
        if not -64 <= b <= 64 or not -(10**6) <= a <= 10**6 or (a == 0 and b < 0):
            raise HcError(
                f"{value_text(a)} ^ {value_text(b)} (column {node.at + 1}) is past what hc raises",
                "raise to a power of -64..64 (of a number not 0, for a power under 0)",
            )
        if Fraction(b).denominator != 1:
            raise HcError(f"^ {value_text(b)} at column {node.at + 1}: a power must be whole",
                          "raise to -64..64")  # fmt: skip
        found = (a if isinstance(a, float) else Fraction(a)) ** int(b)
        return found.numerator if isinstance(found, Fraction) and found.denominator == 1 else found
    if op == "fix":  # toward zero, at b decimal places
        if not 0 <= b <= 15:
            raise HcError(f"fix(..., {value_text(b)}) at column {node.at + 1}",
                          "fix to 0..15 decimal places")  # fmt: skip
        scale = Fraction(10) ** int(b)
        found = math.trunc(Fraction(a) * scale) / scale
        return found.numerator if found.denominator == 1 else found
    if b == 0:
        raise HcError(
            f"division by 0 at column {node.at + 1}", "divide by something that cannot be 0"
        )
    if isinstance(a, float) or isinstance(b, float):  # sqrt(2) / 3: floats, as the roller's
        quotient = a / b
        return {"/": quotient, "//": math.floor(quotient), "\\": math.ceil(quotient)}.get(
            op, a - b * math.floor(quotient)
        )
    if op == "/":
        found = Fraction(a) / Fraction(b)
        return found.numerator if found.denominator == 1 else found
    if op == "//":
        return math.floor(Fraction(a) / Fraction(b))
    if op == "\\":  # GNOLL's division rounding up
        return math.ceil(Fraction(a) / Fraction(b))
    return a - b * math.floor(Fraction(a) / Fraction(b))  # % as Python's: the sign of b

"""`hc roll --odds`: the dice notation (`hc_cli.core.notation`) weighed exactly.

A roll and its odds share each step (`Die.faces`, `Pool.step`, `operate`). The odds work by
distribution, never by paths: a die's faces, then its rerolls and explosions by their series up
to the cap; a pool kept or dropped by dynamic programming over its sorted outcomes (each
outcome's count binomial in the dice not yet placed); sums by convolution. Every part's work is
counted before any is done, so a question too big is refused at once, naming the part.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

from hc_cli.core import notation
from hc_cli.core.dice import TooManyOutcomes
from hc_cli.core.model import Odds, Resolution
from hc_cli.core.numbers import shown
from hc_cli.core.odds import Distribution
from hc_cli.core.parser import read

if TYPE_CHECKING:
    from hc_cli.core.notation import Binary, Node, Value

    Weights: TypeAlias = tuple[dict[Value, int], int]  # integer weights over a denominator
    # A part's distribution: over whole numbers, or (a part divided) over fractions too.
    Weighed: TypeAlias = Distribution | dict[Value, Fraction]

# The work --odds may take, counted for each part before any of it is done, in steps of a
# microsecond of this machine's time: what each kind of part takes, as bench/odds_work.py
# measures it in-process (2 shared cores), fitted below and taken MARGIN times, so that the
# estimate is 1.1 to 4 times the time taken (most 1.5 to 2.5). A question within
# MAX_ODDS_WORK is weighed in about a second at most; one past it is refused before any of
# the work, naming the part and the largest question of its kind that answers.
MAX_ODDS_WORK = 1_500_000  # 1.5 s estimated: 999d6 takes 0.1 s, 2d1000 0.2 s
MAX_VALUES = 200_000  # distinct totals of one part
MARGIN = 1.3
# The fits, in microseconds, b the bits of a part's denominator (its dice's faces^count),
# with what they were fitted on (measured, best of 3):
#   each face of a die listed, weighed and counted: 2.0 (d100000 0.24 s, d1000000 2.7 s)
#   each total of a part, a fraction made of it: 1.2 + 0.004 b + b^2 / 10^6 (2d1000's 1,999 at
#     b = 20: 1.25 us each; 999d6's 4,996 at b = 2,583: 18; 2000d6's 10,001 at 5,170: 42)
#   n dice alike added up by Miller's recurrence: each of its I inner steps (K x span x n less
#     K^2/2, K the faces) 0.14 + b / 25,000 + w / 500, w the bits of a face's weight (long for
#     an exploded die: 3d100!p 0.38 us), and each of its span x n weights 0.3 + b / 1,250
#     (2d1000: I = 1.5 M, 0.17 s; 10d1000: 9.5 M, 1.6 s; 200d100: 2.0 M at b = 1,329, 0.67 s)
#   a keep, by its states S (outcomes^2 x keep (keep - 1) / 4: 22 M for 100d1000kh10, counted
#     22.4 M) and their inner steps, S x keep / 3 (82 M counted), each 0.6 + b / 1,500 with
#     main's Pool.step (100d100kh10: 1.0 M, 0.8 s; 40d40kh20: 1.1 M, 0.8 s) and about twice
#     that with issue 39's windows of the sorted dice (skips and keeps): 1.1 + b / 1,000; each
#     outcome's n powers of the dice left, 2 (0.35 + b / 3,500) (1000d6kh1: 7 ms; 100d1000kh1:
#     73 ms)
#   an explosion's series, by the steps counted below: 0.5 + b / 1,000 each (d1000!: 41 ms)
#   two parts added: each pair 0.16 + b / 1,000 (d1000+d1000: 0.12 s; 20d20+20d20: 39 ms)
#   two parts joined otherwise: each pair 2.5 + b / 1,000, 15 with a fraction made of it
#     (100d10*10d10: 0.16 s; d100/d100: 0.10 s)
#   a group's combinations: 0.8 a part each ({3d6, 3d6, 3d6, 3d6, 3d6}>=10: 2.9 s); its
#     highest or lowest: 0.3 a part each value
FACE_COST = 2.0
ROLLS_AS_WRITTEN = "(it rolls as written, without --odds)"


def _size(n: int) -> str:
    return f"{n:,}" if n < 10**15 else f"about 10^{len(str(n)) - 1}"


def values_cost(values: int, bits: int) -> float:
    """The work of a part's totals: each made a fraction of its denominator."""
    return MARGIN * values * (1.2 + 0.004 * bits + bits * bits / 10**6)


def power_cost(weights: dict[int, int], total: int, n: int) -> float:
    """The work of `Distribution.power`: the sum of `n` copies of `weights` (over `total`)."""
    bits = total.bit_length() * n
    span = max(weights) - min(weights)
    if len(weights) <= 2:  # the binomial, term by term
        return MARGIN * n * (0.3 + bits / 1250) + values_cost(n + 1, bits)
    top, k = span * n, len(weights) - 1
    inner = k * top - k * (k - 1) // 2 if top >= k else top * (top + 1) // 2
    weight_bits = max(weights.values()).bit_length()  # an exploded die's weights are long
    work = inner * (0.14 + bits / 25_000 + weight_bits / 500) + top * (0.3 + bits / 1250)
    return MARGIN * work + values_cost(top + 1, bits)


def keep_cost(outcomes: int, keep: int, n: int, spread: int, bits: int) -> float:
    """The work of `_keep_weights`: its states (a state a count kept and a total so far) and
    their inner steps, each outcome's powers of what is left, and its binomials."""
    states = outcomes * min(keep * (keep - 1) * outcomes / 4 + keep, keep * spread)
    work = states * (1 + max(1, keep / 3)) * (1.1 + bits / 1000)
    work += outcomes * n * 2 * (0.35 + bits / 3500) + n * keep * 0.2
    return MARGIN * work + values_cost(spread, bits)


class _Budget:
    def __init__(self, expression: str) -> None:
        self.expression = expression
        self.spent = 0.0

    def fits(self, steps: float) -> bool:
        return self.spent + steps <= MAX_ODDS_WORK

    def spend(self, steps: float, part: str, hint: str | Callable[[], str]) -> None:
        """Count a part's work before it is done; past MAX_ODDS_WORK in all, refuse the
        question, naming the part and (`hint`, worked out only then) what would answer."""
        if not self.fits(steps):
            raise TooManyOutcomes(
                f"--odds for '{shown(self.expression)}': {part} would take {_size(int(steps))} "
                f"steps to weigh exactly (more than {MAX_ODDS_WORK:,} in all, about a second)",
                hint if isinstance(hint, str) else hint(),
            )
        self.spent += steps


def _largest(fits: Callable[[int], bool], start: int) -> int:
    """The largest n up to `start` for which `fits(n)` (0 if none): what a hint can offer."""
    low, high = 0, start
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _spend_faces(budget: _Budget, text: str, faces: int) -> None:
    """A die's faces listed, weighed and counted, and its totals."""

    def listed(m: int) -> float:
        return FACE_COST * MARGIN * m + values_cost(m, m.bit_length())

    def hint() -> str:
        most = _largest(lambda m: budget.fits(listed(m)), faces)
        return f"weigh a die of at most {most:,} faces {ROLLS_AS_WRITTEN}"

    budget.spend(listed(faces), f"'{shown(text)}' of {faces:,} faces", hint)


def _die_weights(
    die: notation.Die, budget: _Budget, text: str, counts: Callable[[int], int] | None = None
) -> tuple[dict[int, int], int]:
    """A die's value as integer weights over a denominator: its faces clamped, then its
    reroll and its explosion by their series (as `roll_die` reads them). `counts`: what the
    pool counts of each roll an explosion adds as a die of its own, summed for the die."""
    clamp = die.clamped

    def add(into: dict[int, int], value: int, weight: int) -> None:
        into[value] = into.get(value, 0) + weight

    faces = die.faces()
    _spend_faces(budget, text, len(faces))
    base: dict[int, int] = {}  # a roll's value: its face clamped
    for face in faces:
        add(base, clamp(face), 1)
    weights, total = dict(base), len(faces)
    if die.reroll is not None:  # on the face rolled, before the clamps
        mode, point = die.reroll
        hit = [f for f in faces if notation.matches(f, point)]
        miss = [f for f in faces if not notation.matches(f, point)]
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
        exploding = [v for v in {*weights, *base} if notation.matches(v, point)] or [0]
        spread = max(exploding) - min(exploding)
        steps = sum((d * spread + 1) * len(base) for d in range(notation.MAX_EXPLOSIONS + 1))
        bits = len(faces).bit_length() * (notation.MAX_EXPLOSIONS + 1)
        totals = min(steps, (notation.MAX_EXPLOSIONS + 1) * (max(base) - min(base) + 1))
        budget.spend(MARGIN * steps * (0.5 + bits / 1000) + values_cost(totals, bits),
                     f"'{shown(text)}' exploding",
                     f"explode fewer faces or smaller dice {ROLLS_AS_WRITTEN}")  # fmt: skip
        base_total = len(faces)
        hits = {v for v in {*weights, *base} if notation.matches(v, point)}  # each explodes
        out: dict[int, int] = {}
        carry = {0: 1}
        first, first_total = weights, total
        # Denominators: the first roll's `first_total`, each further roll's `base_total`.
        for depth in range(notation.MAX_EXPLOSIONS + 1):
            rolled = first if depth == 0 else base
            scale = base_total ** (notation.MAX_EXPLOSIONS - depth)
            step: dict[int, int] = {}
            for acc, w in carry.items():
                for face, x in rolled.items():
                    added = face - (lower if depth else 0)
                    value = acc + (added if counts is None else counts(added))
                    if face in hits and depth < notation.MAX_EXPLOSIONS:
                        step[value] = step.get(value, 0) + w * x
                    else:
                        out[value] = out.get(value, 0) + w * x * scale
            carry = step
            if not carry:
                break
        # Those that stopped early were scaled to the full depth's denominator.
        return out, first_total * base_total**notation.MAX_EXPLOSIONS
    return weights, total


def _keep_weights(
    weights: dict[int, int], total: int, n: int, pool: notation.Pool, budget: _Budget, text: str
) -> Weights:
    """A pool of `n` dice kept or dropped, by dynamic programming over its outcomes in the
    pool's order: the count of each outcome is binomial in the dice not yet placed, and a
    pool whose `keep` is reached places the rest anywhere after (their weights summed)."""
    outcomes = sorted(weights, reverse=pool.highest_first)
    keep = None if pool.keep is None else pool.skip + pool.keep  # the positions placed
    assert keep is not None
    each = max(abs(int(pool.counts(o))) for o in outcomes)  # the most a die counts

    def cost(kept: int, dice: int) -> float:
        return keep_cost(len(outcomes), kept, dice, each * kept + 1, total.bit_length() * dice)

    def hint() -> str:
        fewer = _largest(lambda k: budget.fits(cost(k, n)), keep)
        smaller = _largest(lambda m: budget.fits(cost(keep, m)), n)
        said = [f"keep at most {fewer} of these {n} dice"] if fewer else []
        said += [f"keep {keep} of at most {smaller}"] if smaller >= keep else []
        return f"{', or '.join(said) or 'ask about fewer or smaller dice'} {ROLLS_AS_WRITTEN}"

    budget.spend(cost(keep, n), f"'{shown(text)}' keeping {keep} of {n}", hint)
    after = [0] * (len(outcomes) + 1)
    for i in range(len(outcomes) - 1, -1, -1):
        after[i] = after[i + 1] + weights[outcomes[i]]
    states: dict[tuple[int, Value], int] = {(0, 0): 1}
    final: dict[Value, int] = {}
    combs = [[math.comb(r, c) for c in range(min(r, keep) + 1)] for r in range(n + 1)]
    for i, outcome in enumerate(outcomes):
        w, rest = weights[outcome], after[i + 1]
        powers_w = [w**c for c in range(keep + 1)]
        powers_rest = [rest**c for c in range(n + 1)]
        whole = [(w + rest) ** r for r in range(n + 1)]
        step: dict[tuple[int, Value], int] = {}
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


def _power(weights: dict[int, int], total: int, n: int, budget: _Budget, text: str) -> Distribution:
    """The sum of `n` independent copies (`Distribution.power`)."""
    budget.spend(power_cost(weights, total, n), f"'{shown(text)}' added up",
                 lambda: "add up at most "
                 f"{_largest(lambda m: budget.fits(power_cost(weights, total, m)), n)} of these "
                 f"dice at once {ROLLS_AS_WRITTEN}")  # fmt: skip
    return Distribution(weights, total).power(n)


def _dist(weights: dict[Value, int], total: int) -> Weighed:
    whole = {v: w for v, w in weights.items() if isinstance(v, int)}
    if len(whole) == len(weights):
        return Distribution(whole, total)
    return {v: Fraction(w, total) for v, w in sorted(weights.items())}


def _pool_odds(
    values: tuple[dict[int, int], int], n: int, pool: notation.Pool, budget: _Budget, text: str
) -> Weighed:
    """The distribution of a pool of `n` values alike (each with the distribution
    `values`, as integer weights and a denominator) read by `pool`."""
    weights, total = values
    if n == 0 or pool.keep == 0:
        return Distribution({0: 1}, 1)
    if pool.keep is None or (pool.keep == n and not pool.skip):
        counted: dict[int, int] = weights if pool.by_value is None and not pool.counting else {}
        for v, w in weights.items() if counted is not weights else ():  # each die on its own:
            got = int(pool.step((0, 0), v, 1)[1])  # its value as the pool reads it, whole
            counted[got] = counted.get(got, 0) + w
        if n > 1:
            return _power(counted, total, n, budget, text)
        return Distribution(counted, total)
    return _dist(*_keep_weights(weights, total, n, pool, budget, text))


def _odds_of(node: Node, budget: _Budget) -> Weighed:
    if isinstance(node, notation.Num):
        return _dist({node.value: 1}, 1)
    if isinstance(node, notation.Counted):
        return _counted_odds(node, budget)
    if isinstance(node, notation.Dice):
        if node.pool.unique:
            return _unique_odds(node, budget)
        explode = node.die.explode
        if explode is not None and explode[0] != "compound" and not node.pool.plain:
            # each roll a die of its own: the pool counts each, summed die by die
            pool = node.pool

            def counts(value: int) -> int:
                return int(pool.step((0, 0), value, 1)[1])

            weights = _die_weights(node.die, budget, node.text, counts)
            return _pool_odds(weights, node.count, notation.PLAIN, budget, node.text)
        weights = _die_weights(node.die, budget, node.text)
        return _pool_odds(weights, node.count, node.pool, budget, node.text)
    if isinstance(node, notation.Group):
        parts = [_odds_of(part, budget) for part in node.parts]
        return _group_odds(parts, node, budget)
    if isinstance(node, notation.Unary):
        part = _odds_of(node.part, budget)
        if node.op == "-":
            return _combine(_dist({0: 1}, 1), part, "-", budget, node)
        return _applied(part, node, budget)
    left = _odds_of(node.left, budget)
    right = _odds_of(node.right, budget)
    return _combine(left, right, node.op, budget, node)


def _applied(part: Weighed, node: notation.Unary, budget: _Budget) -> Weighed:
    """A function of one value (`abs`, `floor` ...), value by value."""
    values, total = _weights_of(part)
    budget.spend(len(values), f"{node.op}() at column {node.at + 1}", "ask about fewer values")
    out: dict[Value, int] = {}
    for v, w in values.items():
        got = notation.apply(node.op, v, node)
        out[got] = out.get(got, 0) + w
    return _dist(out, total)


def _counted_odds(node: notation.Counted, budget: _Budget) -> Weighed:
    """Dice whose count is rolled first: each count's odds, weighed by the count's chance."""
    weights, total = _weights_of(_odds_of(node.count, budget))
    sides, across = _weights_of(_odds_of(node.sides, budget)) if node.sides else ({None: 1}, 1)
    out: dict[Value, Fraction] = {}
    for (count, w), (side, y) in itertools.product(weights.items(), sides.items()):
        dice = notation.sized_dice(node, count, side)
        got, under = _weights_of(_odds_of(dice, budget))
        for v, x in got.items():
            out[v] = out.get(v, 0) + Fraction(w * y * x, total * across * under)
    common = math.lcm(*(p.denominator for p in out.values()))
    return _dist({v: int(p * common) for v, p in out.items()}, common)


def _unique_odds(node: notation.Dice, budget: _Budget) -> Weighed:
    """`u`, no two dice alike (each rerolled until it shows a value no die before it shows):
    every set of `count` different faces alike likely, as faces drawn without putting back,
    read by the pool outcome by outcome (each face taken once or not at all)."""
    pool, n = node.pool, node.count
    faces = sorted(node.die.faces(), reverse=pool.highest_first)
    spread = n * max(abs(int(pool.counts(f))) for f in faces) + 1
    budget.spend(len(faces) * (n + 1) * spread, f"'{shown(node.text)}' with no two alike",
                 "ask about fewer or smaller dice")  # fmt: skip
    states: dict[tuple[int, tuple[int, Value]], int] = {(0, (0, 0)): 1}  # (taken, pool state)
    for face in faces:
        step: dict[tuple[int, tuple[int, Value]], int] = {}
        for (taken, state), ways in states.items():
            step[taken, state] = step.get((taken, state), 0) + ways
            if taken < n:
                moved = (taken + 1, pool.step(state, face, 1))
                step[moved] = step.get(moved, 0) + ways
        states = step
    out: dict[Value, int] = {}
    for (taken, (_, total)), ways in states.items():
        if taken == n:
            out[total] = out.get(total, 0) + ways
    return _dist(out, math.comb(len(faces), n))


def _combine(
    a: Weighed, b: Weighed, op: str, budget: _Budget, node: notation.Unary | Binary
) -> Weighed:
    """Two independent parts joined by `op`: sums and differences by convolution, the rest
    value by value."""
    if op in "+-" and isinstance(a, Distribution) and isinstance(b, Distribution):
        if op == "-":
            b = Distribution({-v: w for v, w in b.weights.items()}, b.denominator)
        bits = a.denominator.bit_length() + b.denominator.bit_length()
        pairs = len(a.weights) * len(b.weights)
        budget.spend(MARGIN * pairs * (0.16 + bits / 1000)
                     + values_cost(len(a.weights) + len(b.weights), bits),
                     f"the part at column {node.at + 1}",
                     f"ask about fewer or smaller dice {ROLLS_AS_WRITTEN}")  # fmt: skip
        return a.convolve(b)
    wa, da = _weights_of(a)
    wb, db = _weights_of(b)
    # a pair is a value worked out and a dict entry, a fraction made for each pair more
    bits = da.bit_length() + db.bit_length()
    size = 2.5 + bits / 1000
    if op not in "+-*" or not all(isinstance(v, int) for v in (*wa, *wb)):
        size = 15 + bits / 1000
    budget.spend(MARGIN * len(wa) * len(wb) * size, f"'{op}' at column {node.at + 1}",
                 "join smaller parts: each value of one against each of the other")  # fmt: skip
    out: dict[Value, int] = {}  # integer weights over da * db: no fraction in the loop
    for x, p in wa.items():
        for y, q in wb.items():
            v = notation.operate(op, x, y, node)
            out[v] = out.get(v, 0) + p * q
        if len(out) > MAX_VALUES:  # refused as soon as it is known
            break
    if len(out) > MAX_VALUES:
        raise TooManyOutcomes(
            f"--odds for '{shown(budget.expression)}': {len(out):,} totals at column {node.at + 1}",
            "ask about fewer values",
        )
    return _dist({v: w for v, w in out.items() if w}, da * db)


def _weights_of(dist: Weighed) -> Weights:
    """A part's distribution as integer weights over one denominator."""
    if isinstance(dist, Distribution):
        return {v: w for v, w in dist.weights.items()}, dist.denominator
    common = math.lcm(*(p.denominator for p in dist.values()))
    return {v: int(p * common) for v, p in dist.items() if p}, common


def _group_odds(parts: list[Weighed], node: notation.Group, budget: _Budget) -> Weighed:
    """A group's parts read as a pool (`Pool.read`, as the roll reads it): each value of each
    part against each of the others (the parts are unlike, so no pool of alike dice serves)."""
    weighted = [_weights_of(part) for part in parts]
    pool = node.pool
    if pool.keep == 1 and not pool.skip and not pool.counting:
        return _one_of(weighted, pool.highest_first, budget, node)
    budget.spend(MARGIN * math.prod(len(w) for w, _ in weighted) * len(parts) * 0.8,
                 f"the group '{shown(node.text)}'",
                 "group fewer parts, or parts of fewer values")  # fmt: skip
    out: dict[Value, int] = {}
    for combo in itertools.product(*(w.items() for w, _ in weighted)):
        value = node.pool.read([v for v, _ in combo])
        out[value] = out.get(value, 0) + math.prod(q for _, q in combo)
    return _dist(out, math.prod(d for _, d in weighted))


def _one_of(
    weighted: list[Weights], highest: bool, budget: _Budget, node: notation.Group
) -> Weighed:
    """The highest (or lowest) of independent parts, by their distributions: P(the highest is
    at most v) is the product of each part's P(at most v), so no combination is listed."""
    values = sorted({v for w, _ in weighted for v in w}, reverse=not highest)
    budget.spend(MARGIN * len(values) * len(weighted) * 0.3, f"the group '{shown(node.text)}'",
                 "group fewer parts, or parts of fewer values")  # fmt: skip
    below = [0] * len(weighted)  # each part's weight at or past v, from the far end
    out: dict[Value, int] = {}
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
    """`hc roll --odds EXPR`: the exact chance of each total."""
    tree = read(expression)
    res = Resolution("roll", ruleset, {"expression": expression})
    total = _odds_of(tree, _Budget(expression))
    if isinstance(total, Distribution):
        res.odds = Odds({str(k): p for k, p in total.items()}, {"total": total})
    else:
        res.odds = Odds({notation.value_text(k): p for k, p in total.items()}, {})
    return res

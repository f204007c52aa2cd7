"""Exact odds, computed by running the resolver itself over every path of dice.

Nothing here knows a rule. `enumerate_outcomes` walks the same code that rolls, with an
`EnumeratingDice`; the other helpers only combine such distributions by probability laws
(independent repetitions add up by convolution; a roll-off repeated on ties is a geometric
series), so the rules stay in one place.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from hc_cli.core.dice import DiceSource, Roll, TooManyOutcomes, d100_faces

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


@dataclass(slots=True)
class EnumeratingDice(DiceSource):
    """Answers along one path of choices, remembering each branch point.

    `hc_cli.core.odds.enumerate_outcomes` runs the resolver once per path, depth first, and
    weighs each result by the product of its dice's probabilities.
    """

    prefix: list[int] = field(default_factory=list)
    choices: list[tuple[int, int]] = field(default_factory=list)  # (chosen index, options)
    probability: Fraction = Fraction(1)

    def _choose(self, options: int) -> int:
        depth = len(self.choices)
        index = self.prefix[depth] if depth < len(self.prefix) else 0
        self.choices.append((index, options))
        self.probability /= options
        return index

    def _choose_weighted(self, weights: list[Fraction]) -> int:
        depth = len(self.choices)
        index = self.prefix[depth] if depth < len(self.prefix) else 0
        self.choices.append((index, len(weights)))
        self.probability *= weights[index]
        return index

    def _face(self, sides: int, die: str, purpose: str) -> int:
        return self._choose(sides) + 1

    def pool(self, count: int, sides: int, at_most: int, purpose: str) -> list[Roll]:
        # One branch per number of successes, weighted by the binomial: the faces are
        # stand-ins (1 succeeds, `sides` fails); only the count is the pool's outcome.
        p = Fraction(min(max(at_most, 0), sides), sides)
        support = [k for k in range(count + 1) if (p > 0 or k == 0) and (p < 1 or k == count)]
        weights = [math.comb(count, k) * p**k * (1 - p) ** (count - k) for k in support]
        k = support[self._choose_weighted(weights)]
        return [
            Roll(f"d{sides}", 1 if i < k else sides, f"{purpose} #{i + 1}") for i in range(count)
        ]

    def sum_of(
        self, phase: str, requests: list[tuple[int, str]], signs: tuple[int, ...] = ()
    ) -> list[Roll]:
        # One branch per total, weighted by the sum of the dice (their convolution): the
        # faces are stand-ins that add up to it; only the total is the roll's outcome.
        signed = tuple((s, signs[i] if i < len(signs) else 1) for i, (s, _) in enumerate(requests))
        totals = _sums(signed)
        values = list(totals.weights)
        total = values[self._choose_weighted(list(totals.values()))]
        # Every die at its least contribution (1 added, its top face taken away), then raised
        # one die at a time until the signed faces reach the total.
        faces = [1 if sign > 0 else s for s, sign in signed]
        left = total - sum(f * sign for f, (_, sign) in zip(faces, signed, strict=True))
        for i, (s, sign) in enumerate(signed):
            step = min(left, s - 1)
            faces[i] += step if sign > 0 else -step
            left -= step
        return [Roll(f"d{s}", f, p) for (s, p), f in zip(requests, faces, strict=True)]

    def rolloff(self, names: list[str], sides: int, purpose: str) -> tuple[list[str], list[Roll]]:
        # Independent dice re-rolled on ties put every order of the tied names at equal odds:
        # choose the first of those left, at equal odds, one place at a time (n! paths, but
        # never a list of the n! orders).
        left, order = list(names), []
        while left:
            order.append(left.pop(self._choose(len(left))))
        return order, []

    def _percentile_faces(self, purpose: str) -> tuple[int, int]:
        # One 100-way branch instead of two 10-way ones: same outcomes, shallower paths.
        return d100_faces(self._choose(100) + 1)

    def next_prefix(self) -> list[int] | None:
        """The next path in depth-first order, or None when every path has been walked."""
        path = list(self.choices)
        while path and path[-1][0] + 1 == path[-1][1]:
            path.pop()
        if not path:
            return None
        return [index for index, _ in path[:-1]] + [path[-1][0] + 1]


# A single D100 shot is 100 paths, a melee 100, a morale test 10: far below this. The cap
# only stops a question that would keep a player waiting.
MAX_PATHS = 200_000
# The work of adding up dice of which only the total counts (dice x sides x totals): 20d20
# is 160,000; 100d1000 would be ten billion and is refused before any is done.
MAX_SUM_WORK = 1_000_000

_SUMS: dict[tuple[tuple[int, int], ...], Distribution] = {}


def _sums(dice: tuple[tuple[int, int], ...]) -> Distribution:
    """The distribution of the total of fair dice, each (sides, +1 added or -1 taken away)."""
    found = _SUMS.get(dice)
    if found is None:
        sides = [s for s, _ in dice]
        work = len(sides) * max(sides) * sum(sides)
        if work > MAX_SUM_WORK:
            raise TooManyOutcomes(
                f"--odds for a roll of {len(sides)} dice of up to {max(sides)} sides, added up, "
                f"would take {work:,} steps (more than {MAX_SUM_WORK:,})",
                "ask about fewer or smaller dice (e.g. up to 20d20)",
            )
        found = Distribution({0: 1}, 1)
        for s, sign in dice:
            found = found.convolve(Distribution({sign * f: 1 for f in range(1, s + 1)}, s))
        _SUMS[dice] = found
    return found


def enumerate_outcomes(
    run: Callable[[EnumeratingDice], T], key: Callable[[T], K], max_paths: int = MAX_PATHS
) -> dict[K, Fraction]:
    """P(key(result)) over every sequence of dice `run` can ask for, exactly."""
    dist: dict[K, Fraction] = {}
    prefix: list[int] | None = []
    paths = 0
    while prefix is not None:
        dice = EnumeratingDice(prefix=prefix)
        outcome = key(run(dice))
        dist[outcome] = dist.get(outcome, Fraction(0)) + dice.probability
        paths += 1
        if paths > max_paths:
            raise TooManyOutcomes(
                f"--odds would walk more than {max_paths:,} dice paths",
                "ask about fewer dice at once",
            )
        prefix = dice.next_prefix()
    return dist


class Distribution(Mapping[int, Fraction]):
    """An exact distribution over whole numbers as integer weights over one common
    denominator: convolving and powering never build a `Fraction` in an inner loop, and each
    probability is reduced only when it is asked for (`floats` and `exact` serve whole rows
    at once, cheaply)."""

    # Probabilities are reduced entry by entry while the denominator is below this many bits
    # (a few microseconds each); past it, over the common denominator (exact, not reduced).
    REDUCE_BITS = 4096

    def __init__(self, weights: dict[int, int], denominator: int) -> None:
        # Reduced by the weights' common factor while the denominator is small; past
        # REDUCE_BITS a gcd over thousands of long integers costs seconds and changes no
        # probability: the weights stay over the denominator they came with.
        common = 1
        if denominator.bit_length() <= self.REDUCE_BITS:
            common = denominator
            for weight in weights.values():
                common = math.gcd(common, weight)
                if common == 1:
                    break
        if common == 1:  # keep the integers themselves: a big table is never copied
            self.weights = {k: w for k, w in sorted(weights.items()) if w}
        else:
            self.weights = {k: w // common for k, w in sorted(weights.items()) if w}
        self.denominator = denominator // common

    @classmethod
    def of(cls, dist: Mapping[int, Fraction]) -> Distribution:
        if isinstance(dist, Distribution):
            return dist
        denominator = math.lcm(*(p.denominator for p in dist.values())) if dist else 1
        return cls(
            {k: p.numerator * (denominator // p.denominator) for k, p in dist.items()},
            denominator,
        )

    def __getitem__(self, key: int) -> Fraction:
        return Fraction(self.weights[key], self.denominator)

    def __iter__(self) -> Iterator[int]:
        return iter(self.weights)

    def __len__(self) -> int:
        return len(self.weights)

    def convolve(self, other: Distribution) -> Distribution:
        for one, two in ((self, other), (other, self)):
            if one.denominator == 1 and one.weights == {0: 1}:  # adding nothing
                return two
        out: dict[int, int] = {}
        for a, wa in self.weights.items():
            for b, wb in other.weights.items():
                out[a + b] = out.get(a + b, 0) + wa * wb
        return Distribution(out, self.denominator * other.denominator)

    def power(self, n: int) -> Distribution:
        """The sum of `n` independent copies, in integers: a two-valued one by the binomial,
        term by term; any other by J.C.P. Miller's recurrence for the powers of a polynomial,
        each weight from the K before it (n x K x span work, where squaring costs the span
        squared)."""
        items = list(self.weights.items())
        if n == 0:
            return Distribution({0: 1}, 1)
        if len(items) == 1:
            ((k, w),) = items
            return Distribution({k * n: w**n}, self.denominator**n)
        if len(items) == 2:
            (low, wa), (high, wb) = items
            weights, term = {}, wa**n
            for j in range(n + 1):  # j copies high: C(n, j) wa^(n-j) wb^j
                weights[low * (n - j) + high * j] = term
                term = term * (n - j) * wb // ((j + 1) * wa) if j < n else term
            return Distribution(weights, self.denominator**n)
        return Distribution(miller_power(self.weights, n), self.denominator**n)

    def floats(self) -> dict[int, float]:
        """Each probability as a float, worked out once (a division of long integers each)."""
        found = self.__dict__.get("_floats")
        if found is None:
            found = self._floats = {k: w / self.denominator for k, w in self.weights.items()}
        return found

    def exact(self) -> dict[int, str]:
        if self.denominator.bit_length() < self.REDUCE_BITS:
            return {k: str(Fraction(w, self.denominator)) for k, w in self.weights.items()}
        return {k: f"{w}/{self.denominator}" for k, w in self.weights.items()}

    def mean(self) -> Fraction:
        return Fraction(sum(k * w for k, w in self.weights.items()), self.denominator)

    def at_least(self) -> Distribution:
        """P(N or more) for each N."""
        out, running = {}, 0
        for k in sorted(self.weights, reverse=True):
            running += self.weights[k]
            out[k] = running
        return Distribution(out, self.denominator)

    def at_least_floats(self) -> dict[int, float]:
        """P(N or more) for each N as floats: the floats summed from the top down, the
        smallest first (no table of long integers built; within 1e-12 of the exact)."""
        floats = self.floats()
        out, running = {}, 0.0
        for k in sorted(floats, reverse=True):
            running += floats[k]
            out[k] = min(running, 1.0)
        return dict(sorted(out.items()))

    def tail(self, at_least: int) -> Fraction:
        return Fraction(sum(w for k, w in self.weights.items() if k >= at_least), self.denominator)

    def power_tail(self, n: int, at_least: int) -> Fraction:
        """P(the sum of `n` copies is `at_least` or more), from the sums below it alone:
        a model's few wounds left need a few terms of the power, not all of them."""
        if not self.weights:
            return Fraction(0)
        below = miller_power(self.weights, n, at_least) if n else {0: 1}
        short = sum(w for k, w in below.items() if k < at_least)
        return 1 - Fraction(short, self.denominator**n)

    def power_cost(self, n: int) -> int:
        """About how much work `power(n)` is (digit operations): each of its sums, from each
        of the values of one copy, with numbers of n copies' digits."""
        span = max(self.weights) - min(self.weights) if self.weights else 0
        return n * span * max(1, span) * max(1, n * self.denominator.bit_length() // 30)


def miller_power(weights: dict[int, int], n: int, below: int | None = None) -> dict[int, int]:
    """The coefficients of P(x)^n, P the polynomial with `weights` (value -> integer weight),
    by J.C.P. Miller's recurrence: with a_j the weights from the least value up (a_0 > 0),
    c_0 = a_0^n and m a_0 c_m = sum over j of (j (n + 1) - m) a_j c_(m-j). Every c_m is a
    whole number, so the division is exact: integers only, no fraction in the loop. `below`:
    only the sums less than it (each weight needs only those before it)."""
    low = min(weights)
    degree = max(weights) - low
    a = [weights.get(low + j, 0) for j in range(degree + 1)]
    steps = [(j, a[j]) for j in range(1, degree + 1) if a[j]]
    a0 = a[0]
    c = [a0**n]
    top = degree * n if below is None else min(degree * n, below - low * n - 1)
    for m in range(1, top + 1):
        total = 0
        for j, aj in steps:
            if j > m:
                break
            total += (j * (n + 1) - m) * aj * c[m - j]
        c.append(total // (m * a0))
    return {low * n + m: cm for m, cm in enumerate(c) if cm}


# Past this much work (`Distribution.power_cost`) a count's whole distribution is left out,
# its mean kept: about a quarter of a second of work on this machine.
POWER_BUDGET = 200_000_000


def add_independent(dists: Iterable[Mapping[int, Fraction]]) -> Distribution:
    """Distribution of the sum of independent integer-valued results: copies of one
    distribution are summed by a power of it, the rest by convolution."""
    copies: dict[tuple[tuple[tuple[int, int], ...], int], int] = {}
    for dist in dists:
        each = dist if isinstance(dist, Distribution) else Distribution.of(dist)
        key = (tuple(sorted(each.weights.items())), each.denominator)
        copies[key] = copies.get(key, 0) + 1
    total = Distribution({0: 1}, 1)
    for (weights, denominator), n in copies.items():
        total = total.convolve(Distribution(dict(weights), denominator).power(n))
    return total


def until_decided(dist: dict[K, Fraction], undecided: K) -> dict[K, Fraction]:
    """Outcomes of a contest re-rolled whenever it ends `undecided`.

    Repeating until decided gives each decided outcome P(o) / (1 - P(undecided)): the sum of
    the geometric series P(o) * P(undecided)^k over k re-rolls.
    """
    stop = 1 - dist.get(undecided, Fraction(0))
    if stop == 0:
        raise TooManyOutcomes("this contest can never be decided: every roll ties")
    return {o: p / stop for o, p in dist.items() if o != undecided}


def exact_is_long(dist: Mapping[Any, Fraction]) -> bool:
    """Whether a distribution's exact values are too long to write unasked (--exact)."""
    return isinstance(dist, Distribution) and (
        dist.denominator.bit_length() > Distribution.REDUCE_BITS
    )


def _long_ints_as_text() -> None:
    """Python refuses to write an integer of more than 4,300 digits as text (a guard for
    parsers of untrusted input); hc writes its own exact odds, whatever their length."""
    import sys

    if sys.get_int_max_str_digits():
        sys.set_int_max_str_digits(0)


def as_floats(dist: Mapping[Any, Fraction]) -> dict[str, float]:
    if isinstance(dist, Distribution):
        return {str(k): p for k, p in dist.floats().items()}
    return {str(k): float(v) for k, v in dist.items()}


def as_fractions(dist: Mapping[Any, Fraction]) -> dict[str, str]:
    _long_ints_as_text()
    if isinstance(dist, Distribution):
        return {str(k): text for k, text in dist.exact().items()}
    return {str(k): f"{v.numerator}/{v.denominator}" for k, v in dist.items()}


# ---------------------------------------------------------------------------------------------
# Reading a distribution: mean, at least N, rows as floats (a `Distribution` answers for itself)


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    if isinstance(dist, Distribution):  # one sum of integers
        return dist.mean()
    return sum((Fraction(k) * p for k, p in dist.items()), Fraction(0))


def at_least(dist: Mapping[int, Fraction]) -> Mapping[int, Fraction]:
    """P(N or more) for each N of a distribution over whole numbers."""
    if isinstance(dist, Distribution):
        return dist.at_least()
    out, running = {}, Fraction(0)
    for k in sorted(dist, reverse=True):
        running += dist[k]
        out[k] = running
    return dict(sorted(out.items()))


def at_least_floats(dist: Mapping[int, Fraction]) -> dict[int, float]:
    if isinstance(dist, Distribution):
        return dist.at_least_floats()
    return {k: float(p) for k, p in at_least(dist).items()}


def float_items(dist: Mapping[Any, Fraction]) -> list[tuple[Any, float]]:
    """The rows of a distribution as floats, without reducing a fraction per row."""
    if isinstance(dist, Distribution):
        return list(dist.floats().items())
    return [(k, float(p)) for k, p in dist.items()]

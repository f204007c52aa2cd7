"""Exact odds, computed by running the resolver itself over every path of dice.

Nothing here knows a rule. `enumerate_outcomes` walks the same code that rolls, with an
`EnumeratingDice`; the other helpers only combine such distributions by probability laws
(independent repetitions add up by convolution; a roll-off repeated on ties is a geometric
series), so the rules stay in one place.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from hc_cli.dice import DiceSource, Roll, TooManyOutcomes, d100_faces


@dataclass
class EnumeratingDice(DiceSource):
    """Answers along one path of choices, remembering each branch point.

    `hc_cli.odds.enumerate_outcomes` runs the resolver once per path, depth first, and
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

    def rolloff(self, names: list[str], sides: int, purpose: str) -> tuple[list[str], list[Roll]]:
        # Independent dice re-rolled on ties put every order of the tied names at equal odds.
        orders = list(itertools.permutations(names))
        index = self._choose_weighted([Fraction(1, len(orders))] * len(orders))
        return list(orders[index]), []

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


T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
Distribution = dict

# A single D100 shot is 100 paths, a melee 100, a morale test 10: far below this. The cap
# only stops a question that would keep a player waiting.
MAX_PATHS = 200_000


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


def add_independent(dists: Iterable[dict[int, Fraction]]) -> dict[int, Fraction]:
    """Distribution of the sum of independent integer-valued results (convolution)."""
    total: dict[int, Fraction] = {0: Fraction(1)}
    for dist in dists:
        step: dict[int, Fraction] = {}
        for a, pa in total.items():
            for b, pb in dist.items():
                step[a + b] = step.get(a + b, Fraction(0)) + pa * pb
        total = step
    return dict(sorted(total.items()))


def until_decided(dist: dict[K, Fraction], undecided: K) -> dict[K, Fraction]:
    """Outcomes of a contest re-rolled whenever it ends `undecided`.

    Repeating until decided gives each decided outcome P(o) / (1 - P(undecided)): the sum of
    the geometric series P(o) * P(undecided)^k over k re-rolls.
    """
    stop = 1 - dist.get(undecided, Fraction(0))
    if stop == 0:
        raise TooManyOutcomes("this contest can never be decided: every roll ties")
    return {o: p / stop for o, p in dist.items() if o != undecided}


def as_floats(dist: dict) -> dict[str, float]:
    return {str(k): float(v) for k, v in dist.items()}


def as_fractions(dist: dict) -> dict[str, str]:
    return {str(k): f"{v.numerator}/{v.denominator}" for k, v in dist.items()}

"""Exact odds, computed by running the resolver itself over every path of dice.

Nothing here knows a rule. `enumerate_outcomes` walks the same code that rolls, with an
`EnumeratingDice`; the other helpers only combine such distributions by probability laws
(independent repetitions add up by convolution; a roll-off repeated on ties is a geometric
series), so the rules stay in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from typing import TypeVar

from hc_cli.dice import EnumeratingDice, TooManyOutcomes

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
Distribution = dict

# A single D100 shot is 100 paths, a melee 100, a morale test 10: far below this. The cap
# only stops a question that would keep a player waiting.
MAX_PATHS = 200_000


def enumerate_outcomes(run: Callable[[EnumeratingDice], T], key: Callable[[T], K],
                       max_paths: int = MAX_PATHS) -> dict[K, Fraction]:
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
            raise TooManyOutcomes(f"--odds would walk more than {max_paths:,} dice paths",
                                  "ask about fewer dice at once")
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


def at_least(dist: dict[int, Fraction], n: int) -> Fraction:
    return sum((p for k, p in dist.items() if k >= n), Fraction(0))


def mean(dist: dict[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))

"""`hc roll` speaks wargame dice; every notation's odds against an independent enumeration
(itertools over the faces, written here without hc's code)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest


def _brute(count: int, sides: int, read) -> dict[str, str]:
    """Every face combination, equally likely, read by `read` into a total."""
    tally = Counter(read(faces) for faces in itertools.product(range(1, sides + 1), repeat=count))
    n = sides**count
    return {str(k): str(Fraction(v, n)) for k, v in sorted(tally.items())}


def _pooled(count: int, sides: int, read) -> dict[str, str]:
    """The total of `count` dice, each read by `read` alone (a success: 0 or 1), die by die:
    the same enumeration as `_brute` for a total that adds up what each die says, without
    its sides ** count combinations."""
    tally = Counter({0: 1})
    for _ in range(count):
        step: Counter = Counter()
        for total, ways in tally.items():
            for face in range(1, sides + 1):
                step[total + read(face)] += ways
        tally = step
    n = sides**count
    return {str(k): str(Fraction(v, n)) for k, v in sorted(tally.items())}


CASES = [
    ("4d6kh3", lambda: _brute(4, 6, lambda f: sum(sorted(f)[1:]))),
    ("4d6dl1", lambda: _brute(4, 6, lambda f: sum(sorted(f)[1:]))),
    ("5d6dh2", lambda: _brute(5, 6, lambda f: sum(sorted(f)[:3]))),
    ("2d20kl1", lambda: _brute(2, 20, min)),
    ("3d8kh1", lambda: _brute(3, 8, max)),
    ("10d6>=4", lambda: _pooled(10, 6, lambda x: int(x >= 4))),
    ("6d10<3", lambda: _brute(6, 10, lambda f: sum(x < 3 for x in f))),
    ("d66", lambda: _brute(2, 6, lambda f: 10 * f[0] + f[1])),
    ("d666", lambda: _brute(3, 6, lambda f: 100 * f[0] + 10 * f[1] + f[2])),
    ("2d6+1", lambda: _brute(2, 6, lambda f: sum(f) + 1)),
]


def test_the_pooled_enumeration_is_the_brute_one():
    assert _pooled(4, 6, lambda x: int(x >= 4)) == _brute(4, 6, lambda f: sum(x >= 4 for x in f))


@pytest.mark.parametrize(("expression", "expected"), CASES, ids=[c[0] for c in CASES])
def test_roll_odds_against_an_enumeration(hc, expression, expected):
    assert hc.json("roll", expression, "--odds")["odds_exact"] == expected()


def test_exploding_die_odds():
    """d6!: each 6 adds another d6, at most 20 times; so P(6k + r) = (1/6)^(k+1), r in 1..5."""
    from hc_cli.core.roll import MAX_EXPLOSIONS, roll_odds

    odds = roll_odds("d6!", "high-crusade").odds
    assert odds is not None
    for total, p in odds.distributions["total"].items():
        k, r = divmod(total, 6)
        if k <= MAX_EXPLOSIONS and r:
            assert p == Fraction(1, 6) ** (k + 1), total
    assert sum(odds.distributions["total"].values()) == 1


def test_rolled_notation_reads_the_dice(hc):
    assert hc.json("roll 4d6kh3 --dice 6,6,1,1")["total"] == 13
    assert hc.json("roll 2d20kl1 --dice 17,4")["total"] == 4
    assert hc.json("roll", "10d6>=4", "--dice", "1,2,3,4,5,6,6,6,1,4")["total"] == 6
    assert hc.json("roll", "d6!", "--dice", "6,6,2")["total"] == 14
    d66 = hc.json("roll d66 --dice 3,5")
    assert d66["total"] == 35 and d66["rolls"][0]["faces"] == [3, 5]
    assert hc.json("roll d666 --dice 1,2,3")["total"] == 123
    text = hc("roll 4d6kh3 --dice 6,6,1,1").stdout
    assert "(6+6+1 (dropped 1)) = 13" in text


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("4d6kh5", "keeps 5 of 4 dice"),
        ("2d6dl2", "drops 2 of 2 dice"),
        ("d66!", "cannot explode"),
        ("d6x", "cannot read"),
    ],
)
def test_bad_notation_is_named(hc, expression, message):
    assert message in hc.error("roll", expression)

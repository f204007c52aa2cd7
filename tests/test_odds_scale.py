"""Exact odds at scale: powers of a shot's distribution against icepool (a test-only
dependency, an independent implementation), and the per-shot enumeration unchanged."""

from __future__ import annotations

from fractions import Fraction

import pytest

icepool = pytest.importorskip("icepool")

from hc_cli.core.odds import Distribution, add_independent  # noqa: E402


def _icepool(dist: dict[int, Fraction], n: int) -> dict[int, Fraction]:
    denominator = 1
    for p in dist.values():
        denominator = (
            denominator * p.denominator // __import__("math").gcd(denominator, p.denominator)
        )
    die = icepool.Die({k: int(p * denominator) for k, p in dist.items()})
    total = n @ die
    return {o: Fraction(total.quantity(o), total.denominator()) for o in total.outcomes()}


CASES = [
    ({0: Fraction(7, 20), 1: Fraction(13, 20)}, 400),  # a Fireteam's kills
    ({0: Fraction(2, 3), 1: Fraction(1, 3)}, 257),
    ({0: Fraction(13, 18), 1: Fraction(5, 72), 2: Fraction(5, 72), 3: Fraction(5, 72),
      4: Fraction(5, 72)}, 60),  # heavy bolter wounds on a carnosaur, d4 damage
    ({0: Fraction(1, 2), 2: Fraction(1, 4), 5: Fraction(1, 4)}, 33),
    ({3: Fraction(1)}, 10),
]  # fmt: skip


@pytest.mark.parametrize(("dist", "n"), CASES)
def test_powers_agree_with_icepool(dist, n):
    ours = add_independent([dist] * n)
    assert dict(ours.items()) == _icepool(dist, n)
    assert sum(ours.weights.values()) == ours.denominator


def test_mixed_shots_convolve_as_icepool_does():
    a = {0: Fraction(7, 20), 1: Fraction(13, 20)}
    b = {0: Fraction(1, 4), 1: Fraction(3, 4)}
    ours = add_independent([a] * 40 + [b] * 25)
    theirs_a, theirs_b = _icepool(a, 40), _icepool(b, 25)
    expected: dict[int, Fraction] = {}
    for x, px in theirs_a.items():
        for y, py in theirs_b.items():
            expected[x + y] = expected.get(x + y, Fraction(0)) + px * py
    assert dict(ours.items()) == expected


def test_a_thousand_shot_fireteam_odds_match_icepool(hc):
    out = hc.json("fire -w ingrave-ar -r 14 -t orc --shots 300 --odds")
    expected = _icepool({0: Fraction(7, 20), 1: Fraction(13, 20)}, 300)
    assert {int(k): Fraction(v) for k, v in out["distributions_exact"]["kills"].items()} == expected


def test_big_denominators_stay_exact():
    dist = Distribution.of({0: Fraction(7, 20), 1: Fraction(13, 20)}).power(2000)
    assert dist.denominator.bit_length() > Distribution.REDUCE_BITS
    exact = dist.exact()
    assert Fraction(exact[1000]) == dist[1000]
    assert abs(sum(dist.floats().values()) - 1) < 1e-9


def test_a_volley_past_a_screenful_is_summed_up(hc):
    fire = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "50", "--seed", "1")
    text = hc(*fire).stdout
    assert "shot 1:" not in text and "(each of the 50: --verbose, or --json)" in text
    assert "... (50 dice) ->" in " ".join(text.split())
    assert "shot 50:" in hc(*fire, "--verbose").stdout
    assert len(hc.json(*fire)["shots"]) == 50


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "1000000"),
         "--shots 1000000 is out of bounds: 1..10000"),
        (("fire", "-w", "ingrave-ar", "-r", "nan", "-t", "orc"), "--range nan is not a number"),
        (("fire", "-w", "ingrave-ar", "-r", "inf", "-t", "orc"), "--range inf is not a number"),
        (("fire", "--ruleset", "rogue-trader", "--bs", "4", "-w", "frag-grenade", "-r", "6",
          "-t", "ork", "--placed", "--under", "9223372036854775808"), "--under 92233720368547"),
        (("roll", "d6", "--seed", "-1"), "--seed -1 is out of bounds"),
    ],
)  # fmt: skip
def test_bounds_answer_at_once_with_the_way_round(hc, args, message):
    err = hc.error(*args)
    assert message in err


def test_bounds_are_in_the_help(hc):
    assert "[1..10000]" in " ".join(hc("fire --help").stdout.split())


def test_tied_orders_are_counted_not_listed(hc):
    chars = [a for i in range(11) for a in ("--char", f"C{i}:5::5:0")]
    out = hc.json("initiative", "--ruleset", "t2k", *chars, "--odds")
    assert out["orders"] == 39916800 and out["each_order"] == "1/39916800"
    assert out["odds_exact"]["C0 first"] == "1/11" and len(out["odds"]) == 11

"""`hc roll` and `--odds` refuse by the work a question takes (issue 39), not by a count of
dice or sides: a sum of 999 dice or a keep of 1 of 897 is cheap and answers; what would take
too long is refused before any of the work, naming what would answer."""

import time
from fractions import Fraction

import pytest

from hc_cli.core.dice import SeededDice, TooManyOutcomes
from hc_cli.core.errors import HcError
from hc_cli.core.parser import read
from hc_cli.core.roll import resolve_roll
from hc_cli.core.weigh import roll_odds

# Weighed in about a second at most on this machine (bench/odds_work.py); the bound leaves
# room for a loaded machine.
ANSWERS_WITHIN = 4.0  # seconds


@pytest.mark.parametrize(
    "expression",
    ["999d6", "897d2kh1", "d40601k1", "2d1000", "d1000+d1000", "1000d6kh1", "100d6kh10",
     "20d10!"],
)  # fmt: skip
def test_a_cheap_question_answers_in_time(expression):
    start = time.perf_counter()
    odds = roll_odds(expression, "hc").odds
    assert time.perf_counter() - start < ANSWERS_WITHIN
    assert sum(odds.outcomes.values()) == 1


def test_the_odds_of_999d6_by_hand():
    """999 dice of 6: at least 999, at most 5,994, the mean 999 x 3.5; each end one way of
    6^999."""
    outcomes = roll_odds("999d6", "hc").odds.outcomes
    totals = [int(k) for k in outcomes]
    assert (min(totals), max(totals)) == (999, 5994)
    assert sum(int(k) * p for k, p in outcomes.items()) == Fraction(6993, 2)  # 3,496.5
    assert outcomes["999"] == outcomes["5994"] == Fraction(1, 6**999)
    assert outcomes["1000"] == Fraction(999, 6**999)  # one die of the 999 shows a 2


@pytest.mark.parametrize(
    ("expression", "part", "answers"),
    [
        ("2000d1000", "added up", lambda n: f"{n}d1000"),
        ("100d1000kh50", "keeping 50 of 100", lambda n: f"100d1000kh{n}"),
        ("300d100kh10", "keeping 10 of 300", lambda n: f"300d100kh{n}"),
        ("d1000000", "of 1,000,000 faces", lambda n: f"d{n}"),
    ],
)
def test_a_question_too_big_is_refused_at_once_naming_what_answers(expression, part, answers):
    read(expression)  # read apart: a die of a million faces is listed to be read
    start = time.perf_counter()
    with pytest.raises(TooManyOutcomes) as refused:
        roll_odds(expression, "hc")
    assert time.perf_counter() - start < 0.5  # refused before the work
    message, hint = refused.value.message, refused.value.hint or ""
    assert part in message and "steps to weigh exactly" in message
    assert "without --odds" in hint  # it still rolls
    offered = int(hint.split("at most ")[1].split()[0].replace(",", ""))
    assert offered > 0
    assert sum(roll_odds(answers(offered), "hc").odds.outcomes.values()) == 1  # it answers


@pytest.mark.parametrize("expression", ["{3d6, 3d6, 3d6, 3d6, 3d6, 3d6}>=10", "10d100!p"])
def test_other_parts_too_big_are_refused_at_once(expression):
    start = time.perf_counter()
    with pytest.raises(TooManyOutcomes, match="steps to weigh exactly"):
        roll_odds(expression, "hc")
    assert time.perf_counter() - start < 0.5


def test_a_huge_pool_rolls_in_bounded_time_and_past_its_rolls_is_refused():
    start = time.perf_counter()
    res = resolve_roll("100000d6", SeededDice(7), "hc")
    assert time.perf_counter() - start < 10
    assert 100_000 <= res.fields["total"] <= 600_000 and len(res.rolls) == 100_000
    start = time.perf_counter()
    with pytest.raises(HcError, match="rolls to roll once"):
        resolve_roll("60000d6+60000d6", SeededDice(7), "hc")
    assert time.perf_counter() - start < 0.5
    with pytest.raises(HcError, match="dice of a kind"):
        resolve_roll("100001d6", SeededDice(7), "hc")

"""Dice sources: the D100 reading, seeded stability, scripted dice and their errors."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from hc_cli.core.dice import ScriptedDice, SeededDice, d100_faces, read_d100
from hc_cli.core.errors import DiceError
from hc_cli.core.odds import EnumeratingDice, enumerate_outcomes


def test_d100_reading_table_covers_1_to_100_once():
    """Every pair of faces, tens then units, read as the text says."""
    reads = {}
    for tens in range(10):
        for units in range(10):
            expected = 100 if tens == 0 and units == 0 else tens * 10 + units
            assert read_d100(tens, units) == expected
            reads[(tens, units)] = expected
    assert sorted(reads.values()) == list(range(1, 101))
    for (tens, units), value in reads.items():
        assert d100_faces(value) == (tens, units)


@pytest.mark.parametrize(
    ("tens", "units", "value"),
    [
        (4, 6, 46),  # "a 4 on the tens dice and a 6 on the units dice ... 46%"
        (5, 0, 50),  # "5 on the tens dice and 0 on the units dice you have scored 50%"
        (0, 6, 6),  # "0 on the tens dice and 6 on the units, you have rolled 06%"
        (0, 0, 100),  # "0 on both dice ... signifies a score of 100%"
    ],
)
def test_d100_examples_from_the_text(tens, units, value):
    assert read_d100(tens, units) == value
    assert ScriptedDice(f"{tens},{units}").d100("to hit").value == value


def test_seeded_dice_derive_from_random_random_only():
    """The promise behind --seed: faces are int(random() * sides) + 1 of Random(seed)."""
    rng = random.Random(1234)
    expected = [int(rng.random() * 10) + 1 for _ in range(5)]
    dice = SeededDice(1234)
    assert [dice.roll(10, "x").value for _ in range(5)] == expected


def test_seeded_dice_known_sequence():
    """Pinned values: a change here breaks every replayed game."""
    dice = SeededDice(1)
    assert [dice.roll(10, "x").value for _ in range(6)] == [2, 9, 8, 3, 5, 5]
    assert SeededDice(1).d100("to hit").value == 29


def test_scripted_d10_reads_zero_as_ten():
    assert ScriptedDice("0").roll(10, "morale").value == 10
    assert ScriptedDice("10").roll(10, "morale").value == 10


def test_scripted_d100_as_read_value():
    dice = ScriptedDice("46%,100%")
    assert dice.d100("a").faces == (4, 6)
    assert dice.d100("b").value == 100


def test_scripted_too_few_names_the_roll():
    dice = ScriptedDice("4")
    with pytest.raises(DiceError, match="ran out at roll 2: d100 units for to hit"):
        dice.d100("to hit")


def test_scripted_too_many_is_reported_after_the_resolution():
    dice = ScriptedDice("7,5,3")
    dice.roll(10, "attacker")
    dice.roll(10, "defender")
    with pytest.raises(DiceError, match="1 value\\(s\\) too many: 3"):
        dice.finish()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11", "does not fit the d10"),
        ("-1", "does not fit the d10"),
        ("x", "'x' is not a face value"),
        ("", "--dice is empty"),
    ],
)
def test_scripted_bad_d10(text, message):
    with pytest.raises(DiceError, match=message):
        ScriptedDice(text).roll(10, "morale")


def test_scripted_d6_has_no_zero():
    with pytest.raises(DiceError, match="a d6 takes 1..6"):
        ScriptedDice("0").roll(6, "to hit")


def test_scripted_d100_face_out_of_range():
    with pytest.raises(DiceError, match="d100 tens die"):
        ScriptedDice("-1,3").d100("to hit")
    assert ScriptedDice("10,3").d100("to hit").value == 10  # two digits: a read value


def test_enumeration_weights_sum_to_one():
    dist = enumerate_outcomes(lambda d: d.d100("x").value + d.roll(6, "y").value, lambda v: v)
    assert sum(dist.values()) == 1
    assert dist[2] == Fraction(1, 600)  # 1 on the D100 (0,1) and 1 on the D6


def test_enumerating_dice_walks_paths_depth_first():
    dice = EnumeratingDice(prefix=[1])
    assert dice.roll(6, "x").value == 2
    assert dice.roll(6, "y").value == 1
    assert dice.next_prefix() == [1, 1]

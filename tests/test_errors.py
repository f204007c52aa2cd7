"""Bad input: exit 2, a message naming what is wrong and what would be right, no traceback."""

from __future__ import annotations

import pytest

FIRE = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "crusader")


@pytest.mark.parametrize(
    ("args", "wrong", "right"),
    [
        (
            ("fire", "-w", "ingrav-ar", "-r", "14", "-t", "crusader"),
            "unknown weapon 'ingrav-ar'",
            "did you mean 'ingrave-ar'?",
        ),
        (
            ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "crusadr"),
            "unknown troop type 'crusadr'",
            "did you mean 'crusader'?",
        ),
        (("melee", "--attacker", "ork"), "unknown troop type 'ork'", "'orc'"),
        ((*FIRE, "--mod", "target-statik"), "unknown modifier 'target-statik'", "'target-static'"),
        (("fire", "-w", "zzz", "-r", "1", "-t", "orc"), "unknown weapon 'zzz'", "known weapons:"),
        ((*FIRE, "--ruleset", "high-crusad"), "unknown rule set 'high-crusad'", "'high-crusade'"),
    ],
)
def test_unknown_names_suggest_the_nearest(hc, args, wrong, right):
    err = hc.error(*args)
    assert wrong in err and right in err


def test_negative_range(hc):
    err = hc.error("fire -w ingrave-ar -r -3 -t crusader")
    assert "--range -3 is out of bounds: 0..100000 inches" in err and "from 0 to 100000" in err


def test_non_numeric_range(hc):
    err = hc.error("fire -w ingrave-ar -r far -t crusader")
    assert "'far' is not a valid float" in err


def test_range_beyond_the_last_band_rolls_nothing(hc):
    err = hc.error("fire -w ingrave-ar -r 60 -t crusader --dice 1,1")
    assert 'out of range: ingrave-ar reaches 48"' in err and "no roll" in err


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ("4", "--dice ran out at roll 2: d100 units for to hit"),
        ("4,5,6", "--dice has 1 value(s) too many: 6"),
        ("4,12", "does not fit the d100 units die for to hit"),
        ("101%", "does not fit the d100 for to hit"),
        ("four", "'four' is not a face value"),
    ],
)
def test_bad_dice_on_fire(hc, dice, message):
    assert message in hc.error(*FIRE, "--dice", dice)


def test_bad_dice_on_a_d10(hc):
    err = hc.error("morale --troop levy --ambushed --dice 11")
    assert "does not fit the d10 for morale" in err and "1..10 (0 is read as 10)" in err
    err = hc.error("melee --attacker orc --defender levy --dice 3")
    assert "ran out at roll 2: d10 for defender" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((*FIRE, "--seed", "1", "--dice", "1,1"), "--seed and --dice both given"),
        ((*FIRE, "--odds", "--seed", "1"), "--odds rolls nothing"),
        (
            ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "-t", "levy"),
            "ingrave-ar fires without a template",
        ),
        (
            ("fire", "-w", "heavy-laser", "-r", "14", "-t", "orc", "-t", "levy", "--shots", "2"),
            "--shots and several --target do not go together",
        ),
        (
            ("fire", "-w", "heavy-laser", "-r", "14", "-t", "orc", "-t", "levy", "--df", "3"),
            "--df goes with one target",
        ),
        (
            ("fire", "-w", "heavy-laser", "-r", "14", "-t", "orc", "--template", "circle"),
            "--template circle does not fit heavy-laser",
        ),
        ((*FIRE, "--mod", "ambushed"), "modifier 'ambushed' applies to morale, not to fire"),
        (("morale", "--troop", "crusader"), "nothing calls for a Morale test"),
        (("morale", "--strength", "10"), "--strength goes with --casualties"),
        (("morale", "--strength", "10", "--casualties", "12"), "--casualties 12 does not fit"),
        (
            ("morale", "--strength", "10", "--casualties", "2", "--below-half"),
            "--below-half contradicts",
        ),
        (("initiative", "--side", "A"), "1 --side given"),
        (("initiative", "--side", "A", "--side", "a"), "two different names"),
        (("fire", "-w", "ingrave-ar", "-t", "orc"), "--range is needed"),
        (("fire", "--chance", "50", "--df", "4"), "no weapon given and no --penetration"),
        (("fire", "-w", "ingrave-ar", "-r", "4"), "no target given"),
        ((*FIRE, "--shots", "0"), "--shots 0 is out of bounds: 1..10000"),
        (("fire", "--chance", "-5", "--penetration", "3", "--df", "3"), "--chance -5 is negative"),
        ((*FIRE, "--mod", "smoke=lots"), "'lots' is not a whole number"),
        (("roll", "2x6"), "cannot read '2x6'"),
        (("roll", "d0"), "a d0 has no sides"),
        (("roll", "5d"), "the die's sides (d6, d20, d%, dF) there"),
        (("tables", "weapon"), "unknown table 'weapon'"),
    ],
)
def test_conflicting_or_impossible_flags(hc, args, message):
    assert message in hc.error(*args)


def test_errors_are_one_or_two_lines(hc):
    err = hc.error("fire -w ingrav-ar -r 14 -t crusader")
    assert err.splitlines() == [
        "hc fire: unknown weapon 'ingrav-ar'",
        "  did you mean 'ingrave-ar'?",
    ]


def test_a_misspelt_command_says_what_was_meant(hc):
    result = hc("fier -w ingrave-ar -r 14 -t orc")
    assert result.exit_code == 2 and "did you mean 'fire'?" in result.stderr

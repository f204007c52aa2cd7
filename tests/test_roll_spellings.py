"""`hc roll`, second pass (issue 39): the other rollers' spellings. Each is rolled with the dice
given, in the order rolled, and weighed with `--odds`; the odds are checked against an
enumeration over the faces written here (itertools.product), or icepool, never against hc."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction

import pytest


def _key(value) -> str:
    if isinstance(value, float):  # sqrt(2): a float, written as Python writes it
        return str(int(value)) if value.is_integer() else repr(value)
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else str(value)


def _enumerated(faces: list[list[int]], read) -> dict[str, str]:
    """Every combination of the dice's faces (each list a die, each face alike likely), read
    by `read` into a value."""
    tally = Counter(read(combo) for combo in itertools.product(*faces))
    n = math.prod(len(f) for f in faces)
    return {_key(k): str(Fraction(v, n)) for k, v in sorted(tally.items())}


def _dice(count: int, sides: int) -> list[list[int]]:
    return [list(range(1, sides + 1))] * count


def _sum_of(count: int, faces: list[int]) -> dict[int, Fraction]:
    """The total of `count` dice of `faces`, die by die (a convolution written here)."""
    out = {0: Fraction(1)}
    for _ in range(count):
        step: dict[int, Fraction] = {}
        for total, p in out.items():
            for f in faces:
                step[total + f] = step.get(total + f, Fraction(0)) + p / len(faces)
        out = step
    return out


def _mixed(counts: dict[int, Fraction], sides: int) -> dict[int, Fraction]:
    """The total of a count of dice rolled first: each count's totals by its chance."""
    out: dict[int, Fraction] = {}
    for n, p in counts.items():
        for total, q in _sum_of(n, list(range(1, sides + 1))).items():
            out[total] = out.get(total, Fraction(0)) + p * q
    return out


def _sides_rolled(counts: dict[int, Fraction], most: int) -> dict[int, Fraction]:
    """`count` dice (by their chance) of a die whose sides, 1..most, are rolled first."""
    out: dict[int, Fraction] = {}
    for n, p in counts.items():
        for sides in range(1, most + 1):
            for total, q in _sum_of(n, list(range(1, sides + 1))).items():
                out[total] = out.get(total, Fraction(0)) + p * q / most
    return out


def _distinct(count: int, sides: int) -> list[tuple[int, ...]]:
    """Every roll of `count` dice with no two alike, in order: each alike likely (a die
    rerolled until it shows a face none before it shows is uniform over the faces left)."""
    return [f for f in itertools.product(range(1, sides + 1), repeat=count) if len(set(f)) == count]


def _counted_chain(sides: int, explodes, counts, dice: int, depth: int = 20) -> dict:
    """`dice` exploding dice, each roll a die of its own that `counts` reads (0 or 1): one
    die's chain walked to `depth` further rolls, then the dice added (convolution)."""
    one: dict[int, Fraction] = {}
    going = {0: Fraction(1)}  # the count so far of the chains still rolling, roll by roll
    for i in range(depth + 1):
        further: dict[int, Fraction] = {}
        for total, p in going.items():
            for face in range(1, sides + 1):
                got, q = total + counts(face), p / sides
                into = further if explodes(face) and i < depth else one
                into[got] = into.get(got, Fraction(0)) + q
        going = further
    out = {0: Fraction(1)}
    for _ in range(dice):
        step: dict[int, Fraction] = {}
        for a, p in out.items():
            for b, q in one.items():
                step[a + b] = step.get(a + b, Fraction(0)) + p * q
        out = step
    return out


def _strings(dist: dict) -> dict[str, str]:
    return {_key(k): str(p) for k, p in sorted(dist.items()) if p}


def _odds(hc, expression: str) -> dict[str, str]:
    result = hc("roll", "--odds", "--json", "--", expression)
    assert result.exit_code == 0, result.output
    return {k: str(Fraction(p)) for k, p in json.loads(result.stdout)["odds_exact"].items()}


def _rolled(hc, expression: str, dice: str) -> tuple[object, str]:
    result = hc("roll", "--dice", dice, "--json", "--", expression)
    assert result.exit_code == 0, result.output
    done = json.loads(result.stdout)
    return done["total"], hc("roll", "--dice", dice, "--", expression).stdout


def _round(x: Fraction) -> int:
    """Half away from zero, written out: 5/2 is 3, -5/2 is -3."""
    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


SPELLINGS = [
    # 1d1, 6d1, 0d4: a d1 always rolls 1, no dice total 0
    ("1d1", lambda: _enumerated([[1]], sum)),
    ("6d1", lambda: _enumerated([[1]] * 6, sum)),
    ("0d4", lambda: {"0": "1"}),
    # functions
    ("max(4d6, 7)", lambda: _enumerated(_dice(4, 6), lambda f: max(sum(f), 7))),
    ("floor(4d6/3)", lambda: _enumerated(_dice(4, 6), lambda f: sum(f) // 3)),
    ("ceil(3d6/4)", lambda: _enumerated(_dice(3, 6), lambda f: -(-sum(f) // 4))),
    ("round(d6/2)", lambda: _enumerated(_dice(1, 6), lambda f: _round(Fraction(f[0], 2)))),
    ("round(-d6/2)", lambda: _enumerated(_dice(1, 6), lambda f: _round(Fraction(-f[0], 2)))),
    ("abs(d6-4)", lambda: _enumerated(_dice(1, 6), lambda f: abs(f[0] - 4))),
    ("sign(d6-3)", lambda: _enumerated(_dice(1, 6), lambda f: (f[0] > 3) - (f[0] < 3))),
    ("min(d6, d6, d8)", lambda: _enumerated([*_dice(2, 6), list(range(1, 9))], min)),
    ("pow(d4, 2)", lambda: _enumerated(_dice(1, 4), lambda f: f[0] ** 2)),
    # keep and drop with no count, and python-dice's h, l, v
    ("2d20kh", lambda: _enumerated(_dice(2, 20), max)),
    ("2d20kl", lambda: _enumerated(_dice(2, 20), min)),
    ("4d6dl", lambda: _enumerated(_dice(4, 6), lambda f: sum(f) - min(f))),
    ("3d6dh", lambda: _enumerated(_dice(3, 6), lambda f: sum(f) - max(f))),
    ("4d6h3", lambda: _enumerated(_dice(4, 6), lambda f: sum(sorted(f)[1:]))),
    ("4d6l1", lambda: _enumerated(_dice(4, 6), min)),
    ("3d6v2", lambda: _enumerated(_dice(3, 6), lambda f: sum(sorted(f)[:2]))),
    # computed counts and sides: a count rolled first weighs each count by its chance
    ("(1+2)d4", lambda: _enumerated(_dice(3, 4), sum)),
    ("3d(5/2)", lambda: _enumerated(_dice(3, 2), sum)),  # the sides rounded down: 3d2
    ("(d3)d6", lambda: _strings(_mixed({n: Fraction(1, 3) for n in (1, 2, 3)}, 6))),
    # lists and groups, dice of listed or ranged faces
    ("(1, 2, 3, 4, 5)k3", lambda: {"12": "1"}),
    ("(d6, d6, 3)kh2", lambda: _enumerated([*_dice(2, 6), [3]], lambda f: sum(sorted(f)[1:]))),
    ("d{2,4,6}", lambda: _enumerated([[2, 4, 6]], sum)),
    ("2d{2,4,6}", lambda: _enumerated([[2, 4, 6]] * 2, sum)),
    ("1d[-1..1]", lambda: _enumerated([[-1, 0, 1]], sum)),
    ("3d[1/1/2]", lambda: _enumerated([[1, 1, 2]] * 3, sum)),
    # counted successes: c, DiceParser's c[...], target numbers
    ("4d10c>7", lambda: _enumerated(_dice(4, 10), lambda f: sum(x > 7 for x in f))),
    ("4d10c[>=7]", lambda: _enumerated(_dice(4, 10), lambda f: sum(x >= 7 for x in f))),
    ("5d10t7", lambda: _enumerated(_dice(5, 10), lambda f: sum(x >= 7 for x in f))),
    # labels and comments change nothing
    ("1d20 [attack] + 5", lambda: _enumerated(_dice(1, 20), lambda f: f[0] + 5)),
    ("3d6 # note", lambda: _enumerated(_dice(3, 6), sum)),
    ("3d6 // fire", lambda: _enumerated(_dice(3, 6), sum)),
    ("3d6 // 2", lambda: _enumerated(_dice(3, 6), lambda f: sum(f) // 2)),
    # sort and critical marks change the display only; u: no two dice alike
    ("4d6sd", lambda: _enumerated(_dice(4, 6), sum)),
    ("3d20cs>19cf1", lambda: _enumerated(_dice(3, 20), sum)),
    ("3d6u", lambda: _enumerated([[sum(f) for f in _distinct(3, 6)]], sum)),
    ("4d6ukh2", lambda: _enumerated([[sum(sorted(f)[2:]) for f in _distinct(4, 6)]], sum)),
    # rpg-dice-roller's clamps, and clamps past the faces; keeps past the pool
    ("3d6min3", lambda: _enumerated(_dice(3, 6), lambda f: sum(max(x, 3) for x in f))),
    ("3d6max3", lambda: _enumerated(_dice(3, 6), lambda f: sum(min(x, 3) for x in f))),
    ("10d6mi10", lambda: {"100": "1"}),
    ("3d10kh20", lambda: _enumerated(_dice(3, 10), sum)),
    ("2d6dl2", lambda: {"0": "1"}),
    # comparisons of whole values: 1 or 0
    ("2 > 1", lambda: {"1": "1"}),
    ("3d6 >= 10", lambda: _enumerated(_dice(3, 6), lambda f: int(sum(f) >= 10))),
    ("(2d6)=7", lambda: _enumerated(_dice(2, 6), lambda f: int(sum(f) == 7))),
    ("2d6 != 7", lambda: _enumerated(_dice(2, 6), lambda f: int(sum(f) != 7))),
    ("2d6 <> 7", lambda: _enumerated(_dice(2, 6), lambda f: int(sum(f) != 7))),
    ("{d6, d6} < 4", lambda: _enumerated(_dice(2, 6), lambda f: int(sum(f) < 4))),
    ("3d6>=4", lambda: _enumerated(_dice(3, 6), lambda f: sum(x >= 4 for x in f))),  # counted
    # read as the tested rollers read them
    ("d4r!=1", lambda: {"1": "1"}),  # rerolled until it is a 1
    ("d6ro!=6", lambda: _enumerated(_dice(2, 6), lambda f: f[0] if f[0] == 6 else f[1])),
    ("4d10f<4", lambda: _enumerated(_dice(4, 10), lambda f: sum(x for x in f if x < 4))),
    # decimals (exact), rpg-dice-roller's other functions (floats), GNOLL's \\ (rounds up)
    ("1.5 + d4", lambda: _enumerated(_dice(1, 4), lambda f: f[0] + Fraction(3, 2))),
    ("d6 * .5", lambda: _enumerated(_dice(1, 6), lambda f: Fraction(f[0], 2))),
    ("sqrt(d4)", lambda: _enumerated(_dice(1, 4), lambda f: math.sqrt(f[0]))),
    ("log(d3) + 1", lambda: _enumerated(_dice(1, 3), lambda f: math.log(f[0]) + 1)),
    ("trunc(-d6/4)", lambda: _enumerated(_dice(1, 6), lambda f: -(f[0] // 4))),
    ("fix(d6/4, 1)", lambda: _enumerated(_dice(1, 6), lambda f: Fraction(10 * f[0] // 4, 10))),
    ("1d4\\2", lambda: _enumerated(_dice(1, 4), lambda f: -(-f[0] // 2))),
    # Fudge dice of rpg-dice-roller (dF.1: -1 and +1 one in six each), GNOLL's z (0-based)
    ("dF.1", lambda: _enumerated([[-1, 0, 0, 0, 0, 1]], sum)),
    ("2dF.2", lambda: _enumerated([[-1, 0, 1]] * 2, sum)),
    ("2z4", lambda: _enumerated([[0, 1, 2, 3]] * 2, sum)),
    ("2d[0-9]", lambda: _enumerated([list(range(10))] * 2, sum)),
    ("1d[-3--1]", lambda: _enumerated([[-3, -2, -1]], sum)),
    # node-roll's best and worst; groups of one dice term keep its dice (rpg-dice-roller, d20)
    ("3d6b2", lambda: _enumerated(_dice(3, 6), lambda f: sum(sorted(f)[1:]))),
    ("2d20w1", lambda: _enumerated(_dice(2, 20), min)),
    ("{4d6}kh2", lambda: _enumerated(_dice(4, 6), lambda f: sum(sorted(f)[2:]))),
    ("(3d6)dl1", lambda: _enumerated(_dice(3, 6), lambda f: sum(sorted(f)[1:]))),
    ("(1,)", lambda: {"1": "1"}),
    # comments of rpg-dice-roller and caith
    ("4dF /* note */", lambda: _enumerated([[-1, 0, 1]] * 4, sum)),
    ("1d6 ! initiative", lambda: _enumerated(_dice(1, 6), sum)),
    ("2d6 + 6 : test", lambda: _enumerated(_dice(2, 6), lambda f: sum(f) + 6)),
    # counts: GNOLL's c alone (the dice), DiceParser's conditions, caith's tt, python-dice's t
    ("4d6c", lambda: {"4": "1"}),
    ("4d6f>3c", lambda: _enumerated(_dice(4, 6), lambda f: sum(x > 3 for x in f))),
    ("4d10c[<2|>7]", lambda: _enumerated(_dice(4, 10), lambda f: sum(x < 2 or x > 7 for x in f))),
    ("4d6c[%2=0]", lambda: _enumerated(_dice(4, 6), lambda f: sum(x % 2 == 0 for x in f))),
    ("4d10c[8-10]", lambda: _enumerated(_dice(4, 10), lambda f: sum(x >= 8 for x in f))),
    (
        "4d10 t7 tt9",
        lambda: _enumerated(_dice(4, 10), lambda f: sum(2 if x >= 9 else x >= 7 for x in f)),
    ),
    ("3d10 tt8", lambda: _enumerated(_dice(3, 10), lambda f: sum(2 * (x >= 8) for x in f))),
    ("3d6t", lambda: _enumerated(_dice(3, 6), sum)),
    # keeps and drops chained: a die is kept when none leaves it out (rpg-dice-roller, GNOLL);
    # nested in groups of one term, each keeps of the dice the one inside kept (d20)
    ("3d6kh2dl1", lambda: _enumerated(_dice(3, 6), lambda f: sum(sorted(f)[1:]))),
    ("3d20dhdl", lambda: _enumerated(_dice(3, 20), lambda f: sorted(f)[1])),
    ("5d6dhdl", lambda: _enumerated(_dice(5, 6), lambda f: sum(sorted(f)[1:4]))),
    ("4d6dl1dh1", lambda: _enumerated(_dice(4, 6), lambda f: sum(sorted(f)[1:3]))),
    ("((6d6kh4)kl2)kh1", lambda: _enumerated(_dice(6, 6), lambda f: sorted(f)[-3])),
    ("(1, 2, 3, 4, 5)ph1pl1", lambda: {"9": "1"}),
    ("(1, 2, 3, 4, 5)p1p2", lambda: {"12": "1"}),
    # a die's modifiers after the pool's, as rpg-dice-roller takes them in any order
    ("2d10>=8!>=9", lambda: _strings(_counted_chain(10, lambda f: f >= 9, lambda f: f >= 8, 2))),
    ("10d8dh2r!=5kl3", lambda: {"15": "1"}),  # every die rerolled until it is a 5
    # skizzerz/DiceRoller's: sides rolled first, dF20, advantage, !c and !e, two reroll points
    ("d(1d4)", lambda: _strings(_sides_rolled({1: Fraction(1)}, 4))),
    ("(1d2)d(1d3)", lambda: _strings(_sides_rolled({1: Fraction(1, 2), 2: Fraction(1, 2)}, 3))),
    ("1dF20", lambda: _enumerated([list(range(-20, 21))], sum)),
    ("1d20ad", lambda: _enumerated(_dice(2, 20), max)),
    ("2d6da", lambda: _enumerated(_dice(4, 6), lambda f: min(f[0] + f[1], f[2] + f[3]))),
    (
        "{1d4, 1d6}ad",
        lambda: _enumerated(
            [*_dice(1, 4), *_dice(1, 6)] * 2, lambda f: max(f[0] + f[1], f[2] + f[3])
        ),
    ),
    ("1d6rr1rr2", lambda: _enumerated([[3, 4, 5, 6]], sum)),
    ("1d6ro1ro2", lambda: _enumerated(_dice(2, 6), lambda f: f[1] if f[0] <= 2 else f[0])),
    ("3{1d4}", lambda: _enumerated(_dice(3, 4), sum)),  # skizzerz's: the group three times
]


@pytest.mark.parametrize(("expression", "expected"), SPELLINGS, ids=[c[0] for c in SPELLINGS])
def test_each_spelling_weighs_as_its_enumeration(hc, expression, expected):
    assert _odds(hc, expression) == expected()


icepool = pytest.importorskip("icepool")
d = icepool.d

ICEPOOL = [
    ("(4*6)d6", lambda: 24 @ d(6)),
    ("(2d6)d10", lambda: (2 @ d(6)) @ d(10)),  # a mixture: each count by its chance
    ("{6d6, 2d10}kh1", lambda: icepool.highest(6 @ d(6), 2 @ d(10))),
    ("10d10c>7", lambda: 10 @ d(10).map(lambda x: int(x > 7))),
    ("10d10f<4", lambda: 10 @ d(10).map(lambda x: x if x < 4 else 0)),  # GNOLL's filter
    ("4d6 r2", lambda: 4 @ d(6).reroll([2], depth="inf")),  # 4d6r2: the 2s rerolled
    ("5d10kh20", lambda: 5 @ d(10)),
    ("(d4)d6kh2", lambda: d(4).map_to_pool(lambda n: d(6).pool(n)).highest(2).sum()),
    ("d5e", lambda: d(5).explode([5], depth=20)),
    ("6d6dh1dl2", lambda: d(6).pool(6)[2:5].sum()),  # icepool's pool sorted lowest first
    ("d6!c", lambda: d(6).explode([6], depth=20)),  # skizzerz's !c compounds
    ("d6!e", lambda: d(6).explode([6], depth=20)),  # its !e explodes
    ("20d10dh5dl10", lambda: d(10).pool(20)[10:15].sum()),  # GNOLL's e alone: on the top face
    ("4d%!<>45", None),  # rolled only: its odds are past the budget (each face but 45 explodes)
]


def _icepool(die) -> dict[str, str]:
    n = die.denominator()
    return {
        str(k): str(Fraction(q, n))
        for k, q in zip(die.outcomes(), die.quantities(), strict=True)
        if q
    }


@pytest.mark.parametrize(("expression", "expected"), ICEPOOL, ids=[c[0] for c in ICEPOOL])
def test_each_spelling_weighs_as_icepool(hc, expression, expected):
    if expected is None:
        assert "steps to weigh exactly" in " ".join(
            hc.error("roll", "--odds", "--", expression).split()
        )
        assert hc("roll", "--seed", "1", "--", expression).exit_code == 0
        return
    assert _odds(hc, expression) == _icepool(expected())


@pytest.mark.parametrize(
    ("expression", "dice", "total", "shown"),
    [
        ("6d1", "1,1,1,1,1,1", 6, "(1+1+1+1+1+1) = 6"),
        ("0d4+2", "", 2, "0 + 2 = 2"),
        ("max(2d6, 7)", "1,2", 7, "max((1+2), 7) = 7"),
        ("floor(3d6/4)", "6,6,5", 4, "floor((6+6+5) / 4) = 4"),
        ("round(7/2)", "", 4, "round(7 / 2) = 4"),
        ("2d20kh", "3,17", 17, "(17 (dropped 3)) = 17"),
        ("4d6dl", "2,6,5,1", 13, "(6+5+2 (dropped 1)) = 13"),
        ("(d2)d6", "2,1,5", 6, "2d6: (1+5) = 6"),
        ("(1, 2, 3, 4, 5)k3", "", 12, "(5+4+3 (dropped 1 2)) = 12"),
        ("d{2,4,6}", "3", 6, "6 = 6"),
        ("1d[-1..1]", "1", -1, "-1 = -1"),
        ("4d10c>7", "8,7,9,1", 2, "2 of (8 7 9 1) >7 = 2"),
        ("3d10t7", "7,6,10", 2, "2 of (7 6 10) >=7 = 2"),
        ("1d20 [attack] + 5", "14", 19, "d20 1d20 [attack]: 14"),
        ("3d6 # fire", "1,2,3", 6, "(1+2+3) = 6"),
        ("4d6s", "5,2,6,1", 14, "(1+2+5+6) = 14"),
        ("4d6sd", "5,2,6,1", 14, "(6+5+2+1) = 14"),
        ("3d20cs>19cf1", "20,1,7", 28, "(20**+1__+7) = 28"),
        ("3d6u", "2,2,5,2,1", 8, "(2+5+1) = 8"),  # each 2 after the first rolled again
        ("10d6mi10", "1,2,3,4,5,6,1,2,3,4", 100, "= 100"),
        ("5d10kh20", "1,2,3,4,5", 15, "(5+4+3+2+1) = 15"),
        ("1d20 >= 10", "9", 0, "9 >= 10 = 0"),
        ("1d20>=10", "12", 1, "1 of (12) >=10 = 1"),
        ("d4r!=1", "3,2,1", 1, "1 = 1"),
        ("2d20w1+5", "5,13", 10, "(5 (dropped 13)) + 5 = 10"),
        ("5d20b2", "5,13,11,3,14", 27, "(14+13 (dropped 5 11 3)) = 27"),
        ("{4d6}kh2", "2,6,4,2", 10, "(6+4 (dropped 2 2)) = 10"),
        ("10d10 t7 tt9", "1,2,3,4,5,6,7,8,9,10", 6, ">=7 >=9 = 6"),
        ("10d10f>5c", "1,2,3,4,5,6,7,8,9,10", 5, "5 of (6 7 8 9 10) c"),
        ("1d4\\2", "3", 2, "3 \\ 2 = 2"),
        ("z4", "1", 0, "0 = 0"),
        ("dF.1", "6", 1, "1 = 1"),
        ("1.5 + d4", "2", 3.5, "3/2 + 2 = 7/2"),
        ("4dF /* note */", "1,2,3,3", 1, "(-1+0+1+1) = 1"),
        ("d(1d10)", "9,9", 9, "1d9: 9 = 9"),  # skizzerz's own tests
        ("1d20ad", "4,16", 16, "(16 (dropped 4)) = 16"),
        ("1d20!c", "20,20,6", 46, "46 = 46"),
        ("1d20rr1rr2", "1,2,1,10", 10, "10 = 10"),
        ("3d6kh2dl1", "1,4,6", 10, "(6+4 (dropped 1)) = 10"),  # rpg-dice-roller's own tests
        ("3d6kh2dl1", "5,6,5", 11, "(6+5 (dropped 5)) = 11"),
        ("((4d6kh3)kl2)kh1", "2,6,5,1", 5, "(5 (dropped 2 6 1)) = 5"),
        ("4d10f<4", "1,9,3,4", 4, "(1+3 (dropped 9 4)) = 4"),
    ],
)  # fmt: skip
def test_each_spelling_rolls_the_dice_given_in_order(hc, expression, dice, total, shown):
    got, text = _rolled(hc, expression, dice) if dice else _seeded(hc, expression)
    assert got == total, text
    assert shown in text, text


def _seeded(hc, expression: str) -> tuple[object, str]:
    result = hc("roll", "--seed", "1", "--json", "--", expression)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["total"], hc("roll", "--seed", "1", "--", expression).stdout


@pytest.mark.parametrize(
    ("expression", "column", "said"),
    [
        ("max(4d6", 8, "',' or ')' to close max("),
        ("max(1)", 1, "max takes two values or more"),
        ("abs(1, 2)", 1, "abs takes one value"),
        ("d{2,4", 6, "',' or '}' to close the faces at column 2"),
        ("d[3..1]", 2, "a range runs from its lowest face"),
        ("1d20 [attack", 6, "']' to close the label"),
        ("(d6-3)d6", 1, "a count of dice cannot be less than 0"),
        ("3d(1/2)", 3, "a d0 has no sides"),
        ("4d6c>", 6, "a number after >"),
        ("1d20adda", 7, "advantage or disadvantage once"),
        ("d(1d10)!", 8, "no reroll, explosion or clamp"),
        ("1d20rr1ro2", 8, "one kind of reroll"),
        ("d(d1-1)", 1, "a die has 1 side or more"),
        ("(1, 2, 3)kh1kl1", 13, "keeps the highest and the lowest"),
        ("(2d6)d6kh1dl1", 11, "one keep or drop on a term"),
        ("(2d6 + 6) ^+ 2", 11, "caith's repeat; hc's ^ is a power"),
        ("{4d6+2d8}kh2", 1, "a group of one part"),
        ("4d6c[>3", 8, "']' to close the compare point"),
        ("4d6c[%2]", 8, "= and the remainder"),
        ("4d6c[%0=0]", 7, "a number of 1 or more after %"),
        ("d[1..9999999]", 2, "a die of 9,999,999 faces"),
        ("{1,2}cs", 8, "a compare point after cs"),
        ("7d6u", 1, "as many faces as dice"),
        ("2d6dl3", 4, "drops 3 of 2 dice"),
        ("1d20 >=", 8, "a number, a die"),
        ("10d10f<4kh2", 12, "a keep, or f"),
        ("(1, 2", 6, "',' or ')' to close the '(' at column 1"),
    ],
)
def test_a_bad_spelling_is_exit_2_with_its_column(hc, expression, column, said):
    result = hc("roll", "--", expression)
    error = " ".join(result.stderr.split())
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"column {column}" in error and said in error, error


def test_a_leading_minus_before_any_expression_is_no_option(hc):
    from helpers import run_hc

    for words, total in (
        (["------2"], 2),
        (["-max(2,", "3)"], -3),
        (["--seed", "1", "-{1,2}kh1"], -2),
    ):
        done = run_hc("roll", *words, "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["total"] == total

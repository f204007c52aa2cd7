"""`hc roll` speaks wargame dice; every notation's odds against an independent enumeration
(itertools over the faces, written here without hc's code)."""

from __future__ import annotations

import itertools
import json
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
    from hc_cli.core.notation import MAX_EXPLOSIONS
    from hc_cli.core.weigh import roll_odds

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
        ("2d6dl3", "drops 3 of 2 dice"),
        ("d0", "a d0 has no sides"),
        ("d66!", "cannot explode"),
        ("d6x", "cannot read"),
    ],
)
def test_bad_notation_is_named(hc, expression, message):
    assert message in hc.error("roll", expression)


# ---------------------------------------------------------------------------------------------
# The common rollers' notation (issue 30), each against icepool (a test-only library written
# apart from hc) or an enumeration written here.

icepool = pytest.importorskip("icepool")
d = icepool.d


def _icepool(die) -> dict[str, str]:
    n = die.denominator()
    pairs = zip(die.outcomes(), die.quantities(), strict=True)
    return {str(k): str(Fraction(q, n)) for k, q in pairs if q}


def _odds(hc, expression: str) -> dict[str, str]:
    result = hc("roll", "--odds", "--json", "--", expression)
    assert result.exit_code == 0, result.output
    return {k: str(Fraction(p)) for k, p in json.loads(result.stdout)["odds_exact"].items()}


def _chain(sides: int, explodes, value, depth: int = 20) -> dict[int, Fraction]:
    """An exploding die walked here: each roll that `explodes` rolls again, at most `depth`
    more, the rolls added as `value(roll, i)` (i: 0 for the first)."""
    out: dict[int, Fraction] = {}

    def walk(total: int, i: int, p: Fraction) -> None:
        for face in range(1, sides + 1):
            got, q = total + value(face, i), p / sides
            if explodes(face) and i < depth:
                walk(got, i + 1, q)
            else:
                out[got] = out.get(got, Fraction(0)) + q

    walk(0, 0, Fraction(1))
    return out


def _strings(dist: dict) -> dict[str, str]:
    return {str(k): str(p) for k, p in sorted(dist.items()) if p}


ICEPOOL = [
    ("6d6kh3", lambda: d(6).pool(6).highest(3).sum()),
    ("5d10kh3", lambda: d(10).pool(5).highest(3).sum()),
    ("10d6kh5", lambda: d(6).pool(10).highest(5).sum()),
    ("100d6kh10", lambda: d(6).pool(100).highest(10).sum()),
    ("4d6kl2", lambda: d(6).pool(4).lowest(2).sum()),
    ("4d6k3", lambda: d(6).pool(4).highest(3).sum()),  # rpg-dice-roller's k: the highest
    ("4d6d1", lambda: d(6).pool(4).highest(3).sum()),  # and its d: the lowest dropped
    ("4d6ph1", lambda: d(6).pool(4).lowest(3).sum()),  # d20's p: dropped
    ("5d6dh2", lambda: d(6).pool(5).lowest(3).sum()),
    ("4d6k>3", lambda: 4 @ d(6).map(lambda x: x if x > 3 else 0)),
    ("3d6r1", lambda: 3 @ d(6).reroll([1], depth="inf")),
    ("3d6rr<3", lambda: 3 @ d(6).reroll([1, 2], depth="inf")),
    ("d6ro<3", lambda: d(6).reroll([1, 2], depth=1)),
    ("6d10!>=8", lambda: 6 @ d(10).explode([8, 9, 10], depth=20)),
    ("d20e20", lambda: d(20).explode([20], depth=20)),
    ("d6!!", lambda: d(6).explode([6], depth=20)),
    ("d1000!", lambda: d(1000).explode([1000], depth=20)),
    ("d20mi5", lambda: d(20).map(lambda x: max(x, 5))),
    ("3d6ma4", lambda: 3 @ d(6).map(lambda x: min(x, 4))),
    ("10d6>=4f1", lambda: 10 @ d(6).map(lambda x: int(x >= 4) - int(x == 1))),
    ("4dF", lambda: 4 @ (d(3) - 2)),
    ("{4d6, 3d8}kh1", lambda: icepool.highest(4 @ d(6), 3 @ d(8))),
    ("(d8+2)*2", lambda: (d(8) + 2) * 2),
    ("-4d6", lambda: -(4 @ d(6))),
    ("d6-d6*2", lambda: d(6) - d(6) * 2),
    ("d6//2+d4%3", lambda: d(6) // 2 + d(4) % 3),
    ("2^3^2", lambda: icepool.Die([512])),
    ("1+1", lambda: icepool.Die([2])),
    ("d%", lambda: d(100)),  # hc's D100 reads 1..100, as rpg-dice-roller's d%
]


@pytest.mark.parametrize(("expression", "expected"), ICEPOOL, ids=[c[0] for c in ICEPOOL])
def test_the_notation_against_icepool(hc, expression, expected):
    assert _odds(hc, expression) == _icepool(expected())


def test_rerolls_and_penetration_against_an_enumeration(hc):
    # d6ra6: a 6 rolls once more, added; d6!p: each further roll less 1, exploding on a 6.
    added: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7) if a == 6 else (0,):
            added[a + b] = added.get(a + b, Fraction(0)) + Fraction(1, 6) / (6 if a == 6 else 1)
    assert _odds(hc, "d6ra6") == _strings(added)
    penetrating = _chain(6, lambda f: f == 6, lambda f, i: f - (1 if i else 0))
    assert _odds(hc, "d6!p") == _strings(penetrating)
    halves = {Fraction(f, 2): Fraction(1, 6) for f in range(1, 7)}
    assert _odds(hc, "d6/2") == {
        (str(k.numerator) if k.denominator == 1 else str(k)): str(p) for k, p in halves.items()
    }


def test_a_compare_point_after_the_bang_is_the_explosions(hc):
    """`6d10!>=8` explodes on 8, 9, 10 (every other roller's reading); the success count of
    dice exploding on their top face is `!=10>=8`."""
    rolled = hc.json("roll", "2d10!>=8", "--dice", "9,3,4")
    assert rolled["total"] == 16  # 9 explodes: 9 + 3; then 4
    counted = hc.json("roll", "3d10!=10>=8", "--dice", "10,9,2,8")
    assert counted["total"] == 3  # 10 (and its 9, a die of its own) and 8 succeed; 2 does not


def test_each_roll_an_explosion_adds_is_a_die_the_count_reads(hc):
    """`3d10!=10>=8`: a 10 rolls again, and each roll is a die of its own that may succeed
    (the 10-again of a pool); `!!` adds them into one die, counted once."""
    assert hc.json("roll", "3d10!=10>=8", "--dice", "10,9,2,8")["total"] == 3
    assert hc.json("roll", "3d10!!=10>=8", "--dice", "10,9,2,8")["total"] == 2
    one = _chain(10, lambda f: f == 10, lambda f, i: int(f >= 8))
    three: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(3):
        step: dict[int, Fraction] = {}
        for a, p in three.items():
            for b, q in one.items():
                step[a + b] = step.get(a + b, Fraction(0)) + p * q
        three = step
    assert _odds(hc, "3d10!=10>=8") == _strings(three)
    assert "compound it" in hc.error("roll", "4d6!kh3")


def test_a_leading_minus_is_an_expression(hc):
    from helpers import run_hc

    done = run_hc("roll", "-4d6", "--seed", "3")
    assert done.returncode == 0 and "-(" in done.stdout, done.stderr
    assert run_hc("roll", "--seed", "3", "-d6", "--json").returncode == 0
    assert run_hc("roll", "--dice", "2", "-d4", "--json").returncode == 0  # -d4, not a die


@pytest.mark.parametrize(
    ("expression", "column", "said"),
    [
        ("4d6kx3", 5, "an operator"),  # 4d6k is 4d6k1: what follows is no modifier
        ("2d6+(3", 7, "')' to close the '(' at column 5"),
        ("2d6 $ 1", 5, "an operator"),
        ("{d6, d8", 8, "',' or '}'"),
        ("d6r<", 5, "a number after <"),
        ("3d", 3, "the die's sides"),
    ],
)
def test_a_malformed_expression_names_its_column(hc, expression, column, said):
    error = " ".join(hc.error("roll", "--", expression).split())
    assert f"column {column}" in error and said in error, error


def test_a_question_past_the_budget_says_which_part(hc):
    error = " ".join(hc.error("roll", "--odds", "--", "2d6+100d1000kh50").split())
    assert "'100d1000kh50' keeping 50 of 100" in error and "more than" in error
    error = " ".join(hc.error("roll", "--odds", "--", "d1000!>=2").split())
    assert "exploding" in error


# A grammar of expressions, drawn by hypothesis: every one's odds add up to 1, and a seeded
# roll's total is one its odds give a chance.
from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_die = st.builds(
    lambda n, s, mod: f"{n}d{s}{mod}",
    st.integers(2, 4),
    st.sampled_from(["4", "6", "8", "10"]),
    st.sampled_from(["", "kh1", "kl1", "dl1", "!", "!!", "!p", "!>=4", "r1", "rr<2", "ro1", "ra1",
                     "mi2", "ma3", ">=3", ">=3f1", "k>2", "kh", "dh", "v1", "h2", "u", "ukh1",
                     "c>2", "t3", "f<3", "s", "sdcs>3", "min5", "max2", "r!=2", "kh9", "mi9",
                     "kh2dl1", "dhdl", "!c", "rr1rr2", "ad", "da", ">=2!>=4", "c[1-2]", "tt3"]),
)  # fmt: skip
_fudge = st.builds(lambda n, mod: f"{n}dF{mod}", st.integers(1, 4),
                   st.sampled_from(["", "kh1", ">=1", "r-1"]))  # fmt: skip
_positive = st.one_of(  # a divisor never 0: plain dice, or a number 1..9
    st.builds(lambda n, s: f"{n}d{s}", st.integers(1, 4), st.sampled_from(["4", "6", "10"])),
    st.integers(1, 9).map(str),
)
_listed = st.builds(lambda n, faces: f"{n}d{{{','.join(map(str, faces))}}}", st.integers(0, 3),
                    st.lists(st.integers(-3, 6), min_size=1, max_size=4))  # fmt: skip
_atom = st.one_of(_die, _fudge, _listed, st.integers(0, 9).map(str),
                  st.builds(lambda a, b: f"{{{a}, {b}}}kh1", _die, _die),
                  st.builds(lambda a, b: f"({a}, {b}, 2)kl2", _die, _die),
                  st.builds(lambda n, s: f"(d{n})d{s}kh2", st.integers(1, 4), st.integers(1, 6)),
                  st.builds(lambda n, s: f"{n}d(1d{s})", st.integers(1, 3), st.integers(1, 6)),
                  st.builds(lambda n: f"{{{n}d6}}kh2", st.integers(1, 4)),
                  st.builds(lambda f, a: f"{f}({a}/3)", st.sampled_from(["floor", "ceil", "round",
                                                                         "abs"]), _die),
                  st.builds(lambda f, a, b: f"{f}({a}, {b})", st.sampled_from(["min", "max"]),
                            _die, _die),
                  st.builds(lambda a, op, b: f"({a} {op} {b})", _die, st.sampled_from(
                      [">=", "<", "=", "!="]), st.integers(0, 12)))  # fmt: skip


def _joined(parts):
    return st.one_of(
        st.builds(lambda a, op, b: f"({a}){op}{b}", parts, st.sampled_from(["+", "-", "*"]),
                  parts),
        st.builds(lambda a, op, b: f"({a}){op}({b})", parts, st.sampled_from(["/", "//"]),
                  _positive),
    )  # fmt: skip


_expression = st.recursive(_atom, _joined, max_leaves=4)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(_expression, st.integers(0, 10**6))
# At most 4 x 84 a 4d4! (each die and its 20 further rolls): 336^3 x 168, about 6.4 x 10^9, was
# refused as past 10^15 when each further roll was counted as a whole exploding die again.
@example(expression="((4d4!)*4d4!)*(4d4!)*2d4!", seed=0)
# 4d10! reaches 4 x 210 = 840: six of them multiplied, 840^6 (about 3.5 x 10^17), are past it.
@example(expression="(4d10!)*(4d10!)*(4d10!)*(4d10!)*(4d10!)*(4d10!)", seed=0)
def test_drawn_expressions_add_up_and_roll_what_they_weigh(hc, expression, seed):
    """Every expression of this grammar is well formed: each weighs (or is refused as past
    the odds budget, and then still rolls), its odds add up to 1, and a seeded roll of it lands
    on a total the odds give a chance; or it can reach a value past 10^15, and the roll and
    its odds both refuse it so, cleanly."""
    result = hc("roll", "--odds", "--json", "--", expression)
    said = " ".join(result.stderr.split())
    rolled = hc("roll", "--seed", str(seed), "--json", "--", expression)
    if result.exit_code == 2 and "can reach a value past 10^15" in said:
        assert rolled.exit_code == 2, (expression, rolled.output)
        assert " ".join(rolled.stderr.split()) == said, expression
        return
    if result.exit_code == 2 and "steps to weigh exactly (more than" in said:
        assert rolled.exit_code == 0, (expression, rolled.output)  # it still rolls
        return
    assert result.exit_code == 0, (expression, result.output)
    odds = json.loads(result.stdout)["odds_exact"]
    assert sum(Fraction(p) for p in odds.values()) == 1
    assert rolled.exit_code == 0, (expression, rolled.output)
    total = Fraction(json.loads(rolled.stdout)["total"]).limit_denominator(10**6)
    key = str(total.numerator) if total.denominator == 1 else str(total)
    assert Fraction(odds[key]) > 0, (expression, key)


@pytest.mark.parametrize(
    ("expression", "reaches"),
    [
        ("*".join(["(100d1000)"] * 3), 10**15),  # 100,000 each at most
        ("*".join(["(100d1000)"] * 3) + "+1", 10**15 + 1),
        # d4!: a 4 and its 20 further rolls, 4 each, is 84 at most
        ("*".join(["(d4!)"] * 7), 84**7),  # about 3 x 10^13
        ("*".join(["(d4!)"] * 8), 84**8),  # about 2.5 x 10^15
        ("((4d4!)*4d4!)*(4d4!)*2d4!", 336**3 * 168),  # about 6.4 x 10^9
        # dF!p<1: a -1 explodes, and each further -1 is -2 (penetrating): -41 a die, -164 four
        ("*".join(["(4dF!p<1)"] * 6), 164**6),  # about 2 x 10^13
        ("*".join(["(4dF!p<1)"] * 7), 164**7),  # about -3.2 x 10^15 (seven negatives)
    ],
)
def test_an_expression_is_refused_only_when_it_can_pass_10_to_the_15(hc, expression, reaches):
    """The bound `read` checks is what an expression can reach (its greatest magnitude, worked
    out by hand here): past 10^15 it is refused before a die is rolled; within it, it rolls."""
    rolled = hc("roll", "--seed", "1", "--json", "--", expression)
    if reaches > 10**15:
        assert rolled.exit_code == 2, rolled.output
        assert "can reach a value past 10^15" in " ".join(rolled.stderr.split())
    else:
        assert rolled.exit_code == 0, rolled.output


def test_the_words_of_an_expression_are_one_expression(hc):
    from helpers import run_hc

    done = run_hc("roll", "2d6", "+", "3", "--dice", "1,2", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["total"] == 6, done.stderr
    split = run_hc("roll", "d20kh1+5", "d20kh1+5")  # what a shell makes of {d20,d20}kh1+5
    assert split.returncode == 2 and "quote an expression" in " ".join(split.stderr.split())


@pytest.mark.parametrize(
    ("expression", "said"),
    [("d20e21", "explodes on no face"), ("6d10!>=11", "explodes on no face"),
     ("d6r7", "rerolls no face"), ("d6r<7", "rerolls every face")],
)  # fmt: skip
def test_a_modifier_that_reaches_no_face_is_a_typo_said(hc, expression, said):
    assert said in " ".join(hc.error("roll", "--", expression).split())


@pytest.mark.parametrize(
    ("expression", "said"),
    [("(" * 196 + "1" + ")" * 196, "nests more than 50 deep"),
     ("{" * 100 + "1" + "}" * 100, "nests more than 50 deep"),
     ("^".join(["1"] * 200), "more than 50"),
     ("100000^62", "a value past 10^15"), ("100000^62/3", "a value past 10^15")],
)  # fmt: skip
def test_what_would_overflow_is_said_not_a_traceback(hc, expression, said):
    for odds in ((), ("--odds",)):
        result = hc("roll", *odds, "--", expression)
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert said in " ".join(result.stderr.split())


def test_a_reroll_reads_the_face_rolled_before_the_clamps(hc):
    """`d6rr1mi3`: a 1 is rolled again until it is another face, then each is at least 3:
    3 for 2 and 3 (2 in 5), else itself (1 in 5 each): d20's reading of it."""
    expected = {"3": "2/5", "4": "1/5", "5": "1/5", "6": "1/5"}
    assert _odds(hc, "d6rr1mi3") == expected
    assert _odds(hc, "d6mi3rr1") == expected  # one order, whatever the order written


def test_every_expression_of_the_readmes_notation_table_rolls_and_weighs(hc):
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "docs/roll-notation.md").read_text("utf-8")
    table = readme[readme.index("| notation | means |") :].split("\n\n")[0]
    expressions = [e for row in table.splitlines()[2:]
                   for e in re.findall(r"`([^`]+)`", row.split(" | ")[0])]  # fmt: skip
    assert len(expressions) > 30
    for expression in expressions:
        rolled = hc("roll", "--seed", "1", "--json", "--", expression)
        assert rolled.exit_code == 0, (expression, rolled.output)
        weighed = hc("roll", "--odds", "--json", "--", expression)
        assert weighed.exit_code == 0, (expression, weighed.output)


def test_a_reroll_until_a_rare_face_rolls_as_it_weighs(hc):
    """`d1000r<1000` rerolls until the 1000: 1,000 rolls on average, every seed a 1000."""
    assert _odds(hc, "d1000r<1000") == {"1000": "1"}
    for seed in range(1, 6):
        rolled = hc("roll", "--seed", str(seed), "--json", "--", "d1000r<1000")
        assert json.loads(rolled.stdout)["total"] == 1000


@pytest.mark.parametrize(
    ("expression", "said"),
    [("+".join(["100d100r<100"] * 38), "takes about 380,000 rolls"),
     ("100000^3+100000^3", "can reach a value past 10^15"),
     ("d6*2*10^14", "can reach a value past 10^15")],
)  # fmt: skip
def test_a_roll_too_long_or_too_large_is_refused_before_a_die(hc, expression, said):
    for odds in ((), ("--odds",)):  # the roll and its odds alike, whatever the dice
        assert said in " ".join(hc.error("roll", *odds, "--", expression).split())


def test_only_the_words_after_roll_are_an_expression(hc):
    """The words of an expression are joined, one with a leading minus too (not an option:
    -4d6kh3 is no -h), wherever the options stand; a unit called roll is a unit."""
    assert hc.json("roll 2d6 - 3 --dice 4,5")["total"] == 6
    assert hc.json("--ruleset t2k roll -d4 --dice 2")["total"] == -2
    assert hc.json("roll --dice 1,6,5,2 -4d6kh3")["total"] == -13
    assert hc.json("roll ------2")["total"] == 2
    assert "No such option: --sed" in hc.error("roll 2d6 --sed 3")
    assert "no game in force to find unit 'roll'" in hc.error("fire roll --at boyz -r 8")

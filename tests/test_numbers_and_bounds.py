"""Numbers of any size in any field, and every allowed question answered in bounded time: at once,
or refused at once."""

from __future__ import annotations

import json

import pytest
from helpers import FIRE, FIRE_ARGS, NINES, RT, T2K, clean

from hc_cli.cli.app import app

# ---------------------------------------------------------------------------------------------
# 4 and 5. Numbers of any size, in any field


LOOK_ALIKES = [
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "²", "--seed", "1"),
    ("fire", *RT, "--bs", "4", "--strength", "4", "--toughness", "3", "--damage", "²"),
    ("fire", *T2K, "--asset", "12", "--strength", "5", "-w", "m16a2", "-r", "30", "--rof", "²"),
    ("fire", *T2K, "--asset", "12", "--strength", "5", "-w", "m16a2", "-r", "30", "--damage", "²"),
    ("roll", "d6+" + NINES),
    ("roll", "d6>=" + NINES),
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", NINES, "--seed", "1"),
    ("fire", *RT, "--bs", "4", "--strength", "4", "--toughness", "3", "--damage", NINES),
    ("fire", *T2K, "--asset", "12", "--strength", "5", "-w", "m16a2", "-r", "30", "--rof", NINES),
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--mod", NINES),
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--dice", NINES),
    ("initiative", *T2K, "--char", "A:" + NINES),
    ("initiative", *T2K, "--char", "A:٣"),
]


@pytest.mark.parametrize("args", LOOK_ALIKES, ids=lambda a: " ".join(a)[:40])
def test_text_that_looks_like_a_number_is_exit_2(hc, args):
    err = hc.error(*args)
    assert len(err) < 600  # named, cut short: never the 5,000 digits back


def test_such_lines_are_answered_in_a_batch_and_the_stream_goes_on(hc):
    lines = [
        json.dumps({**FIRE, "target": "²", "seed": 1}),
        json.dumps({"command": "roll", "expression": "d6+" + NINES}),
        json.dumps({**FIRE, "mod": [NINES], "seed": 1}),
        json.dumps({**FIRE, "seed": 2}),
    ]
    result = hc.runner.invoke(app, ["batch"], input="".join(line + "\n" for line in lines))
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["line"] for a in answers] == [1, 2, 3, 4]
    assert ["error" in a for a in answers] == [True, True, True, False]
    assert result.exit_code == 2


def test_ten_thousand_shots_write_their_odds(hc):
    """Exact numbers of thousands of digits are written; a count's exact values past 4,096
    bits only with --exact."""
    out = hc.json("fire", "-w", "ingrave-ar", "-r", "14", "-t", "crusader", "--shots", "10000",
                  "--odds")  # fmt: skip
    assert out["exact_omitted"] == ["hits"] and "hits" in out["distributions"]
    assert len(out["odds_exact"]["hit"]) < 20
    from fractions import Fraction

    from hc_cli.core.model import Odds

    tiny = Fraction(1, 7**6000)  # 5,071 digits: past Python's own limit on writing integers
    assert Odds({"none": tiny, "some": 1 - tiny}).to_dict()["odds_exact"]["none"].startswith("1/")
    exact = hc.json("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "600",
                    "--odds", "--exact")  # fmt: skip
    assert "exact_omitted" not in exact and len(exact["distributions_exact"]["kills"]) == 601
    assert "--exact is for --odds" in hc.error(*FIRE_ARGS, "--exact")


# ---------------------------------------------------------------------------------------------
# 6. Every allowed question answers in bounded time: at once, or refused at once


BIGGEST = [
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "10000", "--odds"),
    ("fire", *RT, "--bs", "4", "-w", "heavy-bolter", "-r", "10", "-t", "carnosaur", "--shots",
     "10000", "--odds"),
    ("fire", *RT, "--bs", "4", "-w", "lascannon", "-r", "10", "-t", "carnosaur", "--shots",
     "10000", "--one-model", "--odds"),
    ("fire", *RT, "--bs", "4", "--strength", "4", "--toughness", "3", "--damage", "100d1000",
     "--odds"),
    ("fire", *RT, "--bs", "3", "-w", "frag-grenade", "-r", "6", "-t", "ork", "--under", "1000",
     "--partly", "1000", "--odds"),
    ("fire", *T2K, "--asset", "16", "--strength", "5", "-w", "remington-870", "-r", "30",
     "--shots", "3", "--npc", "--odds"),
    ("fire", *T2K, "--asset", "16", "--strength", "12", "-w", "m134", "-r", "50", "--shot",
     "burst", "--shots", "5", "--npc", "--zone", "A:1", "--zone", "B:2", "--odds"),
    ("roll", "100d66kh1", "--odds"),
    ("roll", "100d1000kh50", "--odds"),
    ("roll", "10d6kh3", "--odds"),
    ("roll", "+".join(["20d20"] * 50), "--odds"),
    ("roll", "100d100", "--odds"),
]  # fmt: skip


@pytest.mark.parametrize("args", BIGGEST, ids=lambda a: " ".join(a)[:50])
def test_the_largest_questions_answer_or_refuse(hc, args):
    result = hc(*args)
    clean(result)
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        assert "more than" in result.stderr  # refused by its cost, counted before the work


def test_following_fire_along_a_thousand_models(hc):
    targets = [a for i in range(1000) for a in ("-t", f"ork:{i}")]
    out = hc.json("fire", *RT, "--bs", "4", "-w", "heavy-bolter", "-r", "10", *targets, "--odds")
    assert sum(float(p) for p in out["distributions"]["casualties"].values()) == pytest.approx(1)

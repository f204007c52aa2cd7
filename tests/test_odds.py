"""--odds: exact values, the JSON shape, and agreement with many seeded rolls.

The cross-checks run the resolver with one seeded dice source many times and compare the
observed frequencies with the enumerated odds. The tolerance is 4.5 standard errors of a
binomial proportion: with fixed seeds the test is deterministic, and a wrong odds formula
(even one percentage point off at 20,000 rolls) falls outside it.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest

from hc_cli.core.dice import SeededDice
from hc_cli.core.mods import parse_mod
from hc_cli.rulesets.high_crusade.commands import load_tables
from hc_cli.rulesets.high_crusade.resolve import (
    FireRequest,
    InitiativeRequest,
    MeleeRequest,
    MoraleRequest,
    RallyRequest,
    TargetSpec,
    fire_odds,
    initiative_odds,
    melee_odds,
    morale_odds,
    rally_odds,
    resolve_fire,
    resolve_initiative,
    resolve_melee,
    resolve_morale,
    resolve_rally,
)

ROLLS = 20_000


def assert_close(observed: Counter, odds: dict, n: int) -> None:
    for outcome, p in odds.items():
        freq = observed.get(outcome, 0) / n
        se = math.sqrt(float(p) * (1 - float(p)) / n) or 1 / n
        assert abs(freq - float(p)) <= 4.5 * se, (outcome, freq, float(p))
    assert set(observed) <= set(odds)


@pytest.fixture(scope="module")
def tables():
    return load_tables()


def test_fire_odds_exact(hc):
    out = hc.json("fire --chance 65 --penetration 4 --df 5 --odds")
    assert out["odds"] == {"miss": 0.35, "hit": 0.65, "kill": 0.0}
    assert out["odds_exact"] == {"miss": "7/20", "hit": "13/20", "kill": "0/1"}
    assert "outcome" not in out and out["rolls"] == []


def test_chance_beyond_100_always_hits_and_0_never(hc):
    assert hc.json("fire --chance 120 --penetration 4 --df 4 --odds")["odds"]["kill"] == 1.0
    assert hc.json("fire --chance 0 --penetration 4 --df 4 --odds")["odds"]["miss"] == 1.0


@pytest.mark.parametrize("mods", [(), ("target-static", "smoke=-7")])
def test_fire_odds_match_seeded_rolls(tables, mods):
    req = FireRequest(
        weapon="ingrave-ar",
        range=30,
        targets=(TargetSpec("crusader", 3),),
        mods=tuple(parse_mod(m) for m in mods),
    )
    odds = fire_odds(tables, req).odds.outcomes
    dice = SeededDice(2024)
    seen = Counter(resolve_fire(tables, req, dice).outcome for _ in range(ROLLS))
    assert_close(seen, odds, ROLLS)


def test_fireteam_kill_distribution_matches_seeded_rolls(tables):
    req = FireRequest(weapon="ingrave-ar", range=14, targets=(TargetSpec("orc"),), shots=4)
    res = fire_odds(tables, req)
    kills = res.odds.distributions["kills"]
    assert sum(kills.values()) == 1
    assert kills[4] == Fraction(13, 20) ** 4
    dice = SeededDice(7)
    seen = Counter(resolve_fire(tables, req, dice).summary["kills"] for _ in range(ROLLS // 4))
    assert_close(seen, kills, ROLLS // 4)


def test_template_distribution_matches_seeded_rolls(tables):
    req = FireRequest(
        weapon="40mm-plasma-cannon",
        range=20,
        targets=(TargetSpec("orc"), TargetSpec(defence=9), TargetSpec("crusader")),
    )
    res = fire_odds(tables, req)
    assert [s.odds.outcomes["kill"] for s in res.shots] == [Fraction(1, 2), 0, Fraction(1, 2)]
    dice = SeededDice(8)
    seen = Counter(resolve_fire(tables, req, dice).summary["kills"] for _ in range(ROLLS // 4))
    assert_close(seen, res.odds.distributions["kills"], ROLLS // 4)


def test_melee_odds_match_seeded_rolls(tables):
    req = MeleeRequest("crusader", "40mm-plasma-cannon", "orc", "bolt-gun")
    odds = melee_odds(tables, req).odds.outcomes
    # Attacker d10 - 1 beats defender d10 + 3 only when a - b > 4: 15 of 100.
    assert odds == {
        "attacker": Fraction(15, 100),
        "defender": Fraction(79, 100),
        "draw": Fraction(6, 100),
    }
    dice = SeededDice(3)
    seen = Counter(resolve_melee(tables, req, dice).outcome for _ in range(ROLLS))
    assert_close(seen, odds, ROLLS)


def test_morale_odds_match_seeded_rolls(tables):
    req = MoraleRequest("crusader", ambushed=True, first_casualty=True)
    odds = morale_odds(tables, req).odds.outcomes
    assert odds == {"pass": Fraction(4, 10), "rout": Fraction(6, 10)}  # needs 7+ on the D10
    dice = SeededDice(4)
    seen = Counter(resolve_morale(tables, req, dice).outcome for _ in range(ROLLS))
    assert_close(seen, odds, ROLLS)


def test_rally_odds_match_seeded_rolls(tables):
    req = RallyRequest("crusader", has_casualties=True)
    odds = rally_odds(tables, req).odds.outcomes
    assert odds == {"rallied": Fraction(7, 10), "retreat": Fraction(3, 10), "rout": 0}
    dice = SeededDice(5)
    seen = Counter(resolve_rally(tables, req, dice).outcome for _ in range(ROLLS))
    assert_close(seen, odds, ROLLS)
    assert (
        rally_odds(tables, RallyRequest(casualties_during_regroup=True)).odds.outcomes["rout"] == 1
    )


def test_initiative_odds_with_ties_rolled_again(tables):
    req = InitiativeRequest(("A", "B"), (parse_mod("commander-present"),))
    odds = initiative_odds(tables, req).odds.outcomes
    # One round: A (d10+1) > B (d10) in 55 of 100, B > A in 36, tie 9; ties roll again.
    assert odds == {"A": Fraction(55, 91), "B": Fraction(36, 91)}
    dice = SeededDice(6)
    seen = Counter(resolve_initiative(tables, req, dice).outcome for _ in range(ROLLS))
    assert_close(seen, odds, ROLLS)


def test_roll_odds(hc):
    out = hc.json("roll 2d6+1 --odds")
    assert out["odds_exact"]["8"] == "1/6"
    assert abs(sum(out["odds"].values()) - 1) < 1e-9
    d100 = hc.json("roll d100 --odds")["odds"]
    assert set(d100) == {str(v) for v in range(1, 101)}
    assert all(abs(p - 0.01) < 1e-12 for p in d100.values())


def test_odds_json_sums_to_one_for_every_command(hc):
    for args in (
        ["fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "3"],
        ["melee", "--attacker", "orc", "--defender", "levy"],
        ["morale", "--troop", "levy", "--fired-at"],
        ["rally", "--troop", "levy"],
        ["initiative"],
    ):
        out = hc.json(*args, "--odds")
        assert abs(sum(out["odds"].values()) - 1) < 1e-9, args
        for dist in out.get("distributions", {}).values():
            assert abs(sum(dist.values()) - 1) < 1e-9, args

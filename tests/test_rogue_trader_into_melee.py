"""Rogue Trader fire into hand to hand (seed 003: "a roll of 1-3 hitting the enemy, and 4-6
hitting the firer's friends"): a friend struck is said so, in the headline and in history;
`hc luck` rates the shot by the wounds on the enemy only; and the hint to fire a model at a
time runs as written. Expected values are the seed's chain, worked here."""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_game_rogue_trader import play  # noqa: F401  (the fixture: a game of its roster)


def _charge(play) -> None:  # noqa: F811
    """The Orks' turn: the carnosaur charges the marines and makes contact."""
    play.json("game", "next")
    play.json("move", "carnosaur", "--charge", "--at", "marines", "--contact")


def test_a_friend_struck_is_said_and_luck_counts_the_enemys_wounds_only(play):  # noqa: F811
    _charge(play)
    play.json("game", "next")
    # The lascannon hits on 3+ (BS 4; +1 large target, -1 the carnosaur's 14" move): a 6; the
    # D6 of 5 strikes a friend, a marine (S9 wounds T3 on 2, damage 2D6 = 6): removed.
    shot = play.act("fire", "lascannon-team", "--at", "carnosaur", "--range", "20",
                    "--into-melee", "--dice", "6,5,6,3,3", "-q")  # fmt: skip
    assert shot.exit_code == 0, shot.output
    assert shot.stdout.startswith("a friend struck (space-marine): casualty: 6 wounds caused")
    history = " ".join(play.act("history").stdout.split())
    assert "lascannon-team fire at carnosaur: a friend struck (space-marine): casualty" in history
    (rated,) = [a for a in play.json("luck")["actions"] if a["command"] == "fire"]
    # At the carnosaur (W 6 sample; S9 wounds T6 on 2, no save): hit 2/3, the enemy 1/2,
    # wounds 5/6, then 2D6 capped at the 6 wounds it has.
    two_d6 = [a + b for a in range(1, 7) for b in range(1, 7)]
    expected = Fraction(2, 3) * Fraction(1, 2) * Fraction(5, 6)
    expected *= Fraction(sum(min(d, 6) for d in two_d6), 36)
    assert rated["value"] == 0
    assert rated["expected"] == pytest.approx(float(expected))
    assert rated["p_no_better"] == pytest.approx(float(1 - Fraction(10, 36)))


def test_the_odds_of_fire_into_the_combat_split_the_enemys_wounds_from_a_friends(play):  # noqa: F811
    _charge(play)
    play.json("game", "next")
    odds = play.json("fire", "lascannon-team", "--at", "carnosaur", "--range", "20",
                     "--into-melee", "--odds")  # fmt: skip
    exact = odds["distributions_exact"]
    struck = Fraction(2, 3) * Fraction(1, 2) * Fraction(5, 6)  # each side's: hit, D6, wound
    assert Fraction(exact["wounds"]["0"]) == 1 - struck
    assert Fraction(exact["wounds on friends"]["0"]) == 1 - struck  # a marine: T3, no save
    assert Fraction(exact["wounds on friends"]["12"]) == struck / 36  # 2D6, uncapped
    outcomes = {k: Fraction(v) for k, v in odds["odds_exact"].items()}
    assert outcomes["friend casualty"] == struck  # a marine's one wound: every wound kills
    assert outcomes["casualty"] == struck * Fraction(26, 36)  # 2D6 of 6 or more: 26 in 36
    assert outcomes["miss"] == Fraction(1, 3)


def test_the_hint_to_fire_into_the_combat_a_model_at_a_time_runs_as_written(play):  # noqa: F811
    _charge(play)
    refused = play.act("fire", "boyz", "--at", "marines", "--range", "12", "--into-melee")
    assert refused.exit_code == 2
    hint = refused.output.strip().splitlines()[-1].strip()
    assert hint == "hc fire boyz:1 --at marines --range 12 --into-melee"
    done = play.act(*hint.split()[1:], "--dice", "2")  # a miss: to hit 2, needs 3
    assert done.exit_code == 0, done.output
    wrong = play.refused("fire", "boyz", "--at", "marines", "--range", "12", "--into-melee",
                         "--friend", "ogryns")  # fmt: skip
    assert "--friend names Orks' unit fighting marines hand to hand, not 'ogryns'" in wrong


def test_a_grenade_into_the_combat_counts_what_struck_a_friend_apart(hc):
    """A frag grenade (BS 3 hits on 4; S3 wounds an ork's T4 on 5, no save at -1 against 6)
    over two models of a combat: the marker lands on target on 1-2 of its D6 (a 2" marker
    deviates on 3+); each model under it is hit on 1/2, the enemy on a D6 of 1-3, wounded on
    1/3: on target, the enemy's wounds are 2 x 1/2 x 1/2 x 1/3 = 1/6 in the mean."""
    line = ("fire --ruleset rogue-trader --bs 3 -w frag-grenade -r 8 -t ork --under 2 "
            "--into-melee --friend space-marine")  # fmt: skip
    odds = hc.json(*f"{line} --odds".split())
    assert odds["means"]["wounds if on target"] == pytest.approx(1 / 6)
    assert "wounds on friends if on target" in odds["distributions"]
    # In the order rolled, phase by phase: on target (1); to hit 6 and 1 (model 2 missed); the
    # D6 6 strikes the friend; wounded (6); the save 1 fails.
    shot = hc.json(*f"{line} --dice 1,6,1,6,6,1".split())
    assert shot["headline"].startswith("a friend struck (1 casualty, 1 wound): 0 casualties")
    assert (shot["summary"]["wounds"], shot["summary"]["wounds_on_friends"]) == (0, 1)


def test_compare_weighs_fire_into_the_combat_a_model_at_a_time(play):  # noqa: F811
    """Found in play: `hc compare` listed a unit at an engaged target as "may not fire", though
    `hc fire ... --into-melee` takes the shot. It is compared as the shot into the combat of
    the firer's next model, the enemy's numbers only: the carnosaur (W 6 sample) removed by
    the lascannon: hit 2/3, the enemy 1/2, wounds 5/6, then 2D6 of 6 or more (26 in 36)."""
    _charge(play)
    play.json("game", "next")
    found = play.json("compare", "--range", "20")
    at = [c for c in found["cells"] if c["target"] == "carnosaur"]
    assert at and all(c["shot"] == "into melee" for c in at)
    (cell,) = [c for c in at if c["unit"] == "lascannon-team"]
    struck = Fraction(2, 3) * Fraction(1, 2) * Fraction(5, 6)
    assert cell["p_removed"] == pytest.approx(float(struck * Fraction(26, 36)))
    two_d6 = [a + b for a in range(1, 7) for b in range(1, 7)]
    capped = Fraction(sum(min(d, 6) for d in two_d6), 36)
    assert cell["mean_wounds"] == pytest.approx(float(struck * capped))
    assert "marines" in {u["unit"] for u in found["may_not_fire"]}  # engaged: fires not
    text = " ".join(play.act("compare", "--range", "20").stdout.split())
    assert "lascannon-team at carnosaur (20, into melee)" in text

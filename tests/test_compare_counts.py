"""`hc compare` of the shots the play-testers weighed (issue 38): a Rogue Trader area weapon
under its marker, counts capped by what the target has left, an --under the target cannot
have, and a reason not to fire said whole. Expected values are worked here from the seed's
chain (hit, wound, save) and an enumeration of the capped counts."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from games_setup import EXAMPLES, start_game
from helpers import binomial

GRENADES = """\
ruleset: rogue-trader
sides:
  Imperials:
    guards: {profile: imperial-guard, models: 5, weapon: frag-grenade}
  Orks:
    boyz: {profile: ork, models: 6, weapon: bolt-gun}
    stikkers: {profile: ork, models: 2, weapon: frag-grenade}
"""


@pytest.fixture
def game(hc, tmp_path):
    def start(roster: str, *first: str, house: str | None = None):
        (tmp_path / "roster.yaml").write_text(roster, encoding="utf-8")
        rules = []
        if house is not None:
            (tmp_path / "house.yaml").write_text(house, encoding="utf-8")
            rules = ["--rules", str(tmp_path / "house.yaml")]
        act, _ = start_game(hc, tmp_path / "game.hcg", tmp_path / "roster.yaml", *rules)
        for line in first:
            assert act(*line.split()).exit_code == 0, line
        return lambda line: act(*line.split())

    return start


def test_an_area_weapon_is_compared_under_its_marker_as_thrown(game):
    """A frag grenade (sample: BS 3 needs 4, S3 at an ork's T4 wounds on 5, no save at -1 for
    an ork) lands on target when its D6 deviation is under 3 (a 2" marker deviates on 3+):
    1/3. Each of the N models under it is struck on 1/2 * 1/3 = 1/6, a casualty each (W1);
    a deviated marker counts none at its target."""
    run = game(GRENADES, "initiative --dice 1")
    needs = json.loads(run("compare -r 6 --json").stdout)
    assert [(n["unit"], n["target"], n["needs"]) for n in needs["needs"]] == [
        ("guards", "boyz", "--under"), ("guards", "stikkers", "--under")]  # fmt: skip
    assert "guards at boyz: needs --under N" in run("compare -r 6").stdout
    on = Fraction(1, 3)
    for under in (1, 3):
        found = json.loads(run(f"compare -r 6 --at boyz --under boyz={under} --json").stdout)
        (cell,) = found["cells"]
        kills = binomial(under, Fraction(1, 6))
        assert cell["p_removed"] == pytest.approx(float(on * (1 - kills[0])))
        assert cell["mean_casualties"] == pytest.approx(float(on * under / 6))
        assert cell["at_least"]["p"]["1"] == pytest.approx(float(on * (1 - kills[0])))
        assert found["unused_unders"] == []
    found = json.loads(run("compare -r 6 --under 1 --under stikkers:guards=2 --json").stdout)
    assert found["unused_unders"] == []  # the stikkers' grenades may not be thrown now
    assert "stikkers" in {u["unit"] for u in found["may_not_fire"]}
    refused = run("compare -r 6 --under boyz=7")  # boyz has 6 models
    assert refused.exit_code == 2
    words = " ".join(refused.output.split())
    assert "7 models under the marker: boyz has 6 left" in words
    assert "give --under up to 6" in words


ONE_WOUND = """\
ruleset: rogue-trader
sides:
  Imperials:
    lascannon-team: {profile: space-marine, weapon: lascannon}
  Orks:
    boyz: {profile: ork, models: 3, weapon: bolt-gun}
    carnosaur: {profile: carnosaur}
"""


def test_a_shots_wounds_are_capped_by_what_its_target_has_left(game):
    """A lascannon's 2D6 damage (sample) at a W1 ork wounds that one model once; at the
    carnosaur (W6 sample) at most the wounds it has left: E[min(2D6, left)] of each shot that
    hits and wounds unsaved, not the 7 of 2D6."""
    run = game(ONE_WOUND, "initiative --dice 1")
    found = json.loads(run("compare -r 20 --json").stdout)
    two_d6 = [a + b for a in range(1, 7) for b in range(1, 7)]
    for target, most in (("boyz", 1), ("carnosaur", 6)):
        (cell,) = [c for c in found["cells"] if c["target"] == target]
        odds = json.loads(run(f"fire lascannon-team --at {target} -r 20 --odds --json").stdout)
        struck = sum(Fraction(odds["odds_exact"][k]) for k in ("wounded", "casualty"))
        expected = struck * Fraction(sum(min(d, most) for d in two_d6), 36)
        assert cell["mean_wounds"] == pytest.approx(float(expected))
        casualty = Fraction(odds["odds_exact"]["casualty"])
        assert cell["mean_casualties"] == pytest.approx(float(casualty))


HC_SUPPORT = """\
ruleset: high-crusade
sides:
  Free Companies:
    support: {troop: crusader, figures: 3, weapon: heavy-laser}
  Orcs:
    boyz: {troop: orc, figures: 8, weapon: bolt-gun}
"""


def test_an_under_past_the_figures_left_is_refused_as_fire_refuses_it(game):
    run = game(HC_SUPPORT, "initiative --dice 9,1")
    for given in ("support:boyz=9", "boyz=9"):
        refused = run(f"compare -r 20 --under {given}")
        assert refused.exit_code == 2, refused.output
        words = " ".join(refused.output.split())
        assert f"--under {given}: support at boyz: 9 figures under the template" in words
        assert "boyz has 8 left" in words and "give --under up to 8" in words
    # --under 9 for every shot: a target with fewer left waits for its own (found in play: the
    # whole compare was refused for one target of several)
    every = run("compare -r 20 --under 9")
    assert every.exit_code == 0, every.output
    words = " ".join(every.output.split())
    assert "support at boyz: needs --under N: --under 9: 9 figures under the template" in words


def test_a_reason_not_to_fire_is_said_whole(game):
    """A reading named in brackets is part of the reason, not cut at its colon."""
    house = "ruleset: high-crusade\nreadings:\n  fire-after-melee: {choice: no-fire}\n"
    roster = (EXAMPLES / "high-crusade-skirmish.yaml").read_text(encoding="utf-8")
    run = game(roster, "initiative --dice 3,6", "game next", "game next", "game next",
               "melee fireteam-1 --at boyz --dice 9,5", "morale boyz --dice 9",
               house=house)  # fmt: skip
    text = " ".join(run("compare -r 10").output.split())
    for unit in ("fireteam-1", "boyz"):
        said = (f"{unit}: {unit} fought hand to hand this move and may not fire as well "
                "(reading: fire-after-melee = no-fire)")  # fmt: skip
        assert said in text, text


def test_every_twilight_shot_is_a_row_of_80_columns(t2k_game):
    """Four kinds of shot, each a row of its own: the kind in its own column, the range said
    once, so that no row wraps at 80 columns."""
    found = json.loads(t2k_game.ok("compare -r 30 --json").stdout)
    assert {c["shot"] for c in found["cells"]} == {"aimed", "quick", "aimed-burst", "burst"}
    lines = t2k_game.ok("compare -r 30").stdout.splitlines()
    assert "each at range 30" in lines
    for cell in found["cells"]:
        row = f"  {cell['unit']} at {cell['target']} "
        (line,) = [n for n in lines if n.startswith(row) and f" {cell['shot']} " in n]
        assert len(line) <= 80 and line.endswith("%")
    assert max(len(line) for line in lines) <= 80


SUPPORT_OF_TWO = """\
ruleset: high-crusade
sides:
  Free Companies:
    support: {troop: crusader, figures: 2, weapon: heavy-laser}
  Orcs:
    boyz: {troop: orc, figures: 8, weapon: bolt-gun}
"""


def test_the_odds_of_a_shot_in_a_game_count_no_more_than_the_target_has_left(game, hc):
    """8 boyz fire bolt-guns at 10" (sample 65/5 against a crusader's DF 5: every hit kills,
    13/20 a shot) at a Fireteam of 2: kills binomial(8, 13/20), at most 2 of them."""
    run = game(SUPPORT_OF_TWO, "initiative --dice 3,6", "game next", "game next")
    kills = binomial(8, Fraction(13, 20))
    capped = {0: kills[0], 1: kills[1], 2: 1 - kills[0] - kills[1]}
    odds = json.loads(run("fire boyz --at support -r 10 --odds --json").stdout)
    assert {int(k): Fraction(v) for k, v in odds["distributions_exact"]["kills"].items()} == capped
    assert odds["means"]["kills"] == pytest.approx(float(2 - 2 * kills[0] - kills[1]))
    text = run("fire boyz --at support -r 10 --odds").stdout
    assert "kills capped at the 2 figures support has left" in text
    cell = json.loads(run("compare -r 10 --json").stdout)["cells"][0]
    assert cell["mean_kills"] == pytest.approx(odds["means"]["kills"])
    outside = hc.json("fire --ruleset high-crusade -w bolt-gun -r 10 -t crusader --shots 8 --odds")
    assert outside["means"]["kills"] == pytest.approx(8 * 0.65)  # no game: nothing to cap

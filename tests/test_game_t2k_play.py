"""Found in a play-test of a Twilight: 2000 game (seed 002): the kept dice of a burst's danger
zone named as any other action's target is, and rolled all at once without counting them.

Worked by hand as in test_game_t2k_zone: nguyen's M60 at 20 m rolls 4 dice, all miss (20s); 2
go at popov in the zone and miss; half of those 2, 1 die, is kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from games_setup import example_game, json_of, row_of

BURST = "fire nguyen --at ivanov -r 20 --shot burst --zone popov:3 --dice 20,20,20,20,20,20"


def _after_the_burst(hc, path):
    """A game after nguyen's burst: kowalski and ivanov passed, 1 die kept."""
    return example_game(hc, path, "t2k", "initiative --seed 2", "game next", "game next", BURST)


def test_a_misspelt_target_of_the_kept_dice_is_told_as_any_targets_is(hc, tmp_path):
    env = _after_the_burst(hc, tmp_path / "g.hcg")
    size = Path(env["HC_GAME"]).stat().st_size
    typo = hc("fire nguyen --kept 1 --at popvo --dice 1", env=env)
    ordinary = hc("fire popov --at kowalsky --anyway", env=env)
    assert typo.exit_code == ordinary.exit_code == 2
    assert "unknown unit 'popvo'" in typo.stderr and "did you mean 'popov'?" in typo.stderr
    assert "unknown unit 'kowalsky'" in ordinary.stderr
    assert Path(env["HC_GAME"]).stat().st_size == size  # nothing appended


@pytest.mark.parametrize("kept", ["--kept all --at popov", "--at popov --kept all"])
def test_kept_all_rolls_every_die_the_burst_kept(hc, tmp_path, kept):
    """`--kept all`: the 1 die kept, at hit number 1 (asset 11 x 1/8,
    Impossible): a 1 hits; location d10 7 is the arm, damage the M60's 3d6: 3 + 2 + 5 = 10."""
    env = _after_the_burst(hc, tmp_path / "g.hcg")
    shown = " ".join(hc("status", env=env).output.split())
    assert "hc fire nguyen --kept all --at NAME" in shown
    hit = json_of(hc(f"fire nguyen {kept} --dice 1,7,3,2,5 --json", env=env))
    assert (hit["dice"], hit["hits"], hit["hit_effects"]) == (
        1,
        1,
        [{"location": "arm", "damage": 10}],
    )
    assert json_of(hc("status --json", env=env))["zone_kept"] == []
    entry = Path(env["HC_GAME"]).read_text().splitlines()[-1]
    assert '"kept":1' in entry  # the number kept then, not 'all': a replay gives the same
    assert "reproduced, 0 did not" in hc("replay", env["HC_GAME"]).output


def test_kept_all_outside_a_game_says_only_a_game_knows(hc):
    out = hc("fire --ruleset t2k --game none --asset 12 --strength 5 --weapon m16a2 -r 20 "
             "--shot burst --kept all")  # fmt: skip
    assert out.exit_code == 2 and "only a game knows" in out.stderr
    bad = hc("fire --ruleset t2k --game none --asset 12 --weapon m16a2 -r 20 --shot burst "
             "--kept some")  # fmt: skip
    assert bad.exit_code == 2 and "--kept N" in bad.stderr
    typo = hc("fire --ruleset t2k --game none --asset 12 --weapon m16a2 -r 20 --shot burst "
              "--kept al")  # fmt: skip
    assert typo.exit_code == 2 and "did you mean 'all'?" in typo.stderr


def test_hits_after_a_quick_kill_ask_no_dice(hc, tmp_path):
    """nguyen's 4 dice at hit number 1 all hit (1s); hit 1: d10 2 is the chest, 3d6 4+4+4 = 12,
    the quick-kill d10 3 <= 12 kills ivanov outright (seed 002, Quick Kill): hits 2-4 land on
    a dead man, so the 9 dice are all the burst asks for."""
    env = example_game(hc, tmp_path / "g.hcg", "t2k", "initiative --seed 2", "game next",
                       "game next")  # fmt: skip
    fired = hc("fire nguyen --at ivanov -r 20 --shot burst --dice 1,1,1,1,2,4,4,4,3 --json",
               env=env)  # fmt: skip
    result = json_of(fired)
    assert (result["outcome"], result["hits"]) == ("quick-kill", 4)
    assert result["hit_effects"] == [{"location": "chest", "damage": 12}]
    assert not any("hit 2" in r["purpose"] for r in result["rolls"])
    ivanov = row_of(json_of(hc("status --json", env=env)), "ivanov")
    assert (ivanov["damage"], ivanov["hits"]) == (12, [{"location": "chest", "damage": 12,
                                                        "by": "nguyen"}])  # fmt: skip

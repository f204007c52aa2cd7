"""Found in a play-test of Twilight: 2000 (seed 002), outside a game: a misspelt choice gets
hc's did-you-mean."""

from __future__ import annotations

import pytest

T2K = "--ruleset t2k --game none"
FIRE = f"fire {T2K} --asset 12 --strength 5 --weapon m16a2 -r 20"


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (f"{FIRE} --shot burts", "did you mean 'burst'?"),
        (f"{FIRE} --shot quik", "did you mean 'quick'?"),
        (f"{FIRE} --shot zzz", "aimed, quick, aimed-burst or burst"),
        (f"{FIRE} --shot quick --movement saddle --riding 9 --gait trotign", "'trotting'?"),
        (f"deviate {T2K} --range 30 --band lnog", "did you mean 'long'?"),
    ],
)
def test_a_misspelt_choice_is_met_with_did_you_mean(hc, command, said):
    out = hc(command)
    assert out.exit_code == 2 and said in out.stderr, out.output


KEPT_AT_AN_NPC = f"{FIRE} --shot burst --kept 2 --npc --location chest --damage-done 5"


def test_the_hits_after_a_quick_kill_roll_nothing(hc):
    """2 kept dice at hit number 1 (asset 12 x 1/8) both hit; each hit on the chest does 5,
    and a d10 of 5 or less (not 10) kills outright: the first d10, 3, kills, so the second
    hit has no die: the 3 dice given are all, and the damage is the first hit's 5."""
    result = hc.json(f"{KEPT_AT_AN_NPC} --dice 1,1,3")
    assert (result["outcome"], result["hits"]) == ("quick-kill", 2)
    assert result["hit_effects"] == [{"location": "chest", "damage": 5}]
    too_many = hc(f"{KEPT_AT_AN_NPC} --dice 1,1,3,9")
    assert too_many.exit_code == 2


def test_the_odds_of_damage_stop_at_a_quick_kill(hc):
    """The same 2 dice, each hits at 1/20: 0 hits 361/400, 1 hit 38/400, 2 hits 1/400. A hit
    deals 5 and kills at 5/10; the second hit deals its 5 only when the first did not kill:
    damage 0: 361/400; 5: 38/400 + 1/400 x 1/2; 10: 1/400 x 1/2. Mean: 5 x 38.5/400 + 10 x
    0.5/400 = 197.5/400."""
    odds = hc.json(f"{KEPT_AT_AN_NPC} --odds")
    damage = {int(k): v for k, v in odds["distributions"]["damage"].items()}
    assert damage == pytest.approx({0: 361 / 400, 5: 38.5 / 400, 10: 0.5 / 400})
    assert odds["means"]["damage"] == pytest.approx(197.5 / 400)
    # A quick kill in 1 or 2 hits: 38/400 x 1/2 + 1/400 x 3/4.
    assert odds["odds"]["quick-kill"] == pytest.approx(19 / 400 + 0.75 / 400)


def test_no_tie_no_tie_die_among_the_sample_numbers(hc):
    """Initiatives 6 (extra action at 3) and 3 tie at 3, parted by Agility - bulk (7 - 5 = 2
    against 0): no die is rolled, so none is a sample number; two alike on both roll it."""
    parted = hc(f"initiative {T2K} --char a:6::7:5 --char b:3::5:5 --seed 2")
    assert parted.exit_code == 0 and "tie die" not in parted.stdout
    rolled = hc(f"initiative {T2K} --char a:3::7:5 --char b:3::7:5 --seed 2")
    assert "sample numbers (not the book's): tie die: d10" in rolled.stdout

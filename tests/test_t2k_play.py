"""Found in a play-test of Twilight: 2000 (seed 002), outside a game: a misspelt choice gets
hc's did-you-mean."""

from __future__ import annotations

import json

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


def test_a_burst_names_the_reading_that_counts_its_band(hc):
    """An M16A2's 3-round burst loses 1 die a band beyond Short ('3/1'): at 20 m (Short) none,
    at 100 m (Medium, past 65) 1. 'Using automatic fire increase range band by one' is the
    aimed burst's (reading automatic-fire-band = aimed-burst): the output says so."""
    short = hc.json(f"{FIRE} --shot burst --seed 1")
    assert "automatic-fire-band = aimed-burst" in short["readings"]
    said = " ".join(short["explanation"])
    assert "0 for range (at Short; 1 a band beyond it)" in said
    assert "not this burst's: the dice count at short" in said
    medium = hc.json(f"{FIRE.replace('-r 20', '-r 100')} --shot burst --seed 1")
    assert "1 for range (medium: 1 band beyond Short, 1 each)" in " ".join(medium["explanation"])


M60_ZONE = (f"fire {T2K} --asset 14 --strength 5 --weapon m60 --range 60 --shot burst "
            "--zone ivanov:3 --zone popov:4")  # fmt: skip


@pytest.mark.parametrize(("choice", "kept"), [("zone-misses", 0), ("not-rolled", 1),
                                              ("all-left", 2)])  # fmt: skip
def test_the_remainder_kept_for_the_zone_is_a_named_reading(hc, tmp_path, choice, kept):
    """10 dice - 2 x (7 - 5) for recoil = 6 dice, all miss; half, 3, at the zone at hit number
    1 (asset 14 x 1/8): 1, 1, 20 hit ivanov and popov. 'Half of the remainder after the second
    roll': of the 1 zone die that missed, 0; of the 3 misses not rolled, 1; of the 4 misses no
    hit used, 2."""
    house = tmp_path / "house.yaml"
    house.write_text(f"ruleset: t2k\nreadings:\n  zone-dice-remainder: {{choice: {choice}}}\n")
    dice = "20,20,20,20,20,20,1,1,20,5,1,1,3,7,2,2,2"
    fired = hc.json(f"{M60_ZONE} --rules {house} --dice {dice}")
    assert (fired["zone_dice"], fired["zone_hits"]) == (3, {"ivanov": 1, "popov": 1})
    assert fired["kept_back"] == kept
    assert any(r.startswith(f"zone-dice-remainder = {choice}") for r in fired["readings"])


def test_the_remainder_reading_is_not_named_where_it_decides_nothing(hc):
    """5 of the 6 dice hit: half the 1 miss is no die for the zone, and every reading keeps 0."""
    fired = hc.json(f"{M60_ZONE} --location chest --damage-done 5 --dice 1,1,1,1,1,20")
    assert fired["kept_back"] == 0
    assert not any(r.startswith("zone-dice-remainder") for r in fired["readings"])


def test_the_hits_of_a_burst_read_as_a_list(hc):
    """An M60 (3d6) at 20 m: 10 dice, Strength 9 above its recoil 7; 3 hit at hit number 2
    (asset 16 x 1/8). d10 3 and 4 are the chest, 6 the arm: 6+6+6, 6+6+6, 2+2+3."""
    dice = "1,1,1,20,20,20,20,20,20,20,3,6,6,6,4,6,6,6,6,2,2,3"
    out = hc(f"fire {T2K} --asset 16 --strength 9 --weapon m60 -r 20 --shot burst --dice {dice}")
    assert out.exit_code == 0, out.output
    assert "hits: chest 18, chest 18, arm 7" in out.stdout.splitlines()
    assert "hit effects" not in out.stdout and "location chest, damage" not in out.stdout
    assert max(len(line) for line in out.stdout.splitlines()) <= 80


@pytest.mark.parametrize(
    "fields",
    [
        {"range": 20.0, "kept": 2, "damage": "1d3"},  # 2 dice, each hit's location rolled
        {"range": 150.0, "shots": 2, "location": "chest"},  # a die a burst at Long, 2 bursts
    ],
)
def test_the_odds_are_the_resolvers_dice_walked(fields):
    """Every path of the dice `hc fire` rolls, hits after a quick kill rolling none, weighs
    out to the odds `--odds` gives: the outcomes and the damage dealt in all."""
    from hc_cli.core.odds import enumerate_outcomes
    from hc_cli.rulesets.t2k.commands import load_tables
    from hc_cli.rulesets.t2k.resolve import FireRequest, fire_odds, resolve_fire

    t = load_tables()
    req = FireRequest(asset=40, shot="burst", strength=9, short_range=50, rof="3", recoil=2,
                      npc=True, **{"damage": "1d6", **fields})  # fmt: skip

    def dealt(res):
        return sum(e["damage"] for p in res.shots or [res] for e in p.fields.get("hit_effects", []))

    walked = enumerate_outcomes(lambda d: resolve_fire(t, req, d), lambda r: (r.outcome, dealt(r)))
    outcomes, damage = {}, {}
    for (outcome, dealt_in_all), p in walked.items():
        outcomes[outcome] = outcomes.get(outcome, 0) + p
        damage[dealt_in_all] = damage.get(dealt_in_all, 0) + p
    odds = fire_odds(t, req).odds
    assert outcomes == dict(odds.outcomes)
    assert dict(sorted(damage.items())) == odds.distributions["damage"]


def test_zone_hits_after_a_zone_npc_is_killed_ask_no_dice(hc):
    """An M60 burst at 20 m (hit number 2, asset 16 x 1/8): 10 misses, half of them, 5 dice,
    go at popov in the danger zone and all hit. Hit 1: d10 3 the chest, 3d6 6+6+6 = 18, the
    quick-kill d10 1 <= 18: popov is killed outright (seed 002, Quick Kill), so hits 2-5 roll
    nothing: the 20 dice given are all the burst asks for (review)."""
    dice = ",".join(["20"] * 10 + ["1"] * 5 + ["3", "6", "6", "6", "1"])
    out = hc(f"fire {T2K} --asset 16 --strength 9 --weapon m60 -r 20 --shot burst "
             f"--zone popov:2 --zone-npc popov --dice {dice} --json")  # fmt: skip
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    assert result["zone_hits"] == {"popov": 5} and result["zone_kills"] == ["popov"]
    assert result["zone_effects"] == {"popov": [{"location": "chest", "damage": 18}]}
    assert len(result["rolls"]) == 20

"""The defects an independent audit found, each a test quoting the seed's words; and every
reading of an unclear passage as a named switch a house-rules file can flip."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

RT = ("--ruleset", "rogue-trader")
T2K = ("--ruleset", "t2k")


# ---------------------------------------------------------------------------------------------
# Rogue Trader (seed 003)


def test_obstacle_costs_half_the_total_move(hc):
    """'Crossing an obstacle costs a model half of its total move distance': M 4, two turns
    beyond the free one (-1"), the obstacle -2": 1" left, not half of what was left."""
    assert hc.json("move", *RT, "--m", "4", "--turns", "3", "--obstacle")["move"] == 1


def test_obstacle_remainder_rounds_up_to_half_an_inch(hc):
    """'it is convenient and acceptable to round remaining fractions up to the nearest 1/2"':
    M 4 less mesh 1/2" = 3.5", half of it 1.75" left, rounded up to 2"."""
    assert hc.json("move", *RT, "--m", "4", "--armour", "mesh", "--obstacle")["move"] == 2


def test_obstacle_needs_half_the_move_left(hc):
    """'Models, which approach an obstacle and then have less than half their move remaining,
    cannot cross.'"""
    assert "cannot cross" in hc.error("move", *RT, "--m", "4", "--turns", "6", "--obstacle")


def test_area_weapon_into_a_closed_room_never_deviates(hc):
    """'Area weapons thrown or fired into a closed room or vehicle, will hit all occupants
    automatically'."""
    fire = ("fire", *RT, "--bs", "3", "-w", "frag-grenade", "-r", "6", "-t", "ork", "--under", "2")
    out = hc.json(*fire, "--closed-room", "--dice", "3,3")  # to wound each, no deviation die
    assert [r["purpose"] for r in out["rolls"] + out["shots"][0]["rolls"]] == ["to wound"]
    odds = hc.json(*fire, "--closed-room", "--odds")
    assert "deviated" not in odds["odds"]


def test_woods_reduce_every_firing_range_to_two_inches(hc):
    """'In woods ... visibility and all firing ranges are reduced to 2" maximum.'"""
    fire = ("fire", *RT, "--bs", "4", "-w", "lasgun", "-t", "ork", "--in-woods", "--seed", "1")
    assert 'firing ranges are 2" at most' in hc.error(*fire, "-r", "3")
    assert hc.json(*fire, "-r", "2")["band"] == "short"


def test_lying_down_is_no_cover_within_four_inches(hc):
    """'Any trooper may take cover by simply throwing himself to the ground ... This counts as
    soft cover ... Once a target is within 4" range of the firer it cannot claim cover in this
    way.'"""
    fire = ("fire", *RT, "--bs", "4", "-w", "lasgun", "-t", "ork", "--lying-down", "--odds")
    far = hc.json(*fire, "-r", "10")
    near = hc.json(*fire, "-r", "4")
    assert any(m["name"] == "soft-cover" for m in far["modifiers"])
    assert not any(m["name"] == "soft-cover" for m in near["modifiers"])


def test_troops_in_hand_to_hand_may_not_fire(hc):
    """'Troops who have entered hand-to-hand combat may not fire during the shooting part of
    the turn.'"""
    err = hc.error("fire", *RT, "--bs", "4", "-w", "lasgun", "-r", "5", "-t", "ork",
                   "--in-hand-to-hand")  # fmt: skip
    assert "may not fire" in err


def test_the_first_turn_is_a_coin_flip(hc):
    """'Flip a coin to see which side has the first turn. The side to go first (side A)'."""
    odds = hc.json("initiative", *RT, "--side", "Imperials", "--side", "Orks", "--odds")
    assert odds["odds_exact"] == {"Imperials": "1/2", "Orks": "1/2"}
    tails = hc.json("initiative", *RT, "--side", "Imperials", "--side", "Orks", "--dice", "2")
    assert tails["order"][0]["name"] == "Orks" and tails["outcome"] == "Orks"


def test_mounted_weapons_are_exempt_from_the_short_range_limit_only(hc, house):
    """'Models firing from a moving vehicle or riding animal may do so at short range only.
    This does not apply to weapons mounted on or in vehicles': the -1 for a moving surface
    stays, unless the reading says otherwise."""
    fire = ("fire", *RT, "--bs", "4", "-w", "lasgun", "-r", "15", "-t", "ork",
            "--moving-surface", "--mounted-weapon", "--odds")  # fmt: skip
    out = hc.json(*fire)
    assert any(m["name"] == "moving-surface" for m in out["modifiers"])
    assert "mounted-weapon-exemption = short-range-only" in out["readings"]
    both = house(
        "ruleset: rogue-trader\nreadings:\n  mounted-weapon-exemption:\n"
        "    choice: short-range-and-moving-surface\n"
    )
    flipped = hc.json(*fire, "--rules", both)
    assert not any(m["name"] == "moving-surface" for m in flipped["modifiers"])
    assert (
        "mounted-weapon-exemption = short-range-and-moving-surface (chosen by house.yaml)"
        in flipped["readings"]
    )


def test_partly_under_the_marker_can_be_diced_for(hc, house):
    """'In clear fifty-fifty cases throw a dice to decide. Alternatively, allow partially
    covered models to count as targets, but at -1 to hit.'"""
    dice = house(
        "ruleset: rogue-trader\nreadings:\n  partly-under-marker: {choice: throw-a-dice}\n"
    )
    fire = ("fire", *RT, "--bs", "3", "-w", "frag-grenade", "-r", "6", "-t", "ork", "--placed",
            "--under", "1", "--partly", "1", "--rules", dice)  # fmt: skip
    out = hc.json(*fire, "--dice", "2")
    assert out["outcome"] == "miss"
    assert "not under the marker" in out["shots"][0]["explanation"][0]
    odds = hc.json(*fire, "--odds")
    # 4-6 it is a target; then BS 3 needs 4 (no -1): 1/2 x 1/2 = 1/4 to hit.
    assert Fraction(odds["odds_exact"]["miss"]) == 1 - Fraction(1, 2) * Fraction(1, 2)


# ---------------------------------------------------------------------------------------------
# Twilight: 2000 (seed 002)

M16 = ("--asset", "12", "--strength", "5", "-w", "m16a2")


def test_each_pump_shot_is_its_own_pellet_burst(hc):
    """'PA Pump action, can fire 3 times per action' and 'At medium and long range treat as a
    10 round burst (immediately reduced to 7 dice for medium range)': three shots, 21 dice."""
    out = hc.json("fire", *T2K, "--asset", "12", "--strength", "5", "-w", "remington-870",
                  "-r", "30", "--shots", "3", "--location", "leg", "--damage-done", "1",
                  "--dice", ",".join(["20"] * 21))  # fmt: skip
    assert out["dice"] == 21 and out["hits"] == 0


def test_up_to_five_bursts_an_action(hc):
    """'A fully automatic weapon can fire 5 burst of it's ROF ... in a action'."""
    burst = ("fire", *T2K, *M16, "-r", "100", "--shot", "burst")
    two = hc.json(*burst, "--shots", "2", "--location", "leg", "--damage-done", "1", "--seed", "4")
    assert [s["label"] for s in two["shots"]] == ["burst 1", "burst 2"]
    assert two["hits"] == sum(s["hits"] for s in two["shots"])
    one = hc.json(*burst, "--odds")["distributions_exact"]["hits"]
    both = hc.json(*burst, "--shots", "2", "--odds")["distributions_exact"]["hits"]
    p = {int(k): Fraction(v) for k, v in one.items()}
    convolved: dict[int, Fraction] = {}
    for a, pa in p.items():
        for b, pb in p.items():
            convolved[a + b] = convolved.get(a + b, Fraction(0)) + pa * pb
    assert {int(k): Fraction(v) for k, v in both.items()} == convolved
    assert "--shots 6 is out of bounds: 1..5" in hc.error(*burst, "--shots", "6")


def test_a_grenade_may_be_thrown_while_walking(hc):
    """'No aimed shots while walking or trotting': a throw is no aimed shot."""
    throw = ("fire", *T2K, "--thrown", "--asset", "12", "--strength", "5", "--weight", "1")
    out = hc.json(*throw, "--throw-range", "40", "-r", "20", "--movement", "walking", "--seed", "2")
    assert out["band"] == "effective"


def test_a_shotgun_from_a_moving_vehicle_is_one_band_further(hc):
    """'No aimed fire from a moving vehicle. Quick shots and bursts are normal except at one
    higher range band': a flechette quick shot at 40 m (Medium) rolls Long's 4 dice."""
    out = hc.json("fire", *T2K, "--asset", "12", "--strength", "5", "-w", "spas-12-flechette",
                  "-r", "40", "--movement", "vehicle", "--shot", "quick", "--odds")  # fmt: skip
    assert out["dice"] == 4


def test_an_aimed_burst_feels_its_recoil(hc):
    """'Recoil ... > reduce hit number by the difference': Strength 1 against the M134's
    burst recoil 12 leaves the aimed burst (Difficult, 16 x 1/2 = 8) at the floor of 1."""
    out = hc.json("fire", *T2K, "--asset", "16", "--strength", "1", "-w", "m134", "-r", "50",
                  "--shot", "aimed-burst", "--odds")  # fmt: skip
    assert out["hit_number"] == 1
    assert Fraction(out["odds_exact"]["hit"]) == Fraction(1, 20)


def test_quick_kill_applies_to_a_bursts_hits(hc):
    """'A hit in head or chest may cause quick kill': any hit, a burst's too."""
    out = hc.json("fire", *T2K, "--asset", "16", "--strength", "12", "-w", "m16a2", "-r", "30",
                  "--shot", "aimed-burst", "--npc", "--location", "chest", "--damage-done", "6",
                  "--dice", "1,2,9,3")  # fmt: skip
    # hit, d3 = 2 hits; quick-kill dice 9 (> 6: no) and 3 (<= 6: killed outright)
    assert out["hits"] == 2 and out["outcome"] == "quick-kill"


def test_from_the_saddle_the_mounts_pace_limits(hc):
    """'Firing from the saddle the same as on foot except, movement rate is based on the
    animal': a walking mount allows no aimed shot."""
    fire = ("fire", *T2K, *M16, "-r", "30", "--movement", "saddle", "--riding", "14")
    assert "no aimed shots while" in hc.error(*fire, "--gait", "walking")
    assert hc.json(*fire, "--gait", "walking", "--shot", "quick", "--odds")["hit_number"] >= 1


def test_riders_odds_include_hitting_the_other(hc):
    """'Firing at riders any missed single shot has a 1-% chance of hitting the other': with
    the reading 10%, P = P(miss) 2/5 x 1/10 = 1/25."""
    out = hc.json("fire", *T2K, *M16, "-r", "30", "--riders", "--odds")
    assert out["odds_exact"]["hit-other"] == "1/25"
    assert Fraction(out["odds_exact"]["miss"]) == Fraction(2, 5) * Fraction(9, 10)


def test_deviation_beyond_long_range_is_refused(hc):
    """'Long range = 2x throw range divided by weight': 40 / 2 x 2 = 40 m; 90 m is no throw."""
    err = hc.error("deviate", *T2K, "--range", "90", "--throw-range", "40", "--weight", "2")
    assert "out of range" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("-w", "m1911", "-r", "5", "--scope"), "the text gives rifle scopes"),
        (("-w", "m1911", "-r", "5", "--braced", "--two-weapons"), "do not go together"),
        (("-w", "m16a2", "-r", "30", "--shot", "burst", "--obscured"), "Impossible already"),
        (("-w", "m16a2", "-r", "30", "--shot", "burst", "--target-speed", "60"),
         "automatic-fire-band"),
    ],
)  # fmt: skip
def test_nothing_is_silently_ignored(hc, args, message):
    assert message in hc.error("fire", *T2K, "--asset", "12", "--strength", "5", *args)


def test_initiative_is_never_below_zero(hc):
    """'Reductions due too wounds: ... 5 if critically': 2 - 5 stops at 0."""
    out = hc.json("initiative", *T2K, "--char", "A:2:critical:5:0", "--char", "B:1::5:0")
    assert [o["initiative"] for o in out["order"]] == [1, 0]


def test_every_hit_gets_a_location_and_damage(hc):
    """'If a hit is rolled ... determine hit location and damage normally': location d10 7 is
    an arm (sample table), damage 2d6 = 4 + 5."""
    out = hc.json("fire", *T2K, *M16, "-r", "30", "--dice", "3,7,4,5")
    assert out["hit_effects"] == [{"location": "arm", "damage": 9}]
    assert "hit locations" in " ".join(out["sample_values"])


# ---------------------------------------------------------------------------------------------
# Readings


@pytest.mark.parametrize(
    ("ruleset", "names"),
    [
        ("high-crusade", {"initiative-rolloff", "casualty-modifier", "regroup-after-rout",
                          "casualties-fall-on", "heavy-weapon-shots", "fire-after-melee",
                          "routed-attack"}),
        ("rogue-trader", {"seven-plus-chart", "deviation-table", "deviation-radius-between-rows",
                          "deviation-direction", "mounted-weapon-exemption",
                          "partly-under-marker", "volley-shares", "rally-test",
                          "reserve-move", "hiding-lasts", "engaged-move"}),
        ("t2k", {"aimed-burst-difficulty", "automatic-fire-band", "recoil-floor", "scope-bonus",
                 "laser-sight", "further-grenades", "reload-per-turn", "wound-initiative",
                 "outside-order-action", "zone-dice-kept", "zone-dice-remainder"}),
    ],
)  # fmt: skip
def test_tables_readings_lists_every_switch(hc, ruleset, names):
    listing = hc.json("tables", "readings", "--ruleset", ruleset)["tables"]["readings"]
    assert set(listing) == names | {"sealed-roll-forfeit"}  # every game's: a roll not revealed
    for entry in listing.values():
        assert entry["choice"] in entry["alternatives"] and entry["why"] and entry["source"]
    assert "choice" in hc("tables", "readings", "--ruleset", ruleset).stdout


def test_a_reading_flipped_by_house_rules_changes_the_result_and_replays(hc, house, tmp_path):
    fire = ("fire", *T2K, "--asset", "16", "--strength", "1", "-w", "m134", "-r", "50",
            "--shot", "aimed-burst")  # fmt: skip
    no_hit = house("ruleset: t2k\nreadings:\n  recoil-floor: {choice: no-hit}\n")
    assert hc.json(*fire, "--odds")["odds_exact"]["hit"] == "1/20"
    flipped = hc.json(*fire, "--odds", "--rules", no_hit)
    assert flipped["hit_number"] == 0 and flipped["odds_exact"]["hit"] == "0/1"
    assert "recoil-floor = no-hit (chosen by house.yaml)" in flipped["readings"]
    text = hc(*fire, "--rules", no_hit, "--seed", "3").stdout
    assert "reading: recoil-floor = no-hit" in text
    log = str(tmp_path / "game.log")
    assert hc(*fire, "--rules", no_hit, "--seed", "3", "--log", log).exit_code == 0
    replayed = hc("replay", log)
    assert replayed.exit_code == 0 and "1 reproduced" in replayed.stdout
    assert (
        "recoil-floor = no-hit (chosen by house.yaml)"
        in json.loads(Path(log).read_text())["result"]["readings"]
    )


def test_a_reading_must_choose_one_of_its_alternatives(hc, house):
    bad = house("ruleset: t2k\nreadings:\n  recoil-floor: {choice: sometimes}\n")
    err = hc.error("fire", *T2K, *M16, "-r", "30", "--rules", bad)
    assert "readings.recoil-floor.choice" in err and "floor-one, no-hit" in err


def test_high_crusade_casualty_reading(hc, house):
    """Regroup example: '-1 for the casualty suffered'."""
    rally = ("rally", "--troop", "crusader", "--casualties", "3", "--odds")
    once = hc.json(*rally)
    assert [m["value"] for m in once["modifiers"] if m["name"].startswith("casualties")] == [-1]
    each = house("ruleset: high-crusade\nreadings:\n  casualty-modifier: {choice: per-casualty}\n")
    per = hc.json(*rally, "--rules", each)
    assert [m["value"] for m in per["modifiers"] if m["name"].startswith("casualties")] == [-3]


def test_high_crusade_rolloff_reading(hc, house):
    first = house(
        "ruleset: high-crusade\nreadings:\n  initiative-rolloff: {choice: first-side-wins-ties}\n"
    )
    odds = hc.json("initiative", "--side", "A", "--side", "B", "--odds", "--rules", first)
    # D10 each: A wins on a higher roll or a tie: (45 + 10) / 100.
    assert odds["odds_exact"] == {"A": "11/20", "B": "9/20"}

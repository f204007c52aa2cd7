"""Rogue Trader: the charts as printed, the seed's examples, every shooting rule by --dice,
and the odds against seeded rolls."""

from __future__ import annotations

import math
import shlex
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hc_cli.core.dice import SeededDice
from hc_cli.rulesets.rogue_trader.commands import load_tables
from hc_cli.rulesets.rogue_trader.resolve import (
    DeviateRequest,
    FireRequest,
    deviate_odds,
    fire_odds,
    resolve_deviate,
    resolve_fire,
)

RT = ("--ruleset", "rogue-trader")
N = None
# The Strength/Toughness chart exactly as seed 003 prints it (rows S1..S10, columns T1..T10).
WOUND_CHART = [
    [4, 5, 6, 6, N, N, N, N, N, N],
    [3, 4, 5, 6, 6, N, N, N, N, N],
    [2, 3, 4, 5, 6, 6, N, N, N, N],
    [2, 2, 3, 4, 5, 6, 6, N, N, N],
    [2, 2, 2, 3, 4, 5, 6, 6, N, N],
    [2, 2, 2, 2, 3, 4, 5, 6, 6, N],
    [2, 2, 2, 2, 2, 3, 4, 5, 6, 6],
    [2, 2, 2, 2, 2, 2, 3, 4, 5, 6],
    [2, 2, 2, 2, 2, 2, 2, 3, 4, 5],
    [2, 2, 2, 2, 2, 2, 2, 2, 3, 4],
]


@pytest.fixture(scope="module")
def tables():
    return load_tables()


def fire(hc, *args):
    """`hc fire` by Rogue Trader's rules: its words, or its line as one string (as `hc` takes)."""
    return hc.json("fire", *RT, *(shlex.split(args[0]) if len(args) == 1 else args))


FRAG = ("--bs", "3", "-w", "frag-grenade", "-r", "6", "-t", "ork")  # a grenade thrown at an ork


@pytest.mark.parametrize("strength", range(1, 11))
@pytest.mark.parametrize("toughness", range(1, 11))
def test_wound_chart_cell_by_cell(hc, strength, toughness):
    out = fire(
        hc,
        "--bs",
        "6",
        "--strength",
        str(strength),
        "--toughness",
        str(toughness),
        "--save",
        "7",
        "--odds",
    )
    assert out["needed_to_wound"] == WOUND_CHART[strength - 1][toughness - 1]
    if WOUND_CHART[strength - 1][toughness - 1] is None:
        assert out["odds"]["wounded"] == out["odds"]["casualty"] == 0


@pytest.mark.parametrize(
    ("bs", "needed"),
    [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2), (7, 2), (8, 2), (9, 2), (10, 2)],
)
def test_bs_chart_with_the_floor_of_2(hc, bs, needed):
    out = fire(hc, "--bs", str(bs), "--strength", "3", "--toughness", "3", "--save", "7", "--odds")
    assert out["needed_to_hit"] == needed
    assert out["odds"]["miss"] == pytest.approx((needed - 1) / 6)


def test_bs_10_with_minus_3_still_needs_only_its_floor(hc):
    """BS 10 needs -3: even -5 of modifiers leaves it at 2 (the floor), not 2 - ..."""
    out = fire(hc, "--bs 10 --strength 3 --toughness 3 --mod -5 --save 7 --seed 1")
    assert out["needed_to_hit"] == 2


@pytest.mark.parametrize(
    ("weapon", "armour", "needed"),
    [
        ("bolt-gun", "mesh", 6),  # "Bolt gun -1, basic save with mesh 5, modified save 6"
        ("lascannon", "mesh", None),  # "-6, 5, no save"
        ("needler", "mesh", 4),  # "Needler +1, 5, 4"
        ("needler", "none", 6),  # "even a character with no armour has a save of 6"
    ],
)
def test_the_seeds_save_examples(hc, weapon, armour, needed):
    out = fire(hc, f"--bs 4 --weapon {weapon} --range 5 --toughness 3 --armour {armour} --seed 1")
    assert out["needed_to_save"] == needed


@pytest.mark.parametrize(("armour", "save"), [("flak", 6), ("mesh", 5), ("carapace", 4)])
def test_armour_saves(hc, armour, save):
    out = fire(hc, f"--bs 4 --strength 3 --save-mod 0 --toughness 3 --armour {armour} --seed 1")
    assert out["needed_to_save"] == save


def test_seed_ranges_and_weapon_modifiers(hc):
    """Bolt pistol 0-8 / 8-16 / 16, +2 short; laspistol +2 short, -1 long."""
    short = fire(hc, "--bs 3 -w bolt-pistol -r 8 --toughness 3 --seed 1")
    assert (short["band"], short["needed_to_hit"]) == ("short", 2)
    long_ = fire(hc, "--bs 3 -w bolt-pistol -r 16 --toughness 3 --seed 1")
    assert (long_["band"], long_["needed_to_hit"]) == ("long", 4)
    las = fire(hc, "--bs 3 -w laspistol -r 12 --toughness 3 --seed 1")
    assert (las["band"], las["needed_to_hit"]) == ("long", 5)
    assert 'out of range: bolt-pistol reaches 16"' in hc.error(
        "fire", *RT, "--bs", "3", "-w", "bolt-pistol", "-r", "16.5", "--toughness", "3"
    )


def test_a_whole_shot_by_dice(hc):
    """BS 4 (3+), S4 bolt gun against an ork (T4: 4+), flak 6 -1 = no save, 1 wound."""
    out = fire(hc, "--firer space-marine -w bolt-gun -r 10 -t ork --dice 2,4")
    assert [r["purpose"] for r in out["rolls"]] == ["to hit", "to wound"]
    assert (out["needed_to_hit"], out["needed_to_wound"], out["needed_to_save"]) == (2, 4, None)
    assert (out["outcome"], out["wounds"]) == ("casualty", 1)


@pytest.mark.parametrize(
    ("dice", "outcome", "wounds"),
    [
        ("3", "miss", 0),
        ("4,3", "no-wound", 0),
        ("4,4,5", "saved", 0),
        ("4,4,4,2", "wounded", 2),
        ("4,4,4,6", "casualty", 6),
    ],
)
def test_each_outcome_with_damage_dice(hc, dice, outcome, wounds):
    out = fire(
        hc,
        "--bs 3 --strength 4 --damage d6 --toughness 4 --armour mesh --save-mod 0 "
        f"--wounds-left 3 --dice {dice}",
    )
    assert (out["outcome"], out["wounds"]) == (outcome, wounds)


def test_wounds_taken_count_toward_w(hc):
    out = fire(hc, "--bs 3 --strength 6 --damage 1 -t ogryn --wounds-taken 2 --save 7 --dice 4,6")
    assert out["outcome"] == "casualty"  # W3, 2 taken, 1 more
    assert "--wounds-taken 3 does not fit W 3" in hc.error(
        "fire", *RT, "--bs", "3", "--strength", "6", "-t", "ogryn", "--wounds-taken", "3"
    )


def test_n_cannot_wound_said_plainly_without_a_roll(hc):
    out = fire(hc, "--bs 4 --strength 1 --toughness 5 --dice 6")
    assert out["outcome"] == "no-wound" and out["needed_to_wound"] is None
    assert any("N on the chart: it cannot wound" in e for e in out["explanation"])


def test_modifiers_each_flag(hc):
    out = fire(
        hc,
        "--bs 5 --strength 3 --toughness 3 --moving-surface --target-moved 25 --firer-wounded "
        "--soft-cover --improvised --allow-7plus --seed 1",
    )
    assert [(m["name"], m["value"]) for m in out["modifiers"]] == [
        ("moving-surface", -1),
        ("target-moved x2", -2),
        ("firer-wounded", -1),
        ("soft-cover", -1),
        ("improvised", -1),
    ]
    assert out["needed_to_hit"] == 8
    hard = fire(hc, "--bs 4 --strength 3 --toughness 3 --hard-cover --size large --seed 1")
    assert [(m["name"], m["value"]) for m in hard["modifiers"]] == [
        ("hard-cover", -2),
        ("large-target", 1),
    ]
    assert hard["needed_to_hit"] == 4


def test_small_target_from_its_profile(hc):
    out = fire(hc, "--bs 4 --strength 3 -t sump-rat --seed 1")
    assert ("small-target", -1) in [(m["name"], m["value"]) for m in out["modifiers"]]


def test_seven_plus_refused_unless_allowed(hc):
    err = hc.error("fire", *RT, *BS_1, "--mod", "-1")
    assert "needs 7 to hit: only if the GM allows" in err and "--allow-7plus" in err


BS_1 = ("--bs", "1", "--strength", "3", "--toughness", "3")  # needs 6 to hit, before modifiers


@pytest.mark.parametrize(("mod", "second"), [("-1", 4), ("-2", 5), ("-3", 6)])
def test_seven_plus_as_a_6_then_more(hc, mod, second):
    base = (*BS_1, "--save", "7", "--allow-7plus", "--mod", mod)
    hit = fire(hc, *base, "--dice", f"6,{second},6")
    assert hit["outcome"] == "casualty"
    assert [r["purpose"] for r in hit["rolls"]] == ["to hit", "to hit (after a 6)", "to wound"]
    assert fire(hc, *base, "--dice", f"6,{second - 1}")["outcome"] == "miss"
    assert fire(hc, *base, "--dice", "5")["outcome"] == "miss"
    odds = fire(hc, *base, "--odds")["odds"]
    assert odds["miss"] == pytest.approx(1 - (1 / 6) * (7 - second) / 6)


def test_ten_or_more_is_impossible(hc):
    err = hc.error("fire", *RT, *BS_1, "--allow-7plus", "--mod", "-4")
    assert "needs 10 or more to hit: impossible" in err


def test_unit_firing_sums_casualties(hc):
    out = fire(hc, "--bs 4 --strength 4 --toughness 3 --save 7 --shots 3 --dice 5,1,3,5,2")
    assert [s["outcome"] for s in out["shots"]] == ["casualty", "miss", "no-wound"]
    assert out["summary"] == {"shots": 3, "hits": 2, "wounds": 1, "saved": 0, "casualties": 1}


HEAVY_BOLTER = ("--bs", "4", "-w", "heavy-bolter", "-r", "10")  # following fire


def test_following_fire_stops_at_the_first_miss(hc):
    out = fire(
        hc,
        *HEAVY_BOLTER,
        "-t",
        "ork:a",
        "-t",
        "ork:b",
        "-t",
        "ork:c",
        "--dice",
        "5,6,1,2",
    )
    assert [s["outcome"] for s in out["shots"]] == ["casualty", "miss"]
    assert out["summary"]["targets_reached"] == 2


def test_following_fire_goes_on_after_a_saved_wound_and_stops_on_no_wound(hc):
    out = fire(
        hc,
        *HEAVY_BOLTER,
        "-t",
        "space-marine",
        "-t",
        "space-marine",
        "-t",
        "ork",
        "--dice",
        "5,5,6,4,1",
    )
    # shot 1: hit, wound, saved (power 4 - (-2) = 6): still wound damage, goes on;
    # shot 2: hit (4), no wound (1 < 3): stops before the ork.
    assert [s["outcome"] for s in out["shots"]] == ["saved", "no-wound"]
    assert any("stops at 2: space-marine" in e for e in out["explanation"])


def test_following_fire_odds_match_seeded_rolls(tables):
    req = FireRequest(bs=4, weapon="heavy-bolter", range=10, targets=("ork", "ork", "gretchin"))
    res = fire_odds(tables, req)
    casualties = res.odds.distributions["casualties"]
    assert sum(casualties.values()) == 1
    dice = SeededDice(31)
    seen = Counter(resolve_fire(tables, req, dice).summary["casualties"] for _ in range(6000))
    _close(seen, casualties, 6000)


def test_non_following_weapon_with_several_targets(hc):
    err = hc.error("fire", *RT, "--bs", "4", "-w", "bolt-gun", "-r", "5", "-t", "ork", "-t", "ork")
    assert "bolt-gun is no following-fire (F-type) weapon" in err


def test_slow_weapon_refuses_after_moving(hc):
    err = hc.error("fire", *RT, "--bs", "4", "-w", "lascannon", "-r", "10", "-t", "ork", "--moved")
    assert "slow (S-type) weapon: it cannot fire after moving" in err


def test_moving_vehicle_short_range_only(hc):
    moving = ("--bs", "4", "-w", "lasgun", "-r", "15", "-t", "ork", "--moving-surface")
    assert "short range only" in hc.error("fire", *RT, *moving)
    out = fire(hc, *moving, "--mounted-weapon", "--seed", "1")
    assert out["band"] == "long" and out["modifiers"][0]["name"] == "lasgun at long range"


def test_rider_or_mount_at_long_range(hc):
    mounted = ("-t", "human", "--mount", "horse")
    base = ("--bs", "4", "-w", "lasgun", "-r", "15", *mounted)
    rider = fire(hc, *base, "--dice", "5,3,6")
    assert rider["victim"] == "human" and rider["rolls"][1]["purpose"] == "crew or vehicle"
    mount = fire(hc, *base, "--dice", "5,4,6")
    assert mount["victim"] == "mount: horse"
    short = fire(
        hc, "--bs", "4", "-w", "lasgun", "-r", "5", *mounted, "--at-mount", "--dice", "5,6"
    )
    assert short["victim"] == "horse"


def test_firing_into_hand_to_hand(hc):
    at_ork = ("--bs", "4", "-w", "lasgun", "-r", "5", "-t", "ork", "--into-melee")
    base = (*at_ork, "--friend", "imperial-guard")
    assert fire(hc, *base, "--dice", "5,3,6")["victim"] == "ork"
    assert fire(hc, *base, "--dice", "5,4,6")["victim"] == "friend: imperial-guard"
    assert "--into-melee needs --friend" in hc.error("fire", *RT, *at_ork)


def test_area_weapon_deviates_first(hc):
    out = fire(hc, *FRAG, "--under", "2", "--dice", "4,5,7")
    assert out["outcome"] == "deviated" and out["distance"] == 3 and out["capped"] is True
    assert "shots" not in out


def test_area_weapon_on_target_rolls_for_each_model(hc):
    out = fire(
        hc,
        *FRAG,
        "--under",
        "3",
        "--partly",
        "1",
        "--dice",
        "1,4,4,2,3,5",  # deviation 1, to hit 4 4 2, then to wound 3 5 for the hits
    )
    assert [s["outcome"] for s in out["shots"]] == ["no-wound", "casualty", "miss"]
    assert out["shots"][2]["label"] == "3: ork"
    placed = fire(hc, *FRAG, "--placed", "--dice", "4,5")
    assert placed["summary"]["casualties"] == 1


def test_area_odds_include_the_deviation(hc):
    out = fire(hc, *FRAG, "--odds")
    assert out["odds_exact"]["deviated"] == "2/3"  # a 2" marker deviates on 3-6


@pytest.mark.parametrize(
    ("radius", "deviates"),
    [(0.5, "1/6"), (1, "1/3"), (1.5, "1/2"), (2, "2/3"), (2.5, "5/6"), (4, "5/6")],
)
def test_deviation_chance_by_radius(hc, radius, deviates):
    out = hc.json("deviate", *RT, "--radius", str(radius), "--range", "10", "--odds")
    assert out["odds_exact"]["deviated"] == deviates


def test_blasting_cover_adds_one(hc):
    out = hc.json("deviate", *RT, "--radius", "0.5", "--range", "10", "--blasting-cover", "--odds")
    assert out["odds_exact"]["deviated"] == "1/3"


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    radius=st.sampled_from([0.5, 1, 1.5, 2, 3]),
    measured=st.floats(0, 30, allow_nan=False),
)
def test_deviation_never_beyond_half_range(seed, radius, measured):
    res = resolve_deviate(
        load_tables(), DeviateRequest(radius=radius, range=measured), SeededDice(seed)
    )
    assert res.fields["distance"] <= measured / 2
    if res.outcome == "deviated":
        assert res.fields["direction"].endswith("o'clock")


def test_deviation_distance_odds(tables):
    res = deviate_odds(tables, DeviateRequest(radius=2, range=4))
    distance = res.odds.distributions["distance (inches)"]
    assert distance[0] == Fraction(1, 3)
    assert distance[2] == Fraction(2, 3) * Fraction(5, 6)  # 2..6 capped at half of 4"


def _close(seen: Counter, odds: dict, n: int) -> None:
    for k, p in odds.items():
        se = math.sqrt(float(p) * (1 - float(p)) / n) or 1 / n
        assert abs(seen.get(k, 0) / n - float(p)) <= 4.5 * se, (k, seen.get(k, 0) / n, float(p))


@pytest.mark.parametrize(
    "req",
    [
        FireRequest(bs=4, weapon="bolt-gun", range=10, targets=("ork",)),
        FireRequest(bs=3, strength=5, damage="d6", toughness=4, armour="mesh", wounds_left=3),
        FireRequest(bs=1, strength=4, toughness=3, allow_7plus=True, mods=()),
    ],
)
def test_single_shot_odds_match_seeded_rolls(tables, req):
    odds = fire_odds(tables, req).odds
    dice = SeededDice(99)
    results = [resolve_fire(tables, req, dice) for _ in range(20000)]
    _close(Counter(r.outcome for r in results), odds.outcomes, 20000)
    _close(Counter(r.fields["wounds"] for r in results), odds.distributions["wounds"], 20000)


def test_unit_casualty_distribution_matches_seeded_rolls(tables):
    req = FireRequest(bs=4, weapon="lasgun", range=10, targets=("ork",), shots=5)
    res = fire_odds(tables, req)
    casualties = res.odds.distributions["casualties"]
    dice = SeededDice(5)
    seen = Counter(resolve_fire(tables, req, dice).summary["casualties"] for _ in range(5000))
    _close(seen, casualties, 5000)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bs", "0", "--strength", "3", "--toughness", "3"), "BS 0"),
        (("--firer", "sump-rat", "--strength", "3", "--toughness", "3"), "may not shoot or throw"),
        (("--bs", "4", "-w", "bolt-gn", "-r", "3", "--toughness", "3"), "did you mean 'bolt-gun'?"),
        (("--bs", "4", "-w", "bolt-gun", "-r", "30", "--toughness", "3"), "out of range"),
        (("--bs", "4", "-w", "bolt-gun", "--toughness", "3"), "--range is needed"),
        (("--bs", "4", "--strength", "3"), "no target given"),
        (("--bs", "4", "--toughness", "3"), "no weapon given and no --strength"),
        (
            ("--bs", "4", "--strength", "11", "--toughness", "3"),
            "Strength 11 is off the wound chart",
        ),
        (
            ("--bs", "4", "--strength", "3", "--toughness", "0"),
            "Toughness 0 is off the wound chart",
        ),
        (("--bs", "4", "--strength", "3", "--toughness", "3", "--dice", "7"), "a d6 takes 1..6"),
        (
            ("--bs", "4", "--strength", "3", "--toughness", "3", "--dice", "4"),
            "ran out at roll 2: d6 for to wound",
        ),
        (
            ("--bs", "4", "--strength", "3", "--toughness", "3", "--save", "7", "--dice", "1,2"),
            "1 value(s) too many",
        ),
        (
            ("--bs", "4", "--strength", "3", "--toughness", "3", "--df", "3"),
            "--df is not an option of rogue-trader fire; high-crusade fire has it",
        ),
        (("--bs", "4", "--strength", "3", "--toughness", "3", "--damage", "lots"), "cannot read"),
        (
            ("--bs", "4", "--strength", "3", "--toughness", "3", "--armour", "meshh"),
            "did you mean 'mesh'?",
        ),
        (("--bs", "4", "--strength", "3", "--toughness", "3", "--under", "2"), "for area weapons"),
        (
            ("--bs", "4", "--strength", "3", "--toughness", "3", "--mod", "ambushed"),
            "unknown modifier 'ambushed'",
        ),
    ],
)
def test_bad_input(hc, args, message):
    assert message in hc.error("fire", *RT, *args)


def test_deviate_bad_input(hc):
    assert "--range is needed" in hc.error("deviate", *RT, "--radius", "2")
    assert "lasgun has no area marker" in hc.error("deviate", *RT, "-w", "lasgun", "-r", "5")
    assert "high-crusade has no 'deviate' command" in hc.error("deviate --radius 2")
    assert "rogue-trader has no 'morale' command" in hc.error("morale", *RT, "--ambushed")


def test_move_seed_examples(hc):
    # "a human wearing a suit of mesh armour suffers a penalty of -1/2": M 4 -> 3 1/2
    assert hc.json("move", *RT, "--profile", "human", "--armour", "mesh")["move"] == 3.5
    # "M of 4 ... 1" through difficult terrain and 2" through normal terrain"
    out = hc.json("move", *RT, "--m", "4", "--difficult", "1")
    assert (out["open_ground"], out["seed"], out["rolls"]) == (2, None, [])
    # The Space Marine turning: 180 degrees, 2 1/2", 180 degrees again: 1/2 + 2 1/2 + 1 = 4
    assert hc.json("move", *RT, "--m", "4", "--turns", "4")["open_ground"] == 2.5
    # "a model which normally has a move of 4 will travel only 2 over difficult ground";
    # very difficult: quarter rate, 1
    out = hc.json("move", *RT, "--m", "4")
    assert (out["difficult_ground"], out["very_difficult_ground"]) == (2, 1)


def test_move_rounds_up_to_half_inches_and_charges(hc):
    out = hc.json("move", *RT, "--m", "3.5")
    assert (out["difficult_ground"], out["very_difficult_ground"]) == (2, 1)  # 1.75, 0.875
    assert hc.json("move", *RT, "--m", "4", "--charge")["move"] == 8
    assert hc.json("move", *RT, "--m", "4", "--obstacle")["open_ground"] == 2


def test_move_bad_input(hc):
    assert 'that ground needs 6" of move' in hc.error("move", *RT, "--m", "4", "--difficult", "3")
    assert "no move given" in hc.error("move", *RT)
    assert "rolls no dice" in hc.error("move", *RT, "--m", "4", "--odds")
    assert "--m -1 is out of bounds: 0..100000 inches" in hc.error("move", *RT, "--m", "-1")
    assert "high-crusade has no 'move' command" in hc.error("move --m 4")


def test_closed_room_hits_every_occupant_without_a_to_hit_roll(hc):
    out = fire(hc, "--bs 1 -w frag-grenade -r 6 -t ork --under 2 --closed-room --placed --dice 5,6")
    assert [s["outcome"] for s in out["shots"]] == ["casualty", "casualty"]
    assert [r["purpose"] for s in out["shots"] for r in s["rolls"]] == ["to wound", "to wound"]


def test_a_modifier_given_by_its_option_and_by_name_applies_once(hc):
    """--hard-cover --mod hard-cover is the one modifier said twice: BS 4 needs 3, +1 for the
    bolt gun at short range, -2 for hard cover (seed 003): 4, not 6."""
    line = "--bs 4 -w bolt-gun -r 10 -t ork --hard-cover"
    alone, twice = fire(hc, f"{line} --dice 6,6"), fire(hc, f"{line} --mod hard-cover --dice 6,6")
    assert alone["needed_to_hit"] == twice["needed_to_hit"] == 4
    assert [m["name"] for m in twice["modifiers"]].count("hard-cover") == 1

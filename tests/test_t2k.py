"""Twilight: 2000 combat rules v1.1: each rule of RULES.md's t2k section by its numbers."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest

from hc_cli.core.dice import SeededDice
from hc_cli.rulesets.t2k.commands import load_tables
from hc_cli.rulesets.t2k.initiative import InitiativeRequest, initiative_odds
from hc_cli.rulesets.t2k.resolve import FireRequest, fire_odds, resolve_fire

T2K = ("--ruleset", "t2k")
RIFLE = ("--short-range", "50", "--rof", "sa", "--recoil", "2", "--strength", "5")
NPC_RIFLE = ("--asset", "16", *RIFLE, "--range", "40", "--npc")  # an NPC shot at, at Short


def fire(hc, *args):
    return hc.json("fire", *T2K, *args)


def gun(rof, recoil="5", strength="5"):
    """A firer of Asset 16 with a gun of short range 50 m, its ROF and recoil given."""
    weapon = ("--short-range", "50", "--rof", rof, "--recoil", recoil, "--strength", strength)
    return ("--asset", "16", *weapon)


@pytest.fixture(scope="module")
def tables():
    return load_tables()


@pytest.mark.parametrize(
    ("distance", "band", "difficulty", "hit"),
    [
        ("50", "short", "average", 16),
        ("51", "medium", "difficult", 8),
        ("100", "medium", "difficult", 8),
        ("200", "long", "formidable", 4),
        ("400", "extreme", "impossible", 2),
    ],
)
def test_range_bands_double_and_each_is_a_level_harder(hc, distance, band, difficulty, hit):
    out = fire(hc, "--asset", "16", *RIFLE, "--range", distance, "--seed", "1")
    assert out["bands"] == {"short": 50, "medium": 100, "long": 200, "extreme": 400}
    assert (out["band"], out["difficulty"], out["hit_number"]) == (band, difficulty, hit)


def test_beyond_extreme_no_shot(hc):
    assert "out of range" in hc.error("fire", *T2K, "--asset", "16", *RIFLE, "--range", "401")


def test_multipliers_round_down_never_below_1(hc):
    assert fire(hc, "--asset", "13", *RIFLE, "--range", "60", "--seed", "1")["hit_number"] == 6
    assert fire(hc, "--asset", "7", *RIFLE, "--range", "400", "--seed", "1")["hit_number"] == 1
    easy = hc.json("fire", *T2K, "--asset", "7", *RIFLE, "--range", "10", "--seed", "1")
    assert easy["difficulty"] == "average"


@pytest.mark.parametrize(
    ("flags", "difficulty"),
    [
        (("--shot", "quick"), "difficult"),
        (("--obscured",), "difficult"),
        (("--target-speed", "30"), "difficult"),
        (("--target-speed", "59"), "difficult"),
        (("--target-speed", "60"), "formidable"),
        (("--target-kph", "86"), "impossible"),
        (("--target-kph", "22"), "difficult"),
        (("--shot", "quick", "--obscured"), "formidable"),
    ],
)
def test_difficulty_steps(hc, flags, difficulty):
    out = fire(hc, "--asset", "16", *RIFLE, "--range", "40", *flags, "--seed", "1")
    assert out["difficulty"] == difficulty


def test_beyond_impossible_no_shot(hc):
    err = hc.error("fire", *T2K, "--asset", "16", *RIFLE, "--range", "400", "--shot", "quick")
    assert "harder than impossible: no shot" in err


def test_recoil_arithmetic(hc):
    """SS recoil x shots against Strength; the excess comes off the hit number."""
    base = ("--asset", "16", "--short-range", "50", "--rof", "sa", "--recoil", "2", "--range", "40")
    out = fire(hc, *base, "--strength", "5", "--shots", "4", "--seed", "1")
    assert (out["recoil"], out["hit_number"]) == (8, 13)  # 16 - (8 - 5)
    assert fire(hc, *base, "--strength", "5", "--shots", "2", "--seed", "1")["hit_number"] == 16
    quick = ("--shot", "quick", "--seed", "1")
    walking = fire(hc, *base, "--strength", "5", "--shots", "3", "--movement", "walking", *quick)
    assert walking["hit_number"] == 8 - (6 - 4)  # quick: 16/2 = 8; Strength 5 - 1
    trotting = fire(hc, *base, "--strength", "5", "--shots", "2", "--movement", "trotting", *quick)
    assert trotting["hit_number"] == 8 - (4 - 2)  # half of 5 is 2
    two = fire(hc, *base, "--strength", "4", "--shots", "2", "--two-weapons", "--seed", "1")
    assert two["hit_number"] == 16 - (4 - 3)


def test_braced_pistol(hc):
    base = ("--asset", "10", "--weapon", "m1911", "--range", "5", "--strength", "4")
    assert fire(hc, *base, "--shots", "2", "--seed", "1")["hit_number"] == 10 - (6 - 4)
    assert fire(hc, *base, "--shots", "2", "--seed", "1", "--braced")["hit_number"] == 10
    rifle = ("--asset", "10", "--weapon", "m16a2", "--range", "5", "--strength", "4")
    assert "--braced is for a pistol" in hc.error("fire", *T2K, *rifle, "--braced")


def test_shots_per_action_by_rof(hc):
    def at_10_m(weapon, strength, shots):
        return (
            "--asset",
            "10",
            "--weapon",
            weapon,
            "--range",
            "10",
            "--strength",
            strength,
            "--shots",
            shots,
        )

    assert "fires 1" in hc.error("fire", *T2K, *at_10_m("m79", "5", "2"))
    assert fire(hc, *at_10_m("remington-870", "9", "3"), "--seed", "1")["hits"] <= 3
    laser = fire(hc, *at_10_m("m79", "9", "3"), "--laser-sight", "--seed", "1")
    assert laser["rolls"][2]["purpose"] == "to hit #3"


def test_scope(hc):
    out = fire(hc, "--asset", "16", *RIFLE, "--range", "400", "--scope", "--seed", "1")
    assert (out["band"], out["measured_band"]) == ("long", "extreme")  # counts as Long
    assert (out["difficulty"], out["hit_number"]) == ("formidable", 4 + 15)
    quick = fire(
        hc, "--asset", "16", *RIFLE, "--range", "40", "--scope", "--shot", "quick", "--seed", "1"
    )
    assert quick["hit_number"] == 8


@pytest.mark.parametrize(
    ("size", "distance", "recoil", "strength", "dice"),
    [
        ("3", "50", "5", "5", 3),  # Short, recoil within Strength: all 3
        ("3", "200", "5", "5", 1),  # Long: 2 bands x 1 = 2 lost
        ("3", "400", "5", "5", 1),  # Extreme: 3 lost, never fewer than 1
        ("5", "100", "5", "5", 3),  # Medium: 2 lost
        ("5", "50", "7", "5", 3),  # recoil 2 over Strength: 2 lost
        ("5", "200", "9", "5", 1),  # 4 for range, 4 for recoil: at least 1
        ("10", "100", "5", "5", 7),  # Medium: 3 lost
        ("10", "50", "7", "5", 6),  # 10-round bursts lose double the excess: 4
        ("10", "400", "9", "5", 2),  # 9 + 8 lost: at least 2
    ],
)
def test_burst_dice_lost(hc, size, distance, recoil, strength, dice):
    out = fire(
        hc, *gun(size, recoil, strength), "--range", distance, "--shot", "burst", "--seed", "1"
    )
    assert out["dice"] == dice
    assert out["difficulty"] == "impossible" and out["hit_number"] == 2
    assert sum(1 for r in out["rolls"] if r["purpose"].startswith("to hit")) == dice


def test_fifty_round_burst_counts_triple(hc):
    m134 = (
        "--asset",
        "16",
        "--weapon",
        "m134",
        "--strength",
        "12",
        "--range",
        "50",
        "--shot",
        "burst",
    )
    out = fire(
        hc,
        *m134,
        "--location",
        "arm",
        "--damage-done",
        "5",  # each hit's location and damage given: only the burst's dice are rolled
        "--dice",
        "1,2,1,20,20,20,20,20,20,20",
    )
    assert out["dice"] == 10
    assert out["hits"] == 3 * 3
    odds = fire(hc, *m134, "--odds")
    assert set(int(k) % 3 for k in odds["distributions"]["hits"]) == {0}


def test_danger_zone_halves_the_misses(hc):
    out = fire(
        hc,
        *gun("10"),
        "--range",
        "20",
        "--shot",
        "burst",
        "--zone",
        "Far:4",
        "--zone",
        "Near:1",
        "--zone",
        "Out:6",
        "--location",
        "leg",
        "--damage-done",
        "4",
        "--dice",
        "1,20,20,20,20,20,20,20,20,20," + "1,2,20,20," + "3,4,9,2",
    )
    # 10 dice, 1 hit, 9 misses: 4 dice at the zone, nearest first; 2 of them missed: 1 kept.
    assert (out["hits"], out["zone_dice"], out["kept_back"]) == (1, 4, 1)
    assert out["zone_hits"] == {"Near": 1, "Far": 1}
    # Each zone hit lands and does damage too, after the target's (--location and
    # --damage-done are the target's).
    assert out["zone_effects"] == {
        "Near": [{"location": "chest", "damage": 4}],
        "Far": [{"location": "leg", "damage": 2}],
    }
    assert out["danger_zone"]["targets"] == ["Near", "Far"]
    assert any("outside the danger zone (5 m): Out" in e for e in out["explanation"])


def test_danger_zone_never_wider_than_the_range(hc):
    out = fire(hc, *gun("3"), "--range", "3", "--shot", "burst", "--zone", "A:4", "--seed", "1")
    assert out["danger_zone"] == {"width": 3, "targets": []}


def test_aimed_burst_is_one_task_then_d3(hc):
    aimed = (*gun("5"), "--range", "40", "--shot", "aimed-burst")
    out = fire(hc, *aimed, "--location", "leg", "--damage-done", "3", "--dice", "8,3")
    assert (out["difficulty"], out["hit_number"], out["hits"]) == ("difficult", 8, 3)
    miss = fire(hc, *aimed, "--dice", "9")
    assert (miss["outcome"], miss["hits"]) == ("miss", 0)


@pytest.mark.parametrize(
    ("kill_die", "damage", "outcome"),
    [("5", "7", "quick-kill"), ("7", "7", "quick-kill"), ("8", "7", "hit"), ("10", "12", "hit")],
)
def test_quick_kill_except_10(hc, kill_die, damage, outcome):
    out = fire(
        hc, *NPC_RIFLE, "--location", "head", "--damage-done", damage, "--dice", f"3,{kill_die}"
    )
    assert out["outcome"] == outcome


def test_quick_kill_only_head_or_chest(hc):
    out = fire(hc, *NPC_RIFLE, "--location", "leg", "--damage-done", "9", "--dice", "3")
    assert out["outcome"] == "hit"
    odds = fire(hc, *NPC_RIFLE, "--location", "chest", "--damage-done", "9", "--odds")
    assert odds["odds_exact"]["quick-kill"] == "18/25"  # hits 16/20, then 9 of 10 faces but 10


def test_shotguns(hc):
    base = ("--asset", "16", "--weapon", "remington-870", "--strength", "9")
    short = fire(hc, *base, "--range", "20", "--seed", "1")
    assert (short["band"], short["difficulty"]) == ("short", "average")
    medium = fire(hc, *base, "--range", "40", "--seed", "1")
    assert (medium["dice"], medium["difficulty"], medium["penetration"]) == (7, "impossible", "nil")
    assert "buckshot reaches only medium range" in hc.error("fire", *T2K, *base, "--range", "41")
    spas = ("--asset", "16", "--weapon", "spas-12-flechette", "--strength", "9")
    flechette = fire(hc, *spas, "--range", "100", "--seed", "1")
    assert (flechette["band"], flechette["dice"], flechette["penetration"]) == ("long", 4, "nil")
    assert fire(hc, *spas, "--range", "50", "--seed", "1")["penetration"] == "1"


def test_automatic_shotgun(hc):
    base = ("--asset", "16", "--weapon", "aa-12", "--strength", "5", "--shot", "burst")
    short = fire(hc, *base, "--range", "20", "--seed", "1")
    # each round a direct-fire task (quick: Difficult), 5 rounds less 1 for recoil 6 vs 5
    assert (short["difficulty"], short["hit_number"], short["dice"]) == ("difficult", 8, 4)
    medium = fire(hc, *base, "--range", "40", "--seed", "1")
    assert medium["dice"] == (5 - 2 - 1) * 7  # rounds after range and recoil, 7 pellets each


def test_movement(hc):
    base = ("--asset", "16", *RIFLE, "--range", "40")
    assert "no firing while running" in hc.error("fire", *T2K, *base, "--movement", "running")
    assert "no firing while crawling" in hc.error("fire", *T2K, *base, "--movement", "crawling")
    assert "no aimed shots while walking" in hc.error("fire", *T2K, *base, "--movement", "walking")
    assert "moving vehicle" in hc.error("fire", *T2K, *base, "--movement", "vehicle")
    vehicle = fire(hc, *base, "--movement", "vehicle", "--shot", "quick", "--seed", "1")
    assert vehicle["difficulty"] == "formidable"  # quick, and one band further
    boat = fire(hc, *base, "--movement", "boat", "--seed", "1")
    assert boat["difficulty"] == "difficult"
    saddle = fire(hc, *base, "--movement", "saddle", "--riding", "9", "--seed", "1")
    assert saddle["hit_number"] == 9
    assert "--riding" in hc.error("fire", *T2K, *base, "--movement", "saddle")


def test_riders(hc):
    base = ("--asset", "10", *RIFLE, "--range", "40", "--riders")
    other = fire(hc, *base, "--dice", "15,1,0,8,4")  # the other's location and damage
    assert other["hit_other"] is True and other["outcome"] == "hit-other"
    assert other["other_effects"] == [{"location": "leg", "damage": 4}]
    assert fire(hc, *base, "--dice", "15,1,1")["hit_other"] is False
    assert any("10%" in s for s in fire(hc, *base, "--dice", "15,5,5")["sample_values"])


def test_thrown(hc):
    base = ("--thrown", "--asset", "12", "--throw-range", "20", "--weight", "2", "--strength", "4")
    near = fire(hc, *base, "--range", "10", "--dice", "6,7,3")  # to hit, location, damage
    assert (near["band"], near["difficulty"], near["hit_number"]) == ("effective", "difficult", 6)
    assert near["damage"] == 3 + 4 and near["penetration"] == "nil"
    far = fire(hc, *base, "--range", "20", "--seed", "1")
    assert (far["band"], far["difficulty"], far["hit_number"]) == ("long", "formidable", 3)
    assert "no throw" in hc.error("fire", *T2K, *base, "--range", "21")
    knife = fire(
        hc,
        "--thrown",
        "--weapon",
        "knife",
        "--asset",
        "12",
        "--throw-range",
        "20",
        "--range",
        "5",
        "--dice",
        "1,2,5",
    )
    assert knife["damage"] == 5  # knives 1d6 whatever the Strength
    assert knife["hit_effects"] == [{"location": "chest", "damage": 5}]


def test_grenade_deviates_on_a_miss(hc):
    base = (
        "--thrown",
        "--weapon",
        "frag-grenade",
        "--asset",
        "12",
        "--throw-range",
        "20",
        "--strength",
        "4",
    )
    effective = fire(hc, *base, "--range", "16", "--dice", "20,4,3")
    assert (effective["outcome"], effective["distance"], effective["direction"]) == (
        "miss",
        4,
        "3 o'clock",
    )
    long_ = fire(hc, *base, "--range", "30", "--dice", "20,4,3")
    assert long_["distance"] == 8  # x 2 m at long range
    capped = fire(hc, *base, "--range", "8", "--dice", "20,6,3")
    assert (capped["distance"], capped["capped"]) == (4, True)  # half the 8 m throw
    further = fire(hc, *base, "--range", "16", "--grenade-number", "3", "--seed", "1")
    assert further["hit_number"] == (12 + 2) // 2


def test_deviate_command(hc):
    out = hc.json("deviate", *T2K, "--range", "30", "--band", "long", "--dice", "5,9")
    assert (out["distance"], out["direction"]) == (10, "9 o'clock")
    throw = ("--throw-range", "20", "--weight", "0.5", "--dice", "2,9")
    derived = hc.json("deviate", *T2K, "--range", "15", *throw)
    assert (derived["band"], derived["distance"]) == ("effective", 2)  # 0.5 kg throws as 1 kg
    assert hc.json("deviate", *T2K, "--range", "21", *throw)["band"] == "long"
    odds = hc.json("deviate", *T2K, "--range", "4", "--band", "effective", "--odds")
    assert odds["distributions_exact"]["distance (metres)"]["2.0"] == "5/6"


def test_burst_hits_match_seeded_rolls(tables):
    req = FireRequest(
        asset=16,
        short_range=50,
        rof="10",
        recoil=5,
        strength=5,
        range=60,
        shot="burst",
        zone=("A:2",),
    )
    res = fire_odds(tables, req)
    hits = res.odds.distributions["hits"]
    assert hits[0] == Fraction(18, 20) ** 7  # 7 dice at 2 or less on a d20
    dice = SeededDice(3)
    seen = Counter(resolve_fire(tables, req, dice).fields["hits"] for _ in range(20000))
    for k, p in hits.items():
        se = math.sqrt(float(p) * (1 - float(p)) / 20000) or 1 / 20000
        assert abs(seen.get(k, 0) / 20000 - float(p)) <= 4.5 * se


def test_initiative_order_extra_actions_and_wounds(hc):
    out = hc.json(
        "initiative",
        *T2K,
        "--char",
        "Kowalski:6:serious:7:3",
        "--char",
        "Ivanov:8",
        "--char",
        "Smith:11:slight",
        "--seed",
        "1",
    )
    # Kowalski 6 - 3 = 3; Ivanov 8, extra at 4; Smith 11 - 1 = 10, extra at 5 (half, down).
    assert out["order"] == [
        {"name": "Smith", "initiative": 10, "extra": False},
        {"name": "Ivanov", "initiative": 8, "extra": False},
        {"name": "Smith", "initiative": 5, "extra": True},
        {"name": "Ivanov", "initiative": 4, "extra": True},
        {"name": "Kowalski", "initiative": 3, "extra": False},
    ]
    assert out["rolls"] == []


def test_extra_action_only_above_5(hc):
    out = hc.json(
        "initiative", *T2K, "--char", "A:5", "--char", "B:6", "--char", "C:7", "--dice", "4,9"
    )
    order = [(o["name"], o["initiative"], o["extra"]) for o in out["order"]]
    assert order[:3] == [("C", 7, False), ("B", 6, False), ("A", 5, False)]
    # B and C both get an extra action at 3 (half, rounded down); A at 5 does not. Their tie
    # goes to the die: the 9 acts first.
    rolled = {r["purpose"]: r["value"] for r in out["rolls"]}
    first = max(rolled, key=rolled.get).removeprefix("tie: ").removesuffix(" (extra)")
    assert sorted(rolled.values()) == [4, 9]
    other = ({"B", "C"} - {first}).pop()
    assert order[3:] == [(first, 3, True), (other, 3, True)]


def test_tie_break_chain(hc):
    # Same Initiative: higher Agility - bulk first; then higher Agility; then a die.
    out = hc.json(
        "initiative",
        *T2K,
        "--char",
        "A:4::6:3",
        "--char",
        "B:4::5:1",
        "--char",
        "C:4::7:4",
        "--char",
        "D:4::6:3",
        "--dice",
        "2,9",
    )
    assert [o["name"] for o in out["order"]] == ["B", "C", "D", "A"]
    assert [r["purpose"] for r in out["rolls"]] == ["tie: A", "tie: D"]


def test_tie_odds_are_even(tables):
    """'Ties are resolved by Agility minus bulk of weapon, then raw agility score, then die
    roll': B gives no Agility, so its extra action at 4 cannot be compared with A and D on
    Agility; the three go to the die (before, B counted as Agility 0 and lost every tie)."""
    res = initiative_odds(tables, InitiativeRequest(("A:4::6:3", "D:4::6:3", "B:9")))
    orders = {"B, " + ", ".join(p) for p in __import__("itertools").permutations(
        ["A", "D", "B (extra)"])}  # fmt: skip
    assert res.odds.outcomes == dict.fromkeys(orders, Fraction(1, 6))
    both_known = initiative_odds(tables, InitiativeRequest(("A:4::6:3", "D:4::6:3", "B:9::5:5")))
    # With its Agility given (5 - 5 = 0 < 3), B's extra action loses the tie outright.
    assert both_known.odds.outcomes == {
        "B, A, D, B (extra)": Fraction(1, 2),
        "B, D, A, B (extra)": Fraction(1, 2),
    }


def test_initiative_notes_and_roster(hc, tmp_path):
    roster = tmp_path / "squad.yaml"
    roster.write_text(
        "- {name: Kowalski, initiative: 6, wounds: serious, agility: 7, bulk: 3}\n"
        "- {name: Ivanov, initiative: 8}\n"
    )
    out = hc.json(
        "initiative",
        *T2K,
        "--roster",
        str(roster),
        "--ambush",
        "Ivanov",
        "--knocked-down",
        "kowalski",
        "--seed",
        "1",
    )
    assert any("Ivanov: acts outside the Initiative order: ambush" in e for e in out["explanation"])
    assert any(
        "Kowalski: involuntary action: panics (knocked down)" in e for e in out["explanation"]
    )
    bad = tmp_path / "bad.yaml"
    bad.write_text("- {name: Kowalski, initiative: six}\n")
    assert "bad.yaml:1: [0].initiative: 'six' is not a whole number" in hc.error(
        "initiative", *T2K, "--roster", str(bad)
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("fire", "--asset", "10", "--short-range", "50", "--range", "10"), "no Strength given"),
        (("fire", "--short-range", "50", "--strength", "5", "--range", "10"), "no asset given"),
        (
            ("fire", "--asset", "10", "--weapon", "m16", "--strength", "5", "--range", "10"),
            "did you mean 'm16a2'",
        ),
        (
            ("fire", "--asset", "10", *RIFLE, "--range", "-1"),
            "--range -1 is out of bounds: 0..100000 metres",
        ),
        (
            ("fire", "--asset", "10", *RIFLE, "--range", "10", "--shot", "snap"),
            "not a kind of shot",
        ),
        (("fire", "--asset", "10", *RIFLE, "--range", "10", "--shot", "burst"), "fires no bursts"),
        (
            ("fire", "--asset", "10", *RIFLE, "--range", "10", "--rof", "7", "--shot", "burst"),
            "no burst rule for 7 rounds",
        ),
        (
            ("fire", "--asset", "10", *RIFLE, "--range", "10", "--movement", "flying"),
            "unknown movement 'flying'",
        ),
        (
            ("fire", "--asset", "10", *RIFLE, "--range", "10", "--npc", "--location", "tail"),
            "unknown hit location 'tail'",
        ),
        (
            ("fire", "--asset", "10", *RIFLE, "--range", "10", "--zone", "Bob:1"),
            "--zone is for bursts",
        ),
        (
            (
                "fire",
                "--asset",
                "10",
                "--short-range",
                "50",
                "--rof",
                "5",
                "--recoil",
                "3",
                "--strength",
                "5",
                "--range",
                "10",
                "--shot",
                "burst",
                "--zone",
                "Bob",
            ),
            "NAME:METRES",
        ),
        (("fire", "--asset", "10", *RIFLE, "--range", "10", "--dice", "21"), "a d20 takes 1..20"),
        (
            ("fire", "--asset", "10", *RIFLE, "--range", "10", "--bs", "3"),
            "--bs is not an option of t2k fire; rogue-trader fire has it",
        ),
        (("initiative", "--char", "Bob"), "--char 'Bob' cannot be read"),
        (("initiative", "--char", "Bob:x"), "whole numbers"),
        (("initiative", "--char", "Bob:5:grazed"), "unknown wound level 'grazed'"),
        (("initiative", "--char", "Bob:5", "--ambush", "Rob"), "unknown character 'Rob'"),
        (("initiative",), "no characters given"),
        (
            ("initiative", "--side", "A", "--side", "B"),
            "--side is not an option of t2k initiative; high-crusade",
        ),
        (("deviate", "--band", "long"), "--range is needed"),
        (("morale", "--ambushed"), "t2k has no 'morale' command"),
        (("move", "--m", "4"), "t2k has no 'move' command\n  rogue-trader has it"),
    ],
)
def test_bad_input(hc, args, message):
    assert message in hc.error(args[0], *T2K, *args[1:])


def test_a_throw_is_one_task(hc):
    err = hc.error(
        "fire",
        *T2K,
        "--thrown",
        "--asset",
        "12",
        "--throw-range",
        "20",
        "--weight",
        "2",
        "--strength",
        "4",
        "--range",
        "10",
        "--shots",
        "2",
    )
    assert "a throw is one task" in err


def test_house_weapon_naming_an_unknown_ammunition(hc, house):
    path = house(
        "ruleset: t2k\nweapons:\n  blunderbuss: {type: black-powder, short: 10, "
        "damage: 2d6, ammo: nails}\n"
    )
    err = hc.error("rules", "check", path)
    assert "weapons.blunderbuss.ammo: 'nails' is not in the ammunition table" in err
    assert "ammunition: buckshot, flechette" in err

"""Rules fidelity, from two more independent audits: what they found. Each test quotes the text it
follows; expected values are worked by hand or by an enumeration written here, never taken from
what hc prints."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hc_cli.cli.app import app

RT = ("--ruleset", "rogue-trader")
T2K = ("--ruleset", "t2k")


# ---------------------------------------------------------------------------------------------
# Rogue Trader (seed 003)

LASCANNON_AT_T5 = (
    "fire", *RT, "--bs", "4", "--strength", "9", "--toughness", "5", "--save", "3", "--save-mod",
    "-6", "--damage", "2d6", "--wounds-left", "8", "--short", "20", "--long", "60", "--range",
    "30", "--shots", "3",
)  # fmt: skip


def test_multi_die_damage_is_one_roll_a_wound(hc):
    """'Some weapons, however are more powerful, and cause D4, D6, D10 or even more wounds':
    the damage of one wound is one roll of all its dice. To hit 3 1 5 (2 hits), to wound 2 6,
    then the first wounded model's 2D6 (6 + 2 = 8: W8, a casualty), then the next one's
    (1 + 1 = 2)."""
    out = hc.json(*LASCANNON_AT_T5, "--dice", "3,1,5,2,6,6,2,1,1")
    assert [s["outcome"] for s in out["shots"]] == ["casualty", "miss", "wounded"]
    assert [s["wounds"] for s in out["shots"]] == [8, 0, 2]
    assert out["summary"]["casualties"] == 1
    assert out["phases"][-1] == "damage: 6 2 1 1 -> 10 wounds caused"


def test_multi_die_damage_of_one_model_adds_up_in_its_rolls(hc):
    """--one-model: the same, each wound's 2D6 together, in the order of the shots."""
    out = hc.json(*LASCANNON_AT_T5, "--one-model", "--dice", "3,1,5,2,6,3,2,3,1")
    assert [s["wounds"] for s in out["shots"]] == [5, 0, 4]  # 3+2, then 3+1
    assert [s["outcome"] for s in out["shots"]] == ["wounded", "miss", "casualty"]


def test_multi_die_damage_is_asked_for_together(hc):
    """`--dice ask`: one prompt a wound for its two dice, and two values on its line."""
    result = hc.runner.invoke(
        app, [*LASCANNON_AT_T5, "--dice", "ask", "--json"], input="3 1 5\n2 6\n6 2\n1 1\n"
    )
    assert result.exit_code == 0, result.output
    prompts = result.stderr.splitlines()
    assert prompts[2] == "roll 2 D6 damage (shot 1): 6 2"
    assert prompts[3] == "roll 2 D6 damage (shot 3): 1 1"
    assert '"casualties": 1' in result.stdout


def test_following_fire_passes_over_a_removed_model(hc):
    """'the weapon may be fired again, either at the same target or at a new target within 4"
    of the original': after the ogryn is removed, the next shot goes to the next listed model
    still on the table. Heavy bolter (S5, d4, save -2: flak never saves), BS4 hits on 3+ (2/3);
    ogryn T5 W3 wounded on 4+, ork T4 W1 on 3+. Enumerated by hand below."""
    hit = Fraction(2, 3)
    ogryn, ork = hit * Fraction(1, 2), hit * Fraction(2, 3)
    quarter = Fraction(1, 4)
    two_dead = ogryn * 2 * quarter * ork  # d4 of 3 or 4 kills the W3 ogryn at once: on to the ork
    for first in (1, 2):  # a first wound of 1 or 2: the second shot at the ogryn
        finish = sum(quarter for d in range(1, 5) if first + d >= 3)
        two_dead += ogryn * quarter * ogryn * finish * ork
    assert two_dead == Fraction(31, 324)
    out = hc.json("fire", *RT, "--bs", "4", "-w", "heavy-bolter", "-r", "10", "-t", "ogryn",
                  "-t", "ogryn", "-t", "ork", "--odds")  # fmt: skip
    assert out["distributions_exact"]["casualties"]["2"] == "31/324"
    rolled = hc.json("fire", *RT, "--bs", "4", "-w", "heavy-bolter", "-r", "10", "-t", "ogryn",
                     "-t", "ogryn", "-t", "ork", "--dice", "3,4,4,3,3,1")  # fmt: skip
    assert [s["victim"] for s in rolled["shots"]] == ["1: ogryn", "3: ork"]
    assert rolled["summary"]["casualties"] == 2


def test_open_ground_after_difficult_ground_is_rounded_up(hc):
    """'It is convenient and acceptable to round all fractions of an inch up to the nearest
    1/2"': M 3.5 less 0.6" of difficult ground at half rate (1.2") leaves 2.3", so 2.5"; M 4
    less 0.3" of it (0.6") leaves 3.4", so 3.5"."""
    assert hc.json("move", *RT, "--m", "3.5", "--difficult", "0.6")["open_ground"] == 2.5
    assert hc.json("move", *RT, "--m", "4", "--difficult", "0.3")["open_ground"] == 3.5


def test_a_seven_plus_volley_says_what_its_first_dice_decided(hc):
    """'If the result is a 6, then there is a chance that the shot might have hit, and a
    further D6 roll is made': the first dice decide only which shots roll again."""
    out = hc.json("fire", *RT, "--bs", "1", "-w", "lasgun", "-r", "15", "-t", "ork",
                  "--soft-cover", "--shots", "4", "--allow-7plus",
                  "--dice", "6,3,6,6,5,2,4,4,1")  # fmt: skip
    assert out["phases"][:2] == [
        "to hit: 6 3 6 6 -> 3 need a second die",
        "to hit (after a 6): 5 2 4 -> 2 hits",
    ]


# ---------------------------------------------------------------------------------------------
# High Crusade (seed 001)


def test_morale_takes_the_casualty_modifier_rally_takes(hc):
    """The Regroup example keeps 'a -1 for the casualty they have suffered' from 'the modifiers
    above': a Morale test of a Fireteam that has suffered casualties takes it too. 10 figures,
    6 lost: D10 3 + 2 (Crusaders) - 2 (below 50%) - 1 (casualties) = 2: a rout."""
    out = hc.json("morale", "--troop", "crusader", "--strength", "10", "--casualties", "6",
                  "--dice", "3")  # fmt: skip
    assert [(m["name"], m["value"]) for m in out["modifiers"]] == [
        ("crusader", 2), ("below-half", -2), ("casualties", -1),
    ]  # fmt: skip
    assert (out["total"], out["outcome"]) == (2, "rout")
    assert out["inputs"]["casualties"] == 6


def test_the_first_casualty_stands_for_the_casualty_modifier(hc):
    """The morale example: 'suffers its first casualty ... The modified score is 5 + 2 - 4 - 2
    = 1': no -1 beside the first casualty's -2."""
    out = hc.json("morale", "--troop", "crusader", "--ambushed", "--first-casualty",
                  "--casualties", "1", "--dice", "5")  # fmt: skip
    assert out["total"] == 1


def test_the_casualty_modifier_reading_means_the_same_in_morale_and_rally(hc, house):
    """readings: casualty-modifier per-casualty: -1 for each casualty suffered, in a Morale
    test as in a Regroup; a --mod naming the same modifier counts it once."""
    rules = house("ruleset: high-crusade\nreadings: {casualty-modifier: {choice: per-casualty}}\n")
    morale = hc.json("morale", "--troop", "crusader", "--strength", "10", "--casualties", "6",
                     "--mod", "casualties", "--dice", "3", "--rules", rules)  # fmt: skip
    rally = hc.json("rally", "--troop", "crusader", "--casualties", "6", "--mod", "casualties",
                    "--dice", "5", "--rules", rules)  # fmt: skip
    assert [m["value"] for m in morale["modifiers"] if m["name"].startswith("casualties")] == [-6]
    assert [m["value"] for m in rally["modifiers"] if m["name"].startswith("casualties")] == [-6]
    assert morale["total"] == 3 + 2 - 2 - 6 and rally["total"] == 5 + 2 - 6
    assert "casualty-modifier = per-casualty (chosen by house.yaml)" in morale["readings"]


def test_a_flag_and_its_mod_count_once(hc):
    """Ambushed is -4 (the morale example), however it is given."""
    out = hc.json("morale", "--troop", "crusader", "--ambushed", "--mod", "ambushed",
                  "--dice", "5")  # fmt: skip
    assert out["total"] == 5 + 2 - 4


# ---------------------------------------------------------------------------------------------
# Everywhere


def test_inputs_are_echoed_whole(hc):
    """CLI.md: `inputs` holds 'every resolved input, names as the flags'."""
    fire = hc.json("fire", *RT, "--bs", "4", "-w", "heavy-bolter", "-r", "10", "-t", "carnosaur",
                   "--shots", "2", "--one-model", "--wounds-taken", "1", "--armour", "mesh",
                   "--soft-cover", "--odds")  # fmt: skip
    for name, value in (("one_model", True), ("wounds_taken", 1), ("armour", "mesh"),
                        ("soft_cover", True)):  # fmt: skip
        assert fire["inputs"][name] == value
    text = hc("rally --troop crusader --casualties 2 --dice 4").stdout
    assert "inputs: troop crusader; casualties 2; dice 4" in text


def test_one_model_odds_of_multi_die_damage(hc):
    """The one-model volley's odds against an enumeration written here: 3 shots of a 2d6
    lascannon (3+ to hit, 2+ to wound, no save) at one W8 model; every wound's 2D6 add up."""
    hit_and_wound = Fraction(4, 6) * Fraction(5, 6)
    casualty = Fraction(0)
    for shots in itertools.product((0, 1), repeat=3):
        n = sum(shots)
        weight = hit_and_wound**n * (1 - hit_and_wound) ** (3 - n)
        dead = sum(1 for faces in itertools.product(range(1, 7), repeat=2 * n) if sum(faces) >= 8)
        casualty += weight * Fraction(dead, 36**n)
    out = hc.json(*LASCANNON_AT_T5, "--one-model", "--odds")
    assert Fraction(out["distributions_exact"]["casualties"]["1"]) == casualty


# ---------------------------------------------------------------------------------------------
# Twilight: 2000 (seed 002)


def test_a_pump_shotguns_pellet_bursts_take_recoil(hc):
    """'Recoil Non automatic fire: Multiply SS recoil by the number of shots fired. Compare to
    character strength ... > reduce hit number by the difference.' Three pump shots of a
    Remington 870 (recoil 4) are 12 against Strength 5: Impossible 16 x 1/8 = 2, less 7, is at
    least 1. At medium range each is a 10-round burst cut to 7 dice: 21 dice at 1 on a d20."""
    out = hc.json("fire", *T2K, "--asset", "16", "--strength", "5", "--weapon", "remington-870",
                  "--range", "30", "--shots", "3", "--odds")  # fmt: skip
    assert (out["hit_number"], out["dice"]) == (1, 21)
    assert Fraction(out["odds_exact"]["miss"]) == Fraction(19, 20) ** 21


def test_initiative_ties_go_to_the_die_only_where_agility_cannot_part_them(hc):
    """'Ties are resolved by Agility minus bulk of weapon, then raw agility score, then die
    roll': X (9 - 0) always acts before Y (4 - 3); Z, whose Agility is not given, is placed by
    the die: first, second or third, a third each."""
    out = hc.json("initiative", *T2K, "--char", "X:5::9:0", "--char", "Y:5::4:3",
                  "--char", "Z:5", "--odds")  # fmt: skip
    assert out["odds_exact"] == {"X, Y, Z": "1/3", "X, Z, Y": "1/3", "Z, X, Y": "1/3"}
    assert not any("same Agility - bulk" in e for e in out["explanation"])
    rolled = hc.json("initiative", *T2K, "--char", "X:5::9:0", "--char", "Y:5::4:3",
                     "--char", "Z:5", "--dice", "2,9,5")  # fmt: skip
    assert [s["name"] for s in rolled["order"]] == ["X", "Z", "Y"]  # Y's 9 cannot pass X


RIFLE_AT = ("fire", *T2K, "--asset", "16", "--strength", "8", "-w", "m16a2", "--scope")


def test_a_scope_makes_every_extreme_shot_long(hc):
    """'Rifle scopes: Extreme range shots are as if at long range' holds for every shot; only
    the +15 is 'for aimed shots'. M16A2 (Short 65 m): 300 m is Extreme, so Long."""
    quick = hc.json(*RIFLE_AT, "--range", "300", "--shot", "quick", "--seed", "1")
    assert (quick["band"], quick["difficulty"]) == ("long", "impossible")  # Average + 2 + 1
    assert quick["hit_number"] == 2  # no +15 for a quick shot
    burst = hc.json(*RIFLE_AT, "--range", "300", "--shot", "burst", "--seed", "1")
    assert "3 dice - 2 for range" in " ".join(burst["explanation"])  # Long: 2 bands x 1


def test_a_scope_is_a_rifle_scope(hc):
    """'Rifle scopes': a bow, a grenade launcher or a machine gun takes none; and a scope that
    changes nothing on a shot says so."""
    for weapon in ("compound-bow", "m79", "m60"):
        err = hc.error("fire", *T2K, "--asset", "16", "--strength", "8", "-w", weapon,
                       "--range", "30", "--scope", "--seed", "1")  # fmt: skip
        assert "the text gives rifle scopes" in err
    near = hc.json(*RIFLE_AT, "--range", "30", "--shot", "quick", "--seed", "1")
    assert any("rifle scope: no effect" in e for e in near["explanation"])


RIDERS = ("fire", *T2K, "--asset", "10", "--short-range", "50", "--rof", "sa", "--recoil", "2",
          "--strength", "5", "--range", "40", "--riders")  # fmt: skip


def test_riders_each_missed_single_shot(hc):
    """'Firing at riders any missed single shot has a 1-% chance of hitting the other than the
    target': two shots that miss roll a D100 each; the one at 10 hits the other, which takes a
    location and damage as every hit does."""
    out = hc.json(*RIDERS, "--shots", "2", "--dice", "15,16,1,0,5,5,8,4")
    assert (out["outcome"], out["other_hits"]) == ("hit-other", 1)
    assert out["other_effects"] == [{"location": "leg", "damage": 4}]
    odds = hc.json(*RIDERS, "--shots", "2", "--odds")
    hit = Fraction(10, 20)  # asset 10, an aimed shot at Short: Average, 10 on a d20
    assert odds["hit_number"] == 10
    none = (1 - hit) ** 2
    assert Fraction(odds["odds_exact"]["hit-other"]) == none * (1 - Fraction(9, 10) ** 2)


def test_riders_are_refused_for_a_pellet_burst(hc):
    """A shotgun beyond Short is a burst, no single shot: --riders cannot apply."""
    err = hc.error("fire", *T2K, "--asset", "16", "--strength", "5", "--weapon", "remington-870",
                   "--range", "30", "--riders", "--seed", "1")  # fmt: skip
    assert "fires a 10-round pellet burst" in err


def test_an_aimed_burst_of_ten_rounds_loses_double_its_recoil(hc):
    """'For 10 round bursts reduce the number by double the number exceeding character
    strength': an M60 (burst recoil 7) at Strength 4, aimed burst at 50 m (Difficult, 16 x 1/2
    = 8): 8 - 2 x 3 = 2."""
    out = hc.json("fire", *T2K, "--asset", "16", "--strength", "4", "--weapon", "m60",
                  "--range", "50", "--shot", "aimed-burst", "--seed", "1")  # fmt: skip
    assert out["hit_number"] == 2


def test_every_hit_gets_a_location_and_damage(hc):
    """'determine hit location and damage normally': a thrown object's hit too (1d6 +
    Strength), after its task die."""
    out = hc.json("fire", *T2K, "--thrown", "--asset", "12", "--throw-range", "20", "--weight",
                  "2", "--strength", "4", "--range", "10", "--dice", "6,1,3")  # fmt: skip
    assert out["hit_effects"] == [{"location": "head", "damage": 3 + 4}]
    assert [r["purpose"] for r in out["rolls"]] == ["to hit", "hit location", "hit damage"]


def test_quick_kill_odds_of_a_burst_answer_exactly(hc):
    """'A hit in head or chest may cause quick kill, roll d10 if roll is equal to or less than
    damage done ... (except on a roll of 10)': 10 dice at 2 on a d20 (Impossible, 16 x 1/8),
    each hit in the chest with damage 7 kills on 1-7 of a d10: each die kills at 1/10 x 7/10, so
    P(quick kill) = 1 - 0.93^10."""
    out = hc.json("fire", *T2K, "--asset", "16", "--strength", "8", "--weapon", "m60",
                  "--range", "50", "--shot", "burst", "--npc", "--location", "chest",
                  "--damage-done", "7", "--odds")  # fmt: skip
    assert Fraction(out["odds_exact"]["quick-kill"]) == 1 - Fraction(93, 100) ** 10
    whole = hc.json("fire", *T2K, "--asset", "16", "--strength", "8", "--weapon", "m60",
                    "--range", "50", "--shot", "burst", "--npc", "--odds")  # fmt: skip
    assert sum(Fraction(p) for p in whole["odds_exact"].values()) == 1


def test_several_bursts_count_the_zones_hits(hc):
    """The danger zone takes each burst's missed dice: the headline and summary of two bursts
    give the zone's hits as one burst's do."""
    out = hc.json("fire", *T2K, "--asset", "14", "--strength", "5", "--weapon", "m60",
                  "--range", "60", "--shot", "burst", "--shots", "2", "--zone", "Ivanov:3",
                  "--seed", "7")  # fmt: skip
    per_burst = sum(b["zone_hits"]["Ivanov"] for b in out["shots"])
    assert out["summary"]["zone_hits"] == {"Ivanov": per_burst}
    assert out["headline"].endswith(f"zone: Ivanov {per_burst}")


def test_a_mounts_paces(hc):
    """'Firing from the saddle the same as on foot except, movement rate is based on the
    animal': a mount walks, trots or runs; it does not crawl. --riding is for the saddle."""
    base = ("fire", *T2K, "--asset", "12", "--riding", "10", "--strength", "5", "-w", "m16a2",
            "-r", "30", "--seed", "1")  # fmt: skip
    err = hc.error(*base, "--movement", "saddle", "--gait", "crawling")
    assert "no pace of a mount" in err and "stationary, walking, trotting, running" in err
    assert "--movement saddle" in hc.error(*base)

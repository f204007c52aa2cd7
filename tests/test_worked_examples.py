"""Every worked example of the High Crusade texts (seeds 000 and 001), by its numbers."""

from __future__ import annotations


def test_melee_crusader_with_plasma_cannon_against_orc_with_bolt_gun(hc):
    """Crusader rolls 7, +1 Crusader, -2 for the weapon = 6; Orc rolls 5, +3 = 8: the Crusader
    is removed."""
    out = hc.json(
        "melee",
        "--attacker",
        "crusader",
        "--attacker-weapon",
        "40mm-plasma-cannon",
        "--defender",
        "orc",
        "--defender-weapon",
        "bolt-gun",
        "--dice",
        "7,5",
    )
    assert out["attacker_total"] == 6
    assert out["defender_total"] == 8
    assert out["outcome"] == "defender"
    assert [(m["name"], m["value"], m["side"]) for m in out["modifiers"]] == [
        ("crusader", 1, "attacker"),
        ("carrying 40mm-plasma-cannon", -2, "attacker"),
        ("orc", 3, "defender"),
        ("carrying bolt-gun", 0, "defender"),
    ]
    assert [(r["purpose"], r["value"]) for r in out["rolls"]] == [("attacker", 7), ("defender", 5)]
    assert "the attacker is removed as a casualty" in out["explanation"][-1]


def test_melee_equal_totals_are_a_draw(hc):
    out = hc.json("melee --attacker crusader --defender orc --dice 6,4")
    assert (out["attacker_total"], out["defender_total"], out["outcome"]) == (7, 7, "draw")


def test_morale_example_routs(hc):
    """Ambushed Crusaders with their first casualty: 5 + 2 - 4 - 2 = 1: rout."""
    out = hc.json("morale --troop crusader --ambushed --first-casualty --dice 5")
    assert out["total"] == 1
    assert out["needed"] == 3
    assert out["outcome"] == "rout"
    assert [(m["name"], m["value"]) for m in out["modifiers"]] == [
        ("crusader", 2),
        ("ambushed", -4),
        ("first-casualty", -2),
    ]
    assert any("full Advance move toward its own table edge" in e for e in out["explanation"])


def test_morale_passes_on_three(hc):
    assert (
        hc.json("morale --troop crusader --ambushed --first-casualty --dice 7")["outcome"] == "pass"
    )  # 7 + 2 - 4 - 2 = 3
    assert (
        hc.json("morale --troop crusader --ambushed --first-casualty --dice 6")["outcome"] == "rout"
    )  # 2


def test_fire_65_4_against_df_5_hits_but_cannot_kill(hc):
    out = hc.json("fire --chance 65 --penetration 4 --df 5 --dice 4,6")
    assert (out["chance"], out["penetration"], out["defence"]) == (65, 4, 5)
    assert out["outcome"] == "hit"
    assert out["rolls"] == [{"die": "d100", "value": 46, "purpose": "to hit", "faces": [4, 6]}]


def test_fire_65_4_against_df_4_or_less_kills(hc):
    for df in ("4", "3"):
        out = hc.json("fire", "--chance", "65", "--penetration", "4", "--df", df, "--dice", "6,5")
        assert out["outcome"] == "kill"


def test_fire_needs_65_or_less(hc):
    """'you will need to roll 65 or less on a D100 to hit it'."""
    assert hc.json("fire --chance 65 --penetration 4 --df 4 --dice 65%")["outcome"] == "kill"
    assert hc.json("fire --chance 65 --penetration 4 --df 4 --dice 6,6")["outcome"] == "miss"


def test_fire_45_percent_example(hc):
    """'if the chance of hitting something is given as 45%, you need to roll equal to or lower'."""
    assert hc.json("fire --chance 45 --penetration 4 --df 4 --dice 4,5")["outcome"] == "kill"
    assert hc.json("fire --chance 45 --penetration 4 --df 4 --dice 4,6")["outcome"] == "miss"


def test_regroup_example_modifiers(hc):
    """The same Crusaders at the Regroup: +2 Crusaders, -1 for the casualty; the ambush and
    first-casualty modifiers no longer apply. 5 or more rallies."""
    out = hc.json("rally --troop crusader --has-casualties --dice 4")
    assert [(m["name"], m["value"]) for m in out["modifiers"]] == [
        ("crusader", 2),
        ("casualties", -1),
    ]
    assert (out["total"], out["needed"], out["outcome"]) == (5, 5, "rallied")
    assert any("Static" in e and "may not fire" in e for e in out["explanation"])
    failed = hc.json("rally --troop crusader --has-casualties --dice 3")
    assert (failed["total"], failed["outcome"]) == (4, "retreat")
    assert any("another full Advance move" in e for e in failed["explanation"])


def test_regroup_rout_when_casualties_during_the_regroup_move(hc):
    out = hc.json("rally --troop crusader --casualties-during-regroup --seed 1")
    assert out["outcome"] == "rout"
    assert out["rolls"] == []
    assert any("automatically" in e for e in out["explanation"])


def test_initiative_names_players_and_prints_the_move(hc):
    out = hc.json("initiative --side Crusaders --side Orcs --dice 4,4,3,8")
    assert [r["value"] for r in out["rolls"]] == [4, 4, 3, 8]  # a tie rolls again
    assert (out["player_a"], out["player_b"], out["outcome"]) == ("Orcs", "Crusaders", "Orcs")
    assert out["order"][0] == {"name": "Orcs", "initiative": 8, "extra": False, "player": "A"}
    assert out["sequence"] == [
        "Orcs moves its Fireteams",
        "Orcs may fire any or all of its Fireteams",
        "Crusaders moves",
        "Orcs may fire the Fireteams that have not fired this move",
        "Crusaders fires",
    ]
    assert any("Initiative roll-off" in s for s in out["sample_values"])

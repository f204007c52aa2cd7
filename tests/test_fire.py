"""High Crusade fire through the tables: bands, modifiers, Fireteams, templates."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("distance", "band", "chance", "penetration"),
    [
        ("0", '0-12"', 75, 5),
        ("12", '0-12"', 75, 5),
        ("12.5", '12-24"', 65, 4),
        ("14", '12-24"', 65, 4),
        ("48", '36-48"', 25, 2),
    ],
)
def test_band_holds_its_upper_bound(hc, distance, band, chance, penetration):
    out = hc.json("fire", "-w", "ingrave-ar", "-r", distance, "-t", "crusader", "--seed", "1")
    assert (out["band"], out["chance"], out["penetration"]) == (band, chance, penetration)


def test_every_modifier_is_listed_and_added(hc):
    mods = "--mod target-static --mod smoke=-5 --mod -3"
    out = hc.json(f"fire -w ingrave-ar -r 14 -t crusader {mods} --dice 7,0")
    assert [(m["name"], m["value"], m["applies_to"], m["source"]) for m in out["modifiers"]] == [
        ("target-static", 10, "chance", "sample"),
        ("smoke", -5, "chance", "--mod"),
        ("--mod", -3, "chance", "--mod"),
    ]
    assert (out["base_chance"], out["chance"]) == (65, 67)
    assert out["outcome"] == "miss"  # 70 > 67


def test_cover_raises_the_defence_factor(hc):
    out = hc.json("fire -w ingrave-ar -r 5 -t orc --mod target-in-cover --dice 1,0")
    assert (out["penetration"], out["defence"], out["outcome"]) == (5, 5, "kill")
    out = hc.json("fire -w ingrave-ar -r 5 -t orc --mod target-in-hard-cover --dice 1,0")
    assert (out["defence"], out["outcome"]) == (6, "hit")


def test_direct_numbers_win_over_the_table(hc):
    out = hc.json("fire -w ingrave-ar -r 14 -t crusader --chance 90 --df 3 --dice 8,5")
    assert (out["chance"], out["penetration"], out["defence"], out["outcome"]) == (90, 4, 3, "kill")
    assert any("--chance 90 given" in e for e in out["explanation"])
    assert any("--df 3 given" in e for e in out["explanation"])


def test_fireteam_lists_each_shot_then_sums(hc):
    out = hc.json("fire -w ingrave-ar -r 14 -t orc --shots 3 --dice 1,0,9,9,6,5")
    assert [s["outcome"] for s in out["shots"]] == ["kill", "miss", "kill"]
    assert [s["label"] for s in out["shots"]] == ["shot 1", "shot 2", "shot 3"]
    assert out["summary"] == {"shots": 3, "hits": 2, "kills": 2, "hits_no_kill": 0, "misses": 1}
    assert out["outcome"] == "kill"  # the volley in one word: the most a shot of it did
    assert out["phases"] == ["to hit: 10 99 65 -> 2 hits, 2 kills"]


def test_template_resolves_each_target_with_its_own_df(hc):
    out = hc.json("fire -w 40mm-plasma-cannon -r 10 -t orc -t crusader -t 9 --dice 1,0,2,0,3,0")
    assert out["template"]["name"] == "cone"
    assert [(s["label"], s["defence"], s["outcome"]) for s in out["shots"]] == [
        ("target 1 (orc)", 4, "kill"),
        ("target 2 (crusader)", 5, "kill"),
        ("target 3 (DF 9)", 9, "hit"),
    ]
    assert out["summary"]["kills"] == 2


def test_template_for_direct_numbers(hc):
    out = hc.json(
        "fire",
        "--chance",
        "50",
        "--penetration",
        "6",
        "--template",
        "circle",
        "-t",
        "5",
        "-t",
        "7",
        "--dice",
        "10%,60%",
    )
    assert [s["outcome"] for s in out["shots"]] == ["kill", "miss"]
    assert out["template"]["shape"] == "circle"


def test_sample_values_are_marked(hc):
    out = hc.json("fire -w ingrave-ar -r 14 -t crusader --seed 2")
    assert out["sample_values"] == ['ingrave-ar band 12-24": 65/4', "crusader DF 5"]
    plain = hc("fire -w ingrave-ar -r 14 -t crusader --seed 2").stdout
    assert "sample numbers (not the book's)" in plain


def test_seed_replays_byte_identical(hc):
    args = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "5", "--seed", "77")
    assert hc(*args).stdout == hc(*args).stdout


def test_without_seed_the_seed_used_is_printed_and_replays(hc):
    first = hc.json("fire -w ingrave-ar -r 14 -t orc --shots 4")
    again = hc.json(f"fire -w ingrave-ar -r 14 -t orc --shots 4 --seed {first['seed']}")
    assert again["shots"] == first["shots"]
    text = hc("fire -w ingrave-ar -r 14 -t orc").stdout
    assert "seed " in text.splitlines()[1]  # under the headline


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("seed 003", "Rogue Trader book"),
        ("seeds 000 and 001, p. 4", "Rogue Trader book, p. 4"),
        ("seed 000 or 001", "Rogue Trader book"),
        ("seed 0034", "seed 0034"),  # four digits: no seed number
        ("reseed 003", "reseed 003"),  # inside a word
        ("seed 003x", "seed 003x"),
        ("seed 003 or 1", "Rogue Trader book or 1"),
        ("sample", "sample"),
    ],
)
def test_a_source_tag_names_the_book_not_a_random_seed(source, said):
    """A modifier's source "seed 003" reads as the rule set's book in the breakdown, never as
    the --seed of a roll; only a whole tag of three-digit seed numbers is replaced."""
    from hc_cli.render.sections import source_words

    assert source_words(source, "Rogue Trader book") == said

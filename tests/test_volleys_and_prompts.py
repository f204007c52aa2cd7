"""At the table: volleys roll in the table's phases, wounds add up on one model, dice can be
asked for as they are needed, percentile dice are entered as players say them."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

RT = ("--ruleset", "rogue-trader")


def _rt(hc, *args: str) -> dict:
    return hc.json("fire", *RT, *args)


def test_a_unit_rolls_all_to_hit_dice_then_to_wound(hc):
    """The issue's case: to hit 3 and 3, then to wound 4 and 1: one ork falls, from 4 dice."""
    out = _rt(
        hc, "--firer", "space-marine", "--weapon", "bolt-gun", "--range", "18", "--target", "ork",
        "--shots", "2", "--dice", "3,3,4,1",
    )  # fmt: skip
    assert out["summary"]["casualties"] == 1
    assert [s["outcome"] for s in out["shots"]] == ["casualty", "no-wound"]
    assert out["phases"] == ["to hit: 3 3 -> 2 hits", "to wound: 4 1 -> 1 wounding hit"]
    assert out["outcome"] == "casualty"  # the volley's outcome in one word


def test_following_fire_at_one_model_adds_up_its_wounds(hc):
    """W6 carnosaur, two heavy-bolter hits of d4 = 4 each: 8 wounds, a casualty."""
    out = _rt(
        hc, "--bs", "4", "--weapon", "heavy-bolter", "--range", "10", "--target", "carnosaur",
        "--target", "carnosaur", "--dice", "6,6,4,6,6,4",
    )  # fmt: skip
    assert [s["outcome"] for s in out["shots"]] == ["wounded", "casualty"]
    assert out["summary"]["wounds"] == 8 and out["summary"]["casualties"] == 1


def _heavy_bolter_at_carnosaur() -> dict[int, Fraction]:
    """One shot's wounds, worked by hand: BS4 needs 3, +1 for a large target -> 2+ (5/6);
    S5 against T6 wounds on 5+ (1/3); no armour, no save; damage d4."""
    wound = Fraction(5, 6) * Fraction(1, 3)
    return {0: 1 - wound, **{k: wound / 4 for k in range(1, 5)}}


def test_following_fire_odds_add_up_wounds_on_one_model(hc):
    out = _rt(
        hc, "--bs", "4", "--weapon", "heavy-bolter", "--range", "10", "--target", "carnosaur",
        "--target", "carnosaur", "--target", "carnosaur", "--odds",
    )  # fmt: skip
    # Independent enumeration: the chain goes on only after a wounding shot; W 6.
    shot = _heavy_bolter_at_carnosaur()
    dead = Fraction(0)
    for a, b, c in itertools.product(shot, repeat=3):
        p = shot[a] * (shot[b] if a else 1) * (shot[c] if a and b else 1)
        total = a + (b if a else 0) + (c if a and b else 0)
        if not a:
            if b or c:
                continue  # a missed first shot ends the chain: count that path once
        elif not b and c:
            continue
        dead += p if total >= 6 else 0
    assert dead == Fraction(2425, 62208)  # the figure the issue gives
    assert out["odds_exact"]["at least one casualty"] == "2425/62208"


def test_a_volley_at_one_model(hc):
    fire = ("--bs", "4", "--weapon", "heavy-bolter", "--range", "10", "--target", "carnosaur")
    out = _rt(hc, *fire, "--shots", "2", "--one-model", "--dice", "6,6,6,6,4,3")
    assert [s["outcome"] for s in out["shots"]] == ["wounded", "casualty"]
    assert out["phases"][-1] == "damage: 4 3 -> 7 wounds caused"
    odds = _rt(hc, *fire, "--shots", "3", "--one-model", "--odds")
    shot = _heavy_bolter_at_carnosaur()
    dead = sum(
        (shot[a] * shot[b] * shot[c] for a, b, c in itertools.product(shot, repeat=3)
         if a + b + c >= 6),
        Fraction(0),
    )  # fmt: skip
    assert odds["distributions_exact"]["casualties"]["1"] == str(dead)
    unit = _rt(hc, *fire, "--shots", "2", "--dice", "6,6,6,6,4,3")
    assert unit["summary"]["casualties"] == 0  # two carnosaurs, 4 and 3 wounds each


def test_named_models_of_one_profile_are_different_models(hc):
    fire = ("--bs", "4", "--weapon", "heavy-bolter", "--range", "10")
    out = _rt(hc, *fire, "-t", "carnosaur:a", "-t", "carnosaur:b", "--dice", "6,6,4,6,6,4")
    assert [s["outcome"] for s in out["shots"]] == ["wounded", "wounded"]
    assert out["shots"][1]["label"] == "2: carnosaur:b"


def test_dice_asked_for_a_phase_at_a_time_through_a_pipe(tmp_path):
    """`--dice ask` without a terminal reads one line per prompt from stdin; a wrong entry is
    asked again and nothing is lost; the result is that of --dice with the full list."""
    import json
    import os
    import subprocess
    import sys

    args = [
        sys.executable, "-m", "hc_cli", "fire", *RT, "--firer", "space-marine", "--weapon",
        "bolt-gun", "--range", "18", "--target", "ork", "--shots", "2", "--json",
    ]  # fmt: skip
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "c"), "XDG_CONFIG_HOME": str(tmp_path)}
    asked = subprocess.run(
        [*args, "--dice", "ask"], input="3 3\n4 7\n4\n4,1\n", capture_output=True, text=True,
        env=env, cwd=tmp_path,
    )  # fmt: skip
    assert asked.returncode == 0, asked.stderr
    prompts = asked.stderr.splitlines()
    assert prompts[0] == "roll 2 D6 to hit: 3 3"
    assert prompts[1] == "roll 2 D6 to wound: 4 7"
    assert "value '7' does not fit the d6 for to wound" in prompts[2]
    assert "1 entry, 2 wanted: try again" in prompts[4]
    listed = subprocess.run(
        [*args, "--dice", "3,3,4,1"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    out = json.loads(asked.stdout)
    assert out["inputs"]["dice"] == "3,3,4,1"
    assert out == json.loads(listed.stdout)
    ended = subprocess.run(
        [*args, "--dice", "ask"], input="3 3\n", capture_output=True, text=True, env=env,
        cwd=tmp_path,
    )  # fmt: skip
    assert ended.returncode == 2 and "no more input" in ended.stderr
    assert "Traceback" not in ended.stderr


def test_dice_ask_is_refused_in_a_batch(hc):
    result = hc.runner.invoke(
        __import__("hc_cli.cli.app", fromlist=["app"]).app,
        ["batch"],
        input='{"command": "roll", "expression": "d6", "dice": "ask"}\n',
    )
    assert result.exit_code == 2 and "--dice ask needs a player" in result.stdout


def test_percentile_dice_as_players_say_them(hc):
    """A read value of two digits (33, 07, 00 = 100, 100) or two single-digit faces (3,3)."""
    fire = ("fire", "--chance", "50", "--penetration", "1", "--df", "1")
    for dice, read in (("33", 33), ("3,3", 33), ("07", 7), ("0,7", 7), ("00", 100),
                       ("100", 100), ("0,0", 100), ("46%", 46)):  # fmt: skip
        assert hc.json(*fire, "--dice", dice)["rolls"][0]["value"] == read, dice
    four = hc.json("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "4",
                   "--dice", "12,34,56,78")  # fmt: skip
    assert [s["rolls"][0]["value"] for s in four["shots"]] == [12, 34, 56, 78]
    err = hc.error(*fire, "--dice", "101")
    assert "two digits (07, 46; 00 or 100 for 100)" in err and "4,6" in err
    assert "two digits" in hc.error(*fire, "--dice", "5")  # a lone face, no units die


WIDE_COMMANDS = [
    ("fire", "--ruleset", "t2k", "--asset", "14", "--strength", "5", "--weapon", "m60",
     "--range", "60", "--shot", "burst", "--zone", "Ivanov:3", "--zone", "Popov:4", "--seed", "7"),
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "4", "--odds"),
    ("fire", *RT, "--firer", "space-marine", "-w", "bolt-gun", "-r", "18", "-t", "ork",
     "--shots", "5", "--seed", "3"),
    ("morale", "--troop", "crusader", "--ambushed", "--first-casualty", "--dice", "5"),
    ("tables",),
    ("tables", "--ruleset", "rogue-trader"),
    ("tables", "--ruleset", "t2k"),
    ("initiative", "--ruleset", "t2k", "--char", "Kowalski:6:serious:7:3", "--char",
     "Ivanov:8::6:5", "--seed", "3"),
]  # fmt: skip


def test_output_fits_the_terminal_without_breaking_words(hc):
    for args in WIDE_COMMANDS:
        for columns in ("60", "80"):
            result = hc(*args, env={"COLUMNS": columns})
            assert result.exit_code == 0, (args, result.output)
            for line in result.stdout.splitlines():
                long_word = max(line.split(), key=len, default="")
                assert len(line) <= int(columns) or len(line.strip()) == len(long_word), line


def test_the_headline_comes_first_and_alone_with_quiet(hc):
    burst = WIDE_COMMANDS[0]
    lines = hc(*burst).stdout.splitlines()
    assert lines[0] == "no hit of 6 dice; zone: Ivanov 1 (abdomen 5 damage), Popov 0"
    assert lines[1] == "hc fire · t2k · seed 7"
    assert hc(*burst, "-q").stdout == lines[0] + "\n"
    assert hc(*burst, "--quiet").stdout == lines[0] + "\n"
    volley = hc("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "4",
                "--dice", "10,99,65,70", "-q")  # fmt: skip
    assert volley.stdout == "2 kills of 4 shots\n"  # 10 and 65 hit at 65 or less
    assert "1 die kept" in " ".join(hc(*burst).stdout.split())  # plain words: "1 die", not "1 dice"


def test_source_tags_read_as_the_book_and_the_footer_is_short(hc):
    text = hc("morale --troop crusader --ambushed --dice 5").stdout
    assert "High Crusade book" in text and "seed 001" not in text
    wide = hc("fire", "-w", "ingrave-ar", "-r", "14", "-t", "crusader", "--mod",
              "target-static", "--seed", "7", env={"COLUMNS": "60"}).stdout  # fmt: skip
    assert wide.splitlines()[-1] == "3 sample numbers, not the book's (--json lists them)"


def test_odds_give_the_mean_and_n_or_more(hc):
    """4 shots at 65% to kill: P(2 or more) = 1 - 0.35^4 - 4 x 0.65 x 0.35^3, by hand."""
    out = hc.json("fire -w ingrave-ar -r 14 -t orc --shots 4 --odds")
    p = Fraction(13, 20)
    two_or_more = 1 - (1 - p) ** 4 - 4 * p * (1 - p) ** 3
    assert out["at_least_exact"]["kills"]["2"] == str(two_or_more)
    assert out["means"]["kills"] == pytest.approx(4 * 0.65)
    text = hc("fire -w ingrave-ar -r 14 -t orc --shots 4 --odds").stdout
    assert "  2   31.05%   87.35%" in text and "kills (mean 2.60):" in text
    assert "  hit         0" in text  # an impossible outcome is a plain 0, not 0.00% (0/1)


def test_a_log_replays_anywhere_and_a_moved_rules_file_is_found_by_content(tmp_path):
    import json
    import os
    import shutil
    import subprocess
    import sys

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "c"), "XDG_CONFIG_HOME": str(tmp_path)}
    table = tmp_path / "table"
    table.mkdir()
    (table / "house.yaml").write_text("ruleset: high-crusade\ntroops:\n  orc: {defence: 6}\n")

    def hc(*args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "hc_cli", *args], capture_output=True, text=True, env=env,
            cwd=cwd,
        )  # fmt: skip

    fire = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--seed", "3")
    assert hc(*fire, "--rules", "house.yaml", "--log", "game.log", cwd=table).returncode == 0
    entry = json.loads((table / "game.log").read_text())
    assert entry["rules"] == [
        {"path": str(table / "house.yaml"), "sha256": __import__("hashlib").sha256(
            (table / "house.yaml").read_bytes()).hexdigest(),
         "text": (table / "house.yaml").read_text()}
    ]  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    replayed = hc("replay", str(table / "game.log"), cwd=elsewhere)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    shutil.move(table / "house.yaml", elsewhere / "ours.yaml")
    kept = hc("replay", str(table / "game.log"), cwd=elsewhere)  # the entry keeps the text
    assert kept.returncode == 0, kept.stdout + kept.stderr
    del entry["rules"][0]["text"]  # a log of an older hc: the file is found by its content
    (table / "game.log").write_text(json.dumps(entry) + "\n")
    lost = hc("replay", str(table / "game.log"), cwd=elsewhere)
    assert lost.returncode == 1 and "hc replay LOG --rules FILE" in lost.stdout.replace(
        "\n    ", " "
    )
    found = hc("replay", str(table / "game.log"), "--rules", "ours.yaml", cwd=elsewhere)
    assert found.returncode == 0 and "1 entries: 1 reproduced" in found.stdout

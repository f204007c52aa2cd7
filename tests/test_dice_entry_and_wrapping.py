"""Entering dice and reading what hc prints: what got in a new player's way, each checked as the
player met it (the terminal's behaviour itself is driven through tmux in test_shells.py)."""

from __future__ import annotations

import json
import re

import pytest

from hc_cli.cli.app import app

RT = ("--ruleset", "rogue-trader")
T2K = ("--ruleset", "t2k")
FIRE = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc")


def _asked(hc, args: list[str], typed: str):
    """The result, and what the player was shown: each prompt and each word of hc's on a line
    of its own (a word wrapped to the terminal joined again)."""
    result = hc.runner.invoke(app, [*args, "--dice", "ask", "--json"], input=typed)
    return result, result.stderr.replace("\n    ", " ").splitlines()


def test_a_d100_under_ten_at_the_prompt(hc):
    """As many entries as D100s asked for are read values (7 is 07); twice as many are faces,
    tens then units."""
    args = [*FIRE, "--shots", "2"]
    result, prompts = _asked(hc, args, "46 7\n")
    # recorded as --dice reads it to the same roll: 07 (a lone 7 there is a tens face)
    assert result.exit_code == 0 and json.loads(result.stdout)["inputs"]["dice"] == "46,07"
    rolls = [s["rolls"][0]["value"] for s in json.loads(result.stdout)["shots"]]
    assert rolls == [46, 7]
    again = hc.json(*args, "--dice", "46,07")
    assert [s["rolls"][0]["value"] for s in again["shots"]] == [46, 7]
    result, _ = _asked(hc, args, "4 6 0 7\n")
    assert [s["rolls"][0]["value"] for s in json.loads(result.stdout)["shots"]] == [46, 7]
    result, prompts = _asked(hc, args, "4 6 7\n46 07\n")
    assert "3 entries, 2 wanted" in prompts[1] and "4 (two faces a D100" in prompts[1]
    result, prompts = _asked(hc, args, "46 107\n46 07\n")
    assert "read as values (7 is 07)" in prompts[1]
    assert not re.search(r"\d,\d", prompts[1])  # the prompt's own format: spaces, not 4,6


def test_dice_given_with_spaces_and_two_words(hc):
    assert hc.json(*FIRE, "--dice", "4 6")["rolls"][0]["value"] == 46
    wrong = hc(*FIRE, "--dice", "4", "6")
    assert wrong.exit_code == 2 and "--dice 4,6 or --dice '4 6'" in wrong.stderr


def test_dice_rolled_together_are_asked_for_together(hc):
    """A T2K hit's damage dice, a melee's two D10: one prompt, one line."""
    result, prompts = _asked(
        hc,
        ["fire", *T2K, "--asset", "12", "--strength", "5", "-w", "m16a2", "-r", "30"],
        "3\n4\n3 4\n",
    )
    assert result.exit_code == 0, result.output
    assert prompts[2].startswith("roll 2 D6 hit damage") and prompts[2].endswith(": 3 4")
    assert json.loads(result.stdout)["hit_effects"][0]["damage"] == 7
    result, prompts = _asked(hc, ["melee", "--attacker", "crusader", "--defender", "orc"], "7 5\n")
    assert prompts == ["roll 2 D10 for the melee (attacker, defender): 7 5"]


@pytest.mark.parametrize("columns", [80, 60, 50])
@pytest.mark.parametrize(
    "args",
    [("--help",), ("fire", "--help"), ("fire", *T2K, "--help"), ("rally", "--help"),
     ("fire", *RT, "--help"), ("rules", "check", "--help")],
)  # fmt: skip
def test_help_fits_any_width(hc, args, columns):
    """Help wraps at the terminal's width (click wraps it): no line longer than the width but
    for a single word, and all of the wide help's text still there."""
    text = hc(*args, env={"COLUMNS": str(columns)}).stdout
    for line in text.splitlines():
        if len(line) > columns:
            assert " " not in line.strip(), (columns, line)
    whole = hc(*args, env={"COLUMNS": "1000"}).stdout
    joined = ["".join(t.replace(" \\\n", "").split()) for t in (text, whole)]
    assert joined[0] == joined[1]


def test_every_help_example_is_a_runnable_line_at_forty_columns(hc):
    text = hc("fire", *T2K, "--help", env={"COLUMNS": "40"}).stdout
    example = text.split("Example: ", 1)[1].split("\n\n")[0]
    assert example.count("\\\n") >= 2  # continued where an option ends, as a shell reads it
    assert "--ruleset t2k" in example and "--weapon m16a2" in example


def test_errors_wrap_at_the_terminal_width(hc):
    err = hc("fire", *T2K, "-w", "ingrave-ar", "-r", "14", "--asset", "12", "--strength", "5",
             env={"COLUMNS": "40"}).stderr  # fmt: skip
    assert all(len(line) <= 40 for line in err.splitlines())
    assert "high-crusade" in err  # the game that has that weapon


def test_smaller_things(hc):
    assert "did you mean --weapon?" in hc("fire", *T2K, "--wepon", "m16a2").stderr
    # Flags are near by their names, not by the dashes all share; click's own line says
    # where the help is, once.
    bogus = hc("fire", "--bogus").stderr
    assert "did you mean" not in bogus and bogus.count("-h' for help") == 1, bogus
    assert "See: hc" not in bogus, bogus
    seed = hc.error("roll d6 --seed -1")
    assert "0..9223372036854775807" in seed and "e+" not in seed
    volley = hc.json("fire", *RT, "--bs", "4", "-w", "bolt-gun", "-r", "10", "-t", "ork",
                     "--shots", "4", "--seed", "3")  # fmt: skip
    assert volley["headline"].endswith("wounds caused") or "no wounds caused" in volley["headline"]
    assert any(line.startswith("to wound:") and "wounding hit" in line for line in volley["phases"])
    odds = hc("fire", *RT, "--bs", "4", "-w", "bolt-gun", "-r", "10", "-t", "ork", "--shots",
              "4", "--odds", "-q").stdout  # fmt: skip
    assert odds.startswith("odds: at least one casualty ")
    readings = hc("tables readings", env={"COLUMNS": "80"}).stdout
    assert "      reroll-ties: each side rolls" in readings


def test_each_game_s_help_names_its_own_dice(hc):
    def dice_help(*args: str) -> str:
        text = " ".join(hc(*args, "--help", env={"COLUMNS": "1000"}).stdout.split())
        return text.split("--dice LIST ", 1)[1].split(" --json ")[0]

    rally = dice_help("rally")
    assert "D10" in rally and "D100" not in rally and "D6" not in rally
    rt = dice_help("fire", *RT)
    assert "D6" in rt and "D100" not in rt and "D10 " not in rt
    assert "d20" in dice_help("fire", *T2K)

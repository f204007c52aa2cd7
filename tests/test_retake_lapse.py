"""Issue 37, the play-testers' second pass: a modifier named twice, named modifiers standing for
what the game holds, the dice of an undone action that can no longer be made, a default
written out, `hc again` after an undo. Checked through `hc` and the game file."""

from __future__ import annotations

import json

import pytest
from games_setup import Game


@pytest.mark.parametrize(
    "line",
    [
        "fire --weapon ingrave-ar -r 14 --target orc --mod firer-static --mod Firer-Static",
        "fire --ruleset rogue-trader --bs 4 --weapon lascannon -r 10 --target ork"
        " --mod large-target --mod large-target",
        "fire --weapon ingrave-ar -r 14 --target orc --mod smoke --mod smoke=-10",  # its label
        "fire --weapon ingrave-ar -r 14 --target orc --mod fog=-5 --mod fog=-10",
    ],
)
def test_a_modifier_named_twice_is_refused_out_of_a_game(hc, line):
    message = " ".join(hc.error(line).split())
    assert "is given twice: a modifier applies once" in message


def test_a_modifier_the_table_counts_per_step_may_be_named_twice(hc):
    # target-moved: -1 for every full 10" the target moved (seed 003): named twice, -2.
    line = "fire --ruleset rogue-trader --bs 4 --weapon bolt-gun --range 10 --target ork --json"
    twice = hc(f"{line} --mod target-moved --mod target-moved")
    assert twice.exit_code == 0, twice.output
    mods = json.loads(twice.stdout)["modifiers"]
    assert [m["value"] for m in mods if m["name"] == "target-moved"] == [-1, -1]


def test_the_modifiers_that_may_stack_are_the_tables_per_step_ones():
    from hc_cli.rulesets.rogue_trader.commands import STACKING, load_tables

    table = load_tables().modifiers
    assert STACKING == tuple(k for k, m in table.items() if m.per_inches)


def test_in_a_game_a_modifier_for_what_the_game_holds_needs_anyway(hc_game, rt_game):
    said = rt_game.refused("fire lascannon-team --at boyz --range 10 --mod large-target")
    assert "--mod large-target overrides boyz's size" in said and "--anyway" in said
    said = hc_game.refused("fire boyz --at fireteam-1 -r 14 --mod firer-static")
    assert "--mod firer-static overrides boyz's order" in said


def test_an_option_written_out_with_the_value_used_anyway_is_the_same_action(t2k_game):
    first = t2k_game.taken_back("fire kowalski --at popov --range 60")
    # --shot aimed and --shots 1 are what seed 002's single aimed shot is when none is given.
    t2k_game.ok("fire kowalski --at popov --range 60 --shot aimed --shots 1")
    assert t2k_game.last()["game"]["reused"] == first["seq"]
    assert t2k_game.last()["seed"] == first["seed"]
    assert t2k_game.problems() == []


def test_what_changed_says_an_option_not_given_and_the_period_once(t2k_game, rt_game):
    first = t2k_game.taken_back("fire kowalski --at popov --range 60")
    said = t2k_game.refused("fire kowalski --at popov --range 60 --shots 2")
    assert "shots 1 (not given) -> 2" in said and "none" not in said
    said = t2k_game.refused(f"fire kowalski --at popov --range 60 --seed {first['seed'] + 1}")
    assert "made again by Americans in combat turn 1, action turn 1" in said
    rt_game.taken_back("fire marines --at boyz --range 10")
    said = rt_game.refused("fire marines --at boyz --range 12")
    assert "for Imperials in turn 1," in said and "Imperials plays" not in said


def test_again_after_an_undo_makes_the_action_taken_back_with_its_dice(hc_game):
    first = hc_game.taken_back("fire boyz --at fireteam-1 -r 14")
    hc_game.ok("again")
    assert hc_game.last()["game"]["reused"] == first["seq"]
    assert hc_game.last()["seed"] == first["seed"] and hc_game.last()["command"] == "fire"
    hc_game.ok("undo")
    hc_game.ok("again --reroll")
    assert hc_game.last()["game"]["reroll"] == hc_game.last()["seq"] - 2
    assert hc_game.problems() == []


MISSES = ",".join(["99"] * 8)
ROUTED = (  # seed 001's worked example: fireteam-1 routed in move 2, move 3 opens (Free Companies)
    "initiative --dice 3,6", f"fire boyz --at fireteam-1 -r 14 --dice {MISSES}",
    "morale fireteam-1 --dice 9", "initiative --dice 2,8",
    "fire boyz --at fireteam-1 -r 8 --ambush --dice 07,99,99,99,99,99,99,99",
    "morale fireteam-1 --dice 5", "initiative --dice 7,4",
)  # fmt: skip


def test_the_dice_of_an_action_that_can_no_longer_be_made_lapse(hc, tmp_path):
    game = Game(hc, tmp_path / "karsk.hcg", "high-crusade", *ROUTED)
    rally = game.taken_back("rally fireteam-1")
    game.ok("game next")  # step 1: a Regroup order is given in the orders phase only
    game.ok("game next")
    game.ok("fire fireteam-2 --at ladz -r 14")
    ((lapsed),) = game.last()["game"]["lapsed"]
    assert lapsed["undone"] == rally["seq"] and "orders phase" in lapsed["why"]
    assert f"the dice of entry {rally['seq']}, taken back, lapsed" in game.history()
    assert game.problems() == []
    assert hc("replay", str(game.file)).exit_code == 0
    # Each action taken while the Regroup could not be made records the lapse again (should it
    # become one that could be, its dice would bind again).
    game.ok("fire fireteam-1 --at boyz -r 14 --anyway")  # routed: an override, as agreed
    assert [i["undone"] for i in game.last()["game"]["lapsed"]] == [rally["seq"]]
    assert game.problems() == [] and hc("replay", str(game.file)).exit_code == 0
    # The very Regroup made all the same (--anyway) is no new roll of it: its dice again.
    game.ok("rally fireteam-1 --anyway")
    again = game.last()
    assert again["game"].get("reused") == rally["seq"] and "lapsed" not in again["game"]
    assert (again.get("seed"), again.get("dice")) == (rally.get("seed"), rally.get("dice"))
    assert game.problems() == [] and hc("replay", str(game.file)).exit_code == 0


def test_dice_of_an_action_that_could_still_be_made_bind_and_a_forged_lapse_is_found(hc_game):
    game = hc_game
    first = game.taken_back("fire boyz --at fireteam-1 -r 22 --seed 5")
    assert "was taken back" in game.refused("fire ladz --at fireteam-1 -r 14")
    game.ok("fire boyz --at fireteam-1 -r 4 --seed 6 --agreed")
    assert game.hc("replay", str(game.file)).exit_code == 0
    lines = game.file.read_bytes().splitlines()
    entry = json.loads(lines[-1])
    del entry["game"]["agreed"]
    entry["game"]["lapsed"] = [{"undone": first["seq"], "why": "it could not"}]
    lines[-1] = json.dumps(entry, separators=(",", ":"), ensure_ascii=False).encode()
    game.file.write_bytes(b"\n".join(lines) + b"\n")
    replay = game.hc("replay", str(game.file))
    said = " ".join(replay.stdout.split())
    assert replay.exit_code == 1, said
    assert f"records the dice of entry {first['seq']} lapsed, but it could be made again" in said

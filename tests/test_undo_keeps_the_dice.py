"""Undo that keeps the dice (issue 28): an action taken back and made again by the same unit at
the same targets in the same move or turn rolls the dice it rolled, unless both players agree
to a re-roll (--reroll), which the entry records; `hc undo --to N` takes back every entry after
N as one.
Checked through `hc` and the game file itself, never through hc's own account of it."""

from __future__ import annotations

import json

import pytest
from helpers import RT_SKIRMISH

ROSTER = RT_SKIRMISH.replace("sides:", "title: Undo at the ridge\nsides:")


@pytest.fixture
def game(hc, tmp_path):
    (tmp_path / "roster.yaml").write_text(ROSTER, encoding="utf-8")
    path = tmp_path / "undo.hcg"
    assert hc(f"game new {path} --roster {tmp_path / 'roster.yaml'}").exit_code == 0
    env = {"HC_GAME": str(path)}

    class Game:
        file = path

        def run(self, line: str):
            return hc(line, env=env)

        def ok(self, line: str):
            result = hc(line, env=env)
            assert result.exit_code == 0, result.output
            return result

        def refused(self, line: str) -> str:
            before = path.read_bytes()
            message = hc.error(line, env=env)
            assert path.read_bytes() == before  # a refused action appends nothing
            return message

        def entries(self) -> list[dict]:
            return [json.loads(line) for line in path.read_text().splitlines()]

        def made_again(self, line: str, again: str) -> tuple[dict, dict]:
            """The entries of an action taken, taken back (hc undo) and made again."""
            self.ok(line)
            first = self.entries()[-1]
            self.ok("undo")
            self.ok(again)
            return first, self.entries()[-1]

    g = Game()
    g.ok("initiative --dice 1")  # heads: the Imperials' turn first
    return g


def _rolls(entry: dict) -> list:
    return [roll["value"] for roll in entry["result"]["rolls"]]


def test_an_action_taken_back_and_made_again_rolls_the_same_dice(game):
    first, again = game.made_again(*["fire marines --at boyz --range 10"] * 2)
    assert again["seed"] == first["seed"]
    assert _rolls(again) == _rolls(first)
    assert again["result"]["outcome"] == first["result"]["outcome"]
    assert again["game"]["reused"] == first["seq"]
    assert again["seed_from"] == "hc"  # the seed hc drew the first time, not the player's
    history = game.ok("history -q").stdout
    assert f"the dice of entry {first['seq']} again" in " ".join(history.split())


def test_dice_entered_by_hand_are_the_ones_rolled_again(game):
    game.ok("fire marines --at boyz --range 10 --dice 6,6,6,6,6,6,6,6,6,6")
    game.ok("undo")
    message = game.refused("fire marines --at boyz --range 10 --dice 1,1,1,1,1")
    assert "taken back" in message and "--reroll" in message
    game.ok("fire marines --at boyz --range 10")  # no dice given: the ones entered before
    assert game.entries()[-1]["dice"] == "6,6,6,6,6,6,6,6,6,6"


def test_a_reroll_both_players_agree_to_is_an_entry_that_says_so(game):
    first, entry = game.made_again(
        "fire marines --at boyz --range 10 --dice 1,1,1,1,1",
        "fire marines --at boyz --range 10 --dice 6,6,6,6,6,6,6,6,6,6 --reroll",
    )
    assert entry["game"]["reroll"] == first["seq"] and "reused" not in entry["game"]
    assert entry["dice"].startswith("6,6")
    assert "re-rolled" in " ".join(game.ok("history -q").stdout.split())


def test_a_reroll_needs_an_action_taken_back(game):
    assert "taken back" in game.refused("fire marines --at boyz --range 10 --reroll")


def test_a_range_put_right_is_another_action_the_other_side_acts_freely(game):
    # the range put right (the same band): the dice are seen, so it is another action (issue
    # 37), made only as both players agree, with new dice
    game.ok("fire marines --at boyz --range 10")
    first = game.entries()[-1]
    game.ok("undo")
    assert "range 10 -> 11" in game.refused("fire marines --at boyz --range 11")
    game.ok("fire marines --at boyz --range 11 --agreed --seed 7")
    again = game.entries()[-1]
    assert again["game"]["agreed"] == {"undone": first["seq"], "changed": ["range 10 -> 11"]}
    assert again["seed"] == 7 and "reused" not in again["game"]
    game.ok("undo")
    game.ok("fire boyz --at marines --range 10 --seed 12 --anyway")  # the other side acts
    entry = game.entries()[-1]
    assert entry["seed"] == 12 and "reused" not in entry["game"]


def test_undo_to_takes_back_every_entry_after_it_as_one(game):
    game.ok("fire marines --at boyz --range 10 --seed 3")
    game.ok("game next")
    assert len(game.entries()) == 4  # the roster, the coin, the fire, the turn's end
    said = game.ok("undo --to 2 --json")
    assert "2 entries" in json.loads(said.stdout)["changes"][-1]
    entries = game.entries()
    assert len(entries) == 5  # one entry for both
    assert entries[-1]["game"]["to"] == 2 and entries[-1]["game"]["undoes"] == 4
    status = json.loads(game.ok("status --json").stdout)
    assert status["playing"] == "Imperials"  # the Imperials' turn again,
    assert status["phase"] == 0  # from its start
    assert game.ok(f"replay {game.file} -q").exit_code == 0
    assert "nothing after entry 2" in game.refused("undo --to 2")
    assert "entries are 1 to 5" in game.refused("undo --to 60")


@pytest.mark.parametrize("to", ['"2"', "0", "4", "9", "true"])
def test_an_undo_that_goes_back_to_no_earlier_entry_is_damage(game, hc, to):
    game.ok("fire marines --at boyz --range 10 --seed 3")
    game.ok("game next")
    game.ok("undo --to 2")
    lines = game.file.read_text().splitlines()
    text = lines[-1].replace('"to":2', f'"to":{to}')  # the newest line: no later one names it
    assert text != lines[-1]
    game.file.write_text("\n".join([*lines[:-1], text]) + "\n")
    result = game.run("status")
    assert result.exit_code == 2
    assert "damaged" in result.stderr


def test_another_action_between_does_not_fish_for_new_dice(game):
    """Taken back, another unit acts, then the first acts again: the same move or turn, so
    the dice it rolled."""
    game.ok("fire marines --at boyz --range 10")
    first = game.entries()[-1]
    game.ok("undo")
    game.ok("fire boyz --at marines --range 10 --anyway --seed 5")
    game.ok("fire marines --at boyz --range 10")
    again = game.entries()[-1]
    assert again["seed"] == first["seed"] and again["game"]["reused"] == first["seq"]

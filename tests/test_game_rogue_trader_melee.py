"""Rogue Trader hand to hand in a game (issue 38), worked from seed 003's words: "a model may
charge an enemy model ... the maximum distance a model can move is doubled"; "once models are in
actual physical base-to-base contact they are in hand-to-hand combat. All models in hand-to-hand
combat may fight, no matter whose turn it is"; "Troops who have entered hand-to-hand combat may
not fire during the shooting part of the turn"; "models engaged in hand-to-hand combat are not
eligible as targets" but a firer may fire into it, "a roll of 1-3 hitting the enemy, and 4-6
hitting the firer's friends"; the seed stops before the blows, so the players record them."""

from __future__ import annotations

import json

import pytest
from test_game_rogue_trader import ROSTER, play  # noqa: F401  (the fixture: a game of its roster)


def _charge(play) -> None:  # noqa: F811
    """The Orks' turn: the carnosaur (M 7) charges the marines and makes contact."""
    play.json("game", "next")
    moved = play.json("move", "carnosaur", "--charge", "--at", "marines", "--contact")
    assert moved["move"] == 14  # doubled for the charge


def test_a_charge_names_its_enemy_target_and_whether_it_made_contact(play):  # noqa: F811
    play.json("game", "next")
    assert "names its target" in play.refused("move", "carnosaur", "--charge")
    assert "own side" in play.refused("move", "carnosaur", "--charge", "--at", "boyz")
    message = play.refused("move", "carnosaur", "--charge", "--at", "marines")
    assert "--contact" in message and "--no-contact" in message
    assert "--at goes with --charge" in play.refused("move", "carnosaur", "--at", "marines")
    play.json("move", "carnosaur", "--charge", "--at", "marines", "--contact")
    assert play.row("carnosaur")["engaged"] == ["marines"]
    assert play.row("marines")["engaged"] == ["carnosaur"]
    assert "hc melee" in " ".join(play.status()["due"])


def test_engaged_troops_may_not_fire_nor_be_fired_at(play):  # noqa: F811
    _charge(play)
    # Into the combat a model at a time: each hit's D6 may strike a friend of its own.
    message = play.refused("fire", "boyz", "--at", "marines", "--range", "10", "--into-melee")
    assert "a model at a time" in message  # the friend, carnosaur, the game fills in
    assert "hc fire boyz:1 --at marines --range 10 --into-melee" in message
    play.json("game", "next")  # the Imperials' turn 2
    message = play.refused("fire", "marines", "--at", "boyz", "--range", "10")
    assert "may not fire during the shooting part of the turn" in message
    message = play.refused("fire", "lascannon-team", "--at", "carnosaur", "--range", "20")
    assert "not eligible as targets" in message and "--into-melee" in message
    message = play.refused("fire", "heavy", "--at", "boyz", "--range", "18", "--into-melee")
    assert "is in none" in message  # the boyz fight no one


def test_fire_into_the_combat_strikes_a_friend_on_four_to_six(play):  # noqa: F811
    _charge(play)
    play.json("game", "next")
    # The lascannon (BS 4: 3; +1 large target, -1 the carnosaur's 14" move) hits on a 6; the
    # D6 of 5 strikes the firer's friends: a marine (T 3, S 9 wounds on 2, no save against -6),
    # W 1: removed. The carnosaur takes nothing.
    shot = play.json("fire", "lascannon-team", "--at", "carnosaur", "--range", "20",
                     "--into-melee", "--dice", "6,5,6,3,3")  # fmt: skip
    assert "friend" in " ".join(shot["explanation"])
    assert play.row("marines")["left"] == 4 and play.row("carnosaur")["taken"] == [0]
    play.json("undo")
    # Taken back (the dice stay: --reroll, both players agreeing). A 2 strikes the enemy: the
    # carnosaur (T 6, S 9 wounds on 2; damage 2D6 = 6).
    play.json("fire", "lascannon-team", "--at", "carnosaur", "--range", "20", "--into-melee",
              "--dice", "6,2,6,3,3", "--reroll")  # fmt: skip
    assert play.row("marines")["left"] == 5 and play.row("carnosaur")["taken"] == [6]
    assert play.row("marines")["engaged"] == []  # its enemy is removed: the combat is over


def test_both_sides_record_the_fight_whatever_the_turn(play):  # noqa: F811
    _charge(play)
    play.json("game", "next")  # the Imperials' turn: the carnosaur fights all the same
    play.json("melee", "carnosaur", "--at", "marines", "--removed", "2")
    play.json("melee", "marines", "--at", "carnosaur", "--wounds", "2")
    assert play.row("marines")["left"] == 3 and play.row("carnosaur")["taken"] == [2]
    assert play.status()["phase"] == 3
    assert "not engaged" in play.refused("melee", "marines", "--at", "boyz", "--removed", "1")
    assert "has 4 left" in play.refused("melee", "marines", "--at", "carnosaur", "--wounds", "5")
    history = play.act("history").stdout
    assert "melee" in history and "2 of 6 wounds taken" in history
    play.json("melee", "carnosaur", "--at", "marines", "--removed", "3")
    assert play.row("marines")["left"] == 0 and play.row("carnosaur")["engaged"] == []
    play.json("undo")
    assert play.row("marines")["left"] == 3 and play.row("carnosaur")["engaged"] == ["marines"]
    play.json("melee", "marines", "--at", "carnosaur", "--break")
    assert play.row("carnosaur")["engaged"] == [] and play.row("marines")["engaged"] == []
    assert play.act("replay", str(play.file)).exit_code == 0


def test_the_rules_name_hc_melee_in_part_three(play):  # noqa: F811
    rules = play.act("game", "rules").stdout
    part3 = rules.split("  3. ", 1)[1].split("  4. ", 1)[0]
    assert "hc melee" in part3 and "nothing for hc to resolve" not in part3
    assert "no dice" in part3


@pytest.mark.parametrize("choice", ["held", "free"])
def test_an_engaged_unit_moves_as_the_reading_says(hc, tmp_path, choice):
    """Seed 003 says what makes a combat (base-to-base contact), not how one walks out of it:
    the reading engaged-move. held: no move until the combat ends; free: a move, still engaged."""
    (tmp_path / "roster.yaml").write_text(ROSTER)
    (tmp_path / "house.yaml").write_text(
        f"ruleset: rogue-trader\nreadings:\n  engaged-move: {{choice: {choice}}}\n"
    )
    path = tmp_path / "g.hcg"
    started = hc("game", "new", str(path), "--roster", str(tmp_path / "roster.yaml"),
                 "--rules", str(tmp_path / "house.yaml"))  # fmt: skip
    assert started.exit_code == 0, started.output
    env = {"HC_GAME": str(path)}
    for line in ("initiative --dice 1", "game next",
                 "move carnosaur --charge --at marines --contact", "game next"):  # fmt: skip
        assert hc(line, env=env).exit_code == 0, line
    moved = hc("move marines", env=env)  # the Imperials' turn 2: the marines are in the combat
    if choice == "held":
        said = " ".join(moved.output.split())
        assert moved.exit_code == 2 and "engaged-move = held" in said
        assert "hc melee marines --at carnosaur --break" in said
        return
    assert moved.exit_code == 0, moved.output
    status = json.loads(hc("status --json", env=env).stdout)
    marines = next(r for rows in status["sides"].values() for r in rows if r["name"] == "marines")
    assert marines["engaged"] == ["carnosaur"]

"""A Twilight: 2000 burst's danger zone in a game (seed 002, Danger Zone): "Half of all dice that
missed the intended target are rolled also at impossible difficulty and applied to targets in
the danger zone ... Half of the remainder after the second roll are saved for targets entering
the zone for the remainder of the turn". The game keeps those dice and rolls them with
`hc fire FIRER --kept N --at TARGET`; each hit a character takes is kept, where and its damage.

Worked by hand from the text: nguyen's M60 at 20 m rolls 4 dice (examples/t2k-roster.yaml; a
10-round burst at Short, recoil 7 against Strength 4 costs none of the 4 the burst table keeps
at the least): all 4 miss (20s), so 4 // 2 = 2 are rolled at the zone's popov; both miss, and
half of those 2, 1 die, is kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from games_setup import example_game, json_of, row_of

BURST = "fire nguyen --at ivanov -r 20 --shot burst --zone popov:3 --dice 20,20,20,20,20,20"


def _to_nguyen(hc, path):
    """A game at nguyen's action: kowalski and ivanov pass."""
    return example_game(hc, path, "t2k", "initiative --seed 2", "game next", "game next")


def _status(hc, env) -> dict:
    return json_of(hc("status --json", env=env))


def test_a_burst_keeps_half_the_zone_dice_left_and_rolls_them_at_one_entering(hc, tmp_path):
    env = _to_nguyen(hc, tmp_path / "g.hcg")
    fired = json_of(hc(BURST + " --json", env=env))
    assert (fired["zone_dice"], fired["kept_back"]) == (2, 1)
    status = _status(hc, env)
    assert [(k["firer"], k["dice"], k["at"]) for k in status["zone_kept"]] == [
        ("nguyen", 1, "ivanov")
    ]
    assert "hc fire nguyen --kept all --at NAME" in " ".join(hc("status", env=env).output.split())
    acting, rounds = status["acting"], row_of(status, "nguyen")["rounds_left"]
    # kowalski walks into the zone (a friend is hit as well as a foe): the die rolls at the
    # burst's hit number, whoever's action it is; it uses no round and no action of nguyen's.
    hit = json_of(hc("fire nguyen --kept 1 --at kowalski --location arm --damage-done 4 "
                     "--dice 1 --json", env=env))  # fmt: skip
    assert (hit["hits"], hit["inputs"]["range"], hit["inputs"]["weapon"]) == (1, 20, "m60")
    status = _status(hc, env)
    assert status["acting"] == acting and row_of(status, "nguyen")["rounds_left"] == rounds
    assert row_of(status, "kowalski")["hits"] == [{"location": "arm", "damage": 4, "by": "nguyen"}]
    assert row_of(status, "kowalski")["damage"] == 4
    assert status["zone_kept"] == []
    # Spent: nothing more to roll, and the refusal appends nothing.
    size = Path(env["HC_GAME"]).stat().st_size
    again = hc("fire nguyen --kept 1 --at ivanov --dice 1", env=env)
    assert again.exit_code == 2 and "no danger zone dice kept" in again.output
    assert Path(env["HC_GAME"]).stat().st_size == size
    assert "reproduced, 0 did not" in hc("replay", env["HC_GAME"]).output


def test_no_more_dice_than_were_kept(hc, tmp_path):
    env = _to_nguyen(hc, tmp_path / "g.hcg")
    json_of(hc(BURST + " --json", env=env))
    # The dice go with their burst: another range or weapon is an override (found in play).
    for option, said in (
        ("-r 200", "--range 200 overrides the burst's range, 20 m"),
        ("--weapon ak-74", "--weapon ak-74 overrides the burst's weapon, m60"),
    ):
        out = hc(f"fire nguyen --kept 1 --at popov {option} --dice 1,1,1,1", env=env)
        assert out.exit_code == 2 and said in " ".join(out.output.split()), out.output
    size = Path(env["HC_GAME"]).stat().st_size
    said = hc("fire nguyen --kept 2 --at popov --dice 1,1", env=env)
    assert said.exit_code == 2 and "has 1 die kept" in said.output
    assert "hc fire nguyen --kept all --at NAME" in " ".join(said.output.split())
    assert Path(env["HC_GAME"]).stat().st_size == size


@pytest.mark.parametrize(("choice", "kept"), [("combat-turn", 1), ("action-turn", 0)])
def test_the_dice_keep_as_the_reading_says(hc, tmp_path, choice, kept):
    """After nguyen's burst the action turn ends (kowalski's extra action and popov pass):
    the die waits out the combat turn, or only its action turn (reading zone-dice-kept)."""
    house = tmp_path / "house.yaml"
    house.write_text(f"ruleset: t2k\nreadings:\n  zone-dice-kept: {{choice: {choice}}}\n")
    roster = Path(__file__).resolve().parent.parent / "examples" / "t2k-roster.yaml"
    path = tmp_path / "g.hcg"
    assert (
        hc("game", "new", str(path), "--roster", str(roster), "--rules", str(house)).exit_code == 0
    )
    env = {"HC_GAME": str(path)}
    for line in ("initiative --seed 2", "game next", "game next", BURST, "game next",
                 "game next"):  # fmt: skip
        said = hc(line, env=env)
        assert said.exit_code == 0, line
    # the action turn's end says so of the die it lets go
    lapses = "nguyen's 1 die kept for the zone of his burst at ivanov lapses"
    assert (lapses in " ".join(said.output.split())) == (not kept), said.output
    status = _status(hc, env)
    assert status["action_turn"] == 2
    assert sum(k["dice"] for k in status["zone_kept"]) == kept
    said = hc("fire nguyen --kept 1 --at popov --location arm --damage-done 1 --dice 1", env=env)
    assert (said.exit_code == 0) == bool(kept), said.output


def test_outside_a_game_kept_dice_are_a_burst_of_them(hc):
    """Two kept dice at hit number 1 (asset 12 x 1/8, Impossible): P(no hit) = (19/20)^2."""
    odds = json_of(hc("fire --ruleset t2k --asset 12 --strength 5 --weapon m16a2 -r 20 "
                      "--shot burst --kept 2 --odds --json"))  # fmt: skip
    assert odds["odds"]["miss"] == pytest.approx((19 / 20) ** 2)
    wrong = hc("fire --ruleset t2k --asset 12 --strength 5 --weapon m16a2 -r 20 --kept 2")
    assert wrong.exit_code == 2 and "--shot burst --kept N" in wrong.output

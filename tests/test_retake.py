"""A roll seen is a roll spent, and overrides need --anyway (issue 37, items 1 and 4).

After an undo of a rolled action its dice stay on the table for that side in that part of the
game: the next rolled action of the side there must be the same action (it rolls them again),
anything else is refused unless both players agree (--agreed), which the entry records with
what changed and `hc history` and `hc luck` show; --reroll likewise. In a game, an option in
place of what the game holds (a target's troop, a profile, a bare --mod) is refused unless
--anyway, which the entry records and history, luck and replay show.

Every reproduction of the issue, in each rule set, checked through `hc` and the game file
itself; the expected differences are the options the test itself gave."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from games_setup import HC_OPENING, Game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hc_cli.games.retake import retake_problems, sides_of

CODE = re.compile(r"hc seal (\w+) (\d+(?::[0-9a-f]+|:[oh])+)")


# ---------------------------------------------------------------------------------------------
# Item 1: a roll seen is a roll spent


def test_high_crusade_another_range_is_refused_the_same_range_rolls_the_same_dice(hc_game):
    first = hc_game.taken_back("fire boyz --at fireteam-1 -r 22")
    said = hc_game.refused("fire boyz --at fireteam-1 -r 4")
    assert f"entry {first['seq']}" in said and "range 22 -> 4" in said and "--agreed" in said
    hc_game.ok("fire boyz --at fireteam-1 -r 22")
    again = hc_game.last()
    assert again["seed"] == first["seed"] and again["game"]["reused"] == first["seq"]
    assert [s["rolls"] for s in again["result"]["shots"]] == [
        s["rolls"] for s in first["result"]["shots"]
    ]
    assert hc_game.problems() == []


def test_a_name_mistyped_after_an_undo_is_named_as_that_not_as_another_action(hc_game):
    """Found in play: `--mod target-statc` after an undo read "another action (mod not given
    -> target-statc)": the modifier the tables lack is said first, with its right spelling."""
    hc_game.taken_back("fire boyz --at fireteam-1 -r 22")
    said = hc_game.refused("fire boyz --at fireteam-1 -r 22 --mod target-statc")
    assert "unknown modifier 'target-statc'" in said and "target-static" in said
    assert "another action" not in said
    assert "range 22 -> 4" in hc_game.refused("fire boyz --at fireteam-1 -r 4")  # still bound
    # dice that do not fit the other action hide nothing: the refusal is said (review)
    assert "range 22 -> 4" in hc_game.refused("fire boyz --at fireteam-1 -r 4 --dice 5")


def test_high_crusade_a_range_put_right_within_its_band_is_another_range(hc_game):
    hc_game.taken_back("fire boyz --at fireteam-1 -r 22")
    assert "range 22 -> 23" in hc_game.refused("fire boyz --at fireteam-1 -r 23")


def test_high_crusade_another_target_of_the_same_troop_only_as_both_agree(hc_game):
    first = hc_game.taken_back("fire boyz --at fireteam-1 -r 14")
    said = hc_game.refused("fire boyz --at fireteam-2 -r 14")
    assert "at fireteam-1 -> fireteam-2" in said
    hc_game.ok("fire boyz --at fireteam-2 -r 14 --agreed")
    entry = hc_game.last()
    assert entry["game"]["agreed"] == {
        "undone": first["seq"],
        "changed": ["at fireteam-1 -> fireteam-2"],
    }
    assert "reused" not in entry["game"]
    assert (
        f"(agreed: in place of entry {first['seq']}, taken back: at fireteam-1 -> fireteam-2)"
        in hc_game.history()
    )
    luck = hc_game.luck()
    assert [a["entry"] for a in luck["agreed"]] == [entry["seq"]]
    assert luck["set_aside_by_side"] == {"Orcs": {"rerolls": 0, "agreed": 1, "overrides": 0}}
    text = " ".join(hc_game.ok(f"luck {hc_game.file}").stdout.split())
    assert "Orcs: 0 re-rolls and 1 re-take agreed, 0 overrides" in text
    assert hc_game.problems() == []


def test_high_crusade_another_unit_of_the_side_waits_for_the_dice_on_the_table(hc_game):
    hc_game.taken_back("fire boyz --at fireteam-1 -r 14")
    assert "unit boyz -> ladz" in hc_game.refused("fire ladz --at fireteam-1 -r 14")


def test_a_reroll_is_shown_with_what_it_set_aside_and_counted_by_side(hc_game):
    first = hc_game.taken_back("fire boyz --at fireteam-1 -r 14")
    assert "another" in hc_game.refused("fire boyz --at fireteam-1 -r 15 --reroll")
    hc_game.ok("fire boyz --at fireteam-1 -r 14 --reroll")
    entry = hc_game.last()
    assert entry["game"]["reroll"] == first["seq"]
    assert f"re-rolled, agreed: entry {first['seq']}'s dice set aside" in hc_game.history()
    luck = hc_game.luck()
    assert luck["rerolls"][0]["sets_aside"] == first["seq"]
    assert luck["set_aside_by_side"]["Orcs"]["rerolls"] == 1


def test_agreed_with_no_dice_on_the_table_is_refused(hc_game):
    assert "no dice taken back" in hc_game.refused("fire boyz --at fireteam-1 -r 14 --agreed")


def test_the_dice_on_the_table_are_spent_once_taken_again(hc_game):
    """Taken again, then taken back once more: those dice are the ones on the table still,
    and a second undo of the same does not free the side."""
    first = hc_game.taken_back("fire boyz --at fireteam-1 -r 14")
    again = hc_game.taken_back("fire boyz --at fireteam-1 -r 14")
    assert again["game"]["reused"] == first["seq"] and again["seed"] == first["seed"]
    said = hc_game.refused("fire boyz --at fireteam-1 -r 5")
    assert f"entry {again['seq']}" in said
    hc_game.ok("fire boyz --at fireteam-1 -r 14")
    assert hc_game.last()["seed"] == first["seed"]
    hc_game.ok("fire ladz --at fireteam-2 -r 14")  # the table is clear: the next acts freely
    assert hc_game.problems() == []


def test_every_action_an_undo_to_takes_back_leaves_its_dice(hc_game):
    hc_game.ok("fire boyz --at fireteam-1 -r 14")
    boyz = hc_game.last()
    hc_game.ok("fire ladz --at fireteam-2 -r 14")
    ladz = hc_game.last()
    hc_game.ok(f"undo --to {boyz['seq'] - 1}")
    assert f"entry {ladz['seq']}" in hc_game.refused("fire ladz --at fireteam-1 -r 14")
    hc_game.ok("fire ladz --at fireteam-2 -r 14")
    hc_game.ok("fire boyz --at fireteam-1 -r 14")
    assert [e["game"]["reused"] for e in hc_game.entries()[-2:]] == [ladz["seq"], boyz["seq"]]
    assert hc_game.problems() == []


def _exchange(game: Game, line: str) -> None:
    """A sealed roll made whole between two players (each with a folder of their own)."""
    b = {"XDG_CONFIG_HOME": str(game.file.parent / "b"), "HC_GAME": "none"}

    def code(printed: str) -> str:
        return "seal " + " ".join(CODE.findall(printed)[-1])

    said = game.ok(line).stdout
    said = game.hc(code(said), env=b).stdout
    said = game.ok(code(said)).stdout
    said = game.hc(code(said), env=b).stdout
    game.ok(code(said))


def test_sealed_after_an_undo_only_as_both_agree_and_the_roll_says_so(rt_game):
    first = rt_game.taken_back("fire marines --at boyz --range 10")
    said = rt_game.refused("fire marines --at boyz --range 10 --sealed")
    assert "--sealed" in said and f"entry {first['seq']}" in said
    _exchange(rt_game, "fire marines --at boyz --range 10 --sealed --agreed")
    roll = rt_game.last()
    assert roll["game"]["sealed"] is not None and roll["seed"] != first["seed"]
    assert roll["game"]["agreed"]["undone"] == first["seq"]
    assert roll["game"]["agreed"]["changed"] == ["--sealed: a seed from both players' secrets"]
    assert rt_game.problems() == []
    assert rt_game.ok(f"replay {rt_game.file} -q").exit_code == 0


def test_rogue_trader_a_model_of_the_target_is_another_target(rt_game):
    rt_game.taken_back("fire marines --at boyz --range 10")
    assert "at boyz -> boyz:3" in rt_game.refused("fire marines --at boyz:3 --range 10")


def test_rogue_trader_one_model_in_place_of_its_unit_is_another_unit(rt_game):
    rt_game.taken_back("fire marines --at boyz --range 10")
    assert "unit marines -> marines:2" in rt_game.refused("fire marines:2 --at boyz --range 10")


def test_twilight_2000_a_burst_then_an_aimed_shot_at_the_same_man(t2k_game):
    first = t2k_game.taken_back("fire kowalski --at ivanov --range 30 --shot burst")
    said = t2k_game.refused("fire kowalski --at ivanov --range 30")
    assert "shot burst -> aimed (not given)" in said and f"entry {first['seq']}" in said
    assert "shot burst -> aimed" in t2k_game.refused(
        "fire kowalski --at ivanov --range 30 --shot aimed"
    )
    t2k_game.ok("fire --at ivanov --range 30 --shot burst")  # his action: the same, filled in
    assert t2k_game.last()["game"]["reused"] == first["seq"]


# ---------------------------------------------------------------------------------------------
# Item 4: overrides need --anyway


def test_high_crusade_a_target_troop_or_a_bare_mod_needs_anyway(hc_game, hc):
    said = hc_game.refused("fire boyz --at fireteam-1 -r 14 --target orc")
    assert "--target orc overrides fireteam-1's troop, crusader" in said and "--anyway" in said
    assert "--mod 60 is a bare number" in hc_game.refused(
        "fire boyz --at fireteam-1 -r 14 --mod 60"
    )
    for line in ("--df 3", "--chance 90", "--weapon ingrave-ar", "--order static"):
        assert "overrides" in hc_game.refused(f"fire boyz --at fireteam-1 -r 14 {line}"), line
    hc_game.ok("fire boyz --at fireteam-1 -r 14 --target crusader --odds")  # what it holds
    hc_game.ok("fire boyz --at fireteam-1 -r 14 --target orc --mod 60 --anyway")
    entry = hc_game.last()
    assert entry["game"]["overrides"] == [
        "--mod 60 is a bare number, no modifier of the tables",
        "--target orc overrides fireteam-1's troop, crusader",
    ]
    assert entry["flags"]["target"] == ["orc"]
    assert "(--anyway: --mod 60 is a bare number" in hc_game.history()
    luck = hc_game.luck()
    assert luck["set_aside_by_side"]["Orcs"]["overrides"] == 1
    (rated,) = [a for a in luck["actions"] if a["entry"] == entry["seq"]]
    assert "--target orc" in rated["override"]
    replay = " ".join(hc_game.ok(f"replay {hc_game.file}").stdout.split())
    assert "(override recorded, --anyway: --mod 60 is a bare number" in replay
    exported = hc_game.ok("game export").stdout.splitlines()[-1]  # played again, it stands
    assert "--target orc" in exported and exported.endswith("--anyway")
    # outside a game, nothing changes
    assert hc("fire -w bolt-gun -r 14 -t orc --mod 60 -q").exit_code == 0


def test_high_crusade_a_morale_test_with_the_game_s_troop_and_triggers(hc_game):
    hc_game.ok("fire boyz --at fireteam-1 -r 14 --dice 99,99,99,99,99,99,99,99")
    assert "--troop orc overrides fireteam-1's troop" in hc_game.refused(
        "morale fireteam-1 --troop orc"
    )
    assert "--ambushed overrides the triggers due" in hc_game.refused(
        "morale fireteam-1 --ambushed"
    )


def test_rogue_trader_a_profile_a_weapon_a_bare_mod_need_anyway(rt_game):
    base = "fire marines --at boyz --range 10"
    for option, said in (
        ("--firer ork", "--firer ork overrides marines' profile, space-marine"),
        ("--bs 9", "--bs 9 overrides marines' profile"),
        ("--weapon lascannon", "--weapon lascannon overrides marines' weapon, bolt-gun"),
        ("--strength 9", "--strength 9 overrides the numbers of marines' weapon"),
        ("--toughness 1", "--toughness 1 overrides boyz's profile, ork"),
        ("--mod 3", "--mod 3 is a bare number"),
        ("--moved", "--moved overrides what the game holds"),
    ):
        assert said in rt_game.refused(f"{base} {option}"), option
    rt_game.ok(f"{base} --firer space-marine --weapon bolt-gun")  # what the game holds
    rt_game.ok("undo")
    quiet = rt_game.ok(f"{base} --bs 9 --anyway --agreed -q").stdout  # -q says it too
    assert "--anyway: --bs 9 overrides marines' profile" in " ".join(quiet.split())
    assert rt_game.last()["game"]["overrides"] == [
        "--bs 9 overrides marines' profile, space-marine"
    ]


def test_twilight_2000_an_asset_a_bare_mod_need_anyway(t2k_game):
    base = "fire kowalski --at ivanov --range 30"
    assert "--asset 20 overrides kowalski's asset, 12" in t2k_game.refused(f"{base} --asset 20")
    assert "--skill 9 overrides kowalski's asset" in t2k_game.refused(
        f"{base} --skill 9 --attribute 9"
    )
    assert "--rof 50 overrides the numbers" in t2k_game.refused(f"{base} --rof 50")
    # the roster gives kowalski an M16A2: an M60 is not his (found in play)
    said = t2k_game.refused(f"{base} --weapon m60")
    assert "--weapon m60 overrides kowalski's weapon, m16a2" in said
    assert "--mod 2 is a bare number" in t2k_game.refused(f"{base} --mod 2")
    t2k_game.ok(f"{base} --asset 12")  # what the roster holds
    t2k_game.ok("undo")
    # dice read off the table (as --dice are) are no override; another action after the undo
    t2k_game.ok(f"{base} --asset 12 --location head --damage-done 3 --agreed")


# ---------------------------------------------------------------------------------------------
# The fuzz: a rolled action, taken back, made again with one option changed


ACTIONS = st.fixed_dictionaries(
    {
        "unit": st.sampled_from(["boyz", "ladz"]),
        "at": st.sampled_from(["fireteam-1", "fireteam-2"]),
        "range": st.integers(1, 30),  # the bolt gun and the eggtimer reach 30"
        "ambush": st.booleans(),
    }
)
CHANGES = st.sampled_from(["unit", "at", "range", "ambush", "sealed"])


def _line(action: dict) -> str:
    return (f"fire {action['unit']} --at {action['at']} -r {action['range']}"
            + (" --ambush" if action["ambush"] else ""))  # fmt: skip


def _changed(action: dict, what: str, shift: int) -> tuple[dict, str]:
    other = dict(action)
    if what == "unit":
        other["unit"] = "ladz" if action["unit"] == "boyz" else "boyz"
        return other, f"unit {action['unit']} -> {other['unit']}"
    if what == "at":
        other["at"] = "fireteam-2" if action["at"] == "fireteam-1" else "fireteam-1"
        return other, f"at {action['at']} -> {other['at']}"
    if what == "range":
        other["range"] = (action["range"] + shift - 1) % 30 + 1
        return other, f"range {action['range']} -> {other['range']}"
    if what == "ambush":
        other["ambush"] = not action["ambush"]
        return other, f"ambush {'on' if action['ambush'] else 'not given'} -> " + (
            "not given" if action["ambush"] else "on"
        )
    return other, "--sealed"


@pytest.fixture(scope="module")
def opened(tmp_path_factory):
    """A High Crusade game at the Orcs' fire, made once and copied for each draw."""
    from conftest import Hc

    folder = tmp_path_factory.mktemp("opened")
    Game(Hc(), folder / "start.hcg", "high-crusade", *HC_OPENING)
    return folder / "start.hcg"


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(action=ACTIONS, what=CHANGES, shift=st.integers(1, 29))
def test_a_retake_with_one_option_changed_needs_both_players(
    hc, tmp_path, opened, action, what, shift
):
    # Each draw a player of its own (a copy of one game is that game: a player's hc that
    # played on one copy would find the next copy behind it).
    draw = Path(tempfile.mkdtemp(dir=tmp_path))
    path = draw / "draw.hcg"
    shutil.copyfile(opened, path)
    game = Game.__new__(Game)
    game.hc, game.file = hc, path
    game.env = {"HC_GAME": str(path), "XDG_CONFIG_HOME": str(draw / "a"),
                "XDG_STATE_HOME": str(draw / "state")}  # fmt: skip
    first = game.taken_back(_line(action))
    other, change = _changed(action, what, shift)
    line = _line(other) + (" --sealed" if what == "sealed" else "")
    said = game.refused(line)
    assert f"entry {first['seq']}" in said and change in said
    if what == "sealed":
        return  # sealed as both agree: test_sealed_after_an_undo_only_as_both_agree...
    game.ok(line + " --agreed")
    entry = game.last()
    assert entry["game"]["agreed"] == {"undone": first["seq"], "changed": [change]}
    assert f"in place of entry {first['seq']}, taken back: {change}" in game.history()
    luck = game.luck()
    side = luck["set_aside_by_side"]["Orcs"]
    assert side["agreed"] == 1 and [a["changed"] for a in luck["agreed"]] == [[change]]
    assert game.problems() == []


# ---------------------------------------------------------------------------------------------
# The rule, read from the file: what a hand-edited entry breaks


def test_the_rule_finds_an_edited_retake_in_the_file(hc_game):
    first = hc_game.taken_back("fire boyz --at fireteam-1 -r 22")
    hc_game.ok("fire boyz --at fireteam-1 -r 4 --agreed")
    assert hc_game.problems() == []
    entries = hc_game.entries()
    entries[-1]["game"].pop("agreed")  # the agreement struck out: fresh dice, unagreed
    sides = sides_of(entries[0]["game"]["roster"])
    ((seq, problem),) = retake_problems(enumerate(entries, 1), sides)
    assert seq == entries[-1]["seq"] and f"entry {first['seq']}" in problem
    entries[-1]["game"]["reused"] = first["seq"]  # claimed as the same dice, another range
    ((_, problem),) = retake_problems(enumerate(entries, 1), sides)
    assert "another action" in problem


def test_replay_finds_a_retake_the_file_was_edited_to_hide(hc_game):
    """The last entry, a fire in place of one taken back as both agreed, edited to drop the
    agreement: its dice still give its result, its game part is still legal, but the dice on
    the table were passed over, and replay says so (the whole file held to the rule)."""
    game = hc_game
    game.taken_back("fire boyz --at fireteam-1 -r 22 --seed 5")
    game.ok("fire boyz --at fireteam-1 -r 4 --seed 6 --agreed")
    assert game.hc("replay", str(game.file)).exit_code == 0
    lines = game.file.read_bytes().splitlines()
    entry = json.loads(lines[-1])
    del entry["game"]["agreed"]
    lines[-1] = json.dumps(entry, separators=(",", ":"), ensure_ascii=False).encode()
    game.file.write_bytes(b"\n".join(lines) + b"\n")
    replay = game.hc("replay", str(game.file))
    said = " ".join(replay.stdout.split())
    assert replay.exit_code == 1, said
    seq = len(lines)
    assert f"entry {seq} rolls new dice while those of entry {seq - 2}, taken back" in said, said
    assert "no agreement is recorded" in said


def test_an_action_that_rolls_no_dice_is_free_while_dice_are_on_the_table(rt_game):
    """A move rolls no dice: after an undo of a shot, it is taken freely (found in play: a
    move was refused as 'another action'); the shot's dice stay on the table."""
    rt_game.taken_back("fire marines --at boyz --range 10")
    rt_game.ok("move lascannon-team")
    assert "was taken back" in rt_game.refused("fire marines --at boyz --range 5")
    rt_game.ok("fire marines --at boyz --range 10")
    assert rt_game.problems() == []

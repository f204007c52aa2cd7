"""Games that remember, played through `hc` commands from the seeds' own examples; `hc status
--json` is checked after every step. Expected values come from the texts: the morale example
(seed 001: 5 + 2 - 4 - 2 = 1, a rout; the Regroup with +2 and -1), Rogue Trader's wounds that
stay on a model until it is removed (seed 003), Twilight: 2000's Initiative lowered by wounds
(seed 002: slight -1, serious -3, critical -5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from games_setup import json_of, start_game
from helpers import HC_SKIRMISH

HC_ROSTER = HC_SKIRMISH.replace("sides:", "title: Ambush at Karsk\nsides:")

RT_ROSTER = """\
ruleset: rogue-trader
sides:
  Imperials:
    lascannon-team: {profile: space-marine, weapon: lascannon}
    marines: {profile: space-marine, models: 5, weapon: bolt-gun}
  Orks:
    carnosaur: {profile: carnosaur}
    boyz: {profile: ork, models: 10, weapon: bolt-gun}
"""

T2K_ROSTER = """\
ruleset: t2k
sides:
  Americans:
    kowalski: {asset: 12, strength: 5, initiative: 6, agility: 7, weapon: m16a2}
  Soviets:
    ivanov: {asset: 10, strength: 6, initiative: 5, agility: 6, weapon: ak-74}
"""


@pytest.fixture
def game(hc, tmp_path):
    """A game started from a roster; returns (act, status): act runs an hc command line in
    it (HC_GAME set) and returns the result, status its `hc status --json`."""

    def start(roster: str):
        (tmp_path / "roster.yaml").write_text(roster, encoding="utf-8")
        path = str(tmp_path / "game.hcg")
        act, status = start_game(hc, path, tmp_path / "roster.yaml")
        return act, status, path

    return start


def _row(status: dict, side: str, name: str) -> dict:
    return next(r for r in status["sides"][side] if r["name"] == name)


# ---------------------------------------------------------------------------------------------
# High Crusade: the ambushed Crusader Fireteam (seed 001)


def test_high_crusade_the_ambushed_fireteam_routs_and_is_regrouped(game):
    act, status, _ = game(HC_ROSTER)
    s = status()
    assert (s["move"], s["step"], s["player_a"]) == (0, 0, None)
    assert s["due"] == ["roll the Initiative for move 1: hc initiative"]
    assert _row(s, "Free Companies", "fireteam-1")["figures"] == "5/5"

    # Move 1: the Orcs win the Initiative (D10 3 against 6) and are Player A.
    first = json_of(act("initiative", "--dice", "3,6", "--json"))
    # The orders phase opens the move (a Regroup order is issued "in the orders phase").
    assert first["game"]["clock"] == (
        "move 1, the orders phase: both players give their orders, a Regroup order among them"
    )
    s = status()
    assert (s["move"], s["step"], s["player_a"], s["player_b"]) == (1, 0, "Orcs", "Free Companies")

    # "it has previously been shot at earlier in the game": eight misses, a first test.
    shot = json_of(act("fire", "boyz", "--at", "fireteam-1", "--range", "14", "--dice",
                     ",".join(["99"] * 8), "--json"))  # fmt: skip
    assert shot["inputs"]["shots"] == 8 and shot["summary"]["kills"] == 0
    s = status()
    assert s["step"] == 2  # Player A fires: step 1 (A moves) is over
    assert _row(s, "Orcs", "boyz")["fired"] is True
    assert _row(s, "Free Companies", "fireteam-1")["due"] == ["first time fired at"]
    assert "fireteam-1 must test morale (first time fired at): hc morale fireteam-1" in s["due"]
    passed = json_of(act("morale", "fireteam-1", "--dice", "9", "--json"))
    assert passed["outcome"] == "pass" and passed["inputs"]["fired_at"] is True
    assert _row(status(), "Free Companies", "fireteam-1")["due"] == []

    # Move 2: the Orcs again; the ambush kills one Crusader (bolt gun 65/5 against DF 5).
    json_of(act("initiative", "--dice", "2,8", "--json"))
    s = status()
    assert (s["move"], s["step"]) == (2, 0)
    assert _row(s, "Orcs", "boyz")["fired"] is False
    ambush = json_of(act("fire", "boyz", "--at", "fireteam-1", "--range", "8", "--ambush",
                       "--dice", ",".join(["07"] + ["99"] * 7), "--json"))  # fmt: skip
    assert ambush["summary"]["kills"] == 1
    row = _row(status(), "Free Companies", "fireteam-1")
    assert (row["figures"], row["casualties"]) == ("4/5", 1)
    assert row["due"] == ["ambushed", "first casualty"]  # fired at before: not that trigger

    # The worked example: 5 + 2 (Crusaders) - 4 (ambushed) - 2 (first casualty) = 1: rout.
    test = json_of(act("morale", "fireteam-1", "--dice", "5", "--json"))
    assert [(m["name"], m["value"]) for m in test["modifiers"]] == [
        ("crusader", 2),
        ("ambushed", -4),
        ("first-casualty", -2),
    ]
    assert (test["total"], test["outcome"]) == (1, "rout")
    s = status()
    assert _row(s, "Free Companies", "fireteam-1")["morale"] == "routed"
    assert any(d.startswith("fireteam-1 is routed: it makes a full Advance move") for d in s["due"])
    refused = act("fire", "fireteam-1", "--at", "boyz", "--range", "8", "--seed", "1")
    assert refused.exit_code == 2 and "fireteam-1 is routed" in refused.stderr

    # Move 3: the Regroup order, "+2 because they are Crusaders, but now -1 for the casualty
    # they have suffered"; the ambush and first-casualty modifiers no longer apply.
    json_of(act("initiative", "--dice", "7,4", "--json"))
    s = status()
    assert (s["move"], s["player_a"]) == (3, "Free Companies")
    rally = json_of(act("rally", "fireteam-1", "--dice", "4", "--json"))
    assert [(m["name"], m["value"]) for m in rally["modifiers"]] == [
        ("crusader", 2),
        ("casualties", -1),
    ]
    assert (rally["total"], rally["outcome"]) == (5, "rallied")
    s = status()
    assert _row(s, "Free Companies", "fireteam-1")["morale"] == "rallied (Static)"
    # "cannot fire any weapons during a Regroup move" ...
    static = act("fire", "fireteam-1", "--at", "boyz", "--range", "8", "--seed", "1")
    assert static.exit_code == 2 and "stays Static and may not fire" in static.stderr
    # ... "receives the benefits of being regarded as a Static target", and "if during a
    # Regroup move the enemy inflicts further casualties on the Fireteam, then it will
    # automatically rout". The Orcs are Player B: they fire at step 5.
    # The orders phase, then step 1 (the Free Companies move); their fire steps 2 and 4 pass
    # by themselves, fireteam-1 being Static: nothing is left to fire.
    clocks = [json_of(act("game", "next", "--json"))["clock"] for _ in range(2)]
    assert clocks == [
        "move 3, step 1: Free Companies moves its Fireteams",
        "move 3, step 3: Orcs moves",
    ]
    assert json_of(act("game", "next", "--json"))["clock"] == "move 3, step 5: Orcs fires"
    hit = json_of(act("fire", "boyz", "--at", "fireteam-1", "--range", "8", "--dice",
                    ",".join(["07"] + ["99"] * 7), "--json"))  # fmt: skip
    assert "target-static" in [m["name"] for m in hit["modifiers"]]
    assert any("routs at once" in change for change in hit["game"]["changes"])
    row = _row(status(), "Free Companies", "fireteam-1")
    assert (row["figures"], row["morale"]) == ("3/5", "routed")


def test_high_crusade_the_move_sequence_and_fired_this_move(game):
    act, status, _ = game(HC_ROSTER)
    early = act("fire", "boyz", "--at", "fireteam-1", "--range", "14", "--seed", "1")
    assert early.exit_code == 2 and "roll the Initiative first" in early.stderr
    json_of(act("initiative", "--dice", "3,6", "--json"))  # Orcs are Player A
    # Player B fires at step 5 only ("Player B fires").
    b_early = act("fire", "fireteam-1", "--at", "boyz", "--range", "14", "--seed", "1")
    assert b_early.exit_code == 2 and "Free Companies fires at step 5" in b_early.stderr
    json_of(act("fire", "boyz", "--at", "fireteam-1", "--range", "14", "--dice",
              ",".join(["99"] * 8), "--json"))  # fmt: skip
    again = act("fire", "boyz", "--at", "fireteam-1", "--range", "14", "--seed", "1")
    assert again.exit_code == 2 and "boyz has already fired this move" in again.stderr
    # --anyway records the override in the game.
    anyway = json_of(act("fire", "boyz", "--at", "fireteam-1", "--range", "14", "--anyway",
                       "--dice", ",".join(["99"] * 8), "--json"))  # fmt: skip
    assert anyway["game"]["anyway"] == "--anyway: boyz has already fired this move"
    # The test fireteam-1 must take holds the move where it is until it is taken.
    held = act("game", "next")
    assert held.exit_code == 2 and "hc morale fireteam-1" in held.stderr.replace("\n    ", " ")
    # Once the test is taken, the Orcs' fire step has nothing left to fire: it passes.
    taken = json_of(act("morale", "fireteam-1", "--dice", "9", "--json"))
    assert taken["game"]["clock"] == "move 1, step 3: Free Companies moves"
    # Step 4 passes as well: the Orcs have no Fireteam that has not fired.
    assert json_of(act("game", "next", "--json"))["clock"] == "move 1, step 5: Free Companies fires"
    over = act("game", "next")
    assert over.exit_code == 2 and "move 1 is over" in over.stderr


# ---------------------------------------------------------------------------------------------
# Rogue Trader: a multi-wound model wounded across two turns (seed 003)


def test_rogue_trader_wounds_stay_on_the_model_until_it_is_removed(game):
    act, status, _ = game(RT_ROSTER)
    assert _row(status(), "Orks", "carnosaur")["taken"] == [0]
    coin = json_of(act("initiative", "--dice", "1", "--json"))  # heads: the first side named
    assert coin["outcome"] == "Imperials"
    s = status()
    assert (s["turn"], s["playing"]) == (1, "Imperials")

    # Turn 1: the lascannon (S 9, 2d6 wounds) hits (4), wounds (3) and does 2 + 1 = 3 of the
    # carnosaur's 6 wounds: it stays on the table with 3 wounds on it.
    first = json_of(act("fire", "lascannon-team", "--at", "carnosaur", "--range", "20",
                      "--dice", "4,3,2,1", "--json"))  # fmt: skip
    assert (first["outcome"], first["wounds"]) == ("wounded", 3)
    row = _row(status(), "Orks", "carnosaur")
    assert (row["taken"], row["models"], row["wounds"]) == ([3], "1/1", ["3/6"])
    twice = act("fire", "lascannon-team", "--at", "carnosaur", "--range", "20", "--seed", "1")
    assert twice.exit_code == 2 and "has fired this turn" in twice.stderr

    # The Orks' turn, then turn 2: the wounds are still there, and the game fills them in.
    assert json_of(act("game", "next", "--json"))["clock"] == "turn 1: Orks plays"
    assert json_of(act("game", "next", "--json"))["clock"] == "turn 2: Imperials plays"
    assert _row(status(), "Orks", "carnosaur")["taken"] == [3]
    second = json_of(act("fire", "lascannon-team", "--at", "carnosaur", "--range", "20",
                       "--dice", "5,2,2,2", "--json"))  # fmt: skip
    assert second["inputs"]["wounds_taken"] == 3  # 3 left: 2 + 2 = 4 removes it
    assert second["outcome"] == "casualty"
    row = _row(status(), "Orks", "carnosaur")
    assert (row["models"], row["left"]) == ("0/1", 0)
    # Removed models no longer get shot, nor fire.
    gone = act("fire", "marines", "--at", "carnosaur", "--range", "10", "--seed", "1")
    assert gone.exit_code == 2 and "every model of carnosaur is removed" in gone.stderr


def test_rogue_trader_a_unit_s_shots_each_at_a_model_of_its_own(game):
    act, status, _ = game(RT_ROSTER)
    json_of(act("initiative", "--dice", "1", "--json"))
    # Five marines, a shot each at five of the ten boyz: to hit 3 1 6 6 5 (BS 4 needs 3),
    # to wound (S 4 against T 4 needs 4) 4 2 6 5, no save (none): three orks removed.
    out = json_of(act("fire", "marines", "--at", "boyz", "--range", "10", "--dice",
                    "3,1,6,6,5,4,2,6,5", "--json"))  # fmt: skip
    assert out["inputs"]["shots"] == 5 and out["summary"]["casualties"] == 3
    row = _row(status(), "Orks", "boyz")
    assert row["models"] == "7/10"


# ---------------------------------------------------------------------------------------------
# Twilight: 2000: a seriously wounded character acts later in the order (seed 002)


def test_t2k_a_seriously_wounded_character_acts_later(game):
    act, status, _ = game(T2K_ROSTER)
    order = json_of(act("initiative", "--json"))["order"]
    # Kowalski 6 (above 5: an extra action at 3), Ivanov 5.
    assert [(o["name"], o["initiative"]) for o in order] == [
        ("kowalski", 6), ("ivanov", 5), ("kowalski", 3)]  # fmt: skip
    s = status()
    assert (s["combat_turn"], s["action_turn"], s["acting"]) == (1, 1, "kowalski")
    out_of_turn = act("fire", "ivanov", "--at", "kowalski", "--range", "30", "--seed", "1")
    assert out_of_turn.exit_code == 2 and "it is kowalski's action" in out_of_turn.stderr

    # Kowalski misses (d20 20); his action is spent, and it is Ivanov's.
    json_of(act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--dice", "20", "--json"))
    s = status()
    assert s["acting"] == "ivanov"
    assert _row(s, "Americans", "kowalski")["rounds"] == "29/30"
    # Ivanov hits (d20 3 against 10): the chest (d10 3), damage 2d6 = 4 + 5 = 9: a serious
    # wound (the sample table: 8 damage or more), Initiative 6 - 3 = 3.
    hit = json_of(act("fire", "ivanov", "--at", "kowalski", "--range", "30", "--dice", "3,3,4,5",
                    "--json"))  # fmt: skip
    assert hit["hit_effects"] == [{"location": "chest", "damage": 9}]
    s = status()
    kowalski = _row(s, "Americans", "kowalski")
    assert (kowalski["wound"], kowalski["damage"], kowalski["initiative_now"]) == ("serious", 9, 3)
    # The loss takes effect from the next action turn (the reading wound-initiative): the rest
    # of this one goes as it began, Kowalski's extra action at 3 in it.
    assert any("lowers his Initiative to 3 from the next action turn" in d for d in s["due"])
    assert s["acting"] == "kowalski"
    after = json_of(act("game", "next", "--json"))
    assert after["clock"] == "combat turn 1, action turn 2: ivanov's action"
    # The game makes the new order itself: Ivanov 5 first, Kowalski (serious, 6 - 3 = 3)
    # later, and no extra action; a roll of the order now is step 1's, refused.
    s = status()
    assert [(o["name"], o["initiative"], o["extra"]) for o in s["order"]] == [
        ("ivanov", 5, False), ("kowalski", 3, False)]  # fmt: skip
    again = act("initiative", "--json")
    assert again.exit_code == 2 and "hc initiative comes in step 1" in again.stderr
    assert status()["acting"] == "ivanov"


def test_t2k_a_burst_uses_its_rounds_and_a_reload_takes_its_actions(game, tmp_path):
    roster = T2K_ROSTER.replace("weapon: m16a2}", "weapon: m60, rounds: 12}")
    act, status, _ = game(roster)
    json_of(act("initiative", "--json"))
    # An M60 burst is 10 rounds (its ROF).
    burst = json_of(act("fire", "kowalski", "--at", "ivanov", "--range", "100", "--shot", "burst",
                      "--seed", "4", "--json"))  # fmt: skip
    assert burst["rounds"] == 10
    assert _row(status(), "Americans", "kowalski")["rounds"] == "2/100"
    for _ in range(2):  # Ivanov passes, then Kowalski's extra action
        json_of(act("game", "next", "--json"))
    dry = act("fire", "kowalski", "--at", "ivanov", "--range", "100", "--shot", "burst",
              "--seed", "4")  # fmt: skip
    assert dry.exit_code == 2 and "2 rounds left, the shot needs 10: hc reload kowalski" in (
        dry.stderr.replace("\n    ", " ")
    )
    # "B 2 actions for one person": the belt takes two of his actions.
    first = json_of(act("reload", "kowalski", "--json"))
    assert (first["actions"], first["outcome"]) == (2, "reloading")
    assert "reloading (1 done)" in _row(status(), "Americans", "kowalski")["state"]
    json_of(act("game", "next", "--json"))  # Ivanov passes
    json_of(act("reload", "kowalski", "--json"))
    assert _row(status(), "Americans", "kowalski")["rounds"] == "100/100"


# ---------------------------------------------------------------------------------------------
# Undo, history, export, replay


def test_undo_appends_and_status_and_replay_agree(game, hc, tmp_path):
    act, status, path = game(HC_ROSTER)
    json_of(act("initiative", "--dice", "3,6", "--json"))
    before = status()
    json_of(act("fire", "boyz", "--at", "fireteam-1", "--range", "8", "--dice",
              ",".join(["07"] * 8), "--json"))  # fmt: skip
    assert _row(status(), "Free Companies", "fireteam-1")["figures"] == "0/5"
    lines_before = Path(path).read_text(encoding="utf-8").splitlines()
    undone = json_of(act("undo", "--json"))
    assert undone["changes"][0].startswith("undid entry 3: boyz fire at fireteam-1")
    lines_after = Path(path).read_text(encoding="utf-8").splitlines()
    assert lines_after[: len(lines_before)] == lines_before  # nothing rewritten
    assert json.loads(lines_after[-1])["game"] == {
        "event": "undo", "undoes": 3, "what": json.loads(lines_before[-1]) and
        undone["changes"][0].partition(": ")[2]}  # fmt: skip
    after = status()
    assert after["sides"] == before["sides"] and after["entries"] == 4
    replay = hc("replay", path)
    assert replay.exit_code == 0 and "4 entries: 4 reproduced" in replay.stdout
    history = act("history").stdout
    assert "(undone)" in history and "move 1" in history
    nothing = act("undo")
    assert nothing.exit_code == 0  # the initiative is still in effect: it is undone now
    assert act("undo").exit_code == 2  # and then nothing is left to undo


def test_export_plays_the_game_again(game, hc, tmp_path, monkeypatch):
    import subprocess
    import sys

    act, status, path = game(HC_ROSTER)
    json_of(act("initiative", "--dice", "3,6", "--json"))
    json_of(act("game", "next", "--json"))  # a step, then the fire (which wipes fireteam-1 out)
    json_of(act("fire", "boyz", "--at", "fireteam-1", "--range", "8", "--ambush", "--seed", "11",
              "--json"))  # fmt: skip
    script = act("game", "export").stdout
    assert "hc fire boyz --at fireteam-1 --range 8 --ambush --seed 11" in script
    elsewhere = tmp_path / "again"
    elsewhere.mkdir()
    (elsewhere / "replay.sh").write_text(script, encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "hc").write_text(f'#!/bin/sh\nexec {sys.executable} -m hc_cli "$@"\n')
    (bin_dir / "hc").chmod(0o755)
    env = {k: v for k, v in __import__("os").environ.items() if k != "HC_GAME"}
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    run = subprocess.run(["sh", "replay.sh"], cwd=elsewhere, env=env, capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    again = hc("status", "--json", "--game", str(elsewhere / "game.hcg"))
    first = status()
    replayed = json.loads(again.stdout)
    assert replayed["sides"] == first["sides"] and replayed["clock"] == first["clock"]


# ---------------------------------------------------------------------------------------------
# Bad input: exit 2, what is wrong and what is right; nothing appended


def test_bad_actions_are_refused_and_append_nothing(game, hc, tmp_path):
    act, status, path = game(HC_ROSTER)
    json_of(act("initiative", "--dice", "3,6", "--json"))
    size = len(Path(path).read_bytes())
    cases = [
        (("fire", "nobody", "--at", "boyz", "-r", "8"), "unknown unit 'nobody' in this game"),
        (("fire", "boyz", "--at", "boyz", "-r", "8"), "boyz is on boyz's own side (Orcs)"),
        (("fire", "boyz", "-r", "8"), "needs its target"),
        (("fire", "boyz", "--at", "fireteam-1", "-r", "8", "--shots", "9"),
         "boyz has 8 figures left"),
        (("fire", "boyz", "--at", "fireteam-1", "-r", "8", "--ruleset", "t2k"),
         "is a game of high-crusade, not of t2k"),
        (("initiative", "--side", "A", "--side", "B"), "the game's sides are its roster's"),
    ]  # fmt: skip
    for args, message in cases:
        assert message in act(*args).stderr.replace("\n    ", " "), args
    assert len(Path(path).read_bytes()) == size
    no_game = hc("fire boyz --at fireteam-1 -r 8")
    assert no_game.exit_code == 2 and "no game in force" in no_game.stderr


def test_damaged_and_foreign_game_files_are_refused(game, hc, tmp_path):
    act, status, path = game(HC_ROSTER)
    json_of(act("initiative", "--dice", "3,6", "--json"))
    json_of(act("game", "next", "--json"))
    text = Path(path).read_text(encoding="utf-8")
    edited = tmp_path / "edited.hcg"  # the roll of entry 2 changed by hand: entry 3 says so
    edited.write_text(text.replace('"value":3', '"value":9', 1), encoding="utf-8")
    refused = hc("status", "--game", str(edited)).stderr.replace("\n    ", " ")
    assert "is damaged at line 3: entry 3 does not chain onto the entry before it" in refused
    cut = tmp_path / "cut.hcg"  # an entry deleted
    lines = text.splitlines(keepends=True)
    cut.write_text(lines[0] + lines[2], encoding="utf-8")
    assert "entry 3 where 2 was next" in hc("status", "--game", str(cut)).stderr
    newer = tmp_path / "newer.hcg"
    first = json.loads(text.splitlines()[0])
    first["game"]["version"] = 99
    from hc_cli.log.chain import entry_line

    body = {k: v for k, v in first.items() if k not in ("seq", "prev")}
    newer.write_bytes(entry_line(1, None, body, None) + b"\n")
    assert "written by a newer hc" in hc("status", "--game", str(newer)).stderr
    log = tmp_path / "plain.log"
    assert hc("roll", "d6", "--seed", "1", "--log", str(log)).exit_code == 0
    assert "its first line is no game's roster" in hc("status", "--game", str(log)).stderr.replace(
        "\n    ", " "
    )
    missing = hc("status", "--game", str(tmp_path / "nope.hcg"))
    assert missing.exit_code == 2 and "does not exist" in missing.stderr
    again = hc("game", "new", path, "--roster", str(tmp_path / "roster.yaml"))
    assert again.exit_code == 2 and "never overwritten" in again.stderr


def test_roster_check_names_file_line_and_key(hc, tmp_path):
    roster = tmp_path / "bad.yaml"
    roster.write_text(
        "ruleset: high-crusade\n"
        "sides:\n"
        "  Free Companies:\n"
        "    Fireteam 1: {troop: crusadr, figures: 5, weapon: ingrave-ar}\n"
        "    fireteam-2: {troop: crusader, figures: 0, weapon: ingrave-ar, orders: static}\n"
        "  Orcs:\n"
        "    fireteam-2: {troop: orc, weapon: bolt-gun}\n",
        encoding="utf-8",
    )
    err = hc("roster", "check", str(roster)).stderr.replace("\n    ", " ")
    for expected in (
        "bad.yaml:4: sides.Free Companies.Fireteam 1: a unit's name is lowercase",
        "bad.yaml:4: sides.Free Companies.Fireteam 1.troop: unknown troop type 'crusadr'",
        "bad.yaml:5: sides.Free Companies.fireteam-2.figures: 0 is below the least",
        "bad.yaml:5: sides.Free Companies.fireteam-2.orders: unknown key",
        "bad.yaml:7: sides.Orcs.fireteam-2: a unit of this name is already in side",
        "bad.yaml:7: sides.Orcs.fireteam-2.figures: missing",
    ):
        assert expected in err, (expected, err)
    other = tmp_path / "t2k.yaml"
    other.write_text(T2K_ROSTER.replace("weapon: m16a2", "weapon: ingrave-ar"), encoding="utf-8")
    assert "t2k.yaml:4: sides.Americans.kowalski.weapon: unknown weapon 'ingrave-ar'" in hc(
        "roster", "check", str(other)
    ).stderr.replace("\n    ", " ")
    ok = hc("roster", "check", str(tmp_path / "ok.yaml").replace("ok", "ok"))
    assert ok.exit_code == 2  # not there: named as such


# ---------------------------------------------------------------------------------------------
# Everywhere else: odds from the state, batch, TAB, two players at once


def test_odds_from_the_game_as_it_stands(game):
    act, status, path = game(RT_ROSTER)
    json_of(act("initiative", "--dice", "1", "--json"))
    size = len(Path(path).read_bytes())
    odds = json_of(act("fire", "marines", "--at", "boyz", "--range", "10", "--odds", "--json"))
    assert odds["inputs"]["shots"] == 5 and "casualties" in odds["distributions"]
    assert odds["game"]["note"].startswith("odds from the game as it stands")
    assert len(Path(path).read_bytes()) == size


def test_batch_takes_unit_actions_in_order(game, hc, tmp_path):
    act, status, path = game(HC_ROSTER)
    lines = [
        {"command": "initiative", "game": path, "dice": "3,6"},
        {"command": "fire", "unit": "boyz", "at": "fireteam-1", "range": 8, "game": path,
         "dice": ",".join(["07"] + ["99"] * 7)},
        {"command": "fire", "unit": "boyz", "at": "fireteam-1", "range": 8, "game": path,
         "seed": 1},
        {"command": "fire", "weapon": "ingrave-ar", "range": 14, "target": "orc", "seed": 1},
    ]  # fmt: skip
    from hc_cli.cli.app import app

    text = "\n".join(json.dumps(x) for x in lines) + "\n"
    result = hc.runner.invoke(app, ["batch"], input=text)
    answers = [json.loads(x) for x in result.stdout.splitlines()]
    assert answers[1]["summary"]["kills"] == 1
    assert "already fired this move" in answers[2]["error"]
    assert "game" not in answers[3] and answers[3]["outcome"] == "kill"
    assert _row(status(), "Free Companies", "fireteam-1")["figures"] == "4/5"


def test_tab_completes_the_game_s_units(game, tmp_path):
    from helpers import tab

    act, status, path = game(HC_ROSTER)
    env = {"_HC_COMPLETE": "complete_bash", "COMP_WORDS": "hc fire ", "COMP_CWORD": "2",
           "HC_GAME": path}  # fmt: skip
    assert tab(env).split() == ["fireteam-1", "boyz"]
    env.update(COMP_WORDS="hc fire boyz --at f", COMP_CWORD="4")
    assert tab(env).split() == ["fireteam-1"]


def test_two_players_in_two_terminals_lose_nothing(game, tmp_path):
    import os
    import subprocess
    import sys

    act, status, path = game(HC_ROSTER)
    json_of(act("initiative", "--dice", "3,6", "--json"))
    env = {**os.environ, "HC_GAME": path}
    runs = [
        subprocess.Popen([sys.executable, "-m", "hc_cli", "game", "next"] if i % 2 else
                         [sys.executable, "-m", "hc_cli", "status"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for i in range(6)
    ]  # fmt: skip
    for run in runs:
        run.communicate(timeout=60)
    assert sum(r.returncode == 0 for r in runs[1::2]) == 3  # three steps, none lost
    s = status()
    assert (s["step"], s["entries"]) == (3, 5)  # the orders phase, then steps 1 to 3
    assert hc_replays(path)


def hc_replays(path: str) -> bool:
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "hc_cli", "replay", path], capture_output=True)
    return run.returncode == 0


def test_a_game_in_force_leaves_plain_commands_plain(game, hc, tmp_path):
    """With a game in force, a command that names no unit resolves as ever (and may be
    logged with --log); --ruleset of another game plays that game's rules, outside the game."""
    act, status, path = game(HC_ROSTER)
    plain = act("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--seed", "1", "--log",
                str(tmp_path / "plain.log"))  # fmt: skip
    assert plain.exit_code == 0 and "game:" not in plain.stdout
    other = act("initiative", "--ruleset", "t2k", "--char", "k:6", "--char", "i:5", "--json")
    assert json_of(other)["ruleset"] == "t2k"
    assert status()["entries"] == 1  # neither touched the game
    logged = act("fire", "boyz", "--at", "fireteam-1", "-r", "8", "--log", "x.log")
    assert logged.exit_code == 2 and "logged in the game file itself" in logged.stderr

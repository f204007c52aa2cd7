"""The game file a group can trust (issue 24): `hc status` checks the very chain it answers for,
a torn last line is said every time, `hc game rules` prints each rule set's sequence, and
`hc history` files each entry under the part of the game it was taken in."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from games_setup import example_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def karsk(hc, tmp_path):
    """A High Crusade game two entries long (the roster, the Initiative of move 1)."""
    path = tmp_path / "karsk.hcg"
    return path, example_game(hc, path, "high-crusade", "initiative --dice 3,6")


def test_status_checks_the_chain_even_when_size_and_time_are_put_back(hc, karsk):
    path, env = karsk
    assert hc("status", env=env).exit_code == 0  # a snapshot of the game is cached now
    data = path.read_bytes()
    stat = os.stat(path)
    edited = data.replace(b"Ambush at Karsk", b"Ambush at Karsq", 1)  # the roster, line 1
    assert edited != data and len(edited) == len(data)
    path.write_bytes(edited)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    message = hc.error("status", env=env)
    assert "damaged at line" in message


def test_a_torn_last_line_is_said_every_time(hc, karsk):
    path, env = karsk
    with open(path, "ab") as f:
        f.write(b'{"seq":3,"prev":"ab')
    for _ in range(2):
        result = hc("status", env=env)
        assert result.exit_code == 0
        assert "line 3" in result.stderr and "cut short" in result.stderr
        lines = result.stderr.splitlines()  # wrapped, as every message; a long path whole
        assert all(len(line) <= 80 or " " not in line.strip() for line in lines)
    assert "cut short" in hc("history", env=env).stderr


@pytest.mark.parametrize("ruleset", ["high-crusade", "rogue-trader", "t2k"])
def test_game_rules_lists_every_reading_of_the_rule_set(hc, ruleset):
    """Found in play: `hc game rules` named only the readings the game keeps, not those a shot
    is resolved by (zone-dice-remainder, automatic-fire-band): every one of readings.yaml is
    listed, the game's first, then its actions', each once."""
    import yaml

    shipped = Path(__file__).parent.parent / "rules_data" / ruleset / "readings.yaml"
    names = set(yaml.safe_load(shipped.read_text())["readings"])
    view = json.loads(hc("game", "rules", "--ruleset", ruleset, "--json").stdout)
    listed = [r["name"] for r in view["readings"] + view["action_readings"]]
    assert sorted(listed) == sorted(names)
    text = " ".join(hc("game", "rules", "--ruleset", ruleset).stdout.split())
    assert all(f"{name} = " in text for name in names)


@pytest.mark.parametrize("ruleset", ["high-crusade", "rogue-trader", "t2k"])
def test_game_rules_prints_the_sequence_of_each_rule_set(hc, ruleset):
    result = hc("game", "rules", "--ruleset", ruleset, "--json")
    assert result.exit_code == 0, result.output
    view = json.loads(result.stdout)
    assert view["ruleset"] == ruleset and view["sequence"]
    for step in view["sequence"]:
        assert step["who"] and step["does"] and step["source"]
    text = hc("game", "rules", "--ruleset", ruleset)
    assert text.exit_code == 0
    assert all(len(line) <= 80 for line in text.stdout.splitlines())


def test_game_rules_of_a_game_names_the_readings_it_plays_by(hc, karsk):
    _, env = karsk
    view = json.loads(hc("game rules --json", env=env).stdout)
    assert view["game"] and view["ruleset"] == "high-crusade"


@pytest.mark.parametrize("ruleset", ["high-crusade", "rogue-trader", "t2k"])
def test_the_readings_a_game_plays_by_are_those_of_the_tables(ruleset):
    """Each reading a game decides by has the alternatives its readings.yaml gives, the first
    the book's default: a game file is checked against them."""
    import yaml

    from hc_cli.games.roster import game_rules

    folder = ROOT / "rules_data" / ruleset
    tables = yaml.safe_load((folder / "readings.yaml").read_text())["readings"]
    for name, kinds in game_rules(ruleset).readings.items():
        assert set(kinds) == set(tables[name]["alternatives"]), name
        assert kinds[0] == tables[name]["choice"], name


def test_a_game_file_naming_a_reading_hc_does_not_play_by_is_damaged(hc, karsk):
    from hc_cli.log.chain import chain_hash, entry_line

    path, env = karsk
    lines = path.read_bytes().splitlines()
    first = json.loads(lines[0])
    first["game"]["readings"]["regroup-after-rout"] = "\x1b]0;pwned\x07"
    body = {k: v for k, v in first.items() if k not in ("seq", "prev")}
    lines[0] = entry_line(1, None, body, None)
    second = json.loads(lines[1])
    body = {k: v for k, v in second.items() if k not in ("seq", "prev")}
    lines[1] = entry_line(2, chain_hash(lines[0]), body, None)
    path.write_bytes(b"\n".join(lines) + b"\n")
    for command in (("status",), ("game", "rules"), ("game", "export")):
        result = hc(*command, env=env)
        assert result.exit_code == 2 and "\x1b" not in result.output, command
        assert "reading 'regroup-after-rout'" in result.stderr


def test_rogue_trader_sequence_is_the_seeds_six_parts(hc):
    view = json.loads(hc("game rules --ruleset rogue-trader --json").stdout)
    # seed 003: 1 Movement, 2 Shooting, 3 Hand-To-Hand Combat, 4 Reserves, 5 Psionics,
    # 6 Rallying
    assert [s["step"] for s in view["sequence"]] == ["1", "2", "3", "4", "5", "6"]
    assert view["sequence"][2]["who"] == "both sides"
    assert [s["commands"] for s in view["sequence"]] == [
        ["move"], ["fire"], ["melee"], ["move --reserve"], [], ["rally"]
    ]  # fmt: skip


def test_undo_from_checkpoints_is_the_fold_from_the_start(hc, tmp_path, monkeypatch):
    """With a checkpoint every 3 entries, undos that reach back past several of them, actions
    between, and the snapshot each leaves: every state is the one the fold from the first
    entry gives, and the snapshot's is the one a fresh reading gives."""
    import random

    import hc_cli.games.fold as fold_module
    import hc_cli.games.scan as scan_module
    import hc_cli.games.store as game_module

    monkeypatch.setattr(fold_module, "CHECKPOINT", 3)
    monkeypatch.setattr(game_module, "CHECKPOINT", 3)
    path = tmp_path / "hunt.hcg"
    env = example_game(hc, path, "rogue-trader", "initiative --dice 1")
    turn = {"Imperials": ["marines", "lascannon-team"], "Orks": ["boyz"]}
    pick = random.Random(5)

    def state_from_scratch() -> dict:
        fd = os.open(path, os.O_RDONLY)
        try:
            chain = scan_module.scan(str(path), fd, None)
        finally:
            os.close(fd)
        return fold_module.fold(chain, str(path)).state

    for step in range(60):
        playing = json.loads(hc("status --json", env=env).stdout)["playing"]
        roll = pick.random()
        if playing is None:  # undone back before the first turn's coin
            assert hc("initiative --dice 1", env=env).exit_code == 0
        elif roll < 0.4:
            hc("undo", env=env)
        elif roll < 0.5:
            assert hc("game next", env=env).exit_code == 0
        else:
            unit = pick.choice(turn[playing])
            target = "boyz" if playing == "Imperials" else "marines"
            hc("fire", unit, "--at", target, "-r", "10", "--seed", str(step), env=env)
        fresh_game = game_module.open_game(str(path), fresh=True)
        assert fresh_game.folded.state == state_from_scratch(), step
        assert fresh_game.folded.checkpoints  # the start's, at least

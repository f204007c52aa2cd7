"""A game that goes back is noticed (issue 37, item 3): each player's hc remembers the newest
head it wrote or read of each game (known by its roster entry), so a game file cut behind it
(`head -n -1 game > x; mv x game`) or cut and played on anew is refused, naming the receipt
it expected, until the players accept the rewind, which the game records.
The receipts expected are those the actions printed when they were logged, or the hash of the
file's own lines: never what the refusal says."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from helpers import HC_SKIRMISH
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# The High Crusade skirmish, played to entry 7: the Initiative, two steps, boyz fire, the
# Morale test that is due, a step.
ACTIONS = (
    "initiative --seed 1",
    "game next",
    "game next",
    "fire boyz --at fireteam-1 -r 14 --seed 3",
    "morale fireteam-1 --seed 2",
    "game next",
)
KEY = "a key both players hold"


class Game:
    """A game file played by a player whose hc remembers in `state` (XDG_STATE_HOME)."""

    def __init__(self, hc, path: Path, state: Path, key: str | None = None) -> None:
        self.hc, self.path = hc, path
        self.env = {"HC_GAME": str(path), "XDG_STATE_HOME": str(state)}
        if key is not None:
            self.env["HC_LOG_KEY"] = key
        self.key = key

    def run(self, line: str):
        """A command line, as a process of its own would run it: without the game this
        process read last (another player's, in these tests)."""
        from hc_cli.games import store

        store._OPENED.clear()
        return self.hc(line, env=self.env)

    def ok(self, line: str):
        result = self.run(line)
        assert result.exit_code == 0, (line, result.output)
        return result

    def receipt(self, line: str) -> str:
        """The receipt an action printed as it was logged."""
        return re.findall(r"receipt (\d+:[0-9a-f]{8})", self.ok(line).stderr)[-1]

    def refused(self, line: str = "status") -> str:
        """A command refused (exit 2, no traceback) that appends nothing."""
        before = self.path.read_bytes()
        result = self.run(line)
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        said = result.stderr.replace("\n    ", " ")
        assert self.path.read_bytes() == before
        return said

    def lines(self) -> list[bytes]:
        return self.path.read_bytes().splitlines(keepends=True)

    def cut(self, entries: int) -> None:
        """The file cut to its first `entries` lines as `head` and `mv` cut it: a new file
        put in its place."""
        kept = b"".join(self.lines()[:entries])
        (self.path.parent / "x").write_bytes(kept)
        os.replace(self.path.parent / "x", self.path)

    def head_of(self, seq: int) -> str:
        """Entry `seq`'s receipt worked out from its line: its number and its hash's start."""
        line = self.lines()[seq - 1].rstrip(b"\n")
        digest = (
            hashlib.sha256(line).hexdigest()
            if self.key is None
            else hmac.new(self.key.encode(), line, hashlib.sha256).hexdigest()
        )
        return f"{seq}:{digest[:8]}"


def start(hc, tmp_path: Path, key: str | None = None, name: str = "karsk.hcg") -> Game:
    (tmp_path / "roster.yaml").write_text(HC_SKIRMISH, encoding="utf-8")
    game = Game(hc, tmp_path / name, tmp_path / "player-a", key)
    game.ok(f"game new {game.path} --roster {tmp_path / 'roster.yaml'}")
    return game


def played(hc, tmp_path: Path, key: str | None = None) -> tuple[Game, list[str]]:
    """The skirmish played to entry 7, with the receipt each action printed."""
    game = start(hc, tmp_path, key)
    return game, [game.receipt(line) for line in ACTIONS]


def other_player(game: Game, tmp_path: Path, name: str) -> Game:
    """The same file, played by another player: an hc that remembers on its own."""
    return Game(game.hc, game.path, tmp_path / name, game.key)


@pytest.mark.parametrize("key", [None, KEY], ids=["unkeyed", "keyed"])
def test_the_newest_entry_cut_off_is_refused_naming_the_receipt(hc, tmp_path, key):
    game, receipts = played(hc, tmp_path, key)
    newest = receipts[-1]
    assert newest.startswith("7:")
    game.cut(6)
    for line in ("status", "history", "fire fireteam-1 --at boyz -r 14", "game next", "undo"):
        said = game.refused(line)
        assert f"{newest} expected" in said and f"ends at {receipts[-2]}" in said, said
        assert "1 entry fewer" in said and f"hc game rewind --accept {newest}" in said
    replayed = hc("replay", str(game.path), env=game.env)
    assert replayed.exit_code == 1 and f"{newest} expected" in replayed.stdout


@pytest.mark.parametrize("key", [None, KEY], ids=["unkeyed", "keyed"])
def test_two_entries_cut_off_are_refused(hc, tmp_path, key):
    game, receipts = played(hc, tmp_path, key)
    game.cut(5)
    said = game.refused()
    assert f"{receipts[-1]} expected, the file ends at {receipts[-3]} (2 entries fewer)" in said


@pytest.mark.parametrize("key", [None, KEY], ids=["unkeyed", "keyed"])
def test_a_fork_is_refused_cut_once_and_played_on_with_new_dice(hc, tmp_path, key):
    """The cheater's hc forgot the game (its memory is his own); the other player's did not."""
    game, receipts = played(hc, tmp_path, key)
    game.cut(6)
    cheat = other_player(game, tmp_path, "cheater")
    cheat.ok("undo")  # the morale test of entry 6 taken back: entry 7 another
    said = game.refused()
    assert f"{receipts[-1]} expected, its entry 7 is {game.head_of(7)}" in said, said
    assert "others written in their place" in said


def test_the_other_player_who_only_read_the_file_notices_the_cut(hc, tmp_path):
    game, receipts = played(hc, tmp_path)
    reader = other_player(game, tmp_path, "player-b")
    reader.ok("status")  # B reads the game as A left it
    game.cut(6)
    shutil.rmtree(tmp_path / "player-a")  # A wipes his own hc's memory: his hc takes the file
    game.ok("status")
    said = reader.refused()
    assert f"{receipts[-1]} expected" in said


def test_a_copy_elsewhere_is_the_same_game(hc, tmp_path):
    """A roll tried on a copy of the game, then the original played as if it never was."""
    game, receipts = played(hc, tmp_path)
    (tmp_path / "elsewhere").mkdir()
    copy = Game(hc, tmp_path / "elsewhere" / "try.hcg", tmp_path / "player-a")
    shutil.copy(game.path, copy.path)
    copy.ok("status")  # the copy is the game this hc saw: not refused
    tried = copy.receipt("fire fireteam-1 --at boyz -r 14 --seed 9")
    said = game.refused()
    assert f"{tried} expected, the file ends at {receipts[-1]}" in said
    from hc_cli.tables.files import shown_path

    assert f"(it last saw it in {shown_path(str(copy.path))})" in said


def test_a_new_game_is_never_refused(hc, tmp_path):
    """Another game at the same path (another roster entry: another game) and a game first
    seen part way through are taken as they are."""
    game, _ = played(hc, tmp_path)
    game.path.unlink()
    (tmp_path / "roster.yaml").write_text(
        HC_SKIRMISH.replace("sides:", "title: Another day\nsides:"), encoding="utf-8"
    )
    game.ok(f"game new {game.path} --roster {tmp_path / 'roster.yaml'}")
    game.ok("status")
    game.ok("initiative --seed 4")
    seen_late = other_player(game, tmp_path, "newcomer")
    seen_late.ok("status")
    seen_late.ok("game next")


def test_the_rewind_accepted_is_recorded_and_shown(hc, tmp_path):
    game, receipts = played(hc, tmp_path)
    game.cut(5)
    said = game.refused(f"game rewind --accept {receipts[-2]}")  # not the head lost
    assert f"last saw the game at {receipts[-1]}" in said
    accepted = game.ok(f"game rewind --accept {receipts[-1]}")
    assert f"from {receipts[-1]} to {receipts[-3]}: accepted" in accepted.stdout
    entry = json.loads(game.lines()[-1])
    assert entry["seq"] == 6 and entry["game"] == {
        "event": "rewind",
        "lost": receipts[-1],
        "found": receipts[-3],
    }
    status = json.loads(game.ok("status --json").stdout)
    assert status["head"] == game.head_of(6)
    history = json.loads(game.ok("history --json").stdout)["entries"]
    assert history[-1]["entry"] == 6 and not history[-1]["undone"]
    assert receipts[-1] in history[-1]["what"] and receipts[-3] in history[-1]["what"]
    said = game.refused(f"game rewind --accept {receipts[-1]}")
    assert "nothing to accept" in said
    assert hc("replay", str(game.path), env=game.env).exit_code == 0


def test_a_rewind_is_not_undone_and_each_player_accepts_it(hc, tmp_path):
    game, receipts = played(hc, tmp_path)
    reader = other_player(game, tmp_path, "player-b")
    reader.ok("history")
    game.cut(6)
    game.ok(f"game rewind --accept {receipts[-1]}")
    said = reader.refused()  # B saw entry 7 as it was: the file's entry 7 is the acceptance
    assert f"{receipts[-1]} expected, its entry 7 is {game.head_of(7)}" in said
    reader.ok(f"game rewind --accept {receipts[-1]}")
    game.ok("status")  # A's hc saw entry 7, the file goes on from it
    undone = game.ok("undo --json")
    assert "entry 6" in json.loads(undone.stdout)["changes"][0]  # the Morale test, not a rewind


def test_the_memory_is_one_small_file_per_game_and_bounded(hc, tmp_path, monkeypatch):
    """A file per game, named by its roster entry's hash; the games seen longest ago go."""
    from hc_cli.games import heads

    monkeypatch.setattr(heads, "MOST", 3)
    games = []
    for number in range(5):
        roster = tmp_path / f"roster-{number}.yaml"
        roster.write_text(HC_SKIRMISH.replace("sides:", f"title: Game {number}\nsides:"))
        game = Game(hc, tmp_path / f"game-{number}.hcg", tmp_path / "player")
        game.ok(f"game new {game.path} --roster {roster}")
        game.ok("initiative --seed 1")
        games.append(game)
    folder = tmp_path / "player" / "hc" / "heads"
    remembered = sorted(n for n in os.listdir(folder) if not n.startswith("."))
    first = [hashlib.sha256(g.lines()[0].rstrip(b"\n")).hexdigest()[:32] for g in games]
    assert remembered == sorted(first[2:])
    assert all(os.path.getsize(folder / n) < 300 for n in remembered)


def test_an_older_head_never_takes_the_place_of_a_newer_one(hc, tmp_path, monkeypatch):
    """Two terminals of one player: one read the file before the other appended to it, and
    remembers what it read after. Only an accepted rewind takes the memory back."""
    from hc_cli.games import heads
    from hc_cli.games.scan import read_chain

    game, receipts = played(hc, tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", game.env["XDG_STATE_HOME"])
    game.cut(6)

    class Read:  # the game as the late terminal read it: 6 entries
        path = str(game.path)
        chain = read_chain(str(game.path))

    ident = heads.game_id(Read.chain)
    heads.remember(Read)
    assert heads.recall(ident).receipt == receipts[-1]
    heads.remember(Read, accepted=True)
    assert heads.recall(ident).receipt == receipts[-2]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    cut=st.integers(1, 6),
    fork=st.booleans(),
    line=st.sampled_from(["status", "history", "game next --anyway", "undo", "again"]),
)
def test_every_cut_behind_the_head_is_refused(hc, tmp_path, cut, fork, line):
    """The skirmish played to entry 7, cut at an entry boundary (and, drawn, played on by a
    player whose hc never saw it): every command of the player who saw entry 7 is refused,
    naming it, and appends nothing. The whole file put back plays on."""
    folder = tmp_path / f"cut-{cut}-{fork}-{line.replace(' ', '-')}"
    if not folder.exists():
        folder.mkdir()
        game, receipts = played(hc, folder)
        (folder / "whole").write_bytes(game.path.read_bytes())
        (folder / "receipts").write_text(" ".join(receipts))
    game = Game(hc, folder / "karsk.hcg", folder / "player-a")
    whole, receipts = (folder / "whole").read_bytes(), (folder / "receipts").read_text().split()
    game.path.write_bytes(whole)
    game.cut(cut)
    if fork:
        shutil.rmtree(folder / "cheater", ignore_errors=True)  # an hc that never saw the game
        other_player(game, folder, "cheater").ok("initiative --seed 5" if cut == 1 else "undo")
    said = game.refused(line)
    assert f"{receipts[-1]} expected" in said, said
    game.path.write_bytes(whole)
    game.ok("status")

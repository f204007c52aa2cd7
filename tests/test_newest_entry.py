"""The newest entry of a game, which no later hash covers, edited in place (issue 37, item 2):
every command that reads the game holds it to its own dice and to the game, `hc replay` holds
every entry's game part to the game, and a game keeps the text of its house rules, so a file
swapped at the path they were read from changes nothing a replay says."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from games_setup import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# Each rule set's game, played to an action worth editing: the commands after `hc game new`.
PLAYS = {
    "high-crusade": (
        "initiative --dice 3,6",
        "fire boyz --at fireteam-1 -r 8 --dice 07,99,99,99,99,99,99,99",  # one kill (seed 000)
    ),
    "t2k": ("initiative --seed 2", "fire --at ivanov -r 30 --seed 1"),  # kowalski: a leg hit
    "rogue-trader": ("initiative --seed 2", "fire boyz --at marines -r 10 --seed 5"),
}
# What comes next in each (refused too, when the newest entry was edited).
NEXT = {
    "high-crusade": "morale fireteam-1 --dice 9",
    "t2k": "game next",
    "rogue-trader": "game next",
}


def _played(hc, folder: Path, ruleset: str, *more: str) -> tuple[Path, dict[str, str]]:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{ruleset}.hcg"
    roster = EXAMPLES / f"{ruleset}-roster.yaml"
    assert hc("game", "new", str(path), "--roster", str(roster)).exit_code == 0
    env = {"HC_GAME": str(path)}
    for line in PLAYS[ruleset] + more:
        assert hc(line, env=env).exit_code == 0, line
    return path, env


def _edit_newest(path: Path, change) -> None:
    """The newest line rewritten with `change` done to its entry, as a hand with an editor
    would: the line before it untouched, so the chain still holds; its time kept."""
    lines = path.read_bytes().splitlines()
    entry = json.loads(lines[-1])
    change(entry)
    st_ = os.stat(path)
    lines[-1] = json.dumps(entry, separators=(",", ":"), ensure_ascii=False).encode()
    path.write_bytes(b"\n".join(lines) + b"\n")
    os.utime(path, ns=(st_.st_atime_ns, st_.st_mtime_ns))


def _refused_everywhere(hc, path: Path, env: dict[str, str], ruleset: str, said: str) -> None:
    """Status, history, luck and the next action refuse the game, naming the newest line and
    what differs; replay fails it; nothing is appended."""
    before = path.read_bytes()
    line = len(before.splitlines())
    for command in ("status", "history", "luck", NEXT[ruleset]):
        message = hc.error(command, env=env)
        assert f"damaged at line {line}: entry {line}, the newest," in message, command
        assert said in message, (command, message)
    assert path.read_bytes() == before
    replay = hc("replay", str(path))
    assert replay.exit_code == 1, replay.stdout


def _set(*keys, to=None, add=None):
    """A change to the entry at the path `keys`: set it `to`, or `add` to the number there."""

    def change(entry: dict) -> None:
        node = entry
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = to if add is None else node[keys[-1]] + add

    return change


RESULT_EDITS = {
    "high-crusade": [(("result", "summary", "kills"), 3, "summary.kills: logged 4")],
    "t2k": [(("result", "hit_effects", 0, "damage"), 20, "damage: logged 27")],
    "rogue-trader": [(("result", "struck", 0, "model"), -2, "model: logged 3")],
}


@pytest.mark.parametrize("ruleset", list(PLAYS))
def test_the_newest_result_edited_is_refused_by_every_command(hc, tmp_path, ruleset):
    for i, (keys, add, said) in enumerate(RESULT_EDITS[ruleset]):
        path, env = _played(hc, tmp_path / str(i), ruleset)
        assert hc("status", env=env).exit_code == 0  # the snapshot covers the newest entry
        _edit_newest(path, _set(*keys, add=add))
        _refused_everywhere(hc, path, env, ruleset, said)
        assert "from its own dice" in hc.error("status", env=env)


GAME_PART_EDITS = {
    "high-crusade": [
        (lambda e: e["game"].update(unit="ladz", at=["fireteam-2"]), "options.shots"),
        (_set("game", "meta", "step", to=5), "meta.step: logged 5, the game gives 2"),
    ],
    "t2k": [(lambda e: e["game"].update(unit="nguyen"), "nguyen")],
    "rogue-trader": [
        (lambda e: e["game"]["meta"]["firers"].append(10), "meta.firers"),
        (lambda e: e["game"].update(at=["lascannon-team"]), "lascannon-team"),
    ],
}


@pytest.mark.parametrize("ruleset", list(PLAYS))
def test_the_newest_game_part_edited_is_refused_by_every_command(hc, tmp_path, ruleset):
    for i, (change, said) in enumerate(GAME_PART_EDITS[ruleset]):
        path, env = _played(hc, tmp_path / str(i), ruleset)
        _edit_newest(path, change)
        _refused_everywhere(hc, path, env, ruleset, said)
        replay = hc("replay", str(path)).stdout.replace("\n  ", " ")
        assert "the game does not give as logged" in replay


@pytest.mark.parametrize("ruleset", list(PLAYS))
def test_the_initiative_winner_edited_is_refused(hc, tmp_path, ruleset):
    path = tmp_path / "g.hcg"
    roster = EXAMPLES / f"{ruleset}-roster.yaml"
    assert hc("game", "new", str(path), "--roster", str(roster)).exit_code == 0
    env = {"HC_GAME": str(path)}
    assert hc(PLAYS[ruleset][0], env=env).exit_code == 0
    sides = json.loads(path.read_bytes().splitlines()[0])["game"]["roster"]["sides"]
    logged = json.loads(path.read_bytes().splitlines()[-1])["result"]
    key = "player_a" if ruleset == "high-crusade" else "outcome"
    if ruleset == "t2k":  # the character who acts first
        other = next(n for units in sides.values() for n in units if n != logged[key])
    else:
        other = next(s for s in sides if s != logged[key])
    _edit_newest(path, _set("result", key, to=other))
    _refused_everywhere(hc, path, env, ruleset, "from its own dice")


def test_a_rout_made_a_pass_is_refused(hc, tmp_path):
    path, env = _played(hc, tmp_path, "high-crusade", "morale fireteam-1 --dice 1")
    assert json.loads(path.read_bytes().splitlines()[-1])["result"]["outcome"] == "rout"
    _edit_newest(path, _set("result", "outcome", to="pass"))
    _refused_everywhere(hc, path, env, "high-crusade", "outcome: logged 'pass'")


@pytest.mark.parametrize("ruleset", list(PLAYS))
def test_a_game_never_edited_passes_everything(hc, tmp_path, ruleset):
    path, env = _played(hc, tmp_path, ruleset)
    for command in ("status", "history", "luck"):
        assert hc(command, env=env).exit_code == 0, command
    assert hc("replay", str(path)).exit_code == 0
    assert hc(NEXT[ruleset], env=env).exit_code == 0


# ---------------------------------------------------------------------------------------------
# Fuzz: edits of the newest entry's result and game part


def _numbers(node, path=()):
    """The path of every number in a result (not a boolean)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _numbers(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _numbers(value, (*path, i))
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield path


@pytest.fixture(scope="module")
def played_games(tmp_path_factory):
    """Each rule set's game, played once: its file's bytes and its roster."""
    from conftest import Hc

    games = {}
    for ruleset in PLAYS:
        folder = tmp_path_factory.mktemp(ruleset)
        old = {k: os.environ.get(k) for k in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME")}
        os.environ["XDG_CONFIG_HOME"], os.environ["XDG_CACHE_HOME"] = (
            str(folder / "config"),
            str(folder / "cache"),
        )
        try:
            path, _ = _played(Hc(), folder, ruleset)
        finally:
            for key, value in old.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        first = json.loads(path.read_bytes().splitlines()[0])
        games[ruleset] = (path.read_bytes(), first["game"]["roster"]["sides"])
    return games


@st.composite
def edits(draw, data: bytes, sides: dict):
    """One edit of the newest entry, and whether it changes what the entry means: a number of
    its result changed (always); its acting unit swapped for another unit of the roster (unless
    the two are the same side's and the same roster entry, as two identical Fireteams: then it
    is the same action by the rules' numbers); its target swapped for a unit of the firer's own
    side (always: each rule set fires at the other side); (High Crusade) its step changed.
    A target swapped for another of the other side is not drawn: when the shot reads nothing
    of the target that differs, the entry is another action the rules allow, with the result
    its dice give, and nothing in one unkeyed file tells it from one played (a receipt does)."""
    entry = json.loads(data.splitlines()[-1])
    units = {n: (side, unit) for side, members in sides.items() for n, unit in members.items()}
    firer = entry["game"]["unit"]
    kind = draw(st.sampled_from(["number", "unit", "target", "step"]))
    if kind == "number":
        keys = draw(st.sampled_from(sorted(_numbers(entry["result"]), key=str)))
        return ("result", *keys), draw(st.sampled_from([-3, -1, 1, 2, 7])), True
    if kind == "unit":
        now = draw(st.sampled_from(sorted(set(units) - {firer})))
        return ("game", "unit"), now, units[now] != units[firer]
    if kind == "target":
        own = sorted(n for n, (side, _) in units.items() if side == units[firer][0])
        return ("game", "at"), [draw(st.sampled_from(own))], True
    step = entry["game"]["meta"].get("step")
    if step is None:
        return ("game", "period"), "move 9", True
    return ("game", "meta", "step"), draw(st.sampled_from([s for s in range(6) if s != step])), True


@pytest.mark.parametrize("ruleset", list(PLAYS))
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzz_every_edit_of_the_newest_entry_that_changes_its_meaning_is_refused(
    hc, tmp_path, played_games, ruleset, data
):
    original, sides = played_games[ruleset]
    keys, value, meaningful = data.draw(edits(original, sides))
    path = tmp_path / "fuzz.hcg"
    path.write_bytes(original)
    env = {"HC_GAME": str(path)}
    assert hc("status", env=env).exit_code == 0  # never edited: it passes (and is cached)

    def change(entry: dict) -> None:
        node = entry
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value if keys[0] == "game" else node[keys[-1]] + value

    _edit_newest(path, change)
    result = hc("status", env=env)
    assert result.exit_code == (2 if meaningful else 0), (keys, value, result.output)
    if meaningful:
        assert "the newest" in result.stderr and "Traceback" not in result.output


# ---------------------------------------------------------------------------------------------
# House rules kept with the game: replay made to lie by a file swapped at the path


BAND = (
    "ruleset: high-crusade\nweapons:\n  bolt-gun:\n    bands:\n"
    "      - {up_to: 24, chance: %d, penetration: 5}\n"
)
FIRE = "fire boyz --at fireteam-1 -r 12 --seed 1"


def _house_game(hc, folder: Path) -> tuple[Path, Path, dict[str, str]]:
    folder.mkdir(parents=True, exist_ok=True)
    house, path = folder / "house.yaml", folder / "g.hcg"
    house.write_text(BAND % 50)
    roster = EXAMPLES / "high-crusade-roster.yaml"
    new = hc("game", "new", str(path), "--roster", str(roster), "--rules", str(house))
    assert new.exit_code == 0
    env = {"HC_GAME": str(path)}
    assert hc("initiative --dice 3,6", env=env).exit_code == 0
    return house, path, env


def test_the_game_keeps_its_house_rules_text_and_replay_is_not_fooled_by_a_swapped_file(
    hc, tmp_path
):
    house, path, env = _house_game(hc, tmp_path / "game")
    roster_entry = json.loads(path.read_bytes().splitlines()[0])
    assert roster_entry["game"]["rules"][0]["text"] == BAND % 50  # in the chained first entry
    # The same game played on a copy with a bolt gun that never misses: its result taken.
    copy = tmp_path / "copy.hcg"
    copy.write_bytes(path.read_bytes())
    assert hc(FIRE, env=env).exit_code == 0
    house.write_text(BAND % 100)
    cheat = {"HC_GAME": str(copy), "XDG_STATE_HOME": str(tmp_path / "cheat")}  # his own hc
    again = hc(*FIRE.split(), "--rules-changed", env=cheat)
    assert again.exit_code == 0, again.output
    better = json.loads(copy.read_bytes().splitlines()[-1])["result"]
    assert better != json.loads(path.read_bytes().splitlines()[-1])["result"]
    _edit_newest(path, lambda e: e.update(result=better))  # the swapped file at its path
    replay = hc("replay", str(path))
    assert replay.exit_code == 1 and "does NOT reproduce" in replay.stdout
    assert "from its own dice" in hc.error("status", env=env)


def test_a_house_rules_file_swapped_changes_nothing_the_game_plays_with(hc, tmp_path):
    house, path, env = _house_game(hc, tmp_path)
    house.unlink()  # gone: the game plays on with the text it kept
    assert hc(FIRE, env=env).exit_code == 0
    assert hc("replay", str(path)).exit_code == 0


def test_an_old_game_without_kept_text_replays_from_the_path_by_its_digest(hc, tmp_path):
    from hc_cli.log.chain import chain_hash, entry_line

    house, path, env = _house_game(hc, tmp_path)
    assert hc(FIRE, env=env).exit_code == 0
    lines, prev = [], None  # as an older hc wrote it: the house rules by path and digest only
    for line in path.read_bytes().splitlines():
        entry = json.loads(line)
        for record in entry.get("rules", []) + entry.get("game", {}).get("rules", []):
            del record["text"]
            record["path"] = str(house)  # (an action read the game's text where hc keeps it)
        body = {k: v for k, v in entry.items() if k not in ("seq", "prev")}
        lines.append(entry_line(entry["seq"], prev, body, None))
        prev = chain_hash(lines[-1], None)
    path.write_bytes(b"\n".join(lines) + b"\n")
    replay = hc("replay", str(path))
    said = replay.stdout.replace("\n  ", " ")
    assert replay.exit_code == 0 and "house-rules file(s) read at the path logged" in said
    house.write_text(BAND % 100)  # swapped: the digest says so, whatever the result
    replay = hc("replay", str(path))
    assert replay.exit_code == 1 and "has changed since" in replay.stdout.replace("\n  ", " ")
    assert "has changed since" in hc.error("status", env=env)


def test_a_snapshot_made_of_the_edited_bytes_does_not_spare_the_check(hc, tmp_path):
    """The snapshot vouches for bytes by their digest: one that covers the edited newest entry
    (as a snapshot written after the edit would) still leaves it checked."""
    from hc_cli.games import store
    from hc_cli.games.scan import open_to_read, scan

    path, env = _played(hc, tmp_path, "high-crusade")
    game = store.open_game(str(path), fresh=True)
    _edit_newest(path, _set("result", "summary", "kills", add=3))
    fd = open_to_read(str(path))
    try:
        game.chain = scan(str(path), fd, None)  # the edited bytes, the state of before
    finally:
        os.close(fd)
    store._save_snapshot(game)
    store._OPENED.clear()
    trusted, snapshot = store._load_snapshot(str(path), None)
    assert snapshot is not None and snapshot.seq == game.chain.count  # it covers the entry
    assert "summary.kills: logged 4" in hc.error("status", env=env)


def _rechained(path: Path, seq: int, change) -> None:
    """Entry `seq` changed and every entry chained again after it, as anyone can do to a game
    without a key: only replay (and a receipt) can notice."""
    from hc_cli.log.chain import chain_hash, entry_line

    lines, prev = [], None
    for line in path.read_bytes().splitlines():
        entry = json.loads(line)
        if entry["seq"] == seq:
            change(entry)
        body = {k: v for k, v in entry.items() if k not in ("seq", "prev")}
        lines.append(entry_line(entry["seq"], prev, body, None))
        prev = chain_hash(lines[-1], None)
    path.write_bytes(b"\n".join(lines) + b"\n")


@pytest.mark.parametrize("which", ["in effect", "taken back"])
def test_replay_checks_the_game_part_of_every_entry(hc, tmp_path, which):
    fire = "fire ladz --at fireteam-2 -r 8 --dice 99,99,99,99,99,99 --agreed"  # in boyz's place
    path, env = _played(hc, tmp_path, "high-crusade", "undo", fire)
    seq = 5 if which == "in effect" else 3  # 3: boyz's volley, taken back (by 4)
    assert hc("replay", str(path)).exit_code == 0
    _rechained(path, seq, _set("game", "meta", "step", to=4))
    replay = hc("replay", str(path))
    said = replay.stdout.replace("\n  ", " ")
    assert replay.exit_code == 1, said
    assert f"line {seq}: entry {seq} is not what the game gives in the state before it" in said
    assert "meta.step: logged 4, the game gives 2" in said


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (_set("game", "reroll", add=-1), "whose dice were not on the table"),  # found in play
        (lambda e: e["game"].pop("reroll"), "and no agreement is recorded"),
    ],
)
def test_the_newest_re_roll_edited_is_refused_by_every_command(hc, tmp_path, change, said):
    """An action taken back leaves its dice on the table; the re-roll made in its place
    records it (`game.reroll`). Edited in the newest entry, every command refuses the game,
    as replay does, whichever hc reads it (this one or the other player's)."""
    path, env = _played(hc, tmp_path, "high-crusade", "undo")
    fire = PLAYS["high-crusade"][1].split(" --dice")[0]
    assert hc(f"{fire} --reroll --seed 3", env=env).exit_code == 0
    _edit_newest(path, change)
    _refused_everywhere(hc, path, env, "high-crusade", said)

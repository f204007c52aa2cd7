"""Fuzzing the games (issue 25): game files mutated and chained again, as a forger who knows
the format (and, keyed, the key) would write them, and rosters with hostile names. Whatever
the file holds, every command answers with an exit code of its own (0, 1 for a replay that
fails, 2 for what it refuses), never a traceback, and prints nothing raw that could drive the
terminal."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
KEY = "the table's key, 128 bits or more"

GAMES = {  # each with an undo in it: an undone entry is read too (history)
    "high-crusade": [
        ("initiative", "--dice", "3,6"),
        ("fire", "boyz", "--at", "fireteam-1", "-r", "8", "--dice", "07,99,99,99,99,99,99,99"),
        ("morale", "fireteam-1", "--dice", "5"),
        ("undo",),
        ("morale", "fireteam-1", "--dice", "5"),
    ],
    "rogue-trader": [
        ("initiative", "--dice", "1"),
        ("fire", "lascannon-team", "--at", "carnosaur", "-r", "20", "--dice", "4,3,2,1"),
        ("undo",),
        ("fire", "lascannon-team", "--at", "carnosaur", "-r", "20", "--dice", "4,3,2,1"),
        ("fire", "marines", "--at", "boyz", "-r", "10", "--seed", "3"),
    ],
    "t2k": [
        ("initiative",),
        ("fire", "kowalski", "--at", "ivanov", "--range", "30", "--seed", "5"),
        ("undo",),
        ("fire", "kowalski", "--at", "ivanov", "--range", "30", "--seed", "5"),
    ],
}
AGAIN = {  # an action to try on the mutated game
    "high-crusade": ("fire", "ladz", "--at", "fireteam-2", "-r", "9", "--seed", "1"),
    "rogue-trader": ("fire", "lascannon-team", "--at", "boyz", "-r", "9", "--seed", "1"),
    "t2k": ("fire", "ivanov", "--at", "kowalski", "-r", "9", "--seed", "1"),
}

ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(["\x1b]0;pwned\x07", "\x00", "a\nb", "boyz:x", "fireteam-1", "9" * 30]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


def _paths(value, prefix=()):
    """Every path into a JSON value: keys of mappings, indexes of lists."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:4]):
            yield from _paths(v, (*prefix, i))


def _mutate(entry: dict, path: tuple, how: str, odd) -> None:
    *parent_path, last = path
    parent = entry
    for step in parent_path:
        parent = parent[step]
    if how == "delete" and isinstance(parent, dict):
        del parent[last]
    else:
        parent[last] = odd


def _rechain(lines: list[bytes], key: bytes | None) -> bytes:
    """The entries written again as hc writes them: numbered, each naming the hash of the line
    before it, keyed entries signed: a forgery that knows the format (and the key)."""
    from hc_cli.log.chain import chain_hash, entry_line

    out, prev = [], None
    for seq, line in enumerate(lines, 1):
        body = {k: v for k, v in json.loads(line).items() if k not in ("seq", "prev", "mac", "sig")}
        new = entry_line(seq, prev, body, key)
        prev = chain_hash(new, key)
        out.append(new + b"\n")
    return b"".join(out)


_PLAYED: dict[tuple[str, bool], bytes] = {}


def _played(hc, tmp_path_factory, ruleset: str, keyed: bool) -> bytes:
    """The game file of GAMES[ruleset], played once (per process) for each rule set, keyed
    and not: each example mutates a copy of it."""
    if (ruleset, keyed) not in _PLAYED:
        path = tmp_path_factory.mktemp("played") / "g.hcg"
        roster = str(ROOT / "examples" / f"{ruleset}-roster.yaml")
        assert hc("game", "new", str(path), "--roster", roster).exit_code == 0
        for action in GAMES[ruleset]:
            assert hc(*action, env={"HC_GAME": str(path)}).exit_code == 0, action
        _PLAYED[ruleset, keyed] = path.read_bytes()
    return _PLAYED[ruleset, keyed]


def _clean(result) -> None:
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    for stream in (result.stdout, result.stderr):
        assert "\x1b]" not in stream and "\x00" not in stream


@settings(
    max_examples=int(os.environ.get("HC_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    ruleset=st.sampled_from(sorted(GAMES)),
    keyed=st.booleans(),
    which=st.integers(0, 10),
    where=st.integers(0, 10_000),
    how=st.sampled_from(["delete", "replace"]),
    odd=ODD,
)
def test_a_mutated_game_file_chained_again_is_never_a_traceback(
    hc, tmp_path_factory, monkeypatch, ruleset, keyed, which, where, how, odd
):
    folder = tmp_path_factory.mktemp("forged")
    if keyed:
        monkeypatch.setenv("HC_LOG_KEY", KEY)
    else:
        monkeypatch.delenv("HC_LOG_KEY", raising=False)
    path = folder / "g.hcg"
    path.write_bytes(_played(hc, tmp_path_factory, ruleset, keyed))
    env = {"HC_GAME": str(path)}
    lines = path.read_bytes().splitlines()
    entry = json.loads(lines[which % len(lines)])
    paths = [p for p in _paths(entry) if p]
    _mutate(entry, paths[where % len(paths)], how, odd)
    lines[which % len(lines)] = json.dumps(entry).encode()
    path.write_bytes(_rechain(lines, KEY.encode() if keyed else None))
    for command in (
        ("status",),
        ("status", "--json"),
        ("history",),
        ("game", "export"),
        ("game", "rules"),
        ("replay", str(path)),
        ("game", "next"),
        ("undo",),
        AGAIN[ruleset],
    ):
        _clean(hc(*command, env=env))


NAMES = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "\x1b]0;x\x07", "a\tb", "A", "a", "-x", "x" * 300, "\u202e"]),
)


@settings(
    max_examples=int(os.environ.get("HC_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(title=NAMES, side_a=NAMES, side_b=NAMES, unit_a=NAMES, unit_b=NAMES)
def test_rosters_with_hostile_names_are_refused_or_printed_safely(
    hc, tmp_path_factory, title, side_a, side_b, unit_a, unit_b
):
    folder = tmp_path_factory.mktemp("roster")
    roster = {
        "ruleset": "high-crusade",
        "title": title,
        "sides": {
            side_a: {unit_a: {"troop": "crusader", "figures": 5, "weapon": "ingrave-ar"}},
            side_b: {unit_b: {"troop": "orc", "figures": 5, "weapon": "bolt-gun"}},
        },
    }
    (folder / "r.yaml").write_text(json.dumps(roster), encoding="utf-8")  # JSON is YAML
    checked = hc("roster", "check", str(folder / "r.yaml"))
    _clean(checked)
    started = hc("game", "new", str(folder / "g.hcg"), "--roster", str(folder / "r.yaml"))
    _clean(started)
    if started.exit_code == 0:
        _clean(hc("status", env={"HC_GAME": str(folder / "g.hcg")}))

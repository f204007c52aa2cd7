"""A game's key (HC_LOG_KEY, or the file HC_LOG_KEY_FILE names): at least 128 bits to write
with, a key file others can read warned of, a wrong key said as such, never both set, and
`hc game key` to make one."""

from __future__ import annotations

import os
import re
import stat

import pytest
from helpers import EXAMPLES

ROSTER = str(EXAMPLES / "high-crusade-roster.yaml")
STRONG = "a key of the table, long enough to hold 128 bits"


def _new(hc, path, env):
    return hc("game", "new", str(path), "--roster", ROSTER, "-q", env=env)


# The most bits each length could hold, by the smallest alphabet its characters fall in
# (digits log2 10, hex 4, base64 6, printable ASCII log2 95, a byte 8): the shortest of each
# that reaches 128, and one character fewer.
@pytest.mark.parametrize(
    ("key", "enough"),
    [
        ("1" * 39, True),  # 39 x 3.32 = 129.6
        ("1" * 38, False),  # 126.2
        ("f" * 32, True),  # 32 x 4 = 128
        ("f" * 31, False),
        ("z" * 22, True),  # 22 x 6 = 132
        ("z" * 21, False),  # 126
        ("a b" * 6 + "a ", True),  # printable ASCII: 20 x 6.57 = 131.4
        ("a b" * 6 + "a", False),  # 19 x 6.57 = 124.8
    ],
)
def test_a_key_that_cannot_hold_128_bits_writes_nothing(hc, tmp_path, key, enough):
    path = tmp_path / "g.hcg"
    result = _new(hc, path, {"HC_LOG_KEY": key})
    if enough:
        assert result.exit_code == 0, result.stderr
        return
    said = hc.error("game", "new", str(path), "--roster", ROSTER, env={"HC_LOG_KEY": key})
    assert f"{len(key)} characters" in said and "a key needs 128" in said
    assert "hc game key" in said
    assert not path.exists()


def test_a_key_file_of_random_bytes_needs_16_of_them(hc, tmp_path):
    key = tmp_path / "key"
    for size, code in ((15, 2), (16, 0)):
        key.write_bytes(bytes(range(0x80, 0x80 + size)))  # no whitespace to strip
        key.chmod(0o600)
        result = _new(hc, tmp_path / f"g{size}.hcg", {"HC_LOG_KEY_FILE": str(key)})
        assert result.exit_code == code, result.stderr


def test_a_game_keyed_short_before_reads_but_is_played_no_more(hc, tmp_path, monkeypatch):
    """A game an older hc keyed with 'abcd': read (a warning), replayed, never appended to."""
    path = tmp_path / "old.hcg"
    env = {"HC_LOG_KEY": "abcd", "HC_GAME": str(path)}
    monkeypatch.setattr("hc_cli.log.keys.KEY_BITS", 0)  # as an older hc took it
    assert _new(hc, path, env).exit_code == 0
    monkeypatch.undo()
    before = path.read_bytes()
    status = hc("status", env=env)
    warned = " ".join(status.stderr.split())  # wrapped to the terminal
    assert status.exit_code == 0 and "at most 16 bits" in warned and "writes nothing" in warned
    assert hc("replay", str(path), env=env).exit_code == 0
    said = hc.error("initiative", "--dice", "3,6", env=env)
    assert "at most 16 bits" in said and "nothing is written" in said
    assert path.read_bytes() == before


def test_a_key_file_others_can_read_is_warned_of(hc, tmp_path):
    key = tmp_path / "table.key"
    key.write_text(STRONG + "\n")
    key.chmod(0o644)
    env = {"HC_LOG_KEY_FILE": str(key)}
    made = _new(hc, tmp_path / "g.hcg", env)
    assert made.exit_code == 0
    assert f"can be read by others (mode 644): chmod 600 {key}" in " ".join(made.stderr.split())
    key.chmod(0o600)
    again = hc("status", "--game", str(tmp_path / "g.hcg"), env=env)
    assert again.exit_code == 0 and again.stderr == ""


def test_a_wrong_key_is_said_as_such_and_an_edit_still_as_an_edit(hc, tmp_path):
    path = tmp_path / "g.hcg"
    assert _new(hc, path, {"HC_LOG_KEY": STRONG}).exit_code == 0
    other = {"HC_LOG_KEY": "another key, just as long as the first"}
    for command in (("status", "--game", str(path)), ("replay", str(path))):
        said = hc.error(*command, env=other)
        assert "the key given does not match" in said and "started with another key" in said
        assert "changed" not in said
    line = path.read_bytes()
    path.write_bytes(line.replace(b'"Orcs"', b'"Orcx"', 1))
    said = hc.error("status", "--game", str(path), env={"HC_LOG_KEY": STRONG})
    assert "changed without the key" in said


def test_a_game_keyed_before_key_ids_reads_and_a_wrong_key_may_be_either(hc, tmp_path):
    from hc_cli.log.chain import SIG_LENGTH, signed

    path = tmp_path / "g.hcg"
    key = {"HC_LOG_KEY": STRONG}
    assert _new(hc, path, key).exit_code == 0
    line = path.read_bytes().rstrip(b"\n")
    body = re.sub(rb',"key_id":"[0-9a-f]{16}"', b"", line[:-SIG_LENGTH] + b"}")
    assert body != line[:-SIG_LENGTH] + b"}"
    path.write_bytes(signed(body, STRONG.encode()) + b"\n")  # as an older hc wrote it
    assert hc("status", "--game", str(path), env=key).exit_code == 0
    assert hc("initiative", "--dice", "3,6", "--game", str(path), env=key).exit_code == 0
    said = hc.error("status", "--game", str(path), env={"HC_LOG_KEY": "x" * 40})
    assert "the key given is not the one it was written with, or it was changed" in said


def test_both_keys_set_is_refused_as_ambiguous(hc, tmp_path):
    key = tmp_path / "k"
    key.write_text(STRONG)
    key.chmod(0o600)
    env = {"HC_LOG_KEY": STRONG, "HC_LOG_KEY_FILE": str(key)}
    said = hc.error("game", "new", str(tmp_path / "g.hcg"), "--roster", ROSTER, env=env)
    assert "HC_LOG_KEY and HC_LOG_KEY_FILE are both set" in said and "unset one" in said
    assert not (tmp_path / "g.hcg").exists()


def test_hc_game_key_makes_a_key_of_256_bits(hc, tmp_path):
    made = [hc("game", "key").stdout.strip() for _ in range(2)]
    assert made[0] != made[1]
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{43}", key) for key in made)  # 43 x 6 bits
    assert _new(hc, tmp_path / "g.hcg", {"HC_LOG_KEY": made[0]}).exit_code == 0


def test_hc_game_key_file_is_the_owners_alone_and_never_overwritten(hc, tmp_path):
    key = tmp_path / "table.key"
    old = os.umask(0)
    try:
        result = hc("game", "key", "--file", str(key))
    finally:
        os.umask(old)
    assert result.exit_code == 0 and f"HC_LOG_KEY_FILE={key}" in result.stdout
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    kept = key.read_bytes()
    assert re.fullmatch(rb"[A-Za-z0-9_-]{43}\n", kept)
    assert "never overwritten" in hc.error("game", "key", "--file", str(key))
    assert key.read_bytes() == kept
    made = _new(hc, tmp_path / "g.hcg", {"HC_LOG_KEY_FILE": str(key)})
    assert made.exit_code == 0 and made.stderr == ""
    assert hc("game", "key", "--file", str(tmp_path / "quiet.key"), "-q").stdout == ""
    assert (tmp_path / "quiet.key").stat().st_size == 44

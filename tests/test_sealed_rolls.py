"""Sealed rolls for players apart (issue 28): two players, each with a folder of their own (their
secrets), exchange the codes their hc prints; the seed comes from both secrets and the chain's
head, worked out here with hashlib as the README tells anyone to with sha256sum. A forger then
tries every order of the messages and every edit of the file (re-chained, as anyone can): each
is refused as it is made, or found when the file is read."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from helpers import RT_SKIRMISH

from hc_cli.log.chain import chain_hash, entry_line

ROSTER = RT_SKIRMISH
CODE = re.compile(r"hc seal (\w+) (\d+(?::[0-9a-f]+|:[oh])+)")


def checked(*parts: object) -> str:
    """A code as a forger (or a careful player) writes one: its check of four hex digits is
    sha256("hc code:" + the code), as the README says."""
    text = ":".join(str(p) for p in parts)
    return f"{text}:{hashlib.sha256(f'hc code:{text}'.encode()).hexdigest()[:4]}"


def mistyped(code: str) -> str:
    """One hex digit of a code's secret changed: its check no longer holds."""
    number, secret, *rest = code.split(":")
    return ":".join([number, secret[:-1] + ("0" if secret[-1] != "0" else "1"), *rest])


@pytest.fixture
def table(hc, tmp_path):
    """Two players: A holds the game file and rolls; B has only a folder of their own."""
    (tmp_path / "roster.yaml").write_text(ROSTER, encoding="utf-8")
    path = tmp_path / "hunt.hcg"
    a = {"XDG_CONFIG_HOME": str(tmp_path / "a"), "HC_GAME": str(path)}
    b = {"XDG_CONFIG_HOME": str(tmp_path / "b"), "HC_GAME": "none"}
    assert hc(f"game new {path} --roster {tmp_path / 'roster.yaml'}", env=a).exit_code == 0
    assert hc("initiative --dice 1", env=a).exit_code == 0

    class Table:
        file = path

        def run(self, who: dict, line: str) -> str:
            result = hc(line, env=who)
            assert result.exit_code == 0, result.output
            return result.stdout

        def refused(self, who: dict, line: str) -> str:
            before = path.read_bytes()
            message = hc.error(line, env=who)
            assert path.read_bytes() == before  # a refused step appends nothing
            return message

        def next_code(self, printed: str) -> str:
            """The command the other player is told to paste, and its code."""
            return " ".join(CODE.findall(printed)[-1])

        def entries(self) -> list[dict]:
            return [json.loads(line) for line in path.read_text().splitlines()]

        def exchange(self, line: str = "fire marines --at boyz --range 10 --sealed") -> dict:
            said = self.run(a, line)
            said = self.run(b, "seal " + self.next_code(said))  # B joins
            said = self.run(a, "seal " + self.next_code(said))  # A writes B's commitment
            said = self.run(b, "seal " + self.next_code(said))  # B checks A's secret
            return {"open": "seal " + self.next_code(said)}  # for A to open with

    t = Table()
    t.a, t.b = a, b
    return t


def _derive(head: str, a: str, b: str) -> int:
    return int(hashlib.sha256(f"hc sealed roll:{head}:{a}:{b}".encode()).hexdigest()[:15], 16)


def _commit(secret: str) -> str:
    return hashlib.sha256(f"hc seal:{secret}".encode()).hexdigest()[:32]


def test_a_sealed_roll_between_two_players(table, hc):
    codes = table.exchange()
    table.run(table.a, codes["open"])
    entries = table.entries()
    sealed, committed, shown, roll = entries[2:6]
    assert sealed["game"]["event"] == "seal" and sealed["game"]["action"]["unit"] == "marines"
    assert committed["game"]["event"] == "seal-commit"
    a, b = shown["game"]["a"], shown["game"]["b"]
    assert _commit(a) == sealed["game"]["commit"] and _commit(b) == committed["game"]["commit"]
    # the seed covers the action sealed: the sealing entry's own hash, the next entry's prev
    sealing_line = table.file.read_bytes().splitlines()[2]
    assert committed["prev"] == hashlib.sha256(sealing_line).hexdigest()
    assert roll["seed"] == _derive(committed["prev"], a, b)
    assert roll["game"]["sealed"] == 3 and roll["command"] == "fire"
    assert hc(f"replay {table.file}", env=table.a).exit_code == 0
    history = hc("history -q", env=table.a).stdout
    assert "the sealed roll of entry 3" in " ".join(history.split())


def test_a_hidden_roll_stays_sealed_until_unsealed(table, hc):
    """A plain roll of dice, hidden: the other player gives their secret without seeing the
    roller's; the roller sees the result; the file holds neither the roller's secret nor the
    result until it is unsealed, while the game goes on."""
    a, b = table.a, table.b
    said = table.run(b, "seal " + table.next_code(table.run(a, "roll 2d6 --hidden")))
    said = table.run(a, "seal " + table.next_code(said))
    ask = table.next_code(said)
    assert ask.split()[1].count(":") == 2  # N, the roll's mark and the check: no secret
    said = table.run(b, "seal " + ask)
    seen = json.loads(table.run(a, "seal " + table.next_code(said) + " --json"))
    shown = table.entries()[-1]
    assert shown["game"]["event"] == "seal-reveal" and "a" not in shown["game"]
    assert "total" not in table.file.read_text()  # no result in the file yet
    status = " ".join(hc("status", env=a).stdout.split())
    assert "hidden roll 3 is sealed: hc seal unseal 3" in status
    table.run(a, "fire marines --at boyz --range 10 --dice 1,1,1,1,1")  # the game goes on
    later = json.loads(table.run(a, "seal unseal 3 --json"))
    assert later["rolls"] == seen["rolls"]  # what the roller saw then is what is written
    entries = table.entries()
    roll, reveal = entries[-1], entries[-2]
    assert roll["command"] == "roll" and roll["game"]["sealed"] == 3
    assert _commit(reveal["game"]["a"]) == entries[2]["game"]["commit"]
    assert roll["seed"] == _derive(entries[3]["prev"], reveal["game"]["a"],
                                   shown["game"]["b"])  # fmt: skip
    assert hc(f"replay {table.file}", env=a).exit_code == 0


def test_a_hidden_roll_is_a_plain_roll(table):
    message = table.refused(table.a, "fire marines --at boyz --range 10 --hidden")
    assert "a hidden roll is a plain roll of dice" in message


def test_every_step_out_of_order_is_refused(table, hc):
    a, b = table.a, table.b
    said = table.run(a, "fire marines --at boyz --range 10 --sealed")
    join = table.next_code(said)
    number = join.split()[1].partition(":")[0]
    fake = checked(number, "0" * 32)
    assert "not committed" in table.refused(a, f"seal open {fake}")  # a reveal before both
    assert "no sealed roll 3 you joined" in hc.error(f"seal reveal {fake}", env=b)
    assert "under way" in table.refused(a, "fire marines --at boyz --range 10")
    assert "under way" in table.refused(a, "game next")
    assert "not taken back" in table.refused(a, "undo")
    assert "under way" in table.refused(a, "fire marines --at boyz --range 10 --sealed")
    said = table.run(b, "seal " + join)
    again = table.run(b, "seal " + join)  # joined again: one secret a player, the same line
    assert table.next_code(again) == table.next_code(said) and "already" in again
    commit = table.next_code(said)
    assert "does not check" in table.refused(a, "seal commit " + mistyped(commit.split()[1]))
    own = json.loads(table.file.read_text().splitlines()[-1])["game"]["commit"]
    assert "fresh" in table.refused(a, f"seal commit {checked(number, own)}")  # A's own
    said = table.run(a, "seal " + commit)
    assert "already" in table.refused(a, "seal " + commit)
    reveal = table.next_code(said)
    said = table.run(b, "seal " + reveal)
    opening = table.next_code(said)
    assert "does not check" in table.refused(a, "seal open " + mistyped(opening.split()[1]))
    assert "does not match" in table.refused(a, f"seal open {checked(number, '5' * 32)}")
    table.run(a, "seal " + opening)
    assert "rolled already" in table.refused(a, "seal " + opening)
    assert "not taken back" in table.refused(a, "undo")
    assert "no sealed roll" in hc.error(f"seal open {checked(99, '1' * 32)}", env=a)
    assert "is no" in hc.error("seal join 7:xyz", env=b)


def _forge(path, edit) -> None:
    """Entries edited as a forger would, and the chain worked out again over them."""
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    entries = edit(entries)
    lines, prev = [], None
    for seq, entry in enumerate(entries, 1):
        body = {k: v for k, v in entry.items() if k not in ("seq", "prev")}
        line = entry_line(seq, prev, body, None)
        lines.append(line)
        prev = chain_hash(line)
    path.write_bytes(b"\n".join(lines) + b"\n")


def _swap(i: int, j: int):
    def edit(entries):
        entries[i], entries[j] = entries[j], entries[i]
        return entries

    return edit


def _set(i: int, *keys_and_value):
    *keys, value = keys_and_value

    def edit(entries):
        target = entries[i]
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
        return entries

    return edit


def _drop(i: int):
    def edit(entries):
        del entries[i]
        return entries

    return edit


def _twice(i: int):
    def edit(entries):
        entries.insert(i + 1, json.loads(json.dumps(entries[i])))
        return entries

    return edit


FORGERIES = {
    "the commitment after the reveal": _swap(3, 4),
    "the roll before the reveal": _swap(4, 5),
    "no second commitment": _drop(3),
    "no reveal": _drop(4),
    "two commitments": _twice(3),
    "the reveal twice": _twice(4),
    "the roll twice": _twice(5),
    "another first commitment": _set(2, "game", "commit", "1" * 32),
    "another second commitment": _set(3, "game", "commit", "2" * 32),
    "another secret a": _set(4, "game", "a", "3" * 32),
    "another secret b": _set(4, "game", "b", "4" * 32),
    "b no secret": _set(4, "game", "b", "xyz"),
    "the roll with another seed": _set(5, "seed", 12345),
    "the roll with dice of its own": _set(5, "dice", "6,6,6,6,6,6,6,6,6,6"),
    "the roll at another range": _set(5, "flags", "range", 20),
    "the roll by another unit": _set(5, "game", "unit", "boyz"),
    "the roll of another seal": _set(5, "game", "sealed", 2),
    "the roll not marked sealed": _set(5, "game", "sealed", None),
    "the sealed action changed": _set(2, "game", "action", "flags", "range", 20),
    "the same secret twice": lambda e: _set(4, "game", "b", e[4]["game"]["a"])(e),
    "the second commitment the first": lambda e: _set(3, "game", "commit", e[2]["game"]["commit"])(
        e
    ),  # fmt: skip
}


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_every_forgery_of_a_sealed_roll_is_found(table, hc, forgery):
    codes = table.exchange()
    table.run(table.a, codes["open"])
    assert hc(f"replay {table.file}", env=table.a).exit_code == 0
    _forge(table.file, FORGERIES[forgery])
    assert hc(f"replay {table.file}", env=table.a).exit_code == 1, forgery
    status = hc("status", env=table.a)
    assert status.exit_code == 2 and "damaged" in status.stderr, forgery


def test_a_roll_given_up_after_both_committed_is_a_forfeit(table, hc):
    """Abandoned before the other player committed, a roll is gone; after, a forfeit, in the
    file (and in the other player's check) for both to see. Once both secrets are written it
    is rolled, never given up."""
    a, b = table.a, table.b
    table.run(a, "fire marines --at boyz --range 10 --sealed")
    table.run(a, "seal abandon 3")
    assert table.entries()[-1]["game"]["event"] == "seal-abandon"
    assert "abandoned" in table.refused(a, "seal abandon 3")
    said = table.run(b, "seal " + table.next_code(table.run(a, "fire marines --at boyz "
                                                            "--range 10 --sealed")))  # fmt: skip
    said = table.run(a, "seal " + table.next_code(said))
    status = " ".join(hc("status", env=a).stdout.split())
    assert "sealed roll 5 waits for the other player's secret" in status
    assert "a forfeit" in table.run(a, "seal abandon 5")
    assert "given up" in hc("history -q", env=a).stdout
    check = hc(f"seal check {table.file}", env=b)
    assert check.exit_code == 0 and "a forfeit" in " ".join(check.stdout.split())
    # the forfeit action is not made again this turn, sealed or not: no new roll for it
    assert "a forfeit" in table.refused(a, "fire marines --at boyz --range 10")
    assert "a forfeit" in table.refused(a, "fire marines --at boyz --range 10 --sealed")
    table.run(a, "game next")  # the Orks' turn
    table.run(a, "game next")  # the Imperials' next turn: the marines may fire again
    codes = table.exchange()  # sealed again, from the start, with fresh secrets
    table.run(a, codes["open"])
    assert table.entries()[-1]["game"]["sealed"] == 10
    assert hc(f"replay {table.file}", env=a).exit_code == 0
    luck = " ".join(hc("luck", env=a).stdout.split())
    assert "sealed roll 5 (marines fire) given up after both players committed" in luck


def test_the_other_player_checks_the_file_against_what_they_joined(table, hc, tmp_path):
    """The roller holds the file; the other player's hc kept the roll's mark, the roller's
    commitment and their own secret, and finds a file whose steps are not those."""
    a, b = table.a, table.b
    codes = table.exchange()
    table.run(a, codes["open"])
    good = hc(f"seal check {table.file}", env=b)
    assert good.exit_code == 0 and "it is the roll you joined" in " ".join(good.stdout.split())
    other = {**b, "XDG_CONFIG_HOME": str(tmp_path / "c")}  # a third folder: joined nothing
    stranger = hc(f"seal check {table.file}", env=other)
    assert stranger.exit_code == 1 and "another player than you" in stranger.stdout

    def forged(entries):  # the roller wrote another secret as B's, and chained it again
        entries[4]["game"]["b"] = "9" * 32
        entries[3]["game"]["commit"] = _commit("9" * 32)
        return entries

    _forge(table.file, forged)
    bad = hc(f"seal check {table.file}", env=b)
    assert bad.exit_code in (1, 2)

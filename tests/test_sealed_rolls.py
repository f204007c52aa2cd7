"""Sealed rolls for players apart (issue 28): two players, each with a folder of their own (their
secrets), exchange the codes their hc prints; the seed comes from both secrets and the chain's
head, worked out here with hashlib as the README tells anyone to with sha256sum. A forger then
tries every order of the messages and every edit of the file (re-chained, as anyone can): each
is refused as it is made, or found when the file is read. Once both players committed a roll is
final (issue 37, item 5): not abandoned, forfeit if its roller does not reveal it, a hidden one
holding the game until it is unsealed; every abandon and forfeit counted."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil

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
            join = "seal " + self.next_code(self.run(a, line))
            said = self.run(b, join)  # B joins
            reveal = "seal " + self.next_code(self.run(a, "seal " + self.next_code(said)))
            said = self.run(b, reveal)  # B shows their secret
            self.reveal = reveal
            return {"open": "seal " + self.next_code(said), "b was sent": join + reveal}

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
    # the other player showed their secret knowing nothing of the roller's: it was never sent
    # them, so they could not work out the result first (and withhold theirs, or claim it lost)
    assert a not in codes["b was sent"] and _commit(a) in codes["b was sent"]


def test_a_hidden_roll_holds_the_game_until_unsealed(table, hc):
    """A plain roll of dice, hidden: the other player gives their secret without seeing the
    roller's; the roller sees the result; the file holds neither the roller's secret nor the
    result until it is unsealed, and nothing else is played meanwhile, by either side: no
    action, no step, no other hidden roll (three of them, the best unsealed, cannot be)."""
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
    assert "hidden roll 3 holds the game until it is unsealed: hc seal unseal 3" in status
    for line in ("fire marines --at boyz --range 10 --dice 1,1,1,1,1", "roll 2d6 --hidden",
                 "fire boyz --at marines --range 10 --sealed", "game next"):  # fmt: skip
        message = table.refused(a, line)
        assert "sealed roll of entry 3" in message and "hc seal unseal 3" in message, line
    assert "final" in table.refused(a, "seal abandon 3")
    later = json.loads(table.run(a, "seal unseal 3 --json"))
    assert later["rolls"] == seen["rolls"]  # what the roller saw then is what is written
    entries = table.entries()
    roll, reveal = entries[-1], entries[-2]
    assert roll["command"] == "roll" and roll["game"]["sealed"] == 3
    assert _commit(reveal["game"]["a"]) == entries[2]["game"]["commit"]
    assert roll["seed"] == _derive(entries[3]["prev"], reveal["game"]["a"],
                                   shown["game"]["b"])  # fmt: skip
    table.run(a, "fire marines --at boyz --range 10 --dice 1,1,1,1,1")  # the game goes on
    assert hc(f"replay {table.file}", env=a).exit_code == 0


def test_a_file_played_on_past_a_hidden_roll_is_damaged(table, hc):
    """A second hidden roll begun (or an action made) while one opened is not unsealed, edited
    into the file: the fold refuses it, in replay and everywhere else."""
    a, b = table.a, table.b
    said = table.run(b, "seal " + table.next_code(table.run(a, "roll 2d6 --hidden")))
    said = table.run(a, "seal " + table.next_code(said))
    said = table.run(b, "seal " + table.next_code(said))
    table.run(a, "seal " + table.next_code(said))

    def another(entries):
        second = json.loads(json.dumps(entries[2]))
        second["game"]["commit"] = _commit("7" * 32)
        return [*entries, second]

    _forge(table.file, another)
    assert hc(f"replay {table.file}", env=a).exit_code == 1
    assert "damaged" in hc("status", env=a).stderr


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
    assert "is no reveal code" in hc.error(f"seal reveal {fake}", env=b)  # no secret is sent
    assert "joined no sealed roll 3" in hc.error(f"seal reveal {checked(number, '0' * 12)}", env=b)
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


def test_a_roll_both_players_committed_to_is_final(table, tmp_path):
    """Issue 37: the roller opened the roll on a copy of the game, saw the result, gave it up
    (a forfeit) and fired the same unit at another target. Before the other player commits a
    roll can still be abandoned; after, it is final: neither given up nor passed over."""
    a = table.a
    table.run(a, "fire marines --at boyz --range 10 --sealed")
    message = table.refused(table.b, f"seal forfeit 3 --game {table.file}")
    assert "no forfeit to claim: the other player has not committed" in message
    said = table.run(a, "seal abandon 3")  # nobody committed yet: an abandon, counted
    assert "abandoned before the other player committed" in said
    assert table.entries()[-1]["game"] == {"event": "seal-abandon", "seal": 3}
    codes = table.exchange()  # sealed roll 5: the roller holds both secrets now
    copy = tmp_path / "copy.hcg"
    copy.write_bytes(table.file.read_bytes())
    table.run(a, f"{codes['open']} --game {copy}")  # the result seen, on a copy
    message = table.refused(a, "seal abandon 5")
    assert "sealed roll 5 is final: both players committed to it" in message
    assert "reveal it" in message and "hc seal open 5" in message
    assert "hc seal forfeit 5" in message  # what happens to a roller who will not
    for line in ("fire marines --at boyz:3 --range 10", "fire marines --at boyz --range 10",
                 "fire marines --at boyz:3 --range 10 --sealed", "game next"):  # fmt: skip
        assert "sealed roll of entry 5 is under way" in table.refused(a, line), line
    table.run(a, codes["open"])  # revealed, as it must be: the roll seen on the copy
    rolled = json.loads(copy.read_text().splitlines()[-1])
    assert table.entries()[-1]["result"] == rolled["result"]


def _claim(table, hc, number: int) -> str:
    """The other player claims sealed roll `number`, not revealed, as a forfeit, once their
    secret is in the file for the roller to roll with."""
    table.run(table.b, f"{table.reveal} --game {table.file}")
    return table.run(table.b, f"seal forfeit {number} --game {table.file}")


def test_a_roller_who_will_not_reveal_forfeits_the_action(table, hc):
    """The roller holds the other player's secret and does not reveal the roll: the other
    player claims the forfeit, and the unit's fire is spent for the turn, at any target,
    sealed or not, by a model of it too (reading sealed-roll-forfeit = action-spent)."""
    a, b = table.a, table.b
    table.exchange()  # the roller could work out the result now, and does not open it
    message = table.refused(a, "seal forfeit 3")  # the roller cannot claim it for themselves
    assert "not joined here: its forfeit is the other player's to claim" in message
    said = " ".join(_claim(table, hc, 3).split())
    assert "a forfeit" in said and "marines makes no fire again in turn 1" in said
    assert "(reading: sealed-roll-forfeit = action-spent)" in said
    assert table.entries()[-1]["game"] == {"event": "seal-forfeit", "seal": 3}
    for line in ("fire marines --at boyz --range 10", "fire marines --at boyz:3 --range 10",
                 "fire marines:1 --at boyz --range 10",
                 "fire marines --at boyz:3 --range 10 --sealed"):  # fmt: skip
        message = table.refused(a, line)
        assert "sealed roll 3 (marines fire) was forfeit" in message, line
        assert "sealed-roll-forfeit = action-spent" in message, line
    assert "is forfeit" in table.refused(a, "seal abandon 3")
    assert "is forfeit" in hc.error(f"seal forfeit 3 --game {table.file}", env=b)
    assert "not taken back" in table.refused(a, "undo")
    history = " ".join(hc("history -q", env=a).stdout.split())
    assert "sealed roll of entry 3: not revealed, a forfeit claimed" in history
    check = hc(f"seal check {table.file}", env=b)
    assert check.exit_code == 0 and "not revealed by its roller (a forfeit)" in check.stdout
    assert "sealed-roll-forfeit" in hc("game rules", env=a).stdout
    table.run(a, "game next")  # the Orks' turn
    table.run(a, "game next")  # the Imperials' next: the marines may fire again
    table.run(a, "fire marines --at boyz:3 --range 10 --dice 1,1,1,1,1")
    assert hc(f"replay {table.file}", env=a).exit_code == 0


def test_the_reading_unit_spent_spends_the_whole_unit(hc, tmp_path):
    """With the reading switched by a house rule (unit-spent), a forfeit spends every action
    of the unit for the turn, not only the command sealed: a hide the marines could still
    make under action-spent is refused."""
    (tmp_path / "roster.yaml").write_text(ROSTER, encoding="utf-8")
    (tmp_path / "house.yaml").write_text(
        "ruleset: rogue-trader\nreadings:\n  sealed-roll-forfeit: {choice: unit-spent}\n",
        encoding="utf-8",
    )
    for reading in ("action-spent", "unit-spent"):
        path = tmp_path / f"{reading}.hcg"
        a = {"XDG_CONFIG_HOME": str(tmp_path / reading / "a"), "HC_GAME": str(path)}
        b = {"XDG_CONFIG_HOME": str(tmp_path / reading / "b"), "HC_GAME": "none"}
        rules = f" --rules {tmp_path / 'house.yaml'}" if reading == "unit-spent" else ""
        assert (
            hc(f"game new {path} --roster {tmp_path / 'roster.yaml'}{rules}", env=a).exit_code == 0
        )
        assert hc("initiative --dice 1", env=a).exit_code == 0
        said = hc("fire marines --at boyz --range 10 --sealed -q", env=a).stdout.strip()
        said = hc(f"{said.removeprefix('hc ')} -q", env=b).stdout.strip()
        said = hc(f"{said.removeprefix('hc ')} -q", env=a).stdout.strip()
        assert hc(f"{said.removeprefix('hc ')} --game {path}", env=b).exit_code == 0  # B reveals
        claimed = hc(f"seal forfeit 3 --game {path}", env=b)
        assert f"sealed-roll-forfeit = {reading}" in " ".join(claimed.stdout.split())
        hide = hc("hide marines", env=a)
        if reading == "action-spent":
            assert hide.exit_code == 0, hide.output
        else:
            assert hide.exit_code == 2 and "marines acts no more in turn 1" in " ".join(
                hide.stderr.split()
            )
        assert hc(f"replay {path}", env=a).exit_code == 0


def test_every_abandon_and_forfeit_is_counted_in_status_and_luck(table, hc):
    """Played here: the marines' sealed fire abandoned before the other player committed, and
    again sealed, committed, not revealed and claimed; the Orks' turn, the boyz' sealed fire
    abandoned; then a hidden roll of dice opened and never unsealed, claimed (a roll of no
    unit, in the Orks' turn: the side playing rolled it, issue 37). So, by hand: Imperials 1
    abandoned and 1 forfeit, Orks 1 abandoned and 1 forfeit."""
    a = table.a
    table.run(a, "fire marines --at boyz --range 10 --sealed")
    table.run(a, "seal abandon 3")
    table.exchange()  # entries 5 and 6
    _claim(table, hc, 5)
    table.run(a, "game next")  # the Orks' turn
    table.run(a, "fire boyz --at marines --range 10 --sealed")
    table.run(a, "seal abandon 10")
    codes = table.exchange("roll 2d6 --hidden")
    table.run(a, codes["open"])  # the roller sees it, and does not unseal it
    _claim(table, hc, 12)
    expected = {"Imperials": {"abandoned": 1, "forfeit": 1},
                "Orks": {"abandoned": 1, "forfeit": 1}}  # fmt: skip
    assert hc.json("status", env=a)["given_up"] == expected
    status = hc("status", env=a).stdout
    assert "Imperials: sealed rolls abandoned 1, forfeit 1" in status
    assert "Orks: sealed rolls abandoned 1, forfeit 1" in status
    assert "no unit" not in status
    assert hc.json("luck", env=a)["given_up"] == expected
    luck = hc("luck", env=a).stdout
    assert "Imperials: sealed rolls abandoned 1, forfeit 1" in luck
    assert "Orks: sealed rolls abandoned 1, forfeit 1" in luck and "no unit" not in luck
    assert hc.json("luck --side Orks", env=a)["given_up"] == {"Orks": expected["Orks"]}
    assert hc(f"replay {table.file}", env=a).exit_code == 0


def test_a_game_with_nothing_given_up_says_nothing_of_it(table, hc):
    codes = table.exchange()
    table.run(table.a, codes["open"])
    assert hc.json("status", env=table.a)["given_up"] == {
        "Imperials": {"abandoned": 0, "forfeit": 0}, "Orks": {"abandoned": 0, "forfeit": 0}
    }  # fmt: skip
    assert "sealed rolls abandoned" not in hc("status", env=table.a).stdout
    assert "sealed rolls abandoned" not in hc("luck", env=table.a).stdout


def _event(i: int, event: str):
    """Entry `i` made the step `event` of the same sealed roll."""

    def edit(entries):
        entries[i] = {**entries[i], "game": {"event": event, "seal": 3}}
        return entries

    return edit


GIVING_UP = {
    "an abandon after both committed, for the forfeit": ("claimed", _event(4, "seal-abandon")),
    "a forfeit before both committed, for the abandon": ("abandoned", _event(3, "seal-forfeit")),
    "a forfeit once both secrets are written, for the roll": ("rolled", _event(5, "seal-forfeit")),
    "a forfeit before the joiner's secret is in the file": ("claimed", _drop(4)),
}


@pytest.mark.parametrize("forgery", list(GIVING_UP))
def test_a_file_edited_to_give_up_a_roll_it_may_not_is_damaged(table, hc, forgery):
    """Each edit that gives up a roll where it may not be, re-chained, is found by the fold."""
    play, edit = GIVING_UP[forgery]
    if play == "abandoned":
        table.run(table.a, "fire marines --at boyz --range 10 --sealed")
        table.run(table.a, "seal abandon 3")
    else:
        codes = table.exchange()
        if play == "claimed":
            _claim(table, hc, 3)
        else:
            table.run(table.a, codes["open"])
    assert hc(f"replay {table.file}", env=table.a).exit_code == 0
    _forge(table.file, edit)
    assert hc(f"replay {table.file}", env=table.a).exit_code == 1
    assert "damaged" in hc("status", env=table.a).stderr


def test_a_file_edited_to_act_again_after_a_forfeit_is_damaged(table, hc, tmp_path):
    """The marines' fire of another game, at another target in the same turn, put after the
    forfeit of their sealed fire: the fold refuses it, whatever period the entry names."""
    other = tmp_path / "other.hcg"
    a = {**table.a, "HC_GAME": str(other)}
    assert hc(f"game new {other} --roster {tmp_path / 'roster.yaml'}", env=a).exit_code == 0
    assert hc("initiative --dice 1", env=a).exit_code == 0
    assert hc("fire marines --at boyz:3 --range 10 --dice 1,1,1,1,1", env=a).exit_code == 0
    fire = json.loads(other.read_text().splitlines()[-1])
    table.exchange()
    _claim(table, hc, 3)
    for period in (fire["game"]["period"], "turn 9: Imperials plays"):
        _forge(table.file, lambda e, p=period: [*e[:5], {**fire, "game": {**fire["game"],
                                                                       "period": p}}])  # fmt: skip
        assert hc(f"replay {table.file}", env=table.a).exit_code == 1, period


def test_a_roll_whose_secrets_are_both_written_is_rolled_by_either_player(table, hc):
    """Both secrets in the file and the roll not yet (the roller's hc stopped between): it is
    no forfeit, and either player rolls it, the other with their own code."""
    codes = table.exchange()
    table.run(table.a, codes["open"])
    rolled = table.entries()[-1]
    _forge(table.file, _drop(5))
    # As if the roll had never been written: no player's hc saw it (else the file is behind).
    shutil.rmtree(os.path.join(os.environ["XDG_STATE_HOME"], "hc", "heads"))
    assert "rolled" in table.refused(table.b, f"seal forfeit 3 --game {table.file}")
    table.run(table.b, f"{codes['open']} --game {table.file}")
    assert table.entries()[-1]["result"] == rolled["result"]
    assert hc(f"replay {table.file}", env=table.a).exit_code == 0


@pytest.mark.parametrize("version", [2, 3])
def test_a_game_of_an_older_hc_plays_by_the_sealed_rolls_it_began_with(table, hc, version):
    """A game begun by an older hc (version 2) gave up a roll after both committed (a forfeit
    then): it still folds so. Begun now (3), the same file is refused: the roll is final."""
    table.exchange()  # sealed roll 3, both committed

    def given_up(entries):
        entries[0]["game"]["version"] = version
        abandon = {**entries[3], "game": {"event": "seal-abandon", "seal": 3}}
        return [*entries, abandon]

    _forge(table.file, given_up)
    shutil.rmtree(os.path.join(os.environ["XDG_STATE_HOME"], "hc", "heads"))  # a new file
    status = hc("status", env=table.a)
    if version == 2:
        assert status.exit_code == 0, status.output
        assert "forfeit" in hc("history", env=table.a).stdout
    else:
        assert status.exit_code == 2 and "it is final" in status.stderr, status.output

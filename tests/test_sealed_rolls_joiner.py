"""Sealed rolls played by two players, each with a folder of their own (issue 37, the holes
two play-testers found): the joiner's secret goes into the game file before a forfeit can be
claimed; only the roller abandons; a commitment the roller entered in the joiner's place is
refused at the joiner's reveal; a player's own rolls are no alarm of hc seal check."""

from __future__ import annotations

import hashlib
import os

import test_sealed_rolls
from games_setup import row_of
from helpers import HC_SKIRMISH

table = test_sealed_rolls.table  # the two players' fixture


def _commit(secret: str) -> str:
    return hashlib.sha256(f"hc seal:{secret}".encode()).hexdigest()[:32]


def _to_commit(table) -> str:
    """A seals the marines' fire and B joins: the line A is to paste."""
    said = table.run(table.a, "fire marines --at boyz --range 10 --sealed")
    return "seal " + table.next_code(table.run(table.b, "seal " + table.next_code(said)))


def test_no_forfeit_before_the_joiner_s_secret_is_in_the_file(table, hc):
    a, b, game = table.a, table.b, f"--game {table.file}"
    reveal = "seal " + table.next_code(table.run(a, _to_commit(table)))
    message = table.refused(b, f"seal forfeit 3 {game}")  # the roller could not roll it yet
    assert "your secret is not in the game file" in message and "hc seal reveal" in message
    said = " ".join(table.run(b, f"{reveal} {game}").split())
    assert "your secret is in the game file" in said and "hc seal open 3" in said
    shown = table.entries()[-1]
    assert shown["game"]["event"] == "seal-reveal" and set(shown["game"]) == {"event", "seal", "b"}
    assert _commit(shown["game"]["b"]) == table.entries()[3]["game"]["commit"]
    assert "a" not in shown["game"]  # the roller's secret is still his alone
    table.run(b, f"{reveal} {game}")  # again: nothing more is written
    assert table.entries()[-1] == shown
    assert "hc seal open 3" in hc("status", env=a).stdout
    table.run(a, "seal open 3")  # the roller rolls from the file
    entries = table.entries()
    assert entries[-2]["game"] == {"event": "seal-reveal", "seal": 3, "a": entries[-2]["game"]["a"]}
    assert entries[-1]["command"] == "fire" and entries[-1]["game"]["sealed"] == 3
    assert hc(f"replay {table.file}", env=a).exit_code == 0


def test_a_roller_who_does_not_open_from_the_file_forfeits(table, hc):
    a, b, game = table.a, table.b, f"--game {table.file}"
    reveal = "seal " + table.next_code(table.run(a, _to_commit(table)))
    table.run(b, f"{reveal} {game}")
    said = " ".join(table.run(b, f"seal forfeit 3 {game}").split())
    assert "a forfeit" in said and table.entries()[-1]["game"]["event"] == "seal-forfeit"
    assert hc(f"replay {table.file}", env=a).exit_code == 0


def test_only_the_roller_abandons_a_sealed_roll(table, hc):
    a, b, game = table.a, table.b, f"--game {table.file}"
    table.run(a, "fire marines --at boyz --range 10 --sealed")
    message = " ".join(table.refused(b, f"seal abandon 3 {game}").split())
    assert "is its roller's to abandon (Imperials)" in message
    status = " ".join(hc(f"status {game}", env=b).stdout.split())
    assert "its roller alone may give it up first: hc seal abandon 3" in status
    assert "(or hc seal abandon" not in status
    table.run(a, "seal abandon 3")
    assert hc.json("status", env=a)["given_up"]["Imperials"] == {"abandoned": 1, "forfeit": 0}


def test_a_commitment_the_roller_entered_for_the_joiner_is_refused_at_the_reveal(
    table, hc, tmp_path
):
    """The roller joins from a second hc of his own and commits that in place of B's: B's
    reveal, with the game file, refuses, and B's secret is not shown."""
    a, b, game = table.a, table.b, f"--game {table.file}"
    said = table.run(a, "fire marines --at boyz --range 10 --sealed")
    join = "seal " + table.next_code(said)
    real = table.run(b, join)  # B joins, and sends this back
    fake = table.run({**a, "XDG_CONFIG_HOME": str(tmp_path / "a2")}, join)
    reveal = "seal " + table.next_code(table.run(a, "seal " + table.next_code(fake)))
    message = " ".join(table.refused(b, f"{reveal} {game}").split())
    assert "the roller entered another commitment than yours to sealed roll 3" in message
    mine = real.split("hc seal commit ")[1].split(":")[1]
    assert table.entries()[-1]["game"]["commit"] != mine


def test_seal_check_knows_the_player_s_own_rolls(table, hc):
    codes = table.exchange()
    table.run(table.a, codes["open"])
    check = hc(f"seal check {table.file}", env=table.a)  # the roller's own check
    assert check.exit_code == 0, check.output
    assert "sealed roll 3 (marines fire): you rolled it" in " ".join(check.stdout.split())
    assert "you never joined it" not in check.stdout
    joiner = hc(f"seal check {table.file}", env=table.b)
    assert joiner.exit_code == 0 and "it is the roll you joined" in joiner.stdout


def test_game_next_names_the_unseal_a_hidden_roll_waits_for(table, hc):
    codes = table.exchange("roll 2d6 --hidden")
    table.run(table.a, codes["open"])
    message = " ".join(table.refused(table.a, "game next").split())
    assert "moves on once it is unsealed" in message and "hc seal unseal 3" in message
    assert "once it is rolled" not in message


def _two_players(hc, tmp_path, roster: str, *first: str):
    """A game of `roster` with A and B, each a folder of their own, the game file at both."""
    path = tmp_path / "game.hcg"
    a = {"XDG_CONFIG_HOME": str(tmp_path / "a"), "HC_GAME": str(path)}
    b = {"XDG_CONFIG_HOME": str(tmp_path / "b"), "HC_GAME": str(path)}
    assert hc(f"game new {path} --roster {roster}", env=a).exit_code == 0
    for line in first:
        assert hc(line, env=a).exit_code == 0, line
    return a, b


def _forfeit(hc, a, b, line: str, number: int) -> str:
    """A seals `line`, B joins, A commits, B reveals into the file and claims the forfeit."""
    said = hc(f"{line} --sealed -q", env=a).stdout.strip()
    said = hc(f"{said.removeprefix('hc ')} -q", env=b).stdout.strip()
    said = hc(f"{said.removeprefix('hc ')} -q", env=a).stdout.strip()
    assert hc(said.removeprefix("hc "), env=b).exit_code == 0
    claimed = hc(f"seal forfeit {number}", env=b)
    assert claimed.exit_code == 0, claimed.output
    return " ".join(claimed.stdout.split())


def test_after_a_t2k_forfeit_status_offers_only_what_may_be_done(hc, tmp_path):
    roster = os.path.join(os.path.dirname(__file__), "..", "examples", "t2k-roster.yaml")
    a, b = _two_players(hc, tmp_path, roster, "initiative")
    _forfeit(hc, a, b, "fire kowalski --at ivanov --range 60", 3)
    status = " ".join(hc("status", env=a).stdout.split())
    assert "kowalski's action: hc reload kowalski, or hc game next to pass" in status
    assert "hc fire kowalski" not in status
    assert hc("fire kowalski --at ivanov --range 60", env=a).exit_code == 2


def test_a_forfeit_morale_test_is_taken_as_failed(hc, tmp_path):
    """Seed 001: a Fireteam that fails its Morale test routs. Its test sealed and forfeit is
    taken as failed (reading sealed-roll-forfeit): routed, no longer due, the next move's
    Initiative not held, no second test."""
    (tmp_path / "roster.yaml").write_text(HC_SKIRMISH, encoding="utf-8")
    misses = ",".join(["99"] * 8)  # "previously been shot at": a test falls due
    a, b = _two_players(hc, tmp_path, str(tmp_path / "roster.yaml"), "initiative --dice 3,6",
                        f"fire boyz --at fireteam-1 -r 14 --dice {misses}")  # fmt: skip
    assert "hc morale fireteam-1" in hc("status", env=a).stdout
    said = _forfeit(hc, a, b, "morale fireteam-1", 4)
    assert "taken as failed" in said and "fireteam-1 routs" in said
    assert "sealed-roll-forfeit = action-spent" in said and "at any target" not in said
    row = row_of(hc.json("status", env=a), "fireteam-1")
    assert (row["morale"], row["due"]) == ("routed", [])
    assert "hc morale fireteam-1" not in " ".join(hc("status", env=a).stdout.split())
    assert hc("morale fireteam-1 --dice 9", env=a).exit_code == 2  # no second test
    assert hc("initiative --dice 1,2", env=a).exit_code == 0  # not held: nothing is due
    readings = " ".join(hc("tables readings --ruleset high-crusade", env=a).stdout.split())
    assert "a test the rules require is taken as failed" in readings
    assert hc(f"replay {tmp_path / 'game.hcg'}", env=a).exit_code == 0


def test_a_forfeit_rally_is_taken_as_failed(table, hc):
    """Rogue Trader: a failed rally leaves the unit routing, in the rallying part. A rally
    sealed and forfeit is taken so, and the unit does not rally again that turn."""
    a, b = table.a, table.b
    table.run(a, "move marines --routs")
    table.exchange("rally marines --sealed")
    table.run(b, f"{table.reveal} --game {table.file}")
    said = " ".join(table.run(b, f"seal forfeit 4 --game {table.file}").split())
    assert "taken as failed" in said and "marines fails to rally: it goes on routing" in said
    assert "at any target" not in said
    status = hc.json("status", env=a)
    assert status["phase"] == 6 and row_of(status, "marines")["routing"] is True
    assert "sealed roll 4 (marines rally) was forfeit" in table.refused(a, "rally marines")
    assert hc(f"replay {table.file}", env=a).exit_code == 0

"""At the table, third pass (issue 26, items 5 and 6): what a new player met in Rogue Trader's
status, the dice prompt, and the files the README and the help name."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _rows(hc, env: dict[str, str]) -> dict[str, dict]:
    status = hc.json("status", env=env)
    return {row["name"]: row for rows in status["sides"].values() for row in rows}


def test_rogue_trader_status_shows_the_marks_of_the_side_playing_now(hc, tmp_path, monkeypatch):
    """The moved and fired columns are the turn being played: a side's marks from its own
    last turn are not shown in the other side's turn (--json keeps them, as last_turn), and
    the distance moved still makes a fast moving target."""
    monkeypatch.chdir(tmp_path)
    roster = str(ROOT / "examples" / "rogue-trader-roster.yaml")
    assert hc("game", "new", "hunt.hcg", "--roster", roster).exit_code == 0
    env = {"HC_GAME": "hunt.hcg", "COLUMNS": "100"}
    assert hc("initiative", "--dice", "1", env=env).exit_code == 0  # heads: Imperials first
    # Five marines, to hit 3+ (BS 4), to wound 4+ (S4 against T4): five hits, no wound.
    fired = hc(
        "fire", "marines", "--at", "boyz", "-r", "10", "--dice", "6,6,6,6,6,1,1,1,1,1", env=env
    )
    assert fired.exit_code == 0, fired.output
    rows = _rows(hc, env)
    assert rows["marines"]["fired"] is True and rows["marines"]["last_turn"] is None
    assert hc("game", "next", env=env).exit_code == 0  # the Orks' turn
    rows = _rows(hc, env)
    assert rows["marines"]["fired"] is False  # fired in the Imperials' turn, not this one
    assert rows["marines"]["last_turn"] == {"moved": False, "fired": True}
    assert rows["marines"]["fired_models"] == [1, 2, 3, 4, 5]
    table = hc("status", env=env).stdout
    marines = next(line for line in table.splitlines() if line.strip().startswith("marines"))
    assert marines.split()[1:] == ["5/5", "-", "bolt-gun", "-", "-", "-"]
    # The carnosaur charges: 2 x M 7 = 14". Marked in its own turn, then left out.
    assert hc("move", "carnosaur", "--charge", env=env).exit_code == 0, "charge"
    rows = _rows(hc, env)
    assert rows["carnosaur"]["moved"] == '14"' and rows["carnosaur"]["last_turn"] is None
    assert hc("game", "next", env=env).exit_code == 0  # the Imperials' turn 2
    rows = _rows(hc, env)
    assert rows["carnosaur"]["moved"] is False
    assert rows["carnosaur"]["last_turn"] == {"moved": '14"', "fired": False}
    assert rows["carnosaur"]["inches"] == 14
    assert rows["marines"]["fired"] is False and rows["marines"]["last_turn"] is None
    table = hc("status", env=env).stdout
    carnosaur = next(line for line in table.splitlines() if line.strip().startswith("carnosaur"))
    assert '14"' not in carnosaur
    # The fill still knows the distance: -1 to hit for the full 10" of its 14".
    shot = hc.json("fire", "lascannon-team", "--at", "carnosaur", "-r", "20", "--odds", env=env)
    assert any(m["name"] == "target-moved" and m["value"] == -1 for m in shot["modifiers"])

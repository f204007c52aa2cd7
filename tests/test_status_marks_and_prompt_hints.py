"""Rogue Trader's status marks and the dice prompt's hints (issue 26, items 5 and 6): what a new
player met in Rogue Trader's status, the dice prompt, and the files the README and the help
name."""

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
    assert hc("initiative --dice 1", env=env).exit_code == 0  # heads: Imperials first
    # Five marines, to hit 3+ (BS 4), to wound 4+ (S4 against T4): five hits, no wound.
    fired = hc("fire marines --at boyz -r 10 --dice 6,6,6,6,6,1,1,1,1,1", env=env)
    assert fired.exit_code == 0, fired.output
    rows = _rows(hc, env)
    assert rows["marines"]["fired"] is True and rows["marines"]["last_turn"] is None
    assert hc("game next", env=env).exit_code == 0  # the Orks' turn
    rows = _rows(hc, env)
    assert rows["marines"]["fired"] is False  # fired in the Imperials' turn, not this one
    assert rows["marines"]["last_turn"] == {"moved": False, "fired": True}
    assert rows["marines"]["fired_models"] == [1, 2, 3, 4, 5]
    table = hc("status", env=env).stdout
    marines = next(line for line in table.splitlines() if line.strip().startswith("marines"))
    assert marines.split()[1:] == ["5/5", "-", "bolt-gun", "-", "-", "-"]
    # The carnosaur charges: 2 x M 7 = 14". Marked in its own turn, then left out.
    assert hc("move carnosaur --charge --at marines --no-contact", env=env).exit_code == 0, "charge"
    rows = _rows(hc, env)
    assert rows["carnosaur"]["moved"] == '14"' and rows["carnosaur"]["last_turn"] is None
    assert hc("game next", env=env).exit_code == 0  # the Imperials' turn 2
    rows = _rows(hc, env)
    assert rows["carnosaur"]["moved"] is False
    assert rows["carnosaur"]["last_turn"] == {"moved": '14"', "fired": False}
    assert rows["carnosaur"]["inches"] == 14
    assert rows["marines"]["fired"] is False and rows["marines"]["last_turn"] is None
    table = hc("status", env=env).stdout
    carnosaur = next(line for line in table.splitlines() if line.strip().startswith("carnosaur"))
    assert '14"' not in carnosaur
    # The fill still knows the distance: -1 to hit for the full 10" of its 14".
    shot = hc.json("fire lascannon-team --at carnosaur -r 20 --odds", env=env)
    assert any(m["name"] == "target-moved" and m["value"] == -1 for m in shot["modifiers"])


def _asked(hc, args: list[str], entries: str, columns: str = "80") -> str:
    from hc_cli.cli.app import app

    result = hc.runner.invoke(app, [*args, "--dice", "ask", "-q"], input=entries,
                              env={"COLUMNS": columns})  # fmt: skip
    assert result.exit_code == 0, result.output
    return result.stderr


D10 = ["morale", "--troop", "crusader", "--fired-at"]
D100 = ["fire", "-w", "ingrave-ar", "-r", "3", "-t", "orc"]
D6 = ["fire", "--ruleset", "rogue-trader", "--bs", "4", "--strength", "4", "--toughness", "3",
      "--save", "5", "--damage", "1", "-r", "10", "--shots", "2"]  # fmt: skip


def test_a_wrong_entry_at_a_dice_prompt_says_what_that_die_takes(hc):
    """An entry that is no number is told what the dice of the prompt take: a D10 1..10 with
    0 for 10, a D6 1..6, a D100 its two-digit value or two faces; never another die's."""
    d10 = _asked(hc, D10, "x\n0\n", "1000")
    assert (
        "  'x' is not a whole number: a D10 takes 1..10 (0 is 10); enter the face rolled, e.g. 6\n"
    ) in d10
    assert "D100" not in d10 and "tens then units" not in d10
    d6 = _asked(hc, D6, "y\n4 4\n1 1\n", "1000")
    assert "'y' is not a whole number: a D6 takes 1..6; enter the 2 faces rolled" in d6
    assert "D100" not in d6 and "D10" not in d6
    d100 = _asked(hc, D100, "z\n46\n", "1000")
    assert (
        "'z' is not a whole number: a D100 takes one value of two digits (46, 07; 00 is 100) or "
        "its two faces, tens then units (4 6); enter the value rolled, e.g. 46"
    ) in d100
    melee = _asked(hc, ["melee", "--attacker", "crusader", "--defender", "orc"], "x\n4 5\n", "1000")
    assert "a D10 takes 1..10 (0 is 10); enter the 2 faces rolled, separated by spaces" in melee


def test_a_dice_prompt_s_words_wrap_between_words_at_80_columns(hc):
    for args, entries in ((D10, "x\n11\n4\n"), (D100, "x\n146\n46\n"), (D6, "y\n7 4\n4 4\n1 1\n")):
        wide = _asked(hc, args, entries, "1000")
        narrow = _asked(hc, args, entries, "80")
        assert max(len(line) for line in narrow.splitlines()) <= 80
        assert narrow != wide  # long enough to wrap at all
        assert narrow.replace("\n    ", " ") == wide  # every word whole: "D100", not "D / 100"


def test_a_message_wraps_to_the_terminal_it_is_shown_on(monkeypatch):
    """With stdout piped (| tee) and COLUMNS not exported, stderr's terminal decides."""
    import os

    from hc_cli.cli import runner

    def size(fd: int) -> os.terminal_size:
        if fd != 2:
            raise OSError("not a terminal")
        return os.terminal_size((60, 20))

    monkeypatch.delenv("COLUMNS")
    monkeypatch.setattr(os, "get_terminal_size", size)
    assert runner.width(err=True) == 60
    assert runner.width() == 80

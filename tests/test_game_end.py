"""A game ends (issue 38): a side with nothing left that can fight (High Crusade: no figure of
its Fireteams left; Rogue Trader: every model removed; Twilight: 2000: every man killed or out
of the fight). Status and history say so, the game moves on no further and no one acts, and an
undo of the last blow plays on. Each game's last blow is worked from the rules with dice that
decide it whatever the tables: 01 on the D100 (High Crusade), 6s to hit and wound and a 1 to
save (Rogue Trader), a 1 to hit and on the quick-kill die (Twilight: 2000)."""

from __future__ import annotations

import json

import pytest

ROSTERS = {
    "high-crusade": """ruleset: high-crusade
sides:
  Free Companies:
    fireteam-1: {troop: crusader, figures: 2, weapon: ingrave-ar}
  Orcs:
    boyz: {troop: orc, figures: 4, weapon: bolt-gun}
""",
    "rogue-trader": """ruleset: rogue-trader
sides:
  Imperials:
    marines: {profile: space-marine, models: 1, weapon: bolt-gun}
  Orks:
    boyz: {profile: ork, models: 2, weapon: bolt-gun}
""",
    "t2k": """ruleset: t2k
sides:
  Americans:
    kowalski: {asset: 12, strength: 5, initiative: 6, agility: 7, weapon: m16a2}
  Soviets:
    ivanov: {asset: 10, strength: 6, initiative: 5, agility: 6, weapon: ak-74, npc: true}
""",
}
# Each game up to the blow that ends it, the blow, the side it leaves with nothing, the winner.
PLAYS = {
    "high-crusade": (("initiative --dice 1,9", "game next", "game next"),
                     "fire boyz --at fireteam-1 -r 10 --dice 01,01,01,01",
                     "Free Companies", "Orcs"),
    "rogue-trader": (("initiative --dice 1", "game next"),
                     "fire boyz:1 --at marines -r 10 --dice 6,6,1", "Imperials", "Orks"),
    "t2k": (("initiative --seed 1",), "fire --at ivanov -r 20 --dice 1,1,6,1,1",
            "Soviets", "Americans"),
}  # fmt: skip


@pytest.mark.parametrize("ruleset", list(ROSTERS))
def test_a_side_with_nothing_left_ends_the_game(hc, tmp_path, ruleset):
    roster = tmp_path / "roster.yaml"
    roster.write_text(ROSTERS[ruleset])
    path = tmp_path / "g.hcg"
    assert hc("game", "new", str(path), "--roster", str(roster)).exit_code == 0
    env = {"HC_GAME": str(path)}
    opening, blow, beaten, winner = PLAYS[ruleset]
    for line in opening:
        assert hc(line, env=env).exit_code == 0, line
    assert json.loads(hc("status --json", env=env).stdout)["over"] is None
    said = hc(blow, env=env)
    assert said.exit_code == 0, said.output
    noun = {"high-crusade": "Fireteam", "rogue-trader": "unit", "t2k": "character"}[ruleset]
    over = f"the game is over: {winner} won; no {noun} of {beaten} can fight on"
    assert over in " ".join(said.stdout.split())
    assert not [line for line in said.stdout.splitlines() if line.strip().startswith("next")]
    # where the game stood, and no one named to act: "move 1, step 2: the game is over"
    clock = [line for line in said.stdout.splitlines() if line.startswith("game: ")]
    assert len(clock) == 1 and clock[0].endswith(": the game is over"), said.stdout
    assert not any(name in clock[0] for name in (beaten, winner, "kowalski", "ivanov"))
    status = json.loads(hc("status --json", env=env).stdout)
    assert status["over"] == over and status["due"] == [over]
    assert status["clock"] == clock[0].removeprefix("game: ")
    assert status.get("acting") is None  # Twilight: 2000: nobody's action, nobody "acting"
    assert "acting" not in [row.get("state") for rows in status["sides"].values() for row in rows]
    assert hc("status", env=env).stdout.splitlines()[0] == status["clock"]
    assert over in " ".join(hc("history", env=env).stdout.split())
    ended = path.read_bytes()
    for line in ("game next", blow, "game next --anyway", "compare -r 10"):
        refused = hc(line, env=env)
        assert refused.exit_code == 2 and over in " ".join(refused.stderr.split()), line
        assert path.read_bytes() == ended  # a refused action appends nothing
    assert hc("undo", env=env).exit_code == 0  # the last blow taken back: the game goes on
    quiet = hc(blow.split(" --dice")[0] + " -q", env=env)  # again, its dice again: quiet too
    assert quiet.exit_code == 0 and over in " ".join(quiet.stdout.split()), quiet.output
    assert hc("undo", env=env).exit_code == 0
    assert json.loads(hc("status --json", env=env).stdout)["over"] is None
    assert hc("replay", str(path)).exit_code == 0

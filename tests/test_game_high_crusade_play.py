"""High Crusade games as a play-test found them: the Initiative of a new move taken before the
last step says what it closes undone; a routed Fireteam does not attack hand to hand, though an
enemy that reaches it still fights it; a weapon mistyped in a game is said as unknown (in
Rogue Trader and Twilight: 2000 too). Expected values worked by hand from the seeds.

The roster (examples/high-crusade-roster.yaml): fireteam-1, fireteam-2 (5 crusaders each,
ingrave-ar) of the Free Companies, boyz (8 orcs, bolt-gun) and ladz (6 orcs, eggtimer-ar) of
the Orcs. Initiative --dice 3,6: Free Companies 3, Orcs 6, the Orcs are Player A. Seed 000:
1 A moves, 2 A fires, 3 B moves, 4 A fires the Fireteams that have not fired, 5 B fires; melee
is D10 each, crusader +1, orc +3, the higher wins. Seed 001: crusader +2, fired at -1, first
casualty -2; 3 or more passes."""

from __future__ import annotations

import json

from games_setup import Game, row_of

OPENING = "initiative --dice 3,6"  # the Orcs are Player A
MISSES = ",".join(["99"] * 8)  # eight bolt-gun shots, none a hit


def _said(result) -> str:
    return " ".join(result.stdout.split())


# ---------------------------------------------------------------------------------------------
# 1. The Initiative of a new move taken mid-move says what it closes undone


def test_an_initiative_at_step_3_says_steps_4_and_5_were_not_taken(hc, tmp_path):
    game = Game(hc, tmp_path / "g.hcg", "high-crusade", OPENING, "game next", "game next")
    game.ok("game next")  # step 3: the Free Companies move; nobody has fired
    said = _said(game.ok("initiative --dice 3,6"))
    closed = (
        "move 1 is over: step 4 (Orcs fire) and step 5 (Free Companies fire) not taken: boyz, "
        "ladz, fireteam-1, fireteam-2 did not fire"
    )
    assert closed in said
    assert closed in game.history()  # said where the move ended, in the history too
    status = hc.json("status --json", env=game.env)
    assert (status["move"], status["step"]) == (2, 0)


def test_an_initiative_at_step_4_names_the_fire_of_step_5_alone(hc, tmp_path):
    game = Game(hc, tmp_path / "g.hcg", "high-crusade", OPENING)
    game.ok(f"fire boyz --at fireteam-1 -r 8 --dice {MISSES}")  # step 2: boyz fire
    game.ok("morale fireteam-1 --dice 9")  # 9 + 2 - 1 = 10: passed
    game.ok("game next")
    game.ok("game next")  # step 4: ladz, not fired, is the Orcs' to fire or hold
    said = _said(game.ok("initiative --dice 3,6"))
    assert (
        "move 1 is over: step 5 (Free Companies fire) not taken: fireteam-1, fireteam-2 did "
        "not fire" in said
    )
    assert "ladz" not in said.partition("move 2:")[0]


def test_an_initiative_after_the_last_step_closes_nothing_undone(hc, tmp_path):
    game = Game(hc, tmp_path / "g.hcg", "high-crusade", OPENING)
    assert "is over" not in game.history()  # the first move closes none
    for _ in range(5):
        game.ok("game next")
    assert hc.json("status --json", env=game.env)["step"] == 5
    assert "is over" not in _said(game.ok("initiative --dice 3,6"))


def test_an_initiative_in_the_orders_phase_says_the_whole_move_was_not_taken(hc, tmp_path):
    game = Game(hc, tmp_path / "g.hcg", "high-crusade", OPENING)
    said = _said(game.ok("initiative --dice 6,3"))
    assert (
        "move 1 is over: step 1 (Orcs move), step 2 (Orcs fire), step 3 (Free Companies move), "
        "step 4 (Orcs fire) and step 5 (Free Companies fire) not taken: boyz, ladz, "
        "fireteam-1, fireteam-2 did not fire" in said
    )


# ---------------------------------------------------------------------------------------------
# 2. A routed Fireteam does not attack hand to hand; an enemy that reaches it fights it


def test_a_routed_fireteam_does_not_attack_but_is_fought(hc, tmp_path):
    game = Game(hc, tmp_path / "g.hcg", "high-crusade", OPENING)
    # One bolt-gun kill (01) of eight: fired at and a first casualty, 1 + 2 - 1 - 2 = 0: a rout.
    game.ok("fire boyz --at fireteam-1 -r 8 --dice 01,99,99,99,99,99,99,99")
    game.ok("morale --due --dice 1")
    game.ok("game next")  # step 3, the Free Companies move
    assert row_of(hc.json("status --json", env=game.env), "fireteam-1")["morale"] == "routed"
    why = game.refused("melee fireteam-1 --at ladz --dice 9,1")
    assert "fireteam-1 is routed" in why
    # The Orcs fight at step 4 (step 3 is the Free Companies'): the hint runs as written.
    assert why.endswith("hc game next, then hc melee ladz --at fireteam-1 act when the rules "
                        "allow it, or record an override with --anyway")  # fmt: skip
    game.ok("game next")
    why = game.refused("melee fireteam-1 --at ladz --dice 9,1")
    assert "still fights it: hc melee ladz --at fireteam-1 act when" in why
    # ladz attack: 9 + 3 = 12 against 1 + 1 = 2, the routed crusaders lose a figure.
    fight = hc.json("melee ladz --at fireteam-1 --dice 9,1 --json", env=game.env)
    assert (fight["attacker_total"], fight["defender_total"], fight["outcome"]) == (
        12,
        2,
        "attacker",
    )
    assert row_of(hc.json("status --json", env=game.env), "fireteam-1")["left"] == 3
    # Played all the same if both players agree: 9 + 1 = 10 against 1 + 3 = 4.
    game.ok("melee fireteam-1 --at ladz --dice 9,1 --anyway")
    assert "fireteam-1 is routed" in game.last()["game"]["anyway"]  # the override, recorded
    assert row_of(hc.json("status --json", env=game.env), "ladz")["left"] == 5


# ---------------------------------------------------------------------------------------------
# 3. A weapon mistyped in a game is said as unknown, with what it may have meant


def test_a_mistyped_weapon_in_a_game_is_unknown_not_an_override(hc, tmp_path):
    game = Game(hc, tmp_path / "g.hcg", "high-crusade", OPENING, "game next", "game next")
    for line in (
        "fire ladz --at fireteam-2 -r 5 --weapon bolt-gn",
        "fire ladz --at fireteam-2 -r 5 --volley bolt-gn:2",
        "fire fireteam-2 --at ladz -r 5 --weapon bolt-gn",  # not its step: the typo first
        "melee ladz --at fireteam-2 --attacker-weapon bolt-gn",
    ):
        why = game.refused(line)
        assert why.startswith("hc ") and "unknown weapon 'bolt-gn' did you mean 'bolt-gun'?" in why
        assert "overrides" not in why
    # A weapon of the tables its figures do not carry is an override, as before.
    assert "overrides the weapons ladz's figures carry" in game.refused(
        "fire ladz --at fireteam-2 -r 5 --weapon bolt-gun"
    )


def test_a_mistyped_weapon_is_unknown_in_rogue_trader_and_twilight_games(hc, tmp_path):
    rt = Game(hc, tmp_path / "rt.hcg", "rogue-trader", "initiative --dice 1")
    why = rt.refused("fire marines --at boyz -r 10 --weapon bolt-gn")
    assert "unknown weapon 'bolt-gn' did you mean 'bolt-gun'?" in why
    t2k = Game(hc, tmp_path / "t2k.hcg", "t2k")  # before the first turn: the typo first
    why = t2k.refused("fire kowalski --at ivanov -r 50 --weapon m16a3")
    assert "unknown weapon 'm16a3' did you mean 'm16a2'" in why


def test_an_action_taken_back_after_anyway_keeps_its_dice_on_the_table(hc, tmp_path):
    """Found in play: a routed Fireteam's fight made with --anyway and taken back let the same
    side's next fight (another target, --anyway again) roll anew: its dice lapsed as if it
    could not be made again, though --anyway makes it again as it was."""
    game = Game(hc, tmp_path / "g.hcg", "high-crusade", OPENING)
    game.ok("fire boyz --at fireteam-1 -r 8 --dice 01,99,99,99,99,99,99,99")
    game.ok("morale --due --dice 1")
    game.ok("game next")
    game.ok("game next")  # step 4
    first = game.taken_back("melee fireteam-1 --at boyz --anyway")
    said = game.refused("melee fireteam-1 --at ladz --anyway")
    assert f"entry {first['seq']}" in said and "at boyz -> ladz" in said
    game.ok("melee fireteam-1 --at boyz --anyway")  # made again as it was: its own dice
    again = game.last()
    assert again["seed"] == first["seed"] and again["game"]["reused"] == first["seq"]
    assert "lapsed" not in again["game"]


def test_a_game_of_version_3_keeps_its_lapse_of_an_anyway_action(hc, tmp_path):
    """A game begun before version 4 plays on by the rule it began with: there an --anyway
    action taken back let its dice lapse (the fill refuses it), and the next fight rolls anew,
    recording the lapse; replay holds that file whole. The game is made version 3 by its
    roster entry, every entry chained again (as a file of that version is)."""
    import shutil

    from hc_cli.log.chain import chain_hash, entry_line

    game = Game(hc, tmp_path / "g.hcg", "high-crusade", OPENING)
    game.ok("fire boyz --at fireteam-1 -r 8 --dice 01,99,99,99,99,99,99,99")
    game.ok("morale --due --dice 1")
    game.ok("game next")
    game.ok("game next")  # step 4
    game.taken_back("melee fireteam-1 --at boyz --anyway")
    lines, prev = [], None
    for line in game.file.read_bytes().splitlines():
        entry = json.loads(line)
        if entry["seq"] == 1:
            entry["game"]["version"] = 3
        body = {k: v for k, v in entry.items() if k not in ("seq", "prev")}
        lines.append(entry_line(entry["seq"], prev, body, None))
        prev = chain_hash(lines[-1], None)
    game.file.write_bytes(b"\n".join(lines) + b"\n")
    shutil.rmtree(tmp_path / "state", ignore_errors=True)  # no hc has seen the file before
    game.ok("melee fireteam-1 --at ladz --anyway")  # another fight: version 3 rolls it anew
    assert [lapse["undone"] for lapse in game.last()["game"]["lapsed"]] == [7]
    report = hc.json("replay", "--json", str(game.file))
    assert (report["reproduced"], report["not_reproduced"], report["damaged"]) == (9, 0, [])

"""The game does the bookkeeping (issue 26): High Crusade orders kept and filled into every
shot, steps with nothing left to do passing by themselves, a Rogue Trader turn that ends by
itself when the player's settings ask it, several units in one command, `hc again`, and the
Twilight: 2000 character whose action it is acting unnamed. Expected numbers are worked from
the tables by hand (orders.yaml, modifiers.yaml, weapons.yaml)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from games_setup import json_of, row_of

ROOT = Path(__file__).resolve().parent.parent
KARSK = ROOT / "examples" / "high-crusade-roster.yaml"  # fireteam-1, fireteam-2; boyz, ladz


def _misses(n: int) -> str:
    return ",".join(["99"] * n)


@pytest.fixture
def karsk(hc, tmp_path):
    """A High Crusade game at the orders phase of move 1: the Orcs are Player A (D10 3 for the
    Free Companies, 6 for the Orcs). Returns run(*args) -> result, in the game."""
    path = tmp_path / "karsk.hcg"
    assert hc("game", "new", str(path), "--roster", str(KARSK)).exit_code == 0
    env = {"HC_GAME": str(path), "XDG_CONFIG_HOME": str(tmp_path / "config")}

    def run(*args: str):
        return hc(*args, env=env)

    assert run("initiative --dice 3,6").exit_code == 0
    run.path = path  # type: ignore[attr-defined]
    run.env = env  # type: ignore[attr-defined]
    return run


def _status(run) -> dict:
    result = run("status --json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# ---------------------------------------------------------------------------------------------
# High Crusade orders


@pytest.mark.parametrize("words", ["static", "bogus", "advance static", "fireteam-1 ladz"])
def test_an_orders_hint_names_this_games_fireteams_and_runs(karsk, words):
    # The hint's example is of this game (its first Fireteam that may take an order, of one
    # side: found in play, an example of both taught a player to give the other side's
    # orders), and runs as written; a Fireteam named bare is asked for its order.
    refused = karsk(f"orders {words}")
    assert refused.exit_code == 2, refused.output
    hint = " ".join(line.strip() for line in refused.stderr.splitlines()[1:])
    if words.startswith("fireteam-1"):
        assert hint == "write UNIT=ORDER: hc orders fireteam-1=advance", hint
        example = "fireteam-1=advance"
    else:
        assert hint.endswith("hc orders fireteam-1=advance"), hint
        example = "fireteam-1=advance"
    assert karsk(f"orders {example}").exit_code == 0


def test_orders_for_a_side_and_by_name_are_kept_and_shown(karsk):
    given = json_of(karsk("orders Orcs static ladz=advance --json"))
    assert given["orders"] == {"boyz": "static", "ladz": "advance"}
    json_of(karsk("orders advance fireteam-2=static --json"))  # the side by its Fireteam
    status = _status(karsk)
    orders = {r["name"]: r["order"] for rows in status["sides"].values() for r in rows}
    assert orders == {
        "fireteam-1": "Advance",
        "fireteam-2": "Static",
        "boyz": "Static",
        "ladz": "Advance",
    }
    assert "order" in status["keys"]


@pytest.mark.parametrize(("word", "meant"), [("advnce", "'advance'"), ("Orc", "'Orcs'")])
def test_a_misspelt_order_or_side_is_exit_2_with_what_was_meant(karsk, word, meant):
    size = karsk.path.stat().st_size
    result = karsk("orders", word, "static")
    assert result.exit_code == 2 and f"did you mean {meant}?" in result.stderr
    assert karsk.path.stat().st_size == size


def test_a_shot_takes_the_firer_s_and_the_target_s_orders(karsk):
    karsk("orders Orcs advance")
    karsk("orders", "Free Companies", "static")
    # The firer on Advance: -10; the target on Static: +10 (orders.yaml -> modifiers.yaml).
    shot = json_of(karsk("fire", "boyz", "--at", "fireteam-1", "-r", "14", "--dice", _misses(8),
                       "--json"))  # fmt: skip
    assert [(m["name"], m["value"]) for m in shot["modifiers"]] == [
        ("firer-advance", -10),
        ("target-static", 10),
    ]
    assert (shot["inputs"]["order"], shot["inputs"]["target_order"]) == ("advance", "static")
    assert (shot["base_chance"], shot["chance"]) == (50, 50)  # bolt gun 10-20": 50/4
    filled = " ".join(shot["game"]["filled"])
    assert "boyz on Advance orders" in filled and "fireteam-1 on Static orders" in filled


def test_an_order_or_a_modifier_given_by_hand_stands(karsk):
    karsk("orders Orcs advance")
    karsk("orders", "Free Companies", "static")
    # An order other than the game's is an override: it stands with --anyway (issue 37), and
    # given again another way after the undo, as both players agree.
    by_hand = json_of(karsk("fire", "boyz", "--at", "fireteam-1", "-r", "14", "--order", "static",
                          "--dice", _misses(8), "--anyway", "--json"))  # fmt: skip
    assert [m["name"] for m in by_hand["modifiers"]] == ["firer-static", "target-static"]
    karsk("undo")
    as_mod = json_of(karsk("fire", "boyz", "--at", "fireteam-1", "-r", "14", "--mod",
                         "firer-static", "--dice", _misses(8), "--anyway", "--agreed",
                         "--json"))  # fmt: skip
    assert [m["name"] for m in as_mod["modifiers"]] == ["target-static", "firer-static"]
    assert any("--mod firer-static given" in note for note in as_mod["game"]["filled"])


def test_the_same_modifier_twice_is_refused(hc):
    twice = hc("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--order", "static",
               "--mod", "firer-static")  # fmt: skip
    assert twice.exit_code == 2 and "give the same modifier twice" in twice.stderr


def test_orders_stand_from_move_to_move_and_are_given_in_the_orders_phase(karsk):
    karsk("orders Orcs static")
    karsk("orders", "Free Companies", "advance")
    karsk("fire", "boyz", "--at", "fireteam-1", "-r", "30", "--dice", _misses(8))
    late = karsk("orders Orcs advance")
    assert late.exit_code == 2 and "orders are given in the orders phase" in late.stderr
    assert row_of(_status(karsk), "boyz")["order"] == "Static"  # nothing was appended
    karsk("morale --due --dice 9")
    assert karsk("initiative --dice 1,9").exit_code == 0  # move 2: the Orcs again
    shot = json_of(karsk("fire", "ladz", "--at", "fireteam-2", "-r", "30", "--dice", _misses(6),
                       "--json"))  # fmt: skip
    assert [m["name"] for m in shot["modifiers"]] == ["firer-static"]  # Advance: none at it
    assert any("given in move 1" in note for note in shot["game"]["filled"])


def test_the_game_gives_the_rout_s_order_and_the_rallied_static(karsk):
    karsk("orders Orcs static")
    karsk("orders", "Free Companies", "advance")
    karsk("fire", "boyz", "--at", "fireteam-1", "-r", "30", "--dice", _misses(8))
    karsk("morale fireteam-1 --dice 1")  # 1 + 2 (Crusaders) - 1 (fired at) = 2: rout
    assert row_of(_status(karsk), "fireteam-1")["order"] == "routed"
    # A routed target makes a full Advance move: target-running, -20 (modifiers.yaml).
    shot = json_of(karsk("fire", "ladz", "--at", "fireteam-1", "-r", "30", "--dice", _misses(6),
                       "--json"))  # fmt: skip
    assert ("target-running", -20) in [(m["name"], m["value"]) for m in shot["modifiers"]]
    refused = karsk("orders", "Free Companies", "advance", "fireteam-1=static")
    assert refused.exit_code == 2  # not in the orders phase (and fireteam-1 is routed)
    karsk("morale --due --dice 9")
    karsk("initiative --dice 9,1")  # move 2: the Free Companies are Player A
    routed = karsk("orders fireteam-1=advance")
    assert routed.exit_code == 2 and "fireteam-1 is routed" in routed.stderr
    # A bare order passes over the routed Fireteam, and says so.
    side = json_of(karsk("orders", "Free Companies", "static", "--json"))
    assert side["orders"] == {"fireteam-2": "static"}
    assert any("fireteam-1 is routed: no order" in n for n in side["game"]["filled"])
    karsk("rally fireteam-1 --dice 9")  # 9 + 2 = 11: rallied
    row = row_of(_status(karsk), "fireteam-1")
    assert (row["order"], row["order_name"]) == ("rallied: Static", "static")


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (("advance",), "whose Fireteams? name the side"),
        (("advance", "fireteam-1=static", "boyz=static"), "of both sides"),
        (("advance", "static"), "one order goes to the rest of a side"),
        (("charge",), "'charge' is no order, no side and no UNIT=ORDER"),
        (("boyz=rout",), "rout is an order the game gives by itself"),
        (("nobody=static",), "unknown unit 'nobody'"),
    ],
)
def test_orders_that_say_nothing_clear_are_exit_2(karsk, words, said):
    before = karsk.path.read_bytes()
    result = karsk("orders", *words)
    assert result.exit_code == 2 and said in " ".join(result.stderr.split())
    assert karsk.path.read_bytes() == before  # a refused action appends nothing


def test_outside_a_game_an_order_says_what_it_means(hc):
    said = hc.json("orders static --game none")
    assert said["outcome"] == "explained" and said["orders"] == {}
    assert (
        "a shot by it +10 (firer-static); a shot at it +10 (target-static)"
        in (said["explanation"][0])
    )
    odds = hc("orders static --odds --game none")
    assert odds.exit_code == 2  # orders roll nothing: no --odds to give


def test_an_exported_game_of_orders_plays_again(karsk, hc, tmp_path):
    import subprocess

    karsk("orders Orcs static ladz=advance")
    karsk("orders", "Free Companies", "advance")
    karsk("fire boyz --at fireteam-1 -r 14 --seed 3")
    script = karsk("game export").stdout
    assert "hc orders Orcs static ladz=advance" in script  # as the player gave them
    folder = tmp_path / "again"
    folder.mkdir()
    (folder / "play.sh").write_text(script)
    import os
    import sys

    bin_dir = str(Path(sys.executable).parent)  # where this interpreter's hc is installed
    env = {"PATH": f"{bin_dir}:{os.environ.get('PATH', '')}", "HOME": str(tmp_path)}
    done = subprocess.run(
        ["/bin/sh", "play.sh"], cwd=folder, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    replayed = json.loads(hc("status --json", env={"HC_GAME": str(folder / "karsk.hcg")})
                          .stdout)  # fmt: skip
    assert row_of(replayed, "ladz")["order"] == "Advance"


# ---------------------------------------------------------------------------------------------
# Steps with nothing left to do pass by themselves (seed 000: the five steps)


def test_a_fire_step_with_nothing_left_to_fire_passes_once_the_tests_are_taken(karsk):
    karsk("fire", "boyz", "--at", "fireteam-1", "-r", "30", "--dice", _misses(8))
    assert _status(karsk)["step"] == 2  # ladz may still fire
    karsk("fire", "ladz", "--at", "fireteam-2", "-r", "30", "--dice", _misses(6))
    assert _status(karsk)["step"] == 2  # the tests due hold it
    taken = json_of(karsk("morale --due --dice 9,9 --json"))
    assert [r["outcome"] for r in taken] == ["pass", "pass"]
    # Step 3, the Free Companies' move, does not pass by itself: the game cannot see it.
    assert _status(karsk)["step"] == 3
    # Player B's fire passes Player A's step 4: nothing is left in it to fire.
    shot = json_of(karsk("fire", "fireteam-1", "--at", "boyz", "-r", "30", "--dice", _misses(5),
                       "--json"))  # fmt: skip
    assert shot["game"]["clock"] == "move 1, step 5: Free Companies fires"


def test_player_a_holding_a_fireteam_back_keeps_step_4(karsk):
    karsk("fire", "boyz", "--at", "fireteam-1", "-r", "30", "--dice", _misses(8))
    karsk("morale --due --dice 9")
    karsk("game next")  # step 3: the Free Companies move
    b_early = karsk("fire", "fireteam-1", "--at", "boyz", "-r", "30", "--dice", _misses(5))
    assert b_early.exit_code == 2  # ladz may still fire at step 4
    karsk("game next")
    assert _status(karsk)["step"] == 4
    karsk("fire", "ladz", "--at", "fireteam-2", "-r", "30", "--dice", _misses(6))
    karsk("morale --due --dice 9")
    assert _status(karsk)["step"] == 5  # step 4 has nothing left: on to Player B's fire


def test_a_test_due_holds_the_step_against_a_fire_that_would_pass_it(karsk):
    # Seed 001: a Fireteam tests "whenever the following circumstances occur", so before the
    # move goes on; Player B's fire may pass Player A's empty steps only once it is taken.
    karsk("orders Orcs static")
    karsk("fire ladz --at fireteam-2 -r 20 --dice " + _misses(6))
    karsk("fire boyz --at fireteam-2 -r 20 --dice " + _misses(8))  # the Orcs have all fired
    size = karsk.path.stat().st_size
    early = karsk("fire fireteam-1 --at ladz -r 20 --dice " + _misses(5))
    assert early.exit_code == 2 and "fireteam-2 (first time fired at) must test" in " ".join(
        early.stderr.split()
    )
    assert karsk.path.stat().st_size == size and _status(karsk)["step"] == 2
    karsk("morale fireteam-2 --dice 9")
    assert karsk("fire fireteam-1 --at ladz -r 20 --dice " + _misses(5)).exit_code == 0
    assert _status(karsk)["step"] == 5


# ---------------------------------------------------------------------------------------------
# Several units in one command


def test_several_units_dice_each_in_turn(karsk):
    result = karsk("fire", "boyz", "ladz", "--at", "fireteam-2", "-r", "30", "--dice",
                   f"{_misses(8)}/{_misses(6)}", "--json")  # fmt: skip
    shots = json_of(result)
    assert [s["inputs"]["shots"] for s in shots] == [8, 6]
    history = json.loads(karsk("history --json").stdout)["entries"]
    fired = [e["what"].split(" fire at ")[0] for e in history if " fire at " in e["what"]]
    assert fired == ["boyz", "ladz"]
    assert karsk("undo").exit_code == 0  # the newest only: ladz's
    assert [row_of(_status(karsk), n)["fired"] for n in ("boyz", "ladz")] == [True, False]


def test_a_refusal_among_several_units_says_what_was_done(karsk):
    karsk("fire", "boyz", "--at", "fireteam-1", "-r", "30", "--dice", _misses(8))
    size = karsk.path.stat().st_size
    result = karsk("fire", "ladz", "boyz", "--at", "fireteam-2", "-r", "30", "--dice",
                   f"{_misses(6)}/{_misses(8)}")  # fmt: skip
    assert result.exit_code == 2 and "boyz has already fired this move" in result.stderr
    assert "done: ladz; not done: boyz" in result.stderr
    assert karsk.path.stat().st_size > size  # ladz's shot is kept, boyz's appended nothing
    assert row_of(_status(karsk), "ladz")["fired"] is True


@pytest.mark.parametrize(
    ("units", "said"),
    [
        (("fireteam-1", "fireteam-9"), "unknown unit 'fireteam-9'"),
        (("boyz", "boyz"), "boyz is named twice"),
        (("boyz", "12"), "'12' is a number, not a unit"),
    ],
)
def test_every_unit_named_is_checked_before_any_acts(karsk, units, said):
    size = karsk.path.stat().st_size
    result = karsk("fire", *units, "--at", "fireteam-2", "-r", "12")
    assert result.exit_code == 2 and said in result.stderr
    assert karsk.path.stat().st_size == size  # nothing rolled, nothing appended


def test_a_number_given_as_a_unit_names_the_options_a_number_goes_with(karsk):
    """Found in play: `hc fire boyz 12` said only that a number goes with its option; the
    options of a distance come first, --range among them."""
    result = karsk("fire boyz 12 --at fireteam-2")
    said = " ".join(result.stderr.split())
    assert result.exit_code == 2
    assert "a number goes with its option (--range," in said and "hc fire --help" in said


@pytest.mark.parametrize(
    ("dice", "said"),
    [("9", "2 units (fireteam-1, fireteam-2): 1 given"), ("9/9/9", "3 given")],
)
def test_dice_that_do_not_fit_the_units_are_exit_2(karsk, dice, said):
    karsk("fire", "boyz", "--at", "fireteam-1", "-r", "30", "--dice", _misses(8))
    karsk("fire", "ladz", "--at", "fireteam-2", "-r", "30", "--dice", _misses(6))
    result = karsk("morale", "--due", "--dice", dice)
    assert result.exit_code == 2 and said in " ".join(result.stderr.split())


def test_morale_due_takes_every_test_due_one_d10_each_in_the_roster_s_order(karsk):
    karsk("fire", "boyz", "--at", "fireteam-1", "-r", "30", "--dice", _misses(8))
    karsk("fire", "ladz", "--at", "fireteam-2", "-r", "30", "--dice", _misses(6))
    # 9 + 2 (Crusaders) - 1 (fired at) = 10; 1 + 2 - 1 = 2: a rout (seed 001).
    tests = json_of(karsk("morale --due --dice 9,1 --json"))
    assert [(t["total"], t["outcome"]) for t in tests] == [(10, "pass"), (2, "rout")]
    assert [t["game"]["unit"] for t in tests] == ["fireteam-1", "fireteam-2"]
    none = karsk("morale --due")
    assert none.exit_code == 2 and "no morale test is due" in none.stderr
    named = karsk("morale fireteam-1 --due")
    assert named.exit_code == 2 and "no unit is named with it" in named.stderr


def test_seeds_of_several_units_follow_one_another(karsk):
    tests = json_of(karsk("fire", "boyz", "ladz", "--at", "fireteam-1", "-r", "30", "--seed", "7",
                        "--json"))  # fmt: skip
    assert [t["seed"] for t in tests] == [7, 8]


# ---------------------------------------------------------------------------------------------
# hc again


def test_again_takes_the_newest_action_again_with_new_dice(karsk):
    karsk("orders Orcs static")
    karsk("fire", "boyz", "--at", "fireteam-1", "-r", "14", "--dice", _misses(8))
    karsk("morale --due --dice 9")
    karsk("initiative --dice 1,9")  # move 2
    again = karsk("again", "boyz", "--dice", _misses(8), "--json")
    shot = json_of(again)
    assert "again: hc fire boyz --at fireteam-1 --range 14" in again.stderr
    assert (shot["game"]["unit"], shot["inputs"]["range"], shot["inputs"]["order"]) == (
        "boyz",
        14,
        "static",
    )
    quiet = karsk("undo"), karsk("again", "boyz", "--dice", _misses(8), "-q")
    assert quiet[1].stdout.startswith("0 kills of 8 shots") and "again:" not in quiet[1].stderr
    twice = karsk("again")  # boyz has fired this move: refused as the fire itself would be
    assert twice.exit_code == 2 and "boyz has already fired this move" in twice.stderr


def test_again_passes_over_a_morale_test_to_the_shot_a_player_chose(karsk):
    # A Morale test is taken when the game says it is due (seed 001: "whenever the following
    # circumstances occur"), not chosen: `hc again ladz` after ladz's test is its shot again.
    karsk("orders Orcs static")
    karsk("fire", "boyz", "--at", "fireteam-1", "-r", "14", "--dice", _misses(8))
    karsk("fire", "ladz", "--at", "fireteam-1", "-r", "20", "--dice", _misses(6))
    karsk("morale --due --dice 9")  # the Orcs have fired: steps 2 and 4 pass
    karsk("fire", "fireteam-1", "--at", "ladz", "-r", "20", "--dice", _misses(5))
    assert karsk("morale ladz --dice 9").exit_code == 0  # ladz's newest action
    karsk("initiative --dice 1,9")  # move 2: the Orcs are Player A again
    again = karsk("again", "ladz", "--dice", _misses(6), "--json")
    assert "again: hc fire ladz --at fireteam-1 --range 20" in again.stderr
    assert json_of(again)["game"]["unit"] == "ladz"


def test_again_with_nothing_to_take_again_is_exit_2(hc, tmp_path):
    path = tmp_path / "new.hcg"
    hc("game", "new", str(path), "--roster", str(KARSK))
    result = hc("again", "--game", str(path))
    assert result.exit_code == 2 and "nothing to take again" in result.stderr


def test_again_by_the_next_model_of_a_rogue_trader_unit(hc, tmp_path):
    path = tmp_path / "hunt.hcg"
    hc("game", "new", str(path), "--roster", str(ROOT / "examples" / "rogue-trader-roster.yaml"))
    env = {"HC_GAME": str(path)}
    hc("initiative --dice 1", env=env)
    hc("fire marines:1 --at boyz -r 10 --dice 1", env=env)
    shot = json.loads(hc("again marines:2 --dice 1 --json", env=env).stdout)
    assert shot["game"]["unit"] == "marines:2"
    row = json.loads(hc("status --json", env=env).stdout)["sides"]["Imperials"][0]
    assert row["fired_models"] == [1, 2]


# ---------------------------------------------------------------------------------------------
# Rogue Trader: a turn that ends by itself, when the player's settings ask it


def _hunt(hc, tmp_path, switched: bool):
    path = tmp_path / "hunt.hcg"
    config = tmp_path / "config"
    (config / "hc").mkdir(parents=True)
    if switched:
        (config / "hc" / "settings.toml").write_text("turn_ends_by_itself = true\n")
    env = {"HC_GAME": str(path), "XDG_CONFIG_HOME": str(config)}
    hc("game", "new", str(path), "--roster", str(ROOT / "examples" / "rogue-trader-roster.yaml"))
    hc("initiative --dice 1", env=env)  # heads: the Imperials play first
    return env


@pytest.mark.parametrize("switched", [True, False])
def test_a_rogue_trader_turn_ends_when_every_unit_has_acted(hc, tmp_path, switched):
    env = _hunt(hc, tmp_path, switched)
    hc("fire marines --at boyz -r 20 --dice 1,1,1,1,1", env=env)
    assert json.loads(hc("status --json", env=env).stdout)["playing"] == "Imperials"
    said = " ".join(hc("status", env=env).stdout.split())
    assert ("turn ends by itself once every unit" in said) == switched
    last = json.loads(hc("fire", "lascannon-team", "--at", "carnosaur", "-r", "20", "--dice",
                         "1", "--json", env=env).stdout)  # fmt: skip
    playing = json.loads(hc("status --json", env=env).stdout)["playing"]
    assert playing == ("Orks" if switched else "Imperials")
    assert any("its turn ends by itself" in c for c in last["game"]["changes"]) == switched
    # The fold reads the action, not the settings: the game is the same without them.
    env.pop("XDG_CONFIG_HOME")
    assert json.loads(hc("status --json", env=env).stdout)["playing"] == playing


def test_a_setting_that_is_no_switch_is_exit_2(hc, tmp_path):
    env = _hunt(hc, tmp_path, False)
    (Path(env["XDG_CONFIG_HOME"]) / "hc" / "settings.toml").write_text(
        'turn_ends_by_itself = "1"\n'
    )
    result = hc("fire marines --at boyz -r 20 --seed 1", env=env)
    assert result.exit_code == 2 and "must be true or false" in result.stderr


# ---------------------------------------------------------------------------------------------
# Twilight: 2000: the character whose action it is


def test_the_character_whose_action_it_is_acts_unnamed(hc, tmp_path):
    path = tmp_path / "kalisz.hcg"
    hc("game", "new", str(path), "--roster", str(ROOT / "examples" / "t2k-roster.yaml"))
    env = {"HC_GAME": str(path)}
    hc("initiative --seed 1", env=env)  # kowalski (6) acts first
    shot = json.loads(hc("fire --at ivanov -r 40 --dice 20 --json",
                         env=env).stdout)  # fmt: skip
    assert shot["game"]["unit"] == "kowalski"
    assert json.loads(hc("status --json", env=env).stdout)["acting"] == "ivanov"
    assert "hc fire kowalski --at ivanov" in hc("game export", env=env).stdout
    reload = hc("reload", env=env)  # ivanov's action: his full magazine, said in the game
    assert reload.exit_code == 2 and "ivanov's ak-74 is full" in reload.stderr


def test_the_orders_phase_closed_with_fireteams_unordered_says_so(karsk):
    # Issue 38: the orders phase passed with no order given and no word; the next fire then
    # had no order modifier. Closing it names those with none (the Orcs gave theirs).
    assert karsk("orders Orcs static").exit_code == 0
    said = " ".join(karsk("game next").stdout.split())
    assert "fireteam-1, fireteam-2 have no order this move: no order modifier" in said
    assert "boyz" not in said.partition("have no order")[0]
    history = " ".join(karsk("history").stdout.split())
    assert "fireteam-1, fireteam-2 have no order this move" in history

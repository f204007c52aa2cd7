"""High Crusade's `hc orders` as a player types it (issue 38): every command a hint or a "now:"
line prints about orders runs as written in this game (the side named, quoted as a shell needs
it); a Fireteam of another side than the one named is refused, with a command a side, as typed."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

KARSK = Path(__file__).resolve().parent.parent / "examples" / "high-crusade-roster.yaml"


@pytest.fixture
def karsk(hc, tmp_path):
    """The orders phase of move 1 (fireteam-1, fireteam-2 of the Free Companies; boyz, ladz
    of the Orcs, Player A): run(line) -> result, in the game."""
    path = tmp_path / "karsk.hcg"
    assert hc("game", "new", str(path), "--roster", str(KARSK)).exit_code == 0
    env = {"HC_GAME": str(path), "XDG_CONFIG_HOME": str(tmp_path / "config")}

    def run(line: str):
        return hc(line, env=env)

    assert run("initiative --dice 3,6").exit_code == 0
    run.path = path  # type: ignore[attr-defined]
    return run


def _flat(text: str) -> str:
    return " ".join(text.split())  # as printed, less the wrapping


def _commands(hint: str) -> list[str]:
    """The commands of a hint ("hc undo, then hc orders Orcs static"), without their `hc`."""
    return [c.strip().removeprefix("hc ") for c in re.split(r",? then |, or ", hint)]


def _runs(karsk, hint: str) -> None:
    for command in _commands(hint):
        assert command.startswith(("orders ", "undo")), hint
        done = karsk(command)
        assert done.exit_code == 0, (command, done.output)


def _orders(karsk) -> dict[str, str]:
    status = json.loads(karsk("status --json").stdout)
    return {r["name"]: r["order"] for rows in status["sides"].values() for r in rows}


def test_the_now_line_and_the_closed_orders_phase_name_a_command_that_runs(karsk):
    now = _flat(karsk("status").stdout)
    found = re.search(r"orders for the move \(e\.g\. (hc orders [^)]+)\)", now)
    assert found, now
    assert shlex.split(found.group(1))[2] in ("Free Companies", "Orcs")  # a side of the game
    _runs(karsk, found.group(1))
    given = {n for n, o in _orders(karsk).items() if o != "-"}
    assert given in ({"fireteam-1", "fireteam-2"}, {"boyz", "ladz"})
    # The phase closed with the other side unordered: the note says how to give their order.
    closed = _flat(karsk("game next").stdout)
    found = re.search(r"no order modifier \((hc undo, then [^)]+)\)", closed)
    assert found, closed
    _runs(karsk, found.group(1))
    assert "-" not in _orders(karsk).values()


def test_a_shot_with_no_order_names_no_command_that_fails(karsk):
    for line in ("game next", "game next"):  # the Orcs fire, no order given
        assert karsk(line).exit_code == 0
    shot = karsk("fire boyz --at fireteam-1 -r 10 --dice " + ",".join(["99"] * 8) + " --json")
    filled = " ".join(json.loads(shot.stdout)["game"]["filled"])
    assert "boyz has no order for the move (none was given in its orders phase)" in filled
    assert "(hc orders)" not in filled


@pytest.mark.parametrize(
    ("typed", "why", "hint"),
    [
        ("Orcs fireteam-1=static", "fireteam-1 is of Free Companies, not Orcs",
         "hc orders 'Free Companies' fireteam-1=static"),
        ("Orcs static fireteam-1=advance", "fireteam-1 is of Free Companies, not Orcs",
         "a command a side: hc orders Orcs static, then hc orders 'Free Companies' "
         "fireteam-1=advance"),
        ("static fireteam-1=advance boyz=advance",
         "static: whose Fireteams? the Fireteams named are of both sides",
         "a command a side: hc orders 'Free Companies' static fireteam-1=advance, then "
         "hc orders Orcs static boyz=advance"),
        ("Orcs 'Free Companies' advance", "Orcs and Free Companies named: orders go to one "
         "side at a time", "a command a side: hc orders Orcs advance, then hc orders "
         "'Free Companies' advance"),
    ],
)  # fmt: skip
def test_words_of_two_sides_are_refused_with_a_command_a_side_as_typed(karsk, typed, why, hint):
    size = karsk.path.stat().st_size
    refused = karsk(f"orders {typed}")
    assert refused.exit_code == 2 and karsk.path.stat().st_size == size, refused.output
    said = refused.stderr.splitlines()
    assert said[0] == f"hc orders: {why}"
    assert _flat(" ".join(said[1:])) == hint
    _runs(karsk, hint.removeprefix("a command a side: "))
    words = [w for w in shlex.split(typed) if "=" in w]
    orders = _orders(karsk)
    for word in words:  # each Fireteam named has the order typed
        name, _, order = word.partition("=")
        assert orders[name] == order.capitalize()


def test_the_example_of_a_hint_names_fireteams_that_may_take_an_order(karsk):
    """A routed Fireteam's order is the game's: the example a refusal gives names the first
    Fireteam of its side that may take one, so that it runs as written."""
    for line in ("game next", "game next",  # the Orcs fire: fireteam-1 is fired at, tests, routs
                 "fire boyz --at fireteam-1 -r 10 --dice 01,01,99,99,99,99,99,99",
                 "morale fireteam-1 --dice 1", "game next", "game next", "game next",
                 "initiative --dice 3,6"):  # fmt: skip
        assert karsk(line).exit_code == 0, line
    refused = karsk("orders bogus")
    assert refused.exit_code == 2
    hint = _flat(" ".join(refused.stderr.splitlines()[1:]))
    assert hint.endswith("e.g. hc orders fireteam-2=advance"), hint
    _runs(karsk, "hc orders fireteam-2=advance")


def test_an_order_out_of_the_orders_phase_says_so_first(karsk):
    """`hc orders static` at step 1: the orders phase is over, said before whose Fireteams
    (found in play: the hints to name the side then failed for the phase)."""
    assert karsk("game next").exit_code == 0
    refused = karsk("orders static")
    assert refused.exit_code == 2
    said = _flat(refused.stderr)
    assert "orders are given in the orders phase that opens the move" in said
    assert "name whose Fireteams" in said

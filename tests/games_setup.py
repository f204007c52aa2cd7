"""A game played through `hc` in a test: started by `hc game new`, then acted in and read."""

from __future__ import annotations

import json
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def json_of(result) -> dict:
    """The JSON a command printed, once it is sure the command succeeded."""
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def row_of(status: dict, name: str) -> dict:
    """The unit called name in `hc status --json`, whichever side it is on."""
    return next(r for rows in status["sides"].values() for r in rows if r["name"] == name)


def example_game(hc, path, ruleset: str, *lines: str) -> dict[str, str]:
    """A game started at path from examples/RULESET-roster.yaml, then the command lines played
    in it (each must succeed); returns the environment that names it (HC_GAME)."""
    roster = str(EXAMPLES / f"{ruleset}-roster.yaml")
    assert hc("game", "new", str(path), "--roster", roster).exit_code == 0
    env = {"HC_GAME": str(path)}
    for line in lines:
        assert hc(line, env=env).exit_code == 0, line
    return env


def start_game(hc, path, roster, *rules: str):
    """A game started at path from the roster file (and rules); returns (act, status): act
    runs an hc command line in it (HC_GAME set), status reads its `hc status --json`."""
    started = hc("game", "new", str(path), "--roster", str(roster), *rules)
    assert started.exit_code == 0, started.output
    env = {"HC_GAME": str(path)}

    def act(*args: str):
        return hc(*args, env=env)

    def status() -> dict:
        return json_of(hc("status --json", env=env))

    return act, status

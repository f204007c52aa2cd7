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


class Game:
    """A game of one of the example rosters, played through `hc`."""

    def __init__(self, hc, path, ruleset: str, *opening: str) -> None:
        self.hc, self.file = hc, path
        roster = EXAMPLES / f"{ruleset}-roster.yaml"
        assert hc("game", "new", str(path), "--roster", str(roster)).exit_code == 0
        self.env = {"HC_GAME": str(path), "XDG_CONFIG_HOME": str(path.parent / "a")}
        for line in opening:
            self.ok(line)

    def ok(self, line: str):
        result = self.hc(line, env=self.env)
        assert result.exit_code == 0, (line, result.output)
        return result

    def refused(self, line: str) -> str:
        before = self.file.read_bytes()
        message = self.hc.error(line, env=self.env)
        assert self.file.read_bytes() == before  # a refused action appends nothing
        return " ".join(message.split())

    def entries(self) -> list[dict]:
        return [json.loads(line) for line in self.file.read_text().splitlines()]

    def last(self) -> dict:
        return self.entries()[-1]

    def history(self) -> str:
        return " ".join(self.ok("history").stdout.split())

    def luck(self) -> dict:
        return json.loads(self.ok(f"luck {self.file} --json").stdout)

    def taken_back(self, line: str) -> dict:
        """The entry of an action made, then taken back (hc undo)."""
        self.ok(line)
        entry = self.last()
        self.ok("undo")
        return entry

    def problems(self) -> list:
        """What the rule finds wrong in the whole file, read straight from it."""
        from hc_cli.games.retake import retake_problems, sides_of

        entries = self.entries()
        return list(retake_problems(enumerate(entries, 1), sides_of(entries[0]["game"]["roster"])))


# High Crusade: the Orcs have the Initiative (9 to 1) and fire in step 2.
HC_OPENING = ("initiative --dice 1,9", "game next", "game next")


def army(units: int) -> str:
    """A High Crusade roster of `units` Fireteams, half a side (the compare tests and
    bench/compare_scale.py)."""
    half = units // 2
    lines = ["ruleset: high-crusade", "sides:", "  Free Companies:"]
    lines += [f"    fireteam-{i}: {{troop: crusader, figures: {3 + i % 6}, weapon: ingrave-ar}}"
              for i in range(half)]  # fmt: skip
    lines += ["  Orcs:"]
    lines += [f"    mob-{i}: {{troop: orc, figures: {5 + i % 6}, weapon: bolt-gun}}"
              for i in range(units - half)]  # fmt: skip
    return "\n".join(lines) + "\n"

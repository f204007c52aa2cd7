"""Every test runs with its own empty config and cache directories and no hc environment."""

from __future__ import annotations

import json
import os
from pathlib import Path

import games_setup
import pytest
from helpers import CliRunner
from hypothesis import settings

from hc_cli.cli.app import app

# Every run draws the same examples (derandomized, no .hypothesis database read or written):
# the suite passes or fails alike on every machine, every time. A failing draw worth keeping
# is an @example beside its test. HYPOTHESIS_PROFILE=explore draws afresh each run, to hunt.
settings.register_profile("hc", derandomize=True, database=None)
settings.register_profile("explore", database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "hc"))


@pytest.fixture(autouse=True)
def clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    for name in (
        "HC_RULES",
        "HC_RULESET",
        "HC_GAME",
        "HC_LOG_KEY",
        "HC_LOG_KEY_FILE",
        "NO_COLOR",
        "HC_NO_CACHE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "80")  # the output wraps to the terminal: fix its width
    return tmp_path


def words(args: tuple[str, ...] | list[str]) -> list[str]:
    """A command line given as one string is split as a shell would; words are kept."""
    import shlex

    if len(args) == 1 and any(c.isspace() for c in args[0]):
        return shlex.split(args[0])
    return list(args)


class Hc:
    """Runs `hc` in-process (the typer app, as `hc_cli.cli.main` runs it) and keeps stdout
    and stderr apart."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str, env: dict[str, str] | None = None):
        """`hc("fire -w ingrave-ar -r 14")`: a command line as one string, split as a shell
        splits it; or its words one by one, where a word holds a space or a quote."""
        return self.runner.invoke(app, words(args), env=env)

    def json(self, *args: str, env: dict[str, str] | None = None) -> dict:
        args = tuple(words(args))
        result = self(*args, "--json", env=env)
        assert result.exit_code == 0, result.output
        out = json.loads(result.stdout)
        if out.get("phases") and "ask" not in args:
            self.replays(args, out, env)
        return out

    def replays(self, args: tuple[str, ...], out: dict, env: dict[str, str] | None) -> None:
        """A volley's dice, as its breakdown lists them (the rolls line, then each phase line
        in order), given back as --dice must give the same result: every volley checks it."""
        dice = [
            f"{r['value']:02d}" if r["die"] == "d100" else str(r["value"]) for r in out["rolls"]
        ]
        for line in out["phases"]:
            dice += line.partition(": ")[2].partition(" -> ")[0].split()
        kept, skip = [], False
        for arg in args:
            if skip or arg in ("--seed", "--dice"):
                skip = not skip
                continue
            if not arg.startswith(("--seed=", "--dice=")):
                kept.append(arg)
        again = self(*kept, "--dice", ",".join(dice), "--json", env=env)
        assert again.exit_code == 0, (dice, again.output)
        replayed = json.loads(again.stdout)
        for key in ("headline", "outcome", "summary", "phases"):
            assert replayed.get(key) == out.get(key), (key, dice)
        assert [s.get("outcome") for s in replayed.get("shots", [])] == [
            s.get("outcome") for s in out.get("shots", [])
        ]

    def error(self, *args: str, env: dict[str, str] | None = None) -> str:
        """Run a command that must fail cleanly; return its stderr, each message and hint on
        one line again (hc wraps them to the terminal, continuing a line four spaces in)."""
        result = self(*args, env=env)
        assert result.exit_code == 2, (result.exit_code, result.output)
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        return result.stderr.replace("\n    ", " ")


@pytest.fixture
def hc() -> Hc:
    return Hc()


@pytest.fixture
def house(tmp_path: Path):
    """Write a house-rules file and return its path."""

    def write(text: str, name: str = "house.yaml") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


# Games of the example rosters at their first shot, played through `hc` (games_setup.Game).
@pytest.fixture
def hc_game(hc, tmp_path):
    return games_setup.Game(hc, tmp_path / "karsk.hcg", "high-crusade", *games_setup.HC_OPENING)


@pytest.fixture
def rt_game(hc, tmp_path):
    return games_setup.Game(hc, tmp_path / "hunt.hcg", "rogue-trader", "initiative --dice 1")


@pytest.fixture
def t2k_game(hc, tmp_path):
    return games_setup.Game(hc, tmp_path / "kalisz.hcg", "t2k", "initiative")

"""Every test runs with its own empty config and cache directories and no hc environment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
import typer.testing
from typer.testing import CliRunner

from hc_cli.cli import app

# hc's command line is a group generated from the rule sets' declarations (a click command
# built with typer's classes), not a `typer.Typer`: let typer's test runner take it as it is.
_typer_command = typer.testing._get_command
typer.testing._get_command = lambda a: _typer_command(a) if isinstance(a, typer.Typer) else a


@pytest.fixture(autouse=True)
def clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for name in ("HC_RULES", "HC_RULESET", "NO_COLOR", "HC_NO_CACHE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "80")  # the output wraps to the terminal: fix its width
    return tmp_path


class Hc:
    """Runs `hc` in-process and keeps stdout and stderr apart."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str, env: dict[str, str] | None = None):
        return self.runner.invoke(app, list(args), env=env)

    def json(self, *args: str, env: dict[str, str] | None = None) -> dict:
        result = self(*args, "--json", env=env)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    def error(self, *args: str, env: dict[str, str] | None = None) -> str:
        """Run a command that must fail cleanly; return its stderr."""
        result = self(*args, env=env)
        assert result.exit_code == 2, (result.exit_code, result.output)
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        return result.stderr


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

"""The shell scripts in completions/, generated from the app itself (`python -m
hc_cli.completion_scripts` rewrites them; a test checks they are in step)."""

from __future__ import annotations

from pathlib import Path

SHELLS = {"bash": "hc.bash", "zsh": "_hc", "fish": "hc.fish"}


def script(shell: str) -> str:
    from typer.testing import CliRunner

    from hc_cli.cli import app

    result = CliRunner().invoke(app, [], env={"_HC_COMPLETE": f"source_{shell}"}, prog_name="hc")
    if result.exit_code != 0:
        raise RuntimeError(f"cannot generate the {shell} completion script: {result.output}")
    return result.stdout


def write_all(folder: Path) -> None:
    for shell, name in SHELLS.items():
        (folder / name).write_text(script(shell), encoding="utf-8")


if __name__ == "__main__":
    write_all(Path(__file__).resolve().parent.parent / "completions")

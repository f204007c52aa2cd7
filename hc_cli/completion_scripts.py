"""Generated completion files, kept in step with the app by a test:

- `completions/` holds the shell scripts for bash, zsh and fish;
- `hc_cli/completion_index.json` holds every command and option, so that a TAB press can be
  answered (by `hc_cli.complete`) without importing typer or building the app.

`python -m hc_cli.completion_scripts` rewrites them all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SHELLS = {"bash": "hc.bash", "zsh": "_hc", "fish": "hc.fish"}
PACKAGE = Path(__file__).resolve().parent
INDEX = PACKAGE / "completion_index.json"


def script(shell: str) -> str:
    from typer.testing import CliRunner

    from hc_cli.cli import app

    result = CliRunner().invoke(app, [], env={"_HC_COMPLETE": f"source_{shell}"}, prog_name="hc")
    if result.exit_code != 0:
        raise RuntimeError(f"cannot generate the {shell} completion script: {result.output}")
    return result.stdout


def _options(command: Any, name: str, parent: Any = None) -> list[dict[str, Any]]:
    # Under the group, a command inherits its help option names (-h, --help).
    ctx = command.make_context(name, [], parent=parent, resilient_parsing=True)
    options = []
    for param in command.get_params(ctx):
        if param.param_type_name != "option" or param.hidden:
            continue
        opts = [*param.opts, *param.secondary_opts]
        if param.name == "help":
            opts.sort()  # click builds these from a set: their order changes run to run
        options.append(
            {
                "name": param.name,
                "opts": opts,
                "help": param.help,
                "flag": bool(param.is_flag),
                "type": param.type.name,
                "multiple": bool(param.multiple),
                "values": param._custom_shell_complete is not None,
            }
        )
    return options


def index() -> dict[str, Any]:
    import typer

    from hc_cli.cli import app

    group = typer.main.get_command(app)
    group_ctx = group.make_context("hc", [], resilient_parsing=True)
    commands = {}
    for name in group.list_commands(group_ctx):
        command = group.commands[name]
        ctx = command.make_context(name, [], parent=group_ctx, resilient_parsing=True)
        commands[name] = {
            "help": command.get_short_help_str(),
            "group": hasattr(command, "list_commands"),
            "options": _options(command, name, group_ctx),
            "arguments": [
                {"name": p.name, "type": p.type.name, "multiple": bool(p.multiple)}
                for p in command.get_params(ctx)
                if p.param_type_name == "argument"
            ],
        }
    return {"group_options": _options(group, "hc"), "commands": commands}


def index_text() -> str:
    return json.dumps(index(), indent=1, ensure_ascii=False) + "\n"


def write_all(folder: Path) -> None:
    for shell, name in SHELLS.items():
        (folder / name).write_text(script(shell), encoding="utf-8")
    INDEX.write_text(index_text(), encoding="utf-8")


if __name__ == "__main__":
    write_all(PACKAGE.parent / "completions")

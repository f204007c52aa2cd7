"""Help texts and their examples, the JSON contract of CLI.md, the plain and coloured output,
TAB completion, and the shape of the package: which room imports which, and what ships.
The README and docs/ are tests/test_docs.py's."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hc_cli.core.dice import ScriptedDice
from hc_cli.render import text
from hc_cli.rulesets.high_crusade.commands import load_tables
from hc_cli.rulesets.high_crusade.resolve import FireRequest, TargetSpec, resolve_fire

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "command",
    ["roll", "tables", "batch", "replay", "rules check", "roster check", "game new", "game next",
     "game export", "status", "history", "undo"],
)  # fmt: skip
def test_every_shared_command_has_help_with_an_example(hc, command):
    result = hc(*command.split(), "--help")
    assert result.exit_code == 0
    assert "Example: hc " + command in " ".join(result.stdout.split())
    assert "'" not in result.stdout.split("Example: ")[1].splitlines()[0]  # copied as written


@pytest.mark.parametrize(
    "args",
    [
        ["fire", "-w", "ingrave-ar", "-r", "14", "-t", "crusader", "--mod", "target-static"],
        ["melee", "--attacker", "orc", "--defender", "levy"],
        ["morale", "--troop", "levy", "--fired-at"],
        ["rally", "--troop", "levy"],
        ["initiative"],
        ["roll", "2d6+1"],
    ],
)
def test_json_shape_of_cli_md(hc, args):
    out = hc.json(*args, "--seed", "5")
    for key in ("command", "ruleset", "seed", "inputs", "modifiers", "rolls"):
        assert key in out, key
    assert out["command"] == args[0] and out["ruleset"] == "high-crusade" and out["seed"] == 5
    for roll in out["rolls"]:
        assert {"die", "value", "purpose"} <= set(roll)
    for mod in out["modifiers"]:
        assert {"name", "value", "applies_to"} <= set(mod)
    specific = {
        "fire": ("chance", "penetration", "defence", "outcome"),
        "morale": ("total", "needed", "outcome"),
        "rally": ("total", "needed", "outcome"),
        "melee": ("outcome",),
        "initiative": ("order", "outcome"),
        "roll": ("total",),
    }
    for key in specific[args[0]]:
        assert key in out, key


def test_json_is_alone_on_stdout(hc):
    result = hc("fire -w ingrave-ar -r 14 -t orc --shots 2 --json")
    assert json.loads(result.stdout)["summary"]["shots"] == 2


def test_resolver_core_imports_no_rich_no_typer():
    code = (
        "import sys, hc_cli.rulesets.high_crusade.resolve, hc_cli.core.roll, hc_cli.core.odds;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('rich', 'typer', 'click')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def _example():
    req = FireRequest(weapon="ingrave-ar", range=14, targets=(TargetSpec("crusader"),))
    res = resolve_fire(load_tables(), req, ScriptedDice("4,6"))
    res.seed = None
    res.inputs["dice"] = "4,6"
    return res


def test_plain_rendering_exact_text():
    assert text.render(_example(), width=80) == "\n".join(
        [
            "hit, cannot kill: d100 46, needs 65 or less",
            "hc fire · high-crusade · your dice",
            'inputs: weapon ingrave-ar; range 14; shots 1; band 12-24"; targets crusader;',
            "  dice 4,6",
            "rolls: d100 to hit: 46 (faces 4,6)",
            'range band 12-24"; basic chance 65; chance to hit 65; penetration 4; defence',
            "  factor 5",
            "D100 46 <= 65: hit; penetration 4 < DF 5: it cannot kill",
            "sample numbers (not the book's): ingrave-ar band 12-24\": 65/4; crusader DF 5",
        ]
    )


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_colour_is_the_plain_text_with_colour():
    res = _example()
    painted = text.render(res, colour=True, bars=True)
    assert "\x1b[" in painted
    assert ANSI.sub("", painted) == text.render(res)


def test_odds_on_a_terminal_have_bars(hc):
    from hc_cli.plugin.execute import Call, execute

    res = execute(Call("fire", flags={"chance": 65, "penetration": 4, "df": 5}, odds=True))
    plain_lines = text.render(res).splitlines()
    bar_lines = ANSI.sub("", text.render(res, colour=True, bars=True)).splitlines()
    hit, miss = bar_lines[-2], bar_lines[-3]
    assert hit.rstrip("█").rstrip() == plain_lines[-2] and hit.endswith("█" * 30)  # the longest
    assert miss.rstrip("█").rstrip() == plain_lines[-3]
    assert miss.endswith(" " + "█" * round(35 / 65 * 30))
    assert hit.index("█") == miss.index("█")  # one column, whatever the fractions' widths
    narrow = ANSI.sub("", text.render(res, colour=True, bars=True, width=40)).splitlines()
    assert all(len(line) <= 40 for line in narrow)


def test_plain_output_when_piped_or_no_color(hc):
    result = hc("fire -w ingrave-ar -r 14 -t orc --seed 1")
    assert "\x1b[" not in result.stdout
    assert result.stdout.splitlines()[1] == "hc fire · high-crusade · seed 1"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_are_in_step_with_the_app(hc, shell):
    from hc_cli.cli.completion import FILES, script

    shipped = (ROOT / "completions" / FILES[shell]).read_text(encoding="utf-8")
    assert shipped == script(shell), f"run: hc completion {shell} > completions/{FILES[shell]}"
    assert hc("completion", shell).stdout == shipped


def test_completion_offers_table_values(hc):
    result = hc.runner.invoke(
        app_for_completion(),
        [],
        prog_name="hc",
        env={
            "_HC_COMPLETE": "complete_bash",
            "COMP_WORDS": "hc fire --weapon ing",
            "COMP_CWORD": "3",
        },
    )
    assert result.stdout.split() == ["ingrave-ar"]


def app_for_completion():
    from hc_cli.cli.app import app

    return app


def test_python_dash_m_runs_the_lazy_entry_point(tmp_path):
    """`main()` builds commands lazily; it must behave as the full app does."""
    run = subprocess.run(
        [sys.executable, "-m", "hc_cli", "roll", "d6", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["total"] == 1
    bad = subprocess.run(
        [sys.executable, "-m", "hc_cli", "fire", "-w", "ingrav-ar"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert bad.returncode == 2 and "did you mean 'ingrave-ar'?" in bad.stderr
    env = {
        **__import__("os").environ,
        "_HC_COMPLETE": "complete_bash",
        "COMP_WORDS": "hc fire --weapon ing",
        "COMP_CWORD": "3",
    }
    tab = subprocess.run(
        [sys.executable, "-m", "hc_cli"], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert tab.stdout.split() == ["ingrave-ar"]


@pytest.mark.parametrize("ruleset", ["high-crusade", "rogue-trader", "t2k"])
def test_every_table_of_every_ruleset_lists(hc, ruleset):
    plain_text = hc("tables", "--ruleset", ruleset)
    assert plain_text.exit_code == 0, plain_text.output
    coloured = hc("tables", "--ruleset", ruleset, env={"FORCE_COLOR": "1"})
    assert coloured.exit_code == 0 and "\x1b[" in coloured.stdout
    assert ANSI.sub("", coloured.stdout) == plain_text.stdout
    listing = hc.json("tables", "--ruleset", ruleset)
    assert listing["ruleset"] == ruleset and listing["tables"]


def test_the_wound_chart_lists_as_a_grid(hc):
    out = hc("tables --ruleset rogue-trader charts").stdout
    assert "charts: wound (rows, numbered down and across)" in out
    assert "  4   2  2  3  4  5  6  6  N  N  N" in out  # Strength 4 against T1..T10


def _help_examples(hc, ruleset: str) -> list[str]:
    """Every example the help of every command of `ruleset` prints, as a player copies it
    (line continuations joined)."""
    from hc_cli.plugin import registry
    from hc_cli.plugin.shared_commands import SHARED_COMMANDS

    commands = [[c] for c in registry.get(ruleset).commands]
    for shared in SHARED_COMMANDS:
        commands += [[shared.name, sub.name] for sub in shared.sub] or [[shared.name]]
    examples = []
    for words in commands:
        result = hc("--ruleset", ruleset, *words, "--help")
        assert result.exit_code == 0, (words, result.output)
        lines = result.stdout.splitlines()
        for i, line in enumerate(lines):
            if line.strip().startswith("Example: "):
                example = line.strip()[len("Example: ") :]
                while example.endswith("\\"):
                    i += 1
                    example = example[:-1].rstrip() + " " + lines[i].strip()
                examples.append(example)
    return examples


@pytest.mark.parametrize("ruleset", ["high-crusade", "rogue-trader", "t2k"])
def test_every_help_example_runs(hc, ruleset, tmp_path, monkeypatch):
    """Every example in every --help runs as written and exits 0, from a copy of the
    repository's root: the files it names are in examples/, or made by another example
    (hc game new makes the game the others play, so it runs first, and the Initiative is rolled
    in it)."""
    import shlex
    import shutil

    from hc_cli.cli.app import app

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    examples = _help_examples(hc, ruleset)
    assert len(examples) >= 7
    # hc game new first; hc undo last (hc again takes the Initiative again before it)
    examples.sort(key=lambda e: (not e.startswith("hc game new "), e.startswith("hc undo")))
    for example in examples:
        words = shlex.split(example)
        assert words[0] == "hc", example
        for word in words:
            if word.startswith("examples/"):
                assert (ROOT / word).is_file(), (example, word)  # shipped, from the root
        stdin = None
        if "<" in words:
            at = words.index("<")
            stdin = (tmp_path / words[at + 1]).read_text()
            words = words[:at]
        result = hc.runner.invoke(app, words[1:], input=stdin)
        assert result.exit_code == 0, (example, result.output)
        if words[1:3] == ["game", "new"]:  # a move begins with its initiative
            game = ["--game", words[3], "--seed", "1"]
            assert hc("initiative", *game).exit_code == 0


def _imports(path: Path) -> set[str]:
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_the_command_line_imports_the_rest_never_the_other_way_round():
    """typer only in hc_cli/cli/, rich only there and in the renderers that draw (hc_cli/render/,
    but not its JSON or its wrapping of plain lines), and hc_cli.cli from nowhere else (at any
    depth of a module, lazy imports included)."""
    package = ROOT / "hc_cli"
    for path in package.rglob("*.py"):
        where = path.relative_to(package).as_posix()
        roots = {name.split(".")[0] for name in _imports(path)}
        ours = {name for name in _imports(path) if name.startswith("hc_cli.")}
        in_cli = where.startswith("cli/") or where == "__main__.py"
        assert in_cli or ("typer" not in roots and "click" not in roots), where
        drawing = where.startswith("render/") and where not in (
            "render/json_text.py",
            "render/wrap.py",
        )
        assert in_cli or drawing or "rich" not in roots, where
        assert in_cli or not any(n == "hc_cli.cli" or n.startswith("hc_cli.cli.") for n in ours), (
            where
        )


def test_every_package_of_the_tree_ships_in_the_wheel():
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "hc_cli").rglob("__init__.py")
    }
    assert found <= listed, found - listed


def test_every_bundled_rule_set_has_the_same_faces():
    """A newcomer finds the same files in each rule set: its declaration, its commands and
    their face, its tables, its game, the sequence that game keeps and the state's shape."""
    faces = {"declaration.py", "commands.py", "resolve.py", "tables.py", "game.py"}
    faces |= {"sequence.py", "state.py"}
    for package in ("high_crusade", "rogue_trader", "t2k"):
        files = {p.name for p in (ROOT / "hc_cli" / "rulesets" / package).glob("*.py")}
        assert faces <= files, (package, faces - files)


def test_json_never_imports_rich_and_colour_does(tmp_path):
    """rich is imported to draw for a terminal, never for --json (its start-up is the cost)."""
    import os

    def imported(*args: str, colour: bool) -> set[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
        env.update({"FORCE_COLOR": "1"} if colour else {})
        run = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "hc_cli", *args],
            capture_output=True, text=True, cwd=tmp_path, env=env,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        return {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in run.stderr.splitlines()}

    fire = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--seed", "1")
    assert "rich" not in imported(*fire, "--json", colour=True)
    assert "rich" in imported(*fire, colour=True)


@pytest.mark.parametrize(
    "command",
    ["fire -w ingrave-ar -r 14 -t orc --shots 4 --odds", "tables", "status", "luck",
     "sweep --over range=4..28:8 -- fire -w ingrave-ar -t orc --shots 3"],
)  # fmt: skip
def test_coloured_output_is_the_plain_text_with_colour(hc, tmp_path, command):
    """FORCE_COLOR draws through rich; without its escape codes it is the plain text, but for
    the bars of odds, drawn for a terminal only."""
    game = {"HC_GAME": str(tmp_path / "g.hcg")}
    roster = str(ROOT / "examples" / "high-crusade-roster.yaml")
    assert hc("game", "new", game["HC_GAME"], "--roster", roster).exit_code == 0
    assert hc("initiative", "--dice", "3,6", "-q", env=game).exit_code == 0
    plain_text = hc(command, env=game)
    coloured = hc(command, env={**game, "FORCE_COLOR": "1"})
    assert plain_text.exit_code == 0 == coloured.exit_code, coloured.output
    assert "\x1b[" in coloured.stdout and "\x1b[" not in plain_text.stdout
    unbarred = [re.sub(" *█+$", "", line) for line in ANSI.sub("", coloured.stdout).splitlines()]
    assert unbarred == plain_text.stdout.splitlines()
    no_color = hc(command, env={**game, "FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert no_color.stdout == plain_text.stdout
    if command.startswith("fire"):
        assert hc(f"{command} --no-color", env={**game, "FORCE_COLOR": "1"}).stdout == (
            plain_text.stdout
        )

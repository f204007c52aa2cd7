"""Help texts, the README, the JSON contract of CLI.md, and the purity of the resolver core."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hc_cli.core.dice import ScriptedDice
from hc_cli.render import colour, text
from hc_cli.rulesets.high_crusade.commands import load_tables
from hc_cli.rulesets.high_crusade.resolve import FireRequest, TargetSpec, resolve_fire

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [
    "fire",
    "melee",
    "morale",
    "rally",
    "initiative",
    "deviate",
    "roll",
    "tables",
    "batch",
    "replay",
    "move",
    "reload",
    "status",
    "history",
    "undo",
    "game new",
    "game next",
    "game export",
    "roster check",
    "completion",
    "luck",
    "seal join",
    "seal commit",
    "seal reveal",
    "seal open",
]


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


def test_readme_has_an_example_per_command_and_the_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in [*COMMANDS, "rules check"]:
        assert f"hc {command}" in readme, command
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for step in ('".[test]"', "-m pytest"):
        assert step in readme and step in ci, step


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
    painted = text.render(res, colour.paint, bars=True)
    assert "\x1b[" in painted
    assert ANSI.sub("", painted) == text.render(res)


def test_odds_on_a_terminal_have_bars(hc):
    from hc_cli.plugin.execute import Call, execute

    res = execute(Call("fire", flags={"chance": 65, "penetration": 4, "df": 5}, odds=True))
    plain_lines = text.render(res).splitlines()
    bar_lines = ANSI.sub("", text.render(res, colour.paint, bars=True)).splitlines()
    hit, miss = bar_lines[-2], bar_lines[-3]
    assert hit.rstrip("█").rstrip() == plain_lines[-2] and hit.endswith("█" * 30)  # the longest
    assert miss.rstrip("█").rstrip() == plain_lines[-3]
    assert miss.endswith(" " + "█" * round(35 / 65 * 30))
    assert hit.index("█") == miss.index("█")  # one column, whatever the fractions' widths
    narrow = ANSI.sub("", text.render(res, colour.paint, bars=True, width=40)).splitlines()
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


def _readme_examples() -> list[tuple[str, str]]:
    """Every console example in the README whose output is fixed (a seed, the player's dice,
    odds, or a file the repository ships in examples/), with its output: the README must show
    what hc prints."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    examples = []
    for block in re.findall(r"```console\n(.*?)```", readme, flags=re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            fixed = any(f in command for f in ("--seed", "--dice", "--odds", "examples/")) or any(
                f" {word} " in command + " " for word in ("tables", "reload", "move", "hide")
            )
            if fixed and "|" not in command and "..." not in output and output.strip():
                examples.append((command, output))
    return examples


@pytest.mark.parametrize(("command", "output"), _readme_examples())
def test_readme_examples_are_what_hc_prints(hc, command, output, tmp_path, monkeypatch):
    """Run as the README runs them, from the repository's root (its examples/ beside them);
    an example that shows an error shows what hc says on stderr, exit 2."""
    import shlex
    import shutil

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    result = hc(*shlex.split(command)[1:])
    if output.startswith("hc ") and ": " in output.partition("\n")[0]:
        assert (result.exit_code, result.stderr) == (2, output)
    else:
        assert result.stdout == output


def test_the_readme_has_examples_to_check():
    assert len(_readme_examples()) >= 12


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


def test_the_readme_and_the_help_name_shipped_files():
    """The files the README and the help examples name from examples/ ship in it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"examples/[\w.-]+\.(?:yaml|jsonl)", readme))
    from hc_cli.plugin import registry
    from hc_cli.plugin.shared_commands import SHARED_COMMANDS

    commands = [c for name in registry.names() for c in registry.get(name).commands.values()]
    commands += [c for shared in SHARED_COMMANDS for c in (shared.sub or (shared,))]
    for command in commands:
        for example in command.examples:
            named |= set(re.findall(r"examples/[\w.-]+\.(?:yaml|jsonl)", example))
    assert {"examples/house.yaml", "examples/broken.yaml", "examples/t2k-squad.yaml"} <= named
    assert "examples/requests.jsonl" in named
    for ruleset in ("high-crusade", "rogue-trader", "t2k"):
        assert f"examples/{ruleset}-roster.yaml" in named
    for path in named:
        assert (ROOT / path).is_file(), path


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
    """typer only in hc_cli/cli/, rich only in hc_cli/render/colour.py, and hc_cli.cli from
    nowhere else (at any depth of a module, lazy imports included)."""
    package = ROOT / "hc_cli"
    for path in package.rglob("*.py"):
        where = path.relative_to(package).as_posix()
        roots = {name.split(".")[0] for name in _imports(path)}
        ours = {name for name in _imports(path) if name.startswith("hc_cli.")}
        in_cli = where.startswith("cli/") or where == "__main__.py"
        assert in_cli or ("typer" not in roots and "click" not in roots), where
        assert where == "render/colour.py" or "rich" not in roots, where
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


def test_a_state_shape_is_never_imported_at_run_time():
    """state.py is for the type checker (typing is slow to import): a game runs without it."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from hc_cli.games import actions, store, views\n"
        "from hc_cli.rulesets.high_crusade import game as a\n"
        "from hc_cli.rulesets.rogue_trader import game as b\n"
        "from hc_cli.rulesets.t2k import game as c\n"
        "print(sorted(m for m in sys.modules if m.endswith('.state') or m == 'typing'))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


def test_the_colour_table_is_what_rich_renders_for_every_style_hc_paints():
    from hc_cli.render.colour import CODES, END, by_rich
    from hc_cli.render.text import OUTCOME_STYLES

    for style, before in CODES.items():
        assert by_rich(style) == (before, END), style
    used = set(OUTCOME_STYLES.values()) | {v.replace("bold ", "") for v in OUTCOME_STYLES.values()}
    for path in (ROOT / "hc_cli").rglob("*.py"):
        used |= set(re.findall(r"""paint\(["']([a-z_ ]+)["']""", path.read_text(encoding="utf-8")))
    used |= {"green", "red"}  # a modifier's sign (render/text.py)
    assert used <= set(CODES), used - set(CODES)


def test_the_json_writer_writes_what_the_json_package_writes():
    """`--json` is written by hc's own encoder (no `re` at start-up): the same text as
    json.dumps(indent=2, ensure_ascii=False), for any value a resolution holds."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from hc_cli.render.json_text import dumps

    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text()
    )
    values = st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(st.one_of(st.text(), st.integers(), st.booleans()), inner, max_size=4),
        ),
        max_leaves=20,
    )

    @settings(max_examples=300, deadline=None)
    @given(values)
    def same(value):
        assert dumps(value) == json.dumps(value, indent=2, ensure_ascii=False)

    same()


def test_the_readme_shows_the_house_files_as_they_ship():
    """The house-rules files the README prints whole are the files examples/ ships."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.findall(r"```yaml\n(.*?)```", readme, flags=re.S)
    for name in ("house.yaml", "dug-in.yaml"):
        assert (ROOT / "examples" / name).read_text(encoding="utf-8") in shown, name


def _readme_games() -> list[list[tuple[str, str]]]:
    """The README's short games (```sh-session blocks): each a list of (command, output),
    played in order."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    games = []
    for block in re.findall(r"```sh-session\n(.*?)```", readme, flags=re.S):
        steps = []
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            steps.append((command, output))
        games.append(steps)
    return games


@pytest.mark.parametrize("steps", _readme_games(), ids=["high-crusade", "rogue-trader", "t2k"])
def test_readme_games_play_as_shown(hc, steps, tmp_path, monkeypatch):
    """Each short game of the README, played command by command in a fresh folder, prints
    what the README shows (receipts aside: they hash the time each entry was written)."""
    import shlex
    import shutil

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    receipt = re.compile(r"\b\d+:[0-9a-f]{8}\b")
    env: dict[str, str] = {}
    for command, output in steps:
        if command.startswith("export "):
            name, _, value = command[len("export ") :].partition("=")
            env[name] = value
            continue
        result = hc(*shlex.split(command)[1:], env=env)
        assert result.exit_code == 0, (command, result.output)
        assert receipt.sub("N:receipt", result.stdout) == receipt.sub("N:receipt", output), command


def test_the_readme_sealed_roll_plays_between_two_players(hc, tmp_path, monkeypatch):
    """The README's two terminals, played by two players with folders of their own: each code
    a step prints is pasted into the next (the secrets are fresh each time, so the codes and
    the dice differ); every line is the README's, codes aside."""
    import shlex
    import shutil

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```text\n(A\$ .*?)```", readme, flags=re.S)
    steps = [
        (c[:1], *c[3:].partition("\n")[::2])
        for c in re.split(r"^(?=[AB]\$ )", block, flags=re.M)
        if c
    ]
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    env = {"A": {"XDG_CONFIG_HOME": str(tmp_path / "a")},
           "B": {"XDG_CONFIG_HOME": str(tmp_path / "b"), "HC_GAME": "none"}}  # fmt: skip
    code = re.compile(r"\b\d+(?::[0-9a-f]{4,32}|:[oh])+\b")
    told: dict[str, str] = {}
    for who, command, output in steps:
        if command.startswith("export "):
            name, _, value = command[len("export ") :].partition("=")
            env[who][name] = value
            continue
        if command.startswith("hc seal "):
            command = code.sub(told[command.split()[2]], command)
        result = hc(*shlex.split(command)[1:], env=env[who])
        assert result.exit_code == 0, (command, result.output)
        for sub, said in re.findall(r"hc seal (\w+) (\d+(?::[0-9a-f]+|:[oh])+)", result.stdout):
            told[sub] = said
        if command.startswith("hc seal open"):  # the dice of fresh secrets: another result
            assert result.stdout.splitlines()[1] == output.splitlines()[1], command
            continue
        assert code.sub("N:CODE", result.stdout) == code.sub("N:CODE", output), command


def test_the_readme_checks_a_sealed_roll_with_sha256sum():
    """The README's sha256sum lines give what they show, and what they show is the README's
    sealed roll: the commitment its join line sent, the seed of its secrets."""
    import subprocess

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(
        b for b in re.findall(r"```console\n(.*?)```", readme, flags=re.S) if "sha256sum" in b
    )
    chunks = [c.partition("\n") for c in re.split(r"^\$ ", block, flags=re.M)[1:]]
    for command, _, output in chunks:
        run = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=True)
        assert run.stdout == output, command
    joined = re.search(r"hc seal join 3:([0-9a-f]{12}):([0-9a-f]{32}):o:", readme)
    assert joined and joined.group(2) == chunks[0][2].strip()  # the commitment sent
    assert chunks[1][0].split()[4].startswith(joined.group(1))  # the sealing entry's hash

"""The README and the manual in docs/: every page linked, every link leading somewhere, and every
example in them run as a player would run it, printing what the page shows."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from helpers import run_hc

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
COMMANDS = [
    "fire", "melee", "morale", "rally", "initiative", "deviate", "roll", "tables", "batch",
    "replay", "move", "reload", "status", "history", "undo", "again", "orders", "hide",
    "compare", "sweep", "luck", "game new", "game next", "game export", "game rules",
    "game key",
    "roster check", "rules check", "completion", "seal join", "seal commit", "seal reveal",
    "seal open",
]  # fmt: skip
RECEIPT = re.compile(r"\b\d+:[0-9a-f]{8}\b")  # the chain's head: it hashes the time of writing


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _blocks(*kinds: str) -> list[tuple[Path, str]]:
    """Every fenced block of these kinds, with its page, in page order."""
    found = []
    for page in PAGES:
        for kind, body in re.findall(
            r"^```([\w-]+)\n(.*?)^```", page.read_text("utf-8"), re.S | re.M
        ):
            if kind in kinds:
                found.append((page, body))
    return found


def _steps(block: str) -> list[tuple[str, str]]:
    """A block's `$ COMMAND` lines, each with the output shown under it."""
    return [c.partition("\n")[::2] for c in re.split(r"^\$ ", block, flags=re.M)[1:]]


def _examples() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every console block and every played session (sh-session), with its page."""
    out = []
    for page, block in _blocks("console", "sh-session"):
        count = sum(where.startswith(f"{_name(page)}:") for where, _ in out)
        out.append((f"{_name(page)}:{count}", _steps(block)))
    return out


EXAMPLES = _examples()


def _same(shown: str, printed: str) -> bool:
    """The output shown, where `...` stands for any text (a JSON line cut short, a hash)."""
    pattern = ".*?".join(re.escape(part) for part in shown.split("..."))
    return re.fullmatch(pattern, printed, flags=re.S) is not None


@pytest.mark.parametrize(("where", "steps"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_every_example_prints_what_its_page_shows(hc, where, steps, tmp_path, monkeypatch):
    """Each block's commands, run in order in a fresh folder holding a copy of examples/ (as
    from the repository's root), print what the page shows under each: stdout, or stderr for a
    command shown failing (exit 2). `export` sets a variable for the commands after it; a
    command fed by `printf ... |` reads what printf prints and shows what the terminal would
    (prompts included); a command that is not hc's runs in bash."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    env: dict[str, str] = {}
    for command, shown in steps:
        if command.startswith("export "):
            name, _, value = command[len("export ") :].partition("=")
            env[name] = value
            continue
        feed, _, rest = command.rpartition(" | ")
        if feed.startswith("printf ") and rest.startswith("hc "):
            fed = subprocess.run(["bash", "-c", feed], capture_output=True, text=True).stdout
            run = run_hc(*_words(rest), input=fed, env=env, cwd=tmp_path)
            assert run.returncode in (0, 2), (where, command, run.stderr)
            printed = run.stderr + run.stdout  # the prompts, with the entries read, then the result
        elif command.startswith("hc "):
            result = hc(*_words(command), env=env)
            assert result.exit_code in (0, 2), (where, command, result.output)
            printed = result.stderr if result.exit_code == 2 else result.stdout
        else:
            run = subprocess.run(["bash", "-c", command], capture_output=True, text=True)
            assert run.returncode == 0, (where, command, run.stderr)
            printed = run.stdout
        masked = RECEIPT.sub("N:receipt", shown), RECEIPT.sub("N:receipt", printed)
        assert _same(shown, printed) or _same(*masked), (
            where,
            command,
            printed,
        )


def _words(command: str) -> list[str]:
    words = shlex.split(command)
    assert words[0] == "hc", command
    return words[1:]


def test_the_pages_have_examples_to_run():
    steps = [c for _, s in EXAMPLES for c, _ in s if not c.startswith("export ")]
    assert len(steps) >= 100, len(steps)
    for page in PAGES:
        if page.name not in ("README.md", "development.md", "writing-a-rule-set.md"):
            assert any(w.startswith(_name(page)) for w, _ in EXAMPLES), page


def test_the_readme_is_short_and_sets_up_as_ci_does():
    readme = README.read_text("utf-8")
    assert len(readme.splitlines()) < 300
    setup = [
        "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/hc fire --weapon ingrave-ar"
        " --range 14 --target crusader",
        'python3 -m venv .venv && .venv/bin/pip install ".[test]" && .venv/bin/python -m pytest',
        "pipx install .\npipx ensurepath",
        "echo '. ~/.local/share/bash-completion/completions/hc' >> ~/.bashrc",
    ]
    for command in setup:
        assert f"```sh\n{command}\n```" in readme, command
    assert "```sh\nhc completion bash --install   # or: zsh, fish\n```" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for step in ('".[test]"', "-m pytest"):
        assert step in readme and step in ci, step
    (steps,) = [s for w, s in EXAMPLES if w.startswith("README.md")]
    assert len(steps) == 10  # a game in ten commands
    assert steps[0][0].startswith("hc game new ") and "examples/" in steps[0][0]


def test_every_command_has_an_example_in_the_pages():
    text = "\n".join(page.read_text("utf-8") for page in PAGES)
    for command in COMMANDS:
        assert f"hc {command}" in text, command


def _slug(heading: str) -> str:
    """A heading's anchor, as GitHub makes it."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_page_is_linked_and_every_link_leads_somewhere():
    linked: set[Path] = set()
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text("utf-8")):
            if target.startswith(("http://", "https://")):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            assert file.is_file(), (page, target)
            if page in (README, ROOT / "docs" / "README.md"):
                linked.add(file)
            if anchor:
                headings = re.findall(r"^#+ (.*)$", file.read_text("utf-8"), flags=re.M)
                assert anchor in {_slug(h) for h in headings}, (page, target)
    assert set(PAGES) - {README} <= linked, set(PAGES) - {README} - linked


def test_every_yaml_shown_is_a_file_hc_takes(hc, tmp_path):
    """A roster shown passes `hc roster check`, a house-rules file `hc rules check`; the house
    files shown whole are the files examples/ ships."""
    shown = [body for _, body in _blocks("yaml")]
    for i, body in enumerate(shown):
        path = tmp_path / f"shown-{i}.yaml"
        path.write_text(body, encoding="utf-8")
        check = "roster" if "\nsides:" in body else "rules"
        result = hc(check, "check", str(path))
        assert result.exit_code == 0, (body, result.output)
    for name in ("house.yaml", "dug-in.yaml"):
        assert (ROOT / "examples" / name).read_text(encoding="utf-8") in shown, name


def test_the_rule_set_of_your_own_is_the_toy_the_tests_register():
    """The entry point and the declaration shown are those of tests/plugin's hc_toy."""
    (toml,) = [body for _, body in _blocks("toml")]
    (python,) = [body for _, body in _blocks("python")]
    points = tomllib.loads(toml)["project"]["entry-points"]["hc.rulesets"]
    shipped = (ROOT / "tests" / "plugin" / "hc_toy-0.1.dist-info" / "entry_points.txt").read_text()
    assert [f"{k} = {v}" for k, v in points.items()] == shipped.splitlines()[1:]
    toy = ROOT / "tests" / "plugin" / "hc_toy" / "__init__.py"
    made: dict = {"__file__": str(toy)}
    exec(compile(python, "writing-a-rule-set.md", "exec"), made)
    import sys

    sys.path.insert(0, str(toy.parent.parent))
    try:
        from hc_toy import DECLARATION
    finally:
        sys.path.remove(str(toy.parent.parent))
    shown = made["DECLARATION"]
    assert (shown.name, shown.title, shown.data, shown.impl) == (
        DECLARATION.name,
        DECLARATION.title,
        DECLARATION.data,
        DECLARATION.impl,
    )
    names = [getattr(c, "name", c) for c in shown.commands]
    assert names == [getattr(c, "name", c) for c in DECLARATION.commands] == ["toss"]


def test_the_settings_line_chooses_the_game(hc, tmp_path):
    (line,) = [b.strip() for _, b in _blocks("sh") if "settings.toml" in b]
    run = subprocess.run(["bash", "-c", line], env={"HOME": str(tmp_path)}, capture_output=True)
    assert run.returncode == 0, run.stderr
    rolled = hc.json(
        "roll", "d6", "--seed", "1", env={"XDG_CONFIG_HOME": str(tmp_path / ".config")}
    )
    assert rolled["ruleset"] == "t2k"


def test_the_pages_and_the_help_name_shipped_files():
    """The files the pages and the help examples name from examples/ ship in it."""
    text = "\n".join(page.read_text("utf-8") for page in PAGES)
    named = set(re.findall(r"examples/[\w.-]+\.(?:yaml|jsonl)", text))
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


def test_the_sealed_roll_plays_between_two_players(hc, tmp_path, monkeypatch):
    """The two terminals of docs/luck-and-sealed-rolls.md, played by two players with folders
    of their own: each code a step prints is pasted into the next (the secrets are fresh each
    time, so the codes and the dice differ); every line is the page's, codes aside."""
    (block,) = [b for _, b in _blocks("text") if b.startswith("A$ ")]
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
        if command.startswith("hc seal ") and code.search(command):
            command = code.sub(told[command.split()[2]], command)
        result = hc(*shlex.split(command)[1:], env=env[who])
        assert result.exit_code == 0, (command, result.output)
        for sub, said in re.findall(r"hc seal (\w+) (\d+(?::[0-9a-f]+|:[oh])+)", result.stdout):
            told[sub] = said
        if command.startswith("hc seal open"):  # the dice of fresh secrets: another result
            assert result.stdout.splitlines()[1] == output.splitlines()[1], command
            continue
        assert code.sub("N:CODE", result.stdout) == code.sub("N:CODE", output), command


def test_the_sha256sum_lines_are_of_the_sealed_roll_shown():
    """What the sha256sum lines hash is the page's sealed roll: the commitment its join line
    sent, the hash of its sealing entry (the lines themselves run as every example does)."""
    (page, block) = next((p, b) for p, b in _blocks("console") if "sha256sum" in b)
    steps = _steps(block)
    joined = re.search(r"hc seal join 3:([0-9a-f]{12}):([0-9a-f]{32}):o:", page.read_text("utf-8"))
    assert joined and joined.group(2) == steps[0][1].strip()  # the commitment sent
    assert steps[1][0].split()[4].startswith(joined.group(1))  # the sealing entry's hash


def test_every_example_is_a_command_a_shell_reads_as_shown():
    """Each `$` line runs in bash as written: it parses (a `(` unquoted would not), and bash
    splits it into the words the page's test gives hc (a `*` or `?` unquoted, or a quote left
    open, would not)."""
    for _, steps in EXAMPLES:
        for command, _ in steps:
            if command.startswith("export ") or any(c in command for c in "|<$"):
                continue  # a pipe, a redirect or an expansion: run by the page's own test
            split = subprocess.run(
                ["bash", "-c", "words() { printf '%s\\0' \"$@\"; }; words " + command],
                capture_output=True, text=True, timeout=10, cwd=ROOT / "examples",
            )  # fmt: skip
            assert split.returncode == 0, (command, split.stderr)
            assert split.stdout.split("\0")[:-1] == shlex.split(command), command

#!/usr/bin/env python3
"""Two builds of hc, the same output: every command of the README's played sessions and of the
scripted games (bench/games/*-after.sh), every example of every rule set's commands with the
common options (and the errors of each kind) that rolls fixed dice (seeded, given dice, odds, or
an error), and those lines again as a batch
(with workers and with --jobs 1), each run by both builds in a fresh, identical environment.
stdout, stderr and the exit code are compared byte for byte; what differs is printed. A
receipt's hash (it covers a timestamp) and the temporary folder are the only things masked.

Usage: python3 bench/same_output.py OLD_HC NEW_HC   (e.g. a non-editable install of each)
"""

import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from hc_cli.plugin import registry  # noqa: E402


def _examples() -> list[tuple[str, list[str]]]:
    lines = []
    for name in registry.names():
        if name not in registry.BUILTIN:
            continue  # a rule set a test registers: its own tests run it
        for command in registry.get(name).commands.values():
            for example in command.examples:
                words = shlex.split(example)[1:]
                lines.append((name, [words[0], "--ruleset", name, *words[1:]]))
    return lines


VARIANTS = [
    [],
    ["--seed", "7"],
    ["--seed", "7", "--json"],
    ["--seed", "7", "-q"],
    ["--seed", "7", "--no-color"],
    ["--odds"],
    ["--odds", "--json"],
    ["--nope"],  # an option no command has
    ["--seed", "x"],  # a number that is not one
    ["--seed", "7", "--dice", "3"],  # two ways to roll
]

LINES = [words + extra for _, words in _examples() for extra in VARIANTS]
LINES += [
    ["roll", "2d6+1", "--seed", "3"],
    ["roll", "4d6kh3", "--odds"],
    ["roll", "d100", "--dice", "46", "--json"],
    ["roll", "2d6+", "--seed", "1"],  # a malformed expression
    ["roll", "--seed", "3", "--", "-4d6"],  # an expression after -- (a leading minus)
    ["roll", "--odds", "--json", "--", "{d6, d8}kh1"],
    ["roll", "--seed", "3", "--", "2d6", "3"],  # two words after --: typer's to refuse
    ["fire", "-w", "ingrav-ar", "-r", "14", "-t", "orc", "--seed", "1"],  # a misspelt name
    ["fire", "-w", "ingrave-ar", "-t", "orc", "--seed", "1"],  # a required option left out
    ["fire", "-w", "ingrave-ar", "-r", "-3", "-t", "orc"],  # out of bounds
    ["fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--dice", "12,34,56"],  # too many
    ["fire", "--ruleset", "rogue-trader", "--bs", "4", "-w", "bolt-gun", "-r", "10", "-t",
     "ork:3", "-t", "ork", "--dice", "4,4,1,1"],
    ["fire", "-w", "ingrave-ar", "-r", "1e1", "-t", "orc", "--seed", "1"],  # numbers as
    ["fire", "-w", "ingrave-ar", "-r", ".5E+1", "-t", "orc", "--seed", "1"],  # scripts write
    ["fire", "-w", "ingrave-ar", "-r", "14.", "-t", "orc", "--seed", "1"],  # them
    ["fire", "--ruleset=t2k", "--asset", "12", "--strength", "5", "-w", "m16a2", "-r", "30",
     "--shot", "burst", "--seed", "2", "--json"],
]  # fmt: skip


def request_of(words: list[str]) -> dict | None:
    """The batch request a resolving command line makes, read by hc's own command line (None:
    not a resolving command, or one it refuses)."""
    from hc_cli.cli.app import app  # noqa: TID251 - to turn command lines into requests

    try:
        root = app.make_context("hc", list(words))
        name, command, rest = app.resolve_command(root, [*root.protected_args, *root.args])
        read = command.make_context(name, rest, parent=root)
    except BaseException:  # a usage error, or help: no request
        return None
    ruleset = root.meta["hc.ruleset"][0]
    if name not in registry.get(ruleset).commands:
        return None
    request = {"command": name, "ruleset": ruleset}
    for key, value in read.params.items():
        given = read.get_parameter_source(key).name != "DEFAULT"
        if given and key not in ("json", "quiet", "no_color", "verbose", "ruleset"):
            request[key] = list(value) if isinstance(value, tuple) else value
    return request


def fresh() -> tuple[str, dict]:
    tmp = tempfile.mkdtemp()
    shutil.copytree(f"{ROOT}/examples", f"{tmp}/examples")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HC_")}
    env.update(COLUMNS="80", XDG_CONFIG_HOME=f"{tmp}/c", XDG_CACHE_HOME=f"{tmp}/k", NO_COLOR="1")
    return tmp, env


def session(hc: str, commands: list, stdin: str | None = None) -> list[tuple]:
    tmp, env = fresh()
    out = []
    for command in commands:
        if isinstance(command, str) and command.startswith("export "):
            name, _, value = command[len("export ") :].partition("=")
            env[name] = value
            continue
        words = shlex.split(command)[1:] if isinstance(command, str) else command
        run = subprocess.run(
            [hc, *words], cwd=tmp, env=env, capture_output=True, text=True, input=stdin
        )

        def mask(text: str) -> str:
            return re.sub(r"\b(\d+):[0-9a-f]{8}\b", r"\1:HASH", text.replace(tmp, "TMP"))

        shown = command if isinstance(command, str) else " ".join(command)
        out.append((shown, run.returncode, mask(run.stdout), mask(run.stderr)))
    shutil.rmtree(tmp)
    return out


def fixed(words: list[str]) -> bool:
    """A command line whose output does not depend on a random seed."""
    return any(w in words for w in ("--seed", "--odds", "--dice", "--nope", "x"))


def groups() -> list[tuple[str, list, str | None]]:
    found: list[tuple[str, list, str | None]] = []
    pages = ["README.md", *(f"docs/{name}" for name in sorted(os.listdir(f"{ROOT}/docs")))]
    readme = "".join(open(f"{ROOT}/{page}", encoding="utf-8").read() for page in pages)
    for block in re.findall(r"```sh-session\n(.*?)```", readme, flags=re.S):
        commands = [c.partition("\n")[0] for c in re.split(r"^\$ ", block, flags=re.M)[1:]]
        found.append(("README session", commands, None))
    for name in sorted(os.listdir(f"{ROOT}/bench/games")):
        if name.endswith("-after.sh"):
            with open(f"{ROOT}/bench/games/{name}") as script:
                commands = [line.strip() for line in script if line.startswith("hc ")]
            found.append((name, commands, None))
    lines = [words for words in LINES if fixed(words)]
    found.append(("command lines", lines, None))
    requests = []
    for words in lines:
        request = request_of(words)
        if request is None:
            continue
        for seed in range(3):
            if "dice" not in request and not request.get("odds"):
                request = {**request, "seed": request.get("seed", 0) + seed}
            requests.append(json.dumps(request))
    requests += ['{"command": "fire", "weapon": "ingrav-ar", "range": 14}', "[1]", "no json"]
    batch = "\n".join(requests) + "\n"
    found.append((f"batch of {len(requests)} lines", [["batch"], ["batch", "--jobs", "1"]], batch))
    return found


def main() -> int:
    old, new = sys.argv[1:3]
    same = differ = 0
    for label, commands, stdin in groups():
        for a, b in zip(session(old, commands, stdin), session(new, commands, stdin), strict=True):
            if a == b:
                same += 1
                continue
            differ += 1
            print(f"--- {label}: {a[0]}")
            for part, x, y in (
                ("exit", a[1], b[1]),
                ("stdout", a[2], b[2]),
                ("stderr", a[3], b[3]),
            ):
                if x != y:
                    print(f"  {part}:")
                    diff = difflib.unified_diff(
                        str(x).splitlines(True), str(y).splitlines(True), n=0
                    )
                    sys.stdout.writelines("    " + line for line in diff)
    print(f"{same} commands print the same bytes, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

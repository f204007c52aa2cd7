#!/usr/bin/env python3
"""Two builds of hc, the same output: every command of the README's played sessions and of the
scripted games (bench/games/*-after.sh), every command line of tests/test_two_ways_in.py that
rolls fixed dice (seeded, given dice, odds, or an error), and those lines again as a batch
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
    sys.path.insert(0, f"{ROOT}/tests")
    from test_two_ways_in import LINES

    from hc_cli.cli.direct import parse  # noqa: TID251 - to turn command lines into requests

    lines = [words for words in LINES if fixed(words)]
    found.append(("command lines", lines, None))
    requests = []
    for words in lines:
        parsed = parse(words, os.environ)
        if parsed is None or parsed[4] is not None:
            continue  # not a resolving command line
        command, ruleset, values, _, _ = parsed
        request = {"command": command, "ruleset": ruleset}
        for key, value in values.items():
            if key not in ("json", "quiet", "no_color", "verbose", "ruleset"):
                request[key] = list(value) if isinstance(value, tuple) else value
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

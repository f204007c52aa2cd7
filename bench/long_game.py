"""What the benchmarks share: hc found, an environment of its own, a game played once through
hc and its entries chained again into a game file as long as wanted, whole processes timed."""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time


def hc_command() -> str:
    return os.environ.get("HC") or shutil.which("hc") or "hc"


def bench_env(folder: str) -> dict:
    """The environment of a run: its cache and config in the folder, no game set."""
    env = {**os.environ, "XDG_CACHE_HOME": os.path.join(folder, "cache"),
           "XDG_CONFIG_HOME": folder}  # fmt: skip
    env.pop("HC_GAME", None)
    return env


def bench_args(
    doc: str, runs: int, sizes: list[int] | None = None, each: str = "measurement"
) -> argparse.Namespace:
    """A benchmark's command line: -n RUNS (of each measurement or command), then the sizes
    of the games where it measures several."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("-n", type=int, default=runs, help=f"runs of each {each}")
    if sizes is not None:
        parser.add_argument("sizes", type=int, nargs="*", default=sizes)
    return parser.parse_args()


def example(name: str) -> str:
    """The text of a file examples/ ships (the rosters the benchmarks and the tests share)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", name)
    with open(path, encoding="utf-8") as f:
        return f.read()


def play(folder: str, env: dict, roster: str, steps: list[list[str]]) -> list[dict]:
    """A game started from the roster and played through hc a step at a time: its entries,
    the roster's first, without their chaining (`seq`, `prev`)."""
    hc = hc_command()
    roster_path = os.path.join(folder, "roster.yaml")
    with open(roster_path, "w", encoding="utf-8") as f:
        f.write(roster)
    path = os.path.join(folder, "template.hcg")
    for step in [["game", "new", path, "--roster", roster_path], *steps]:
        subprocess.run([hc, *step], env={**env, "HC_GAME": path}, check=True,
                       capture_output=True)  # fmt: skip
    with open(path, encoding="utf-8") as f:
        entries = [json.loads(line) for line in f]
    return [{k: v for k, v in e.items() if k not in ("seq", "prev")} for e in entries]


def write_chained(path: str, entries) -> None:
    """The entries numbered and chained again, one line each, as a game file."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from hc_cli.log.chain import chain_hash, entry_line

    prev = None
    with open(path, "wb") as f:
        for seq, entry in enumerate(entries, 1):
            line = entry_line(seq, prev, entry, None)
            prev = chain_hash(line, None)
            f.write(line + b"\n")


def timed(args: list[str], env: dict, runs: int, before=None) -> float:
    """The median seconds of a whole process, `before` (if any) run ahead of each."""
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        subprocess.run(args, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)

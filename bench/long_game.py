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


def _misses(n: int, face: str) -> str:
    return ",".join([face] * n)


def _hc_move(ranges: tuple[int, int, int, int], morale: bool) -> list[list[str]]:
    """A move of High Crusade's Ambush at Karsk: the Orcs win the Initiative, every Fireteam
    fires and every shot misses; the first time fired at, each passes its Morale test."""
    boyz, ladz, team1, team2 = (str(r) for r in ranges)
    tests = [["morale", "fireteam-1", "--dice", "10"], ["morale", "fireteam-2", "--dice", "10"]]
    tested = [["morale", "boyz", "--dice", "10"], ["morale", "ladz", "--dice", "10"]]
    return [
        ["initiative", "--dice", "1,2"], ["game", "next"], ["game", "next"],
        ["fire", "boyz", "--at", "fireteam-1", "-r", boyz, "--dice", _misses(8, "99")],
        ["fire", "ladz", "--at", "fireteam-2", "-r", ladz, "--dice", _misses(6, "99")],
        *(tests if morale else []), ["game", "next"],
        ["fire", "fireteam-1", "--at", "boyz", "-r", team1, "--dice", _misses(5, "99")],
        ["fire", "fireteam-2", "--at", "ladz", "-r", team2, "--dice", _misses(5, "99")],
        *(tested if morale else []),
    ]  # fmt: skip


def _t2k_turns(ranges: tuple[int, int, int]) -> list[list[str]]:
    """Three action turns of Twilight: 2000's bridge at Kalisz: everyone fires and misses, then
    reloads (the belt in two actions) or passes."""
    near, far, third = (str(r) for r in ranges)
    miss = ["--dice", "20"]
    return [
        ["fire", "kowalski", "--at", "ivanov", "--range", near, *miss],
        ["fire", "ivanov", "--at", "kowalski", "--range", near, *miss],
        ["fire", "nguyen", "--at", "popov", "--range", far, *miss],
        ["fire", "kowalski", "--at", "popov", "--range", third, *miss],
        ["fire", "popov", "--at", "nguyen", "--range", far, *miss],
        ["reload", "kowalski"], ["reload", "ivanov"], ["reload", "nguyen"], ["game", "next"],
        ["reload", "popov"],
        ["game", "next"], ["game", "next"], ["reload", "nguyen"], ["game", "next"],
        ["game", "next"],
    ]  # fmt: skip


def _rt_turns(ranges: tuple[int, int]) -> list[list[str]]:
    """A turn pair of Rogue Trader's skirmish: each side's volley, every die a miss."""
    marines, boyz = (str(r) for r in ranges)
    return [
        ["fire", "marines", "--at", "boyz", "-r", marines, "--dice", _misses(5, "1")],
        ["game", "next"],
        ["fire", "boyz", "--at", "marines", "-r", boyz, "--dice", _misses(10, "1")],
        ["game", "next"],
    ]


# Each rule set's long game: its roster, the steps played once at its start, then a cycle that
# leaves the game as it found it (every shot a miss, every magazine full again), so that its
# entries repeated are a game hc itself would have written; each cycle fires at two or three
# ranges, so the game's actions are a few questions of odds, not one.
LONG_GAMES: dict[str, tuple[str, list[list[str]], list[list[str]]]] = {
    "high-crusade": (
        "high-crusade-roster.yaml",
        _hc_move((30, 20, 30, 30), morale=True),
        _hc_move((14, 26, 22, 10), morale=False) + _hc_move((30, 20, 30, 30), morale=False),
    ),
    "t2k": (
        "t2k-roster.yaml",
        [["initiative", "--seed", "1"]],
        _t2k_turns((40, 60, 50)) + _t2k_turns((90, 120, 30)),
    ),
    "rogue-trader": (
        "rogue-trader-skirmish.yaml",
        [["initiative", "--dice", "1"]],
        _rt_turns((10, 10)) + _rt_turns((20, 6)),
    ),
}


def long_game(folder: str, env: dict, ruleset: str, size: int, path: str) -> None:
    """A game of `ruleset` of `size` entries at `path` (LONG_GAMES): its start and one cycle
    played through hc, the cycle's entries then repeated, chained, cut at `size`."""
    roster, head, cycle = LONG_GAMES[ruleset]
    games = []
    for steps in (head, head + cycle):
        games.append(os.path.join(folder, f"{ruleset}-{len(games)}"))
        os.makedirs(games[-1])
        games[-1] = play(games[-1], env, example(roster), steps)
    started, played = games
    again = played[len(started) :]
    write_chained(path, (played + again * (size // len(again)))[:size])

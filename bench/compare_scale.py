#!/usr/bin/env python3
"""`hc compare --range 14` of High Crusade rosters of 50, 200 and 500 units (half a side, the
Free Companies firing): the whole roster (refused at once past the bound it estimates), and its
first 5 and 25 Fireteams' shots (--unit), in seconds of a whole process and in pairs compared.

Usage: python3 bench/compare_scale.py [-n RUNS] [SIZES...]   (hc on PATH, or HC=path)
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from long_game import bench_args, bench_env, hc_command

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from games_setup import army  # noqa: E402  (the roster the compare tests play)


def main() -> None:
    a = bench_args(__doc__, 1, [50, 200, 500], each="command")
    hc = hc_command()
    with tempfile.TemporaryDirectory() as folder:
        env = bench_env(folder)
        for units in a.sizes:
            path, roster_path = (os.path.join(folder, f"g{units}.{x}") for x in ("hcg", "yaml"))
            with open(roster_path, "w", encoding="utf-8") as f:
                f.write(army(units))
            env["HC_GAME"] = path
            for step in (["game", "new", path, "--roster", roster_path],
                         ["initiative", "--dice", "9,1"]):  # fmt: skip
                subprocess.run([hc, *step], env=env, check=True, capture_output=True)
            for firing in (None, 5, 25):
                chosen = [] if firing is None else [
                    w for i in range(min(firing, units // 2)) for w in ("--unit", f"fireteam-{i}")
                ]  # fmt: skip
                args = [hc, "compare", "--range", "14", *chosen]
                times = []
                for _ in range(a.n):
                    began = time.monotonic()
                    done = subprocess.run(args, env=env, capture_output=True, text=True)
                    times.append(time.monotonic() - began)
                seconds = statistics.median(times)
                pairs = (
                    (units // 2 if firing is None else min(firing, units // 2))
                    * (units - units // 2)
                    * (2 if firing is None else 1)
                )
                said = "refused" if done.returncode == 2 else f"exit {done.returncode}"
                print(f"{units} units, {firing or 'every'} firing: {pairs:,} pairs, "
                      f"{seconds:.2f} s ({said if done.returncode else 'answered'})")  # fmt: skip


if __name__ == "__main__":
    main()

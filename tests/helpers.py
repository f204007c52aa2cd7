"""What several test files share: hc run as a process, a clean-output check, and the command
lines and values the hostile-input tests use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import typer.testing

FIRE = {"command": "fire", "weapon": "ingrave-ar", "range": 14, "target": "orc"}
FIRE_ARGS = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc")
NINES = "9" * 5000
RT = ("--ruleset", "rogue-trader")
T2K = ("--ruleset", "t2k")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# Five space marines with bolt guns against ten orks: the Rogue Trader game the tests of luck,
# undo, sealed rolls and compare play (hit 2+ at short range, wound 4+, no save: 5/12 a shot).
RT_SKIRMISH = (EXAMPLES / "rogue-trader-skirmish.yaml").read_text(encoding="utf-8")
# A Fireteam of five crusaders with ingrave-ARs against eight orcs with bolt guns: the High
# Crusade game of the game tests and the benchmarks.
HC_SKIRMISH = (EXAMPLES / "high-crusade-skirmish.yaml").read_text(encoding="utf-8")


class CliRunner(typer.testing.CliRunner):
    """typer's test runner for hc's command line, which is a click group generated from the rule
    sets' declarations rather than a `typer.Typer` (typer's `invoke` takes only those). It uses
    the runner's public `isolation` and `Result`, as `invoke` does, and nothing private."""

    def invoke(self, cli, args=None, input=None, env=None, catch_exceptions=True, **extra):
        exception: BaseException | None = None
        exc_info = None
        with self.isolation(input=input, env=env) as (stdout, stderr, output):
            prog_name = extra.pop("prog_name", None) or getattr(cli, "name", None) or "hc"
            try:
                cli.main(args=list(args or ()), prog_name=prog_name, **extra)
                code = 0
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
                exception = stop if code else None
                exc_info = sys.exc_info()
            except Exception as error:
                if not catch_exceptions:
                    raise
                code, exception, exc_info = 1, error, sys.exc_info()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                printed = stdout.getvalue(), stderr.getvalue(), output.getvalue()
        return typer.testing.Result(
            runner=self,
            stdout_bytes=printed[0],
            stderr_bytes=printed[1],
            output_bytes=printed[2],
            return_value=None,
            exit_code=code,
            exception=exception,
            exc_info=exc_info,
        )


def run_hc(*args: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    """`python -m hc_cli ARGS` as a process of its own, with this environment and `env`."""
    return subprocess.run(
        [sys.executable, "-m", "hc_cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        **kwargs,
    )


def clean(result) -> None:
    """No traceback in what a run printed."""
    output = result.output if hasattr(result, "output") else result.stdout + result.stderr
    assert "Traceback" not in output, output[-2000:]


def binomial(n: int, p):
    """P(k successes of n), each with chance p (a Fraction): worked by hand, not by hc."""
    import math

    return {k: math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def tab(env: dict[str, str]) -> str:
    """What hc answers the TAB press a shell describes in `env` (_HC_COMPLETE, COMP_WORDS ...),
    run in-process."""
    from hc_cli.cli.app import app

    return CliRunner().invoke(app, [], env=env, prog_name="hc").stdout

"""Every option of every command of every rule set, fed nan, inf, huge, negative, empty,
very long and wrong-type values: hc answers 0 or 2, never a traceback. HC_EXAMPLES raises the
count for a longer hunt than CI's."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hc_cli import registry
from hc_cli.cli import app

runner = CliRunner()
NASTY = st.sampled_from(
    ["nan", "inf", "-inf", "1e308", "9223372036854775808", "-5", "0", "", "x" * 300, "🂡",
     "3.5", "-0", "1,2", "--", "10" * 40]
)  # fmt: skip
VALUES = st.one_of(NASTY, st.text(max_size=12), st.integers(-(10**6), 10**6).map(str))


def _commands():
    for name in ("high-crusade", "rogue-trader", "t2k"):
        for command in registry.get(name).commands.values():
            yield name, command


@pytest.mark.parametrize(
    ("ruleset", "command"), list(_commands()), ids=lambda x: getattr(x, "name", x)
)
def test_no_option_value_crashes(ruleset, command):
    options = [o for o in command.options if not o.positional]

    @settings(
        max_examples=int(os.environ.get("HC_EXAMPLES", "60")),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        chosen=st.lists(st.tuples(st.sampled_from(options), VALUES), min_size=1, max_size=4),
        odds=st.booleans(),
    )
    def run(chosen, odds):
        args = [command.name, "--ruleset", ruleset]
        for option, value in chosen:
            args += [option.flags[0]] if option.kind == "flag" else [option.flags[0], value]
        args += ["--odds"] if odds else ["--seed", "1"]
        result = runner.invoke(app, args)
        assert result.exit_code in (0, 2), (args, result.exit_code, result.output)
        assert "Traceback" not in result.output, args
        if result.exception is not None:
            assert isinstance(result.exception, SystemExit), (args, repr(result.exception))

    run()

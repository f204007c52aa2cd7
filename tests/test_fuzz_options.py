"""Every option of every command of every rule set, fed nan, inf, huge, negative, empty,
very long and wrong-type values: hc answers 0 or 2, never a traceback. HC_EXAMPLES raises the
count for a longer hunt than CI's."""

from __future__ import annotations

import os

import pytest
from helpers import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hc_cli.cli.app import app
from hc_cli.plugin import registry

runner = CliRunner()
NASTY = st.sampled_from(
    ["nan", "inf", "-inf", "1e308", "9223372036854775808", "-5", "0", "", "x" * 300, "🂡",
     "3.5", "-0", "1,2", "--", "10" * 40, "²", "٣", "1²", "A:٣", "d6+" + "9" * 5000,
     "9" * 5000, "-" + "9" * 5000, "2d6>=" + "9" * 5000, "X:" + "9" * 5000, "１２"]
)  # fmt: skip
# Numbers that only look like numbers, inside otherwise plain text: Unicode digits of every
# script, and runs of digits past any game's size.
LOOK_ALIKE = st.one_of(
    st.characters(categories=["Nd", "No"]).map(str),
    st.integers(4000, 6000).map(lambda n: "9" * n),
)
VALUES = st.one_of(
    NASTY,
    st.text(max_size=12),
    st.integers(-(10**6), 10**6).map(str),
    st.tuples(st.sampled_from(["", "d6+", "A:", "Near:", "2d"]), LOOK_ALIKE).map("".join),
)


def _commands():
    for name in ("high-crusade", "rogue-trader", "t2k"):
        for command in registry.get(name).commands.values():
            yield name, command


# Health checks on how hypothesis draws (long values are the point here), not on hc.
FUZZ = settings(
    max_examples=int(os.environ.get("HC_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


@pytest.mark.parametrize(
    ("ruleset", "command"), list(_commands()), ids=lambda x: getattr(x, "name", x)
)
def test_no_option_value_crashes(ruleset, command):
    options = [o for o in command.options if not o.positional]
    if not options:  # a command with no options of its own (hc hide): as it is, and asked odds
        for extra in (["--seed", "1"], ["--odds"]):
            result = runner.invoke(app, [command.name, "--ruleset", ruleset, *extra])
            assert result.exit_code in (0, 2) and "Traceback" not in result.output
        return

    @FUZZ
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


BATCH_FIELDS = ["weapon", "range", "target", "shots", "mod", "dice", "seed", "expression", "df",
                "damage", "rof", "char", "zone", "chance"]  # fmt: skip
JSON_VALUES = st.one_of(
    VALUES,
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False),
    st.lists(VALUES, max_size=3),
    st.booleans(),
    st.none(),
)


@FUZZ
@given(
    lines=st.lists(
        st.tuples(
            st.sampled_from(["fire", "roll", "morale", "initiative"]),
            st.sampled_from(["high-crusade", "rogue-trader", "t2k"]),
            st.dictionaries(st.sampled_from(BATCH_FIELDS), JSON_VALUES, max_size=4),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_no_batch_line_stops_the_batch(lines):
    """Every line of a batch, however odd its numbers, is answered in order: an error line or
    a result, never a stopped batch."""
    import json

    text = "".join(
        json.dumps({"command": command, "ruleset": ruleset, **fields}) + "\n"
        for command, ruleset, fields in lines
    )
    result = runner.invoke(app, ["batch", "--jobs", "1"], input=text)
    assert result.exit_code in (0, 2), result.output[-2000:]
    assert "Traceback" not in result.output
    answers = [json.loads(line) for line in result.stdout.split("\n")[:-1]]  # JSON Lines: \n
    assert [a["line"] for a in answers] == list(range(1, len(lines) + 1))

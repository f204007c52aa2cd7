"""One grammar (issue 26, item 5): every command named whole on its usage line, the same usage
line on a usage error as in the help, -q on every command, --game wherever --ruleset goes, one
error for a game in force that cannot be read, no dice options on a command that rolls none."""

from __future__ import annotations

import pytest

from hc_cli import registry
from hc_cli.shared_commands import SHARED_COMMANDS


def _every_command() -> list[tuple[str, list[str]]]:
    """(rule set, the words that call it) for every command a player can call."""
    found = []
    for ruleset in ("high-crusade", "rogue-trader", "t2k"):
        for name in registry.get(ruleset).commands:
            found.append((ruleset, [name]))
    for shared in SHARED_COMMANDS:
        for words in [[shared.name, sub.name] for sub in shared.sub] or [[shared.name]]:
            found.append(("high-crusade", words))
    return found


@pytest.mark.parametrize(("ruleset", "words"), _every_command())
def test_the_usage_line_names_the_command_whole_in_help_and_error(hc, ruleset, words):
    helped = hc("--ruleset", ruleset, *words, "--help")
    assert helped.exit_code == 0
    usage = helped.stdout.splitlines()[0]
    assert usage.startswith(f"Usage: hc {' '.join(words)} [OPTIONS]"), usage
    assert "{" not in usage
    wrong = hc("--ruleset", ruleset, *words, "--no-such-option")
    assert wrong.exit_code == 2
    assert wrong.stderr.splitlines()[0] == usage


def test_a_missing_argument_prints_the_help_s_usage(hc):
    missing = hc("game", "new", "x.hcg")
    assert missing.exit_code == 2
    assert missing.stderr.splitlines()[0] == "Usage: hc game new [OPTIONS] FILE"
    missing = hc("rules", "check")
    assert missing.stderr.splitlines()[0] == "Usage: hc rules check [OPTIONS] FILE"

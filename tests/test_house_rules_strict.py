"""House rules checked as strictly as they are used."""

from __future__ import annotations

import pytest
from helpers import NINES, clean

# ---------------------------------------------------------------------------------------------
# 7. House rules checked as strictly as they are used


@pytest.mark.parametrize(
    ("ruleset", "text", "key"),
    [
        ("t2k", "rules:\n  tie-die: {value: 1}", "rules.tie-die.value"),
        ("t2k", "rules:\n  tie-die: {value: 0}", "rules.tie-die.value"),
        ("t2k", "rules:\n  task-die: {value: 0}", "rules.task-die.value"),
        ("t2k", "rules:\n  hit-location-die: {value: 1000000}", "rules.hit-location-die.value"),
        ("t2k", "rules:\n  hit-location-die: {value: 12}", "rules.hit-location-die.value"),
        ("rogue-trader", "rules:\n  difficult-ground-divisor: {value: 0}",
         "rules.difficult-ground-divisor.value"),
        ("rogue-trader", "charts:\n  deviation: {radii: []}", "charts.deviation.radii"),
        ("high-crusade", "rules:\n  initiative-die: {value: 1}", "rules.initiative-die.value"),
    ],
)  # fmt: skip
def test_house_rules_that_would_loop_or_divide_by_zero(hc, house, ruleset, text, key):
    path = house(f"ruleset: {ruleset}\n{text}\n")
    err = hc.error("rules", "check", path)
    assert f"house.yaml:3: {key}" in err  # the house file, its line and its key


@pytest.mark.parametrize(
    "text", ["ruleset: [high-crusade]\n", "ruleset: high-crusade\nrules:\n  morale-pass: {value: "
             + NINES + "}\n"]
)  # fmt: skip
def test_rules_check_of_odd_values(hc, house, text):
    path = house(text)
    for args in (("rules", "check", path), ("morale", "--fired-at", "--rules", path)):
        clean(hc(*args))
        assert hc(*args).exit_code == 2

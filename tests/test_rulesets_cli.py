"""One game at a time: each rule set owns its commands, options, units, help and completion;
rule sets are plugins; the rule set in force comes from the flag, the environment, the
settings file or the default, in that order."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hc_cli.plugin import registry

PLUGIN = Path(__file__).resolve().parent / "plugin"
UNIT_WORD = {"high-crusade": "inches", "rogue-trader": "inches", "t2k": "metres"}
OTHER_UNIT = {"inches": "metres", "metres": "inches"}


def _help_flags(text: str) -> set[str]:
    options = text.split("Options:", 1)[1]
    return set(re.findall(r"(?m)^\s+(?:(-\w), )?(--[\w-]+)", options)[0:0]) | {
        flag
        for short, long in re.findall(r"(?m)^\s{2}(?:(-\w), )?(--[\w-]+)", options)
        for flag in (short, long)
        if flag
    }


def _every_command():
    for name in ("high-crusade", "rogue-trader", "t2k"):
        for command in registry.get(name).commands.values():
            yield name, command


@pytest.mark.parametrize(
    ("ruleset", "command"), list(_every_command()), ids=lambda x: getattr(x, "name", x)
)
def test_help_shows_only_the_rule_sets_own_options_with_units(hc, ruleset, command):
    from hc_cli.plugin.common_options import common_options

    result = hc(command.name, "--ruleset", ruleset, "--help")
    assert result.exit_code == 0, result.output
    text = result.stdout
    declared = {f for o in (*command.options, *common_options(command)) for f in o.flags}
    assert _help_flags(text) == declared | {"-h", "--help"}
    unit = UNIT_WORD[ruleset]
    for option in command.options:
        if option.unit in ("inches", "metres"):
            assert option.unit == unit
    if any(o.unit == unit for o in command.options):
        assert f"({unit})" in text and unit.upper() in text
    assert OTHER_UNIT[unit] not in text
    # Examples are this rule set's, carry the --ruleset that chose it, and are never broken
    # inside a word: each wrapped line ends at a whole word with a continuation.
    joined = " ".join(text.replace("\\\n", " ").split())
    for example in command.examples:
        words = example.split()
        expected = " ".join([*words[:2], "--ruleset", ruleset, *words[2:]])
        assert "Example: " + expected in joined
    for line in text.splitlines():
        assert len(line) <= 100


def test_help_without_the_flag_uses_the_environment(hc):
    text = hc("fire --help", env={"HC_RULESET": "t2k"}).stdout
    assert "--asset" in text and "--firer" not in text and "--df" not in text
    assert "Example: hc fire --asset 12" in text


def test_main_help_lists_rule_sets_and_their_commands(hc):
    text = " ".join(hc("--help").stdout.split())
    assert "Rule sets (in force: high-crusade, from default)" in text
    assert "rogue-trader Warhammer 40,000: Rogue Trader (1987)" in text
    assert "Commands: fire, initiative, deviate, move" in text
    assert "Commands: fire, initiative, deviate" in text
    assert "--install-completion" not in text


def test_version_says_the_rule_set_and_where_it_came_from(hc, clean_environment):
    out = hc("--version").stdout
    assert "rule set: high-crusade (from default)" in out
    settings = clean_environment / "config" / "hc" / "settings.toml"
    assert f"settings file: {settings}" in out
    settings.parent.mkdir(parents=True)
    settings.write_text('ruleset = "rogue-trader"\n')
    assert f"rule set: rogue-trader (from settings file {settings})" in hc("--version").stdout
    env = {"HC_RULESET": "t2k"}
    assert "rule set: t2k (from HC_RULESET)" in hc("--version", env=env).stdout
    flagged = hc("--ruleset=high-crusade --version", env=env).stdout
    assert "rule set: high-crusade (from --ruleset)" in flagged


def test_precedence_flag_environment_settings_default(hc, clean_environment):
    settings = clean_environment / "config" / "hc" / "settings.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text('ruleset = "t2k"\n')
    deviate = ("deviate", "--range", "30", "--band", "long", "--seed", "1")
    assert hc.json(*deviate)["ruleset"] == "t2k"
    roll = ("roll", "d6", "--seed", "1")
    assert hc.json(*roll, env={"HC_RULESET": "rogue-trader"})["ruleset"] == "rogue-trader"
    assert (
        hc.json("roll d6 --ruleset=high-crusade", env={"HC_RULESET": "t2k"})["ruleset"]
        == "high-crusade"
    )
    settings.write_text("ruleset = 7\n")
    assert 'ruleset = "t2k"' in hc.error("roll d6")


def test_a_settings_file_is_not_read_as_house_rules(hc, clean_environment):
    settings = clean_environment / "config" / "hc" / "settings.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text('ruleset = "high-crusade"\n')
    files = hc.json("tables weapons")["files"]
    assert "weapons.yaml" in files and not any("settings" in f for f in files)


def test_a_command_the_rule_set_lacks_names_those_that_have_it(hc):
    err = hc.error("deviate --range 8")
    assert "high-crusade has no 'deviate' command" in err
    assert "rogue-trader and t2k have it" in err and "--ruleset rogue-trader" in err
    assert "No such command 'nonsense'" in hc.error("nonsense")


def test_melee_without_a_defender_is_refused(hc):
    err = hc.error("melee --attacker orc")
    assert "--defender" in err


def test_distances_carry_their_unit(hc):
    hc_fire = hc("fire -w ingrave-ar -r 14 -t orc --seed 1").stdout
    assert 'range 14"' in hc_fire
    t2k = hc(
        "fire",
        "--ruleset",
        "t2k",
        "--asset",
        "12",
        "--strength",
        "5",
        "-w",
        "m16a2",
        "-r",
        "85",
        "--seed",
        "1",
    )
    assert "range 85 m" in t2k.stdout and "bands short 65 m, medium 130 m" in t2k.stdout
    rt = hc("move --ruleset rogue-trader --m 4 --difficult 1").stdout
    assert 'm 4"' in rt and 'difficult 1"' in rt


# ---------------------------------------------------------------------------------------------
# A rule set from outside: registered, listed, run, completed, with no shared file edited


def _with_plugin(
    *args: str, env: dict[str, str] | None = None, cwd: Path
) -> subprocess.CompletedProcess:
    full = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(PLUGIN), os.environ.get("PYTHONPATH", "")]),
        **(env or {}),
    }
    return subprocess.run(
        [sys.executable, "-m", "hc_cli", *args], capture_output=True, text=True, env=full, cwd=cwd
    )


def test_a_plugin_rule_set_registers_runs_and_completes(tmp_path):
    listed = _with_plugin("--help", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "toy" in listed.stdout and "Toy: toss a coin. Commands: toss" in " ".join(
        listed.stdout.split()
    )
    run = _with_plugin(
        "toss", "--ruleset", "toy", "--coin", "penny", "--seed", "3", "--json", cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["ruleset"] == "toy" and out["outcome"] in ("heads", "tails")
    assert out["outcome"] == ("heads" if out["rolls"][0]["value"] <= 3 else "tails")
    odds = _with_plugin(
        "--ruleset", "toy", "toss", "--coin", "loaded-die", "--odds", "--json", cwd=tmp_path
    )
    assert json.loads(odds.stdout)["odds_exact"] == {"heads": "5/6", "tails": "1/6"}
    helped = _with_plugin("toss", "--help", env={"HC_RULESET": "toy"}, cwd=tmp_path)
    assert (
        "--coin" in helped.stdout
        and "(inches)" in helped.stdout
        and "--weapon" not in helped.stdout
    )
    tab = _with_plugin(
        env={
            "_HC_COMPLETE": "complete_bash",
            "COMP_WORDS": "hc toss --ruleset toy --coin ",
            "COMP_CWORD": "5",
        },
        cwd=tmp_path,
    )
    assert tab.stdout.split() == ["loaded-die", "penny"]
    tables = _with_plugin("tables", "--ruleset", "toy", "--json", cwd=tmp_path)
    assert set(json.loads(tables.stdout)["tables"]["coins"]) == {"penny", "loaded-die"}
    missing = _with_plugin("fire", "--ruleset", "toy", cwd=tmp_path)
    assert missing.returncode == 2 and "toy has no 'fire' command" in missing.stderr


def test_a_plugin_rule_set_keeps_a_game_of_its_own(tmp_path):
    """A third-party rule set declares its roster and its game's fold (`GAME`) beside its
    commands; the shared game commands keep it, untouched."""
    (tmp_path / "roster.yaml").write_text(
        "ruleset: toy\nsides:\n  Ann: {ann: {coin: loaded-die}}\n  Bob: {bob: {coin: penny}}\n",
        encoding="utf-8",
    )
    checked = _with_plugin("roster", "check", "roster.yaml", cwd=tmp_path)
    assert checked.returncode == 0 and "a valid roster for toy" in checked.stdout
    assert (
        _with_plugin("game", "new", "t.hcg", "--roster", "roster.yaml", cwd=tmp_path).returncode
        == 0
    )
    env = {"HC_GAME": "t.hcg"}
    for dice in ("1", "6", "2"):  # the loaded die: heads on 1..5
        tossed = _with_plugin("toss", "ann", "--dice", dice, "--json", env=env, cwd=tmp_path)
        assert tossed.returncode == 0, tossed.stderr
    status = json.loads(_with_plugin("status", "--json", env=env, cwd=tmp_path).stdout)
    assert status["sides"]["Ann"] == [{"name": "ann", "coin": "loaded-die", "heads": 2}]
    assert _with_plugin("replay", "t.hcg", cwd=tmp_path).returncode == 0


def test_declared_conflicts_are_refused(hc):
    t2k = ("fire", "--ruleset", "t2k", "--weapon", "m16a2", "--range", "30", "--strength", "5")
    err = hc.error(*t2k, "--asset", "12", "--braced", "--two-weapons")
    assert "--braced and --two-weapons do not go together" in err
    err = hc.error(*t2k, "--asset", "12", "--skill", "6")
    assert "--asset and --skill do not go together" in err

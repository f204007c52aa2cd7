"""TAB completion: the fast path (no typer) answers exactly as the full app does, offers the
options and table values of the rule set in force (house rules included), and nothing of
another game."""

from __future__ import annotations

import os
import sys

import pytest
from helpers import CliRunner

from hc_cli.cli.app import app
from hc_cli.cli.complete import answer

LINES = [
    "hc ",
    "hc f",
    "hc -",
    "hc --",
    "hc fire -",
    "hc fire --w",
    "hc fire --weapon ",
    "hc fire --weapon i",
    "hc fire --weapon ingrave-ar --",
    "hc fire -w x --range 3 --",
    "hc fire --mod ",
    "hc fire --mod t",
    "hc melee --mod ",
    "hc morale --mod ",
    "hc initiative --mod ",
    "hc rally --troop c",
    "hc melee --attacker-weapon 4",
    "hc fire --ruleset rogue-trader --target ",
    "hc fire --ruleset rogue-trader --armour ",
    "hc fire --ruleset rogue-trader --mod s",
    "hc fire --ruleset t2k --weapon ",
    "hc fire --ruleset t2k --shot ",
    "hc fire --ruleset t2k --movement t",
    "hc deviate --ruleset rogue-trader --weapon ",
    "hc fire --ruleset ",
    "hc fire --ruleset r",
    "hc fire --target crusader --t",
    "hc fire --json --j",
    "hc roll ",
    "hc tables ",
    "hc fire --weapon=ing",
    "hc fire --template ",
    "hc fire --weapon ING",
    "hc fire --ruleset nope --weapon ",
    "hc fire --rules HOUSE --weapon l",
    "hc fire --mod -",
    "hc initiative --ruleset t2k --ch",
    "hc fire --ruleset t2k --s",
    "hc initiative --ruleset t2k --",
    "hc move --ruleset rogue-trader --",
    "hc reload --ruleset t2k --",
    "hc hide --ruleset rogue-trader -",
    "hc fire --we",
    "hc fire --ruleset=rogue-trader --weapon ",
    "hc --ruleset t2k fire --weapon ",
    "hc tables ",
    "hc tables --ruleset t2k ",
    "hc tables w",
    "hc --ruleset ",
    "hc --game ",
    "hc --game none ",
    "hc --game none in",
    "hc --game=none fire --",
    "hc --game none --ruleset t2k fire --weapon m",
    "hc completion ",
    "hc deviate --ruleset rogue-trader --",
    "hc move --ruleset rogue-trader --armour ",
]


@pytest.fixture
def lines(house):
    path = house(
        "ruleset: high-crusade\nweapons:\n  laser-carbine:\n    bands:\n"
        "      - {up_to: 10, chance: 80, penetration: 5}\n"
    )
    return [line.replace("HOUSE", path) for line in LINES]


def _env(shell: str, line: str) -> dict[str, str]:
    if shell == "bash":
        words = line.split()
        cword = len(words) if line.endswith(" ") else len(words) - 1
        return {"_HC_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    env = {"_HC_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": line}
    if shell == "fish":
        env["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    return env


def _help_last(text: str) -> str:
    """Click lists -h and --help in an order that changes from run to run (it keeps them in a
    set): compare them in a fixed order at the end, every other line in place."""
    lines = text.split("\n")
    is_help = [
        any(
            line.removeprefix("_arguments '*: :((").startswith(p)
            for p in ("-h", "--help", '"-h"', '"--help"')
        )
        for line in lines
    ]
    helps = sorted(line.rstrip(")'") for line, h in zip(lines, is_help, strict=True) if h)
    return "\n".join([line for line, h in zip(lines, is_help, strict=True) if not h] + helps)


def _full_app(env: dict[str, str]) -> tuple[str, int]:
    # typer passes zsh and fish help through a rich console, which wraps it at the terminal's
    # width; the fast path keeps each help whole, so compare against a console wide enough.
    wide = {**env, "COLUMNS": "10000", "TERMINAL_WIDTH": "10000"}
    result = CliRunner().invoke(app, [], env=wide, prog_name="hc")
    return _help_last(result.stdout), result.exit_code


def _fast(env: dict[str, str]) -> tuple[str, int]:
    outcome = answer(env)
    assert outcome is not None, env
    text, code = outcome
    return _help_last("" if text is None else text + "\n"), code


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_fast_path_answers_as_the_full_app(lines, shell):
    for line in lines:
        env = _env(shell, line)
        assert _fast(env) == _full_app(env), line


def test_fish_is_args(lines):
    for line in lines[:12]:
        env = {**_env("fish", line), "_TYPER_COMPLETE_FISH_ACTION": "is-args"}
        assert _fast(env)[1] == _full_app(env)[1], line


def test_weapon_names_complete_from_the_tables_and_house_rules(house):
    path = house(
        "ruleset: high-crusade\nweapons:\n  laser-carbine:\n    bands:\n"
        "      - {up_to: 10, chance: 80, penetration: 5}\n"
    )
    bundled = _fast(_env("bash", "hc fire --weapon ing"))[0].split()
    assert bundled == ["ingrave-ar"]
    with_house = _fast(_env("bash", f"hc fire --rules {path} --weapon l"))[0].split()
    assert with_house == ["laser-carbine"]


def test_house_rules_from_the_environment_and_a_changed_file(house, monkeypatch):
    path = house(
        "ruleset: high-crusade\nweapons:\n  laser-carbine:\n    bands:\n"
        "      - {up_to: 10, chance: 80, penetration: 5}\n"
    )
    monkeypatch.setenv("HC_RULES", path)
    assert _fast(_env("bash", "hc fire --weapon la"))[0].split() == ["laser-carbine"]
    import os
    from pathlib import Path

    Path(path).write_text(
        "ruleset: high-crusade\nweapons:\n  lance:\n    bands:\n"
        "      - {up_to: 10, chance: 80, penetration: 5}\n"
    )
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert _fast(_env("bash", "hc fire --weapon la"))[0].split() == ["lance"]


def test_the_fast_path_imports_no_typer(tmp_path):
    import json
    import os
    import subprocess
    import sys

    code = (
        "import os, sys; from hc_cli.cli.complete import answer; print(answer(os.environ)); "
        "print([m for m in sys.modules if m.split('.')[0] in ('typer', 'rich', 'yaml')])"
    )
    env = {**os.environ, **_env("bash", "hc fire --weapon ing")}
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert "ingrave-ar" in first.stdout and "ingrave-ar" in second.stdout
    assert json.loads(second.stdout.splitlines()[1].replace("'", '"')) == []


def _bash(line: str, env: dict[str, str] | None = None) -> list[str]:
    return _fast({**os.environ, **(env or {}), **_env("bash", line)})[0].split()


def test_only_the_rule_set_in_force_is_offered():
    """The cases of the issue: another game's options are never offered."""
    t2k_s = _bash("hc fire --ruleset t2k --s")
    assert set(t2k_s) == {
        "--skill",
        "--strength",
        "--shot",
        "--shots",
        "--scope",
        "--short-range",
        "--seed",
        "--sealed",
    }
    for foreign in ("--save", "--save-mod", "--short", "--size", "--soft-cover"):
        assert foreign not in t2k_s
    t2k_initiative = _bash("hc initiative --ruleset t2k --")
    assert "--char" in t2k_initiative
    assert not {"--side", "--mod", "--second-mod"} & set(t2k_initiative)
    assert _bash("hc fire --we") == ["--weapon"]  # High Crusade: no --weapon-type, no --weight


def test_the_ruleset_in_any_form_decides_the_values(monkeypatch, clean_environment):
    rt_weapons = _bash("hc fire --ruleset rogue-trader --weapon ")
    assert "bolt-gun" in rt_weapons and "ingrave-ar" not in rt_weapons
    assert _bash("hc fire --ruleset=rogue-trader --weapon ") == rt_weapons
    assert _bash("hc --ruleset rogue-trader fire --weapon ") == rt_weapons
    assert _bash("hc fire --weapon ", {"HC_RULESET": "rogue-trader"}) == rt_weapons
    settings = clean_environment / "config" / "hc" / "settings.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text('ruleset = "rogue-trader"\n')
    assert _bash("hc fire --weapon ") == rt_weapons
    assert _bash("hc fire --weapon ", {"HC_RULESET": "t2k"}) == _bash(
        "hc fire --ruleset t2k --weapon "
    )


def test_tables_complete_table_names(house):
    assert set(_bash("hc tables ")) == {
        "weapons",
        "troops",
        "modifiers",
        "templates",
        "rules",
        "readings",
        "orders",
    }
    t2k = _bash("hc tables --ruleset t2k ")
    assert "combat" not in t2k and "weapons" in t2k and "movement" in t2k
    assert _bash("hc tables weapons ") == []


@pytest.mark.parametrize(
    ("line", "offered"),
    [
        ("hc game ", {"new", "next", "rules", "export"}),
        ("hc game ne", {"new", "next"}),
        ("hc roster ", {"check"}),
    ],
)
def test_a_sub_group_completes_in_the_installed_program(line, offered):
    """What the fast path leaves (the sub-commands of a group) is click's to answer in the
    very process a shell starts: never run as a command with no arguments."""
    import subprocess

    words = line.split()
    env = {
        **os.environ,
        "_HC_COMPLETE": "complete_bash",
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(words) if line.endswith(" ") else len(words) - 1),
    }
    done = subprocess.run(
        [sys.executable, "-m", "hc_cli"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) == offered


GAME_LINES = [
    "hc fire ",
    "hc fire b",
    "hc fire fireteam-1 ",
    "hc fire boyz --at ",
    "hc fire boyz --at f",
    "hc fire boyz -r 3 --at ",
    "hc fire --at ",
    "hc fire fireteam-1 --at ",
    "hc melee ladz --at ",
    "hc fire boyz --at fireteam-1 --at ",
    "hc --game GAME fire boyz --at ",
    "hc fire boyz --game GAME --at ",
    "hc --game none fire boyz --at ",
]


def test_units_complete_from_the_game_and_the_target_is_the_other_side(tmp_path, monkeypatch):
    """TAB after --at offers the other side's units (every --at of the three games is checked
    against the acting unit's own side), never the unit acting; the fast path agrees with the
    full app, the game named by HC_GAME or by --game before or after the command."""
    from pathlib import Path

    roster = Path(__file__).resolve().parent.parent / "examples" / "high-crusade-roster.yaml"
    game = str(tmp_path / "karsk.hcg")
    started = CliRunner().invoke(app, ["game", "new", game, "--roster", str(roster)])
    assert started.exit_code == 0, started.output
    monkeypatch.setenv("HC_GAME", game)
    for shell in ("bash", "zsh", "fish"):
        for line in GAME_LINES:
            env = {**_env(shell, line.replace("GAME", game)), "HC_GAME": game}
            assert _fast(env) == _full_app(env), (shell, line)
    assert _bash("hc fire ") == ["fireteam-1", "fireteam-2", "boyz", "ladz"]
    assert _bash("hc fire fireteam-1 ") == ["fireteam-2"]  # one more of its side to fire
    assert _bash("hc orders ") == ["advance", "static"]  # a rout is the game's to give
    assert _bash("hc fire boyz --at ") == ["fireteam-1", "fireteam-2"]
    assert _bash("hc melee fireteam-2 --at ") == ["boyz", "ladz"]
    assert _bash(f"hc --game {game} fire ladz --at f") == ["fireteam-1", "fireteam-2"]
    assert _bash("hc fire --at ") == ["fireteam-1", "fireteam-2", "boyz", "ladz"]
    assert _bash("hc --game none fire boyz --at ") == []
    hunt = str(tmp_path / "hunt.hcg")
    roster = roster.with_name("rogue-trader-roster.yaml")
    assert CliRunner().invoke(app, ["game", "new", hunt, "--roster", str(roster)]).exit_code == 0
    env = {"HC_GAME": hunt}
    assert _bash("hc fire marines:1 --at ", env) == ["boyz", "carnosaur"]
    assert _bash("hc fire carnosaur --at ", env) == ["marines", "lascannon-team"]
    line = "hc fire marines:1 --at "
    assert _fast({**_env("zsh", line), **env}) == _full_app({**_env("zsh", line), **env})

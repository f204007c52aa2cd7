"""TAB completion (click's, through typer's shell classes): the options and table values of the
rule set in force (house rules included), nothing of another game, the units of the game in
force."""

from __future__ import annotations

import os
import sys

import pytest
from helpers import CliRunner

from hc_cli.cli.app import app

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


def _complete(env: dict[str, str]) -> tuple[str, int]:
    """What hc answers a shell's TAB press: its output, and its exit code."""
    result = CliRunner().invoke(app, [], env=env, prog_name="hc")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.stdout, result.exit_code


def _bash(line: str, env: dict[str, str] | None = None) -> list[str]:
    out = _complete({**(env or {}), **_env("bash", line)})[0]
    return [value for value in out.splitlines() if value]  # a value a line


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_every_line_is_answered(lines, shell):
    """Every kind of line is answered, in each shell's form: options, values of the tables
    (house rules too), the rule sets, the commands; never an error."""
    for line in lines:
        out, code = _complete(_env(shell, line))
        assert code == 0, (shell, line, out)
        if shell == "zsh":
            assert out.startswith(("_arguments '*: :((", "_files")), (line, out)


def test_fish_asks_whether_there_are_values():
    """fish's is-args: 0 where hc has values to offer (no files), 1 where it has none."""
    env = {**_env("fish", "hc fire --weapon "), "_TYPER_COMPLETE_FISH_ACTION": "is-args"}
    assert _complete(env)[1] == 0
    env = {**_env("fish", "hc roll "), "_TYPER_COMPLETE_FISH_ACTION": "is-args"}
    assert _complete(env)[1] == 1


def test_zsh_and_fish_say_what_each_option_is():
    zsh = _complete(_env("zsh", "hc fire --we"))[0]
    assert zsh == """_arguments '*: :(("--weapon":"Weapon name."))'\n"""
    fish = _complete({**_env("fish", "hc fire --we")})[0]
    assert fish == "--weapon\tWeapon name.\n"


def test_bash_reads_an_option_and_its_value_split_at_the_equals():
    """bash splits --ruleset=t2k at the '=' (COMP_WORDBREAKS): hc reads the words as typed."""
    split = {"_HC_COMPLETE": "complete_bash", "COMP_WORDS": "hc fire --ruleset = t2k --weapon m1",
             "COMP_CWORD": "6"}  # fmt: skip
    assert _complete(split)[0].split() == ["m134", "m16a2", "m1911"]
    value = {"_HC_COMPLETE": "complete_bash", "COMP_WORDS": "hc fire --ruleset = rog",
             "COMP_CWORD": "4"}  # fmt: skip
    assert _complete(value)[0].split() == ["rogue-trader"]
    empty = {"_HC_COMPLETE": "complete_bash", "COMP_WORDS": "hc fire --weapon =",
             "COMP_CWORD": "3"}  # fmt: skip
    assert "ingrave-ar" in _complete(empty)[0].split()


def test_weapon_names_complete_from_the_tables_and_house_rules(house):
    path = house(
        "ruleset: high-crusade\nweapons:\n  laser-carbine:\n    bands:\n"
        "      - {up_to: 10, chance: 80, penetration: 5}\n"
    )
    bundled = _bash("hc fire --weapon ing")
    assert bundled == ["ingrave-ar"]
    with_house = _bash(f"hc fire --rules {path} --weapon l")
    assert with_house == ["laser-carbine"]


def test_house_rules_from_the_environment_and_a_changed_file(house, monkeypatch):
    path = house(
        "ruleset: high-crusade\nweapons:\n  laser-carbine:\n    bands:\n"
        "      - {up_to: 10, chance: 80, penetration: 5}\n"
    )
    monkeypatch.setenv("HC_RULES", path)
    assert _bash("hc fire --weapon la") == ["laser-carbine"]
    import os
    from pathlib import Path

    Path(path).write_text(
        "ruleset: high-crusade\nweapons:\n  lance:\n    bands:\n"
        "      - {up_to: 10, chance: 80, penetration: 5}\n"
    )
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert _bash("hc fire --weapon la") == ["lance"]


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
        ("hc game ", {"new", "next", "rules", "key", "rewind", "export"}),
        ("hc game ne", {"new", "next"}),
        ("hc roster ", {"check"}),
    ],
)
def test_a_sub_group_completes_in_the_installed_program(line, offered):
    """The sub-commands of a group, answered in the very process a shell starts (`python -m
    hc_cli`, as the installed script): never run as a command with no arguments."""
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
    against the acting unit's own side), never the unit acting, in every shell; the game named
    by HC_GAME or by --game before or after the command."""
    from pathlib import Path

    roster = Path(__file__).resolve().parent.parent / "examples" / "high-crusade-roster.yaml"
    game = str(tmp_path / "karsk.hcg")
    started = CliRunner().invoke(app, ["game", "new", game, "--roster", str(roster)])
    assert started.exit_code == 0, started.output
    monkeypatch.setenv("HC_GAME", game)
    for shell in ("bash", "zsh", "fish"):
        for line in GAME_LINES:
            env = {**_env(shell, line.replace("GAME", game)), "HC_GAME": game}
            assert _complete(env)[1] == 0, (shell, line)
    assert _bash("hc fire ") == ["fireteam-1", "fireteam-2", "boyz", "ladz"]
    assert _bash("hc fire fireteam-1 ") == ["fireteam-2"]  # one more of its side to fire
    # A rout is the game's to give; a side, quoted as bash reads it back, gives the rest theirs.
    assert _bash("hc orders ") == ["advance", "static", "'Free Companies'", "Orcs"]
    assert _bash("hc fire boyz --at ") == ["fireteam-1", "fireteam-2"]
    assert _bash("hc melee fireteam-2 --at ") == ["boyz", "ladz"]
    assert _bash(f"hc --game {game} fire ladz --at f") == ["fireteam-1", "fireteam-2"]
    assert _bash(f"hc fire boyz --game {game} --at ", {"HC_GAME": "none"}) == [
        "fireteam-1", "fireteam-2"]  # fmt: skip
    assert _bash("hc fire --at ") == ["fireteam-1", "fireteam-2", "boyz", "ladz"]
    assert _bash("hc --game none fire boyz --at ") == []
    hunt = str(tmp_path / "hunt.hcg")
    roster = roster.with_name("rogue-trader-roster.yaml")
    assert CliRunner().invoke(app, ["game", "new", hunt, "--roster", str(roster)]).exit_code == 0
    env = {"HC_GAME": hunt}
    assert _bash("hc fire marines:1 --at ", env) == ["boyz", "carnosaur"]
    assert _bash("hc fire carnosaur --at ", env) == ["marines", "lascannon-team"]
    zsh = _complete({**_env("zsh", "hc fire marines:1 --at "), **env})[0]
    assert zsh == """_arguments '*: :(("boyz"\n"carnosaur"))'\n"""


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_a_tab_press_imports_no_rich(shell):
    """The options' help goes to zsh and fish as it is: no pass through rich (typer's), whose
    import would more than double a TAB press."""
    import subprocess

    probe = (
        "import sys\nfrom hc_cli.cli.main import main\ntry:\n    main()\nexcept SystemExit:\n"
        "    sys.stderr.write(str(sorted(m for m in sys.modules if m.split('.')[0] == 'rich')))\n"
    )
    env = {**os.environ, **_env(shell, "hc fire --"), "_TYPER_COMPLETE_FISH_ACTION": "get-args"}
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60
    )
    assert "--weapon" in done.stdout and done.stderr == "[]", done.stderr


def test_units_complete_by_what_the_game_says_they_may_do(tmp_path, monkeypatch):
    """Issue 38: TAB offers what can act. After --at no unit wiped out; `hc rally` a routed
    Fireteam alone; `hc orders la` ladz=ORDER; `--at marines:` the models still standing."""
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "examples"
    game = str(tmp_path / "karsk.hcg")
    assert hc_main(["game", "new", game, "--roster", str(examples / "high-crusade-roster.yaml")])
    monkeypatch.setenv("HC_GAME", game)
    for line in ("initiative --dice 1,9", "game next", "game next",  # the Orcs fire first
                 "fire boyz --at fireteam-1 -r 10 --dice 01,01,01,01,01,01,01,01"):  # fmt: skip
        assert hc_main(line.split()), line
    assert _bash("hc rally ") == []  # no Fireteam routed
    assert _bash("hc fire ladz --at ") == ["fireteam-2"]  # fireteam-1 is wiped out
    assert _bash("hc orders la") == ["ladz=advance", "ladz=static"]
    assert _bash("hc orders ladz=s") == ["ladz=static"]
    hunt = str(tmp_path / "hunt.hcg")
    roster = str(examples / "rogue-trader-roster.yaml")
    assert hc_main(["game", "new", hunt, "--roster", roster])
    assert hc_main(["status", "--game", hunt])  # the state kept, as after any command that reads it
    env = {"HC_GAME": hunt}
    assert _bash("hc fire boyz --at marines:", env) == [f"marines:{n}" for n in range(1, 6)]
    # The danger zone of a burst: anyone else of the game, friend or foe, as NAME:METRES.
    kalisz = str(tmp_path / "kalisz.hcg")
    assert hc_main(["game", "new", kalisz, "--roster", str(examples / "t2k-roster.yaml")])
    env = {"HC_GAME": kalisz}
    assert _bash("hc fire nguyen --at ivanov --zone ", env) == ["kowalski:", "popov:"]
    assert _bash("hc fire nguyen --at ivanov --zone p", env) == ["popov:"]
    assert _bash("hc fire nguyen --at ivanov --zone-npc ", env) == ["kowalski", "popov"]


def hc_main(args: list[str]) -> bool:
    """A command run as a player types it, in this process: whether it did its job."""
    return CliRunner().invoke(app, args).exit_code == 0


def _every_line() -> list[str]:
    """A TAB at each place of every command of every rule set: the command, its first
    argument, an option, each option's value."""
    from hc_cli.plugin import registry
    from hc_cli.plugin.shared_commands import SHARED_COMMANDS

    commands = {c.name: c for c in SHARED_COMMANDS}
    for name in registry.names():
        commands.update(registry.get(name).commands)
    lines = []
    for name, command in commands.items():
        lines += [f"hc {name} ", f"hc {name} -", f"hc {name} x", f"hc {name} fire"]
        for option in command.options:
            for flag in option.flags:
                lines += [f"hc {name} {flag} ", f"hc {name} {flag} a", f"hc {name} {flag}=a"]
    return lines


def test_a_tab_at_every_command_of_every_rule_set_in_every_game_is_silent(tmp_path, monkeypatch):
    """Issue 38: `hc rally <TAB>` in a T2K game printed an error and a traceback. TAB prints
    nothing but what it offers, whatever the command, of this rule set or another."""
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "examples"
    lines = _every_line()
    for roster in ("high-crusade", "t2k", "rogue-trader"):
        game = str(tmp_path / f"{roster}.hcg")
        assert hc_main(["game", "new", game, "--roster", str(examples / f"{roster}-roster.yaml")])
        assert hc_main(["status", "--game", game])  # TAB reads the state kept
        monkeypatch.setenv("HC_GAME", game)
        for line in lines:
            result = CliRunner().invoke(app, [], env=_env("bash", line), prog_name="hc")
            assert (result.exit_code, result.stderr) == (0, ""), (roster, line, result.output)
            assert "Traceback" not in result.stdout, (roster, line)


def test_tab_sees_what_the_other_player_did_since_this_one_looked(tmp_path, monkeypatch):
    """Issue 38: TAB read the player's own kept snapshot, so a model the other player removed
    since (in his own terminal: his own cache) was offered until this player ran hc status;
    and a player with no snapshot of the game was offered every unit of the roster, the
    units wiped out in a game that is over among them."""
    from pathlib import Path

    roster = Path(__file__).resolve().parent.parent / "examples" / "rogue-trader-roster.yaml"
    hunt = str(tmp_path / "hunt.hcg")
    other = {"XDG_CACHE_HOME": str(tmp_path / "b-cache"), "XDG_STATE_HOME": str(tmp_path / "b")}

    def theirs(line: str) -> None:
        result = CliRunner().invoke(app, line.split(), env={**other, "HC_GAME": hunt})
        assert result.exit_code == 0, (line, result.output)

    theirs(f"game new {hunt} --roster {roster}")
    monkeypatch.setenv("HC_GAME", hunt)
    assert hc_main(["status"])  # this player's snapshot: every model standing
    marines = [f"marines:{n}" for n in range(1, 6)]
    assert _bash("hc fire boyz --at marines:") == marines
    for line in ("initiative --dice 1", "game next"):  # the Orks' turn (as test_game_end's)
        theirs(line)
    theirs("fire boyz:1 --at marines -r 10 --dice 6,6,1")  # a 6 to hit, 6 to wound, save 1
    assert _bash("hc fire boyz --at marines:") == marines[1:]
    # A player who never looked at a game (no snapshot at all) has it folded from the file.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c-cache"))
    assert _bash("hc fire boyz --at marines:") == marines[1:]


@pytest.mark.parametrize("ruleset", ["high-crusade", "rogue-trader", "t2k"])
def test_a_game_over_offers_no_unit_wiped_out_or_killed(tmp_path, monkeypatch, ruleset):
    """Issue 38: once a game is over (its last blow struck by the other player), TAB after
    --at offers no unit wiped out and no character killed: to the player whose snapshot is
    from before the blow, and to one with none."""
    from test_game_end import PLAYS, ROSTERS

    roster = tmp_path / "roster.yaml"
    roster.write_text(ROSTERS[ruleset])
    game = str(tmp_path / "g.hcg")
    other = {"XDG_CACHE_HOME": str(tmp_path / "b-cache"), "XDG_STATE_HOME": str(tmp_path / "b"),
             "HC_GAME": game}  # fmt: skip
    assert CliRunner().invoke(app, ["game", "new", game, "--roster", str(roster)]).exit_code == 0
    monkeypatch.setenv("HC_GAME", game)
    assert hc_main(["status"])
    opening, blow, beaten, _ = PLAYS[ruleset]
    for line in (*opening, blow):
        assert CliRunner().invoke(app, line.split(), env=other).exit_code == 0, line
    from hc_cli.games.choice import unit_sides

    standing = [name for side, units in unit_sides(game) if side != beaten for name in units]
    for cache in ("cache", "c-cache"):  # this player's snapshot (before the blow), and none
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / cache))
        assert _bash("hc fire --at ") == standing, cache


def test_orders_morale_and_compare_offer_what_the_game_takes(tmp_path, monkeypatch):
    """Issue 38: `hc morale <TAB>` the Fireteams with a test due (every one that may test when
    none is); `hc orders <TAB>` the sides too, and never UNIT=ORDER for a routed Fireteam (its
    order is the game's); `hc compare --shot <TAB>` the kinds of shot of the rule set."""
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "examples"
    game = str(tmp_path / "karsk.hcg")
    assert hc_main(["game", "new", game, "--roster", str(examples / "high-crusade-roster.yaml")])
    monkeypatch.setenv("HC_GAME", game)
    every = ["fireteam-1", "fireteam-2", "boyz", "ladz"]
    assert _bash("hc morale ") == every  # no test due
    for line in ("initiative --dice 1,9", "game next", "game next",  # the Orcs fire first
                 "fire boyz --at fireteam-2 -r 10 --dice 01,01,99,99,99,99,99,99"):  # fmt: skip
        assert hc_main(line.split()), line
    assert _bash("hc morale ") == ["fireteam-2"]  # fired at, and a casualty: a test due
    assert hc_main("morale fireteam-2 --dice 1".split())  # 1 (+2 Crusader -2 casualties): fails
    assert _bash("hc rally ") == ["fireteam-2"]
    for line in ("game next", "game next", "game next", "initiative --dice 1,9"):  # move 2
        assert hc_main(line.split()), line
    assert _bash("hc orders fireteam-") == ["fireteam-1=advance", "fireteam-1=static"]
    assert _bash("hc orders ") == ["advance", "static", "'Free Companies'", "Orcs"]
    assert _bash("hc orders 'Free") == ["'Free Companies'"]
    assert _bash("hc orders Orcs ") == ["advance", "static"]  # one side a command
    kinds = ["aimed", "quick", "aimed-burst", "burst"]  # the four of Twilight: 2000's fire
    assert _bash("hc compare --ruleset t2k --shot ") == kinds
    assert _bash("hc compare --ruleset t2k --shot a", {"HC_GAME": "none"}) == kinds[::2]

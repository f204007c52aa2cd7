"""One grammar (issue 26, item 5): every command named whole on its usage line, the same usage
line on a usage error as in the help, -q on every command, --game wherever --ruleset goes, one
error for a game in force that cannot be read, no dice options on a command that rolls none."""

from __future__ import annotations

import pytest

from hc_cli.plugin import registry
from hc_cli.plugin.shared_commands import SHARED_COMMANDS


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
    missing = hc("game new x.hcg")
    assert missing.exit_code == 2
    assert missing.stderr.splitlines()[0] == "Usage: hc game new [OPTIONS] FILE"
    missing = hc("rules check")
    assert missing.stderr.splitlines()[0] == "Usage: hc rules check [OPTIONS] FILE"


ROLLS_NOTHING = [("rogue-trader", "move", ["--m", "4"]), ("rogue-trader", "hide", []),
                 ("t2k", "reload", ["-w", "m60"])]  # fmt: skip


@pytest.mark.parametrize(("ruleset", "command", "args"), ROLLS_NOTHING)
def test_a_command_that_rolls_nothing_offers_no_dice_options(hc, ruleset, command, args):
    from helpers import tab

    helped = hc("--ruleset", ruleset, command, "--help").stdout
    for flag in ("--seed", "--dice", "--odds", "--exact", "--verbose"):
        assert flag not in helped, flag
    for flag in ("--json", "--log", "--quiet", "--game", "--at"):
        assert flag in helped, flag
    line = f"hc {command} --ruleset {ruleset} --"
    env = {"_HC_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": "4"}
    offered = tab(env).split()
    assert "--json" in offered and "--log" in offered and "--quiet" in offered
    assert not {"--seed", "--dice", "--odds", "--exact", "--verbose"} & set(offered)
    for extra in (["--seed", "1"], ["--dice", "3"], ["--odds"], ["-v"]):
        said = hc.error("--ruleset", ruleset, command, *args, *extra)
        assert f"{extra[0]} is not an option of {ruleset} {command}" in said
    assert "it rolls no dice" in hc.error("--ruleset", ruleset, command, *args, "--odds")
    assert hc("--ruleset", ruleset, command, *args, "--json").exit_code == 0


def test_a_batch_line_of_a_command_that_rolls_nothing_takes_no_seed(hc):
    import json

    lines = [
        {"command": "move", "ruleset": "rogue-trader", "m": 4, "seed": 1},
        {"command": "move", "ruleset": "rogue-trader", "m": 4, "seed": 2},
        {"command": "reload", "ruleset": "t2k", "weapon": "m60", "dice": "3"},
        {"command": "move", "ruleset": "rogue-trader", "m": 4},
    ]
    done = hc.runner.invoke(
        __import__("hc_cli.cli.app", fromlist=["app"]).app,
        ["batch"],
        input="".join(json.dumps(line) + "\n" for line in lines),
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert (
        answers[0]["error"] == "field 'seed' does not apply to rogue-trader move: it rolls no dice"
    )
    assert "seed" in answers[1]["error"] and "dice" in answers[2]["error"]
    assert answers[3]["headline"] == 'moves 4"'
    assert done.exit_code == 2


GAME_READERS = [
    (["initiative"], True),
    (["initiative", "-q"], True),
    (["fire", "boyz", "--at", "fireteam-1", "-r", "12"], True),
    (["morale", "fireteam-1"], True),
    (["roll", "d6"], True),
    (["game", "rules"], True),
    (["status"], False),
    (["history"], False),
    (["undo"], False),
    (["game", "next"], False),
    (["game", "export"], False),
]


@pytest.mark.parametrize("kind", ["missing", "folder", "empty"])
def test_a_game_in_force_that_cannot_be_read_is_one_error_everywhere(
    hc, tmp_path, monkeypatch, kind
):
    """The same words in every command that reads the game in force, on the direct path and
    through typer alike, and in hc batch; the hint differs only where a command can act
    outside a game."""
    import json

    from hc_cli.cli.app import app

    monkeypatch.chdir(tmp_path)
    path = tmp_path / "gone.hcg"
    if kind == "folder":
        path.mkdir()
    elif kind == "empty":
        path.write_bytes(b"")
    problem = {
        "missing": "does not exist",
        "folder": "is a folder, not a game file",
        "empty": "is empty: no game was started in it",
    }[kind]
    message = f"the game in force (HC_GAME: gone.hcg) {problem}"
    start = "start it (hc game new FILE --roster ROSTER)"
    hints = {
        True: f"{start}, name the right file with --game FILE, or act outside a game: --game none",
        False: f"{start}, or name the right file with --game FILE",
    }
    env = {"HC_GAME": "gone.hcg", "COLUMNS": "1000"}
    for words, outside in GAME_READERS:
        name = " ".join(
            w for w in words[:2] if w in ("game", "rules", "next", "export") or w == words[0]
        )
        expected = f"hc {name}: {message}\n  {hints[outside]}\n"
        direct = hc(*words, env=env)
        assert (direct.exit_code, direct.stderr) == (2, expected), words
        typed = hc.runner.invoke(app, words, env=env)
        assert (typed.exit_code, typed.stderr) == (2, expected), words
    lines = [{"command": "initiative"}, {"command": "fire", "unit": "boyz", "at": "fireteam-1"}]
    done = hc.runner.invoke(
        app, ["batch"], env=env, input="".join(json.dumps(line) + "\n" for line in lines)
    )
    for line in done.stdout.splitlines():
        answer = json.loads(line)
        assert answer["error"] == message
        assert answer["hint"] == (
            f"{start}, name the right file in the line's 'game' field, or act outside a game: "
            '"game": "none"'
        )
    field = json.dumps({"command": "initiative", "game": "gone.hcg"}) + "\n"
    env.pop("HC_GAME")
    done = hc.runner.invoke(app, ["batch"], env=env, input=field)
    assert (
        json.loads(done.stdout)["error"] == f"the game in force (field 'game': gone.hcg) {problem}"
    )


EXAMPLES = __import__("pathlib").Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def karsk(hc, tmp_path, monkeypatch):
    """A High Crusade game started from the shipped roster, in a fresh folder (no HC_GAME)."""
    monkeypatch.chdir(tmp_path)
    roster = str(EXAMPLES / "high-crusade-roster.yaml")
    assert hc("game", "new", "karsk.hcg", "--roster", roster).exit_code == 0
    return "karsk.hcg"


def test_game_goes_before_the_command_as_ruleset_does(hc, karsk):
    from hc_cli.cli.app import app

    # Outside a game: the two sides of no roster, as --game none after the command says.
    before = hc("--game none initiative --dice 3,6")
    after = hc("initiative --game none --dice 3,6")
    assert before.exit_code == 0 and before.stdout == after.stdout
    assert "Side 2 acts first" in before.stdout
    # In a game named before the command: the game's sides, kept in the game.
    acted = hc("--game", karsk, "initiative", "--dice", "3,6", "-q")
    assert acted.exit_code == 0 and acted.stdout.startswith("Orcs acts first (Player A)")
    for words in (["status"], ["history"], ["game", "export"], ["game", "rules"]):
        first = hc("--game", karsk, *words)
        assert first.exit_code == 0, (words, first.output)
        assert first.stdout == hc(*words, "--game", karsk).stdout, words
        assert first.stdout == hc(f"--game={karsk}", *words).stdout, words
        typed = hc.runner.invoke(app, ["--game", karsk, *words])
        assert typed.stdout == first.stdout, words
    # The command's own --game wins over the one before it, as a later --ruleset does.
    assert hc("--game", "none", "status", "--game", karsk).exit_code == 0
    assert "no game in force" in hc.error("--game", karsk, "status", "--game", "none")
    assert "fireteam-1 must test morale" in hc(
        "--game", karsk, "fire", "boyz", "--at", "fireteam-1", "-r", "14", "--dice",
        ",".join(["99"] * 8), "-q",
    ).stdout  # fmt: skip
    undone = hc.runner.invoke(app, ["--game", karsk, "undo"])
    assert undone.exit_code == 0 and "undid entry 3" in undone.stdout
    helped = hc("--help").stdout
    assert "--game FILE" in helped and "--ruleset NAME" in helped


def test_batch_takes_the_ruleset_and_game_named_before_it(hc, karsk):
    import json

    from hc_cli.cli.app import app

    line = json.dumps({"command": "deviate", "range": 30, "band": "long", "seed": 1}) + "\n"
    done = hc.runner.invoke(app, ["--ruleset", "t2k", "batch"], input=line)
    assert json.loads(done.stdout)["ruleset"] == "t2k"
    line = json.dumps({"command": "initiative", "dice": "3,6"}) + "\n"
    done = hc.runner.invoke(app, ["--game", karsk, "batch"], input=line)
    assert json.loads(done.stdout)["headline"].startswith("Orcs acts first")
    assert "1. the game begins" in hc("history", "--game", karsk).stdout
    assert "initiative: Orcs acts first" in hc("history", "--game", karsk).stdout
    done = hc.runner.invoke(app, ["--game", "none", "batch"], input=line)
    assert json.loads(done.stdout)["headline"].startswith("Side 2 acts first")


def _without_now(text: str) -> str:
    """An action's output without its "now:" block (what is due, indented under it)."""
    lines = text.splitlines()
    if "now:" in lines:
        at = lines.index("now:")
        rest = lines[at + 1 :]
        while rest and rest[0].startswith("  "):
            rest = rest[1:]
        lines = lines[:at] + rest
    return "\n".join(lines) + "\n"


def test_quiet_in_the_game_s_own_commands(hc, karsk, tmp_path):
    """-q on every command of a game: the headline, and in an action what changed."""
    from hc_cli.cli.app import app

    roster = str(EXAMPLES / "high-crusade-roster.yaml")
    full = hc("game", "new", "other.hcg", "--roster", roster).stdout
    quiet = hc("game", "new", "quiet.hcg", "--roster", roster, "-q").stdout
    assert quiet == "started quiet.hcg: a game of high-crusade, Ambush at Karsk\n"
    assert full.startswith("started other.hcg: a game of high-crusade, Ambush at Karsk\n")
    assert len(full.splitlines()) > 2
    env = {"HC_GAME": karsk, "COLUMNS": "10000"}  # a line of the output, not of the screen
    assert hc("initiative --dice 3,6", env=env).exit_code == 0
    # game next -q and undo -q: the same as without, less what is due now.
    said = hc.runner.invoke(app, ["game", "next", "-q"], env=env)
    assert said.exit_code == 0 and "now:" not in said.stdout
    assert said.stdout.startswith("game: move 1, step 1: Orcs moves")
    undone_quiet = hc("undo -q", env=env).stdout
    assert hc.runner.invoke(app, ["game", "next"], env=env).exit_code == 0
    undone = hc("undo", env=env).stdout
    assert "now:" in undone and "now:" not in undone_quiet
    assert _without_now(undone).replace("entry 5", "entry 3") == undone_quiet
    # status -q: the clock line and what is due, each as --json says it; no table.
    status = hc.json("status", env=env)
    quiet = hc("status -q --no-color", env=env).stdout.splitlines()
    assert quiet[0] == status["clock"]
    assert [line.strip() for line in quiet[1:]] == status["due"]
    assert not any("fireteam-1" in line and "ingrave-ar" in line for line in quiet)
    # history -q: a line an entry, numbered as the entries are.
    entries = hc.json("history", env=env)["entries"]
    quiet = hc("history -q", env=env).stdout.splitlines()
    assert [line.split(".")[0] for line in quiet] == [str(e["entry"]) for e in entries]
    assert quiet[0] == "1. the game begins" and quiet[-1].startswith(f"{len(entries)}. undo")
    assert quiet[2].endswith("(undone)")
    # game export -q: the script, without its comment; it still plays the game.
    script = hc("game export", env=env).stdout
    quiet = hc("game export -q", env=env).stdout
    comments = [line for line in script.splitlines() if line.startswith("# ")]
    assert len(comments) == 1 and comments[0] not in quiet
    assert quiet.splitlines() == [line for line in script.splitlines() if line not in comments]
    assert quiet.startswith("#!/bin/sh\n")
    # game rules -q: a line a step, as the sequence has them.
    sequence = hc.json("game rules", env=env)["sequence"]
    quiet = hc("game rules -q --game none").stdout
    assert [line.split(".")[0] for line in quiet.splitlines() if not line.startswith(" ")] == [
        str(step["step"]) for step in sequence
    ]
    assert "kept between actions" not in quiet and "hc fire" not in quiet
    # roster check -q: the verdict alone.
    quiet = hc("roster", "check", roster, "-q", env={"COLUMNS": "200"}).stdout
    assert quiet == f"{roster}: a valid roster for high-crusade: Ambush at Karsk\n"


def test_quiet_in_the_shared_commands(hc, karsk, tmp_path, monkeypatch):
    import json

    from hc_cli.cli.app import app

    # tables -q: a line a table, its entries by name.
    listing = hc("tables --json").stdout
    tables = json.loads(listing)["tables"]
    quiet = hc("tables -q", env={"COLUMNS": "10000"}).stdout.splitlines()
    assert quiet == [f"{name}: " + ", ".join(entries) for name, entries in tables.items()]
    one = hc("tables weapons -q", env={"COLUMNS": "10000"}).stdout
    assert one == "weapons: " + ", ".join(tables["weapons"]) + "\n"
    # rules check -q: the verdict alone.
    house = tmp_path / "house.yaml"
    house.write_text("ruleset: high-crusade\nremove:\n  weapons: [pagan-smg]\n")
    full = hc("rules", "check", str(house)).stdout
    assert "removes weapons: pagan-smg" in full
    quiet = hc("rules", "check", str(house), "-q").stdout
    assert quiet == f"{house}: a valid house-rules file for high-crusade\n"
    # replay -q: what did not reproduce and the summary; here every entry reproduces.
    assert hc("initiative", "--dice", "3,6", "--game", karsk).exit_code == 0
    full = hc("replay", karsk).stdout
    quiet = hc("replay", karsk, "-q").stdout
    assert "line 1: game: the game begins: reproduced" in full
    assert "reproduced\n" not in quiet.replace(" reproduced, ", "")
    assert "2 entries: 2 reproduced, 0 did not" in quiet
    # batch -q: nothing to leave out; its help says so.
    line = json.dumps({"command": "roll", "expression": "d6", "seed": 1}) + "\n"
    done = [hc.runner.invoke(app, ["batch", *q], input=line).stdout for q in ([], ["-q"])]
    assert done[0] == done[1] and json.loads(done[0])["headline"]
    assert "Nothing to leave out" in hc("batch --help").stdout
    # completion --install -q: what was written, no advice.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / "data"))
    said = hc("completion bash --install -q").stdout
    assert said == f"wrote {tmp_path / 'home' / 'data'}/bash-completion/completions/hc\n"
    assert "Open a new shell" in hc("completion bash --install").stdout
    assert hc("completion bash -q").stdout == hc("completion bash").stdout


@pytest.mark.parametrize(("ruleset", "words"), _every_command())
def test_every_command_takes_quiet(hc, ruleset, words):
    from hc_cli.cli.app import app

    for flag in ("-q", "--quiet"):
        wrong = hc.runner.invoke(app, ["--ruleset", ruleset, *words, flag])
        assert "No such option" not in wrong.output, (words, wrong.output)
        assert "is not an option" not in wrong.output, (words, wrong.output)
    helped = hc("--ruleset", ruleset, *words, "--help").stdout
    assert "-q, --quiet" in helped

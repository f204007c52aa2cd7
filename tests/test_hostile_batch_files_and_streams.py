"""Hostile input answers at once, with exit 0 or 2 and no traceback: batch lines of every
kind, house rules built to exhaust the machine, logs on devices, closed or full streams."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hc_cli.cli.app import app

FIRE = {"command": "fire", "weapon": "ingrave-ar", "range": 14, "target": "orc", "seed": 1}


def _batch(hc, lines: list[str]):
    return hc.runner.invoke(app, ["batch"], input="".join(line + "\n" for line in lines))


BAD_LINES = [
    json.dumps({**FIRE, "weapon": 5}),
    json.dumps({**FIRE, "shots": "3"}),
    json.dumps({**FIRE, "target": ["orc", 5]}),
    json.dumps({**FIRE, "mod": [[1]]}),
    json.dumps({**FIRE, "dice": [4, 6], "seed": None}),
    json.dumps({**FIRE, "ruleset": 7}),
    '{"command": "move", "ruleset": "rogue-trader", "m": 4, "very_difficult": NaN}',
    json.dumps({**FIRE, "weapon": "\ud800"}),
    "[" * 100_000 + "]" * 100_000,
    '{"command": "roll", "expression": "d6", "seed": ' + "9" * 5000 + "}",
    json.dumps({**FIRE, "range": int("9" * 4000)}),
    json.dumps({**FIRE, "seed": True}),
    json.dumps({**FIRE, "seed": 1e5}),
    json.dumps({**FIRE, "shots": 1.5}),
    # the fields of a game, each checked as its common option declares it (hc --help)
    json.dumps({**FIRE, "unit": 5}),
    json.dumps({**FIRE, "at": ["orc-1", 3]}),
    json.dumps({**FIRE, "anyway": "yes"}),
    json.dumps({**FIRE, "game": 7}),
]
GAME_LINES = 4


def test_a_batch_answers_every_line_in_order(hc):
    lines = [json.dumps(FIRE)] + BAD_LINES + [json.dumps(FIRE)]
    result = _batch(hc, lines)
    assert result.exit_code == 2 and "Traceback" not in result.output
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["line"] for o in out] == list(range(1, len(lines) + 1))
    assert "outcome" in out[0] and "outcome" in out[-1]
    assert all("error" in o for o in out[1:-1]), [o for o in out[1:-1] if "error" not in o]
    assert "field 'weapon' is 5: not text" == out[1]["error"]
    assert "field 'seed' is true: not a whole number" == out[12]["error"]
    assert [o["error"] for o in out[-1 - GAME_LINES : -1]] == [
        "field 'unit' is 5: not text",
        "field 'at' is 3: not text",
        "field 'anyway' is \"yes\": not true or false",
        "field 'game' is 7: not text",
    ]


def test_yaml_aliases_are_refused(hc, house):
    bomb = "ruleset: high-crusade\na: &a [x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}]\n" for p, c in zip("abcdefg", "bcdefgh", strict=True)
    )
    err = hc.error("tables", "--rules", house(bomb))
    assert "uses a YAML alias (*a)" in err and ":3:" in err


def test_a_huge_house_rules_file_is_refused(hc, house):
    big = house("ruleset: high-crusade\n" + "# padding\n" * 120_000)
    assert "larger than 1,000,000 bytes" in hc.error("tables", "--rules", big)


@pytest.mark.parametrize("content", ["[]", "null", "42", '{"source": "x", "tables": null}'])
def test_a_cache_of_the_wrong_shape_is_rebuilt(hc, clean_environment, content):
    fire = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--seed", "1")
    assert hc(*fire).exit_code == 0
    caches = list((clean_environment / "cache" / "hc").glob("*.cache"))
    assert caches
    for cache in caches:
        cache.write_text(content)
    assert hc.json(*fire)["outcome"] == "kill"


def test_logs_are_regular_files_and_a_torn_line_is_removed(hc, tmp_path):
    roll = ("roll", "d6", "--seed", "1")
    bad = hc(*roll, "--log", "/dev/null")
    assert bad.exit_code == 2 and "not a regular file" in bad.stderr
    assert bad.stdout.startswith("total")  # the result is still printed
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert "not a regular file" in " ".join(hc(*roll, "--log", str(fifo)).stderr.split())
    assert "not a regular file" in hc.error("replay", str(fifo))
    log = tmp_path / "game.log"
    assert hc(*roll, "--log", str(log)).exit_code == 0
    with open(log, "a") as f:  # a writer stopped mid-line
        f.write('{"command": "roll", "cut sho')
    assert hc(*roll, "--log", str(log)).exit_code == 0
    lines = log.read_text().splitlines()  # the fragment is gone: a clean chain of two
    assert [json.loads(line)["seq"] for line in lines] == [1, 2]
    assert hc("replay", str(log)).exit_code == 0
    assert "''" in hc.error(*roll, "--log", "")


def _hc(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hc_cli", *args], capture_output=True, **kwargs)


def test_closed_and_full_streams_end_quietly():
    with open("/dev/full", "w") as full:
        for args in (("roll", "d6", "--seed", "1"), ("tables",), ("--help",)):
            run = subprocess.run(
                [sys.executable, "-m", "hc_cli", *args], stdout=full, stderr=subprocess.PIPE
            )
            assert run.returncode == 1 and b"Traceback" not in run.stderr, args
    shut = subprocess.run(
        f"{sys.executable} -m hc_cli roll d6 --seed 1 >&-", shell=True, stderr=subprocess.PIPE
    )
    assert shut.returncode == 1 and b"Traceback" not in shut.stderr


@pytest.mark.parametrize("cword", ["x", "-5", ""])
def test_completion_with_a_malformed_environment_completes_nothing(cword):
    env = {
        **os.environ,
        "_HC_COMPLETE": "complete_bash",
        "COMP_WORDS": "hc fire",
        "COMP_CWORD": cword,
    }
    run = _hc(env=env)
    assert run.returncode == 0 and b"Traceback" not in run.stderr


def test_unreachable_rules_paths_are_named(hc):
    assert "cannot be reached" in hc.error("tables", "--rules", "x" * 300 + ".yaml")
    assert "empty entry" in hc.error("tables", env={"HC_RULES": os.pathsep})


def _game_log(hc, tmp_path) -> tuple[str, list[str]]:
    log = str(tmp_path / "game.log")
    for seed in range(1, 7):
        fire = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--seed", str(seed))
        assert hc(*fire, "--log", log).exit_code == 0
    return log, Path(log).read_text().splitlines()


def _replay(hc, log: str, lines: list[str]):
    with open(log, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    return hc("replay", log)


def test_replay_catches_every_kind_of_tampering(hc, tmp_path):
    log, lines = _game_log(hc, tmp_path)
    assert json.loads(lines[1])["seq"] == 2 and json.loads(lines[1])["prev"]
    assert _replay(hc, log, lines).exit_code == 0
    forged = [line.replace('"miss"', '"kill"') for line in lines]  # outcome words
    edited = [
        json.dumps({**(e := json.loads(line)), "result": {**e["result"], "explanation": ["x"]}})
        for line in lines
    ]
    cases = {
        "explanation rewritten": edited,
        "outcome forged": forged,
        "deleted": lines[:2] + lines[3:],
        "duplicated": lines[:3] + lines[2:],
        "reordered": [lines[1], lines[0], *lines[2:]],
        "garbage": lines[:3] + ["garbage"] + lines[3:],
        "last explanation": lines[:-1] + [edited[-1]],
    }
    for what, tampered in cases.items():
        result = _replay(hc, log, tampered)
        assert result.exit_code == 1, (what, result.stdout)
        assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "entry",
    [
        {"command": "fire", "ruleset": "high-crusade", "flags": [1, 2], "result": {}},
        {"command": "fire", "ruleset": "high-crusade", "flags": {}, "result": [1]},
        {"command": "roll", "ruleset": "high-crusade", "flags": {"expression": "d6"}, "dice": 4},
        {"command": "roll", "ruleset": 7, "flags": {}, "seed": float("nan")},
    ],
)
def test_hand_made_entries_of_the_wrong_types_do_not_crash_replay(hc, tmp_path, entry):
    log = tmp_path / "hand.log"
    log.write_text(json.dumps(entry) + "\n" + "[" * 50_000 + "\n")
    result = hc("replay", str(log))
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_a_full_disk_is_exit_2_with_the_result_printed(hc, tmp_path, monkeypatch):
    import errno

    import hc_cli.log.chain

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    log = tmp_path / "game.log"
    log.write_text("")
    monkeypatch.setattr(hc_cli.log.chain.os, "write", full)
    result = hc("roll", "d6", "--seed", "1", "--log", str(log))
    assert result.exit_code == 2 and result.stdout.startswith("total")
    assert "No space left on device" in " ".join(result.stderr.split())
    lines = [json.dumps({"command": "roll", "expression": "d6", "seed": i}) for i in range(300)]
    batch = hc.runner.invoke(
        app, ["batch", "--log", str(log)], input="".join(x + "\n" for x in lines)
    )
    assert batch.exit_code == 2 and "No space left" in " ".join(batch.stderr.split())
    assert batch.stdout == ""  # nothing answered that the log does not hold

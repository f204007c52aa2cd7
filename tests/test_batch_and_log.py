"""hc batch, the replayable log and hc replay, and hc rules check."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

AT_ORC = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc")
GOOD = {"command": "fire", "weapon": "ingrave-ar", "range": 14, "target": "crusader", "seed": 7}


def _batch(hc, lines: list[str], *args: str):
    return hc.runner.invoke(_app(), ["batch", *args], input="\n".join(lines) + "\n")


def _app():
    from hc_cli.cli.app import app

    return app


def test_batch_good_and_bad_lines_in_order(hc):
    lines = [
        json.dumps(GOOD),
        json.dumps({**GOOD, "weapon": "ingrav-ar"}),
        "{not json",
        json.dumps({"command": "roll", "expression": "2d6+1", "seed": 3}),
        "",
        json.dumps(
            {
                "command": "fire",
                "ruleset": "rogue-trader",
                "bs": 4,
                "strength": 4,
                "toughness": 3,
                "odds": True,
            }
        ),
        json.dumps({"command": "fire", "weapn": "ingrave-ar"}),
        json.dumps({"command": "fire", "range": "far"}),
        json.dumps(
            {
                "command": "melee",
                "attacker": "crusader",
                "attacker-weapon": "40mm-plasma-cannon",
                "defender": "orc",
                "defender_weapon": "bolt-gun",
                "dice": "7,5",
            }
        ),
        json.dumps({"command": "fire", "ruleset": "t2k", "bs": 4}),
    ]
    result = _batch(hc, lines)
    assert result.exit_code == 2  # some lines failed
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 2, 3, 4, 6, 7, 8, 9, 10]
    assert out[0]["outcome"] == "hit" and out[0]["seed"] == 7
    assert out[0] == {
        **hc.json("fire -w ingrave-ar -r 14 -t crusader --seed 7"),
        "line": 1,
    }
    assert out[1]["error"] == "unknown weapon 'ingrav-ar'" and "ingrave-ar" in out[1]["hint"]
    assert out[2]["error"].startswith("not JSON")
    assert out[3]["total"] == hc.json("roll 2d6+1 --seed 3")["total"]
    assert abs(sum(out[4]["odds"].values()) - 1) < 1e-9
    assert out[5]["error"] == "field 'weapn' is not an option of high-crusade fire"
    assert out[5]["hint"] == "did you mean 'weapon'?"
    assert out[6]["error"] == "field 'range' is \"far\": not a number"
    assert out[7]["outcome"] == "defender"
    assert out[8]["error"] == "field 'bs' is not an option of t2k fire"


def test_batch_all_good_exits_0(hc):
    result = _batch(hc, [json.dumps(GOOD)] * 3)
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 3


def test_log_and_replay_round_trip(hc, tmp_path):
    log = str(tmp_path / "game.log")
    assert hc(*AT_ORC, "--shots", "3", "--log", log).exit_code == 0
    assert (
        hc("morale", "--troop", "crusader", "--ambushed", "--dice", "5", "--log", log).exit_code
        == 0
    )
    rt_odds = "fire --ruleset rogue-trader --bs 4 --strength 4 --toughness 3 --odds".split()
    assert hc(*rt_odds, "--log", log).exit_code == 0
    assert _batch(hc, [json.dumps(GOOD)], "--log", log).exit_code == 0
    entries = [json.loads(line) for line in Path(log).read_text().splitlines()]
    assert [e["command"] for e in entries] == ["fire", "morale", "fire", "fire"]
    first = entries[0]
    assert {"hc", "time", "command", "ruleset", "flags", "seed", "dice", "result", "tables"} <= set(
        first
    )
    assert first["flags"] == {"weapon": "ingrave-ar", "range": 14.0, "target": ["orc"], "shots": 3}
    assert len(first["tables"]) == 64
    result = hc("replay", log)
    assert result.exit_code == 0, result.stdout
    assert "4 entries: 4 reproduced, 0 did not" in result.stdout


def test_replay_catches_an_edited_roll(hc, tmp_path):
    log = tmp_path / "game.log"
    hc(*AT_ORC, "--seed", "7", "--log", str(log))
    hc(*AT_ORC, "--seed", "8", "--log", str(log))
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert entries[1]["result"]["outcome"] == "kill"
    entries[1]["result"]["rolls"][0]["value"] = 99  # a kill turned into a miss after the fact
    entries[1]["result"]["outcome"] = "miss"
    log.write_text("".join(json.dumps(e) + "\n" for e in entries))
    result = hc("replay", str(log))
    assert result.exit_code == 1
    assert "line 1: fire (high-crusade): reproduced" in result.stdout
    assert "line 2: fire (high-crusade): does NOT reproduce" in result.stdout
    assert "rolls: logged [d100 to hit 99], now [d100 to hit 30]" in result.stdout
    assert "outcome: logged 'miss', now 'kill'" in result.stdout


def test_replay_notes_changed_tables(hc, tmp_path, house):
    path = house("ruleset: high-crusade\ntroops:\n  orc: {defence: 4}\n")
    log = str(tmp_path / "game.log")
    hc(*AT_ORC, "--seed", "7", "--rules", path, "--log", log)
    Path(path).write_text("ruleset: high-crusade\ntroops:\n  orc: {defence: 9}\n")
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    kept = hc("replay", log)  # the entry keeps the text it was resolved with: it replays so
    assert kept.exit_code == 0 and "1 entries: 1 reproduced" in kept.stdout
    # A log of an older hc kept no text: the file at the path is read, and it has changed.
    entry = json.loads(Path(log).read_text())
    del entry["rules"][0]["text"]
    Path(log).write_text(json.dumps(entry) + "\n")
    result = hc("replay", log)
    assert result.exit_code == 1
    assert "defence: logged 4, now 9" in result.stdout
    assert "the tables have changed since it was logged" in result.stdout
    assert "1 house-rules file(s) read at the path logged" in result.stdout.replace("\n  ", " ")


def test_a_cut_short_last_line_is_ignored(hc, tmp_path):
    log = tmp_path / "game.log"
    hc("roll", "d100", "--seed", "1", "--log", str(log))
    with open(log, "a") as f:
        f.write('{"hc": "0.1.0", "command": "roll", "resu')
    result = hc("replay", str(log))
    assert result.exit_code == 0
    assert "the last line was cut short" in result.stdout
    assert "1 entries: 1 reproduced" in result.stdout


def _running_in_group(group: int) -> set[int]:
    """The processes of a process group that still run (not yet reaped zombies left out)."""
    running = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            running.add(int(stat.parent.name))
    return running


def test_a_worker_started_after_hc_was_killed_ends():
    """A worker forked just before hc was killed may start once its parent is another process:
    it ends at once, for hc is named before the fork, not looked up after it."""
    gone = os.getppid()  # a process that is not the child's parent, as hc is not by then
    code = (
        "import time; from hc_cli.batch.run import _worker_signals;"
        f" _worker_signals({gone}); time.sleep(30)"
    )
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert (run.returncode, run.stderr) == (1, "")
    assert time.monotonic() - started < 15


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_a_log_whose_writer_was_killed_still_reads(tmp_path):
    """Kill a batch writing a log mid-run: every whole line replays, nothing is lost, and its
    workers end with it."""
    log = tmp_path / "game.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "hc_cli", "batch", "--log", str(log)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env=env,
        start_new_session=True,  # hc and its workers: one process group, to look for after
    )
    assert proc.stdin is not None
    line = (json.dumps({**GOOD, "seed": None, "shots": 5}) + "\n").encode()
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (not log.exists() or log.stat().st_size < 20_000):
            proc.stdin.write(line * 20)
            proc.stdin.flush()
        workers = _running_in_group(proc.pid) - {proc.pid}
        assert workers or len(os.sched_getaffinity(0)) < 2  # one CPU: no workers to fork
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 10  # a worker looks for hc twice a second
        while _running_in_group(proc.pid) & workers and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running_in_group(proc.pid) & workers, "a worker outlived hc killed"
    finally:  # whatever failed, nothing of this test is left open or running for the next
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    run = subprocess.run(
        [sys.executable, "-m", "hc_cli", "replay", "--json", str(log)],
        capture_output=True,
        text=True,
    )
    report = json.loads(run.stdout)
    assert report["not_reproduced"] == 0 and report["damaged"] == []
    assert report["reproduced"] >= 20
    assert run.returncode == 0


def test_replay_of_a_missing_file(hc):
    assert "cannot read the log 'nope.log'" in hc.error("replay nope.log")


def test_log_to_an_unwritable_place(hc, tmp_path):
    err = hc.error("roll", "d6", "--log", str(tmp_path / "no" / "such" / "dir" / "x.log"))
    assert "cannot write the log" in err


def _check(hc, house, text: str) -> str:
    return hc.error("rules", "check", house(text))


def test_rules_check_bad_yaml(hc, house):
    err = _check(hc, house, "ruleset: high-crusade\nweapons:\n  x: {name: [unclosed\n")
    assert "house.yaml:4" in err and "not valid YAML" in err


def test_rules_check_lists_every_problem(hc, house):
    err = _check(
        hc,
        house,
        "ruleset: high-crusade\nweapons:\n  laser:\n    bands:\n"
        "      - {up_to: 10, chance: -5, penetration: 5}\n"
        "  ingrave-ar: {bnads: []}\ntroops:\n  orc: {defence: six}\n"
        "  ogre: {defence: 5}\n  ogre2:\n    defence: 5\n    melee: 1.5\n",
    )
    assert "house.yaml:5: weapons.laser.bands[0].chance: -5 is below" in err
    assert "house.yaml:6: weapons.ingrave-ar.bnads: unknown key  (did you mean 'bands'?)" in err
    assert "house.yaml:8: troops.orc.defence: 'six' is not a whole number" in err
    assert "house.yaml:12: troops.ogre2.melee: 1.5 is not a whole number" in err


def test_rules_check_overlapping_bands(hc, house):
    err = _check(
        hc,
        house,
        "ruleset: high-crusade\nweapons:\n  laser:\n    bands:\n"
        "      - {up_to: 10, chance: 50, penetration: 5}\n"
        "      - {up_to: 10, chance: 40, penetration: 4}\n",
    )
    assert "weapons.laser.bands[1].up_to: 10 overlaps the band before it" in err


def test_rules_check_unknown_ruleset_and_table(hc, house):
    assert "house.yaml:1: ruleset: unknown rule set 'high-crusad'" in _check(
        hc, house, "ruleset: high-crusad\n"
    )
    assert "house.yaml:2: weapon: unknown table" in _check(
        hc, house, "ruleset: high-crusade\nweapon:\n  x: {}\n"
    )


def test_rules_check_a_good_file_says_what_it_changes(hc, house):
    result = hc(
        "rules",
        "check",
        house(
            "ruleset: rogue-trader\nweapons:\n  needle-rifle: {strength: 3, damage: 1, short: 12, "
            "long: 24, save_modifier: 1}\nprofiles:\n  ork: {armour: mesh}\nremove:\n"
            "  weapons: [rock]\n"
        ),
    )
    assert result.exit_code == 0
    assert "a valid house-rules file for rogue-trader" in result.stdout
    assert "adds weapons: needle-rifle" in result.stdout
    assert "changes profiles: ork (armour)" in result.stdout
    assert "removes weapons: rock" in result.stdout


def test_a_house_modifier_for_t2k_and_rogue_trader(hc, house):
    t2k = house("ruleset: t2k\nmodifiers:\n  acid-rain: {levels: 2}\n", "t2k.yaml")
    fire = "fire --ruleset t2k --asset 16 --short-range 50 --strength 5 --range 10 --mod acid-rain"
    out = hc.json(*fire.split(), "--rules", t2k, "--seed", "1")
    assert out["difficulty"] == "formidable"
    rt = house("ruleset: rogue-trader\nmodifiers:\n  spore-cloud: {value: -2}\n", "rt.yaml")
    fire = "fire --ruleset rogue-trader --bs 4 --strength 3 --toughness 3 --mod spore-cloud"
    out = hc.json(*fire.split(), "--rules", rt, "--seed", "1")
    assert out["needed_to_hit"] == 5


def test_a_script_gets_each_answer_as_soon_as_it_asks():
    """A coprocess writes a line and waits: its answer comes before the next line is sent."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "hc_cli", "batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for seed in (1, 2, 3):
            proc.stdin.write(json.dumps({**GOOD, "seed": seed}) + "\n")
            proc.stdin.flush()
            ready = select.select([proc.stdout], [], [], 60)[0]
            assert ready, "no answer to a line while hc waits for the next"
            answer = json.loads(proc.stdout.readline())
            assert answer["line"] == seed and answer["seed"] == seed
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=20)
        finally:
            proc.kill()
            proc.stdout.close()
    assert proc.returncode == 0


def test_requests_alike_but_for_the_seed_are_each_checked(hc):
    """Lines that differ only in their seed share one parsed request; a value of another type
    (true for a number, a bool or text seed) is still refused on its own line."""
    lines = [json.dumps({**GOOD, "seed": s}) for s in (1, 2)] + [
        json.dumps({**GOOD, "range": True, "seed": 3}),
        json.dumps({**GOOD, "seed": True}),
        json.dumps({**GOOD, "seed": "4"}),
        json.dumps({**GOOD, "seed": 5}),
        json.dumps({**GOOD, "--seed": 6, "seed": 5}),
        json.dumps({**GOOD, "seed": 2}),
    ]
    out = [json.loads(x) for x in _batch(hc, lines).stdout.splitlines()]
    assert [o.get("seed") for o in out] == [1, 2, None, None, None, 5, 6, 2]
    assert "field 'range' is true: not a number" in out[2]["error"]
    assert "field 'seed' is true" in out[3]["error"] and "field 'seed'" in out[4]["error"]
    assert out[1]["rolls"] == out[7]["rolls"]  # the same seed, the same dice
    # A parsed request shared by lines is the one each line would have made alone.
    alone = [json.loads(_batch(hc, [line]).stdout) for line in lines[:2]]
    assert [{**a, "line": n} for n, a in enumerate(alone, 1)] == out[:2]


def _mixed_lines(count: int) -> list[str]:
    """Fires, rolls, odds, Rogue Trader and bad lines, in a repeating mix."""
    kinds = [
        lambda i: json.dumps({**GOOD, "seed": i}),
        lambda i: json.dumps({"command": "roll", "expression": "4d6kh3", "seed": i}),
        lambda i: "{not json" if i % 7 == 0 else "",
        lambda i: json.dumps({**GOOD, "weapon": "ingrav-ar", "seed": i}),
        lambda i: json.dumps({**GOOD, "shots": 3, "seed": i}),
        lambda i: json.dumps(
            {
                "command": "fire",
                "ruleset": "rogue-trader",
                "weapon": "lasgun",
                "bs": 3,
                "range": 10,
                "target": "ork",
                "seed": i,
            }
        ),
    ]
    return [kinds[i % len(kinds)](i) for i in range(count)]


def test_a_parallel_batch_answers_as_one_process_does(tmp_path):
    """With workers (--jobs 2) the answers, their order, the exit code and the log are those
    of one process (--jobs 1); the log replays."""
    requests = tmp_path / "requests.jsonl"  # hc batch < requests.jsonl: all there at once
    requests.write_text("\n".join(_mixed_lines(3000)) + "\n")
    runs = {}
    for jobs in ("1", "2"):
        log = tmp_path / f"jobs{jobs}.log"
        with open(requests, "rb") as data:
            run = subprocess.run(
                # -X importtime: stderr says whether worker processes were started
                [sys.executable, "-X", "importtime", "-m", "hc_cli", "batch", "--jobs", jobs]
                + ["--log", str(log)],
                stdin=data,
                capture_output=True,
                timeout=240,
            )
        assert (b"concurrent.futures.process" in run.stderr) == (jobs == "2")
        entries = [json.loads(x) for x in log.read_text().splitlines()]
        for entry in entries:  # when and by whom it was written differ; what was resolved not
            for volatile in ("time", "prev", "seq", "hc"):
                entry.pop(volatile, None)
        runs[jobs] = (run.returncode, run.stdout, entries)
    assert runs["1"] == runs["2"]
    code, out, entries = runs["2"]
    answers = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and [a["line"] for a in answers][-1] == 3000
    assert len(entries) == sum("error" not in a for a in answers)
    replay = subprocess.run(
        [sys.executable, "-m", "hc_cli", "replay", "--json", str(tmp_path / "jobs2.log")],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert replay.returncode == 0 and json.loads(replay.stdout)["reproduced"] == len(entries)


def test_jobs_out_of_bounds_is_refused(hc):
    for jobs in ("0", "257", "-3"):
        run = hc.runner.invoke(_app(), ["batch", "--jobs", jobs], input="")
        assert run.exit_code == 2 and "--jobs" in run.stderr, (jobs, run.stderr)
        assert "1..256" in run.stderr

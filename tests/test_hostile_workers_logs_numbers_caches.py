"""Hostile input to the machinery: each reproduction of its issue, answered with exit 0, 1 or 2 and
no traceback, and nothing unbounded: dead workers, forged logs, odd files, numbers that only
look like numbers, odds past any patience, house rules that would loop, caches wrong inside,
a full disk."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hc_cli.cli.app import app

FIRE = {"command": "fire", "weapon": "ingrave-ar", "range": 14, "target": "orc"}
NINES = "9" * 5000
RT = ("--ruleset", "rogue-trader")
T2K = ("--ruleset", "t2k")


def _hc(*args: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "hc_cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        **kwargs,
    )


def _clean(result) -> None:
    output = result.output if hasattr(result, "output") else result.stdout + result.stderr
    assert "Traceback" not in output, output[-2000:]


# ---------------------------------------------------------------------------------------------
# 1. A batch survives its workers


def _batch_file(tmp_path: Path, n: int) -> Path:
    path = tmp_path / "in.jsonl"
    with path.open("w") as f:
        for i in range(n):
            f.write(json.dumps({**FIRE, "seed": i}) + "\n")
    return path


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV])
def test_a_dead_worker_costs_no_line(tmp_path, sig):
    """Kill a worker mid-batch: every line is still answered, in order, and logged once."""
    source = _batch_file(tmp_path, 60_000)
    log = tmp_path / "b.log"
    out = tmp_path / "out.jsonl"
    with source.open() as stdin, out.open("w") as stdout:
        proc = subprocess.Popen(
            [sys.executable, "-m", "hc_cli", "batch", "--jobs", "2", "--log", str(log)],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
        )
        children: list[int] = []
        deadline = time.monotonic() + 30
        while not children and time.monotonic() < deadline and proc.poll() is None:
            found = subprocess.run(
                ["ps", "--ppid", str(proc.pid), "-o", "pid="], capture_output=True, text=True
            )
            children = [int(p) for p in found.stdout.split()]
            time.sleep(0.05)
        if children:
            os.kill(children[0], sig)
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and b"Traceback" not in err
    lines = [json.loads(line)["line"] for line in out.read_text().splitlines()]
    assert lines == list(range(1, 60_001))
    assert log.read_bytes().count(b"\n") == 60_000


def test_hc_terminated_ends_its_workers_quietly(tmp_path):
    source = _batch_file(tmp_path, 100_000)
    with source.open() as stdin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "hc_cli", "batch", "--jobs", "2"],
            stdin=stdin,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        children: list[str] = []
        deadline = time.monotonic() + 30  # until its workers run, however loaded the machine
        while not children and time.monotonic() < deadline and proc.poll() is None:
            children = subprocess.run(
                ["ps", "--ppid", str(proc.pid), "-o", "pid="], capture_output=True, text=True
            ).stdout.split()
            time.sleep(0.05)
        assert children, "hc batch started no worker"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode in (0, 143) and b"Traceback" not in err
    for child in children:  # reaped, not left running
        assert (
            not Path(f"/proc/{child}").exists()
            or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]
        )


# ---------------------------------------------------------------------------------------------
# 2. A log no one can rewrite unseen


def _log(hc, tmp_path: Path, env: dict | None = None) -> tuple[Path, list[str], str]:
    log = tmp_path / "game.log"
    receipt = ""
    for seed in range(1, 11):
        result = hc(*FIRE_ARGS, "--seed", str(seed), "--log", str(log), env=env)
        assert result.exit_code == 0
        receipt = result.stderr.strip().rpartition("receipt ")[2]
    return log, log.read_text().splitlines(), receipt


FIRE_ARGS = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc")


def _rechain(lines: list[str], key: bytes | None = None) -> list[str]:
    """A forger's work: every seq and prev recomputed after an edit (SHA-256, no key)."""
    from hc_cli.log.chain import chain_hash

    out, prev = [], None
    for seq, line in enumerate(lines, 1):
        entry = json.loads(line)
        entry.update(seq=seq, prev=prev)
        text = json.dumps(entry, separators=(",", ":"), ensure_ascii=False)
        prev = chain_hash(text.encode(), key)
        out.append(text)
    return out


def _replay(hc, log: Path, lines: list[str], *args: str, env: dict | None = None):
    log.write_text("".join(line + "\n" for line in lines))
    return hc("replay", str(log), *args, env=env)


def test_a_receipt_catches_a_recomputed_chain_and_a_cut_tail(hc, tmp_path):
    log, lines, receipt = _log(hc, tmp_path)
    assert receipt.startswith("10:") and len(receipt) == 11
    assert _replay(hc, log, lines, "--head", receipt).exit_code == 0
    edited = json.loads(lines[4])
    edited["result"]["outcome"] = "kill"
    forged = _rechain(lines[:4] + [json.dumps(edited)] + lines[5:])
    assert _replay(hc, log, forged).exit_code == 1  # the result no longer reproduces
    swapped = json.loads(lines[4])  # a whole other roll, from another seed: it reproduces
    swapped.update(seed=98, result=hc.json(*FIRE_ARGS, "--seed", "98"))
    forged = _rechain(lines[:4] + [json.dumps(swapped)] + lines[5:])
    assert _replay(hc, log, forged).exit_code == 0  # the chain alone cannot see it ...
    caught = _replay(hc, log, forged, "--head", receipt)
    assert caught.exit_code == 1 and "NOT reached" in caught.stdout  # ... the receipt does
    for cut in (lines[:-1], _rechain(lines[:-1]), []):
        result = _replay(hc, log, cut, "--head", receipt)
        assert result.exit_code == 1, cut


def test_entries_without_a_number_and_an_emptied_log_fail(hc, tmp_path):
    log, lines, _ = _log(hc, tmp_path)
    last = json.loads(lines[-1])
    for seq in (None, "11", True):
        extra = (
            {**last, "seq": seq}
            if seq is not None
            else {k: v for k, v in last.items() if k != "seq"}
        )
        result = _replay(hc, log, lines + [json.dumps(extra)])
        assert result.exit_code == 1 and "without a sequence number" in result.stdout
    empty = _replay(hc, log, [])
    assert empty.exit_code == 1 and "no entries" in empty.stdout


def test_a_keyed_log_cannot_be_extended_without_the_key(hc, tmp_path):
    key = {"HC_LOG_KEY": "the-referee's secret"}
    log, lines, receipt = _log(hc, tmp_path, env=key)
    assert all(json.loads(line)["mac"] == "hmac-sha256" for line in lines)
    assert _replay(hc, log, lines, "--head", receipt, env=key).exit_code == 0
    assert _replay(hc, log, lines, env={"HC_LOG_KEY": "a guess"}).exit_code == 1
    assert _replay(hc, log, lines).exit_code == 1  # keyed: not checked without the key
    edited = [json.dumps({**json.loads(line), "time": "2000-01-01T00:00:00Z"}) for line in lines]
    assert _replay(hc, log, _rechain(edited), env=key).exit_code == 1  # chained without it
    keyfile = tmp_path / "key"
    keyfile.write_text("the-referee's secret\n")
    assert _replay(hc, log, lines, env={"HC_LOG_KEY_FILE": str(keyfile)}).exit_code == 0


def test_the_log_says_who_chose_the_seed(hc, tmp_path):
    log = tmp_path / "g.log"
    hc(*FIRE_ARGS, "--seed", "4", "--log", str(log))
    hc(*FIRE_ARGS, "--log", str(log))
    hc(*FIRE_ARGS, "--dice", "46", "--log", str(log))
    chosen = [json.loads(line)["seed_from"] for line in log.read_text().splitlines()]
    assert chosen == ["player", "hc", None]


# ---------------------------------------------------------------------------------------------
# 3 and 11. Odd files: FIFOs, devices, huge or deep files


def _config(tmp_path: Path) -> Path:
    folder = tmp_path / "config" / "hc"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_settings_that_are_no_file_are_refused_at_once(hc, tmp_path):
    settings = _config(tmp_path) / "settings.toml"
    settings.symlink_to("/dev/zero")
    assert "not a regular file" in hc.error("roll d6 --seed 1")
    settings.unlink()
    os.mkfifo(settings)
    for args in (("roll", "d6", "--seed", "1"), ("--version",)):
        result = hc(*args)
        assert result.exit_code == 2 and "not a regular file" in result.stderr
    env = {"_HC_COMPLETE": "complete_bash", "COMP_WORDS": "hc fire --", "COMP_CWORD": "2"}
    tab = _hc(env={**env, "XDG_CONFIG_HOME": str(tmp_path / "config")})
    assert tab.returncode == 0
    settings.unlink()
    settings.write_text('ruleset = "t2k"\n' + "# padding\n" * 6_000_000)
    assert "larger than" in hc.error("roll d6 --seed 1")
    settings.write_text("a = " + "[" * 30_000)
    assert "nested too deep" in hc.error("roll d6 --seed 1")


def test_dice_asked_from_a_device_end_at_once(hc):
    with open("/dev/zero") as zero:
        result = subprocess.run(
            [sys.executable, "-m", "hc_cli", "roll", "d6", "--dice", "ask"],
            stdin=zero,
            capture_output=True,
            timeout=60,
        )
    assert result.returncode == 2 and b"longer than" in result.stderr


def test_caches_that_are_devices_or_fifos_are_rebuilt(hc, clean_environment):
    assert hc("fire", *FIRE_ARGS[1:], "--seed", "1").exit_code == 0
    cache = clean_environment / "cache" / "hc"
    for i, path in enumerate(sorted(cache.iterdir())):
        path.unlink()
        if i % 2:
            path.symlink_to("/dev/zero")
        else:
            os.mkfifo(path)
    result = hc("fire", *FIRE_ARGS[1:], "--seed", "1")
    assert result.exit_code == 0 and result.stdout.startswith("kill")


def test_replay_rules_and_logs_that_are_no_files(hc, tmp_path):
    log = tmp_path / "g.log"
    hc("roll", "d6", "--seed", "1", "--log", str(log))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for rules in ("/dev/zero", str(fifo)):
        assert "not a regular file" in hc.error("replay", str(log), "--rules", rules)
    assert "not a regular file" in hc.error("replay", str(tmp_path))
    assert "not a regular file" in hc.error("roll d6 --log /proc/self/status")


def test_completion_install_with_an_odd_zshrc(hc, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    zshrc = tmp_path / ".zshrc"
    zshrc.write_bytes(b"export LANG=\xff\xfe latin-1 bytes\n")
    assert hc("completion zsh --install").exit_code == 0
    assert b"fpath+=~/.zfunc" in zshrc.read_bytes()
    zshrc.unlink()
    os.mkfifo(zshrc)
    assert "not a regular file" in hc.error("completion zsh --install")


def test_replay_reads_a_huge_log_of_garbage_in_bounded_time(hc, tmp_path):
    log = tmp_path / "junk.log"
    log.write_bytes(b"{}\n" * 3_000_000)  # 9 MB of lines that are no entries
    result = hc("replay", str(log))
    assert result.exit_code == 1 and "no log of hc's" in result.stdout


def test_replay_of_entries_of_any_shape(hc, tmp_path):
    log = tmp_path / "hand.log"
    entries = [
        {"command": "roll", "ruleset": "high-crusade", "flags": "abc"},
        {
            "command": "roll",
            "ruleset": "high-crusade",
            "flags": {"expression": "d6"},
            "result": [1],
        },
        {"command": "roll", "ruleset": "high-crusade", "flags": {"expression": "d6+" + NINES}},
    ]
    log.write_text("".join(json.dumps(e) + "\n" for e in entries))
    result = hc("replay", str(log))
    _clean(result)
    assert result.exit_code == 1 and result.stdout.count("does NOT reproduce") == 3


def test_many_rules_files_are_refused_at_once(hc):
    args = [a for _ in range(5000) for a in ("--rules", "x")]
    assert "more than the 64" in hc.error("fire", *FIRE_ARGS[1:], *args)


def test_streams_that_take_nothing_end_quietly():
    with open("/dev/full", "w") as full:
        for args in (("roll", "d6x"), ("roll", "d6", "--seed", "1")):
            run = subprocess.run([sys.executable, "-m", "hc_cli", *args], stdout=full, stderr=full)
            assert run.returncode in (1, 2), args


def test_ctrl_c_is_130(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "hc_cli", "roll", "d6", "--dice", "ask"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    import select

    said = b""  # Ctrl-C at the prompt: wait for it, however loaded the machine is
    while b"roll a D6" not in said:
        assert select.select([proc.stderr], [], [], 60)[0], said  # bounded: no hang
        chunk = os.read(proc.stderr.fileno(), 4096)
        assert chunk, said  # hc ended before it asked
        said += chunk
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and b"Traceback" not in said + err


# ---------------------------------------------------------------------------------------------
# 4 and 5. Numbers of any size, in any field


LOOK_ALIKES = [
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "²", "--seed", "1"),
    ("fire", *RT, "--bs", "4", "--strength", "4", "--toughness", "3", "--damage", "²"),
    ("fire", *T2K, "--asset", "12", "--strength", "5", "-w", "m16a2", "-r", "30", "--rof", "²"),
    ("fire", *T2K, "--asset", "12", "--strength", "5", "-w", "m16a2", "-r", "30", "--damage", "²"),
    ("roll", "d6+" + NINES),
    ("roll", "d6>=" + NINES),
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", NINES, "--seed", "1"),
    ("fire", *RT, "--bs", "4", "--strength", "4", "--toughness", "3", "--damage", NINES),
    ("fire", *T2K, "--asset", "12", "--strength", "5", "-w", "m16a2", "-r", "30", "--rof", NINES),
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--mod", NINES),
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--dice", NINES),
    ("initiative", *T2K, "--char", "A:" + NINES),
    ("initiative", *T2K, "--char", "A:٣"),
]


@pytest.mark.parametrize("args", LOOK_ALIKES, ids=lambda a: " ".join(a)[:40])
def test_text_that_looks_like_a_number_is_exit_2(hc, args):
    err = hc.error(*args)
    assert len(err) < 600  # named, cut short: never the 5,000 digits back


def test_such_lines_are_answered_in_a_batch_and_the_stream_goes_on(hc):
    lines = [
        json.dumps({**FIRE, "target": "²", "seed": 1}),
        json.dumps({"command": "roll", "expression": "d6+" + NINES}),
        json.dumps({**FIRE, "mod": [NINES], "seed": 1}),
        json.dumps({**FIRE, "seed": 2}),
    ]
    result = hc.runner.invoke(app, ["batch"], input="".join(line + "\n" for line in lines))
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["line"] for a in answers] == [1, 2, 3, 4]
    assert ["error" in a for a in answers] == [True, True, True, False]
    assert result.exit_code == 2


def test_ten_thousand_shots_write_their_odds(hc):
    """Exact numbers of thousands of digits are written; a count's exact values past 4,096
    bits only with --exact."""
    out = hc.json("fire", "-w", "ingrave-ar", "-r", "14", "-t", "crusader", "--shots", "10000",
                  "--odds")  # fmt: skip
    assert out["exact_omitted"] == ["hits"] and "hits" in out["distributions"]
    assert len(out["odds_exact"]["hit"]) < 20
    from fractions import Fraction

    from hc_cli.core.model import Odds

    tiny = Fraction(1, 7**6000)  # 5,071 digits: past Python's own limit on writing integers
    assert Odds({"none": tiny, "some": 1 - tiny}).to_dict()["odds_exact"]["none"].startswith("1/")
    exact = hc.json("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "600",
                    "--odds", "--exact")  # fmt: skip
    assert "exact_omitted" not in exact and len(exact["distributions_exact"]["kills"]) == 601
    assert "--exact is for --odds" in hc.error(*FIRE_ARGS, "--exact")


# ---------------------------------------------------------------------------------------------
# 6. Every allowed question answers in bounded time: at once, or refused at once


BIGGEST = [
    ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "10000", "--odds"),
    ("fire", *RT, "--bs", "4", "-w", "heavy-bolter", "-r", "10", "-t", "carnosaur", "--shots",
     "10000", "--odds"),
    ("fire", *RT, "--bs", "4", "-w", "lascannon", "-r", "10", "-t", "carnosaur", "--shots",
     "10000", "--one-model", "--odds"),
    ("fire", *RT, "--bs", "4", "--strength", "4", "--toughness", "3", "--damage", "100d1000",
     "--odds"),
    ("fire", *RT, "--bs", "3", "-w", "frag-grenade", "-r", "6", "-t", "ork", "--under", "1000",
     "--partly", "1000", "--odds"),
    ("fire", *T2K, "--asset", "16", "--strength", "5", "-w", "remington-870", "-r", "30",
     "--shots", "3", "--npc", "--odds"),
    ("fire", *T2K, "--asset", "16", "--strength", "12", "-w", "m134", "-r", "50", "--shot",
     "burst", "--shots", "5", "--npc", "--zone", "A:1", "--zone", "B:2", "--odds"),
    ("roll", "100d66kh1", "--odds"),
    ("roll", "100d1000kh50", "--odds"),
    ("roll", "10d6kh3", "--odds"),
    ("roll", "+".join(["20d20"] * 50), "--odds"),
    ("roll", "100d100", "--odds"),
]  # fmt: skip


@pytest.mark.parametrize("args", BIGGEST, ids=lambda a: " ".join(a)[:50])
def test_the_largest_questions_answer_or_refuse(hc, args):
    result = hc(*args)
    _clean(result)
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        assert "more than" in result.stderr  # refused by its cost, counted before the work


def test_following_fire_along_a_thousand_models(hc):
    targets = [a for i in range(1000) for a in ("-t", f"ork:{i}")]
    out = hc.json("fire", *RT, "--bs", "4", "-w", "heavy-bolter", "-r", "10", *targets, "--odds")
    assert sum(float(p) for p in out["distributions"]["casualties"].values()) == pytest.approx(1)


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
        _clean(hc(*args))
        assert hc(*args).exit_code == 2


# ---------------------------------------------------------------------------------------------
# 8. Caches validated, rebuilt when wrong


def _caches(clean_environment: Path, prefix: str) -> list[Path]:
    return sorted((clean_environment / "cache" / "hc").glob(prefix + "*"))


DEEP = b"[\x01\x00\x00\x00" * 200_000 + b"N"  # 200,000 lists, one in another, in marshal


@pytest.mark.parametrize(
    "content",
    [{"tables": {}}, {"tables": {"weapons": {"x": "y"}}}, DEEP, b"garbage", ["ingrave-ar"]],
    ids=["no tables", "entries as text", "deep", "garbage", "a list"],
)
def test_caches_wrong_inside_are_rebuilt(hc, clean_environment, content):
    import marshal
    import zlib

    assert hc("fire", *FIRE_ARGS[1:], "--seed", "1").exit_code == 0
    env = {"_HC_COMPLETE": "complete_bash", "COMP_WORDS": "hc fire --weapon ing"}
    for path in _caches(clean_environment, ""):
        source, _, _ = marshal.loads(path.read_bytes())
        body = content if isinstance(content, bytes) else marshal.dumps(content)
        # The right source and a checksum that matches: only what is inside is wrong.
        path.write_bytes(marshal.dumps((source, zlib.crc32(body), body)))
    for args in (("fire", *FIRE_ARGS[1:], "--seed", "1"), ("tables",)):
        result = hc(*args)
        assert result.exit_code == 0, result.output
    tab = _hc(env={**env, "COMP_CWORD": "3", "XDG_CACHE_HOME": str(clean_environment / "cache")})
    assert tab.returncode == 0 and "ingrave-ar" in tab.stdout


def test_a_rule_set_cache_naming_a_module_gone_is_rescanned(clean_environment):
    env = {"XDG_CACHE_HOME": str(clean_environment / "cache")}
    assert _hc("--help", env=env).returncode == 0  # every rule set: the entry points read
    import marshal

    from hc_cli.tables.files import read_cache, write_cache

    (cache,) = _caches(clean_environment, "rulesets")
    source = marshal.loads(cache.read_bytes())[0]
    refs = read_cache(str(cache), source, 10**6)
    gone = {**refs, "high-crusade": "hc_cli.gone:DECLARATION", "zzz": "hc_cli.gone:DECLARATION"}
    write_cache(str(cache), source, gone)
    result = _hc(*FIRE_ARGS, "--seed", "1", env=env)  # a bundled rule set: never the cache's
    assert result.returncode == 0, result.stderr
    result = _hc(*FIRE_ARGS, "--seed", "1", "--ruleset", "zzz", env=env)
    assert result.returncode == 2 and "unknown rule set 'zzz'" in result.stderr
    assert b"hc_cli.gone" not in cache.read_bytes()  # written again from the entry points


def test_a_plain_checkout_runs_its_bundled_rule_sets(tmp_path):
    """No package metadata at all (a checkout on the import path, hc not installed): the
    bundled rule sets are registered in code."""
    import shutil

    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "hc_cli", tmp_path / "hc_cli", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copytree(root / "rules_data", tmp_path / "rules_data")
    probe = (
        "import sys, importlib.metadata as m\n"
        "m.entry_points = lambda **k: []  # nothing installed\n"
        "sys.argv = ['hc', 'fire', '--ruleset', 'rogue-trader', '--bs', '4', '-w', 'bolt-gun',"
        " '-r', '10', '-t', 'ork', '--seed', '1', '-q']\n"
        "from hc_cli.cli.main import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "c")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


# ---------------------------------------------------------------------------------------------
# 10. A disk that fills


def _small_disk(monkeypatch, room: int) -> None:
    """Writes to a log past `room` bytes fail as a full disk does."""
    import errno

    import hc_cli.log.chain

    real = os.write

    def write(fd, data):
        size = os.fstat(fd).st_size
        if size + len(data) > room:
            if room > size:  # as much as fits, then the disk is full
                real(fd, bytes(data[: room - size]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(hc_cli.log.chain.os, "write", write)


def test_a_failed_write_leaves_the_log_whole(hc, tmp_path, monkeypatch):
    log = tmp_path / "g.log"
    assert hc("roll", "d6", "--seed", "1", "--log", str(log)).exit_code == 0
    _small_disk(monkeypatch, 100)  # a torn half entry, then no room
    result = hc("roll", "d6", "--seed", "2", "--log", str(log))
    assert result.exit_code == 2 and result.stdout.startswith("total")
    monkeypatch.undo()
    assert hc("roll", "d6", "--seed", "3", "--log", str(log)).exit_code == 0
    replay = hc("replay", str(log))
    assert replay.exit_code == 0 and "2 entries: 2 reproduced" in replay.stdout


def test_a_batch_stops_at_the_first_line_it_cannot_log(hc, tmp_path, monkeypatch):
    log = tmp_path / "g.log"
    _small_disk(monkeypatch, 20_000)
    lines = [json.dumps({"command": "roll", "expression": "d6", "seed": i}) for i in range(300)]
    result = hc.runner.invoke(
        app, ["batch", "--log", str(log)], input="".join(x + "\n" for x in lines)
    )
    monkeypatch.undo()
    assert result.exit_code == 2 and "stopped at line" in result.stderr
    answered = [json.loads(x)["line"] for x in result.stdout.splitlines()]
    logged = log.read_text().splitlines()
    assert answered == list(range(1, len(logged) + 1)) and 0 < len(logged) < 300
    assert hc("replay", str(log)).exit_code == 0

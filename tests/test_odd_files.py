"""Odd files given as logs, house rules or games: FIFOs, devices, huge or deeply nested files
answer at once, exit 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from helpers import FIRE_ARGS, NINES, clean, run_hc

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
    tab = run_hc(env={**env, "XDG_CONFIG_HOME": str(tmp_path / "config")})
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
    clean(result)
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


def test_a_game_path_holding_an_escape_is_printed_escaped(hc, tmp_path, monkeypatch):
    """A file name can hold an escape sequence (OSC 0 retitles the terminal): every line hc
    prints of it shows the escape as text, never the sequence."""
    from helpers import EXAMPLES

    monkeypatch.chdir(tmp_path)
    path = "y\x1b]0;pwned\x07.hcg"
    made = hc("game", "new", path, "--roster", str(EXAMPLES / "high-crusade-roster.yaml"))
    assert made.exit_code == 0, made.output
    assert "\x1b" not in made.output and "\\x1b]0;pwned\\x07.hcg" in made.stdout
    rolled = hc("initiative", "--dice", "3,6", "--game", path)
    assert rolled.exit_code == 0 and "\x1b" not in rolled.output
    assert "logged to " in rolled.stderr

"""The one lock every writer of a log or a game file takes (`hc_cli.log.osfile`): while one
holds it, another is refused (or waits), in this process or another; readers read on."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from hc_cli.log.osfile import held, lock, unlock


def _open(path) -> int:
    return os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)


def test_a_second_lock_is_refused_while_the_first_is_held(tmp_path):
    path = tmp_path / "game.hcg"
    first, second = _open(path), _open(path)
    try:
        assert lock(first, wait=False)
        assert not lock(second, wait=False)
        unlock(first)
        assert lock(second, wait=False)
        assert not lock(first, wait=False)
    finally:
        os.close(first)
        os.close(second)


def test_closing_the_file_lets_the_next_writer_in(tmp_path):
    path = tmp_path / "game.hcg"
    first, second = _open(path), _open(path)
    try:
        assert lock(first, wait=False)
        os.close(first)
        assert lock(second, wait=False)
    finally:
        os.close(second)


def test_another_process_is_refused_until_the_holder_lets_go(tmp_path):
    path = tmp_path / "game.hcg"
    path.write_bytes(b'{"seq":1}\n')
    holder = (
        "import os, sys\n"
        "from hc_cli.log.osfile import lock\n"
        f"fd = os.open({str(path)!r}, os.O_RDWR | os.O_APPEND)\n"
        "assert lock(fd, wait=False)\n"
        "print('held', flush=True)\n"
        "sys.stdin.readline()\n"  # held until told to go
    )
    fd = _open(path)
    with subprocess.Popen(
        [sys.executable, "-c", holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdout is not None and child.stdin is not None
        try:
            assert child.stdout.readline().strip() == "held"
            assert not lock(fd, wait=False)
            assert path.read_bytes() == b'{"seq":1}\n'  # a reader reads on while it is held
            child.stdin.write("go\n")
            child.stdin.close()
            assert child.wait(timeout=30) == 0
            assert lock(fd, wait=False)  # the holder is gone: its lock with it
        finally:
            os.close(fd)
            if child.poll() is None:
                child.kill()


def test_held_says_it_waits_and_waits_for_the_holder(tmp_path, capsys):
    path = tmp_path / "game.hcg"
    first, second = _open(path), _open(path)
    try:
        assert lock(first, wait=False)
        let_go = threading.Timer(0.3, unlock, (first,))
        let_go.start()
        began = time.monotonic()
        with held(second, "waiting for game.hcg: another hc is writing it"):
            waited = time.monotonic() - began
            assert not lock(first, wait=False)  # now the second holds it
        let_go.join()
        assert waited >= 0.2
        assert capsys.readouterr().err == "waiting for game.hcg: another hc is writing it\n"
        assert lock(first, wait=False)  # the block is over: let go
    finally:
        os.close(first)
        os.close(second)


def test_held_says_nothing_when_the_lock_is_free(tmp_path, capsys):
    fd = _open(tmp_path / "game.hcg")
    try:
        with held(fd, "waiting for game.hcg: another hc is writing it"):
            pass
        assert capsys.readouterr().err == ""
    finally:
        os.close(fd)

"""A disk that fills: what was answered is logged, what could not be is said, exit 2."""

from __future__ import annotations

import json
import os

from hc_cli.cli.app import app

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

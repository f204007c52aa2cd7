"""The replayable log: one JSON line per resolution, appended whole, flushed and synced.

Each entry holds what is needed to resolve it again (command, rule set, options, seed or
dice, house-rules files), what came out, the tool's version and a digest of the tables used.
A writer killed mid-line can leave at most one partial line at the end; readers skip it and
say so, so earlier entries are never lost.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from typing import Any

from hc_cli import __version__
from hc_cli.errors import HcError
from hc_cli.execute import Call


def file_digest(path: str) -> str:
    """The SHA-256 of a file's bytes: a moved house-rules file is known by it."""
    import hashlib

    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as exc:
        raise HcError(
            f"cannot read the house-rules file '{path}': {exc.strerror}", "give a readable file"
        ) from None


def rules_record(paths: tuple[str, ...]) -> list[dict[str, str]]:
    """Each --rules file by its absolute path and its content's digest."""
    return [{"path": os.path.abspath(p), "sha256": file_digest(p)} for p in paths]


def make_entry(call: Call, result: dict[str, Any], digest: str | None) -> dict[str, Any]:
    return {
        "hc": __version__,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": call.command,
        "ruleset": call.ruleset,
        "flags": call.flags,
        "seed": result.get("seed"),
        "dice": call.dice,
        "odds": call.odds,
        "rules": rules_record(call.rules),
        "tables": digest,
        "result": result,
    }


def append(path: str, entry: dict[str, Any]) -> None:
    """Append one whole line: a single write on an O_APPEND descriptor, then fsync."""
    append_many(path, [entry])


def append_many(path: str, entries: list[dict[str, Any]]) -> None:
    """Append whole lines: one write on an O_APPEND descriptor, then one fsync."""
    data = "".join(
        json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n" for entry in entries
    ).encode("utf-8", "backslashreplace")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise HcError(
            f"cannot write the log '{path}': {exc.strerror}",
            "give --log a file in a directory you can write to",
        ) from None
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class LogContents:
    entries: list[tuple[int, dict[str, Any]]]  # (line number, entry)
    damaged: list[str]  # lines that are not entries, said plainly
    truncated: bool  # a last line cut short (its writer was stopped mid-write)


def read(path: str) -> LogContents:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise HcError(
            f"cannot read the log '{path}': {exc.strerror}", "give the file written by --log"
        ) from None
    lines = data.split(b"\n")
    tail = lines.pop()  # after the last newline: empty, or a line cut short
    entries, damaged = [], []
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
            if not isinstance(entry, dict) or "command" not in entry:
                raise ValueError("not an entry")
        except ValueError:
            damaged.append(f"line {number}: not a log entry")
            continue
        entries.append((number, entry))
    return LogContents(entries, damaged, truncated=bool(tail.strip()))

"""The replayable log: one JSON line per resolution, appended whole, flushed and synced.

Each entry holds what is needed to resolve it again (command, rule set, options, seed or
dice, house-rules files), what came out, the tool's version and a digest of the tables used.
A writer killed mid-line can leave at most one partial line at the end; readers skip it and
say so, so earlier entries are never lost.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
import time

from hc_cli import __version__
from hc_cli.errors import HcError
from hc_cli.execute import Call
from hc_cli.record import field, record

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any


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
        **({"exact": True} if call.exact else {}),
        "rules": rules_record(call.rules),
        "tables": digest,
        "result": result,
    }


def append(path: str, entry: dict[str, Any]) -> None:
    """Append one whole line: a single write on an O_APPEND descriptor, then fsync."""
    append_many(path, [entry])


def append_many(path: str, entries: list[dict[str, Any]]) -> None:
    """Append whole lines: one write on an O_APPEND descriptor, then one fsync. Only a
    regular file is a log (not a device, a FIFO, /proc); a last line cut short by a writer
    that was stopped is ended first, so a new entry always starts on a line of its own."""
    if not path:
        raise HcError("--log '' names no file", "give --log FILE")
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        raise HcError(
            f"cannot write the log '{path[:80]}': {exc.strerror}",
            "give --log a regular file in a directory you can write to",
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise HcError(
                f"the log '{path[:80]}' is not a regular file",
                "give --log a file, not a device, a pipe or /proc",
            )
        fcntl.flock(fd, fcntl.LOCK_EX)  # one writer at a time: the chain stays whole
        size = os.fstat(fd).st_size
        torn = bool(size) and os.pread(fd, 1, size - 1) != b"\n"
        seq, prev = _last_link(fd, size, torn)
        lines = []
        for entry in entries:
            seq += 1
            line = json.dumps(
                {"seq": seq, "prev": prev, **entry}, separators=(",", ":"), ensure_ascii=False
            ).encode("utf-8", "backslashreplace")
            prev = chain_hash(line)
            lines.append(line + b"\n")
        data = (b"\n" if torn else b"") + b"".join(lines)  # a cut line is ended first
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except OSError as exc:
        raise HcError(
            f"cannot write the log '{path[:80]}': {exc.strerror}",
            "free some space, or give --log another file",
        ) from None
    finally:
        os.close(fd)


MAX_LINE = 1_000_000  # bytes: a log entry is a few kilobytes


def chain_hash(line: bytes) -> str:
    """What the next entry says of this one: a change to any byte of it breaks the chain."""
    import hashlib

    return hashlib.sha256(line).hexdigest()


def _last_link(fd: int, size: int, torn: bool) -> tuple[int, str | None]:
    """The sequence number and hash of the last whole entry, to chain the next one on."""
    if not size:
        return 0, None
    end = size if not torn else size  # a torn tail is not an entry: look before it
    start = max(0, end - MAX_LINE)
    block = os.pread(fd, end - start, start)
    lines = block.split(b"\n")
    if torn:
        lines = lines[:-1]
    for line in reversed(lines):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("seq"), int):
            return entry["seq"], chain_hash(line)
        return 0, chain_hash(line)
    return 0, None


@record
class LogContents:
    entries: list[tuple[int, dict[str, Any]]]  # (line number, entry)
    damaged: list[str]  # lines that are not entries, said plainly
    truncated: bool  # a last line cut short (its writer was stopped mid-write)
    broken: list[str] = field(default_factory=list)  # where the chain of entries breaks


def read(path: str) -> LogContents:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise HcError(
            f"cannot read the log '{path[:80]}': {exc.strerror}", "give the file written by --log"
        ) from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise HcError(f"'{path[:80]}' is not a regular file", "give the file written by --log")
        lines = []
        while True:
            raw = f.readline(MAX_LINE + 1)
            if not raw:
                break
            lines.append(raw if len(raw) <= MAX_LINE else b"<too long>")
    tail = lines.pop() if lines and not lines[-1].endswith(b"\n") else b""
    lines = [line.rstrip(b"\n") for line in lines]
    entries, damaged, broken = [], [], []
    expected, prev = 1, None
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
            if not isinstance(entry, dict) or "command" not in entry:
                raise ValueError("not an entry")
        except (ValueError, RecursionError):
            damaged.append(f"line {number}: not a log entry (garbage, or an entry damaged)")
            continue
        seq = entry.get("seq")
        if isinstance(seq, int) and not isinstance(seq, bool):
            if seq > expected:
                broken.append(
                    f"line {number}: entry {seq}, but {expected} was next: "
                    f"{seq - expected} deleted before it"
                )
            elif seq < expected:
                broken.append(
                    f"line {number}: entry {seq} again, after {expected - 1}: duplicated or moved"
                )
            elif entry.get("prev") != prev:
                broken.append(
                    f"line {number}: entry {seq} does not chain onto the entry before "
                    "it: that entry was edited, or this one forged"
                )
            expected = max(expected, seq) + 1
        prev = chain_hash(raw)
        entries.append((number, entry))
    return LogContents(entries, damaged, bool(tail.strip()), broken)

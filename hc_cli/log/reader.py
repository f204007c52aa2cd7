"""A log read back a line at a time, in constant memory: each entry with its own hash, each
line that is not an entry, and each break in the chain (an entry deleted, moved, duplicated
or edited, an entry keyed but unsigned), as `hc replay` and `hc luck` read it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from hc_cli.core.errors import HcError
from hc_cli.log.chain import KEYED, MAX_LINE, chain_hash, sig_problem, whole_entry
from hc_cli.log.keys import wrong_key
from hc_cli.log.osfile import NONBLOCK

MAX_DAMAGED = 1000  # lines that are not entries: past this many, this is no log of hc's


@dataclass(slots=True)
class LogEvent:
    """What reading a log finds, in order: an entry, a damaged line, a break in the chain."""

    kind: str  # "entry", "damaged" or "broken"
    line: int
    entry: dict[str, Any] = field(default_factory=dict)  # the entry (kind "entry")
    message: str = ""  # what is wrong, in words
    digest: str = ""  # the entry's own hash, under the key in force (kind "entry")


class LogReader:
    """Iterate over a log's lines in constant memory; afterwards `truncated` says whether the
    last line was cut short, and `head` is the (seq, hash) of the last entry read."""

    def __init__(self, path: str, key: bytes | None = None) -> None:
        self.path = path
        self.key = key
        self.truncated = False
        self.unsigned = False  # keyed, and the newest entry has no MAC of its own
        self.signing = False  # keyed entries signed have begun: every later one must be
        self.head: tuple[int, str] | None = None
        self.entries = 0

    def __iter__(self) -> Iterator[LogEvent]:
        from hc_cli.tables.files import shown_path

        try:
            fd = os.open(self.path, os.O_RDONLY | NONBLOCK)
        except OSError as exc:
            raise HcError(
                f"cannot read the log '{shown_path(self.path)}': {exc.strerror}",
                "give the file written by --log",
            ) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise HcError(
                f"'{shown_path(self.path)}' is not a regular file (a folder, a device or a pipe)",
                "give the file written by --log",
            )
        with os.fdopen(fd, "rb") as f:
            yield from self._lines(f)

    def _lines(self, f: BinaryIO) -> Iterator[LogEvent]:
        from hc_cli.tables.files import shown_path

        expected, last, damaged = 1, None, 0
        number = 0
        while True:
            raw = f.readline(MAX_LINE + 1)
            if not raw:
                break
            number += 1
            if not raw.endswith(b"\n") and len(raw) > MAX_LINE:
                while raw and not raw.endswith(b"\n"):  # a line too long: skip the rest
                    raw = f.readline(MAX_LINE + 1)
                raw = b"<too long>"
            elif not raw.endswith(b"\n") and not whole_entry(raw):
                self.truncated = bool(raw.strip())  # the last line, cut short by a stopped writer
                break
            raw = raw.rstrip(b"\n")
            if not raw.strip():
                continue
            entry = _entry(raw)
            if entry is None:
                damaged += 1
                yield LogEvent(
                    "damaged",
                    number,
                    message=f"line {number}: not a log entry (garbage, or an entry damaged)",
                )
                if damaged >= MAX_DAMAGED:
                    yield LogEvent(
                        "damaged",
                        number,
                        message=f"{MAX_DAMAGED:,} lines are not entries: this is no log of hc's; "
                        "the rest is not read",
                    )
                    return
                continue
            seq = entry.get("seq")
            broken = _chain_break(number, entry, expected, last, self.key)
            wrong = seq == 1 and self.key is not None and wrong_key(raw, self.key)
            if wrong:  # not a break in the chain: the wrong key
                raise HcError(f"the key given does not match {shown_path(self.path)}: {wrong}",
                              "give the key it was written with")  # fmt: skip
            if not broken and entry.get("mac") == KEYED and self.key is not None:
                problem = sig_problem(raw, self.key)
                self.unsigned = bool(problem and problem.startswith("carries no"))
                if problem and (not self.unsigned or self.signing):
                    broken = f"line {number}: entry {entry.get('seq')} {problem}"
                self.signing = self.signing or not self.unsigned
            if broken:
                yield LogEvent("broken", number, message=broken)
            if isinstance(seq, int) and not isinstance(seq, bool):
                expected = max(expected, seq) + 1
            last = raw
            digest = chain_hash(raw, self.key)
            self.head = (seq if isinstance(seq, int) else 0, digest)
            self.entries += 1
            yield LogEvent("entry", number, entry=entry, digest=digest)


def _entry(raw: bytes) -> dict[str, Any] | None:
    import json

    try:
        entry = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return entry if isinstance(entry, dict) and "command" in entry else None


def _chain_break(
    number: int, entry: dict[str, Any], expected: int, last: bytes | None, key: bytes | None
) -> str:
    """Where an entry breaks the chain onto the entry before it (`last`, its line), in
    words; empty when it does not. A keyed entry names that line's HMAC under the key."""
    import json

    seq = entry.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        return (
            f"line {number}: an entry without a sequence number: written or changed by hand "
            f"(seq {json.dumps(seq)[:20]})"
        )
    if seq > expected:
        return (
            f"line {number}: entry {seq}, but {expected} was next: {seq - expected} deleted "
            "before it"
        )
    if seq < expected:
        return f"line {number}: entry {seq} again, after {expected - 1}: duplicated or moved"
    if entry.get("mac") == KEYED and key is None:
        return (
            f"line {number}: entry {seq} is chained with a key: give the game's key "
            "(HC_LOG_KEY or HC_LOG_KEY_FILE) to check it"
        )
    if entry.get("mac") != KEYED and key is not None:
        return (
            f"line {number}: entry {seq} is not chained with the key given: anyone could have "
            "written it"
        )
    prev = None if last is None else chain_hash(last, key if entry.get("mac") == KEYED else None)
    if entry.get("prev") != prev:
        return (
            f"line {number}: entry {seq} does not chain onto the entry before it: that entry "
            "was edited, or this one forged"
        )
    return ""

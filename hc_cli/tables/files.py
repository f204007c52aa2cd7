"""Reading a file hc did not write itself, or may find changed: only a regular file, only up
to a bound. A FIFO would hang every command and a device such as /dev/zero fill the memory;
so a file is opened without blocking, refused unless it is a regular file, and read no further
than its bound."""

from __future__ import annotations

import os
import stat
from typing import Any

from hc_cli.core.words import printable
from hc_cli.log.osfile import NONBLOCK


class FileRefused(OSError):
    """Not a regular file, or larger than hc reads: `reason` says which in words."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason


def read_bounded(path: str, limit: int) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them; `FileRefused` for
    anything else (an OSError, as a missing file's error is)."""
    fd = os.open(path, os.O_RDONLY | NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(path, "is not a regular file (a folder, a device or a pipe)")
        if info.st_size > limit:
            raise FileRefused(path, f"is larger than {limit:,} bytes")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise FileRefused(path, f"is larger than {limit:,} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: str, limit: int) -> str:
    """`read_bounded` as UTF-8 text (a UnicodeDecodeError is a ValueError)."""
    return read_bounded(path, limit).decode("utf-8")


def shown_path(path: str) -> str:
    """A path as hc prints it: its control characters escaped (a file name can hold an escape
    sequence), whole (a hint that names it runs as written)."""
    return printable(str(path))


def read_cache(path: str, description: str, limit: int) -> Any:
    """A cache hc wrote (`write_cache`): its content when it was written for the same sources
    and its checksum matches (a cache edited, cut or swapped is not trusted); else None, and
    the caller builds it again. Caches are marshal data: reading one needs no import (JSON's
    would cost a TAB press more than the rest of it), and hc writes them only of plain data."""
    import marshal
    import zlib

    try:
        head = marshal.loads(read_bounded(path, limit))
        if not (isinstance(head, tuple) and len(head) == 3 and head[0] == description):
            return None
        _, crc, body = head
        if not isinstance(body, bytes) or crc != zlib.crc32(body):
            return None
        return marshal.loads(body)
    except (OSError, ValueError, EOFError, TypeError, RecursionError):
        return None  # no cache yet, or a damaged one


def write_cache(path: str, description: str, content: Any) -> None:
    """The sources it was built from, the content's checksum, and the content; written whole
    or not at all, under a name of its own per Python (marshal's format is Python's)."""
    import marshal
    import zlib

    from hc_cli.tables.paths import write_atomically

    body = marshal.dumps(content)
    write_atomically(path, marshal.dumps((description, zlib.crc32(body), body)))

"""What a game or log file needs that differs between POSIX and Windows, in one place: the
lock every writer holds while it appends (a game's, from reading its state to appending what
it did), so the chain stays whole; a read at an offset; a non-blocking open.

POSIX has `fcntl.flock` on the whole file. Windows has no fcntl: `msvcrt.locking` locks a
range of bytes, and a locked byte cannot be read by anyone else, so the lock is taken on one
byte far past the end of any file hc writes: readers (`hc status`, `hc replay`) read on.
A lock is the process's until `unlock`, or until the file is closed.
"""

from __future__ import annotations

import os
import sys

# Opening a FIFO or a device never blocks (POSIX); Windows has no such flag, nor such files.
NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def read_at(fd: int, size: int, offset: int) -> bytes:
    """Up to `size` bytes from `offset` of the file open on `fd` (`os.pread`, which Windows
    lacks: there the file's position is moved, read from and put back)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    at = os.lseek(fd, 0, os.SEEK_CUR)
    try:
        os.lseek(fd, offset, os.SEEK_SET)
        return os.read(fd, size)
    finally:
        os.lseek(fd, at, os.SEEK_SET)


if sys.platform == "win32":
    import msvcrt

    LOCK_BYTE = 2**62  # where the lock is taken: past any file's end
    POLL = 0.05  # seconds between tries (msvcrt's own waiting gives up after ten seconds)

    def _locking(fd: int, mode: int) -> bool:
        """msvcrt.locking on the lock byte, the file's position kept: whether it was done."""
        at = os.lseek(fd, 0, os.SEEK_CUR)
        os.lseek(fd, LOCK_BYTE, os.SEEK_SET)
        try:
            msvcrt.locking(fd, mode, 1)
            return True
        except OSError:
            return False
        finally:
            os.lseek(fd, at, os.SEEK_SET)

    def lock(fd: int, wait: bool = True) -> bool:
        """Lock the file open on `fd` for this process; `wait`: until it is free, else return
        False at once when another holds it. True once it is held."""
        import time

        while not _locking(fd, msvcrt.LK_NBLCK):
            if not wait:
                return False
            time.sleep(POLL)
        return True

    def unlock(fd: int) -> None:
        """Let the next writer in (closing the file does too)."""
        _locking(fd, msvcrt.LK_UNLCK)

else:
    import fcntl

    def lock(fd: int, wait: bool = True) -> bool:
        """Lock the file open on `fd` for this process; `wait`: until it is free, else return
        False at once when another holds it. True once it is held."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(fd: int) -> None:
        """Let the next writer in (closing the file does too)."""
        fcntl.flock(fd, fcntl.LOCK_UN)


class held:  # noqa: N801 - used as `with held(fd):`, like a function
    """The file open on `fd` locked for the block; `waiting`: said on stderr when another
    holds it, before waiting for it."""

    def __init__(self, fd: int, waiting: str | None = None) -> None:
        self.fd = fd
        self.waiting = waiting

    def __enter__(self) -> int:
        if not lock(self.fd, wait=self.waiting is None):
            sys.stderr.write(f"{self.waiting}\n")
            lock(self.fd)
        return self.fd

    def __exit__(self, *exc: object) -> None:
        unlock(self.fd)

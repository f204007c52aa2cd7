"""The standard streams, as hc writes to them: always writable (a closed one becomes the null
device, a character the encoding lacks is escaped), and silenced when nothing more can reach
them (a broken pipe, a full disk)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


def streams() -> bool:
    """Standard streams hc can always write to: a closed one becomes the null device (and
    the run then ends 1), any character the encoding lacks is escaped, not an error."""
    closed = sys.stdout is None
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode))  # noqa: SIM115 - for the whole run
        stream = getattr(sys, name)
        if mode == "w" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    return closed


def silence() -> None:
    """Nothing more can reach stdout or stderr (a broken pipe, a full disk): say nothing
    more, and let what is still buffered go nowhere rather than fail at exit."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(null, stream.fileno())
        except (OSError, ValueError, AttributeError):
            pass


@contextmanager
def quiet_broken_pipe() -> Iterator[None]:
    """The reader stopped (hc ... | head -1): say nothing more, and end 141, as a shell says
    SIGPIPE (click would end 1, as for a failed check)."""
    try:
        yield
    except BrokenPipeError:
        silence()
        raise SystemExit(141) from None

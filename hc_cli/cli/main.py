"""The `hc` entry point (`[project.scripts]`, and `python -m hc_cli`): the typer app
(`hc_cli.cli.app`) on standard streams hc can always write to."""

from __future__ import annotations

import errno
import sys

from hc_cli.cli.output import silence, streams


def main() -> None:
    """Run the app as `hc` (so TAB completion finds `_HC_COMPLETE`). A standard stream that is
    closed, full or a broken pipe ends hc quietly: 141 for a broken pipe (as a shell reports
    SIGPIPE), 1 for the rest; Ctrl-C 130."""
    closed = streams()
    try:
        from hc_cli.cli.app import app

        try:
            app.main(prog_name="hc")
        finally:
            sys.stdout.flush()
    except SystemExit as done:
        if closed and not done.code:
            sys.exit(1)  # it resolved, but nothing could be said: not a success
        raise
    except KeyboardInterrupt:  # Ctrl-C before or after a command ran: 130, quietly
        sys.exit(130)
    except BrokenPipeError:
        silence()
        sys.exit(141)
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EIO, errno.EBADF, errno.EDQUOT):
            raise
        silence()
        sys.exit(1)

"""`hc batch`: JSON Lines in, JSON Lines out, one resolution a line, in the order of the lines.

A request has the fields of the command line: `{"command": "fire", "weapon": "ingrave-ar",
"range": 14, "target": "crusader", "seed": 7}` (`hc_cli.batch.request`). Each result is what
`--json` prints, with its line number; a bad line yields `{"line": N, "error": ..., "hint":
...}` and the batch goes on. Lines in volume are shared among worker processes
(`concurrent.futures`), and still answered in order.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Sequence
from typing import IO, Any

from hc_cli.batch.request import (
    GAME_FIELDS,
    Fields,
    field_names,
    game_fields,
    parse_request,
    spell_field,
    with_seed,
)
from hc_cli.core.errors import HcError
from hc_cli.core.words import printable
from hc_cli.games import choice
from hc_cli.log.entry import as_dict
from hc_cli.plugin.execute import Call, Session, execute

GROUP = 256  # the most lines resolved between two syncs of the log (and two writes)


def _error_line(number: int, message: str, hint: str | None) -> dict[str, Any]:
    return {"line": number, "error": message, "hint": hint}


Answer = tuple  # (line number, its text, its log entry or None, whether it failed)


def _request(line: str) -> Any:
    try:
        return json.loads(line)
    except RecursionError:
        raise HcError("nested too deep to be a request", "one flat JSON object a line") from None
    except ValueError as exc:
        where = f" at column {exc.colno}" if hasattr(exc, "colno") else ""
        reason = getattr(exc, "msg", None) or str(exc).split(":")[0]
        raise HcError(f"not JSON: {reason}{where}", "one JSON object a line") from None


def _answer(
    number: int, line: str, session: Session, fields_of: Fields, log: bool = False
) -> tuple[str, Call | None, Any, bool]:
    """One line's answer as text, its call and result for a batch that logs (None for a line
    that failed, and for an action of a game, which the game file logs) and whether it failed.
    Any bad line, of any kind, becomes an error object: a batch never stops."""
    try:
        request = _request(line)
        if isinstance(request, dict) and (
            any(name in request for name in GAME_FIELDS) or fields_of.game_for_all
        ):
            found = _game_action(request, session, fields_of, log)
            if found is not None:
                found["line"] = number
                return _text(found), None, None, False
        shape, (call, given) = fields_of.shaped(request)
        if shape is not None:
            call = with_seed(call, request.get("seed"))
        result = as_dict(execute(call, session, given, spell_field))
        return _text({**result, "line": number}), call, result, False
    except HcError as error:
        return _text(_error_line(number, error.message, error.hint)), None, None, True
    except (RecursionError, OverflowError, MemoryError) as exc:
        return (
            _text(
                _error_line(number, f"too big to resolve ({type(exc).__name__})", "smaller values")
            ),
            None,
            None,
            True,
        )
    except Exception as exc:  # a fault of hc's own: this line's error, and the batch goes on
        message = f"hc could not resolve this line: an error of its own ({type(exc).__name__})"
        return _text(_error_line(number, message, "report it, with the line")), None, None, True


def _game_action(
    request: dict, session: Session, fields_of: Fields, log: bool
) -> dict[str, Any] | None:
    """A line that acts in a game (it names a unit, or is a command the game takes for all
    its sides, such as its initiative): resolved against the game and appended to it, in the
    order of the lines. None: a line of no game."""
    from hc_cli.games.actions import act
    from hc_cli.games.roster import game_rules

    fields = field_names(request)
    own = game_fields(fields)
    at = own.get("at") or []
    wants = own.get("unit") is not None or bool(at) or bool(own.get("anyway"))
    found = choice.game_in_force(own.get("game", fields_of.game))
    if found is None:
        if wants:
            raise HcError(
                "no game in force to find the unit in",
                "give the line a 'game' field, or set HC_GAME=FILE",
            )
        return None
    from hc_cli.games.choice import game_file_problem, unreadable_game

    problem = game_file_problem(found[0])
    if problem is not None:
        if own.get("game") is not None:
            found = (found[0], "field 'game'")
        raise unreadable_game(found, problem, batch=True)
    ruleset = choice.choose(("--game", found[0]))[0]
    if not wants and fields.get("ruleset", ruleset) != ruleset:
        return None  # another rule set named: a line of no game, as on the command line
    fields.setdefault("ruleset", ruleset)
    if not wants and fields.get("command") not in game_rules(fields["ruleset"]).whole_game:
        return None
    if log:
        raise HcError("an action of a game is logged in the game file itself", "leave out --log")
    call, _ = parse_request(fields, fields_of)
    res, _report, _call = act(
        call,
        found[0],
        own.get("unit"),
        at,
        bool(own.get("anyway")),
        session,
        rules_changed=bool(own.get("rules_changed")),
        reroll=bool(own.get("reroll")),
        agreed=bool(own.get("agreed")),
    )
    return as_dict(res)


_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def _text(obj: dict) -> str:
    text = _COMPACT.encode(obj)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from the input: escape it, do not die
            text = json.dumps(obj, separators=(",", ":"))
    return text + "\n"


def _groups(stream: Any) -> Iterator[list[str] | None]:
    """The input's lines, a group at a time: every whole line that has arrived (up to GROUP),
    so a piped file goes in big groups and a script that writes a line and waits for its
    answer gets it at once. Before waiting for more input it yields None (every answer due
    must be written then). Decoded and split as the text stream itself would."""
    try:
        fd = stream.buffer.fileno()
    except (AttributeError, OSError, ValueError):  # no descriptor (a test's stream): read lines
        group: list[str] = []
        for line in stream:
            group.append(line)
            if len(group) >= GROUP:
                yield group
                group = []
        if group:
            yield group
        return
    import codecs
    import io
    import select

    errors = stream.errors if stream.errors not in (None, "strict") else "replace"
    decoder = codecs.getincrementaldecoder(stream.encoding or "utf-8")(errors)
    lines = io.IncrementalNewlineDecoder(decoder, translate=True)
    pending = ""
    while True:
        try:
            waiting = not select.select([fd], [], [], 0)[0]
        except (OSError, ValueError):  # a descriptor select cannot watch: just read
            waiting = False
        if waiting:
            yield None
        data = os.read(fd, 1 << 16)
        pending += lines.decode(data, final=not data)
        *whole, pending = pending.split("\n")
        for start in range(0, len(whole), GROUP):
            yield whole[start : start + GROUP]
        if not data:
            break
    if pending:
        yield [pending]


class _Worker:
    """Resolves groups of lines: in hc's own process, or in each worker process of a
    parallel batch (forked with the tables loaded and the requests seen so far)."""

    def __init__(self, log: bool, args: Sequence[str] = ()) -> None:
        self.session = Session()
        self.fields_of = Fields(args)
        self.log = log

    def group(self, task: tuple[int, list[str]]) -> list[Answer]:
        """Each line's answer, in order: (line number, the answer as text, its log entry,
        whether it failed). Blank lines have none."""
        first, lines = task
        answers = []
        for number, line in enumerate(lines, first):
            if not line.strip():
                continue
            text, call, result, failed = _answer(
                number, line, self.session, self.fields_of, self.log
            )
            entry = None
            if call is not None and self.log:
                from hc_cli.log.chain import make_entry

                digest = self.session.digest(call.ruleset, call.rules)
                entry = make_entry(call, result, digest)
            answers.append((number, text, entry, failed))
        return answers


# The worker processes of a parallel batch are forked from hc's own, so they start with what
# it has loaded: the worker that resolves their groups is this one, set before they are.
_forked: _Worker | None = None


def _in_worker(task: tuple[int, list[str]]) -> list[Answer]:
    assert _forked is not None
    return _forked.group(task)


def _worker_signals(hc: int) -> None:
    """A worker leaves Ctrl-C to hc (which ends the batch) and dies of SIGTERM at once
    (one sent while it was forked, held till now, included); and it ends once hc (process
    `hc`, named before the fork: a worker that starts after hc was killed has another parent
    already) is gone (killed by SIGKILL, which no handler sees), rather than wait for work for
    ever."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT, signal.SIGTERM])
    threading.Thread(target=_end_with, args=(hc,), daemon=True).start()


def _end_with(parent: int) -> None:
    """Wait while `parent` (hc) lives, then end this worker: nothing is left to answer to."""
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


class _Pool:
    """`jobs` worker processes (`concurrent.futures`, forked), each resolving a group at a
    time; `result(task, future)` takes a group's answers back. A worker that dies (killed by
    any signal, or crashed) ends the pool: every group not yet answered, and every group
    after, is resolved in hc's own process, so every line is answered, in order.

    A worker killed while it writes its answer leaves half a message in the pipe, and the
    executor's own thread waits for the rest for ever (CPython 3.11 does not see the death
    then): so a wait for an answer looks every quarter second for a worker gone, and a pool
    ended that way is `stuck`: hc then leaves by `os._exit` once every line is answered and
    logged, for the interpreter's exit would wait on that thread."""

    def __init__(self, jobs: int, worker: _Worker) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        global _forked
        _forked = worker
        self.worker = worker
        self.jobs = jobs
        self.stuck = False
        self.forked = False
        self.executor: Any = ProcessPoolExecutor(
            jobs,
            mp_context=multiprocessing.get_context("fork"),
            initializer=_worker_signals,
            initargs=(os.getpid(),),
        )

    def submit(self, task: tuple[int, list[str]]) -> Any:
        """The group's future; None once the pool has ended (it is resolved here when due)."""
        if self.executor is None:
            return None
        import signal

        # The first group forks the workers. Ctrl-C or SIGTERM is held meanwhile, and handled
        # once they run: handled mid-fork, in a hook of the fork where an exception is
        # ignored, it would be lost, and hc would go on with its batch.
        held = None
        if not self.forked:
            held = signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT, signal.SIGTERM])
        try:
            return self.executor.submit(_in_worker, task)
        except RuntimeError:  # BrokenProcessPool: a worker died
            self.close()
            return None
        finally:
            if held is not None:
                self.forked = True
                signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def result(self, task: tuple[int, list[str]], future: Any) -> list[Answer]:
        import multiprocessing
        from concurrent.futures import TimeoutError as Waiting

        while future is not None and (self.executor is not None or future.done()):
            try:  # a group answered before the pool ended is taken as it was answered
                return future.result(timeout=0.25)
            except Waiting:
                if len(multiprocessing.active_children()) < self.jobs:  # one died unseen
                    self.stuck = True
                    self.close()
            except Exception:  # its worker died (BrokenProcessPool), or failed: again, here
                self.close()
                break
        return self.worker.group(task)

    def close(self) -> None:
        """End the workers: each ends after the group it is on (a few milliseconds), and is
        waited for, so none is left running after hc; a pool `stuck` on a dead worker's half
        answer cannot be waited for: its workers are ended at once."""
        if self.executor is None:
            return
        executor, self.executor = self.executor, None
        if not self.stuck:
            executor.shutdown(wait=True, cancel_futures=True)
            return
        import multiprocessing

        executor.shutdown(wait=False, cancel_futures=True)
        for child in multiprocessing.active_children():
            child.terminate()
        for child in multiprocessing.active_children():
            child.join()


def _acts_in_a_game(lines: list[str], fields_of: Fields) -> bool:
    """Whether a group may hold an action of a game (read from the text: a line that merely
    mentions a field of a game goes this way too, and is answered the same)."""
    words = [f'"{name}"' for name in GAME_FIELDS] + (
        ['"command"'] if fields_of.game_for_all else []
    )
    return any(word in line for line in lines for word in words)


def jobs_default() -> int:
    """The processes a batch may use: the CPUs hc may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class LogStopped(HcError):
    """A batch stopped at the first line it could not log: every line answered is logged."""


class _Writer:
    """Answers out in line order; with a log, each group's entries logged (and synced) before
    its answers are written. A group the log cannot take whole is logged a line at a time,
    and the batch stops at the first line it cannot log, saying so."""

    def __init__(self, out: IO[str], log_path: str | None) -> None:
        self.out = out
        self.log_path = log_path
        self.failed = 0
        self.logged = 0
        self.receipt: str | None = None
        self.key = None
        if log_path is not None:
            from hc_cli.log.chain import log_key

            self.key = log_key()

    def write(self, answers: list[tuple[int, str, dict | None, bool]]) -> None:
        from hc_cli.log.chain import append_many

        entries = [entry for _, _, entry, _ in answers if entry is not None]
        if entries:
            try:
                self.receipt = append_many(self.log_path or "", entries, self.key)
                self.logged += len(entries)
            except HcError:
                self._one_by_one(answers)
                return
        self._out("".join(text for _, text, _, _ in answers))
        self.failed += sum(bad for *_, bad in answers)

    def _one_by_one(self, answers: list[tuple[int, str, dict | None, bool]]) -> None:
        from hc_cli.log.chain import append_many

        for number, text, entry, bad in answers:
            if entry is not None:
                try:
                    self.receipt = append_many(self.log_path or "", [entry], self.key)
                    self.logged += 1
                except HcError as error:
                    raise LogStopped(
                        f"stopped at line {number}: {error.message}",
                        "every line before it is answered and logged; "
                        + (error.hint or "give --log another file"),
                    ) from None
            self._out(text)
            self.failed += bad

    def _out(self, text: str) -> None:
        if text:
            self.out.write(text)
            self.out.flush()


def run(
    stream: Any,
    out: IO[str],
    log_path: str | None = None,
    jobs: int | None = None,
    args: Sequence[str] = (),
) -> int:
    """Resolve every line of `stream`, in order; return how many failed. Each group of lines
    (see `_groups`) is written to the log, if there is one, and synced before their answers
    are written: every answered line is in the log. When more input is waiting than hc has
    answered, and `jobs` (default: the CPUs) is above 1, groups are resolved by that many
    worker processes, and still answered in order; the groups of a worker that dies are
    resolved again here. `args`: `hc`'s own options before the command (`--ruleset NAME`,
    `--game FILE`), for the lines that name neither."""
    from collections import deque

    worker = _Worker(bool(log_path), args)
    jobs = jobs_default() if jobs is None else jobs
    writer = _Writer(out, log_path)
    number = 1
    streak = 0  # groups read since hc last waited for input
    pool: _Pool | None = None
    pending: deque = deque()  # (group, its future) submitted and not yet written, in order

    def write_oldest() -> None:
        task, future = pending.popleft()
        writer.write(pool.result(task, future) if pool is not None else worker.group(task))

    try:
        for group in _groups(stream):
            if group is None:
                streak = 0
                while pending:  # nothing more to read yet: every answer due goes out
                    write_oldest()
                continue
            streak += 1
            if pool is None and jobs > 1 and streak == 2 and hasattr(os, "fork"):
                # A second group arrived before hc waited for input: volume. Workers are
                # forked now, with the tables and the requests seen so far.
                out.flush()
                pool = _Pool(jobs, worker)
            task = (number, group)
            if pool is None:
                writer.write(worker.group(task))
            elif _acts_in_a_game(group, worker.fields_of):
                while pending:  # a game's actions go in order, in this process
                    write_oldest()
                writer.write(worker.group(task))
            else:
                while len(pending) >= 4 * jobs:  # answers wait for a slow group: no more
                    write_oldest()
                pending.append((task, pool.submit(task)))
                while pending and (pending[0][1] is None or pending[0][1].done()):
                    write_oldest()
            number += len(group)
        while pending:
            write_oldest()
    finally:
        if pool is not None:
            pool.close()
    if writer.receipt is not None:
        sys.stderr.write(f"logged to {printable(str(log_path))}: receipt {writer.receipt}\n")
        sys.stderr.flush()
    if pool is not None and pool.stuck:  # see _Pool: every line is answered and logged
        out.flush()
        sys.stderr.flush()
        os._exit(2 if writer.failed else 0)  # as `hc batch` exits: 2 when a line failed
    return writer.failed

"""Worker processes for `hc batch`: forked with everything loaded, each resolving one group of
lines at a time, their results taken back in the order the groups were given.

A worker that dies (killed by any signal, or crashed) is noticed when its result is due: the
read of its pipe ends. Its group is then resolved again in hc's own process, and the batch goes
on with the workers left: every line is answered, in order, and the log stays whole. Workers
ignore Ctrl-C (hc itself ends the batch) and die quietly with their parent: a worker that
finds its pipe closed is ended by SIGPIPE, with no traceback.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
from collections import deque

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

_SIZE = struct.Struct("!Q")


def _widen(fd: int) -> None:
    """A pipe of 1 MiB where the system allows it (Linux), so that a worker writes a group's
    answers, and hc a group, without waiting for the reader at every 64 KiB."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (ImportError, OSError):
        pass


def _room(fd: int) -> int:
    """The bytes a pipe holds (64 KiB where the system will not say)."""
    try:
        import fcntl

        return fcntl.fcntl(fd, getattr(fcntl, "F_GETPIPE_SZ", 1032))
    except (ImportError, OSError):
        return 1 << 16


def _load(worker: _Worker) -> int:
    return len(worker.queue)


class _Dead(Exception):
    """The worker's pipe ended before its answer did."""


def _packed(obj: Any) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return _SIZE.pack(len(data)) + data


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _send(fd: int, obj: Any) -> None:
    _write(fd, _packed(obj))


def _read(fd: int, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise _Dead
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _receive(fd: int) -> Any:
    (size,) = _SIZE.unpack(_read(fd, _SIZE.size))
    return pickle.loads(_read(fd, size))


class _Worker:
    __slots__ = ("pid", "tasks", "results", "told", "queue", "room", "dead")

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid, self.tasks, self.results = pid, tasks, results
        self.told = 0  # how much of the pool's news it has been given
        self.queue: deque[_Task] = deque()  # its tasks not yet taken back, in order
        self.room = _room(tasks)  # what its task pipe holds
        self.dead = False


class _Task:
    __slots__ = ("task", "worker", "result", "done")

    def __init__(self, task: Any, worker: _Worker | None) -> None:
        self.task, self.worker, self.result, self.done = task, worker, None, False


DEPTH = 2  # tasks a worker holds: the one it works on and the next, so it never waits for hc


class Pool:
    """`jobs` forked workers running `work(task, told)`; `submit` a task when `can_submit`
    (`wait` until then), take results in order with `ready` or `next_result`. Each worker
    holds its next task while it works (when the task fits in its pipe at once, so that hc
    never waits on a worker that waits on hc), and is given another as soon as it is done,
    whichever task's result is due first.

    Workers share what they learn: `work` returns its result and a list of news (answers it
    worked out, say), and every other worker is told that news with its next task (`told`),
    so that no two have to learn the same thing. A task done in hc's own process (its worker
    died) is told nothing and its news shared all the same."""

    def __init__(self, jobs: int, work: Callable[[Any, list], tuple[Any, list]]) -> None:
        self.work = work
        self.all: list[_Worker] = []
        self.pending: deque[_Task] = deque()
        self.news: list[tuple[int, Any]] = []  # (the pid that learned it, what), in order
        for _ in range(jobs):
            self._fork()

    def _fork(self) -> None:
        tasks_r, tasks_w = os.pipe()
        results_r, results_w = os.pipe()
        for fd in (tasks_w, results_w):  # a group's lines and answers pass in one go
            _widen(fd)
        pid = os.fork()
        if pid == 0:  # the worker: never returns into hc's own code
            code = 0
            try:
                os.close(tasks_w)
                os.close(results_r)
                for other in self.all:  # its siblings' ends: a dead parent's pipes must end
                    os.close(other.tasks)
                    os.close(other.results)
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGPIPE, signal.SIG_DFL)
                while True:
                    try:
                        task, told = _receive(tasks_r)
                    except _Dead:
                        break  # hc closed the pipe: the batch is over
                    try:
                        answer = ("ok", self.work(task, told))
                    except Exception as error:  # hc's own process does it again and reports
                        answer = ("error", repr(error))
                    _send(results_w, answer)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(tasks_r)
        os.close(results_w)
        self.all.append(_Worker(pid, tasks_w, results_r))

    def can_submit(self) -> bool:
        return not self.all or any(len(w.queue) < DEPTH for w in self.all)

    def submit(self, task: Any) -> None:
        """Give `task` to the least busy worker (with none left alive, it is done here when
        due). A worker busy with a task takes another only if it fits in its pipe at once;
        otherwise its task is taken back first."""
        while self.all:
            worker = min(self.all, key=_load)
            told = [what for pid, what in self.news[worker.told :] if pid != worker.pid]
            data = _packed((task, told))
            if worker.queue and len(data) > worker.room:
                self._take(worker.queue[0])
                continue
            try:
                _write(worker.tasks, data)
            except OSError:  # it died
                self._bury(worker)
                continue
            worker.told = len(self.news)
            entry = _Task(task, worker)
            worker.queue.append(entry)
            self.pending.append(entry)
            self._forget()
            return
        self.pending.append(_Task(task, None))

    def wait(self) -> None:
        """Until a worker has finished a task: its result is taken, and it has room again."""
        busy = {w.results: w for w in self.all if w.queue}
        if not busy:
            return
        ready, _, _ = select.select(list(busy), [], [])
        for fd in ready:
            self._take(busy[fd].queue[0])

    def ready(self) -> Iterator[Any]:
        """The results due, in the order of their tasks: as far as they are all in."""
        while self.pending and (self.pending[0].done or self.pending[0].worker is None):
            yield self.next_result()

    def next_result(self) -> Any:
        """The result of the oldest task; a worker found dead has its task done here."""
        oldest = self.pending[0]
        if not oldest.done:
            self._take(oldest)
        self.pending.popleft()
        return oldest.result

    def _take(self, entry: _Task) -> None:
        """Take back a task's result: from its worker (whose oldest task it is), or done
        here when there is no worker or it died."""
        worker = entry.worker
        entry.done = True
        if worker is None or worker.dead:
            entry.result = self._here(entry.task)
            return
        worker.queue.popleft()
        try:
            status, answer = _receive(worker.results)
        except (_Dead, OSError, EOFError, pickle.UnpicklingError, struct.error):
            self._bury(worker)
            entry.result = self._here(entry.task)
            return
        if status != "ok":
            entry.result = self._here(entry.task)
            return
        entry.result, news = answer
        self.news += [(worker.pid, what) for what in news]

    def _forget(self) -> None:
        """Drop the news every worker has been told."""
        told = min((worker.told for worker in self.all), default=len(self.news))
        if told >= 1024:
            del self.news[:told]
            for worker in self.all:
                worker.told -= told

    def _here(self, task: Any) -> Any:
        result, news = self.work(task, [])
        self.news += [(0, what) for what in news]
        return result

    def _bury(self, worker: _Worker) -> None:
        """A dead worker: its tasks still due are done here when due."""
        worker.dead = True
        self.all.remove(worker)
        for fd in (worker.tasks, worker.results):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.kill(worker.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(worker.pid, 0)
        except OSError:
            pass

    def close(self, kill: bool = False) -> None:
        """End the workers: closing their pipes ends them; `kill` ends them at once."""
        for worker in list(self.all):
            for fd in (worker.tasks, worker.results):
                try:
                    os.close(fd)
                except OSError:
                    pass
            if kill:
                try:
                    os.kill(worker.pid, signal.SIGKILL)
                except OSError:
                    pass
        for worker in self.all:
            try:
                os.waitpid(worker.pid, 0)
            except OSError:
                pass
        self.all = []

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
import signal
import struct
from collections import deque

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_SIZE = struct.Struct("!Q")


class _Dead(Exception):
    """The worker's pipe ended before its answer did."""


def _send(fd: int, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_SIZE.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


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
    __slots__ = ("pid", "tasks", "results")

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid, self.tasks, self.results = pid, tasks, results


class Pool:
    """`jobs` forked workers running `work(task)`; `submit` a task when `can_submit`, take
    results in order with `next_result`."""

    def __init__(self, jobs: int, work: Callable[[Any], Any]) -> None:
        self.work = work
        self.idle: list[_Worker] = []
        self.all: list[_Worker] = []
        self.pending: deque[tuple[Any, _Worker | None]] = deque()
        self.lost = 0  # workers that died
        for _ in range(jobs):
            self._fork()

    def _fork(self) -> None:
        tasks_r, tasks_w = os.pipe()
        results_r, results_w = os.pipe()
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
                        task = _receive(tasks_r)
                    except _Dead:
                        break  # hc closed the pipe: the batch is over
                    try:
                        answer = ("ok", self.work(task))
                    except Exception as error:  # hc's own process does it again and reports
                        answer = ("error", repr(error))
                    _send(results_w, answer)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(tasks_r)
        os.close(results_w)
        worker = _Worker(pid, tasks_w, results_r)
        self.all.append(worker)
        self.idle.append(worker)

    def can_submit(self) -> bool:
        return bool(self.idle) or not self.all

    def submit(self, task: Any) -> None:
        """Give `task` to an idle worker (with none left alive, it is done here when due)."""
        while self.idle:
            worker = self.idle.pop()
            try:
                _send(worker.tasks, task)
            except OSError:  # it died while idle
                self._bury(worker)
                continue
            self.pending.append((task, worker))
            return
        self.pending.append((task, None))

    def next_result(self) -> Any:
        """The result of the oldest task; a worker found dead has its task done here."""
        task, worker = self.pending.popleft()
        if worker is None:
            return self.work(task)
        try:
            status, answer = _receive(worker.results)
        except (_Dead, OSError, EOFError, pickle.UnpicklingError, struct.error):
            self._bury(worker)
            return self.work(task)
        self.idle.append(worker)
        return answer if status == "ok" else self.work(task)

    def _bury(self, worker: _Worker) -> None:
        self.lost += 1
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
        self.all, self.idle = [], []

"""A game file read back: its entries, and their chain checked by hashing each line (no JSON
is parsed for that).

A game of any length is read in a few megabytes: the file a block at a time, its entries
kept as where their lines start (read again when wanted). A snapshot's trusted prefix (bytes
hashed whole once, and checked by one hash of the same bytes again) spares hashing it line by
line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from hc_cli.core.errors import HcError
from hc_cli.log.chain import MAX_LINE, chain_hash, sig_problem, whole_entry
from hc_cli.log.keys import wrong_key
from hc_cli.log.osfile import NONBLOCK, read_at

MAX_GAME_BYTES = 512_000_000  # a game of a hundred thousand actions is far less
_GAME_HINT = "give --game the file hc game new wrote (or HC_GAME=FILE)"


def damaged(path: str, number: int, why: str) -> HcError:
    from hc_cli.tables.files import shown_path

    return HcError(
        f"the game file {shown_path(path)} is damaged at line {number}: {why}",
        f"a game file is only ever appended to by hc; hc replay {shown_path(path)} lists every "
        "problem",
    )


@dataclass(slots=True)
class Chain:
    """A game file's entries, their chain checked: where each entry's line starts and which
    line of the file it is, the hash of the newest (what the next entry names), and how far
    the file is whole. The lines themselves stay in the file, read again when wanted."""

    path: str
    offsets: list[int]  # where each entry's line starts, in order
    numbers: list[int]  # the line of the file it is on
    head: str  # the hash the next entry names
    size: int  # bytes of whole entries: where the next one begins
    lines_read: int  # lines of the file up to `size`, blank ones too
    keyed: bool = False
    torn: tuple[int, int] | None = None  # a last line cut short: (its line number, its bytes)
    prefix: Any = None  # the sha256 of the file's bytes up to `size` (hashlib's, to go on)
    trusted: int = 0  # entries a snapshot's prefix vouched for, not hashed one by one

    @property
    def count(self) -> int:
        return len(self.offsets)

    def line(self, seq: int) -> bytes:
        """Entry `seq`'s line, read from the file."""
        with open(self.path, "rb") as f:
            f.seek(self.offsets[seq - 1])
            return f.readline(MAX_ENTRY_LINE + 2).rstrip(b"\n")


MAX_ENTRY_LINE = MAX_LINE  # no entry hc writes is longer
READ_BLOCK = 1 << 20


def _head(line: bytes) -> tuple[int, str | None, bool] | None:
    """(seq, prev, keyed) from the start of an entry's line as hc writes it, without JSON."""
    if not line.startswith(b'{"seq":'):
        return None
    comma = line.find(b",", 7)
    digits = line[7:comma]
    if comma < 0 or not digits.isdigit() or len(digits) > 15:
        return None
    rest = line[comma + 1 :]
    if rest.startswith(b'"prev":null'):
        prev, after = None, rest[11:]
    elif rest.startswith(b'"prev":"') and rest[72:73] == b'"':
        prev, after = rest[8:72].decode("ascii", "replace"), rest[73:]
    else:
        return None
    return int(digits), prev, after.startswith(b',"mac":"hmac-sha256"')


def hash_range(fd: int, end: int, hasher: Any) -> str:
    """The hex digest of the file's first `end` bytes, fed to `hasher` as the file maps them:
    not copied (bench/game_scale.py measures what that spares a long game)."""
    import mmap

    window = 16 << 20  # mapped 16 MB at a time (a multiple of any page size), so a long game
    for at in range(0, end, window):  # never fills the memory
        with mmap.mmap(fd, min(window, end - at), access=mmap.ACCESS_READ, offset=at) as mapped:
            hasher.update(mapped)
    return str(hasher.copy().hexdigest())


class _Links:
    """The chain checked one line at a time: each entry numbered one after the last and
    naming the hash of the line before it, a keyed one signed."""

    def __init__(self, path: str, key: bytes | None, trusted: dict[str, Any] | None) -> None:
        self.path, self.key = path, key
        self.offsets: list[int] = list(trusted["offsets"]) if trusted else []
        self.numbers: list[int] = list(trusted["numbers"]) if trusted else []
        self.prev: str | None = trusted["head"] if trusted else None
        self.keyed: bool = trusted["keyed"] if trusted else False
        self.number: int = trusted["lines"] if trusted else 0  # lines read, blank ones too
        self.unsigned = False  # the newest entry, keyed, carries no MAC of its own
        # a snapshot's prefix is signed: so is all that follows
        self.signing = bool(self.offsets) and self.keyed

    def take(self, line: bytes, at: int) -> None:
        """The line that starts at byte `at`: a blank one is passed over."""
        self.number += 1
        if not line.strip():
            return
        path, number = self.path, self.number
        head = _head(line)
        if head is None:
            raise damaged(path, number, "not an entry of hc's (garbage, or an entry edited)")
        seq, named, mac = head
        if seq != len(self.offsets) + 1:
            raise damaged(path, number, f"entry {seq} where {len(self.offsets) + 1} was next: "
                          "entries deleted, moved or added by hand")  # fmt: skip
        if mac and self.key is None:
            raise HcError(
                f"the game file {path} is chained with a key",
                "give the game's key (HC_LOG_KEY or HC_LOG_KEY_FILE) to play it",
            )
        if not mac and self.key is not None:
            raise damaged(path, number, f"entry {seq} is not chained with the key given: "
                          "anyone could have written it")  # fmt: skip
        if named != self.prev:
            raise damaged(path, number, f"entry {seq} does not chain onto the entry before it: "
                          "that entry was edited, or this one forged")  # fmt: skip
        self.keyed = mac
        if seq == 1 and self.key is not None and (wrong := wrong_key(line, self.key)):
            from hc_cli.tables.files import shown_path

            raise HcError(f"the key given does not match the game file {shown_path(path)}: {wrong}",
                          "give the key the game was started with")  # fmt: skip
        if self.key is not None:  # an entry of an older hc, unsigned, is vouched for by the
            problem = sig_problem(line, self.key)  # next one's chain
            if problem and (not problem.startswith("carries no") or self.signing):
                raise damaged(path, number, f"entry {seq} {problem}")
            self.unsigned = problem is not None
            self.signing = self.signing or not self.unsigned
        self.prev = chain_hash(line, self.key)
        self.offsets.append(at)
        self.numbers.append(number)


def scan(path: str, fd: int, key: bytes | None, trusted: dict[str, Any] | None = None) -> Chain:
    """Every entry of the game file open on `fd`, the chain checked whole (`_Links`).
    `trusted`: what a snapshot knew of the file (its first `size` bytes, their digest, their
    entries): when the same bytes are still there, only the entries after them are checked
    one by one. A line cut short at the end (a writer stopped mid-line) is left out, as the
    log's next append removes it; a whole entry without its end of line is kept."""
    import hashlib

    size = os.fstat(fd).st_size
    if size > MAX_GAME_BYTES:
        from hc_cli.tables.files import shown_path

        raise HcError(
            f"the game file {shown_path(path)} is larger than {MAX_GAME_BYTES:,} bytes",
            _GAME_HINT,
        )
    hasher = hashlib.sha256()
    if trusted is not None and not (
        trusted["size"] <= size and hash_range(fd, trusted["size"], hasher) == trusted["prefix"]
    ):
        trusted, hasher = None, hashlib.sha256()
    links = _Links(path, key, trusted)
    vouched = len(links.offsets)
    pos = whole = trusted["size"] if trusted else 0
    pending, torn = b"", None
    while pos < size:
        block = read_at(fd, min(READ_BLOCK, size - pos), pos)
        if not block:
            break
        data, base = pending + block, pos - len(pending)
        pos += len(block)
        cut = data.rfind(b"\n") + 1
        at = 0
        while at < cut:
            stop = data.index(b"\n", at)
            links.take(data[at:stop], base + at)
            at = stop + 1
        hasher.update(data[:cut])
        whole = base + cut
        pending = data[cut:]
        if len(pending) > MAX_ENTRY_LINE + 1:
            raise damaged(path, links.number + 1, "a line longer than any entry hc writes")
    if pending.strip():
        if whole_entry(pending):  # a whole entry that lacks only its end of line: kept
            links.take(pending, whole)
            hasher.update(pending)
            whole += len(pending)
        else:
            torn = (links.number + 1, len(pending))
    if not links.offsets:
        raise HcError(f"{path} holds no game", f"start one: hc game new {path} --roster ROSTER")
    if links.keyed and links.unsigned:  # nothing after it vouches for it: anyone could have
        raise damaged(  # changed it
            path,
            links.numbers[-1],
            f"entry {len(links.offsets)}, the newest, carries no MAC of its own: with a key, "
            "every entry is signed, so it was changed without the key (or written by an hc "
            "before entries were signed: hc replay FILE --head RECEIPT checks it against a "
            "receipt)",
        )
    assert links.prev is not None
    return Chain(path, links.offsets, links.numbers, links.prev, whole, links.number,
                 links.keyed, torn, hasher, vouched)  # fmt: skip


def tell_torn(path: str, chain: Chain) -> None:
    """A torn last line, said on stderr each time the game is read."""
    if chain.torn is not None:
        from hc_cli.render.wrap import tell
        from hc_cli.tables.files import shown_path

        line, size = chain.torn
        tell(
            f"hc: {shown_path(path)}: line {line} ({size:,} bytes, no end of line) is an entry "
            "cut short, as a writer stopped mid-write leaves it: the game is played without "
            "it, and the next entry written replaces it"
        )


def open_to_read(path: str) -> int:
    """A descriptor to read the game file at `path`: a regular file only (a pipe would wait)."""
    import stat

    from hc_cli.tables.files import shown_path

    try:
        fd = os.open(path, os.O_RDONLY | NONBLOCK)
    except FileNotFoundError:
        raise HcError(
            f"there is no game file {shown_path(path)}",
            f"start it: hc game new {shown_path(path)} --roster ROSTER",
        ) from None
    except OSError as exc:
        raise HcError(
            f"cannot read the game file {shown_path(path)}: {exc.strerror}", _GAME_HINT
        ) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise HcError(f"the game file {shown_path(path)} is not a regular file", _GAME_HINT)
    return fd


def read_chain(path: str) -> Chain:
    """The game file's chain, checked whole, line by line; a torn last line said on stderr."""
    from hc_cli.log.chain import log_key

    fd = open_to_read(path)
    try:
        chain = scan(path, fd, log_key())
    finally:
        os.close(fd)
    tell_torn(path, chain)
    return chain


def entries_from(chain: Chain, seqs: Iterable[int]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(seq, entry) for each entry `seqs` names (in order), read from the file a line at a
    time: a game of any length in the memory of one entry."""
    import json

    with open(chain.path, "rb") as f:
        for seq in seqs:
            at = chain.offsets[seq - 1]
            if f.tell() != at:
                f.seek(at)
            try:
                entry = json.loads(f.readline(MAX_ENTRY_LINE + 2))
            except (ValueError, RecursionError):
                entry = None
            if not isinstance(entry, dict) or "command" not in entry:
                raise damaged(chain.path, chain.numbers[seq - 1], "not an entry of hc's")
            yield seq, entry


def raw_from(chain: Chain, first: int) -> Iterator[tuple[int, bytes]]:
    """(seq, line) for every entry from `first` on, read from the file in order."""
    with open(chain.path, "rb") as f:
        for seq in range(first, chain.count + 1):
            at = chain.offsets[seq - 1]
            if f.tell() != at:
                f.seek(at)
            yield seq, f.readline(MAX_ENTRY_LINE + 2)

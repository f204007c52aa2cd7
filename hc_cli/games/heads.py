"""What this player's hc remembers of each game: the newest head (its receipt, `12:3f9ac21e`)
it wrote or read. A game file behind it (entries cut off its end) or forked from it (cut, then
played on with new dice) is refused, naming the receipt it expected and what it found, until
the players accept the rewind (`hc game rewind --accept RECEIPT`), which is an entry of the
game naming the head that was lost.

A game is known by the hash of its first entry, its roster: a copied or moved file is the same
game. Each game is a small file of its own in hc's state folder (`paths.state_dir()/heads/`):
the newest entry's number and hash, and the file it was seen in. It is no cache: removing it
forgets what would catch a rewind. A player can forget his own hc's memory; the other player's
still catches the cut. At most MOST games are remembered, the one seen longest ago forgotten
first. A write holds the folder's lock and never takes the memory back to an older head (two
terminals of one player), but an accepted rewind does.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Protocol

from hc_cli.core.errors import HcError
from hc_cli.games.scan import Chain
from hc_cli.log.chain import receipt

MOST = 1000  # games remembered: a file of about 200 bytes each
MOST_BYTES = 8192  # a memory file hc writes is far less


@dataclass(frozen=True, slots=True)
class Head:
    """A game's head as this hc saw it: the newest entry's number and hash, and where."""

    seq: int
    digest: str
    file: str = ""

    @property
    def receipt(self) -> str:
        return receipt(self.seq, self.digest)


class Opened(Protocol):
    """A game as `hc_cli.games.store.open_game` gives it: its file and its chain, checked."""

    path: str
    chain: Chain


class Rewound(HcError):
    """A game file behind or forked from the head this hc last saw of it (exit 2). It carries
    the game as the file has it and the head seen, for `hc game rewind --accept`."""

    def __init__(self, game: Opened, seen: Head, message: str, hint: str) -> None:
        super().__init__(message, hint)
        self.game, self.seen = game, seen


def game_id(chain: Chain) -> str:
    """The game a file holds: the SHA-256 of its first entry's line, the roster."""
    import hashlib

    return hashlib.sha256(chain.line(1)).hexdigest()[:32]


def _folder() -> str:
    from hc_cli.tables.paths import state_dir

    return os.path.join(state_dir(), "heads")


def recall(ident: str) -> Head | None:
    """The head this hc last saw of the game `ident`, or None: never seen (or a memory file
    that is not one hc wrote, which is no memory)."""
    try:
        with open(os.path.join(_folder(), ident), "rb") as f:
            kept = json.loads(f.read(MOST_BYTES))
        head = Head(kept["seq"], kept["digest"], kept["file"])
    except (OSError, ValueError, TypeError, KeyError):
        return None
    valid = type(head.seq) is int and head.seq > 0 and isinstance(head.digest, str)
    return head if valid and len(head.digest) == 64 and isinstance(head.file, str) else None


def digest_at(chain: Chain, seq: int) -> str:
    """The hash of entry `seq` of a checked chain: the head, or what the entry after it names
    as the entry before it."""
    if seq == chain.count:
        return chain.head
    line = chain.line(seq + 1)  # it begins {"seq":N,"prev":"<64 hex digits>" (`scan` checked)
    at = line.find(b',"prev":"') + len(b',"prev":"')
    return line[at : at + 64].decode("ascii", "replace")


def went_back(chain: Chain, seen: Head) -> str:
    """How the file goes back from the head seen, in words; "" when it reaches it."""
    found = receipt(chain.count, chain.head)
    if chain.count < seen.seq:
        fewer = seen.seq - chain.count
        return (
            f"is behind the game this hc last saw: {seen.receipt} expected, the file ends at "
            f"{found} ({fewer} {'entry' if fewer == 1 else 'entries'} fewer): entries were cut "
            "off its end"
        )
    at = digest_at(chain, seen.seq)
    if at == seen.digest:
        return ""
    return (
        f"is forked from the game this hc last saw: {seen.receipt} expected, its entry "
        f"{seen.seq} is {receipt(seen.seq, at)} (it ends at {found}): entries were cut off its "
        "end and others written in their place"
    )


def check(game: Opened, locked: bool) -> None:
    """On every open of a game: refused (`Rewound`) when the file goes back from the head this
    hc last saw of it; else that head is now the file's. A game never seen is taken as it is.
    `locked`: read under the file's lock (an action), so nobody appended while it was read."""
    from hc_cli.tables.files import shown_path

    chain = game.chain
    ident = game_id(chain)
    seen = recall(ident)
    problem = went_back(chain, seen) if seen is not None else ""
    if seen is not None and problem and (locked or not _changed_since(chain)):
        where = os.path.realpath(game.path)
        also = f" (it last saw it in {shown_path(seen.file)})" if seen.file != where else ""
        path = shown_path(game.path)
        raise Rewound(
            game,
            seen,
            f"the game file {path} {problem}{also}",
            f"if the players agree to play on from the file as it is: hc game rewind --accept "
            f"{seen.receipt} --game {path} (the game records it); else put back the file that "
            f"reaches {seen.receipt}",
        )
    if not problem and (seen is None or seen.seq != chain.count or seen.digest != chain.head):
        remember(game)


def _changed_since(chain: Chain) -> bool:
    """Whether the file was written to since it was read unlocked (`hc status` while another
    terminal of the same player appended, and remembered the newer head): such a read neither
    refuses nor remembers; the next action, which reads under the lock, does."""
    read = chain.size + (chain.torn[1] if chain.torn else 0)
    try:
        return os.stat(chain.path).st_size != read
    except OSError:
        return True


def remember(game: Opened, accepted: bool = False) -> None:
    """The game's head as this hc's newest of it (after it wrote an entry, or read a newer
    one): never an older head than the one remembered unless a rewind was `accepted`."""
    from hc_cli.log.osfile import held
    from hc_cli.tables.paths import write_atomically

    ident = game_id(game.chain)
    folder = _folder()
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(os.path.join(folder, ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return  # a home that cannot be written: nothing is remembered
    try:
        with held(fd):
            kept = recall(ident)
            chain = game.chain
            if kept is not None and kept.seq > chain.count and not accepted:
                return  # another terminal saw further meanwhile
            head = {"seq": chain.count, "digest": chain.head, "file": os.path.realpath(game.path)}
            write_atomically(os.path.join(folder, ident), json.dumps(head) + "\n")
            if kept is None:
                _forget_oldest(folder)
    finally:
        os.close(fd)


def _forget_oldest(folder: str) -> None:
    """At most MOST games remembered: those seen longest ago go."""
    try:
        names = [n for n in os.listdir(folder) if not n.startswith(".")]
        if len(names) <= MOST:
            return
        names.sort(key=lambda n: os.stat(os.path.join(folder, n)).st_mtime_ns)
        for name in names[: len(names) - MOST]:
            os.unlink(os.path.join(folder, name))
    except OSError:
        pass

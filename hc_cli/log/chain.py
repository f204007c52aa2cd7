"""The replayable log: one JSON line per resolution, appended whole, flushed and synced.

Each entry holds what is needed to resolve it again (command, rule set, options, seed or
dice and whether the player chose the seed, house-rules files), what came out, the tool's
version and a digest of the tables used. Entries are numbered (`seq`) and each names the hash
of the line before it (`prev`): an entry deleted, moved, duplicated or edited breaks the chain.

A chain of plain SHA-256 can be recomputed by anyone who edits an entry; two things catch that.
A receipt: each logged command prints the head of the chain as it left it (`12:3f9ac21e`, the
entry's number and the first characters of its hash), and `hc replay LOG --head RECEIPT` checks
that the log still reaches it. A key: with `HC_LOG_KEY` (or `HC_LOG_KEY_FILE`, a file holding
it) set, each entry is chained by HMAC-SHA256 under that key (`"mac": "hmac-sha256"`), so only
a holder of the key can extend or rewrite the chain, and receipts are keyed too. A key of fewer
than 128 bits writes nothing (`hc_cli.log.keys`).

A writer stopped mid-line can leave at most one partial line at the end: readers skip it and
say so, and the next append removes it, so every entry starts a clean, chained line. A write
that fails (a full disk) is undone before the error is reported.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from typing import TYPE_CHECKING, Any

from hc_cli import __version__
from hc_cli.core.errors import HcError
from hc_cli.log.keys import KEY_ID, key_id, log_key, writing_key
from hc_cli.log.osfile import NONBLOCK, held, read_at

if TYPE_CHECKING:
    from hc_cli.plugin.execute import Call

MAX_LINE = 1_000_000  # bytes: a log entry is a few kilobytes
KEYED = "hmac-sha256"


def file_digest(path: str) -> str:
    """The SHA-256 of a file's bytes: a moved house-rules file is known by it."""
    import hashlib

    from hc_cli.tables.load import MAX_RULES_BYTES

    content = _read(
        path,
        MAX_RULES_BYTES,
        "cannot read the house-rules file '{path}': {reason}",
        "give a house-rules YAML file",
    )
    return hashlib.sha256(content).hexdigest()


def _read(path: str, limit: int, said: str, fix: str) -> bytes:
    """A small file's bytes; one that cannot be read is an error that names it and why
    (`said` with {path} and {reason} filled in) and says what to do instead."""
    from hc_cli.tables.files import read_bounded, shown_path

    try:
        return read_bounded(path, limit)
    except OSError as exc:
        reason = getattr(exc, "reason", None) or exc.strerror
        raise HcError(said.format(path=shown_path(path), reason=reason), fix) from None


def rules_record(paths: tuple[str, ...]) -> list[dict[str, str]]:
    """Each house-rules file by its absolute path, its content's digest and its text: kept, so
    a replay resolves with the rules as they were, never with a file swapped at the path
    (`hc_cli.log.kept`). A file that is not UTF-8 (no house rules load from it) keeps none."""
    import hashlib

    from hc_cli.tables.load import MAX_RULES_BYTES

    records = []
    for path in paths:
        content = _read(
            path,
            MAX_RULES_BYTES,
            "cannot read the house-rules file '{path}': {reason}",
            "give a house-rules YAML file",
        )
        record = {"path": os.path.abspath(path), "sha256": hashlib.sha256(content).hexdigest()}
        try:
            record["text"] = content.decode("utf-8")
        except UnicodeDecodeError:
            pass
        records.append(record)
    return records


def chain_hash(line: bytes, key: bytes | None = None) -> str:
    """What the next entry says of this one: a change to any byte of it breaks the chain.
    With a key, only a holder of the key can work it out."""
    import hashlib

    if key is None:
        return hashlib.sha256(line).hexdigest()
    import hmac

    return hmac.new(key, line, hashlib.sha256).hexdigest()


def receipt(seq: int, digest: str) -> str:
    """The head of a chain in a few characters a player can note or say aloud."""
    return f"{seq}:{digest[:8]}"


_NOW: list[tuple[int, str]] = []  # the second last asked for, and how the log writes it


def _now() -> str:
    second = int(time.time())
    if not _NOW or _NOW[0][0] != second:
        _NOW[:] = [(second, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second)))]
    return _NOW[0][1]


class Written:
    """A result already written as JSON text (compact, as the log writes it: a batch's kept
    answer), with its seed: the log takes the text as it is rather than encoding again."""

    __slots__ = ("text", "seed")

    def __init__(self, text: str, seed: int | None) -> None:
        self.text, self.seed = text, seed


def make_entry(call: Call, result: dict[str, Any] | Written, digest: str | None) -> dict[str, Any]:
    """A log entry of a resolution; its result last (`entry_line` relies on it)."""
    seed = result.seed if isinstance(result, Written) else result.get("seed")
    seeded = seed is not None and not call.dice
    return {
        "hc": __version__,
        "time": _now(),
        "command": call.command,
        "ruleset": call.ruleset,
        "flags": call.flags,
        "seed": seed,
        # Whether the player chose the seed (--seed) or hc drew it: a seed chosen after the
        # fact to suit a player is worth knowing.
        "seed_from": ("player" if call.seed is not None else "hc") if seeded else None,
        "dice": call.dice,
        "odds": call.odds,
        **({"exact": True} if call.exact else {}),
        "rules": rules_record(call.rules),
        "tables": digest,
        "result": result,
    }


def append(path: str, entry: dict[str, Any]) -> str:
    """Append one whole line; return the receipt of the chain's new head."""
    return append_many(path, [entry])


def _refuse(
    path: str, why: str, hint: str, not_regular: bool = False, what: str = "--log"
) -> HcError:
    from hc_cli.tables.files import shown_path

    name = "the log" if what == "--log" else "the game file"
    if not_regular:
        return HcError(f"{name} '{shown_path(path)}' is not a regular file", hint)
    return HcError(f"cannot write {name} '{shown_path(path)}': {why}", hint)


def append_many(path: str, entries: list[dict[str, Any]], key: bytes | None = None) -> str:
    """Append whole lines: one write on an O_APPEND descriptor, then one fsync; return the
    receipt of the chain's new head. Only a regular file is a log (not a device, a FIFO or
    /proc); a partial last line left by a writer that was stopped is removed first, and a
    write that fails is undone, so every entry starts a clean line of the chain."""
    key = log_key() if key is None else key
    fd = open_log(path)
    try:
        with held(fd):  # one writer at a time: the chain stays whole
            if _is_game(read_at(fd, 4096, 0)):
                raise _game_file(path)
            return write_entries(fd, path, entries, key)[0]
    finally:
        os.close(fd)


def _is_game(head: bytes) -> bool:
    """Whether a file's first bytes are a game's roster entry (hc game new)."""
    first = head.partition(b"\n")[0]
    return b'"command":"game"' in first and b'"event":"new"' in first


def _game_file(path: str) -> HcError:
    from hc_cli.tables.files import shown_path

    return HcError(
        f"--log {shown_path(path)} is a game file: an entry logged into it would break the game",
        f"act in the game with --game {shown_path(path)}, or give --log another file",
    )


def refuse_game_file(path: str) -> None:
    """--log naming a game file is refused before anything is resolved."""
    writing_key()  # a key too short to write with, before anything is rolled too
    if not os.path.isfile(path):  # a FIFO is never opened here: it would wait for a writer
        return
    try:
        with open(path, "rb", buffering=0) as f:
            head = f.read(4096)
    except OSError:
        return  # not there yet, or not readable: the append says what is wrong
    if _is_game(head):
        raise _game_file(path)


def open_log(path: str, what: str = "--log") -> int:
    """A descriptor on the log at `path` to append to (created if need be): a regular file,
    never /proc, /sys or /dev, a device or a pipe."""
    if not path:
        raise HcError(f"{what} '' names no file", f"give {what} FILE")
    writing_key()  # a key too short to write with is refused before anything is written
    real = os.path.realpath(path)
    if real.startswith(("/proc/", "/sys/", "/dev/")):
        raise _refuse(
            path, "", f"give {what} a file, not /proc, /sys or /dev", not_regular=True, what=what
        )
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | NONBLOCK, 0o644)
    except OSError as exc:
        raise _refuse(
            path,
            exc.strerror or str(exc),
            f"give {what} a regular file in a directory you can write to",
            what=what,
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refuse(
                path,
                "",
                f"give {what} a file, not a device, a pipe or /proc",
                not_regular=True,
                what=what,
            )
    except BaseException:
        os.close(fd)
        raise
    return fd


def entry_line(seq: int, prev: str | None, entry: dict[str, Any], key: bytes | None) -> bytes:
    """An entry as its line of the log: its number and the hash of the line before first; with
    a key, its own MAC last (`"sig"`), so no line, the newest included, changes unseen."""
    import json

    head: dict[str, Any] = {"seq": seq, "prev": prev}
    if key is not None:  # the first entry names its key by its id: a wrong key is told so
        head.update({"mac": KEYED, **({"key_id": key_id(key)} if seq == 1 else {})})
    whole = {**head, **entry}
    result = whole.get("result")
    if result.__class__ is Written and next(reversed(whole)) == "result":
        del whole["result"]  # written last: its text goes in as it is
        text = json.dumps(whole, separators=(",", ":"), ensure_ascii=False)
        text = text[:-1] + ("," if whole else "") + '"result":' + result.text + "}"
    else:
        if result.__class__ is Written:
            whole["result"] = json.loads(result.text)
        text = json.dumps(whole, separators=(",", ":"), ensure_ascii=False)
    line = text.encode("utf-8", "backslashreplace")
    return line if key is None else signed(line, key)


SIG = b',"sig":"'
SIG_LENGTH = len(SIG) + 64 + 2  # ,"sig":"<64 hex digits>"}


def signed(line: bytes, key: bytes) -> bytes:
    """A keyed line with its own MAC, over everything before it, as its last field."""
    import hashlib
    import hmac

    sig = hmac.new(key, line, hashlib.sha256).hexdigest().encode()
    return line[:-1] + SIG + sig + b'"}'


def sig_problem(line: bytes, key: bytes) -> str | None:
    """Why a keyed line's own MAC does not vouch for it, or None when it does."""
    import hashlib
    import hmac

    if len(line) < SIG_LENGTH or line[-SIG_LENGTH:][: len(SIG)] != SIG:
        return "carries no MAC of its own (written by an older hc, or by hand)"
    body = line[:-SIG_LENGTH] + b"}"
    sig = line[-SIG_LENGTH + len(SIG) : -2]
    if not hmac.compare_digest(hmac.new(key, body, hashlib.sha256).hexdigest().encode(), sig):
        if line.startswith(b'{"seq":1,') and KEY_ID not in line[:80]:  # an older hc's first
            return (  # entry names no key: a wrong key and an edit look alike
                "does not match its own MAC: the key given is not the one it was written "
                "with, or it was changed without the key"
            )
        return "does not match its own MAC: it was changed without the key"
    return None


def write_entries(
    fd: int, path: str, entries: list[dict[str, Any]], key: bytes | None, what: str = "--log"
) -> tuple[str, int, str]:
    """Chain `entries` onto the log open (and locked) on `fd`; return the receipt, the new
    head's number and its hash."""
    size = None
    try:
        size = _whole_lines(fd, os.fstat(fd).st_size)
        seq, last = _last_entry(fd, size)
        prev = None if last is None else chain_hash(last, key)
        lines = []
        for entry in entries:
            seq += 1
            line = entry_line(seq, prev, entry, key)
            if len(line) > MAX_LINE:
                raise HcError(
                    f"this entry would be {len(line):,} bytes, more than the {MAX_LINE:,} an "
                    "entry of a log or a game may be: nothing was written",
                    "give shorter names and values (a title, a label), or fewer of them",
                )
            prev = chain_hash(line, key)
            lines.append(line + b"\n")
        view = memoryview(b"".join(lines))
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
        return receipt(seq, prev or ""), seq, prev or ""
    except OSError as exc:
        if size is not None:
            try:  # undo a partial write: the log stays as it was
                os.ftruncate(fd, size)
            except OSError:
                pass
        full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
        raise _refuse(
            path,
            exc.strerror or str(exc),
            f"free some space, or give {what} another file"
            if full
            else f"give {what} a regular file you can write to",
            what=what,
        ) from None


def _whole_lines(fd: int, size: int) -> int:
    """The size of the log's whole lines: a partial last line (its writer was stopped mid-
    write) is cut off, so the next entry starts a line of its own and chains onto the last
    whole one; a whole entry that only lacks its end of line (an editor's save) is kept, and
    ended. Either is said on stderr."""
    if not size or read_at(fd, 1, size - 1) == b"\n":
        return size
    start = max(0, size - MAX_LINE - 1)
    block = read_at(fd, size - start, start)
    end = start + block.rfind(b"\n") + 1 if b"\n" in block else start
    from hc_cli.render.wrap import tell

    if whole_entry(block[end - start :]):
        os.write(fd, b"\n")
        tell("hc: the last entry had no end of line: it is kept, and ended")
        return size + 1
    os.ftruncate(fd, end)
    tell(
        f"hc: the last line ({size - end:,} bytes, no end of line) was an entry cut short: "
        "removed before this one"
    )
    return end


def whole_entry(line: bytes) -> bool:
    """Whether a line with no end of line is a whole entry (JSON, numbered), not a torn one."""
    import json

    try:
        entry = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(entry, dict) and isinstance(entry.get("seq"), int)


def _last_entry(fd: int, size: int) -> tuple[int, bytes | None]:
    """The sequence number and the line of the last whole entry, to chain the next one on."""
    if not size:
        return 0, None
    import json

    line = _last_line(fd, size)
    if line is None:
        if size > MAX_LINE:  # the last entry began before the window: never chain onto a piece
            raise HcError(
                f"the last entry is longer than {MAX_LINE:,} bytes, more than hc writes: the "
                "file was not written by hc alone",
                "check it with hc replay FILE; go on in a new file",
            )
        return 0, None
    try:
        entry = json.loads(line)
    except (ValueError, RecursionError):
        return 0, line
    seq = entry.get("seq") if isinstance(entry, dict) else None
    if isinstance(seq, int) and not isinstance(seq, bool):
        return seq, line
    return 0, line


def _last_line(fd: int, size: int) -> bytes | None:
    """The last line that is not blank within the log's last MAX_LINE bytes: read from the
    end a block at a time (a batch chains every group onto it), not the whole window."""
    start = max(0, size - MAX_LINE - 2)  # an entry of MAX_LINE bytes, its end of line and
    low, step = size, 1 << 16  # the one before it
    while low > start:
        low = max(start, low - step)
        lines = read_at(fd, size - low, low).split(b"\n")
        whole = lines if low == 0 else lines[1:]  # the first may have begun earlier
        for line in reversed(whole):
            if line.strip():
                return line
        step *= 4
    return None

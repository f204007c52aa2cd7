"""A game that remembers: its file is a log (`hc_cli.log`), hash-chained, only ever appended
to. The first entry is the roster (`hc game new`); every action on a unit is an entry (the
options the game filled in, the result); `hc game next` and `hc undo` are entries too (an undo
names the entry it takes back: nothing rewrites the chain).

The state is what folding the entries gives: the rule set's `GameRules.start(roster)`, then
`apply` for each action and `next` for each step, skipping what was undone. There is no other
store: a snapshot of the state is cached beside hc's other caches, keyed by the chain's head,
and only spares the fold its work (a stale or missing one is folded again). Every load checks
the whole chain first, by hashing each line (no JSON is parsed for that): a game file damaged
or edited by hand is refused with its line, as `hc replay` would report it.

Two players in two terminals: an action holds the file's lock from reading the state to
appending its entry, so each acts on the state the other left.
"""

from __future__ import annotations

import os

from hc_cli.errors import HcError
from hc_cli.record import record

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

MAX_GAME_BYTES = 512_000_000  # a game of a hundred thousand actions is far less
SNAPSHOT_MOST = 256_000_000
GAME_EVENTS = ("new", "next", "undo")


def _damaged(path: str, number: int, why: str) -> HcError:
    from hc_cli.files import shown_path

    return HcError(
        f"the game file {shown_path(path)} is damaged at line {number}: {why}",
        f"a game file is only ever appended to by hc; hc replay {shown_path(path)} lists every "
        "problem",
    )


# ---------------------------------------------------------------------------------------------
# The chain, checked by hashing each line


@record
class Chain:
    lines: list[bytes]  # each entry's line, in order
    numbers: list[int]  # the line of the file it is on
    digests: list[str]  # the hash the next entry names
    size: int  # bytes of whole lines
    keyed: bool = False


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


def read_chain(data: bytes, path: str, key: bytes | None) -> Chain:
    """Every entry's line of a game file, the chain checked whole: each entry numbered one
    after the last and naming the hash of the line before it. A line cut short at the end
    (a writer stopped mid-line) is left out, as the log's next append removes it."""
    from hc_cli.log import chain_hash

    lines, numbers, digests = [], [], []
    prev: str | None = None
    keyed = False
    end = data.rfind(b"\n") + 1
    start = 0
    number = 0
    while start < end:
        stop = data.index(b"\n", start)
        line = data[start:stop]
        start = stop + 1
        number += 1
        if not line.strip():
            continue
        head = _head(line)
        if head is None:
            raise _damaged(path, number, "not an entry of hc's (garbage, or an entry edited)")
        seq, named, mac = head
        if seq != len(lines) + 1:
            raise _damaged(
                path,
                number,
                f"entry {seq} where {len(lines) + 1} was next: entries deleted, "
                "moved or added by hand",
            )
        if mac and key is None:
            raise HcError(
                f"the game file {path} is chained with a key",
                "give the game's key (HC_LOG_KEY or HC_LOG_KEY_FILE) to play it",
            )
        if not mac and key is not None:
            raise _damaged(
                path,
                number,
                f"entry {seq} is not chained with the key given: anyone could have written it",
            )
        if named != prev:
            raise _damaged(
                path,
                number,
                f"entry {seq} does not chain onto the entry before it: that "
                "entry was edited, or this one forged",
            )
        keyed = mac
        prev = chain_hash(line, key if mac else None)
        lines.append(line)
        numbers.append(number)
        digests.append(prev)
    if not lines:
        raise HcError(f"{path} holds no game", f"start one: hc game new {path} --roster ROSTER")
    return Chain(lines, numbers, digests, end, keyed)


# ---------------------------------------------------------------------------------------------
# The fold


def event_of(entry: dict) -> str | None:
    """ "new", "next" or "undo" for a game's own entries; None for an action."""
    if entry.get("command") != "game":
        return None
    game = entry.get("game")
    event = game.get("event") if isinstance(game, dict) else None
    return event if event in GAME_EVENTS else "?"


def _entries(chain: Chain, start: int, path: str) -> Iterator[tuple[int, dict]]:
    import json

    for i in range(start, len(chain.lines)):
        try:
            entry = json.loads(chain.lines[i])
        except (ValueError, RecursionError):
            entry = None
        if not isinstance(entry, dict) or "command" not in entry:
            raise _damaged(path, chain.numbers[i], "not an entry of hc's")
        yield i, entry


@record
class Folded:
    """A game's state and what the fold needs to go on: the entries still in effect (those an
    undo may take back, newest last)."""

    ruleset: str
    roster: dict
    rules_files: list
    state: dict
    effective: list[int]  # entry numbers (seq) of the actions and steps in effect


def _start(entry: dict, path: str, number: int) -> tuple[str, dict, list]:
    from hc_cli.roster import game_rules

    game = entry.get("game") or {}
    if event_of(entry) != "new" or not isinstance(game.get("roster"), dict):
        raise _damaged(path, number, "the first entry of a game is its roster (hc game new)")
    ruleset = entry.get("ruleset")
    if not isinstance(ruleset, str):
        raise _damaged(path, number, "the roster entry names no rule set")
    if (entry.get("game") or {}).get("version", 1) > GAME_VERSION:
        raise HcError(
            f"the game file {path} was written by a newer hc ({entry.get('hc')})",
            "play it with that version of hc, or newer",
        )
    game_rules(ruleset)
    return ruleset, game["roster"], list(game.get("rules") or [])


GAME_VERSION = 1


def _take(rules: Any, state: dict, entry: dict, path: str, number: int) -> list[str]:
    """One entry into the state: an action (`apply`) or a step (`next`)."""
    try:
        if event_of(entry) == "next":
            return rules.next(state)
        if event_of(entry) is not None:
            raise _damaged(path, number, f"'{(entry.get('game') or {}).get('event')}' is no event")
        return rules.apply(state, entry)
    except HcError as error:
        if "damaged at line" in error.message:
            raise
        raise _damaged(
            path, number, f"entry {entry.get('seq')} cannot be taken into the game: {error.message}"
        ) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise _damaged(
            path, number, f"entry {entry.get('seq')} is not an action hc logged ({error!r:.80})"
        ) from None


def fold(
    chain: Chain, path: str, each: Callable[[dict, list[str], bool, dict], None] | None = None
) -> Folded:
    """The game's state from its first entry: the roster, then each action and step in effect
    (an undo names the newest one still in effect). `each(entry, notes, undone, state)` sees
    every entry on the way, for `hc history`."""
    from hc_cli.roster import game_rules

    entries = list(_entries(chain, 0, path))
    ruleset, roster, rules_files = _start(entries[0][1], path, chain.numbers[0])
    rules = game_rules(ruleset)
    undone: set[int] = set()
    stack: list[int] = []
    for i, entry in entries[1:]:
        if event_of(entry) == "undo":
            target = (entry.get("game") or {}).get("undoes")
            if not stack or stack[-1] != target:
                raise _damaged(
                    path,
                    chain.numbers[i],
                    f"the undo names entry {target!r}, which was not the newest in effect",
                )
            undone.add(stack.pop())
        elif entry.get("ruleset") != ruleset:
            raise _damaged(
                path,
                chain.numbers[i],
                f"an entry of {entry.get('ruleset')!r} in a game of {ruleset}",
            )
        else:
            stack.append(entry.get("seq"))
    state = rules.start(roster)
    if each is not None:
        each(entries[0][1], [], False, state)
    for i, entry in entries[1:]:
        if event_of(entry) == "undo" or entry.get("seq") in undone:
            if each is not None:
                each(entry, [], entry.get("seq") in undone, state)
            continue
        notes = _take(rules, state, entry, path, chain.numbers[i])
        if each is not None:
            each(entry, notes, False, state)
    return Folded(ruleset, roster, rules_files, state, stack)


# ---------------------------------------------------------------------------------------------
# The snapshot: the fold's result, cached by the chain's head


def _snapshot_file(real: str) -> tuple[str, str]:
    import zlib

    from hc_cli import __version__
    from hc_cli.paths import cache_dir

    name = f"game-{zlib.crc32(real.encode('utf-8', 'surrogateescape')):08x}.snapshot"
    return os.path.join(cache_dir(), name), f"{__version__}\n{real}"


def _from_snapshot(chain: Chain, path: str, identity: tuple) -> tuple[Folded | None, bool]:
    """The state from the snapshot, taken on over the entries written since; and whether the
    snapshot is the game's as it is now (nothing to write again)."""
    from hc_cli.files import read_cache
    from hc_cli.roster import game_rules

    snap_path, description = _snapshot_file(os.path.realpath(path))
    snap = read_cache(snap_path, description, SNAPSHOT_MOST)
    try:
        seq, digest = snap["seq"], snap["digest"]
        if not (isinstance(seq, int) and 1 <= seq <= len(chain.lines)):
            return None, False
        if chain.digests[seq - 1] != digest:
            return None, False
        folded = Folded(
            snap["ruleset"], snap["roster"], snap["rules_files"], snap["state"], snap["effective"]
        )
        current = snap.get("identity") == list(identity)
    except (TypeError, KeyError, AttributeError):
        return None, False
    if seq == len(chain.lines):
        return folded, current
    rules = game_rules(folded.ruleset)
    for i, entry in _entries(chain, seq, path):
        if event_of(entry) == "undo":
            return None, False  # the fold from the start: an undo takes back what it was on
        if entry.get("ruleset") != folded.ruleset:
            raise _damaged(path, chain.numbers[i], "an entry of another rule set")
        folded.effective.append(entry.get("seq"))
        _take(rules, folded.state, entry, path, chain.numbers[i])
    return folded, False


def _save_snapshot(path: str, folded: Folded, seq: int, digest: str, identity: tuple = ()) -> None:
    """The state at entry `seq`; `identity`: the file's (device, inode, size, time) when it
    held exactly those entries, or nothing when that is not known for sure."""
    from hc_cli.files import write_cache

    snap_path, description = _snapshot_file(os.path.realpath(path))
    write_cache(
        snap_path,
        description,
        {
            "seq": seq,
            "digest": digest,
            "ruleset": folded.ruleset,
            "roster": folded.roster,
            "rules_files": folded.rules_files,
            "state": folded.state,
            "effective": folded.effective,
            "identity": list(identity),
        },
    )


def peek(path: str) -> tuple[Folded, int, str] | None:
    """The snapshot of the very file at `path`, unchanged since (device, inode, size and
    time): what `hc status` shows without reading the game again. Anything else (an append
    by another hc, an edit) and the game is read and checked whole."""
    from hc_cli.files import read_cache

    try:
        identity = list(_identity(path, None))
    except OSError:
        return None
    snap_path, description = _snapshot_file(os.path.realpath(path))
    snap = read_cache(snap_path, description, SNAPSHOT_MOST)
    try:
        if snap["identity"] != identity or not isinstance(snap["seq"], int):
            return None
        folded = Folded(
            snap["ruleset"], snap["roster"], snap["rules_files"], snap["state"], snap["effective"]
        )
        return folded, snap["seq"], str(snap["digest"])
    except (TypeError, KeyError):
        return None


# ---------------------------------------------------------------------------------------------
# Opening a game


@record
class Game:
    path: str
    chain: Chain
    folded: Folded

    @property
    def seq(self) -> int:
        return len(self.chain.lines)

    @property
    def rules(self) -> Any:
        from hc_cli.roster import game_rules

        return game_rules(self.folded.ruleset)

    def head(self) -> str:
        from hc_cli.log import receipt

        return receipt(self.seq, self.chain.digests[-1])


def _read(path: str, fd: int | None) -> bytes:
    from hc_cli.files import FileRefused, read_bounded, shown_path

    try:
        if fd is None:
            return read_bounded(path, MAX_GAME_BYTES)
        size = os.fstat(fd).st_size
        if size > MAX_GAME_BYTES:
            raise FileRefused(path, f"is larger than {MAX_GAME_BYTES:,} bytes")
        return os.pread(fd, size, 0)
    except FileRefused as exc:
        raise HcError(f"the game file {shown_path(path)} {exc.reason}", _GAME_HINT) from None
    except FileNotFoundError:
        raise HcError(
            f"there is no game file {shown_path(path)}",
            f"start it: hc game new {shown_path(path)} --roster ROSTER",
        ) from None
    except OSError as exc:
        raise HcError(
            f"cannot read the game file {shown_path(path)}: {exc.strerror}", _GAME_HINT
        ) from None


_GAME_HINT = "give --game the file hc game new wrote (or HC_GAME=FILE)"


# The game this process last read or wrote, by its file's identity and size: a batch of a
# game's actions reads the file once, not once a line (each line holds the lock, and an append
# by anyone else changes the size).
_OPENED: dict[str, tuple[tuple, Game]] = {}


def _identity(path: str, fd: int | None) -> tuple:
    st = os.fstat(fd) if fd is not None else os.stat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def open_game(path: str, fd: int | None = None) -> Game:
    """The game at `path` (read through `fd` when the caller holds its lock), its chain
    checked whole and its state from the snapshot or the fold."""
    from hc_cli.log import log_key

    real = os.path.realpath(path)
    try:
        identity = _identity(path, fd)
    except OSError:
        identity = ()
    known = _OPENED.get(real)
    if known is not None and identity and known[0] == identity:
        return known[1]
    data = _read(path, fd)
    try:
        if _identity(path, fd) != identity:  # appended to while it was read
            identity = ()
    except OSError:
        identity = ()
    chain = read_chain(data, path, log_key())
    if identity and identity[2] != len(data):
        identity = ()
    folded, current = _from_snapshot(chain, path, identity)
    if folded is None:
        folded = fold(chain, path)
    if not current:
        _save_snapshot(path, folded, len(chain.lines), chain.digests[-1], identity)
    game = Game(path, chain, folded)
    if identity:
        _OPENED[real] = (identity, game)
    return game


class Locked:
    """The game file open and locked for an action: nobody else appends until it is done."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.fd = -1

    def __enter__(self) -> int:
        import fcntl

        from hc_cli.log import open_log

        if not os.path.isfile(self.path):
            from hc_cli.files import shown_path

            raise HcError(
                f"there is no game file {shown_path(self.path)}",
                f"start it: hc game new {shown_path(self.path)} --roster ROSTER",
            )
        self.fd = open_log(self.path, "--game")
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            import sys

            sys.stderr.write(f"waiting for {self.path}: another hc is writing it\n")
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self.fd

    def __exit__(self, *exc: Any) -> None:
        os.close(self.fd)


def append(game: Game, fd: int, entry: dict, state: dict | None = None) -> str:
    """Chain one entry onto the game (its lock held) and keep the snapshot of the state it
    leaves (`state`: the fold's step already taken; None: fold again when next opened)."""
    from hc_cli.log import entry_line, log_key, write_entries

    key = log_key()
    receipt, seq, digest = write_entries(fd, game.path, [entry], key)
    _OPENED.pop(os.path.realpath(game.path), None)
    if state is not None:
        line = entry_line(seq, game.chain.digests[-1], entry, key)
        folded = game.folded
        folded.state = state
        folded.effective.append(seq)
        _save_snapshot(game.path, folded, seq, digest, _identity(game.path, fd))
        if chain_hash_of(line, key) == digest:  # the line as written: the chain goes on
            chain = game.chain
            chain.lines.append(line)
            chain.numbers.append(chain.numbers[-1] + 1)
            chain.digests.append(digest)
            chain.size += len(line) + 1
            _OPENED[os.path.realpath(game.path)] = (_identity(game.path, fd), game)
    return receipt


def chain_hash_of(line: bytes, key: bytes | None) -> str:
    from hc_cli.log import chain_hash

    return chain_hash(line, key)


def copy(state: dict) -> dict:
    """A state of plain data, copied whole (the fold's step is tried on the copy)."""
    import marshal

    return marshal.loads(marshal.dumps(state))


def game_entry(ruleset: str, event: str, **more: Any) -> dict[str, Any]:
    import time

    from hc_cli import __version__

    return {
        "hc": __version__,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": "game",
        "ruleset": ruleset,
        "game": {"event": event, **more},
    }


# ---------------------------------------------------------------------------------------------
# hc game new


def new_game(path: str, roster_path: str, rules: tuple[str, ...] = ()) -> list[str]:
    """Start a game: the roster, checked and resolved against the tables in use, as the first
    entry of a new game file."""
    from hc_cli import registry
    from hc_cli.files import shown_path
    from hc_cli.log import log_key, open_log, rules_record, write_entries
    from hc_cli.roster import game_rules, load

    if os.path.exists(path) and os.path.getsize(path) > 0:
        raise HcError(
            f"{shown_path(path)} already exists: a game file is never overwritten",
            "give a new file name, or go on with that game: --game " + shown_path(path),
        )
    ruleset, roster = load(
        roster_path, lambda name: registry.implementation(name).load_tables(list(rules) or None)
    )
    entry = game_entry(
        ruleset,
        "new",
        version=GAME_VERSION,
        roster=roster,
        roster_file=os.path.basename(roster_path),
        rules=rules_record(rules),
    )
    fd = open_log(path, "the game file")
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX)
        if os.fstat(fd).st_size:
            raise HcError(f"{shown_path(path)} was started meanwhile", "give a new file name")
        receipt = write_entries(fd, path, [entry], log_key())[0]
    finally:
        os.close(fd)
    rules_obj = game_rules(ruleset)
    sides = roster["sides"]
    lines = [
        f"started {shown_path(path)}: a game of {ruleset}"
        + (f", {roster['title']}" if roster["title"] else ""),
    ]
    for side, units in sides.items():
        lines.append(
            f"  {side}: " + ", ".join(rules_obj.describe_unit(n, u) for n, u in units.items())
        )
    lines.append(f"play it with --game {shown_path(path)}, or: export HC_GAME={shown_path(path)}")
    lines.append(f"receipt {receipt}")
    return lines


# ---------------------------------------------------------------------------------------------
# Acting: a command on a unit (or for the whole game)


def act(
    call: Any,
    game_path: str,
    unit: str | None,
    at: list[str],
    anyway: bool,
    session: Any,
    ask: Any = None,
) -> tuple[Any, dict[str, Any], Any]:
    """Fill a command from the game, resolve it and (unless it is a question of odds) append
    it: (resolution, what the game says of it, the call as resolved)."""
    from hc_cli.execute import execute
    from hc_cli.record import replace
    from hc_cli.render.json_text import as_dict

    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        if call.ruleset != game.folded.ruleset:
            raise HcError(
                f"{game_path} is a game of {game.folded.ruleset}, not of {call.ruleset}",
                "leave out the rule set, or act outside the game: --game none",
            )
        rules = game.rules
        if call.rules:
            rules_files = tuple(call.rules)
        else:
            rules_files = tuple(r["path"] for r in game.folded.rules_files if "path" in r)
        tables = session.tables(game.folded.ruleset, rules_files)
        state = game.folded.state
        fill = rules.fill(state, call.command, unit, list(at), dict(call.flags), tables)
        if fill.refusal and not anyway and not call.odds:
            raise HcError(
                fill.refusal,
                "act when the rules allow it, or record an override with --anyway",
            )
        given = dict(call.flags)
        call = replace(call, flags=fill.flags, rules=rules_files)
        res = execute(call, session, set(fill.flags), ask=ask)
        report: dict[str, Any] = {"game": game_path, "unit": unit, "at": list(at)}
        if fill.notes:
            report["filled"] = fill.notes
        if call.odds:
            report["note"] = "odds from the game as it stands: nothing is logged"
            if fill.refusal:
                report["refused"] = fill.refusal
            res.fields["game"] = report
            return res, report, call
        if call.dice:  # as entered, when asked for: the game replays the list
            call = replace(call, dice=res.inputs.get("dice", call.dice))
        from hc_cli.log import make_entry

        entry = make_entry(call, as_dict(res), session.digest(call.ruleset, call.rules))
        entry["game"] = {
            "unit": unit,
            "at": list(at),
            "given": given,
            "meta": fill.meta,
            **({"anyway": fill.refusal} if fill.refusal and anyway else {}),
        }
        after = copy(state)
        changes = rules.apply(after, entry)
        report["changes"] = changes
        if fill.refusal and anyway:
            report["anyway"] = f"--anyway: {fill.refusal}"
        report["receipt"] = append(game, fd, entry, after)
        report["clock"] = rules.clock(after)
        report["due"] = rules.due(after)
        res.fields["game"] = report
        return res, report, call


# ---------------------------------------------------------------------------------------------
# hc game next, hc undo


def step(game_path: str) -> dict[str, Any]:
    """`hc game next`: the game moves on by a step of its rule set."""
    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        after = copy(game.folded.state)
        notes = game.rules.next(after)
        receipt = append(game, fd, game_entry(game.folded.ruleset, "next"), after)
        return _said(game, after, notes, receipt)


def undo(game_path: str) -> dict[str, Any]:
    """`hc undo`: an entry that takes back the newest action or step still in effect."""
    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        if not game.folded.effective:
            raise HcError("nothing to undo: no action of this game is in effect", "act first")
        target = game.folded.effective[-1]
        import json

        undone = json.loads(game.chain.lines[target - 1])
        what = describe(undone)
        receipt = append(
            game, fd, game_entry(game.folded.ruleset, "undo", undoes=target, what=what)
        )
    game = open_game(game_path)
    return _said(game, game.folded.state, [f"undid entry {target}: {what}"], receipt)


def _said(game: Game, state: dict, notes: list[str], receipt: str) -> dict[str, Any]:
    rules = game.rules
    return {
        "game": game.path,
        "changes": notes,
        "clock": rules.clock(state),
        "due": rules.due(state),
        "receipt": receipt,
    }


def describe(entry: dict) -> str:
    """An entry in a few words: "fireteam-1 fire at boyz: 2 kills"."""
    event = event_of(entry)
    game = entry.get("game") if isinstance(entry.get("game"), dict) else {}
    if event == "new":
        return "the game begins"
    if event == "next":
        return "next"
    if event == "undo":
        return f"undo of entry {game.get('undoes')} ({game.get('what', '')})"
    unit = game.get("unit")
    at = game.get("at") or []
    words = f"{unit} {entry.get('command')}" if unit else str(entry.get("command"))
    if at:
        words += " at " + ", ".join(at)
    headline = (entry.get("result") or {}).get("headline")
    if headline:
        words += f": {headline}"
    if game.get("anyway"):
        words += f" (--anyway: {game['anyway']})"
    return words


# ---------------------------------------------------------------------------------------------
# Seeing the game: status, history, export


def status(game_path: str) -> dict[str, Any]:
    from hc_cli.log import receipt
    from hc_cli.roster import game_rules

    found = peek(game_path)
    if found is None:
        game = open_game(game_path)
        found = (game.folded, game.seq, game.chain.digests[-1])
    folded, seq, digest = found
    rules = game_rules(folded.ruleset)
    state = folded.state
    return {
        "game": game_path,
        "ruleset": folded.ruleset,
        "title": folded.roster.get("title", ""),
        "entries": seq,
        "head": receipt(seq, digest),
        "clock": rules.clock(state),
        **rules.clock_fields(state),
        "columns": [heading for _, heading in rules.columns()],
        "keys": [key for key, _ in rules.columns()],
        "sides": rules.rows(state),
        "due": rules.due(state),
    }


def history(game_path: str) -> list[dict[str, Any]]:
    """Every entry in order: what it was, what it changed, and whether it was undone."""
    from hc_cli.log import log_key

    chain = read_chain(_read(game_path, None), game_path, log_key())
    out: list[dict[str, Any]] = []
    rules_box: list[Any] = []

    def each(entry: dict, notes: list[str], undone: bool, state: dict) -> None:
        if not rules_box:
            from hc_cli.roster import game_rules

            rules_box.append(game_rules(entry["ruleset"]))
        out.append(
            {
                "entry": entry.get("seq"),
                "period": rules_box[0].period(state),
                "what": describe(entry),
                "changes": notes,
                "undone": undone,
            }
        )

    fold(chain, game_path, each)
    return out


def export(game_path: str) -> str:
    """The command lines that play the game again, from its roster: a shell script."""
    import shlex

    from hc_cli.log import log_key

    chain = read_chain(_read(game_path, None), game_path, log_key())
    folded = fold(chain, game_path)
    entries = dict(_entries(chain, 0, game_path))
    name = os.path.basename(game_path)
    roster = _roster_yaml(folded)
    lines = [
        "#!/bin/sh",
        f"# {name} as the command lines that play it again: run this in an empty folder.",
        "set -e",
        f"export HC_GAME={shlex.quote(name)}",
        "cat > roster.yaml <<'ROSTER'",
        roster.rstrip("\n"),
        "ROSTER",
        'hc game new "$HC_GAME" --roster roster.yaml',
    ]
    effective = set(folded.effective)
    for i in range(1, len(chain.lines)):
        entry = entries[i]
        seq = entry.get("seq")
        event = event_of(entry)
        if event == "next" and seq in effective:
            lines.append("hc game next")
        elif event is None and seq in effective:
            lines.append(_command_line(entry))
    return "\n".join(lines) + "\n"


def _roster_yaml(folded: Folded) -> str:
    import yaml

    data: dict[str, Any] = {"ruleset": folded.ruleset}
    if folded.roster.get("title"):
        data["title"] = folded.roster["title"]
    data["sides"] = {
        side: {name: unit.get("roster", unit) for name, unit in units.items()}
        for side, units in folded.roster["sides"].items()
    }
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def _command_line(entry: dict) -> str:
    """An action as the command line that takes it again: the unit, the options the player
    gave, and the seed or the dice rolled."""
    import shlex

    from hc_cli.execute import spell_option

    game = entry["game"]
    words = ["hc", entry["command"]]
    if game.get("unit"):
        words.append(game["unit"])
    for target in game.get("at") or []:
        words += ["--at", target]
    for name, value in (game.get("given") or {}).items():
        flag = spell_option(name)
        if value is True:
            words.append(flag)
        elif isinstance(value, list):
            for item in value:
                words += [flag, str(item)]
        elif value is not None and value is not False:
            words += [
                flag,
                value
                if isinstance(value, str)
                else format(value, "g")
                if isinstance(value, float)
                else str(value),
            ]
    if entry.get("dice"):
        words += ["--dice", str(entry["dice"])]
    elif entry.get("seed") is not None:
        words += ["--seed", str(entry["seed"])]
    if game.get("anyway"):
        words.append("--anyway")
    return " ".join(shlex.quote(w) for w in words)

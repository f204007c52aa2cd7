"""A game that remembers: its file is a log (`hc_cli.log`), hash-chained, only ever appended
to. The first entry is the roster (`hc game new`); every action on a unit is an entry (the
options the game filled in, the result); `hc game next` and `hc undo` are entries too (an undo
names the entry it takes back: nothing rewrites the chain).

The state is what folding the entries gives: the rule set's `GameRules.start(roster)`, then
`apply` for each action and `next` for each step, skipping what was undone. There is no other
store: a snapshot of the state is cached beside hc's other caches and only spares the fold its
work. It names the file's bytes it was folded from by their digest: every load checks that the
same bytes are still there (one hash over them) and checks every entry after them line by
line, so a game file damaged or edited by hand is refused with its line, as `hc replay` would
report it; anything else and the chain is checked and folded again whole. Its checkpoints (a
state every few hundred entries) let an undo refold a few hundred entries, not the game.

Two players in two terminals: an action holds the file's lock from reading the state to
appending its entry, so each acts on the state the other left."""

from __future__ import annotations

import os

from hc_cli.errors import HcError
from hc_cli.game_chain import (
    CHECKPOINT,
    GAME_VERSION,
    Chain,
    Folded,
    describe,
    fold,
    scan,
    torn_notice,
)
from hc_cli.record import record

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any


SNAPSHOT_MOST = 256_000_000
# Raised whenever a rule set's fold keeps its state in another shape: a snapshot of an older
# shape is not read, and the game is folded again from its file.
SNAPSHOT_FORM = 3

# ---------------------------------------------------------------------------------------------
# The snapshot: the fold's result, cached by the chain's head


def _snapshot_file(real: str) -> tuple[str, str]:
    import zlib

    from hc_cli import __version__
    from hc_cli.paths import cache_dir

    name = f"game-{zlib.crc32(real.encode('utf-8', 'surrogateescape')):08x}.snapshot"
    return os.path.join(cache_dir(), name), f"{__version__} {SNAPSHOT_FORM}\n{real}"


def _load_snapshot(path: str, key: bytes | None) -> tuple[dict | None, Folded | None]:
    """What the snapshot knew of the file (for `scan`) and the game it folded, or Nones: a
    snapshot of another shape, another rule set's state shape or another key is not read."""
    from hc_cli.files import read_cache
    from hc_cli.roster import game_rules

    snap_path, description = _snapshot_file(os.path.realpath(path))
    snap = read_cache(snap_path, description, SNAPSHOT_MOST)
    try:
        if snap["key"] != _key_mark(key):
            return None, None
        folded = Folded(
            snap["ruleset"],
            snap["roster"],
            snap["rules_files"],
            snap["state"],
            snap["effective"],
            snap["seq"],
            {int(k): tuple(v) for k, v in snap["checkpoints"].items()},
        )
        if snap["state_version"] != game_rules(folded.ruleset).state_version:
            return None, None  # a state of another shape
        trusted = snap["chain"]
        if not (isinstance(trusted, dict) and len(trusted["offsets"]) == folded.seq):
            return None, None
    except (TypeError, KeyError, AttributeError, ValueError, HcError):
        return None, None
    return trusted, folded


def _key_mark(key: bytes | None) -> str | None:
    """A mark of the key a snapshot was chained under, that does not give the key away."""
    if key is None:
        return None
    import hashlib
    import hmac

    return hmac.new(key, b"hc game snapshot", hashlib.sha256).hexdigest()[:16]


def _save_snapshot(game: Game) -> None:
    """The game's state at its newest entry, and what it was folded from: the file's whole
    entries (their digest, where each begins) and the checkpoints."""
    from hc_cli.files import write_cache
    from hc_cli.log import log_key
    from hc_cli.roster import game_rules

    chain, folded = game.chain, game.folded
    if chain.prefix is None:
        return
    snap_path, description = _snapshot_file(os.path.realpath(game.path))
    write_cache(
        snap_path,
        description,
        {
            "key": _key_mark(log_key()),
            "seq": folded.seq,
            "ruleset": folded.ruleset,
            "roster": folded.roster,
            "rules_files": folded.rules_files,
            "state": folded.state,
            "effective": folded.effective,
            "checkpoints": {k: list(v) for k, v in folded.checkpoints.items()},
            "state_version": game_rules(folded.ruleset).state_version,
            "chain": {
                "size": chain.size,
                "prefix": chain.prefix.hexdigest(),
                "lines": chain.lines_read,
                "offsets": chain.offsets,
                "numbers": chain.numbers,
                "head": chain.head,
                "keyed": chain.keyed,
                "unsigned": chain.unsigned,
            },
        },
    )


# ---------------------------------------------------------------------------------------------
# Opening a game


@record
class Game:
    path: str
    chain: Chain
    folded: Folded

    @property
    def seq(self) -> int:
        return self.chain.count

    @property
    def rules(self) -> Any:
        from hc_cli.roster import game_rules

        return game_rules(self.folded.ruleset)

    def head(self) -> str:
        from hc_cli.log import receipt

        return receipt(self.seq, self.chain.head)


_GAME_HINT = "give --game the file hc game new wrote (or HC_GAME=FILE)"

# The game this process last read or wrote, by its file's identity and size: a batch of a
# game's actions reads the file once, not once a line (each line holds the lock, and an append
# by anyone else changes the size).
_OPENED: dict[str, tuple[tuple, Game]] = {}


def _identity(path: str, fd: int | None) -> tuple:
    st = os.fstat(fd) if fd is not None else os.stat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def open_to_read(path: str) -> int:
    """A descriptor to read the game file at `path`: a regular file only (a pipe would wait)."""
    import stat

    from hc_cli.files import shown_path

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
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


def open_game(path: str, fd: int | None = None, fresh: bool = False) -> Game:
    """The game at `path` (read through `fd` when the caller holds its lock), its chain
    checked whole and its state from the snapshot or the fold. `fresh`: read the file again
    even if this process read it as it looks now (a batch of actions does not)."""
    from hc_cli.log import log_key

    real = os.path.realpath(path)
    try:
        identity = _identity(path, fd)
    except OSError:
        identity = ()
    known = _OPENED.get(real)
    if known is not None and identity and known[0] == identity and not fresh:
        _tell_torn(path, known[1].chain)
        return known[1]
    own = fd is None
    reading = open_to_read(path) if own else fd
    try:
        key = log_key()
        trusted, snapshot = _load_snapshot(path, key)
        chain = scan(path, reading, key, trusted)
        if chain.trusted == 0:
            snapshot = None  # not the bytes it was folded from: folded again whole
        try:
            if _identity(path, reading) != identity:  # appended to while it was read
                identity = ()
        except OSError:
            identity = ()
    finally:
        if own:
            os.close(reading)
    _tell_torn(path, chain)
    if snapshot is not None and snapshot.seq == chain.count:
        folded = snapshot
    else:
        folded = fold(chain, path, base=snapshot)
    game = Game(path, chain, folded)
    if folded is not snapshot:
        _save_snapshot(game)
    if identity:
        _OPENED[real] = (identity, game)
    return game


class unreadable:  # noqa: N801 - used as `with unreadable(path):`, like a function
    """A game whose entries are well chained but whose contents hc did not write (a field of
    another kind where the rules read it): exit 2 with the file's name, never a traceback."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: Any, trace: Any) -> bool:
        if kind is not None and issubclass(
            kind, (KeyError, TypeError, ValueError, AttributeError, IndexError)
        ):
            from hc_cli.files import shown_path

            raise HcError(
                f"the game file {shown_path(self.path)} holds what hc did not write: a field the "
                "game reads is missing or of another kind",
                f"hc replay {shown_path(self.path)} checks every entry",
            ) from None
        return False


def _tell_torn(path: str, chain: Chain) -> None:
    """A torn last line, said on stderr each time the game is read."""
    notice = torn_notice(path, chain)
    if notice is not None:
        import sys

        sys.stderr.write(f"hc: {notice}\n")


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


def append(
    game: Game, fd: int, entry: dict, state: dict | None = None, folded: Folded | None = None
) -> str:
    """Chain one entry onto the game (its lock held) and keep the snapshot of the state it
    leaves: `state`, the fold's step already taken, or `folded`, the game as the entry leaves
    it (an undo); neither: the fold takes the entry."""
    from hc_cli.log import entry_line, log_key, write_entries

    key = log_key()
    chain = game.chain
    before = os.fstat(fd).st_size
    receipt, seq, digest = write_entries(fd, game.path, [entry], key, "--game")
    real = os.path.realpath(game.path)
    _OPENED.pop(real, None)
    line = entry_line(seq, chain.head, entry, key)
    if before != chain.size or os.fstat(fd).st_size != chain.size + len(line) + 1:
        # the file was mended first (a torn line cut, an end of line added): read it again
        game.chain = scan(game.path, fd, key)
        game.folded = fold(game.chain, game.path)
    else:
        chain.offsets.append(chain.size)
        chain.numbers.append(chain.lines_read + 1)
        chain.lines_read += 1
        chain.size += len(line) + 1
        chain.head = digest
        chain.torn = None
        chain.unsigned = False
        if chain.prefix is not None:
            chain.prefix.update(line + b"\n")
        if folded is not None:
            game.folded = folded
        elif state is None:
            game.folded = fold(chain, game.path, base=game.folded)
        else:
            folded = game.folded
            folded.state = state
            folded.effective.append(seq)
            folded.seq = seq
            if seq // CHECKPOINT > max(folded.checkpoints, default=0) // CHECKPOINT:
                folded.checkpoints[seq] = (copy(state), len(folded.effective))
    _save_snapshot(game)
    _OPENED[real] = (_identity(game.path, fd), game)
    return receipt


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
    loaded: list[Any] = []

    def tables_for(name: str) -> Any:
        loaded.append(registry.implementation(name).load_tables(list(rules) or None))
        return loaded[-1]

    ruleset, roster = load(roster_path, tables_for)
    rules_obj = game_rules(ruleset)
    entry = game_entry(
        ruleset,
        "new",
        version=GAME_VERSION,
        roster=roster,
        roster_file=os.path.basename(roster_path),
        rules=rules_record(rules),
        readings=game_readings(rules_obj, loaded[-1]),
    )
    fd = open_log(path, "the game file")
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX)
        if os.fstat(fd).st_size:
            raise HcError(f"{shown_path(path)} was started meanwhile", "give a new file name")
        try:
            receipt = write_entries(fd, path, [entry], log_key(), "the game file")[0]
        except HcError:
            if not os.fstat(fd).st_size:  # nothing written: no empty game file is left behind
                os.unlink(path)
            raise
    finally:
        os.close(fd)
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


def house_rules_changed(recorded: list[dict], files: tuple[str, ...]) -> str | None:
    """How the house rules an action would use differ from those the game began with (by
    their content's digests), in words; None when they are the same."""
    from hc_cli.files import shown_path
    from hc_cli.log import file_digest

    kept = sorted(str(r.get("sha256")) for r in recorded if "path" in r)
    now = []
    for path in files:
        if not os.path.isfile(path):
            return f"the game's house rules {shown_path(path)} are gone"
        now.append(file_digest(path))
    if sorted(now) == kept:
        return None
    if len(files) == len(kept) and [os.path.abspath(f) for f in files] == [
        r.get("path") for r in recorded if "path" in r
    ]:
        return (
            "the game's house rules "
            + ", ".join(shown_path(f) for f in files)
            + (" were changed since it began")
        )
    return "these house rules are not the ones the game began with"


def game_readings(rules: Any, tables: Any) -> dict[str, str]:
    """The choices of the readings the game decides by, from the tables in force when it
    starts (house rules included): kept with the roster, so the fold never reads a table."""
    from hc_cli import readings

    return {name: readings.choose(tables.merged, name) for name in rules.readings}


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
    rules_changed: bool = False,
) -> tuple[Any, dict[str, Any], Any]:
    """Fill a command from the game, resolve it and (unless it is a question of odds) append
    it: (resolution, what the game says of it, the call as resolved). House rules other than
    the game's (a file rewritten since it began, or another --rules) only with
    `rules_changed`, which the entry records. Dice asked of a player (--dice ask) are asked
    with the file unlocked, so a prompt left open blocks nobody: the entry is appended only if
    the game has not moved on meanwhile."""
    asking = bool(call.dice) and call.dice.strip().lower() == "ask"
    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        prepared = _prepare(call, game, unit, at, anyway, session, rules_changed)
        if not asking or call.odds:
            return _resolve_and_append(prepared, game, fd, session, ask)
    head = game.chain.head
    res = _resolve(prepared, session, ask)
    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        if game.chain.head != head:
            raise HcError(
                "the game moved on while the dice were asked for: nothing was logged",
                "look at it (hc status), then act again",
            )
        return _resolve_and_append(prepared, game, fd, session, ask, res)


@record
class _Prepared:
    """An action filled in from the game, ready to resolve."""

    call: Any
    unit: str | None
    at: list[str]
    anyway: bool
    fill: Any
    given: dict
    changed: str | None


def _prepare(call, game, unit, at, anyway, session, rules_changed) -> _Prepared:  # type: ignore[no-untyped-def]
    from hc_cli.record import replace

    game_path = game.path
    if call.ruleset != game.folded.ruleset:
        raise HcError(
            f"{game_path} is a game of {game.folded.ruleset}, not of {call.ruleset}",
            "leave out the rule set, or act outside the game: --game none",
        )
    if call.rules:
        rules_files = tuple(call.rules)
    else:
        rules_files = tuple(r["path"] for r in game.folded.rules_files if "path" in r)
    changed = house_rules_changed(game.folded.rules_files, rules_files)
    if changed and not rules_changed and not call.odds:
        raise HcError(
            f"{changed}: the game would roll with other numbers than those it began with",
            "put the game's house rules back, or play on with them as they are now: "
            "--rules-changed (the game records it)",
        )
    tables = session.tables(game.folded.ruleset, rules_files)
    with unreadable(game_path):
        fill = game.rules.fill(  # on a copy: what a fill does to it never reaches the game
            copy(game.folded.state), call.command, unit, list(at), dict(call.flags), tables
        )
    if fill.refusal and not anyway and not call.odds:
        raise HcError(
            fill.refusal,
            "act when the rules allow it, or record an override with --anyway",
        )
    given = dict(call.flags)
    call = replace(call, flags=fill.flags, rules=rules_files)
    return _Prepared(call, unit, list(at), anyway, fill, given, changed)


def _resolve(prepared: _Prepared, session: Any, ask: Any) -> Any:
    from hc_cli.execute import execute

    return execute(prepared.call, session, set(prepared.fill.flags), ask=ask)


def _resolve_and_append(
    prepared: _Prepared, game: Game, fd: int, session: Any, ask: Any, res: Any = None
) -> tuple[Any, dict[str, Any], Any]:
    from hc_cli.log import make_entry
    from hc_cli.record import replace
    from hc_cli.render.json_text import as_dict

    call, fill = prepared.call, prepared.fill
    if res is None:
        res = _resolve(prepared, session, ask)
    report: dict[str, Any] = {"game": game.path, "unit": prepared.unit, "at": prepared.at}
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
    entry = make_entry(call, as_dict(res), session.digest(call.ruleset, call.rules))
    overridden = fill.refusal if fill.refusal and prepared.anyway else None
    entry["game"] = {
        "unit": prepared.unit,
        "at": prepared.at,
        "given": prepared.given,
        "meta": fill.meta,
        **({"anyway": overridden} if overridden else {}),
        **({"rules_changed": prepared.changed} if prepared.changed else {}),
    }
    rules = game.rules
    after = copy(game.folded.state)
    with unreadable(game.path):
        changes = rules.apply(after, entry)
    report["changes"] = changes
    if overridden:
        report["anyway"] = f"--anyway: {overridden}"
    with unreadable(game.path):  # worked out first: what fails appends nothing
        report["clock"] = rules.clock(after)
        report["due"] = rules.due(after)
    report["receipt"] = append(game, fd, entry, after)
    res.fields["game"] = report
    return res, report, call


# ---------------------------------------------------------------------------------------------
# hc game next, hc undo


def step(game_path: str, anyway: bool = False) -> dict[str, Any]:
    """`hc game next`: the game moves on by a step of its rule set; a step the rules hold it
    at (a test due first) only with --anyway, which the entry records."""
    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        with unreadable(game_path):
            hold = game.rules.hold(game.folded.state)
        if hold and not anyway:
            raise HcError(
                hold, "do that first, or move on all the same with --anyway (the game records it)"
            )
        after = copy(game.folded.state)
        with unreadable(game_path):
            notes = game.rules.next(after)
        said = _said(game, after, notes)  # worked out first: what fails appends nothing
        more = {"anyway": hold} if hold else {}
        said["receipt"] = append(game, fd, game_entry(game.folded.ruleset, "next", **more), after)
        if hold:
            said["anyway"] = f"--anyway: {hold}"
        return said


def undo(game_path: str) -> dict[str, Any]:
    """`hc undo`: an entry that takes back the newest action or step still in effect; the
    state it leaves is folded from the newest checkpoint before it."""
    import json

    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        if not game.folded.effective:
            raise HcError("nothing to undo: no action of this game is in effect", "act first")
        target = game.folded.effective[-1]
        what = describe(json.loads(game.chain.line(target)))
        after = fold(game.chain, game_path, base=game.folded, undoing=target)
        said = _said(game, after.state, [f"undid entry {target}: {what}"])  # first: what
        entry = game_entry(game.folded.ruleset, "undo", undoes=target, what=what)  # fails
        said["receipt"] = append(game, fd, entry, folded=after)  # appends nothing
    return said


def _said(game: Game, state: dict, notes: list[str]) -> dict[str, Any]:
    rules = game.rules
    with unreadable(game.path):
        return {
            "game": game.path,
            "changes": notes,
            "clock": rules.clock(state),
            "due": rules.due(state),
        }

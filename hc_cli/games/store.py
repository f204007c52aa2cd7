"""A game that remembers: its file is a log (`hc_cli.log.chain`), hash-chained, only ever appended
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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.games import heads
from hc_cli.games.fold import CHECKPOINT, MOST_CHECKPOINTS, Folded, copy, describe, fold
from hc_cli.games.roster import game_rules
from hc_cli.games.scan import Chain, entries_from, open_to_read, scan, tell_torn
from hc_cli.log.chain import entry_line, log_key, open_log, receipt, write_entries
from hc_cli.log.osfile import held

if TYPE_CHECKING:
    from hc_cli.games.roster import Rules


SNAPSHOT_MOST = 256_000_000
# Raised whenever a rule set's fold keeps its state in another shape: a snapshot of an older
# shape is not read, and the game is folded again from its file.
SNAPSHOT_FORM = 4  # 4: the state the newest entry was taken into

# ---------------------------------------------------------------------------------------------
# The snapshot: the fold's result, cached by the chain's head


def _snapshot_file(real: str) -> tuple[str, str]:
    import zlib

    from hc_cli import __version__
    from hc_cli.tables.paths import cache_dir

    name = f"game-{zlib.crc32(real.encode('utf-8', 'surrogateescape')):08x}.snapshot"
    return os.path.join(cache_dir(), name), f"{__version__} {SNAPSHOT_FORM}\n{real}"


def _load_snapshot(path: str, key: bytes | None) -> tuple[dict[str, Any] | None, Folded | None]:
    """What the snapshot knew of the file (for `scan`) and the game it folded, or Nones: a
    snapshot of another shape, another rule set's state shape or another key is not read."""
    from hc_cli.tables.files import read_cache

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
            snap["layers"],
            snap["before"],
        )
        if snap["state_version"] != game_rules(folded.ruleset).state_version:
            return None, None  # a state of another shape
        trusted = snap["chain"]
        if not (isinstance(trusted, dict) and len(trusted["offsets"]) == folded.seq):
            return None, None
    except (TypeError, KeyError, AttributeError, ValueError, HcError):
        return None, None
    return trusted, folded


TAB_FOLD_MOST = 500  # entries a TAB folds from the start (no snapshot): some 0.1 s


def kept_state(path: str) -> tuple[Rules, dict[str, Any]] | None:
    """The game's rules and its state as the snapshot last kept it, for what TAB offers (a
    unit routed, a target wiped out), never for what the game does. A snapshot behind the
    file (its size: the other player appended in his own terminal) has the entries since
    folded onto it; with none, a game of at most TAB_FOLD_MOST entries is folded. None: no
    state to be had (TAB then offers the roster's names)."""
    folded = None
    try:
        key = log_key()
        trusted, folded = _load_snapshot(path, key)
        if folded is None or trusted is None or os.stat(path).st_size != trusted["size"]:
            folded = _caught_up(path, key, trusted, folded)
    except (HcError, OSError, KeyError, TypeError):
        pass  # the file as it is cannot be read: what the snapshot kept, if anything
    return None if folded is None else (game_rules(folded.ruleset), folded.state)


def _caught_up(
    path: str, key: bytes | None, trusted: dict[str, Any] | None, kept: Folded | None
) -> Folded | None:
    """The snapshot `kept` with the entries appended since folded onto it (or a small game
    folded whole), the chain checked as open_game checks it, without a word (a TAB prints
    nothing but what it offers) and not kept: the newest is not held to the game (a fill and
    a resolution, too slow for a TAB), which the player's next command does."""
    reading = open_to_read(path)
    try:
        chain = scan(path, reading, key, trusted)
    finally:
        os.close(reading)
    base = kept if chain.trusted else None  # else not the bytes it was folded from
    if base is None and chain.count > TAB_FOLD_MOST:
        return kept
    return fold(chain, path, base=base, hold_newest=False)


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
    from hc_cli.tables.files import write_cache

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
            "layers": folded.layers,
            "before": folded.before,
            "state_version": game_rules(folded.ruleset).state_version,
            "chain": {
                "size": chain.size,
                "prefix": chain.prefix.hexdigest(),
                "lines": chain.lines_read,
                "offsets": chain.offsets,
                "numbers": chain.numbers,
                "head": chain.head,
                "keyed": chain.keyed,
            },
        },
    )


# ---------------------------------------------------------------------------------------------
# Opening a game


@dataclass(slots=True)
class Game:
    path: str
    chain: Chain
    folded: Folded

    @property
    def seq(self) -> int:
        return self.chain.count

    @property
    def rules(self) -> Rules:
        return game_rules(self.folded.ruleset)

    def head(self) -> str:
        return receipt(self.seq, self.chain.head)


# The game this process last read or wrote, by its file's identity and size: a batch of a
# game's actions reads the file once, not once a line (each line holds the lock, and an append
# by anyone else changes the size).
_OPENED: dict[str, tuple[tuple[int, ...], Game]] = {}


def _identity(path: str, fd: int | None) -> tuple[int, ...]:
    st = os.fstat(fd) if fd is not None else os.stat(path)  # a change time no one sets back:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)  # an edit is seen


def open_game(path: str, fd: int | None = None, fresh: bool = False) -> Game:
    """The game at `path` (read through `fd` when the caller holds its lock), its chain
    checked whole and its state from the snapshot or the fold. `fresh`: read the file again
    even if this process read it as it looks now (a batch of actions does not)."""
    real = os.path.realpath(path)
    try:
        identity = _identity(path, fd)
    except OSError:
        identity = ()
    known = _OPENED.get(real)
    if known is not None and identity and known[0] == identity and not fresh:
        tell_torn(path, known[1].chain)
        return known[1]
    own = fd is None
    reading: int = open_to_read(path) if fd is None else fd
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
    tell_torn(path, chain)
    if snapshot is not None and snapshot.seq == chain.count:
        folded = snapshot
    else:
        folded = fold(chain, path, base=snapshot)  # the newest entry checked as it is taken
    game = Game(path, chain, folded)
    if folded is snapshot:  # it vouches for the file's bytes, not for what the newest means
        check_newest(game)  # (a fold checks it as it is taken)
    check_newest_retake(game)
    heads.check(game, locked=not own)  # a file gone back from the head this hc saw: refused
    if game.folded is not snapshot:
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

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not None and issubclass(
            kind, (KeyError, TypeError, ValueError, AttributeError, IndexError)
        ):
            from hc_cli.tables.files import shown_path

            raise HcError(
                f"the game file {shown_path(self.path)} holds what hc did not write: a field the "
                "game reads is missing or of another kind",
                f"hc replay {shown_path(self.path)} checks every entry",
            ) from None


class Locked:
    """The game file open and locked for an action: nobody else appends until it is done."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.fd = -1

    def __enter__(self) -> int:
        if not os.path.isfile(self.path):
            from hc_cli.tables.files import shown_path

            raise HcError(
                f"there is no game file {shown_path(self.path)}",
                f"start it: hc game new {shown_path(self.path)} --roster ROSTER",
            )
        self.fd = open_log(self.path, "--game")
        self.lock = held(self.fd, f"waiting for {self.path}: another hc is writing it")
        try:
            self.lock.__enter__()
        except BaseException:
            os.close(self.fd)
            raise
        return self.fd

    def __exit__(self, *exc: object) -> None:
        self.lock.__exit__()
        os.close(self.fd)


def game_entry(ruleset: str, event: str, **more: Any) -> dict[str, Any]:
    """A game's own entry (its roster, a step, an undo, a sealed roll's step): `event` and
    what it says, under "game"."""
    import time

    from hc_cli import __version__

    return {
        "hc": __version__,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": "game",
        "ruleset": ruleset,
        "game": {"event": event, **more},
    }


def append(
    game: Game,
    fd: int,
    entry: dict[str, Any],
    state: dict[str, Any] | None = None,
    folded: Folded | None = None,
) -> str:
    """Chain one entry onto the game (its lock held) and keep the snapshot of the state it
    leaves: `state`, the fold's step already taken, or `folded`, the game as the entry leaves
    it (an undo); neither: the fold takes the entry."""
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
        if chain.prefix is not None:
            chain.prefix.update(line + b"\n")
        if folded is not None:
            game.folded = folded
        elif state is None:
            game.folded = fold(chain, game.path, base=game.folded)
        else:
            folded = game.folded
            folded.before = None if entry.get("command") == "game" else folded.state
            folded.state = state
            folded.effective.append(seq)
            folded.seq = seq
            if seq // CHECKPOINT > max(folded.checkpoints, default=0) // CHECKPOINT:
                folded.checkpoints[seq] = (copy(state), len(folded.effective))
                if len(folded.checkpoints) > MOST_CHECKPOINTS:  # the oldest go, the start's not
                    del folded.checkpoints[sorted(folded.checkpoints)[1]]
    _save_snapshot(game)
    heads.remember(game)  # the head this hc wrote
    _OPENED[real] = (_identity(game.path, fd), game)
    return receipt


class GameCheck:
    """How `hc replay` reads a game file's own entries (`hc_cli.log.replay.Replay`'s `game`)."""

    @staticmethod
    def describe(entry: dict[str, Any]) -> str:
        return describe(entry)

    @staticmethod
    def folds(path: str) -> tuple[str, list[str]]:
        """The game's state folds from its entries (every action on a unit of the roster, every
        undo naming the newest action in effect) and the file reaches the newest head this hc
        saw of the game (`heads`): what is wrong in words, or nothing; and each
        action whose game part is not what the game gives in the state before it
        (`entry_check.game_part_problem`), by its line: every one in effect, and every one
        taken back whose state the fold passes (`fold.checkable`)."""
        from hc_cli.games.entry_check import entry_rules, entry_tables, game_part_problem
        from hc_cli.games.fold import checkable
        from hc_cli.plugin.execute import Session

        session, misplayed, passed = Session(), list[str](), set[int]()

        def check(state: dict[str, Any], entry: dict[str, Any], number: int) -> None:
            if entry.get("seq") not in passed:
                return  # taken back after an entry before it was: its state is not passed
            try:
                tables = entry_tables(entry, entry_rules(entry), session)
            except HcError:
                return  # its house rules cannot be read: its dice's report says so
            try:
                problem = game_part_problem(game_rules(entry["ruleset"]), state, entry, tables)
                problem = problem or _lapse_problem(chain, state, entry, tables)
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                problem = "is not an action hc logged: a field the game reads is missing"
            if problem and len(misplayed) < 1000:
                misplayed.append(f"line {number}: entry {entry.get('seq')} {problem}")

        try:
            fd = open_to_read(path)
            try:
                chain = scan(path, fd, log_key())
            finally:
                os.close(fd)
            passed.update(checkable(chain))
            folded = fold(chain, path, check=check)
            if folded.state.get("version", 1) >= 3:  # re-takes held to the dice left out
                misplayed += _retakes(chain, folded)
            seen = heads.recall(heads.game_id(chain))  # the newest head this hc saw of it
            if seen is not None and (problem := heads.went_back(chain, seen)):
                return f"the game file {problem}", misplayed
        except HcError as error:
            return f"the game does not fold: {error.message}", misplayed
        except OSError as error:
            return f"the game cannot be read again: {error.strerror}", misplayed
        return "", misplayed


def _lapse_problem(
    chain: Chain, state: dict[str, Any], entry: dict[str, Any], tables: Any
) -> str | None:
    """An entry that records the dice of an action taken back as lapsed (`retake`): in the
    state before it, the rule set's fill of that action must refuse it."""
    import json

    from hc_cli.games.retake import lapsed_of, refusal_of

    for seq in lapsed_of(entry):
        undone = json.loads(chain.line(seq)) if 1 < seq < entry["seq"] else None
        rules = game_rules(entry["ruleset"])
        if not isinstance(undone, dict) or refusal_of(rules, state, undone, tables) is None:
            return f"records the dice of entry {seq} lapsed, but it could be made again as it was"
    return None


def _retakes(chain: Chain, folded: Folded) -> list[str]:
    """Each action that breaks the rule of dice left on the table by an undo (`retake`), by
    its line: the whole file walked once, an entry at a time."""
    from hc_cli.games.retake import retake_problems, sides_of

    entries = entries_from(chain, range(1, chain.count + 1))
    found = retake_problems(entries, sides_of(folded.roster))
    said = [f"line {chain.numbers[seq - 1]}: entry {seq} {problem}" for seq, problem in found]
    return said[:1000]


def check_newest_retake(game: Game) -> None:
    """The newest entry, a rolled action, held to the rule of the dice an undo left on the
    table (`retake`), as the action was judged before it was appended: no later hash covers
    it, so an edit of its re-take (`reroll`, `agreed`) is refused here, not only by replay.
    One period's entries, found by their bytes (`period_entries`)."""
    from hc_cli.games.retake import period_entries, retake_problem, rolled, sides_of

    chain, folded = game.chain, game.folded
    seq = chain.count
    if seq < 2 or folded.state.get("version", 1) < 3 or seq not in folded.effective:
        return
    ((_, entry),) = entries_from(chain, [seq])
    period = (entry.get("game") or {}).get("period") if isinstance(entry, dict) else None
    if not rolled(entry) or not isinstance(period, str):
        return
    table = [(s, e) for s, e in period_entries(chain, period) if s < seq]
    effective = set(folded.effective) - {seq}
    with unreadable(game.path):
        problem = retake_problem(table, effective, sides_of(folded.roster), entry)
    if problem:
        from hc_cli.games.scan import damaged

        raise damaged(game.path, chain.numbers[-1], f"entry {seq}, the newest, {problem}")


def check_newest(game: Game) -> None:
    """The newest entry held to the game (`fold.newest_checked`) when the state came from a
    snapshot, not a fold (a fold checks it): a snapshot vouches for the file's bytes, not for
    what its newest entry means, so it is checked whatever the snapshot says."""
    from hc_cli.games.fold import event_of, newest_checked

    chain, folded = game.chain, game.folded
    if chain.count < 2 or chain.count not in folded.effective:
        return  # the roster alone, or an undo last
    ((seq, entry),) = entries_from(chain, [chain.count])
    if event_of(entry) is not None:
        return  # a step, a sealed roll's step: the fold checks them
    if folded.before is None:  # a snapshot that did not keep it: the game folded again whole
        game.folded = fold(chain, game.path)
        return
    newest_checked(game.rules, folded.before, entry, game.path, chain.numbers[-1])

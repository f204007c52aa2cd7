"""A game file read back: its chain checked by hashing each line (no JSON is parsed for that),
its entries, and the fold that makes the game's state of them (the rule set's `GameRules`:
`start`, then `apply` for each action and `next` for each step, skipping what was undone).

A game of any length is read in a few megabytes: the file a block at a time, its entries
kept as where their lines start (read again when wanted), the fold one entry at a time. A
snapshot's trusted prefix (bytes hashed whole once, and checked by one hash of the same bytes
again) spares hashing it line by line; its checkpoints spare an undo the fold from the start.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from hc_cli.core.errors import HcError
from hc_cli.log.chain import MAX_LINE

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any


MAX_GAME_BYTES = 512_000_000  # a game of a hundred thousand actions is far less

# The game's own entries; the last four are a sealed roll's steps (hc_cli.games.seal.EVENTS).
GAME_EVENTS = ("new", "next", "undo", "seal", "seal-commit", "seal-reveal", "seal-abandon")


def damaged(path: str, number: int, why: str) -> HcError:
    from hc_cli.tables.files import shown_path

    return HcError(
        f"the game file {shown_path(path)} is damaged at line {number}: {why}",
        f"a game file is only ever appended to by hc; hc replay {shown_path(path)} lists every "
        "problem",
    )


# ---------------------------------------------------------------------------------------------
# The chain, checked by hashing each line


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
    return hasher.copy().hexdigest()


def scan(path: str, fd: int, key: bytes | None, trusted: dict | None = None) -> Chain:
    """Every entry of the game file open on `fd`, the chain checked whole: each entry
    numbered one after the last and naming the hash of the line before it, a keyed one
    signed. `trusted`: what a snapshot knew of the file (its first `size` bytes, their
    digest, their entries): when the same bytes are still there, only the entries after them
    are checked one by one. A line cut short at the end (a writer stopped mid-line) is left
    out, as the log's next append removes it; a whole entry without its end of line is kept."""
    import hashlib

    from hc_cli.log.chain import chain_hash, sig_problem, whole_entry

    size = os.fstat(fd).st_size
    if size > MAX_GAME_BYTES:
        from hc_cli.tables.files import shown_path

        raise HcError(
            f"the game file {shown_path(path)} is larger than {MAX_GAME_BYTES:,} bytes",
            "give --game the file hc game new wrote (or HC_GAME=FILE)",
        )
    hasher = hashlib.sha256()
    offsets: list[int] = []
    numbers: list[int] = []
    prev: str | None = None
    keyed = unsigned = False  # unsigned: the newest entry, keyed, carries no MAC of its own
    start = number = 0
    if trusted is not None and trusted["size"] <= size:
        if hash_range(fd, trusted["size"], hasher) == trusted["prefix"]:
            start, number = trusted["size"], trusted["lines"]
            offsets, numbers = list(trusted["offsets"]), list(trusted["numbers"])
            prev, keyed = trusted["head"], trusted["keyed"]
        else:
            hasher = hashlib.sha256()
    vouched = len(offsets)
    signing = vouched > 0 and keyed  # a snapshot's prefix is signed: so is all that follows

    def entry(line: bytes, at: int) -> None:
        nonlocal prev, keyed, unsigned, signing, number
        number += 1
        if not line.strip():
            return
        head = _head(line)
        if head is None:
            raise damaged(path, number, "not an entry of hc's (garbage, or an entry edited)")
        seq, named, mac = head
        if seq != len(offsets) + 1:
            raise damaged(
                path,
                number,
                f"entry {seq} where {len(offsets) + 1} was next: entries deleted, "
                "moved or added by hand",
            )
        if mac and key is None:
            raise HcError(
                f"the game file {path} is chained with a key",
                "give the game's key (HC_LOG_KEY or HC_LOG_KEY_FILE) to play it",
            )
        if not mac and key is not None:
            raise damaged(
                path,
                number,
                f"entry {seq} is not chained with the key given: anyone could have written it",
            )
        if named != prev:
            raise damaged(
                path,
                number,
                f"entry {seq} does not chain onto the entry before it: that "
                "entry was edited, or this one forged",
            )
        keyed = mac
        if mac:  # an entry of an older hc, unsigned, is vouched for by the next one's chain
            assert key is not None
            problem = sig_problem(line, key)
            if problem and (not problem.startswith("carries no") or signing):
                raise damaged(path, number, f"entry {seq} {problem}")
            unsigned = problem is not None
            signing = signing or not unsigned
        prev = chain_hash(line, key if mac else None)
        offsets.append(at)
        numbers.append(number)

    pos, pending, whole, torn = start, b"", start, None
    while pos < size:
        block = os.pread(fd, min(READ_BLOCK, size - pos), pos)
        if not block:
            break
        data, base = pending + block, pos - len(pending)
        pos += len(block)
        cut = data.rfind(b"\n") + 1
        at = 0
        while at < cut:
            stop = data.index(b"\n", at)
            entry(data[at:stop], base + at)
            at = stop + 1
        hasher.update(data[:cut])
        whole = base + cut
        pending = data[cut:]
        if len(pending) > MAX_ENTRY_LINE + 1:
            raise damaged(path, number + 1, "a line longer than any entry hc writes")
    if pending.strip():
        if whole_entry(pending):  # a whole entry that lacks only its end of line: kept
            entry(pending, whole)
            hasher.update(pending)
            whole += len(pending)
        else:
            torn = (number + 1, len(pending))
    if not offsets:
        raise HcError(f"{path} holds no game", f"start one: hc game new {path} --roster ROSTER")
    if keyed and unsigned:  # nothing after it vouches for it: anyone could have changed it
        raise damaged(
            path,
            numbers[-1],
            f"entry {len(offsets)}, the newest, carries no MAC of its own: with a key, every "
            "entry is signed, so it was changed without the key (or written by an hc before "
            "entries were signed: hc replay FILE --head RECEIPT checks it against a receipt)",
        )
    assert prev is not None
    return Chain(path, offsets, numbers, prev, whole, number, keyed, torn, hasher, vouched)


def torn_notice(path: str, chain: Chain) -> str | None:
    """What is to be said of a game file each time it is read: a torn last line."""
    from hc_cli.tables.files import shown_path

    if chain.torn is not None:
        line, size = chain.torn
        return (
            f"{shown_path(path)}: line {line} ({size:,} bytes, no end of line) is an entry cut "
            "short, as a writer stopped mid-write leaves it: the game is played without it, "
            "and the next entry written replaces it"
        )
    return None


# ---------------------------------------------------------------------------------------------
# The fold


def event_of(entry: dict) -> str | None:
    """ "new", "next" or "undo" for a game's own entries; None for an action."""
    if entry.get("command") != "game":
        return None
    game = entry.get("game")
    event = game.get("event") if isinstance(game, dict) else None
    return event if event in GAME_EVENTS else "?"


def entries_from(chain: Chain, seqs: Iterable[int]) -> Iterator[tuple[int, dict]]:
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


@dataclass(slots=True)
class Folded:
    """A game's state and what the fold needs to go on: the entries still in effect (those an
    undo may take back, newest last)."""

    ruleset: str
    roster: dict
    rules_files: list
    state: dict
    effective: list[int]  # entry numbers (seq) of the actions and steps in effect
    seq: int = 1  # the entry the state is at
    # seq -> (the state there, how many entries were in effect there): where an undo refolds
    # from rather than the start (the newest one whose entries in effect all still are)
    checkpoints: dict = field(default_factory=dict)
    # every house-rules file laid on when the game began, in order (None: an older hc's game)
    layers: list | None = None


def _start(entry: dict, path: str, number: int) -> tuple[str, dict, list, dict, list | None, int]:
    from hc_cli.games.roster import game_rules

    game = entry.get("game") or {}
    if event_of(entry) != "new" or not isinstance(game.get("roster"), dict):
        raise damaged(path, number, "the first entry of a game is its roster (hc game new)")
    ruleset = entry.get("ruleset")
    if not isinstance(ruleset, str):
        raise damaged(path, number, "the roster entry names no rule set")
    version = game.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise damaged(path, number, f"the game's version {str(version)[:20]!r} is no version")
    if version > GAME_VERSION:
        raise HcError(
            f"the game file {path} was written by a newer hc ({str(entry.get('hc'))[:20]})",
            "play it with that version of hc, or newer",
        )
    rules = game_rules(ruleset)
    readings = game.get("readings") or {}
    if not isinstance(readings, dict):
        raise damaged(path, number, "the roster entry's readings are not a mapping")
    for name, choice in readings.items():
        if choice not in rules.readings.get(name, ()):
            raise damaged(
                path,
                number,
                f"the roster entry's reading {name!r:.40} = {choice!r:.40} is none "
                "hc plays by (hc tables readings lists them)",
            )
    rules_files = game.get("rules") or []
    if not isinstance(rules_files, list) or not all(isinstance(r, dict) for r in rules_files):
        raise damaged(path, number, "the roster entry's house rules are not a list of files")
    problem = roster_problem(rules, game["roster"])
    if problem:
        raise damaged(path, number, f"the roster it starts from {problem}")
    layers = game.get("layers")
    if layers is not None and not (
        isinstance(layers, list) and all(isinstance(r, dict) for r in layers)
    ):
        raise damaged(path, number, "the roster entry's house rules are not a list of files")
    return ruleset, game["roster"], rules_files, readings, layers, version


def roster_problem(rules: Any, roster: dict) -> str | None:
    """What is wrong with a game file's roster, checked as strictly as a roster file: the
    title, the sides and the units' names (all printed at the table), and each unit's fields
    of the kinds its rule set takes. None when it is whole."""
    from hc_cli.games.roster import TITLE_MOST, side_name_problem, text_problem, unit_name_problem
    from hc_cli.tables.schema import Problems, check_value

    title = roster.get("title", "")
    if not isinstance(title, str) or text_problem(title, TITLE_MOST):
        return "has a title that is no title"
    sides = roster.get("sides")
    least, most = rules.sides
    if not isinstance(sides, dict) or not least <= len(sides) <= most:
        return f"does not have {least} to {most} sides"
    for side, units in sides.items():
        if side_name_problem(side):
            return f"has a side named {side!r:.40}: {side_name_problem(side)}"
        if not isinstance(units, dict) or not units:
            return f"has no units for side {side}"
        for name, unit in units.items():
            if unit_name_problem(name):
                return f"has a unit named {name!r:.40}: {unit_name_problem(name)}"
            if not isinstance(unit, dict):
                return f"has a unit {name} that is no unit"
            for key, kind in rules.resolved_kinds.items():
                if not _of_kind(unit.get(key), kind):
                    return f"has a unit {name} whose {key} is not what hc game new writes"
            problems = Problems()
            for key, spec in rules.unit_fields.items():
                if key in rules.resolved_kinds:
                    continue
                if unit.get(key) is None:
                    if spec.required:
                        return f"has a unit {name} without its {key}"
                    continue
                check_value(unit[key], spec, "", None, f"{name}.{key}", problems)
            if problems.items:
                return (
                    f"has a unit {name} whose {problems.items[0].key}: {problems.items[0].problem}"
                )
    return None


def _of_kind(value: Any, kind: str) -> bool:
    """Whether a value read from a game file is of the kind its field takes (`GameRules.
    resolved_kinds`)."""
    if kind.endswith("?"):
        if value is None:
            return True
        kind = kind[:-1]
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "map:int":
        return isinstance(value, dict) and all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in value.items()
        )
    types = {"str": str, "bool": bool, "list": list, "map": dict}
    return isinstance(value, types[kind])


# A game file's version, kept in its roster entry: what the fold of its entries does. 2: the
# steps of a move with nothing left to do pass by themselves after each action and step.
GAME_VERSION = 2


def take_entry(rules: Any, state: dict, entry: dict, path: str, number: int) -> list[str]:
    """One entry into the state: an action (`apply`) or a step (`next`)."""
    try:
        from hc_cli.games import seal

        if event_of(entry) == "next":
            if seal.open_seal(state) is not None:
                raise HcError("the game moves on while a sealed roll is under way")
            return rules.next(state)
        if event_of(entry) in seal.EVENTS:
            return seal.take_event(state, entry)
        if event_of(entry) is not None:
            raise damaged(path, number, f"'{(entry.get('game') or {}).get('event')}' is no event")
        if seal.plain_roll(entry):  # a sealed roll of dice: the game keeps no state of it
            seal.check_action(state, entry)
            return []
        problem = action_problem(entry, state)
        if problem:
            raise damaged(path, number, f"entry {entry.get('seq')} {problem}")
        seal.check_action(state, entry)
        return rules.apply(state, entry)
    except HcError as error:
        if "damaged at line" in error.message:
            raise
        raise damaged(
            path, number, f"entry {entry.get('seq')} cannot be taken into the game: {error.message}"
        ) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise damaged(
            path,
            number,
            f"entry {entry.get('seq')} is not an action hc logged: a field the game reads is "
            "missing or of another kind",
        ) from None


def action_problem(entry: dict, state: dict) -> str | None:
    """What is wrong with the shape of an action read from a game file: its options, its
    result and what the game said of it (the unit, its targets, what was filled in, each a
    unit of the game)."""
    game = entry.get("game")
    if not isinstance(game, dict):
        return "has no game part: it is no action of a game"
    if not isinstance(entry.get("command"), str) or not isinstance(entry.get("result"), dict):
        return "has no command or no result"
    if not isinstance(entry.get("flags", {}), dict):
        return "has options that are not a mapping"
    unit = game.get("unit")
    if unit is not None and (not isinstance(unit, str) or not unit.isprintable()):
        return "names its unit with something that is no unit's name"
    at = game.get("at", [])
    if not isinstance(at, list) or not all(isinstance(a, str) and a.isprintable() for a in at):
        return "names its targets with something that is no list of units"
    for name in ([unit] if unit else []) + at:
        if name.partition(":")[0] not in state.get("units", {}):
            return f"names a unit the roster does not have: {name[:40]}"
    for key in ("given", "meta"):
        if not isinstance(game.get(key, {}), dict):
            return f"has a '{key}' that is not a mapping"
    from hc_cli.plugin import registry

    declared = registry.get(str(entry.get("ruleset"))).commands.get(entry["command"])
    if declared is None:
        return f"is a command its rule set does not have: {entry['command'][:40]}"
    names = {option.name for option in declared.options}
    for given in (game.get("given") or {}, entry.get("flags") or {}):
        foreign = [str(k)[:40] for k in given if k not in names]
        if foreign:  # no --game, --log, --rules ... slipped in to be exported and run
            return f"gives options its command does not take: {', '.join(foreign)}"
    if not isinstance(game.get("anyway", ""), str):
        return "records an override that is no reason"
    seed = entry.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        return "records a seed that is no whole number"
    values = [entry.get("dice")] + [
        value
        for key in (game.get("given") or {}, entry.get("flags") or {})
        for given in key.values()
        for value in (given if isinstance(given, list) else [given])
    ]
    if any(isinstance(v, str) and (not v.isprintable() or len(v) > 1000) for v in values):
        return "gives an option a value no one could type (a control character, or too long)"
    return None


CHECKPOINT = 256  # entries between the states a snapshot keeps: an undo refolds at most so many
MOST_CHECKPOINTS = 64


def _events(chain: Chain, first: int, stack: list[int]) -> None:
    """The entries in effect once every entry from `first` on is taken: each action or step
    goes on `stack`, each undo takes its newest off (it must name that one). Only an entry of
    the game's own is parsed: an action is known by its line."""
    import json

    for seq, line in raw_from(chain, first):
        if b'"command":"game"' in line and b'"event":"undo"' in line:
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError):
                raise damaged(chain.path, chain.numbers[seq - 1], "not an entry of hc's") from None
            if event_of(entry) == "undo":
                target = (entry.get("game") or {}).get("undoes")
                if not stack or stack[-1] != target:
                    raise damaged(
                        chain.path,
                        chain.numbers[seq - 1],
                        f"the undo names entry {str(target)[:20]!r}, which was not the newest "
                        "in effect",
                    )
                to = (entry.get("game") or {}).get("to")
                if to is not None and (type(to) is not int or not 1 <= to < target):
                    raise damaged(
                        chain.path,
                        chain.numbers[seq - 1],
                        f"the undo goes back to {str(to)[:20]!r}",
                    )
                # the newest entry, or (hc undo --to N) every entry after N
                while stack and stack[-1] >= (target if to is None else to + 1):
                    taken = chain.line(stack.pop())
                    if b'"event":"seal' in taken or b'"sealed":' in taken:
                        raise damaged(
                            chain.path,
                            chain.numbers[seq - 1],
                            "the undo takes back a sealed roll, which is never taken back",
                        )
                continue
        stack.append(seq)


def copy(state: dict) -> dict:
    """A state of plain data, copied whole (a checkpoint, the state a step is tried on)."""
    import marshal

    return marshal.loads(marshal.dumps(state))


def fold(
    chain: Chain,
    path: str,
    each: Callable[[dict, list[str], bool, str], None] | None = None,
    base: Folded | None = None,
    undoing: int | None = None,
) -> Folded:
    """The game's state from its entries: the roster, then each action and step in effect
    (an undo names the newest one still in effect). `base`: the game as a snapshot knew it,
    at an earlier entry; the fold goes on from its newest checkpoint whose entries in effect
    are all still in effect (an undo since may have taken some back). `each(entry, notes,
    undone, period)` sees every entry from the first, for `hc history`: the part of the game
    it was taken in (the one it begins, for a command of the whole game such as the
    Initiative). `undoing`: the game as it will be once an undo of that entry and every
    later one in effect (the newest, for one undo) is appended, worked out before it is."""
    from bisect import bisect_right

    from hc_cli.games.roster import game_rules

    if base is not None and each is None:
        ruleset, roster, rules_files, layers = (
            base.ruleset, base.roster, base.rules_files, base.layers
        )  # fmt: skip
        stack = list(base.effective)
        _events(chain, base.seq + 1, stack)
        points = {**base.checkpoints, base.seq: (base.state, len(base.effective))}
    else:
        ((_, first),) = entries_from(chain, [1])
        ruleset, roster, rules_files, readings, layers, version = _start(
            first, path, chain.numbers[0]
        )
        stack = []
        _events(chain, 2, stack)
        points = {}
    if undoing is not None:  # every entry in effect from `undoing` on (the newest, or more)
        assert stack and stack[-1] >= undoing
        while stack and stack[-1] >= undoing:
            stack.pop()
    rules = game_rules(ruleset)
    valid = [
        seq
        for seq, (_, count) in points.items()
        if count == bisect_right(stack, seq)  # none of its entries taken back since
    ]
    if base is not None and each is None and not valid:  # no checkpoint stands: the start
        return fold(chain, path, undoing=undoing)
    if valid:
        at = max(valid)
        state = copy(points[at][0])
        kept = {seq: points[seq] for seq in valid if base and seq in base.checkpoints}
    else:
        at, kept = 1, {}
        try:
            state = rules.start(roster)
            if rules.readings:
                state["readings"] = rules.chosen(readings)
            if version > 1:  # what the rule set's fold does since (GAME_VERSION)
                state["version"] = version
            rules.rows(state), rules.due(state)  # every unit's numbers of the kinds hc reads
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise damaged(
                path, chain.numbers[0], "the roster entry is not what hc game new writes"
            ) from None
        kept[1] = (copy(state), 0)
    effective = set(stack)
    if each is not None:
        each(first, [], False, rules.period(state))
        wanted: Iterable[int] = range(2, chain.count + 1)
    else:
        wanted = stack[bisect_right(stack, at) :]
    for seq, entry in entries_from(chain, wanted):
        number = chain.numbers[seq - 1]
        before = rules.period(state) if each is not None else ""
        if seq not in effective:
            if each is not None:
                each(entry, [], event_of(entry) != "undo", before)
            continue
        if entry.get("ruleset") != ruleset:
            other = str(entry.get("ruleset"))[:40]
            raise damaged(path, number, f"an entry of {other!r} in a game of {ruleset}")
        notes = take_entry(rules, state, entry, path, number)
        if seq // CHECKPOINT > max(kept, default=1) // CHECKPOINT:
            kept[seq] = (copy(state), bisect_right(stack, seq))
        if each is not None:
            begins = entry.get("command") in rules.whole_game
            each(entry, notes, False, rules.period(state) if begins else before)
    while len(kept) > MOST_CHECKPOINTS:  # the oldest go, but the start's
        del kept[sorted(kept)[1]]
    seq = chain.count + (undoing is not None)
    return Folded(ruleset, roster, rules_files, state, stack, seq, kept, layers)


def describe(entry: dict) -> str:
    """An entry in a few words: "fireteam-1 fire at boyz: 2 kills". Whatever an entry holds
    (an undone one is not checked by the fold), only text of it is said."""

    def text(value: Any) -> str:
        return value if isinstance(value, str) else ""

    event = event_of(entry)
    found = entry.get("game")
    game: dict = found if isinstance(found, dict) else {}
    if event == "new":
        return "the game begins"
    if event == "next":
        anyway = text(game.get("anyway"))
        return "next" + (f" (--anyway: {anyway})" if anyway else "")
    if event in GAME_EVENTS[3:]:  # a sealed roll's steps
        from hc_cli.games.seal import describe as sealed

        return sealed(entry)
    if event == "undo":
        if isinstance(game.get("to"), int):
            return f"undo back to entry {game['to']} ({text(game.get('what'))})"
        return f"undo of entry {str(game.get('undoes'))[:20]} ({text(game.get('what'))})"
    unit = text(game.get("unit"))
    at = [a for a in game.get("at") or [] if isinstance(a, str)] if isinstance(
        game.get("at"), list) else []  # fmt: skip
    command = text(entry.get("command"))
    words = f"{unit} {command}" if unit else command
    if at:
        words += " at " + ", ".join(at)
    result = entry.get("result")
    headline = text(result.get("headline")) if isinstance(result, dict) else ""
    if headline:
        words += f": {headline}"
    for key in ("anyway", "rules_changed"):
        if text(game.get(key)):
            words += f" (--{key.replace('_', '-')}: {text(game.get(key))})"
    for key, said in (
        ("reused", "the dice of entry {} again"),
        ("reroll", "re-rolled, agreed: entry {}'s dice set aside"),
        ("sealed", "the sealed roll of entry {}"),
    ):
        if isinstance(game.get(key), int) and not isinstance(game.get(key), bool):
            words += " (" + said.format(game[key]) + ")"
    return words

"""A game file read back: its chain checked by hashing each line (no JSON is parsed for that),
its entries, and the fold that makes the game's state of them (the rule set's `GameRules`:
`start`, then `apply` for each action and `next` for each step, skipping what was undone)."""

from __future__ import annotations

from hc_cli.errors import HcError
from hc_cli.record import record

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any


MAX_GAME_BYTES = 512_000_000  # a game of a hundred thousand actions is far less

GAME_EVENTS = ("new", "next", "undo")


def damaged(path: str, number: int, why: str) -> HcError:
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
    torn: tuple[int, int] | None = None  # a last line cut short: (its line number, its bytes)


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
    from hc_cli.log import chain_hash, whole_entry

    lines, numbers, digests = [], [], []
    prev: str | None = None
    keyed = False
    end = data.rfind(b"\n") + 1
    torn = None
    if data[end:].strip():
        if whole_entry(data[end:]):  # a whole entry that lacks only its end of line: kept
            end = len(data)
        else:
            torn = (data.count(b"\n", 0, end) + 1, len(data) - end)
    start = 0
    number = 0
    while start < end:
        stop = data.find(b"\n", start)
        stop = end if stop < 0 else stop
        line = data[start:stop]
        start = stop + 1
        number += 1
        if not line.strip():
            continue
        head = _head(line)
        if head is None:
            raise damaged(path, number, "not an entry of hc's (garbage, or an entry edited)")
        seq, named, mac = head
        if seq != len(lines) + 1:
            raise damaged(
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
        prev = chain_hash(line, key if mac else None)
        lines.append(line)
        numbers.append(number)
        digests.append(prev)
    if not lines:
        raise HcError(f"{path} holds no game", f"start one: hc game new {path} --roster ROSTER")
    return Chain(lines, numbers, digests, end, keyed, torn)


def torn_notice(path: str, chain: Chain) -> str | None:
    """What a game file's torn last line means, said each time the game is read."""
    if chain.torn is None:
        return None
    from hc_cli.files import shown_path

    line, size = chain.torn
    return (
        f"{shown_path(path)}: line {line} ({size:,} bytes, no end of line) is an entry cut "
        "short, as a writer stopped mid-write leaves it: the game is played without it, and "
        "the next entry written replaces it"
    )


# ---------------------------------------------------------------------------------------------
# The fold


def event_of(entry: dict) -> str | None:
    """ "new", "next" or "undo" for a game's own entries; None for an action."""
    if entry.get("command") != "game":
        return None
    game = entry.get("game")
    event = game.get("event") if isinstance(game, dict) else None
    return event if event in GAME_EVENTS else "?"


def entries_of(chain: Chain, start: int, path: str) -> Iterator[tuple[int, dict]]:
    import json

    for i in range(start, len(chain.lines)):
        try:
            entry = json.loads(chain.lines[i])
        except (ValueError, RecursionError):
            entry = None
        if not isinstance(entry, dict) or "command" not in entry:
            raise damaged(path, chain.numbers[i], "not an entry of hc's")
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


def _start(entry: dict, path: str, number: int) -> tuple[str, dict, list, dict]:
    from hc_cli.roster import game_rules

    game = entry.get("game") or {}
    if event_of(entry) != "new" or not isinstance(game.get("roster"), dict):
        raise damaged(path, number, "the first entry of a game is its roster (hc game new)")
    ruleset = entry.get("ruleset")
    if not isinstance(ruleset, str):
        raise damaged(path, number, "the roster entry names no rule set")
    if (entry.get("game") or {}).get("version", 1) > GAME_VERSION:
        raise HcError(
            f"the game file {path} was written by a newer hc ({entry.get('hc')})",
            "play it with that version of hc, or newer",
        )
    game_rules(ruleset)
    readings = game.get("readings") or {}
    if not isinstance(readings, dict):
        raise damaged(path, number, "the roster entry's readings are not a mapping")
    return ruleset, game["roster"], list(game.get("rules") or []), readings


GAME_VERSION = 1


def take_entry(rules: Any, state: dict, entry: dict, path: str, number: int) -> list[str]:
    """One entry into the state: an action (`apply`) or a step (`next`)."""
    try:
        if event_of(entry) == "next":
            return rules.next(state)
        if event_of(entry) is not None:
            raise damaged(path, number, f"'{(entry.get('game') or {}).get('event')}' is no event")
        return rules.apply(state, entry)
    except HcError as error:
        if "damaged at line" in error.message:
            raise
        raise damaged(
            path, number, f"entry {entry.get('seq')} cannot be taken into the game: {error.message}"
        ) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise damaged(
            path, number, f"entry {entry.get('seq')} is not an action hc logged ({error!r:.80})"
        ) from None


def fold(
    chain: Chain, path: str, each: Callable[[dict, list[str], bool, str], None] | None = None
) -> Folded:
    """The game's state from its first entry: the roster, then each action and step in effect
    (an undo names the newest one still in effect). `each(entry, notes, undone, period)` sees
    every entry on the way, for `hc history`: the part of the game it was taken in (the one it
    begins, for a command of the whole game such as the Initiative)."""
    from hc_cli.roster import game_rules

    entries = list(entries_of(chain, 0, path))
    ruleset, roster, rules_files, readings = _start(entries[0][1], path, chain.numbers[0])
    rules = game_rules(ruleset)
    undone: set[int] = set()
    stack: list[int] = []
    for i, entry in entries[1:]:
        if event_of(entry) == "undo":
            target = (entry.get("game") or {}).get("undoes")
            if not stack or stack[-1] != target:
                raise damaged(
                    path,
                    chain.numbers[i],
                    f"the undo names entry {target!r}, which was not the newest in effect",
                )
            undone.add(stack.pop())
        elif entry.get("ruleset") != ruleset:
            raise damaged(
                path,
                chain.numbers[i],
                f"an entry of {entry.get('ruleset')!r} in a game of {ruleset}",
            )
        else:
            stack.append(entry.get("seq"))
    state = rules.start(roster)
    if rules.readings:
        state["readings"] = rules.chosen(readings)
    if each is not None:
        each(entries[0][1], [], False, rules.period(state))
    for i, entry in entries[1:]:
        before = rules.period(state) if each is not None else ""
        if event_of(entry) == "undo" or entry.get("seq") in undone:
            if each is not None:
                each(entry, [], entry.get("seq") in undone, before)
            continue
        notes = take_entry(rules, state, entry, path, chain.numbers[i])
        if each is not None:
            begins = entry.get("command") in rules.whole_game
            each(entry, notes, False, rules.period(state) if begins else before)
    return Folded(ruleset, roster, rules_files, state, stack)


def describe(entry: dict) -> str:
    """An entry in a few words: "fireteam-1 fire at boyz: 2 kills"."""
    event = event_of(entry)
    game = entry.get("game") if isinstance(entry.get("game"), dict) else {}
    if event == "new":
        return "the game begins"
    if event == "next":
        return "next" + (f" (--anyway: {game['anyway']})" if game.get("anyway") else "")
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

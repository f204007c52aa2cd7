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
    unsigned: bool = False  # keyed, and the newest entry has no MAC of its own (an older hc)


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
    from hc_cli.log import chain_hash, sig_problem, whole_entry

    lines, numbers, digests = [], [], []
    unsigned = False
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
        if mac:
            assert key is not None
            problem = sig_problem(line, key)
            if problem and not problem.startswith("carries no"):
                raise damaged(path, number, f"entry {seq} {problem}")
            unsigned = problem is not None
        prev = chain_hash(line, key if mac else None)
        lines.append(line)
        numbers.append(number)
        digests.append(prev)
    if not lines:
        raise HcError(f"{path} holds no game", f"start one: hc game new {path} --roster ROSTER")
    return Chain(lines, numbers, digests, end, keyed, torn, keyed and unsigned)


def torn_notice(path: str, chain: Chain) -> str | None:
    """What is to be said of a game file each time it is read: a torn last line, or a keyed
    game's newest entry that no MAC vouches for."""
    from hc_cli.files import shown_path

    if chain.torn is not None:
        line, size = chain.torn
        return (
            f"{shown_path(path)}: line {line} ({size:,} bytes, no end of line) is an entry cut "
            "short, as a writer stopped mid-write leaves it: the game is played without it, "
            "and the next entry written replaces it"
        )
    if chain.unsigned:
        return (
            f"{shown_path(path)}: the newest entry carries no MAC of its own (an older hc "
            "wrote it): only a receipt (hc replay --head) vouches for it; the next entry "
            "written is signed"
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
    rules_files = game.get("rules") or []
    if not isinstance(rules_files, list) or not all(isinstance(r, dict) for r in rules_files):
        raise damaged(path, number, "the roster entry's house rules are not a list of files")
    problem = roster_problem(rules, game["roster"])
    if problem:
        raise damaged(path, number, f"the roster it starts from {problem}")
    return ruleset, game["roster"], rules_files, readings


def roster_problem(rules: Any, roster: dict) -> str | None:
    """What is wrong with a game file's roster, checked as strictly as a roster file: the
    title, the sides and the units' names (all printed at the table), and each unit's fields
    of the kinds its rule set takes. None when it is whole."""
    from hc_cli.roster import TITLE_MOST, side_name_problem, text_problem, unit_name_problem
    from hc_cli.schema import Problems, check_value

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
            problems = Problems()
            for key, spec in rules.unit_fields.items():
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


GAME_VERSION = 1


def take_entry(rules: Any, state: dict, entry: dict, path: str, number: int) -> list[str]:
    """One entry into the state: an action (`apply`) or a step (`next`)."""
    try:
        if event_of(entry) == "next":
            return rules.next(state)
        if event_of(entry) is not None:
            raise damaged(path, number, f"'{(entry.get('game') or {}).get('event')}' is no event")
        problem = action_problem(entry, state)
        if problem:
            raise damaged(path, number, f"entry {entry.get('seq')} {problem}")
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
    if not isinstance(game.get("anyway", ""), str):
        return "records an override that is no reason"
    return None


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
    try:
        state = rules.start(roster)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise damaged(
            path, chain.numbers[0], "the roster entry is not what hc game new writes"
        ) from None
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
    if game.get("rules_changed"):
        words += f" (--rules-changed: {game['rules_changed']})"
    return words

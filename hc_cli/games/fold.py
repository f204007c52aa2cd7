"""The fold: a game's state from its entries (the rule set's `GameRules`: `start`, then `apply`
for each action and `next` for each step, skipping what was undone), one entry at a time.
A snapshot's checkpoints (a state every few hundred entries) spare an undo the fold from the
start.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.games import seal_protocol as seal
from hc_cli.games.roster import game_rules, roster_problem
from hc_cli.games.scan import Chain, damaged, entries_from, raw_from

if TYPE_CHECKING:
    from hc_cli.games.roster import Rules

# The game's own entries; the last four are a sealed roll's steps (`seal_protocol.EVENTS`).
# A rewind (`hc game rewind --accept`) records that the players played on from a file that went
# back: nothing in effect, nothing to undo.
GAME_EVENTS = ("new", "next", "undo", "rewind", *seal.EVENTS)


def event_of(entry: dict[str, Any]) -> str | None:
    """ "new", "next" or "undo" for a game's own entries; None for an action."""
    if entry.get("command") != "game":
        return None
    game = entry.get("game")
    event = game.get("event") if isinstance(game, dict) else None
    return event if event in GAME_EVENTS else "?"


@dataclass(slots=True)
class Folded:
    """A game's state and what the fold needs to go on: the entries still in effect (those an
    undo may take back, newest last)."""

    ruleset: str
    roster: dict[str, Any]
    rules_files: list[dict[str, Any]]
    state: dict[str, Any]
    effective: list[int]  # entry numbers (seq) of the actions and steps in effect
    seq: int = 1  # the entry the state is at
    # seq -> (the state there, how many entries were in effect there): where an undo refolds
    # from rather than the start (the newest one whose entries in effect all still are)
    checkpoints: dict[int, tuple[dict[str, Any], int]] = field(default_factory=dict)
    # every house-rules file laid on when the game began, in order (None: an older hc's game)
    layers: list[dict[str, Any]] | None = None
    # the state the newest entry was taken into, when it is an action (what `open_game`
    # checks it against); None after a step, an undo or a game's own entry
    before: dict[str, Any] | None = None


@dataclass(slots=True)
class Begun:
    """What a game begins with, as its roster entry says."""

    ruleset: str
    roster: dict[str, Any]
    rules_files: list[dict[str, Any]]
    readings: dict[str, Any]
    layers: list[dict[str, Any]] | None
    version: int = 1


def _start(entry: dict[str, Any], path: str, number: int) -> Begun:
    """What the roster entry begins the game with, each part checked."""
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
    return Begun(ruleset, game["roster"], rules_files, readings, layers, version)


# A game file's version, kept in its roster entry: what the fold of its entries does. 2: the
# steps of a move with nothing left to do pass by themselves after each action and step. 3: a
# sealed roll both players committed to is final, a hidden roll holds the game until it is
# unsealed, and replay holds every re-take after an undo to the dice left on the table. 4: an
# action made with --anyway and taken back keeps its dice on the table, for --anyway makes it
# again as it was (`retake.refusal_of`). A game begun by an older hc plays on by the rules it
# began with.
GAME_VERSION = 4


def take_entry(
    rules: Rules, state: dict[str, Any], entry: dict[str, Any], path: str, number: int
) -> list[str]:
    """One entry into the state: an action (`apply`) or a step (`next`)."""
    try:
        if event_of(entry) == "next":
            if seal.open_seal(state) is not None:
                raise HcError("the game moves on while a sealed roll is under way")
            return rules.next(state)
        if event_of(entry) in seal.EVENTS:
            return seal.take_event(state, entry, rules)
        if event_of(entry) is not None:
            raise damaged(path, number, f"'{(entry.get('game') or {}).get('event')}' is no event")
        if seal.plain_roll(entry):  # a sealed roll of dice: the game keeps no state of it
            seal.check_action(state, entry)
            return []
        problem = action_problem(entry, state)
        if problem:
            raise damaged(path, number, f"entry {entry.get('seq')} {problem}")
        seal.check_action(state, entry, rules.period(state))
        over = rules.over(state)
        said = rules.apply(state, entry)
        if over is None and (now := rules.over(state)) is not None:
            said.append(now)  # this action ended the game: history says so
        return said
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


def action_problem(entry: dict[str, Any], state: dict[str, Any]) -> str | None:
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
        if b'"event":"rewind"' in line and event_of(_parsed(chain, seq, line)) == "rewind":
            continue
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


def _parsed(chain: Chain, seq: int, line: bytes) -> dict[str, Any]:
    import json

    try:
        entry = json.loads(line)
    except (ValueError, RecursionError):
        raise damaged(chain.path, chain.numbers[seq - 1], "not an entry of hc's") from None
    return entry if isinstance(entry, dict) else {}


def checkable(chain: Chain) -> set[int]:
    """The entries the fold passes in the state they were taken in: every one in effect, and
    every one taken back none of whose entries in effect below it then is taken back later
    (an undo, then another of the entry before it, is not). The game's own entries are read
    as `_events` reads them; a malformed one is left to the fold to report."""
    import json

    stack: list[int] = []
    popped: list[tuple[int, int, int]] = []  # (entry, entries in effect below it, when)
    lowest: list[int] = []  # entries in effect after each entry
    for seq, line in raw_from(chain, 2):
        if b'"command":"game"' in line and b'"event":"undo"' in line:
            try:
                game = json.loads(line).get("game") or {}
            except (ValueError, RecursionError, AttributeError):
                return set()
            to = game.get("to") if type(game.get("to")) is int else None
            last = game.get("undoes") if to is None else to + 1
            while stack and isinstance(last, int) and stack[-1] >= last:
                popped.append((stack.pop(), len(stack), len(lowest)))
        else:
            stack.append(seq)
        lowest.append(len(stack))
    for i in range(len(lowest) - 2, -1, -1):  # the fewest in effect from each entry on
        lowest[i] = min(lowest[i], lowest[i + 1])
    return set(stack) | {seq for seq, below, when in popped if lowest[when] >= below}


def copy(state: dict[str, Any]) -> dict[str, Any]:
    """A state of plain data, copied whole (a checkpoint, the state a step is tried on)."""
    import marshal

    copied: dict[str, Any] = marshal.loads(marshal.dumps(state))
    return copied


def fold(
    chain: Chain,
    path: str,
    each: Callable[[dict[str, Any], list[str], bool, str], None] | None = None,
    base: Folded | None = None,
    undoing: int | None = None,
    check: Callable[[dict[str, Any], dict[str, Any], int], None] | None = None,
    hold_newest: bool = True,
) -> Folded:
    """The game's state from its entries: the roster, then each action and step in effect
    (an undo names the newest one still in effect). `base`: the game as a snapshot knew it,
    at an earlier entry; the fold goes on from its newest checkpoint whose entries in effect
    are all still in effect (an undo since may have taken some back). `each(entry, notes,
    undone, period)` sees every entry from the first, for `hc history`: the part of the game
    it was taken in (the one it begins, for a command of the whole game: the Initiative).
    `undoing`: the game once an undo of that entry and every later one in effect is appended.
    `check(state, entry, number)` sees each action in the state the entries in effect before
    it leave (`hc replay`); without it, the newest action is held to the game (if `hold_newest`)."""
    from bisect import bisect_right

    stack: list[int] = []
    if base is not None and each is None:
        begun = Begun(base.ruleset, base.roster, base.rules_files, {}, base.layers)
        stack = list(base.effective)
        _events(chain, base.seq + 1, stack)
        points = {**base.checkpoints, base.seq: (base.state, len(base.effective))}
    else:
        ((_, first),) = entries_from(chain, [1])
        begun = _start(first, path, chain.numbers[0])
        _events(chain, 2, stack)
        points = {}
    if undoing is not None:  # every entry in effect from `undoing` on (the newest, or more)
        assert stack and stack[-1] >= undoing
        while stack and stack[-1] >= undoing:
            stack.pop()
    rules = game_rules(begun.ruleset)
    valid = [
        seq
        for seq, (_, count) in points.items()
        if count == bisect_right(stack, seq)  # none of its entries taken back since
    ]
    if base is not None and each is None and not valid:  # no checkpoint stands: the start
        return fold(chain, path, undoing=undoing, hold_newest=hold_newest)
    if valid:
        at = max(valid)
        state = copy(points[at][0])
        kept = {seq: points[seq] for seq in valid if base and seq in base.checkpoints}
    else:
        at, state = 1, _first_state(rules, begun, path, chain.numbers[0])
        kept = {1: (copy(state), 0)}
    effective = set(stack)
    taken_into = None  # the state the newest entry is taken into, when it is an action
    if each is not None:
        each(first, [], False, rules.period(state))
    wanted: Iterable[int] = stack[bisect_right(stack, at) :]
    if each or check:  # every entry (a check: folded from the start, with no base)
        wanted = range(2, chain.count + 1)
    for seq, entry in entries_from(chain, wanted):
        number, before = chain.numbers[seq - 1], rules.period(state) if each else ""
        if seq not in effective:
            if each is not None:
                each(entry, [], event_of(entry) not in ("undo", "rewind"), before)
            if check is not None and event_of(entry) is None:  # taken back: the state the
                check(state, entry, number)  # entries in effect before it leave
            continue
        if entry.get("ruleset") != begun.ruleset:
            other = str(entry.get("ruleset"))[:40]
            raise damaged(path, number, f"an entry of {other!r} in a game of {begun.ruleset}")
        newest = seq == chain.count and undoing is None and hold_newest
        notes, into = _take(rules, state, entry, (path, number), check, newest)
        taken_into = into or taken_into
        if seq // CHECKPOINT > max(kept, default=1) // CHECKPOINT:
            kept[seq] = (copy(state), bisect_right(stack, seq))
        if each is not None:
            begins = entry.get("command") in rules.whole_game
            each(entry, notes, False, rules.period(state) if begins else before)
    while len(kept) > MOST_CHECKPOINTS:  # the oldest go, but the start's
        del kept[sorted(kept)[1]]
    return Folded(begun.ruleset, begun.roster, begun.rules_files, state, stack,
                  chain.count + (undoing is not None), kept, begun.layers, taken_into)  # fmt: skip


def _take(
    rules: Rules,
    state: dict[str, Any],
    entry: dict[str, Any],
    where: tuple[str, int],
    check: Callable[[dict[str, Any], dict[str, Any], int], None] | None,
    newest: bool,
) -> tuple[list[str], dict[str, Any] | None]:
    """One entry taken into the state (`take_entry`), an action shown to `check` first in the
    state it is taken into; the newest (`newest`), an action, gives that state back, and is
    held to the game once taken (`newest_checked`) unless `check` sees it."""
    path, number = where
    action = event_of(entry) is None
    if check is not None and action:
        check(state, entry, number)
    before = copy(state) if newest and action else None
    notes = take_entry(rules, state, entry, path, number)
    if before is not None and check is None:
        newest_checked(rules, before, entry, path, number)
    return notes, before


def newest_checked(
    rules: Rules, before: dict[str, Any], entry: dict[str, Any], path: str, number: int
) -> None:
    """The newest entry of a game, an action, held to the game (`entry_check.entry_problem`):
    its game part what the rule set fills in the state before it, its result what its own dice
    give again. No later hash covers it, so an edit of it breaks no chain: it is refused as a
    damaged game file is, by its line and what differs. One entry's fill and resolution."""
    from hc_cli.games.entry_check import entry_problem

    problem = entry_problem(rules, before, entry)
    if problem:
        raise damaged(path, number, f"entry {entry.get('seq')}, the newest, {problem}")


def _first_state(rules: Rules, begun: Begun, path: str, number: int) -> dict[str, Any]:
    """The state the game begins in, from its roster and the readings it plays by."""
    try:
        state = rules.start(begun.roster)
        if rules.readings:
            state["readings"] = rules.chosen(begun.readings)
        if begun.version > 1:  # what the rule set's fold does since (GAME_VERSION)
            state["version"] = begun.version
        rules.rows(state), rules.due(state)  # every unit's numbers of the kinds hc reads
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise damaged(path, number, "the roster entry is not what hc game new writes") from None
    return state


def describe(entry: dict[str, Any]) -> str:
    """An entry in a few words: "fireteam-1 fire at boyz: 2 kills". Whatever an entry holds
    (an undone one is not checked by the fold), only text of it is said."""

    def text(value: object) -> str:
        return value if isinstance(value, str) else ""

    event = event_of(entry)
    found = entry.get("game")
    game: dict[str, Any] = found if isinstance(found, dict) else {}
    if event == "new":
        return "the game begins"
    if event == "next":
        anyway = text(game.get("anyway"))
        return "next" + (f" (--anyway: {anyway})" if anyway else "")
    if event in seal.EVENTS:
        return seal.describe(entry)
    if event == "rewind":
        return (
            f"the game went back: {text(game.get('lost'))[:40]} was lost, and the players play on "
            f"from {text(game.get('found'))[:40]} (hc game rewind --accept)"
        )
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

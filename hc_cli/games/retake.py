"""A roll seen is a roll spent (issue 37): once a rolled action is taken back (`hc undo`), its
dice stay on the table for its side in that part of the game (the period its entry records: a
move, a turn, a combat turn's action turn). The next rolled action of that side there must be
the same action (command, unit, targets and every option the player gave), which
rolls those dice again; anything else (another range, target, unit, shot, a model in place of
its unit, `--sealed`) only when both players agree: `--agreed`, which the entry records with
what changed, or `--reroll`, new dice for the very same action.

The rule is pure: it works from a game file's entries (`retake_problem`, `retake_problems`), so
an action about to be appended and a replay of the whole file judge alike; `period_entries`
reads them from the file, `dice_again` applies the rule to an action about to be made."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError, UnknownName

if TYPE_CHECKING:
    from hc_cli.games.scan import Chain
    from hc_cli.plugin.execute import Call, Session

Entries = Iterable[tuple[int, dict[str, Any]]]


def sides_of(roster: Mapping[str, Any]) -> dict[str, str]:
    """Each unit of a roster (as the game's first entry keeps it) -> its side."""
    return {unit: side for side, units in roster["sides"].items() for unit in units}


def _game(entry: Mapping[str, Any]) -> dict[str, Any]:
    found = entry.get("game")
    return found if isinstance(found, dict) else {}


def _number(value: object) -> int | None:
    return value if type(value) is int else None


def rolled(entry: Mapping[str, Any]) -> bool:
    """An action of a side that rolled dice (a seed or dice entered): not a step or an undo,
    not a question of odds, not a plain roll of dice (`hc roll`, always sealed: no side's), not
    an action whose result rolled none (a move, a fight recorded: no dice were seen)."""
    if entry.get("command") in ("game", "roll") or entry.get("odds") or not _game(entry):
        return False
    if _rolled_none(entry.get("result")):
        return False
    dice = entry.get("dice")
    return _number(entry.get("seed")) is not None or (isinstance(dice, str) and bool(dice))


def _rolled_none(result: object) -> bool:
    """A result that lists its rolls, none of them (its own, or each shot's of several)."""
    if not isinstance(result, dict) or not isinstance(result.get("rolls"), list):
        return False
    shots = result.get("shots")
    parts = [result, *(shots if isinstance(shots, list) else [])]
    return all(not (p.get("rolls") if isinstance(p, dict) else True) for p in parts)


def side_of(entry: Mapping[str, Any], sides: Mapping[str, str]) -> str | None:
    """The side whose action the entry is (a model's is its unit's); None: the whole game's
    (an Initiative)."""
    unit = _game(entry).get("unit")
    return sides.get(unit.partition(":")[0]) if isinstance(unit, str) else None


def answers(entry: Mapping[str, Any]) -> int | None:
    """The entry taken back whose dice this one took off the table: rolled again (`reused`),
    re-rolled (`reroll`) or replaced by agreement (`agreed`)."""
    game = _game(entry)
    agreed = game.get("agreed")
    undone = agreed.get("undone") if isinstance(agreed, dict) else None
    for found in (game.get("reused"), game.get("reroll"), undone):
        if type(found) is int:
            return found
    return None


def lapsed_of(entry: Mapping[str, Any]) -> dict[int, str]:
    """The entries taken back whose dice `entry` records as lapsed (`game.lapsed`: the action
    could no longer be made again as it was) -> why (the rule set's refusal of it)."""
    found = _game(entry).get("lapsed")
    items = found if isinstance(found, list) else []
    return {i["undone"]: str(i.get("why")) for i in items
            if isinstance(i, dict) and type(i.get("undone")) is int}  # fmt: skip


def refusal_of(
    rules: Any, state: Mapping[str, Any], entry: Mapping[str, Any], tables: Any
) -> str | None:
    """Why the action of `entry` (one taken back) could not be made again as it was in the
    game as it stands (`state`): the rule set's fill of its command, unit, targets and the
    options the player gave refuses it. None: it could. In a game of version 4 on, an action
    made with --anyway (its entry records what it overrode) can be, whatever the fill refuses
    (found in play: a routed Fireteam's fight with --anyway, taken back, let the next roll
    anew); a game begun by an older hc keeps its rule."""
    import marshal

    game = _game(entry)
    unit = game.get("unit") if isinstance(game.get("unit"), str) else None
    try:
        fill = rules.fill(marshal.loads(marshal.dumps(dict(state))), str(entry.get("command")),
                          unit, list(game.get("at") or []), dict(game.get("given") or {}),
                          tables)  # fmt: skip
    except HcError as error:
        return error.message
    if game.get("anyway") and state.get("version", 1) >= 4:
        return None
    return fill.refusal or None


def refusals(
    rules: Any, state: Mapping[str, Any], tables: Any
) -> Callable[[dict[str, Any]], str | None]:
    """`refusal_of` in the game as it stands, for `dice_again`."""
    return lambda entry: refusal_of(rules, state, entry, tables)


def on_table(
    earlier: Entries,
    effective: Collection[int],
    sides: Mapping[str, str],
    side: str | None,
    period: str,
) -> list[tuple[int, dict[str, Any]]]:
    """The rolled actions of `side` in `period` taken back (not in `effective`) whose dice no
    later entry took off the table, oldest first. `earlier`: the file's entries before the
    action in question, in order (any that include every one of that side and period)."""
    undone, answered = [], set()
    for seq, entry in earlier:
        game = _game(entry)
        if entry.get("command") == "game" or game.get("period") != period:
            continue
        if side_of(entry, sides) != side:
            continue
        found = answers(entry)
        if found is not None:
            answered.add(found)
        if seq not in effective and rolled(entry):
            undone.append((seq, entry))
    return [(seq, entry) for seq, entry in undone if seq not in answered]


def _shown(value: object) -> str:
    if value is None or value is False:
        return "none"
    if value is True:
        return "on"
    if isinstance(value, list):
        return ",".join(_shown(v) for v in value) or "none"
    if isinstance(value, float):
        return format(value, "g")
    return str(value)


def option_defaults(ruleset: object, command: object) -> dict[str, Any]:
    """The value each option of a rule set's command takes when not given: its request's
    field defaults ("shot": "aimed"); {} for a rule set or command not known."""
    import dataclasses
    import typing

    from hc_cli.plugin import registry

    try:
        build = registry.get(str(ruleset)).module.COMMANDS[str(command)].build
        request = typing.get_type_hints(build).get("return")
        fields = dataclasses.fields(request) if dataclasses.is_dataclass(request) else ()
    except (HcError, KeyError, NameError, TypeError, AttributeError):
        return {}
    return {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}


def _value(entry: Mapping[str, Any], name: str, defaults: Mapping[str, Any]) -> object:
    """An option's value as the action used it: the player's, else the game's fill (the
    entry's flags), else the default."""
    given = _game(entry).get("given") or {}
    flags = entry.get("flags")
    flags = flags if isinstance(flags, dict) else {}
    for found in (given.get(name), flags.get(name), defaults.get(name)):
        if found is not None and found != [] and found != ():
            return list(found) if isinstance(found, tuple) else found
    return None


def _as_given(entry: Mapping[str, Any], name: str, value: object) -> str:
    if name in (_game(entry).get("given") or {}):
        return _shown(value)
    return "not given" if value in (None, False) else f"{_shown(value)} (not given)"


def differences(was: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """What makes `now` another action than `was` (entries, or an action as it would be
    entered): its command, unit, targets, each option the player gave (the game's `given`;
    what the game fills in is the game's, not the player's choice: an option given with the
    value the game filled in or the default, `option_defaults`, is no difference), and a seal
    ("range 22 -> 4", "shots 1 (not given) -> 7", "unit boyz -> boyz:3"). Empty: the same
    action."""
    out = []
    a, b = _game(was), _game(now)
    if was.get("command") != now.get("command"):
        out.append(f"command {_shown(was.get('command'))} -> {_shown(now.get('command'))}")
    if a.get("unit") != b.get("unit"):
        out.append(f"unit {_shown(a.get('unit'))} -> {_shown(b.get('unit'))}")
    if (a.get("at") or []) != (b.get("at") or []):
        out.append(f"at {_shown(a.get('at') or [])} -> {_shown(b.get('at') or [])}")
    old, new = a.get("given") or {}, b.get("given") or {}
    defaults = option_defaults(now.get("ruleset"), now.get("command"))
    for name in dict.fromkeys([*old, *new]):
        if old.get(name) == new.get(name):
            continue
        before, after = _value(was, name, defaults), _value(now, name, defaults)
        if before != after:
            out.append(f"{name.replace('_', '-')} {_as_given(was, name, before)} -> "
                       f"{_as_given(now, name, after)}")  # fmt: skip
    if b.get("sealed") is not None and a.get("sealed") is None:
        out.append("--sealed: a seed from both players' secrets")
    return out


def _nearest(
    pending: list[tuple[int, dict[str, Any]]], now: Mapping[str, Any]
) -> tuple[int, dict[str, Any]]:
    """The entry taken back that `now` stands in place of: the newest of the same unit and
    command, else of the same unit, else the newest."""
    unit, command = _game(now).get("unit"), now.get("command")
    same_unit = [(seq, e) for seq, e in pending if _game(e).get("unit") == unit]
    same = [(seq, e) for seq, e in same_unit if e.get("command") == command]
    return (same or same_unit or pending)[-1]


def _words(entry: Mapping[str, Any]) -> str:
    """An action as the command line that makes it again (without its dice)."""
    from hc_cli.plugin.execute import spell_option

    game = _game(entry)
    words = [f"hc {_shown(entry.get('command'))}"]
    if isinstance(game.get("unit"), str):
        words.append(game["unit"])
    words += [f"--at {a}" for a in game.get("at") or [] if isinstance(a, str)]
    given = game.get("given")
    for name, value in (given if isinstance(given, dict) else {}).items():
        if value is True:
            words.append(spell_option(str(name)))
        elif value not in (None, False):
            words.append(f"{spell_option(str(name))} {_shown(value)}")
    return " ".join(words)


def _where(side: str | None, period: str) -> str:
    """ "Orks in turn 1" (a period that names its side already, "turn 1: Orks plays", is named
    once), "the game in move 2"."""
    if side and period.endswith(f": {side} plays"):
        period = period.rpartition(":")[0]
    return f"{side or 'the game'} in {period}"


def settle(
    pending: list[tuple[int, dict[str, Any]]],
    now: dict[str, Any],
    side: str | None,
    reroll: bool,
    agreed: bool,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """What an action about to be made (`now`, shaped as its entry: command, flags, game's
    unit, at, period, sealed) does with the dice on the table (`on_table`): (what its entry
    records, the entry whose dice it rolls again or None). Another action is refused unless
    `agreed`; `reroll`: the same action, rolled anew."""
    period = str(_game(now).get("period"))
    if not pending:
        for given, flag, what in (
            (reroll, "--reroll", "an action taken back and made again"),
            (agreed, "--agreed", "an action in place of one taken back"),
        ):
            if given:
                raise HcError(
                    f"{flag} is for {what}: no dice taken back are on the table for "
                    f"{_where(side, period)}",
                    f"leave out {flag}",
                )
        return {}, None
    same = [(seq, e) for seq, e in pending if not differences(e, now)]
    if same:
        seq, entry = same[-1]
        if reroll or agreed:
            return {"reroll": seq}, None
        return {"reused": seq}, entry
    seq, entry = _nearest(pending, now)
    changed = differences(entry, now)
    if agreed:
        return {"agreed": {"undone": seq, "changed": changed}}, None
    what = f"entry {seq} ({_words(entry)})"
    if reroll:
        raise HcError(
            f"--reroll rolls anew the very action taken back, {what}; this is another: "
            + "; ".join(changed),
            "make it as it was, or, if both players agree, take this one in its place: "
            "--agreed (the game records what changed)",
        )
    raise HcError(
        f"{what} was taken back, its dice seen: they stay on the table for "
        f"{_where(side, period)}, and this is another action ({'; '.join(changed)})",
        "make it again as it was (the same dice), or, if both players agree, take this one "
        "in its place with new dice: --agreed (the game records what changed)",
    )


def retake_problem(
    earlier: Entries,
    effective: Collection[int],
    sides: Mapping[str, str],
    new: Mapping[str, Any],
) -> str | None:
    """What is wrong with `new` (an action's entry) as the game's next entry, by this rule:
    dice on the table for its side and period that it neither rolls again (the same action,
    the same seed or dice) nor sets aside as both players agreed; or a re-take it records of
    dice that were not on the table. `earlier`: the file's entries before it, in order (any
    that include every one of its side and period); `effective`: those in effect when it was
    appended. None: nothing wrong (or `new` is no rolled action of a side)."""
    if not rolled(new):
        return None
    side = side_of(new, sides)
    period = _game(new).get("period")
    if not isinstance(period, str):
        return "records no part of the game it was taken in"
    pending = dict(on_table(earlier, effective, sides, side, period))
    for seq in lapsed_of(new):
        if pending.pop(seq, None) is None:
            return f"records the dice of entry {seq} lapsed, but they were not on the table"
    game = _game(new)
    answered = answers(new)
    if answered is None:
        if not pending:
            return None
        seq = max(pending)
        return (f"rolls new dice while those of entry {seq}, taken back, were on the table for "
                f"{_where(side, period)}, and no agreement is recorded")  # fmt: skip
    was = pending.get(answered)
    if was is None:
        return f"records a re-take of entry {answered}, whose dice were not on the table"
    changed = differences(was, new)
    if _number(game.get("reused")) == answered:
        if changed:
            return f"rolls the dice of entry {answered} again for another action"
        if was.get("dice") or new.get("dice"):
            if was.get("dice") != new.get("dice"):
                return f"records the dice of entry {answered} again, but rolled others"
        elif was.get("seed") != new.get("seed"):
            return f"records the dice of entry {answered} again, but rolled another seed"
    elif _number(game.get("reroll")) == answered:
        if changed:
            return f"records a re-roll of entry {answered}, but is another action"
    elif [str(c).split(" ")[0] for c in game["agreed"].get("changed") or []] != [
        c.split(" ")[0] for c in changed
    ]:  # what changed, by name (the words that say how may read otherwise from one hc to another)
        return f"records what changed from entry {answered} otherwise than it did"
    return None


def retake_problems(entries: Entries, sides: Mapping[str, str]) -> Iterator[tuple[int, str]]:
    """(entry, what is wrong) for every action of a whole game file (its entries in order,
    the roster's first) that breaks the rule: each judged by the entries before it and those
    in effect then (each undo taking back the newest, or every one after its `to`)."""
    stack: list[int] = []
    effective: set[int] = set()
    seen: dict[tuple[str | None, str], list[tuple[int, dict[str, Any]]]] = {}
    for seq, entry in entries:
        game = _game(entry)
        if seq == 1:
            continue
        if entry.get("command") == "game":
            if game.get("event") == "undo":
                target, to = _number(game.get("undoes")), _number(game.get("to"))
                bound = (target or 0) if to is None else to + 1
                while stack and stack[-1] >= bound:
                    effective.discard(stack.pop())
                continue
        else:
            key = (side_of(entry, sides), str(game.get("period")))
            problem = retake_problem(seen.get(key, []), effective, sides, entry)
            if problem:
                yield seq, problem
            seen.setdefault(key, []).append((seq, entry))
        stack.append(seq)
        effective.add(seq)


def period_entries(chain: Chain, period: str) -> list[tuple[int, dict[str, Any]]]:
    """Every entry of the file taken in the part of the game `period` names, in order, in
    effect or taken back: found by the bytes of their period (no value can hold them, its
    quotes escaped), and only those lines parsed (an entry taken back is not folded: one
    that is no JSON is passed over)."""
    import json
    import mmap
    from bisect import bisect_right

    text = json.dumps({"period": period}, separators=(",", ":"), ensure_ascii=False)
    marker = text[1:-1].encode()
    offsets, size, seqs = chain.offsets, chain.size, []
    if chain.count < 2:
        return []
    with open(chain.path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        at = mm.find(marker, offsets[1], size)
        while at >= 0:
            seqs.append(bisect_right(offsets, at))
            at = mm.find(marker, offsets[seqs[-1]] if seqs[-1] < chain.count else size, size)
        lines = [mm[offsets[seq - 1] : offsets[seq] if seq < chain.count else size] for seq in seqs]
    found = []
    for seq, line in zip(seqs, lines, strict=True):
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(entry, dict):
            found.append((seq, entry))
    return found


def rolls_dice(ruleset: str, command: str) -> bool:
    """Whether the rule set's `command` rolls dice at all (its declaration says which): one
    that rolls none (a move, a reload, a fight recorded) is free of the rule."""
    from hc_cli.plugin import registry

    declared = registry.get(ruleset).commands.get(command)
    return declared is None or bool(declared.dice)


def dice_again(
    call: Call,
    roster: Mapping[str, Any],
    effective: Collection[int],
    now: dict[str, Any],
    table: list[tuple[int, dict[str, Any]]],
    reroll: bool,
    agreed: bool,
    refused: Callable[[dict[str, Any]], str | None] = lambda entry: None,
) -> tuple[Call, dict[str, Any] | None]:
    """A roll seen is a roll spent (`hc_cli.games.retake`): the same action as one taken back
    in the same part of the game rolls its dice again (its seed, or the dice entered); another
    only if both players agree (--agreed), the same anew only with --reroll: each recorded.
    `now`: the action shaped as its entry (`settle`); `table`: its period's entries. The dice
    of an action taken back bind the side only while it could be made again as it was:
    `refused` (`refusal_of` on the game as it stands) says why it could not, and then they
    lapse for this action, which its entry records (`lapsed`); should the action become one
    that could be made again later in the period, they bind again."""
    from dataclasses import replace

    if not rolls_dice(call.ruleset, call.command):  # a move, a reload: free of the rule
        return call, None
    now = {"ruleset": call.ruleset, "flags": dict(call.flags), **now}  # as its entry has them
    sides = sides_of(roster)
    side = side_of(now, sides)
    pending = on_table(table, effective, sides, side, now["game"]["period"])
    # The very action taken back never lapses: made all the same (--anyway), it rolls its dice.
    why = {seq: refused(e) if differences(e, now) else None for seq, e in pending}
    lapsed = [{"undone": seq, "why": w} for seq, w in why.items() if w]
    pending = [(seq, e) for seq, e in pending if not why[seq]]
    record, entry = settle(pending, now, side, reroll, agreed)
    record = {**record, **({"lapsed": lapsed} if lapsed else {})}
    if entry is None:
        return call, record or None
    seq = record["reused"]
    dice, seed = entry.get("dice"), entry.get("seed")
    dice = dice if isinstance(dice, str) and dice else None
    seed = seed if type(seed) is int and 0 <= seed < 2**63 else None
    asked = bool(call.dice) and str(call.dice).strip().lower() == "ask"
    if (call.dice and not asked and call.dice != dice) or (
        call.seed is not None and call.seed != seed
    ):
        rolled = f"the dice {dice}" if dice else f"seed {seed}"
        raise HcError(
            f"this action was taken back (entry {seq}), rolled with {rolled}: made again by "
            f"{_where(side, now['game']['period'])}, it rolls them again",
            "leave out --dice and --seed, or roll anew if both players agree: --reroll",
        )
    return replace(call, dice=dice, seed=None if dice else seed), {
        "reused": seq,
        "seed_from": entry.get("seed_from"),
    }


def marks(game: Mapping[str, Any]) -> str:
    """What `hc history` adds to an entry's words: a re-take both players agreed to, dice on
    the table that lapsed, and the overrides recorded with --anyway."""
    words = ""
    agreed = game.get("agreed")
    if isinstance(agreed, dict) and _number(agreed.get("undone")) is not None:
        changed = [str(c) for c in agreed.get("changed") or [] if isinstance(c, str)]
        words += (f" (agreed: in place of entry {agreed['undone']}, taken back: "
                  f"{'; '.join(changed) or 'the same action'})")  # fmt: skip
    for seq, why in lapsed_of({"game": game}).items():
        words += (
            f" (the dice of entry {seq}, taken back, lapsed: it could not be made again: {why})"
        )
    overrides = game.get("overrides")
    if isinstance(overrides, list) and overrides:
        words += " (--anyway: " + "; ".join(str(o) for o in overrides) + ")"
    return words


def input_first(call: Call, session: Session, given: set[str]) -> None:
    """An action refused for the dice an undo left on the table is first checked as input:
    a name the tables lack (a modifier mistyped) is said as that, not as another action. It is
    resolved with a throwaway seed, and nothing of it is kept; any other error leaves the
    refusal to be said."""
    from dataclasses import replace

    from hc_cli.plugin.execute import execute

    if call.odds or (bool(call.dice) and str(call.dice).strip().lower() == "ask"):
        return
    try:
        execute(replace(call, dice=None, seed=0), session, given)
    except UnknownName:
        raise
    except HcError:  # any other: the refusal stands (dice that do not fit it included)
        return

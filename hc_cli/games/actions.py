"""Acting in a game: starting one from its roster (`hc game new`), an action on a unit filled
in from the game, resolved and appended (`act`: the house rules checked against the game's,
the dice asked of a player with the file unlocked), a step (`hc game next`) and an undo. What
an action does is worked out before its entry is appended: what fails appends nothing."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.games.fold import GAME_VERSION, action_problem, copy, describe, fold
from hc_cli.games.house import house_rules_changed, layers_changed
from hc_cli.games.retake import (
    dice_again,
    input_first,
    period_entries,
    refusals,
    retake_problem,
    sides_of,
)
from hc_cli.games.roster import game_rules
from hc_cli.games.seal_protocol import (
    EVENTS,
    check_action,
    forfeited,
    game_due,
    next_step,
    open_seal,
    plain_roll,
)
from hc_cli.games.store import Game, Locked, append, game_entry, open_game, unreadable
from hc_cli.log.chain import log_key, make_entry, open_log, rules_record, write_entries
from hc_cli.log.osfile import held
from hc_cli.plugin.game_rules import known_weapons

if TYPE_CHECKING:
    from hc_cli.core.model import Resolution
    from hc_cli.games.roster import Rules
    from hc_cli.plugin.execute import Ask, Call, Session
    from hc_cli.plugin.game_rules import Fill


# ---------------------------------------------------------------------------------------------
# hc game new


def new_game(path: str, roster_path: str, rules: tuple[str, ...] = ()) -> list[str]:
    """Start a game: the roster, checked and resolved against the tables in use, as the first
    entry of a new game file."""
    import secrets

    from hc_cli.games.roster import load
    from hc_cli.plugin import registry
    from hc_cli.tables.files import shown_path

    if os.path.exists(path) and os.path.getsize(path) > 0:
        raise HcError(
            f"{shown_path(path)} already exists: a game file is never overwritten",
            "give a new file name, or go on with that game: --game " + shown_path(path),
        )
    loaded: list[Any] = []

    def tables_for(name: str) -> Any:
        loaded.append(registry.get(name).load_tables(rules))
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
        layers=rules_record(tuple(getattr(loaded[-1].merged, "house", ()))),
        readings=game_readings(rules_obj, loaded[-1]),
        # Its own name: two games begun from one roster in one second are two games still
        # (a game is known by its roster entry's hash: `hc_cli.games.heads`).
        id=secrets.token_hex(16),
    )
    fd = open_log(path, "the game file")
    try:
        with held(fd):
            if os.fstat(fd).st_size:
                raise HcError(f"{shown_path(path)} was started meanwhile", "give a new file name")
            try:
                receipt = write_entries(fd, path, [entry], log_key(), "the game file")[0]
            except HcError:
                if not os.fstat(fd).st_size:  # nothing written: no empty game file is left
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


def game_readings(rules: Rules, tables: Any) -> dict[str, str]:
    """The choices of the readings the game decides by, from the tables in force when it
    starts (house rules included): kept with the roster, so the fold never reads a table."""
    from hc_cli.tables import readings

    return {name: readings.choose(tables.merged, name) for name in rules.readings}


# ---------------------------------------------------------------------------------------------
# Acting: a command on a unit (or for the whole game)


def act(
    call: Call,
    game_path: str,
    unit: str | None,
    at: list[str],
    anyway: bool,
    session: Session,
    ask: Ask | None = None,
    rules_changed: bool = False,
    reroll: bool = False,
    sealed: int | None = None,
    hidden: bool = False,
    agreed: bool = False,
) -> tuple[Resolution, dict[str, Any], Call]:
    """Fill a command from the game, resolve it and (unless it is a question of odds) append
    it: (resolution, what the game says of it, the call as resolved). House rules other than
    the game's (a file rewritten since it began, or another --rules) only with
    `rules_changed`, which the entry records. Dice asked of a player (--dice ask) are asked
    with the file unlocked, so a prompt left open blocks nobody: the entry is appended only if
    the game has not moved on meanwhile. An action taken back and made again in the same move
    or turn rolls the dice it rolled then, and the side makes no other rolled action there
    first, unless the players agree: to a `reroll` of the same, or to another (`agreed`)
    (`hc_cli.games.retake`).
    `sealed`: the roll of that sealed roll, with the seed both secrets give (`hidden`: worked
    out for its roller alone, not appended)."""
    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        prepared = prepare(
            call, game, unit, at, anyway, session, rules_changed, reroll, sealed, agreed
        )
        call = prepared.call
        if hidden:
            res = resolve(prepared, session, ask)
            report = {"game": game.path, "unit": prepared.unit, "at": prepared.at,
                      "note": f"the hidden roll of entry {sealed}: only you see it; it is in "
                      f"the game file once you unseal it (hc seal unseal {sealed})"}  # fmt: skip
            res.fields["game"] = report
            return res, report, call
        asking = bool(call.dice) and str(call.dice).strip().lower() == "ask"
        if not asking or call.odds:
            return _resolve_and_append(prepared, game, fd, session, ask)
    head = game.chain.head
    res = resolve(prepared, session, ask)
    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        if game.chain.head != head:
            raise HcError(
                "the game moved on while the dice were asked for: nothing was logged",
                "look at it (hc status), then act again",
            )
        return _resolve_and_append(prepared, game, fd, session, ask, res)


def seal_action(
    call: Call,
    game_path: str,
    unit: str | None,
    at: list[str],
    anyway: bool,
    session: Session,
    hidden: bool,
    agreed: bool = False,
) -> dict[str, Any]:
    """`hc fire UNIT ... --sealed`: the action filled from the game as it stands (and
    refused as any action would be: sealed in place of an action taken back only if both
    players agree), sealed for its roll (`hc_cli.games.seal.begin`)."""
    from hc_cli.games.seal import begin

    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        prepared = prepare(call, game, unit, at, anyway, session, False, sealed=0, agreed=agreed)
        fill = prepared.fill
        if fill.refusal and not anyway:
            raise HcError(fill.refusal, "act when the rules allow it")
        action = {"command": prepared.call.command, "unit": prepared.unit, "at": prepared.at,
                  "flags": prepared.call.flags, "given": prepared.given, "meta": fill.meta,
                  "anyway": bool(fill.refusal and anyway), "period": prepared.period,
                  **{k: v for k, v in (prepared.again or {}).items() if k == "agreed"},
                  **({"overrides": prepared.overrides} if prepared.overrides else {})}  # fmt: skip
        return begin(game, fd, action, hidden)


@dataclass(slots=True)
class Prepared:
    """An action filled in from the game, ready to resolve."""

    call: Call
    unit: str | None
    at: list[str]
    anyway: bool
    fill: Fill
    given: dict[str, Any]
    changed: str | None
    # The part of the game the action was taken in ("move 2", "turn 1: Imperials plays"): an
    # action taken back and made again in it rolls its dice again.
    period: str
    again: dict[str, Any] | None = None  # what the entry says of a taken-back action's dice
    sealed: int | None = None  # the sealed roll this action rolls
    overrides: list[str] = field(default_factory=list)  # options in place of the game's
    table: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # its period's entries


def prepare(
    call: Call,
    game: Game,
    unit: str | None,
    at: list[str],
    anyway: bool,
    session: Session,
    rules_changed: bool,
    reroll: bool = False,
    sealed: int | None = None,
    agreed: bool = False,
) -> Prepared:
    """`call` filled in from the game as it stands, refused as the rules refuse it and as
    options that override what the game holds are (unless `anyway`, or it is a question of
    odds); `sealed`: the roll of that sealed roll (0: the action being sealed)."""
    game_path = game.path
    under_way = open_seal(game.folded.state)
    if under_way is not None and not (sealed and under_way[0] == str(sealed)) and not call.odds:
        raise HcError(
            f"the sealed roll of entry {under_way[0]} is under way: nothing else is played first",
            next_step(*under_way),
        )
    if call.ruleset != game.folded.ruleset:
        raise HcError(
            f"{game_path} is a game of {game.folded.ruleset}, not of {call.ruleset}",
            "leave out the rule set, or act outside the game: --game none",
        )
    with unreadable(game_path):
        over = game.rules.over(game.folded.state)
    if over is not None and not call.odds and not sealed:
        raise HcError(over, "hc undo takes back the last action; hc game new begins another")
    rules_files, changed, tables = _house_rules(call, game, session, rules_changed)
    seal = (game.folded.state.get("seals") or {}).get(str(sealed)) if sealed else None
    given = dict(seal["action"].get("given") or {}) if seal is not None else dict(call.flags)
    if seal is None:  # a typo of a weapon is said as one, before what the game holds
        known_weapons(call.flags, tables)
    fill, unit, at, anyway = _fill(call, game, unit, at, anyway, seal, tables)
    if fill.refusal and not anyway and not call.odds:
        raise HcError(
            fill.refusal, "act when the rules allow it, or record an override with --anyway"
        )
    overrides = _overrides(call, game, unit, at, given, seal, tables)
    if overrides and not anyway and not call.odds:
        raise HcError(
            "in a game, an option in place of what the game holds: " + "; ".join(overrides),
            "leave it out (the game fills in what it holds), or, if both players agree, play "
            "it all the same: --anyway (the game records the override)",
        )
    call = replace(call, flags=fill.flags, rules=rules_files)
    unit = fill.unit or unit
    with unreadable(game_path):
        period = game.rules.period(game.folded.state)
    again, table = None, [] if call.odds else period_entries(game.chain, period)
    if sealed:
        if seal is None:
            raise HcError(f"entry {sealed} of this game is no sealed roll")
        kept = seal["action"].get("agreed")
        again = {"agreed": kept} if kept else None
    elif not call.odds:
        lost = forfeited(game.folded.state, call.command, unit, period)
        if lost is not None:
            raise HcError(lost, "act with another unit (hc game rules shows the reading)")
        part: dict[str, Any] = {"unit": unit, "at": list(at), "given": _plain(given),
                                "period": period}  # fmt: skip
        if sealed == 0:  # being sealed: its seed will come from both players' secrets
            part["sealed"] = 0
        now = {"command": call.command, "game": part}
        try:
            call, again = dice_again(call, game.folded.roster, set(game.folded.effective), now,
                                     table, reroll, agreed,
                                     refusals(game.rules, game.folded.state, tables))  # fmt: skip
        except HcError:  # a name mistyped is said as that first
            input_first(call, session, set(fill.flags))
            raise
    return Prepared(call, unit, list(at), anyway, fill, given, changed, period, again,
                    sealed or None, overrides if anyway else [], table)  # fmt: skip


def _plain(flags: dict[str, Any]) -> Any:
    """Options as a game file gives them back (a tuple a list, a key a string)."""
    import json

    return json.loads(json.dumps(flags, default=str))


def _overrides(
    call: Call,
    game: Game,
    unit: str | None,
    at: list[str],
    given: dict[str, Any],
    seal: dict[str, Any] | None,
    tables: Any,
) -> list[str]:
    """The options the player gave that put something in place of what the game holds (a
    target's troop, a bare --mod ...), in words: the rule set's `overrides`; a sealed roll's
    as it was sealed."""
    if seal is not None:
        return [str(o) for o in seal["action"].get("overrides") or []]
    if call.command == "roll" or tables is None:
        return []
    with unreadable(game.path):
        found: list[str] = game.rules.overrides(
            game.folded.state, call.command, unit, list(at), given, tables
        )
    return found


def _house_rules(
    call: Call, game: Game, session: Session, rules_changed: bool
) -> tuple[tuple[str, ...], str | None, Any]:
    """The house-rules files the action is resolved with (its own --rules, else the game's),
    how they differ from the game's (refused without `rules_changed`), and the tables. The
    game's own are resolved with the text it kept of them (`hc_cli.log.kept`), whatever is at
    their paths now: a file there changed is refused all the same (it is not what the game
    plays with), and one gone is no change."""
    from hc_cli.log.kept import kept_files
    from hc_cli.plugin import registry

    recorded = tuple(r["path"] for r in game.folded.rules_files if "path" in r)
    rules_files = tuple(call.rules) or recorded
    kept = kept_files(game.folded.rules_files) if rules_files == recorded else None
    there = [r for r in game.folded.rules_files if os.path.isfile(str(r.get("path")))]
    if kept is None:
        changed = house_rules_changed(game.folded.rules_files, rules_files)
    else:
        changed = house_rules_changed(there, tuple(str(r["path"]) for r in there))
        rules_files = rules_files if changed else kept
    tables = None
    if not changed or rules_changed or call.odds:
        tables = session.tables(registry.get(game.folded.ruleset), rules_files)
        folded = game.folded
        if rules_files == kept and folded.layers is not None:  # the layers laid on: each
            at = dict(zip(recorded, kept, strict=True))  # kept file where its path was
            layers = [{**r, "path": at.get(str(r.get("path")), r.get("path"))}
                      for r in folded.layers]  # fmt: skip
            folded = replace(folded, layers=layers)
        changed = changed or layers_changed(folded, tables)
    if changed and not rules_changed and not call.odds:
        raise HcError(
            f"{changed}: the game would roll with other numbers than those it began with",
            "put the game's house rules back, or play on with them as they are now: "
            "--rules-changed (the game records it)",
        )
    return rules_files, changed, tables


def _fill(
    call: Call,
    game: Game,
    unit: str | None,
    at: list[str],
    anyway: bool,
    seal: dict[str, Any] | None,
    tables: Any,
) -> tuple[Fill, str | None, list[str], bool]:
    """The action made whole: a sealed roll's as it was filled and sealed, whenever rolled; a
    plain roll kept in the game (a sealed one) with no unit; else the rule set's fill, on a
    copy of the state (what a fill does to it never reaches the game)."""
    from hc_cli.plugin.game_rules import Fill

    if seal is not None:
        action = seal["action"]
        fill = Fill(dict(action["flags"]), meta=dict(action.get("meta") or {}))
        return fill, action["unit"], list(action["at"]), bool(action.get("anyway"))
    if call.command == "roll":
        if unit is not None or at:
            raise HcError("a roll of dice is no unit's action", "leave out the unit and --at")
        return Fill(dict(call.flags)), unit, at, anyway
    with unreadable(game.path):
        fill = game.rules.fill(
            copy(game.folded.state), call.command, unit, list(at), dict(call.flags), tables
        )
    return fill, unit, at, anyway


def _retake_problem(game: Game, prepared: Prepared, entry: dict[str, Any]) -> str | None:
    """The entry judged by the rule as a replay of the file judges it (`retake_problem`)."""
    effective = set(game.folded.effective)
    return retake_problem(prepared.table, effective, sides_of(game.folded.roster), _plain(entry))


def resolve(prepared: Prepared, session: Session, ask: Ask | None) -> Resolution:
    """The action resolved (or its odds worked out) as filled in."""
    from hc_cli.plugin.execute import execute

    res: Resolution = execute(prepared.call, session, set(prepared.fill.flags), ask=ask)
    return res


def _resolve_and_append(
    prepared: Prepared,
    game: Game,
    fd: int,
    session: Session,
    ask: Ask | None,
    res: Resolution | None = None,
) -> tuple[Resolution, dict[str, Any], Call]:
    from hc_cli.log.entry import as_dict

    call, fill = prepared.call, prepared.fill
    if res is None:
        res = resolve(prepared, session, ask)
    report: dict[str, Any] = {"game": game.path, "unit": prepared.unit, "at": prepared.at}
    if fill.notes:
        report["filled"] = fill.notes
    if call.odds:
        report["note"] = "odds from the game as it stands: nothing is logged"
        res.explanation += game.rules.cap_odds(game.folded.state, prepared.at, res.odds)
        if fill.refusal:
            report["refused"] = fill.refusal
        res.fields["game"] = report
        return res, report, call
    if call.dice:  # as entered, when asked for: the game replays the list
        call = replace(call, dice=res.inputs.get("dice", call.dice))
    entry = make_entry(call, as_dict(res), session.digest(call.ruleset, call.rules))
    overridden = fill.refusal if fill.refusal and prepared.anyway else None
    again = prepared.again or {}
    if "reused" in again and again.get("seed_from"):
        entry["seed_from"] = again["seed_from"]  # the seed as it was first drawn
    entry["game"] = {
        "unit": prepared.unit,
        "at": prepared.at,
        "given": prepared.given,
        "meta": fill.meta,
        "period": prepared.period,
        **({"anyway": overridden} if overridden else {}),
        **({"rules_changed": prepared.changed} if prepared.changed else {}),
        **({k: v for k, v in again.items() if k in ("reused", "reroll", "agreed", "lapsed")}),
        **({"sealed": prepared.sealed} if prepared.sealed is not None else {}),
        **({"overrides": prepared.overrides} if prepared.overrides else {}),
    }
    rules = game.rules
    after = copy(game.folded.state)
    problem = None if plain_roll(entry) else action_problem(entry, after)  # as the fold will
    problem = problem or _retake_problem(game, prepared, entry)
    if problem:
        raise HcError(f"the action as the game would keep it {problem}: nothing was logged")
    with unreadable(game.path):
        check_action(after, entry)  # as the fold will: a sealed roll's own seed, or none held
        changes = [] if plain_roll(entry) else rules.apply(after, entry)
    report["changes"] = changes
    if "reused" in again:
        report["again"] = f"the same dice as entry {again['reused']}, taken back"
    elif "reroll" in again:
        report["again"] = (
            f"re-rolled, as both players agreed: entry {again['reroll']}'s dice set aside"
        )
    elif "agreed" in again:
        changed = "; ".join(again["agreed"]["changed"])
        report["again"] = (f"in place of entry {again['agreed']['undone']}, taken back, as both "
                           f"players agreed ({changed}): its dice set aside")  # fmt: skip
    if overridden or prepared.overrides:
        said = [overridden] if overridden else []
        report["anyway"] = "--anyway: " + "; ".join(said + prepared.overrides)
    with unreadable(game.path):  # worked out first: what fails appends nothing
        report["clock"] = rules.where(after)
        report["due"], report["over"] = game_due(rules, after), rules.over(after)
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
        under_way = open_seal(game.folded.state)
        if under_way is not None:
            number, seal = under_way
            unseal = seal["hidden"] and seal["b"]
            waits = f"it is unsealed (hc seal unseal {number})" if unseal else "it is rolled"
            raise HcError(f"the sealed roll of entry {number} is under way: the game moves on "
                          f"once {waits}", next_step(*under_way))  # fmt: skip
        with unreadable(game_path):
            over = game.rules.over(game.folded.state)
            hold = game.rules.hold(game.folded.state)
        if over is not None:
            raise HcError(over, "hc undo takes back the last action; hc game new begins another")
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


def undo(game_path: str, to: int | None = None) -> dict[str, Any]:
    """`hc undo`: an entry that takes back the newest action or step still in effect (with
    `to`: every one after entry `to`); the state it leaves is folded from the newest
    checkpoint before it."""
    import json

    from hc_cli.core.words import count

    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        effective = game.folded.effective
        if not effective:
            raise HcError("nothing to undo: no action of this game is in effect", "act first")
        target = effective[-1]
        taken = [target] if to is None else [seq for seq in effective if seq > to]
        if to is not None and not 1 <= to < game.chain.count:
            raise HcError(
                f"--to {to}: the game's entries are 1 to {game.chain.count}",
                "give the number of the entry to go back to, as hc history numbers them",
            )
        if not taken:
            raise HcError(
                f"nothing after entry {to} is in effect: nothing to undo",
                f"the newest entry in effect is {target} (hc history)",
            )
        lines = [json.loads(game.chain.line(seq)) for seq in taken]
        parts = [e.get("game") if isinstance(e.get("game"), dict) else {} for e in lines]
        if any(g.get("event") in EVENTS or g.get("sealed") is not None for g in parts):
            raise HcError(
                "a sealed roll is not taken back, rolled or given up: both players made it",
                "play on from it (hc status says what a sealed roll under way waits for)",
            )
        words = [describe(e) for e in lines]
        after = fold(game.chain, game_path, base=game.folded, undoing=taken[0])
        if to is None:
            notes = [f"undid entry {target}: {words[0]}"]
            more: dict[str, Any] = {"what": words[0]}
        else:
            notes = [f"undid entry {seq}: {what}" for seq, what in zip(taken, words, strict=True)]
            notes.append(f"back to entry {to}: {count(len(taken), 'entry')} taken back in one")
            more = {"to": to, "what": count(len(taken), "entry")}
        said = _said(game, after.state, notes)  # worked out first: what fails
        entry = game_entry(game.folded.ruleset, "undo", undoes=target, **more)
        said["receipt"] = append(game, fd, entry, folded=after)  # appends nothing
    return said


def _said(game: Game, state: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    rules = game.rules
    with unreadable(game.path):
        return {
            "game": game.path,
            "changes": notes,
            "clock": rules.where(state),
            "due": game_due(rules, state),
        }

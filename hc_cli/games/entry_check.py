"""An action of a game held to the game it was taken in: its game part (the unit, its targets,
the options filled in, the step and what the fold reads of it) must be what the rule set fills
in the state before it, and its result what its own dice give again. `open_game` checks the
newest entry so each time a game is opened (no later hash covers it: an edit of it breaks no
chain); `hc replay` checks the game part of every entry in effect, and the dice of every one.

Every check of an action's game part is `game_part_problem`: a further one goes there."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.games.seal_protocol import plain_roll

if TYPE_CHECKING:
    from hc_cli.games.roster import Rules
    from hc_cli.plugin.execute import Session


def entry_problem(
    rules: Rules, before: dict[str, Any], entry: dict[str, Any], session: Session | None = None
) -> str | None:
    """What is wrong with the action `entry`, taken into the state `before`: its game part is
    not what the game gives (`game_part_problem`), or its result is not what its own dice
    give again; None when neither. Said as what follows "entry N ..."."""
    from hc_cli.log.replay import resolved_again
    from hc_cli.plugin.execute import Session

    session = session or Session()
    try:
        files = entry_rules(entry)
        problem = game_part_problem(rules, before, entry, entry_tables(entry, files, session))
        if problem:
            return problem
        _, differences = resolved_again(entry, files, session)
    except HcError as error:
        return f"does not resolve again: {error.message}"
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return (
            "is not an action hc logged: a field it is resolved from is missing or of another kind"
        )
    if differences:
        return "does not give its logged result again from its own dice: " + "; ".join(
            differences[:4]
        )
    return None


def entry_rules(entry: dict[str, Any]) -> tuple[str, ...]:
    """The house-rules files the entry was resolved with: their text as it kept it, or (an
    older hc's entry) each file at its path, which must still be the one its digest names."""
    from hc_cli.log.replay import rules_files

    files, notes = rules_files(entry.get("rules"), {})
    if notes:
        raise HcError(notes[0])
    return files


def entry_tables(entry: dict[str, Any], files: tuple[str, ...], session: Session) -> Any:
    """The tables the entry was resolved with (its house rules `files` laid on)."""
    from hc_cli.plugin import registry

    return session.tables(registry.get(str(entry.get("ruleset"))), files)


def game_part_problem(
    rules: Rules, before: dict[str, Any], entry: dict[str, Any], tables: Any
) -> str | None:
    """What in the action's game part is not what the game gives in the state `before`: the
    rule set's fill of the same command, unit, targets and options as the player gave them
    must name the same unit, fill the same options and the same `meta` (the step, the models
    firing), be taken in the same part of the game, and be refused (recorded as --anyway)
    exactly when the rules refuse it. A sealed roll's action is the one sealed (the fold holds
    it to that, `seal_protocol.check_action`). None when all hold."""
    game = entry["game"]
    if game.get("sealed") is not None or plain_roll(entry):
        return None
    import marshal

    unit, at = game.get("unit"), list(game.get("at") or [])
    state = marshal.loads(marshal.dumps(before))  # a copy: what a fill does never reaches it
    given = dict(game.get("given") or {})
    try:
        fill = rules.fill(state, entry["command"], unit, list(at), given, tables)
    except HcError as error:
        return f"is no action the game allows in the state before it: {error.message}"
    if fill.unit is not None and fill.unit != unit:
        return f"names {str(unit)[:40]} as acting, where the game has {fill.unit} act"
    meta, period = game.get("meta") or {}, rules.period(before)
    if before.get("version", 1) < 2:  # a game file of an older hc: what its entries kept
        fill.meta = {k: v for k, v in fill.meta.items() if k in meta}
        period = game.get("period", period)
    filled: dict[str, tuple[object, object]] = {
        "options": (entry.get("flags"), fill.flags),
        "meta": (meta, fill.meta),
        "period": (game.get("period"), period),
        "override": (game.get("anyway"), fill.refusal),
    }
    from hc_cli.log.replay import field_changes

    differences: list[str] = []
    for name, (logged, filled_in) in filled.items():
        if _plain(logged) != _plain(filled_in):
            differences += field_changes(name, _plain(logged), _plain(filled_in))
    if differences:
        return "is not what the game gives in the state before it: " + "; ".join(
            d.replace(", now ", ", the game gives ") for d in differences[:4]
        )
    # Further checks of an action's game part go here, each returning what is wrong in words.
    return None


def _plain(value: object) -> object:
    """A value as the game file holds it (JSON's lists, numbers and strings)."""
    return json.loads(json.dumps(value, default=str))

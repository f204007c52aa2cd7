"""The game's own commands (`hc game new|next|export`, `hc status`, `hc history`, `hc undo`,
`hc roster check`, `hc seal ...`, `hc compare`, `hc sweep`), given their option values."""

from __future__ import annotations

import sys
from typing import Any

from hc_cli.cli.runner import echo, say_error, wants_colour, width
from hc_cli.core.errors import HcError
from hc_cli.core.words import printable
from hc_cli.plugin.common_options import COMMON_NAMES

NAMES = {
    "game_new": "game new",
    "game_next": "game next",
    "game_export": "game export",
    "game_rules": "game rules",
    "game_key": "game key",
    "game_rewind": "game rewind",
    "roster_check": "roster check",
    "seal_join": "seal join",
    "seal_commit": "seal commit",
    "seal_reveal": "seal reveal",
    "seal_open": "seal open",
    "seal_abandon": "seal abandon",
    "seal_forfeit": "seal forfeit",
    "seal_unseal": "seal unseal",
    "seal_check": "seal check",
}


def game_path(values: dict[str, Any]) -> str:
    """The game in force (`--game`, HC_GAME, the settings file), or what to do for one."""
    from hc_cli.games import choice

    found = choice.game_in_force(values.get("game"))
    if found is None:
        raise HcError(
            "no game in force",
            "give --game FILE, or set HC_GAME=FILE (start one: hc game new FILE --roster ROSTER)",
        )
    from hc_cli.games.choice import game_file_problem, unreadable_game

    problem = game_file_problem(found[0])
    if problem is not None:
        raise unreadable_game(found, problem, outside=False)
    return found[0]


def run(name: str, values: dict[str, Any]) -> int:
    try:
        return _RUN[name](values)
    except HcError as error:
        return say_error(NAMES.get(name, name), error)


def _json(value: Any) -> None:
    from hc_cli.render.json_text import dumps

    echo(dumps(value))


def _game_new(values: dict[str, Any]) -> int:
    from hc_cli.games.actions import new_game
    from hc_cli.render.wrap import wrap

    lines = new_game(values["file"], values["roster"], tuple(values.get("rules") or ()))
    echo(wrap(lines[:1] if values.get("quiet") else lines, width()))
    return 0


def _game_key(values: dict[str, Any]) -> int:
    from hc_cli.log.keys import new_key, write_key_file

    path = values.get("file")
    if not path:
        echo(new_key())
        return 0
    from hc_cli.tables.files import shown_path

    kept = write_key_file(path)
    if values.get("quiet"):
        return 0
    from hc_cli.render.wrap import wrap

    said = (f"a new key in {shown_path(path)} (mode 600, key id {kept}): play with "
            f"HC_LOG_KEY_FILE={shown_path(path)}; give it to the other player, and to no one "
            "else")  # fmt: skip
    echo(wrap([said], width()))
    return 0


def _said(found: dict[str, Any], values: dict[str, Any]) -> int:
    if values.get("json"):
        _json(found)
    else:
        from hc_cli.render.draw import show
        from hc_cli.render.text import game_lines

        colour = wants_colour(bool(values.get("no_color")))
        shown = {k: v for k, v in found.items() if k != "due"} if values.get("quiet") else found
        echo(show(game_lines(shown), width(), colour))
    echo(f"logged to {printable(found['game'])}: receipt {found['receipt']}", err=True)
    return 0


def _game_next(values: dict[str, Any]) -> int:
    from hc_cli.games.actions import step

    return _said(step(game_path(values), bool(values.get("anyway"))), values)


def _game_rules(values: dict[str, Any]) -> int:
    from hc_cli.games import choice
    from hc_cli.games.views import game_rules_view

    ruleset = values.get("ruleset")
    found = None if ruleset else choice.game_in_force(values.get("game"))
    if found is not None:
        from hc_cli.games.choice import game_file_problem, unreadable_game

        problem = game_file_problem(found[0])
        if problem is not None:
            raise unreadable_game(found, problem)
    if found is None and not ruleset:
        import os

        ruleset = choice.choose((), os.environ)[0]
    view = game_rules_view(found[0] if found else None, ruleset)
    if values.get("json"):
        _json(view)
        return 0
    from hc_cli.render.reports import render_game_rules
    from hc_cli.render.wrap import wrap

    if values.get("quiet"):  # the sequence, a line a step
        lines = [f"{step['step']}. {step['who']} {step['does']}" for step in view["sequence"]]
        echo(wrap(lines, width()))
        return 0
    echo(render_game_rules(view, width()))
    return 0


def _undo(values: dict[str, Any]) -> int:
    from hc_cli.games.actions import undo

    return _said(undo(game_path(values), values.get("to")), values)


def _game_rewind(values: dict[str, Any]) -> int:
    """`hc game rewind --accept RECEIPT`: the players play on from a file that went back."""
    from hc_cli.games.rewind import accept

    found = accept(game_path(values), values["accept"])
    if values.get("json"):
        _json(found)
    elif values.get("quiet"):
        echo(found["receipt"])
    else:
        from hc_cli.render.wrap import wrap

        said = (f"the game went back from {found['lost']} to {found['found']}: accepted, and "
                f"recorded as entry {found['receipt'].partition(':')[0]}")  # fmt: skip
        echo(wrap([said], width()))
    echo(f"logged to {printable(found['game'])}: receipt {found['receipt']}", err=True)
    return 0


def _game_export(values: dict[str, Any]) -> int:
    from hc_cli.games.views import export

    echo(export(game_path(values), comments=not values.get("quiet")).rstrip("\n"))
    return 0


def _status(values: dict[str, Any]) -> int:
    from hc_cli.games.views import status

    found = status(game_path(values))
    if values.get("json"):
        _json(found)
        return 0
    from hc_cli.render.tables import render_status

    colour = wants_colour(bool(values.get("no_color")))  # -q: where the game is, what is due
    echo(render_status(found, width(), colour, bool(values.get("quiet"))))
    return 0


def _history(values: dict[str, Any]) -> int:
    from hc_cli.games.views import history

    path = game_path(values)
    entries = history(path)
    if values.get("json"):
        _json({"game": path, "entries": entries})
        return 0
    from hc_cli.render.reports import render_history

    if values.get("quiet"):  # a line an entry
        from hc_cli.render.wrap import wrap

        lines = [
            f"{item['entry']}. {printable(item['what'])}" + (" (undone)" if item["undone"] else "")
            for item in entries
        ]
        echo(wrap(lines, width()))
        return 0
    echo(render_history(entries, width()))
    return 0


def _again(values: dict[str, Any]) -> int:
    """`hc again [UNIT]`: the newest action (of UNIT) run again as its command, new dice; after
    an undo, the action taken back, its dice again (or, --reroll, new ones)."""
    from hc_cli.cli.runner import dispatch
    from hc_cli.games.views import last_action

    path = game_path(values)
    last = last_action(path, values.get("unit"))
    again: dict[str, Any] = {**last["given"], "unit": last["unit"], "at": tuple(last["at"])}
    names = set(last["given"]) | {"unit", "at"}
    for key in ("seed", "dice", "json", "quiet", "no_color", "anyway", "reroll", "agreed"):
        if values.get(key) not in (None, False):
            again[key] = values[key]
            names.add(key)
    again["game"] = path

    done = dispatch(last["command"], last["ruleset"], again, names)
    if not values.get("quiet"):  # after the result, which comes first
        undone = f" (entry {last['undone']}, taken back)" if last.get("undone") else ""
        echo(f"again: {printable(last['words'])}{undone}", err=True)
    return done


def _roster_check(values: dict[str, Any]) -> int:
    from hc_cli.games.roster import check_file
    from hc_cli.render.wrap import wrap

    lines = check_file(values["file"])
    echo(wrap(lines[:1] if values.get("quiet") else lines, width()))
    return 0


def _luck(values: dict[str, Any]) -> int:
    """`hc luck [FILE]`: the game in force unless a file (a game or a log) is named."""
    from hc_cli.games.luck import luck

    path = values.get("file") or game_path(values)
    found = luck(
        path, values.get("side"), values.get("unit"), values.get("since"), values.get("ruleset")
    )
    if values.get("json"):
        from hc_cli.render.json_text import write

        write(found, sys.stdout)  # a piece at a time: a long game's report is long
        return 0
    from hc_cli.render.reports import render_luck

    colour = wants_colour(bool(values.get("no_color")))
    echo(render_luck(found, width(), bool(values.get("quiet")), colour))
    return 0


def _seal_said(found: dict[str, Any], values: dict[str, Any], game: str | None = None) -> int:
    """What a step of a sealed roll says: the line for the other player to paste."""
    if values.get("json"):
        _json({k: v for k, v in found.items() if k != "say"})
    elif values.get("quiet"):  # the line to paste, alone
        echo(next((line.strip() for line in found["say"] if line.startswith("  hc seal ")),
                  found["say"][-1]))  # fmt: skip
    else:
        from hc_cli.render.wrap import wrap

        echo(wrap(found["say"], width()))
    if game is not None and found.get("receipt"):
        echo(f"logged to {printable(game)}: receipt {found['receipt']}", err=True)
    return 0


def _seal_join(values: dict[str, Any]) -> int:
    from hc_cli.games.seal import join

    return _seal_said(join(values["code"]), values)


def _seal_game(values: dict[str, Any]) -> str:
    """The game in force, for a step the roller takes (the other player needs none)."""
    try:
        return game_path(values)
    except HcError as error:
        error.hint = "the player who sealed the roll takes this step, in the game: --game FILE"
        raise


def _seal_abandon(values: dict[str, Any]) -> int:
    from hc_cli.games.seal import abandon

    path = _seal_game(values)
    return _seal_said(abandon(path, values["seal"]), values, path)


def _seal_forfeit(values: dict[str, Any]) -> int:
    from hc_cli.games.seal import forfeit

    path = _seal_game(values)
    return _seal_said(forfeit(path, values["seal"]), values, path)


def _seal_commit(values: dict[str, Any]) -> int:
    from hc_cli.games.seal import commit

    path = _seal_game(values)
    return _seal_said(commit(path, values["code"]), values, path)


def _seal_reveal(values: dict[str, Any]) -> int:
    from hc_cli.games import choice
    from hc_cli.games.seal import reveal

    path = game_path(values) if choice.game_in_force(values.get("game")) else None
    return _seal_said(reveal(values["code"], path), values, path)


def _seal_roll(path: str, number: int, seal: dict, a: str, values: dict[str, Any], write) -> int:
    """A sealed roll rolled: its action as sealed, with the seed of both secrets. It is tried
    first and the secrets written only if it can be made (a roll that cannot be made leaves
    the game as it was); then rolled and appended as any action (or, hidden, shown)."""
    from hc_cli.cli.runner import dispatch, say_error
    from hc_cli.games.actions import act
    from hc_cli.games.choice import ruleset_of
    from hc_cli.games.seal_protocol import derive
    from hc_cli.plugin.execute import Call, Session

    action = seal["action"]
    hidden = seal["hidden"] and not values.get("unsealing")
    seed = derive(seal["head"], a, seal["b"])
    ruleset = ruleset_of(path) or ""
    try:
        call = Call(action["command"], ruleset, dict(action["given"]), seed)
        act(call, path, action["unit"], list(action["at"]), bool(action.get("anyway")),
            Session(), sealed=number, hidden=True)  # fmt: skip
    except HcError as error:
        return say_error(NAMES.get(values["_run"], "seal"), error)
    write()
    again: dict[str, Any] = {**action["given"], "unit": action["unit"], "at": tuple(action["at"])}
    names = set(action["given"]) | {"unit", "at", "seed"}
    for key in ("json", "quiet", "no_color"):
        if values.get(key):
            again[key] = values[key]
            names.add(key)
    again.update(game=path, seed=seed, sealed_roll=number, hidden_roll=hidden)
    return dispatch(action["command"], ruleset, again, names)


def _seal_open(values: dict[str, Any]) -> int:
    from hc_cli.games.seal import opening, show

    path = _seal_game(values)
    number, seal, a = opening(path, values["code"])

    def write() -> None:
        show(path, number, seal["b"], None if seal["hidden"] else a)

    return _seal_roll(path, number, seal, a, {**values, "_run": "seal_open"}, write)


def _seal_unseal(values: dict[str, Any]) -> int:
    from hc_cli.games.seal import show, unsealing

    path = _seal_game(values)
    seal, a = unsealing(path, values["seal"])

    def write() -> None:
        show(path, values["seal"], None, a)

    run = {**values, "_run": "seal_unseal", "unsealing": True}
    return _seal_roll(path, values["seal"], seal, a, run, write)


def _seal_check(values: dict[str, Any]) -> int:
    from hc_cli.games.seal import check

    found = check(values["file"])
    if values.get("json"):
        _json(found)
    else:
        from hc_cli.render.wrap import wrap

        lines = found["checked"]
        if values.get("quiet"):
            lines = [
                ln for ln in lines if not ln.endswith(("the roll you joined", "you rolled it"))
            ]
        if lines:
            echo(wrap(lines, width()))
    return 1 if found["problems"] else 0


def _compare(values: dict[str, Any]) -> int:
    from hc_cli.games.compare import compare

    if values.get("action") and not values.get("over"):
        action = " ".join(str(w) for w in values["action"])
        raise HcError(
            f"hc compare reads no '{action[:40]}'",
            "in a game: hc compare --range 14 (and --at-least, -q, --json); outside one: "
            "--over twice (the attackers, the targets) and the action after --",
        )
    if values.get("over") and (values.get("unit") or values.get("at")):
        raise HcError("--unit and --at choose a game's shots: outside one, --over lists them",
                      "give the attackers and the targets with --over twice")  # fmt: skip
    if values.get("over"):
        found = _compare_outside(values)
    else:
        found = compare(
            game_path(values),
            tuple(values.get("range") or ()),
            tuple(values.get("unit") or ()),
            tuple(values.get("at") or ()),
            tuple(values.get("under") or ()),
            tuple(values.get("shot") or ()),
        )
    if values.get("json"):
        _json(found)
        return 0
    from hc_cli.render.tables import render_compare

    echo(render_compare(found, width(), bool(values.get("quiet")), bool(values.get("at_least"))))
    return 0


def _action(values: dict[str, Any], name: str = "sweep") -> tuple[str, str, dict[str, Any]]:
    """The action after `--` (`hc sweep`, `hc compare` outside a game), read by its command
    as it reads it typed alone, in the rule set it names or the one in force outside a game:
    (command, rule set, its own options given)."""
    import os

    from typer._click.core import ParameterSource
    from typer._click.exceptions import UsageError
    from typer._click.globals import get_current_context

    from hc_cli.cli.typer_commands import build_command
    from hc_cli.games import choice
    from hc_cli.plugin import registry

    words = [str(w) for w in values.get("action") or ()]
    named = any(w == "--ruleset" or w.startswith("--ruleset=") for w in words)
    if values.get("ruleset") and not named:  # the action's own --ruleset wins
        words += ["--ruleset", values["ruleset"]]
    ruleset = choice.choose([*words, "--game", "none"], os.environ)[0]
    declared = registry.get(ruleset).commands.get(words[0]) if words else None
    if declared is None or declared.run is not None or {"--help", "-h"} & set(words):
        raise HcError(
            f"'{' '.join(words)[:60]}' is no action to read after --",
            "give a resolving command with its options after --, as typed without hc: "
            + (
                "hc sweep --over range=2..24 -- fire -w ingrave-ar -t orc"
                if name == "sweep"
                else "hc compare --over weapon=ingrave-ar,bolt-gun --over target=orc,crusader "
                "-- fire -r 14"
            ),
        )
    command = build_command(declared, ruleset)
    try:
        read = command.make_context(words[0], words[1:], parent=get_current_context())
    except UsageError as error:  # an option it lacks, a value it cannot take
        raise HcError(
            f"after --: {error.format_message()}",
            f"give the action's options as hc {words[0]} takes them (hc {words[0]} --help)",
        ) from None
    given = [k for k in read.params if read.get_parameter_source(k) is not ParameterSource.DEFAULT]
    return words[0], ruleset, {k: read.params[k] for k in given if k not in COMMON_NAMES}


def _compare_outside(values: dict[str, Any]) -> dict[str, Any]:
    """`hc compare --over A=... --over B=... -- ACTION`: every pair of the two lists."""
    from hc_cli.plugin.sweep import matrix, points

    over = [points(text) for text in values.get("over") or ()]
    if len(over) != 2 or not values.get("action"):
        raise HcError(
            "outside a game, hc compare takes --over twice (the attackers, the targets) and "
            "the action after --",
            "hc compare --over weapon=ingrave-ar,bolt-gun --over target=orc,crusader -- fire -r 14",
        )
    command, ruleset, own = _action(values, "compare")
    given = values.get("range") or ()
    if given:  # one range for every pair, as in a game: the action's own
        from hc_cli.games.compare import ranges_of

        every, by = ranges_of(tuple(given))
        if by or not isinstance(every, float):
            raise HcError(
                "outside a game, --range is one number for every pair",
                "give it as a number (--range 14), or in the action after --",
            )
        if "range" in own:
            raise HcError("--range given twice: before -- and in the action",
                          "give it once")  # fmt: skip
        own["range"] = every
    return matrix(command, ruleset, own, over[0], over[1], tuple(values.get("rules") or ()))


def _sweep(values: dict[str, Any]) -> int:
    """`hc sweep --over NAME=VALUES -- ACTION` (`hc_cli.plugin.sweep`)."""
    from hc_cli.plugin.sweep import points, sweep

    given = values.get("over") or []
    if len(given) != 1 or not values.get("action"):
        raise HcError(
            "one --over, and the action after --" if values.get("action") else "no action after --",
            "hc sweep --over range=2..24 -- fire -w ingrave-ar -t orc",
        )
    name, over = points(given[0])
    command, ruleset, own = _action(values)
    found = sweep(command, ruleset, own, name, over, tuple(values.get("rules") or ()))
    if values.get("json"):
        _json(found)
        return 0
    from hc_cli.render.tables import render_sweep

    csv, colour = bool(values.get("csv")), wants_colour(bool(values.get("no_color")))
    echo(render_sweep(found, width(), csv, bool(values.get("quiet")), colour))
    return 0


_RUN = {
    "game_new": _game_new,
    "game_next": _game_next,
    "game_export": _game_export,
    "game_rules": _game_rules,
    "game_key": _game_key,
    "game_rewind": _game_rewind,
    "status": _status,
    "history": _history,
    "undo": _undo,
    "roster_check": _roster_check,
    "again": _again,
    "luck": _luck,
    "seal_join": _seal_join,
    "seal_commit": _seal_commit,
    "seal_reveal": _seal_reveal,
    "seal_open": _seal_open,
    "seal_unseal": _seal_unseal,
    "seal_abandon": _seal_abandon,
    "seal_forfeit": _seal_forfeit,
    "seal_check": _seal_check,
    "compare": _compare,
    "sweep": _sweep,
}

"""Seeing a game: `hc status` (from the snapshot of the very same file when there is one),
`hc history` (every entry, what it changed, what was undone) and `hc game export` (the command
lines that play it again)."""

from __future__ import annotations

import os
from typing import Any

from hc_cli.core.errors import HcError
from hc_cli.games.fold import Folded, describe, event_of, fold
from hc_cli.games.retake import marks
from hc_cli.games.roster import game_rules
from hc_cli.games.scan import entries_from, read_chain
from hc_cli.games.seal_protocol import game_due, given_up
from hc_cli.games.store import open_game, unreadable
from hc_cli.log.chain import receipt

# ---------------------------------------------------------------------------------------------
# Seeing the game: status, history, export


def status(game_path: str) -> dict[str, Any]:
    """`hc status`: the game as it stands, as data (the table is drawn from it)."""
    game = open_game(game_path, fresh=True)  # the chain checked whole, line by line
    folded, seq, digest = game.folded, game.seq, game.chain.head
    rules = game_rules(folded.ruleset)
    state = folded.state
    with unreadable(game_path):
        return {
            "game": game_path,
            "ruleset": folded.ruleset,
            "title": folded.roster.get("title", ""),
            "entries": seq,
            "head": receipt(seq, digest),
            "clock": rules.where(state),
            **rules.clock_fields(state),
            "columns": [heading for _, heading in rules.columns()],
            "keys": [key for key, _ in rules.columns()],
            "sides": rules.rows(state),
            "due": game_due(rules, state),
            "over": rules.over(state),  # why the game is over, or null
            "given_up": given_up(state),  # sealed rolls abandoned and forfeit, by side
        }


def last_action(game_path: str, unit: str | None) -> dict[str, Any]:
    """The newest action in effect that a player chose (of `unit`, when named: its own, else
    its unit's, a model of the same unit acting), as `hc again` takes it again: its command,
    unit, targets and the options the player gave. A test taken because the game said it was
    due (a Morale test) is passed over: it is taken again only when due, by its own command.
    After an undo, the action taken back whose dice are still on the table (`retake`): made
    again as it was, it rolls them again ("undone": its entry)."""
    import json

    game = open_game(game_path)
    base = unit.partition(":")[0] if unit else None
    for seq, entry in _on_the_table(game):
        if unit is None or (entry["game"].get("unit") or "").partition(":")[0] == base:
            return {**_as_again(entry, None), "undone": seq}
    for seq in reversed(game.folded.effective):
        entry = json.loads(game.chain.line(seq))
        if event_of(entry) is not None or entry["command"] in game.rules.due_commands:
            continue
        acted = entry["game"].get("unit")
        if unit is None or acted == unit or (acted or "").partition(":")[0] == base:
            return _as_again(entry, unit)
    raise HcError(
        "nothing to take again: no action " + (f"of {unit} " if unit else "") + "is in effect",
        "act first (hc status says what comes)",
    )


def _on_the_table(game: Any) -> list[tuple[int, dict[str, Any]]]:
    """The actions taken back in the part of the game as it stands whose dice are still on
    the table, of every side, newest first."""
    from hc_cli.games.retake import on_table, period_entries, sides_of

    with unreadable(game.path):
        period = game.rules.period(game.folded.state)
    table = period_entries(game.chain, period)
    sides = sides_of(game.folded.roster)
    effective = set(game.folded.effective)
    found = [
        pending
        for side in {*sides.values(), None}
        for pending in on_table(table, effective, sides, side, period)
    ]
    return sorted(found, key=lambda pending: -pending[0])


def _as_again(entry: dict[str, Any], unit: str | None) -> dict[str, Any]:
    acted = entry["game"].get("unit")
    game = {**entry["game"], "unit": unit or acted, "anyway": None, "overrides": None}
    return {
        "ruleset": entry["ruleset"],
        "command": entry["command"],
        "unit": unit or acted,
        "at": list(entry["game"].get("at") or []),
        "given": dict(entry["game"].get("given") or {}),
        "words": _command_line({**entry, "dice": None, "seed": None, "game": game}),
    }


def check_units(game_path: str, command: str, units: tuple[str, ...]) -> None:
    """Several units named in one command (`hc fire a b --at c`): each a unit of the game,
    none twice, checked before any of them acts, so a misspelt name rolls nothing."""
    from hc_cli.plugin.game_rules import known_unit

    game = open_game(game_path)
    with unreadable(game_path):
        state = game.folded.state
    for at, name in enumerate(units):
        if name.replace(".", "", 1).isdigit() and name not in state["units"]:
            raise HcError(
                f"'{name}' is a number, not a unit of this game",
                _number_hint(command, game.folded.ruleset),
            )
        known_unit(state, name.partition(":")[0], "one of the units named to act")
        if name in units[:at]:
            raise HcError(f"{name} is named twice", "name each unit that acts once")


def _number_hint(command: str, ruleset: str) -> str:
    """Where a number given as a unit goes: the command's options that take one, those of
    a distance first."""
    from hc_cli.plugin import registry

    declared = registry.get(ruleset).commands.get(command)
    numbers = [o for o in (declared.options if declared else ())
               if o.flags and o.kind in ("whole", "number") and not o.positional]  # fmt: skip
    numbers.sort(key=lambda o: o.unit is None)  # a distance, a range first
    flags = [max(o.flags, key=len) for o in numbers[:4]] + ["..."] * (len(numbers) > 4)
    listed = f" ({', '.join(flags)})" if flags else ""
    return f"a number goes with its option{listed}: hc {command} --help says what each is"


def due_units(game_path: str, command: str) -> list[str]:
    """The units whose `command` the game says is due now (`hc morale --due`)."""
    game = open_game(game_path)
    with unreadable(game_path):
        return game.rules.due_units(game.folded.state, command)


def history(game_path: str) -> list[dict[str, Any]]:
    """Every entry in order: what it was, what it changed, and whether it was undone."""
    out: list[dict[str, Any]] = []

    def each(entry: dict[str, Any], notes: list[str], undone: bool, period: str) -> None:
        out.append(
            {
                "entry": entry.get("seq"),
                "period": period,
                "what": describe(entry) + marks(_part(entry)),
                "changes": notes,
                "undone": undone,
            }
        )

    fold(open_game(game_path, fresh=True).chain, game_path, each)  # a file gone back: refused
    return out


def _part(entry: dict[str, Any]) -> dict[str, Any]:
    found = entry.get("game")
    return found if isinstance(found, dict) else {}


def export(game_path: str, comments: bool = True) -> str:
    """The command lines that play the game again, from its roster: a shell script (without
    its comment line, `comments` False)."""
    import shlex

    from hc_cli.core.words import printable

    chain = read_chain(game_path)
    folded = fold(chain, game_path)
    name = os.path.basename(game_path)
    roster = _roster_yaml(folded)
    # Every word from the file is quoted for the shell: a name, a title or a value can hold
    # anything (a newline, a quote, a "ROSTER" line), and none of it may run as a command.
    lines = [
        "#!/bin/sh",
        "set -e",
        f"# {printable(name)}: the command lines that play it again, in an empty folder.",
        f"export HC_GAME={shlex.quote(name)}",
        f"printf '%s\\n' {shlex.quote(roster.rstrip(chr(10)))} > roster.yaml",
        'hc game new "$HC_GAME" --roster roster.yaml',
    ]
    if not comments:
        lines = [line for line in lines if not line.startswith("# ")]
    effective = set(folded.effective)
    for seq, entry in entries_from(chain, range(2, chain.count + 1)):
        event = event_of(entry)
        if event == "next" and seq in effective:
            anyway = (entry.get("game") or {}).get("anyway")
            lines.append("hc game next" + (" --anyway" if anyway else ""))
        elif event is None and seq in effective:
            lines.append(_command_line(entry))
    return "\n".join(lines) + "\n"


def _roster_yaml(folded: Folded) -> str:
    import yaml

    data: dict[str, Any] = {"ruleset": folded.ruleset}
    if folded.roster.get("title"):
        data["title"] = folded.roster["title"]
    data["sides"] = {
        side: {name: unit.get("roster", unit) for name, unit in units.items()}
        for side, units in folded.roster["sides"].items()
    }
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def _command_line(entry: dict[str, Any]) -> str:
    """An action as the command line that takes it again: the unit, the options the player
    gave, and the seed or the dice rolled."""
    import shlex

    from hc_cli.plugin import registry
    from hc_cli.plugin.execute import spell_option

    game = entry["game"]
    words = ["hc", entry["command"]]
    if game.get("unit"):
        words.append(game["unit"])
    declared = registry.get(entry["ruleset"]).commands[entry["command"]]
    positional = {o.name for o in declared.options if o.positional}
    for name in positional:  # the command's own arguments, as words
        value = (game.get("given") or {}).get(name)
        words += (
            [str(v) for v in value]
            if isinstance(value, list)
            else [str(value)] * bool(value is not None)
        )
    for target in game.get("at") or []:
        words += ["--at", target]
    for name, value in (game.get("given") or {}).items():
        if name in positional:
            continue
        flag = spell_option(name)
        if value is True:
            words.append(flag)
        elif isinstance(value, list):
            for item in value:
                words += [flag, str(item)]
        elif value is not None and value is not False:
            words += [
                flag,
                value
                if isinstance(value, str)
                else format(value, "g")
                if isinstance(value, float)
                else str(value),
            ]
    if entry.get("dice"):
        words += ["--dice", str(entry["dice"])]
    elif entry.get("seed") is not None:
        words += ["--seed", str(entry["seed"])]
    if game.get("anyway") or game.get("overrides"):  # a refusal, or options the game holds
        words.append("--anyway")
    if game.get("rules_changed"):
        for record in entry.get("rules") or []:
            words += ["--rules", str(record.get("path"))]
        words.append("--rules-changed")
    return " ".join(shlex.quote(w) for w in words)


def game_rules_view(game_path: str | None, ruleset: str | None) -> dict[str, Any]:
    """`hc game rules`: the sequence a game of the rule set keeps, step by step, the rules it
    keeps between actions, and the readings it plays by: the game's own (kept when it began),
    or, outside a game, those of the tables in force."""
    from hc_cli.plugin import registry

    if game_path is not None:
        game = open_game(game_path)
        ruleset = game.folded.ruleset
        rules = game_rules(ruleset)
        chosen = dict(game.folded.state.get("readings") or {})
    else:
        assert ruleset is not None
        rules = game_rules(ruleset)
        from hc_cli.games.actions import game_readings

        chosen = game_readings(rules, registry.get(ruleset).load_tables())
    files = [r["path"] for r in game.folded.rules_files if "path" in r] if game_path else []
    tables = registry.get(ruleset).load_tables(files)
    every = tables.merged.tables.get("readings", {})
    # the rest: each action reads them from the tables in force when it is resolved
    of_actions = {n: str(e["choice"]) for n, e in every.items() if n not in chosen}

    def described(readings: dict[str, str]) -> list[dict[str, Any]]:
        return [
            {
                "name": name,
                "choice": choice,
                "means": (every.get(name, {}).get("alternatives") or {}).get(choice, ""),
                "alternatives": list(every.get(name, {}).get("alternatives") or {}),
                "source": every.get(name, {}).get("source", ""),
            }
            for name, choice in readings.items()
        ]

    return {
        "ruleset": ruleset,
        "game": game_path,
        "period": rules.period_name,
        "sequence": [
            {
                "step": step.name,
                "who": step.who,
                "does": step.does,
                "commands": list(step.commands),
                "source": step.source,
            }
            for step in rules.sequence
        ],
        "between": list(rules.between),
        "readings": described(chosen),
        "action_readings": described(of_actions),
    }

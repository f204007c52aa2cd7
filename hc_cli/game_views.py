"""Seeing a game: `hc status` (from the snapshot of the very same file when there is one),
`hc history` (every entry, what it changed, what was undone) and `hc game export` (the command
lines that play it again)."""

from __future__ import annotations

import os

from hc_cli.game import open_game, peek, read_game
from hc_cli.game_chain import Folded, describe, entries_of, event_of, fold, read_chain

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any


# ---------------------------------------------------------------------------------------------
# Seeing the game: status, history, export


def status(game_path: str) -> dict[str, Any]:
    from hc_cli.log import receipt
    from hc_cli.roster import game_rules

    found = peek(game_path)
    if found is None:
        game = open_game(game_path)
        found = (game.folded, game.seq, game.chain.digests[-1])
    folded, seq, digest = found
    rules = game_rules(folded.ruleset)
    state = folded.state
    return {
        "game": game_path,
        "ruleset": folded.ruleset,
        "title": folded.roster.get("title", ""),
        "entries": seq,
        "head": receipt(seq, digest),
        "clock": rules.clock(state),
        **rules.clock_fields(state),
        "columns": [heading for _, heading in rules.columns()],
        "keys": [key for key, _ in rules.columns()],
        "sides": rules.rows(state),
        "due": rules.due(state),
    }


def history(game_path: str) -> list[dict[str, Any]]:
    """Every entry in order: what it was, what it changed, and whether it was undone."""
    from hc_cli.log import log_key

    chain = read_chain(read_game(game_path, None), game_path, log_key())
    out: list[dict[str, Any]] = []
    rules_box: list[Any] = []

    def each(entry: dict, notes: list[str], undone: bool, state: dict) -> None:
        if not rules_box:
            from hc_cli.roster import game_rules

            rules_box.append(game_rules(entry["ruleset"]))
        out.append(
            {
                "entry": entry.get("seq"),
                "period": rules_box[0].period(state),
                "what": describe(entry),
                "changes": notes,
                "undone": undone,
            }
        )

    fold(chain, game_path, each)
    return out


def export(game_path: str) -> str:
    """The command lines that play the game again, from its roster: a shell script."""
    import shlex

    from hc_cli.log import log_key

    chain = read_chain(read_game(game_path, None), game_path, log_key())
    folded = fold(chain, game_path)
    entries = dict(entries_of(chain, 0, game_path))
    name = os.path.basename(game_path)
    roster = _roster_yaml(folded)
    lines = [
        "#!/bin/sh",
        f"# {name} as the command lines that play it again: run this in an empty folder.",
        "set -e",
        f"export HC_GAME={shlex.quote(name)}",
        "cat > roster.yaml <<'ROSTER'",
        roster.rstrip("\n"),
        "ROSTER",
        'hc game new "$HC_GAME" --roster roster.yaml',
    ]
    effective = set(folded.effective)
    for i in range(1, len(chain.lines)):
        entry = entries[i]
        seq = entry.get("seq")
        event = event_of(entry)
        if event == "next" and seq in effective:
            lines.append("hc game next")
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


def _command_line(entry: dict) -> str:
    """An action as the command line that takes it again: the unit, the options the player
    gave, and the seed or the dice rolled."""
    import shlex

    from hc_cli.execute import spell_option

    game = entry["game"]
    words = ["hc", entry["command"]]
    if game.get("unit"):
        words.append(game["unit"])
    for target in game.get("at") or []:
        words += ["--at", target]
    for name, value in (game.get("given") or {}).items():
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
    if game.get("anyway"):
        words.append("--anyway")
    return " ".join(shlex.quote(w) for w in words)

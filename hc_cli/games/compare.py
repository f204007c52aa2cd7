"""`hc compare` in a game: every unit that may fire now against every enemy unit it may fire
at, each cell the exact `--odds` of that very shot from the game as it stands (the same fill
and the same resolver an action uses), its numbers as the rule set's `compare_cells` reads
them, best first. Nothing is appended to the game.

The tables are loaded once for all the cells and each distinct shot (the same options after
the fill) is worked out once; the rest is each cell's own fill.
"""

from __future__ import annotations

from hc_cli.core.errors import HcError

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any


def ranges_of(
    given: tuple[str, ...] | list[str],
) -> tuple[float | str | None, dict[tuple, float | str]]:
    """`--range 14` (every pair), `--range boyz=14` (every shot at boyz), `--range
    fireteam-1:boyz=14` (one pair), each a number or a range band by its name (`short`): (the
    range for all, the range by (unit or None, target))."""
    import re

    every: float | str | None = None
    by: dict[tuple, float | str] = {}
    for text in given:
        pair, equals, number = str(text).rpartition("=")
        value: float | str
        try:
            value = float(number)
        except ValueError:
            value = number.strip().lower() if re.fullmatch(r"[a-z][a-z0-9-]*", number) else -1.0
        if isinstance(value, float) and not 0 <= value <= 100_000:
            raise HcError(
                f"--range {text}: no range",
                "give a range for every shot (--range 14), for the shots at a target (--range "
                "boyz=14) or for one pair (--range fireteam-1:boyz=14); or a range band by its "
                "name (--range short)",
            )
        if not equals:
            every = value
            continue
        unit, colon, target = pair.rpartition(":")
        by[(unit if colon else None, target)] = value
    return every, by


def at_least_of(odds: Any) -> dict[str, Any]:
    """P(at least k) of what a shot counts (its first count: kills, casualties, hits), k from
    1 to the most it can count."""
    from hc_cli.core.odds import at_least_floats

    for name, dist in odds.distributions.items():
        if dist and all(isinstance(n, int) for n in dist):
            tail = at_least_floats(dist)
            most = max(tail)
            return {"of": name, "p": {k: next((tail[n] for n in sorted(tail) if n >= k), 0.0)
                                      for k in range(1, most + 1)}}  # fmt: skip
    return {"of": None, "p": {}}


def compare(game_path: str, given: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """The matrix as data (what `--json` prints and the table is drawn from)."""
    import json

    from hc_cli.games.actions import _prepare, _resolve
    from hc_cli.games.store import open_game
    from hc_cli.plugin.execute import Call, Session

    every, by = ranges_of(given)
    game = open_game(game_path)
    rules, state = game.rules, game.folded.state
    if "fire" not in rules.unit_commands:
        raise HcError(f"a game of {game.folded.ruleset} has no fire to compare")
    session = Session()
    units = state["units"]
    cells: list[dict[str, Any]] = []
    idle: dict[str, str] = {}
    odds_of: dict[str, Any] = {}
    readings: list[str] = []
    house: list[str] = []
    samples: list[str] = []
    named = {name for pair in by for name in pair if name}
    unknown = sorted(named - set(units))
    if unknown:
        from hc_cli.core.errors import UnknownName

        error = UnknownName("unit", unknown[0], units)
        raise HcError(f"--range names {error.message} in this game", error.hint)
    for unit, me in units.items():
        for target, them in units.items():
            if them["side"] == me["side"]:
                continue
            distance = by.get((unit, target), by.get((None, target), every))
            band = distance if isinstance(distance, str) else None
            flags: dict[str, Any] = {} if distance is None or band else {"range": distance}
            call = Call("fire", game.folded.ruleset, flags, odds=True)
            try:
                prepared = _prepare(call, game, unit, [target], False, session, False)
            except HcError as error:
                idle.setdefault(unit, error.message)
                continue
            if prepared.fill.refusal:
                idle.setdefault(unit, prepared.fill.refusal)
                continue
            if distance is None:
                raise HcError(
                    f"no range for {unit} at {target}",
                    f"give one for every shot (--range 14) or for it: --range {unit}:{target}=R",
                )
            if band is not None:  # the band's farthest range: every range in it shoots alike
                distance = _band_reach(rules, game, session, prepared, unit, band)
                call = Call("fire", game.folded.ruleset, {"range": distance}, odds=True)
                prepared = _prepare(call, game, unit, [target], False, session, False)
            key = json.dumps(prepared.call.flags, sort_keys=True, default=str)
            if key not in odds_of:  # the same shot after the fill: worked out once
                try:
                    odds_of[key] = _resolve(prepared, session, None)
                except HcError as error:
                    raise HcError(f"{unit} at {target}: {error.message}", error.hint) from None
            res = odds_of[key]
            readings += [r for r in res.all_readings() if r not in readings]
            if not samples:  # what the cells read beyond the odds: from the game's tables
                from hc_cli.plugin import registry

                tables = session.tables(registry.get(game.folded.ruleset), prepared.call.rules)
                samples += rules.compare_samples(tables) or [""]
            samples += [v for v in res.sample_values if v not in samples]
            house += [h for h in res.house_rules if h not in house]
            numbers = rules.compare_cells(state, unit, target, res.odds)
            cells.append({"unit": unit, "target": target, "range": distance, "band": band,
                          **numbers, "at_least": at_least_of(res.odds)})  # fmt: skip
    columns = rules.compare_columns()
    keys = [key for key, _ in columns]
    cells.sort(key=lambda c: tuple(-(c[k] if c[k] is not None else -1) for k in keys))
    if not cells:
        raise HcError(
            "no unit may fire now",
            "; ".join(f"{u}: {why}" for u, why in list(idle.items())[:3]) or "hc status",
        )
    return {
        "game": game_path,
        "ruleset": game.folded.ruleset,
        "columns": [{"key": k, "heading": h} for k, h in columns],
        "cells": cells,
        "may_not_fire": [
            {"unit": u, "why": why}
            for u, why in idle.items()
            if u not in {c["unit"] for c in cells}
        ],  # fmt: skip
        "readings": readings,
        "house_rules": house,
        "sample_values": [v for v in samples if v],
    }


def _band_reach(rules: Any, game: Any, session: Any, prepared: Any, unit: str, band: str) -> float:
    """The farthest range of `band` for the weapon the game fills in for `unit`."""
    from hc_cli.plugin import registry

    weapon = prepared.call.flags.get("weapon")
    if not isinstance(weapon, str):
        raise HcError(
            f"--range {band}: {unit} fires no one weapon whose bands it could name",
            f"give {unit}'s range as a number: --range {unit}:TARGET=R",
        )
    tables = session.tables(registry.get(game.folded.ruleset), prepared.call.rules)
    try:
        return rules.band_reach(tables, weapon, band)
    except HcError as error:
        raise HcError(f"{unit}: {error.message}", error.hint) from None

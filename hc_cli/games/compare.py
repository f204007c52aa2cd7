"""`hc compare` in a game: every unit that may fire now against every enemy unit it may fire
at, each cell the exact `--odds` of that very shot from the game as it stands (the same fill
and the same resolver an action uses), its numbers as the rule set's `compare_cells` reads
them, best first. Nothing is appended to the game.

The tables are loaded once for all the cells and each distinct shot (the same options after
the fill) is worked out once; the rest is each cell's own fill.
"""

from __future__ import annotations

from hc_cli.core.errors import HcError, OutOfRange

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

MOST_RANGE = 100_000
_RANGE_HINT = (
    "give a range for every shot (--range 14), for the shots at a target (--range boyz=14) or "
    "for one pair (--range fireteam-1:boyz=14), 0..100,000; or a range band by its name "
    "(hc compare --help names them)"
)


def ranges_of(
    given: tuple[str, ...] | list[str],
) -> tuple[float | str | None, dict[tuple, float | str]]:
    """`--range 14` (every pair), `--range boyz=14` (every shot at boyz), `--range
    fireteam-1:boyz=14` (one pair), each a number or a range band by its name (`short`): (the
    range for all, the range by (unit or None, target)). The same shots given twice are an
    error, not the last silently winning."""
    import re

    every: float | str | None = None
    by: dict[tuple, float | str] = {}
    for text in given:
        pair, equals, number = str(text).rpartition("=")
        number = number.strip().lower()
        value: float | str
        try:
            value = float(number)
            if value != value:  # nan: no number at all
                raise ValueError
        except ValueError:
            if not re.fullmatch(r"[a-z][a-z0-9-]*", number) or number == "nan":
                raise HcError(f"--range {text}: '{number}' is no range", _RANGE_HINT) from None
            value = number
        if isinstance(value, float) and not 0 <= value <= MOST_RANGE:
            raise HcError(f"--range {text}: {number} is past 0..{MOST_RANGE:,}", _RANGE_HINT)
        unit, colon, target = pair.rpartition(":")
        if equals and (not target.strip() or (colon and not unit.strip())):
            raise HcError(f"--range {text}: no unit or target before =", _RANGE_HINT)
        key = (unit.strip() if colon else None, target.strip()) if equals else None
        if (key is None and every is not None) or (key is not None and key in by):
            raise HcError(f"--range {text}: the same shots are given a range twice",
                          "give each shot's range once")  # fmt: skip
        if key is None:
            every = value
        else:
            by[key] = value
    return every, by


def at_least_of(distributions: Any, prefer: str = "") -> dict[str, Any]:
    """P(at least k) of what a shot counts (`prefer`, else its first count: kills, casualties,
    hits), k from 1 to the most it can count."""
    from hc_cli.core.odds import at_least_floats

    counts = [(name, dist) for name, dist in distributions.items()
              if dist and all(isinstance(n, int) for n in dist)]  # fmt: skip
    counts.sort(key=lambda c: c[0] != prefer)
    for name, dist in counts:
        tail = at_least_floats(dist)
        most = max(tail)
        return {"of": name, "p": {k: next((tail[n] for n in sorted(tail) if n >= k), 0.0)
                                  for k in range(1, most + 1)}}  # fmt: skip
    return {"of": None, "p": {}}


def _reason(why: list[tuple[str, str]]) -> str:
    """Why a unit may fire at none: the reason every target gives, if one; else one that
    names no target (its own: it fired already); else the first, with its target."""
    reasons = {text for _, text in why}
    if len(reasons) == 1:
        return reasons.pop()
    own = [text for target, text in why if target not in text]
    return (own or [f"at {t}: {w}" for t, w in why])[0]


def _short(text: str) -> str:
    """A reason's first clause (up to its first ': ' or '; '), if it says something alone."""
    cuts = [i for mark in ("; ", ": ") for i in [text.find(mark, 12)] if i >= 0]
    return text[: min(cuts)] if cuts else text


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
    refused: dict[str, list[tuple[str, str]]] = {}
    no_shot: list[dict[str, Any]] = []
    odds_of: dict[str, Any] = {}
    readings: list[str] = []
    house: list[str] = []
    samples: list[str] = []
    used: set[tuple] = set()
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
            key = next((k for k in ((unit, target), (None, target)) if k in by), None)
            distance = by[key] if key is not None else every
            band = distance if isinstance(distance, str) else None
            flags: dict[str, Any] = {} if distance is None or band else {"range": distance}
            call = Call("fire", game.folded.ruleset, flags, odds=True)
            try:
                prepared = _prepare(call, game, unit, [target], False, session, False)
            except HcError as error:
                refused.setdefault(unit, []).append((target, error.message))
                continue
            if prepared.fill.refusal:
                refused.setdefault(unit, []).append((target, prepared.fill.refusal))
                continue
            if key is not None:
                used.add(key)
            if distance is None:
                raise HcError(
                    f"no range for {unit} at {target}",
                    f"give one for every shot (--range 14) or for it: --range {unit}:{target}=R",
                )
            if band is not None:  # the band's farthest range: every range in it shoots alike
                distance = _band_reach(rules, game, session, prepared, unit, band)
                call = Call("fire", game.folded.ruleset, {"range": distance}, odds=True)
                prepared = _prepare(call, game, unit, [target], False, session, False)
            shot = json.dumps(prepared.call.flags, sort_keys=True, default=str)
            if shot not in odds_of:  # the same shot after the fill: worked out once
                try:
                    odds_of[shot] = _resolve(prepared, session, None)
                except OutOfRange as error:  # no shot, the others stand
                    odds_of[shot] = error
                except HcError as error:
                    raise HcError(f"{unit} at {target}: {error.message}", error.hint) from None
            res = odds_of[shot]
            if isinstance(res, HcError):
                no_shot.append({"unit": unit, "target": target, "range": distance,
                                "band": band, "why": res.message})  # fmt: skip
                continue
            readings += [r for r in res.all_readings() if r not in readings]
            house += [h for h in res.house_rules if h not in house]
            if not samples:  # what the cells read beyond the odds: from the game's tables
                from hc_cli.plugin import registry

                tables = session.tables(registry.get(game.folded.ruleset), prepared.call.rules)
                samples += rules.compare_samples(tables) or [""]
            samples += [v for v in res.sample_values if v not in samples]
            numbers = rules.compare_cells(state, unit, target, res.odds)
            counted = numbers.pop("_counted", None)  # the count as the game caps it
            counts = res.odds.distributions if counted is None else dict([counted])
            at_least = at_least_of(counts, rules.compare_count)
            cells.append({"unit": unit, "target": target, "range": distance, "band": band,
                          **numbers, "at_least": at_least})  # fmt: skip
    columns = rules.compare_columns()
    keys = [key for key, _ in columns]
    cells.sort(key=lambda c: tuple(-(c[k] if c[k] is not None else -1) for k in keys))
    shooting = {c["unit"] for c in cells} | {s["unit"] for s in no_shot}
    idle = {u: why for u, why in refused.items() if u not in shooting}
    if not cells:
        if no_shot:
            first = no_shot[0]
            raise HcError(f"{first['unit']} at {first['target']}: {first['why']}",
                          "give a range within the weapons' bands")  # fmt: skip
        raise HcError(
            "no unit may fire now",
            "; ".join(f"{u}: {_short(_reason(why))}" for u, why in idle.items()) or "hc status",
        )
    unused = [f"{k[0] + ':' if k[0] else ''}{k[1]}={v:g}" if isinstance(v, float)
              else f"{k[0] + ':' if k[0] else ''}{k[1]}={v}"
              for k, v in by.items() if k not in used]  # fmt: skip
    return {
        "game": game_path,
        "ruleset": game.folded.ruleset,
        "columns": [{"key": k, "heading": h} for k, h in columns],
        "cells": cells,
        "no_shot": no_shot,
        "may_not_fire": [
            {"unit": u, "why": _reason(why), "short": _short(_reason(why))}
            for u, why in idle.items()
        ],
        "unused_ranges": unused,
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

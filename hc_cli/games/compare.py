"""`hc compare` in a game: every unit that may fire now against every enemy unit it may fire
at, each cell the exact `--odds` of that very shot from the game as it stands (the same fill
and the same resolver an action uses), its numbers as the rule set's `compare_cells` reads
them, best first. Nothing is appended to the game.

The tables are loaded once for all the cells and each distinct shot (the same options after
the fill) is worked out once; the rest is each cell's own fill. `--unit` and `--at` narrow the
pairs; a compare estimated at more than a few seconds is refused before any of it is done.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from hc_cli.core.errors import HcError, MissingOption, OutOfRange
from hc_cli.plugin.execute import Call

if TYPE_CHECKING:
    from fractions import Fraction

    from hc_cli.core.model import Resolution
    from hc_cli.games.actions import Prepared
    from hc_cli.games.roster import Rules
    from hc_cli.games.store import Game
    from hc_cli.plugin.execute import Session

    Range = float | str  # a range in its units, or a range band by its name

V = TypeVar("V")
MOST_RANGE = 100_000
_RANGE_HINT = (
    "give a range for every shot (--range 14), for the shots at a target (--range boyz=14) or "
    "for one pair (--range fireteam-1:boyz=14), 0..100,000; or a range band by its name "
    "(hc compare --help names them)"
)


_UNDER_HINT = (
    "give the figures under a template for every template shot (--under 3), for those at a "
    "target (--under boyz=3) or for one pair (--under support:boyz=3), a whole number from 1"
)


def ranges_of(
    given: tuple[str, ...] | list[str],
) -> tuple[float | str | None, dict[tuple[str | None, str], float | str]]:
    """`--range 14` (every pair), `--range boyz=14` (every shot at boyz), `--range
    fireteam-1:boyz=14` (one pair), each a number or a range band by its name (`short`): (the
    range for all, the range by (unit or None, target)). The same shots given twice are an
    error, not the last silently winning."""
    return _by_shot(given, ("--range", "a range"), _range_of, _RANGE_HINT)


def unders_of(
    given: tuple[str, ...] | list[str],
) -> tuple[int | None, dict[tuple[str | None, str], int]]:
    """`--under 3`, `--under boyz=3`, `--under support:boyz=3`: the figures under the template
    of every template shot, of those at a target, of one pair, as `ranges_of` reads ranges."""
    return _by_shot(given, ("--under", "a count under the template"), _under_of, _UNDER_HINT)


def _range_of(text: str, number: str) -> float | str:
    import re

    try:
        value = float(number)
        if value != value:  # nan: no number at all
            raise ValueError
    except ValueError:
        if not re.fullmatch(r"[a-z][a-z0-9-]*", number) or number == "nan":
            raise HcError(f"--range {text}: '{number}' is no range", _RANGE_HINT) from None
        return number
    if not 0 <= value <= MOST_RANGE:
        raise HcError(f"--range {text}: {number} is past 0..{MOST_RANGE:,}", _RANGE_HINT)
    return value


def _under_of(text: str, number: str) -> int:
    if not number.isdigit() or int(number) < 1:
        raise HcError(f"--under {text}: '{number}' is no number of figures", _UNDER_HINT)
    return int(number)


def _by_shot(
    given: tuple[str, ...] | list[str],
    named: tuple[str, str],
    value_of: Callable[[str, str], V],
    hint: str,
) -> tuple[V | None, dict[tuple[str | None, str], V]]:
    """An option given for every pair (14), every shot at a target (boyz=14) or one pair
    (fireteam-1:boyz=14): (the value for all, the values by (unit or None, target))."""
    option, noun = named
    every: V | None = None
    by: dict[tuple[str | None, str], V] = {}
    for text in given:
        pair, equals, number = str(text).rpartition("=")
        value = value_of(text, number.strip().lower())
        unit, colon, target = pair.rpartition(":")
        if equals and (not target.strip() or (colon and not unit.strip())):
            raise HcError(f"{option} {text}: no unit or target before =", hint)
        key = (unit.strip() if colon else None, target.strip()) if equals else None
        if (key is None and every is not None) or (key is not None and key in by):
            raise HcError(f"{option} {text}: the same shots are given {noun} twice",
                          f"give each shot's {option} once")  # fmt: skip
        if key is None:
            every = value
        else:
            by[key] = value
    return every, by


def at_least_of(
    distributions: Mapping[str, Mapping[Any, Fraction]], prefer: str = ""
) -> dict[str, Any]:
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
    """A reason's first clause (up to its first ': ' or '; ' outside brackets, which name a
    reading or a hint whole), if it says something alone."""
    depth = 0
    for i, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if not depth and i >= 12 and text[i : i + 2] in ("; ", ": "):
            return text[:i]
    return text


def compare(
    game_path: str,
    given: tuple[str, ...] | list[str],
    firing: tuple[str, ...] = (),
    at: tuple[str, ...] = (),
    under: tuple[str, ...] = (),
    shots: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The matrix as data (what `--json` prints and the table is drawn from): every pair of a
    unit and an enemy unit, or those of the units `firing` and the targets `at`; `under` the
    figures under a template shot's template (as `given` the ranges); `shots` the kinds of shot
    compared (Twilight: 2000), each a row of its own: every kind the weapon fires if none."""
    from hc_cli.games.store import open_game

    every, by = ranges_of(given)
    unders = unders_of(under)
    game = open_game(game_path)
    rules, state = game.rules, game.folded.state
    if "fire" not in rules.unit_commands:
        raise HcError(f"a game of {game.folded.ruleset} has no fire to compare")
    over = rules.over(state)
    if over is not None:  # no shot is left to weigh
        raise HcError(f"{over}: no shot to compare", "hc undo takes back the last action")
    _check_shots(rules, game.folded.ruleset, shots)
    units = state["units"]
    named = {n for pair in (*by, *unders[1]) for n in pair if n}
    for option, names in (("--range or --under", named), ("--unit", firing),
                          ("--at", at)):  # fmt: skip
        unknown = sorted(set(names) - set(units))
        if unknown:
            from hc_cli.core.errors import UnknownName

            error = UnknownName("unit", unknown[0], units)
            raise HcError(f"{option} names {error.message} in this game", error.hint)
    pairs = [(unit, target) for unit, me in units.items() if not firing or unit in firing
             for target, them in units.items() if them["side"] != me["side"]
             and (not at or target in at)]  # fmt: skip
    kinds = len(shots) if shots else max(1, len(rules.shot_kinds))  # each kind of shot a row
    _within_reach(len(pairs) * kinds, len(units), firing, at)
    matrix = _Matrix(game, unders, shots)
    for unit, target in pairs:
        key = next((k for k in ((unit, target), (None, target)) if k in by), None)
        matrix.shot(unit, target, key, by[key] if key is not None else every)
    cells, no_shot = matrix.cells, matrix.no_shot
    columns = rules.compare_columns()
    keys = [key for key, _ in columns]
    cells.sort(key=lambda c: tuple(-(c[k] if c[k] is not None else -1) for k in keys))
    shooting = {c["unit"] for c in cells} | {s["unit"] for s in no_shot}
    idle = {u: why for u, why in matrix.refused.items() if u not in shooting}
    if not cells and not matrix.needs:
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
              for k, v in by.items() if k not in matrix.used]  # fmt: skip
    unused_under = [f"{k[0] + ':' if k[0] else ''}{k[1]}={v}" for k, v in unders[1].items()
                    if k not in matrix.used_under]  # fmt: skip
    return {
        "game": game_path,
        "ruleset": game.folded.ruleset,
        "columns": [{"key": k, "heading": h} for k, h in columns],
        "cells": cells,
        "no_shot": no_shot,
        "needs": matrix.needs,
        "may_not_fire": [
            {"unit": u, "why": _reason(why), "short": _short(_reason(why))}
            for u, why in idle.items()
        ],
        "unused_ranges": unused,
        "unused_unders": unused_under,
        "readings": matrix.readings,
        "house_rules": matrix.house,
        "sample_values": [v for v in matrix.samples if v],
    }


# The work of a compare: each pair of a unit and a target is filled in from the game (on a copy
# of its state, so the longer the roster the dearer), worked out and drawn. Measured in CPU
# time on 2 shared cores (bench/compare_scale.py): 200 units, 25 firing (2,500 pairs): 2.4 to
# 2.9 s; 500 units, 5 firing (1,250 pairs): 2.7 to 3.2 s, 10 firing: 4.2 to 5.6 s; every pair of
# 500 units (125,000): 272 s. About 0.7 ms a pair and 2.5 us more a unit of the roster, with a
# margin. A compare estimated past MOST_WORK is refused before any of it is done, saying how to
# narrow it, so that what is taken answers within 5 s, hc's start included.
MOST_WORK = 4.0  # seconds
PAIR_COST, UNIT_COST = 0.7e-3, 2.5e-6


def _within_reach(pairs: int, units: int, firing: tuple[str, ...], at: tuple[str, ...]) -> None:
    """A compare that would take more than MOST_WORK is refused before any of it is done."""
    each = PAIR_COST + UNIT_COST * units
    if pairs * each <= MOST_WORK:
        return
    chosen = " and".join(
        said for said, given in (("of the units given", firing), ("at the targets given", at))
        if given
    )  # fmt: skip
    raise HcError(
        f"{pairs:,} shots {chosen or 'of every unit at every enemy'} in a game of {units} units "
        f"would take about {pairs * each:,.1f} s to compare: hc compares up to "
        f"{int(MOST_WORK / each):,} at once in a game this size (about {MOST_WORK:g} s)",
        "narrow it: the shots of some units (--unit NAME, repeatable) or at some targets (--at "
        "NAME, repeatable)",
    )


class _BadUnder(HcError):
    """An --under the target cannot have: the compare is refused, not the shot."""


class _Matrix:
    """The cells of the matrix as they are worked out, and what they read and refuse."""

    def __init__(
        self, game: Game, unders: tuple[int | None, dict[Any, int]], shots: tuple[str, ...]
    ) -> None:
        from hc_cli.plugin.execute import Session

        self.game, self.session = game, Session()
        self.unders, self.shots = unders, shots
        self.cells: list[dict[str, Any]] = []
        self.refused: dict[str, list[tuple[str, str]]] = {}
        self.no_shot: list[dict[str, Any]] = []
        self.needs: list[dict[str, Any]] = []
        self.odds_of: dict[str, Resolution | HcError] = {}
        self.readings: list[str] = []
        self.house: list[str] = []
        self.samples: list[str] = []
        self.used: set[tuple[str | None, str]] = set()
        self.used_under: set[tuple[str | None, str]] = set()

    def _prepare(self, unit: str, target: str, flags: dict[str, Any]) -> Prepared:
        """The shot filled in from the game; a template or area marker shot with the figures
        under it that --under gives, or 1 to learn whether it may fire at all (it then needs
        --under). An --under the target cannot have is refused, as `hc fire` refuses it."""
        from hc_cli.plugin.game_rules import possessive

        every, by = self.unders
        key = next((k for k in ((unit, target), (None, target)) if k in by), None)
        under = by[key] if key is not None else every
        try:
            prepared = self._fill(unit, target, flags)
        except MissingOption as error:
            if error.option != "--under":
                raise
            asked = error
        else:
            weapon = prepared.call.flags.get("weapon")
            if (
                not isinstance(weapon, str)
                or "under" in flags
                or not self.game.rules.compare_marker(self._tables(prepared), weapon)
            ):
                return prepared
            if prepared.fill.refusal:  # it may not fire: the --under given for it is used
                self.used_under.update([key] if key is not None else [])
                return prepared
            asked = MissingOption(
                "--under",
                f"{unit} fires {weapon}, an area weapon: how many of {possessive(target)} "
                "models are under its marker?",
                "give --under N (each model under it is a target)",
            )
        try:
            prepared = self._fill(unit, target, {**flags, "under": under or 1})
        except HcError as error:
            if under is None:
                raise
            if key is None:  # --under 3 for every shot: this target has fewer; the pair waits
                raise MissingOption(  # for its own (found in play: the compare was refused)
                    "--under", f"--under {under}: {error.message}",
                    f"give this one its own: --under {target}=N",
                ) from None  # fmt: skip
            given = f"{key[0] + ':' if key[0] else ''}{key[1]}={under}"
            raise _BadUnder(f"--under {given}: {unit} at {target}: {error.message}",
                            error.hint) from None  # fmt: skip
        if under is None and not prepared.fill.refusal:
            raise asked
        if key is not None:
            self.used_under.add(key)
        return prepared

    def _fill(self, unit: str, target: str, flags: dict[str, Any]) -> Prepared:
        from hc_cli.games.actions import prepare

        call = Call("fire", self.game.folded.ruleset, dict(flags), odds=True)
        return prepare(call, self.game, unit, [target], False, self.session, False)

    def shot(
        self, unit: str, target: str, key: tuple[str | None, str] | None, distance: Range | None
    ) -> None:
        """The cells of `unit` firing at `target` at `distance` (a range band by its name: its
        farthest range), a cell a kind of shot its weapon fires, or why there is none."""
        game, rules = self.game, self.game.rules
        band = distance if isinstance(distance, str) else None
        instead = rules.compare_instead(game.folded.state, unit, target)
        label, firer, more = instead if instead is not None else (None, unit, {})
        flags: dict[str, Any] = {} if distance is None or band else {"range": distance}
        flags.update(more)
        try:
            prepared = self._prepare(firer, target, flags)
        except MissingOption as error:
            self.needs.append({"unit": unit, "target": target, "needs": error.option,
                               "why": error.message})  # fmt: skip
            return
        except _BadUnder:
            raise
        except HcError as error:
            self.refused.setdefault(unit, []).append((target, error.message))
            return
        if prepared.fill.refusal:
            self.refused.setdefault(unit, []).append((target, prepared.fill.refusal))
            return
        if key is not None:
            self.used.add(key)
        if distance is None:
            raise HcError(
                f"no range for {unit} at {target}",
                f"give one for every shot (--range 14) or for it: --range {unit}:{target}=R",
            )
        if band is not None:  # the band's farthest range: every range in it shoots alike
            distance = _band_reach(rules, game, self.session, prepared, unit, band)
            prepared = self._prepare(firer, target, {"range": distance, **more})
        weapon = prepared.call.flags.get("weapon")
        fires = (
            rules.compare_shots(self._tables(prepared), weapon) if isinstance(weapon, str) else ()
        )
        kinds = [k for k in fires if not self.shots or k in self.shots] if fires else [None]
        for kind in kinds:
            if kind is not None:
                prepared = self._prepare(firer, target, {"range": distance, "shot": kind, **more})
            self._cell(prepared, firer, target, distance, band, kind or label)
        for kind in [k for k in self.shots if fires and k not in fires]:
            why = f"{weapon} fires no {kind} shot"
            self.no_shot.append({"unit": unit, "target": target, "range": distance,
                                 "band": band, "shot": kind, "why": why})  # fmt: skip

    def _tables(self, prepared: Prepared) -> Any:
        from hc_cli.plugin import registry

        ruleset = registry.get(self.game.folded.ruleset)
        return self.session.tables(ruleset, prepared.call.rules)

    def _cell(
        self, prepared: Prepared, unit: str, target: str, distance: Range, band: str | None,
        kind: str | None,
    ) -> None:  # fmt: skip
        """The cell of one shot from its odds, or why it is no shot."""
        rules = self.game.rules
        shot = {"shot": kind} if kind is not None else {}
        res = self._odds(prepared, unit, target)
        if isinstance(res, HcError):
            self.no_shot.append({"unit": unit, "target": target, "range": distance,
                                 "band": band, **shot, "why": res.message})  # fmt: skip
            return
        assert res.odds is not None
        self.readings += [r for r in res.all_readings() if r not in self.readings]
        self.house += [h for h in res.house_rules if h not in self.house]
        if not self.samples:  # what the cells read beyond the odds: from the game's tables
            self.samples += rules.compare_samples(self._tables(prepared)) or [""]
        self.samples += [v for v in res.sample_values if v not in self.samples]
        numbers = rules.compare_cells(self.game.folded.state, unit, target, res.odds)
        counted = numbers.pop("_counted", None)  # the count as the game caps it
        counts = res.odds.distributions if counted is None else dict([counted])
        at_least = at_least_of(counts, rules.compare_count)
        self.cells.append({"unit": unit, "target": target, "range": distance, "band": band,
                           **shot, **numbers, "at_least": at_least})  # fmt: skip

    def _odds(self, prepared: Prepared, unit: str, target: str) -> Resolution | HcError:
        """The shot's odds: the same shot after the fill is worked out once."""
        import json

        from hc_cli.games.actions import resolve

        shot = json.dumps(prepared.call.flags, sort_keys=True, default=str)
        if shot not in self.odds_of:
            try:
                self.odds_of[shot] = resolve(prepared, self.session, None)
            except OutOfRange as error:  # no shot, the others stand
                self.odds_of[shot] = error
            except HcError as error:
                raise HcError(f"{unit} at {target}: {error.message}", error.hint) from None
        return self.odds_of[shot]


def _check_shots(rules: Rules, ruleset: str, shots: tuple[str, ...]) -> None:
    """--shot names the rule set's kinds of shot (Twilight: 2000's; the others have none)."""
    kinds = rules.shot_kinds
    for kind in shots:
        if kind not in kinds:
            raise HcError(
                f"--shot {kind}: " + (f"no kind of shot of {ruleset}" if kinds else
                                      f"a game of {ruleset} has no kinds of shot"),
                f"give {', '.join(kinds)}" if kinds else "leave out --shot",
            )  # fmt: skip


def _band_reach(
    rules: Rules, game: Game, session: Session, prepared: Prepared, unit: str, band: str
) -> float:
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

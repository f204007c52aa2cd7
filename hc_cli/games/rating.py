"""Each action of a game file (those in effect) or of a log, resolved again with `--odds`
through the same code that rolled it (`hc_cli.plugin.execute`), and rated by its rule set's
`LUCK` measure (`hc_cli.plugin.declare.Luck`) for the side that acted: the chance of a result
no better, of one no worse, the expected value, and its luck, the result's mid-percentile
less a half (P(worse) + P(the same)/2 - 1/2: 0 on average under fair dice, whatever the
measure). The faces of dice a player entered by hand (--dice, --dice ask) are counted for
`hc_cli.games.luck` to test.

The file is read once, an entry at a time, and each rated action is handed on as it is rated
(`Report.rate`), none kept: what a report keeps of them is its own business.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError

if TYPE_CHECKING:
    from hc_cli.core.model import Odds
    from hc_cli.plugin.declare import Luck


@dataclass(slots=True)
class Rated:
    """One action's result in its own distribution, for one side."""

    seq: int
    command: str
    unit: str | None
    side: str | None
    period: str
    measure: str  # what is counted ("kills") or ranked ("outcome")
    value: Any  # the result: the count, or the outcome word
    expected: float | None  # the expected count (a count's measure only)
    below: Fraction  # P(a worse result)
    equal: Fraction  # P(this very result)
    scores: dict[Fraction, Fraction]  # the action's luck under fair dice: luck -> P
    view: str = "acted"  # "acted", or "target" (a contest), or "roll-off"
    counted: bool = True  # in the whole game's sum (a contest's other side is not)
    reroll: int | None = None  # re-rolled as both players agreed: the entry set aside
    override: str | None = None  # taken with options in place of the game's (--anyway)

    @property
    def luck(self) -> Fraction:
        """P(worse) + P(the same)/2 - 1/2: 0 on average with fair dice."""
        return _luck_of(self.below, self.equal)

    def to_dict(self) -> dict[str, Any]:
        no_better, no_worse, luck = _shown(self.below, self.equal)
        d: dict[str, Any] = {
            "entry": self.seq,
            "command": self.command,
            "unit": self.unit,
            "side": self.side,
            "period": self.period,
            "measure": self.measure,
            "value": self.value,
            "expected": self.expected,
            "p_no_better": no_better,
            "p_no_worse": no_worse,
            "luck": luck,
            "view": self.view,
        }
        if self.reroll is not None:
            d["reroll_of"] = self.reroll
        if self.override is not None:
            d["override"] = self.override
        return d


_LUCK: dict[tuple[Fraction, Fraction], Fraction] = {}
_SHOWN: dict[tuple[Fraction, Fraction], tuple[float, float, float]] = {}


def _luck_of(below: Fraction, equal: Fraction) -> Fraction:
    found = _LUCK.get((below, equal))
    if found is None:
        found = _LUCK[below, equal] = below + equal / 2 - Fraction(1, 2)
    return found


def _shown(below: Fraction, equal: Fraction) -> tuple[float, float, float]:
    """P(no better), P(no worse) and the luck as floats: worked out once, and the same three
    numbers shared by every action placed alike (a long game repeats itself)."""
    found = _SHOWN.get((below, equal))
    if found is None:
        luck = float(_luck_of(below, equal))
        found = _SHOWN[below, equal] = (float(below + equal), float(1 - below), luck)
    return found


@dataclass(slots=True)
class Report:
    """What a file's reading keeps (small, or one line of the report each); each rated action
    goes to `rate` as it is rated."""

    path: str
    kind: str  # "game" or "log"
    ruleset: str
    rate: Callable[[Rated], None]
    rated: int = 0  # the actions handed to `rate`
    not_rated: list[dict[str, Any]] = field(default_factory=list)
    faces: dict[str, list[int]] = field(default_factory=dict)  # a die -> its faces' counts
    rerolls: list[dict[str, Any]] = field(default_factory=list)
    agreed: list[dict[str, Any]] = field(default_factory=list)  # re-takes both players agreed to
    overrides: list[dict[str, Any]] = field(default_factory=list)  # actions taken with --anyway
    forfeits: list[dict[str, Any]] = field(default_factory=list)  # sealed rolls given up, committed
    given_up: dict[str, dict[str, int]] = field(default_factory=dict)  # abandons, forfeits by side


# ---------------------------------------------------------------------------------------------
# Reading the file


def _first_entry(path: str) -> dict[str, Any]:
    import json

    from hc_cli.tables.files import shown_path

    try:
        with open(path, "rb") as f:
            line = f.readline(4_000_000)
    except IsADirectoryError:
        raise HcError(f"{shown_path(path)} is a folder", "give a game file or a log") from None
    except OSError as error:
        raise HcError(f"cannot read {shown_path(path)}: {error.strerror}") from None
    try:
        entry = json.loads(line) if line.strip() else None
    except (ValueError, RecursionError):
        entry = None
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        empty = "is empty" if not line.strip() else "is neither a game file nor a log of hc's"
        raise HcError(
            f"{shown_path(path)} {empty}",
            "give a game file (hc game new) or a log written by --log",
        )
    return entry


def read(path: str, rate: Callable[[Rated], None], ruleset_in_force: str | None = None) -> Report:
    """Every action of the game file or log at `path` rated, each handed to `rate` as it comes,
    with the faces of hand-entered dice; `ruleset_in_force` (a log chosen with --ruleset): a
    log of another is refused."""
    first = _first_entry(path)
    if first.get("command") == "game":
        return _read_game(path, rate)
    ruleset = str(first.get("ruleset"))
    if ruleset_in_force is not None and ruleset != ruleset_in_force:
        raise HcError(
            f"{path} is a log of {ruleset}, not of {ruleset_in_force}",
            f"leave out --ruleset, or give --ruleset {ruleset}",
        )
    return _read_log(path, ruleset, rate)


def _read_game(path: str, rate: Callable[[Rated], None]) -> Report:
    from hc_cli.games.fold import fold
    from hc_cli.games.scan import read_chain
    from hc_cli.games.seal_protocol import given_up
    from hc_cli.games.store import Game, check_newest, check_newest_retake, unreadable

    report = Report(path, "game", "", rate)
    sides: dict[str, str] = {}  # a unit -> its side
    raters: list[_Rater] = []
    most: dict[Any, int | None] = {}  # an action -> the most of its count the target had left

    def each(entry: dict[str, Any], notes: list[str], undone: bool, period: str) -> None:
        if not raters:  # the roster, which the fold has checked
            report.ruleset = str(entry["ruleset"])
            roster = entry["game"]["roster"]
            sides.update({u: side for side, units in roster["sides"].items() for u in units})
            raters.append(_Rater(report.ruleset, list(roster["sides"])))
        elif entry.get("command") != "game" and not undone:
            raters[0].take(report, entry, period, sides, most.pop(entry.get("seq"), None))
        most.pop(entry.get("seq"), None)

    def before(state: dict[str, Any], entry: dict[str, Any], number: int) -> None:
        measure = raters[0].luck.get(entry.get("command")) if raters else None
        at = _mapping(entry.get("game")).get("at")
        if measure is not None and measure.count and isinstance(at, list) and len(at) == 1:
            with unreadable(path):  # what the target had left: no count made can pass it
                most[entry.get("seq")] = raters[0].rules.most(state, str(at[0]), measure.count)

    chain = read_chain(path)
    folded = fold(chain, path, each, check=before)
    game = Game(path, chain, folded)
    check_newest(game)  # as every command holds it (`before` spares it)
    check_newest_retake(game)
    report.given_up = given_up(folded.state)
    for number, seal in (folded.state.get("seals") or {}).items():
        if seal["done"] == "forfeit":
            action = seal["action"]
            report.forfeits.append({"entry": int(number), "unit": action.get("unit"),
                                    "command": action.get("command")})  # fmt: skip
    return report


def _read_log(path: str, ruleset: str, rate: Callable[[Rated], None]) -> Report:
    from hc_cli.log.chain import log_key
    from hc_cli.log.reader import LogReader

    report = Report(path, "log", ruleset, rate)
    raters: dict[str, _Rater] = {}  # a log may hold entries of several rule sets
    period = ""
    broken = []
    for event in LogReader(path, log_key()):
        if event.kind != "entry":
            broken.append(event.message)
            continue
        entry = event.entry
        name = str(entry.get("ruleset"))
        if name not in raters:
            try:
                raters[name] = _Rater(name, [])
            except HcError as error:
                report.not_rated.append({"entry": entry.get("seq"),
                                         "command": str(entry.get("command")),
                                         "why": f"not rated: {error.message}"})  # fmt: skip
                continue
        rater = raters[name]
        first = ((int(entry.get("seq") or 1) - 1) // 10) * 10 + 1
        if period != f"entries {first}-{first + 9}":  # one string for the ten entries
            period = f"entries {first}-{first + 9}"
        rater.take(report, entry, period, {})
    if broken and not report.rated and not report.not_rated:
        raise HcError(f"{path}: {broken[0]}", "hc replay FILE lists every problem")
    return report


class _Rater:
    """Rates entries of one rule set: the odds of each distinct action worked out once."""

    def __init__(self, ruleset: str, sides: list[str]) -> None:
        from hc_cli.games.roster import game_rules
        from hc_cli.plugin import registry
        from hc_cli.plugin.execute import Session

        self.ruleset = registry.get(ruleset)
        self.luck = getattr(self.ruleset.module, "LUCK", {})
        self.rules = game_rules(ruleset)
        self.sides = sides
        self.session = Session()
        self.odds: dict[str, Any] = {}
        self.placed: dict[str, list[dict[str, Any]]] = {}

    def take(
        self,
        report: Report,
        entry: dict[str, Any],
        period: str,
        sides: dict[str, str],
        most: int | None = None,
    ) -> None:
        seq = entry["seq"] if type(entry.get("seq")) is int else 0
        command = sys.intern(str(entry.get("command")))  # one string, however many actions
        result, game = _mapping(entry.get("result")), _mapping(entry.get("game"))
        unit = game.get("unit") if isinstance(game.get("unit"), str) else None
        reroll = game.get("reroll") if isinstance(game.get("reroll"), int) else None
        side = sides.get(unit.partition(":")[0]) if unit else None  # a model's is its unit's
        override = _agreements(report, seq, unit, side, game)

        def skip(why: str) -> None:
            report.not_rated.append({"entry": seq, "command": command, "unit": unit, "why": why})

        if entry.get("odds"):
            return  # a question of odds rolled nothing
        if entry.get("dice"):
            _count_faces(report.faces, _rolls(result))
        if reroll is not None:
            report.rerolls.append({"entry": seq, "sets_aside": reroll, "unit": unit,
                                   "side": side})  # fmt: skip
        measure = self.luck.get(command)
        if measure is None:
            if command == "roll":
                skip("not rated: a plain roll of dice (which way is better, the players know)")
            elif result.get("rolls"):
                skip(f"not rated: {command} has no measure of luck in {self.ruleset.name}")
            return
        try:
            odds = self._odds(entry)
        except HcError as error:
            skip(f"not rated: {error.message}")
            return
        at = game.get("at") if isinstance(game.get("at"), list) else []
        target = str(at[0]).partition(":")[0] if at else None
        import json

        roll_off = self._sides(entry)
        summary = _mapping(result.get("summary"))
        # The same action with the same result is placed once (a long game repeats itself).
        key = json.dumps(
            [id(odds), result.get("outcome"), measure.count and summary.get(measure.count),
             measure.count and result.get(measure.count.partition(" ")[0]), unit, side,
             target, roll_off, most], default=str,
        )  # fmt: skip
        try:
            if key not in self.placed:
                self.placed[key] = _views(measure, odds, result, unit, side, target, sides,
                                          roll_off, most)  # fmt: skip
            views = self.placed[key]
        except _NotRated as why:
            skip(str(why))
            return
        for view in views:
            report.rate(Rated(seq=seq, command=command, period=period, reroll=reroll,
                              override=override, **view))  # fmt: skip
            report.rated += 1

    def _sides(self, entry: dict[str, Any]) -> list[str]:
        flagged = _mapping(entry.get("flags")).get("side")
        return self.sides or [str(s) for s in flagged or ()]

    def _odds(self, entry: dict[str, Any]) -> Any:
        import json

        from hc_cli.log.replay import rules_files
        from hc_cli.plugin.execute import Call, execute

        rules, _ = rules_files(entry.get("rules"), {})
        flags = _mapping(entry.get("flags"))
        key = json.dumps([entry.get("command"), flags, rules], sort_keys=True, default=str)
        if key not in self.odds:
            call = Call(str(entry.get("command")), self.ruleset.name, dict(flags), odds=True,
                        rules=rules)  # fmt: skip
            res = execute(call, self.session)
            if res.odds is None:
                raise HcError("its odds are not known")
            self.odds[key] = res.odds
        return self.odds[key]


class _NotRated(Exception):
    pass


def _agreements(
    report: Report, seq: int, unit: str | None, side: str | None, game: dict[str, Any]
) -> str | None:
    """An action taken in place of one taken back as both players agreed, and one taken with
    options in place of what the game holds (--anyway), noted in the report; the override in
    words (None: none)."""
    agreed = _mapping(game.get("agreed"))
    if type(agreed.get("undone")) is int:
        changed = [str(c) for c in agreed.get("changed") or [] if isinstance(c, str)]
        report.agreed.append({"entry": seq, "in_place_of": agreed["undone"], "changed": changed,
                              "unit": unit, "side": side})  # fmt: skip
    found = game.get("overrides")
    overrides = [str(o) for o in found if isinstance(o, str)] if isinstance(found, list) else []
    if overrides:
        report.overrides.append({"entry": seq, "overrides": overrides, "unit": unit,
                                 "side": side})  # fmt: skip
    return "; ".join(overrides) or None


def _mapping(value: object) -> dict[str, Any]:
    """A part of an entry read as a mapping: whatever a hand-edited log holds, never a crash."""
    return value if isinstance(value, dict) else {}


def _views(
    measure: Luck,
    odds: Odds,
    result: dict[str, Any],
    unit: str | None,
    side: str | None,
    target: str | None,
    sides: dict[str, str],
    roll_off: list[str],
    most: int | None = None,
) -> list[dict[str, Any]]:
    """The rated views of one result: the side that acted, and a contest's other side, or
    every side of a roll-off. `most`: the most of a count the target had left (two figures
    fall to eight hits at most): the count and its odds are capped there."""
    outcome = result.get("outcome")
    if measure.sides:
        if not roll_off:
            raise _NotRated("not rated: a roll-off of no sides named")
        out = []
        for i, name in enumerate(roll_off):
            p = Fraction(odds.outcomes.get(name, 0))
            won = {1: p, 0: 1 - p}
            out.append(_rated(won, int(outcome == name), None, name, "won", "roll-off",
                              i == 0, outcome == name))  # fmt: skip
        return out
    if measure.count is not None:
        summary = _mapping(result.get("summary"))
        dist, name = _count_of(odds, measure.count, summary, outcome)
        plain = name.partition(" ")[0]  # "distance (metres)": the result's field "distance"
        if dist is not None and name in summary:
            value = summary[name]
        elif (
            dist is not None
            and outcome == "deviated"
            and f"{name} if on target" in odds.distributions
        ):
            value = 0  # a marker that deviated: no count at the target it missed
        elif dist is not None and isinstance(result.get(plain), (int, float)):
            value = result[plain]
        else:
            dist = {}
            for word, p in odds.outcomes.items():
                count = measure.single.get(word, 0)
                dist[count] = dist.get(count, 0) + Fraction(p)
            value = measure.single.get(str(outcome), 0)
            if outcome not in odds.outcomes:
                raise _NotRated(f"not rated: its outcome '{str(outcome)[:40]}' is not in its odds")
        capped: dict[Any, Fraction] = {}
        for k, v in dist.items():
            k = k if most is None or measure.fewer else min(k, most)
            capped[k] = capped.get(k, Fraction(0)) + Fraction(v)
        dist = capped
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _NotRated("not rated: its result gives no count")
        if most is not None and not measure.fewer:
            value = min(value, most)
        mean = float(sum(Fraction(k) * p for k, p in dist.items()))
        keyed = {(-k if measure.fewer else k): p for k, p in dist.items()}
        return [_rated(keyed, -value if measure.fewer else value, mean, side, name,
                       "acted", True, value, unit)]  # fmt: skip
    order = list(measure.order)
    if outcome not in order:
        raise _NotRated(f"not rated: its outcome '{str(outcome)[:40]}' has no place in {order}")
    dist = {}
    for word, p in odds.outcomes.items():
        if word not in order:
            raise _NotRated(f"not rated: an outcome of its odds ('{word}') has no place")
        dist[order.index(word)] = dist.get(order.index(word), 0) + Fraction(p)
    views = [_rated(dist, order.index(outcome), None, side, "outcome", "acted", True, outcome,
                    unit)]  # fmt: skip
    if measure.contest and target is not None:
        mirrored = {-k: p for k, p in dist.items()}
        views.append(_rated(mirrored, -order.index(outcome), None, sides.get(target), "outcome",
                            "target", False, outcome, target))  # fmt: skip
    return views


def _count_of(
    odds: Odds, name: str, summary: dict[str, Any], outcome: object
) -> tuple[Mapping[Any, Fraction] | None, str]:
    """The distribution a count is rated against, and the count: its own; for a marker that
    may deviate (its odds count only a marker on target), a deviated one counting 0 at its
    target, the rest as on target; else, where the outcome is not one of the odds' (so it
    cannot be rated as a lone shot), a count the odds and the result both give (Rogue
    Trader's following fire counts casualties, not wounds)."""
    found = odds.distributions.get(name)
    if found is not None:
        return found, name
    on = odds.distributions.get(f"{name} if on target")
    if on is not None and "deviated" in odds.outcomes:
        missed = Fraction(odds.outcomes["deviated"])
        dist = {k: Fraction(p) * (1 - missed) for k, p in on.items()}
        dist[0] = dist.get(0, Fraction(0)) + missed
        return dist, name
    shared = [n for n in odds.distributions if n in summary and outcome not in odds.outcomes]
    return (odds.distributions[shared[0]], shared[0]) if shared else (None, name)


def _rated(
    dist: dict[Any, Fraction],
    x: Any,
    expected: float | None,
    side: str | None,
    measure: str,
    view: str,
    counted: bool,
    shown: Any,
    unit: str | None = None,
) -> dict[str, Any]:
    """Where `x` falls in `dist` (value -> P, higher better), and the luck of every value."""
    below = sum((p for k, p in dist.items() if k < x), Fraction(0))
    equal = sum((p for k, p in dist.items() if k == x), Fraction(0))
    scores: dict[Fraction, Fraction] = {}
    run = Fraction(0)
    for k in sorted(dist):
        p = dist[k]
        if p:
            luck = run + p / 2 - Fraction(1, 2)
            scores[luck] = scores.get(luck, Fraction(0)) + p
        run += p
    if not equal:
        raise _NotRated("not rated: its result has no chance in its own odds")
    return {"unit": unit if view != "roll-off" else None, "side": side, "measure": measure,
            "value": shown, "expected": expected, "below": below, "equal": equal,
            "scores": scores, "view": view, "counted": counted}  # fmt: skip


def _rolls(result: dict[str, Any], depth: int = 0) -> list[Any]:
    """Every die a result rolled: its own, and its shots' (a volley keeps them by shot)."""
    found, shots = result.get("rolls"), result.get("shots")
    rolls = list(found) if isinstance(found, list) else []
    for shot in shots if isinstance(shots, list) and depth < 3 else []:
        rolls += _rolls(_mapping(shot), depth + 1)
    return rolls


def _count_faces(faces: dict[str, list[int]], rolls: object) -> None:
    for roll in rolls if isinstance(rolls, list) else ():
        die, value = _mapping(roll).get("die"), _mapping(roll).get("value")
        if not isinstance(die, str) or not die.startswith("d") or not die[1:].isdigit():
            continue
        sides = int(die[1:])
        if 2 <= sides <= 1000 and type(value) is int and 1 <= value <= sides:
            faces.setdefault(die, [0] * sides)[value - 1] += 1

"""`hc luck`: where each action's result fell in its own exact distribution, summed.

Each action of a game file (those in effect) or of a log is resolved again with `--odds`,
through the same code that rolled it (`hc_cli.plugin.execute`), and rated by its rule set's
`LUCK` measure (`hc_cli.plugin.declare.Luck`) for the side that acted: the chance of a result
no better, of one no worse, the expected value, and its luck, the result's mid-percentile
less a half (P(worse) + P(the same)/2 - 1/2: 0 on average under fair dice, whatever the
measure). A group's luck is the sum over its actions; how far that sum is from 0 is judged by
its distribution under fair dice: every sum listed (the actions' own distributions convolved)
while that stays within `EXACT_MOST` values and `EXACT_WORK` steps, else a normal
approximation, said so.

Dice a player entered by hand (--dice, --dice ask) are counted face by face for each kind of
die and tested against fair dice: exactly (a multinomial test) where the outcomes are few
enough to list, else by chi-square (a d100 in tens).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from hc_cli.core.errors import HcError

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

EXACT_MOST = 20_000  # values of a group's luck distribution listed; past it, the normal
EXACT_WORK = 50_000  # steps of listing them (a hundredth of a second); past it, the normal
MULTINOMIAL_MOST = 100_000  # outcomes of a face count listed for the exact test


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

    @property
    def luck(self) -> Fraction:
        """P(worse) + P(the same)/2 - 1/2: 0 on average with fair dice."""
        return _luck_of(self.below, self.equal)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "entry": self.seq,
            "command": self.command,
            "unit": self.unit,
            "side": self.side,
            "period": self.period,
            "measure": self.measure,
            "value": self.value,
            "expected": self.expected,
            "p_no_better": float(self.below + self.equal),
            "p_no_worse": float(1 - self.below),
            "luck": float(self.luck),
            "view": self.view,
        }
        if self.reroll is not None:
            d["reroll_of"] = self.reroll
        return d


_LUCK: dict[tuple[Fraction, Fraction], Fraction] = {}


def _luck_of(below: Fraction, equal: Fraction) -> Fraction:
    found = _LUCK.get((below, equal))
    if found is None:
        found = _LUCK[below, equal] = below + equal / 2 - Fraction(1, 2)
    return found


@dataclass(slots=True)
class Report:
    path: str
    kind: str  # "game" or "log"
    ruleset: str
    rated: list[Rated] = field(default_factory=list)
    not_rated: list[dict] = field(default_factory=list)
    faces: dict[str, list[int]] = field(default_factory=dict)  # a die -> its faces' counts
    rerolls: list[dict] = field(default_factory=list)
    periods: list[str] = field(default_factory=list)
    forfeits: list[dict] = field(default_factory=list)  # sealed rolls given up, committed


# ---------------------------------------------------------------------------------------------
# Reading the file


def _first_entry(path: str) -> dict:
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


def read(path: str, ruleset_in_force: str | None = None) -> Report:
    """Every rated action of the game file or log at `path`, with the faces of hand-entered
    dice; `ruleset_in_force` (a log chosen with --ruleset): a log of another is refused."""
    first = _first_entry(path)
    if first.get("command") == "game":
        return _read_game(path)
    ruleset = str(first.get("ruleset"))
    if ruleset_in_force is not None and ruleset != ruleset_in_force:
        raise HcError(
            f"{path} is a log of {ruleset}, not of {ruleset_in_force}",
            f"leave out --ruleset, or give --ruleset {ruleset}",
        )
    return _read_log(path, ruleset)


def _read_game(path: str) -> Report:
    from hc_cli.games.chain import fold
    from hc_cli.games.views import _chain

    kept: list[tuple[dict, str]] = []
    periods: list[str] = []

    def each(entry: dict, notes: list[str], undone: bool, period: str) -> None:
        if entry.get("command") != "game" and not undone:
            kept.append((entry, period))
            if not periods or periods[-1] != period:
                periods.append(period)

    folded = fold(_chain(path), path, each)
    sides = {unit: side for side, units in folded.roster["sides"].items() for unit in units}
    report = Report(path, "game", folded.ruleset, periods=periods)
    for number, seal in (folded.state.get("seals") or {}).items():
        if seal["done"] == "forfeit":
            action = seal["action"]
            report.forfeits.append({"entry": int(number), "unit": action.get("unit"),
                                    "command": action.get("command")})  # fmt: skip
    rater = _Rater(folded.ruleset, list(folded.roster["sides"]))
    for entry, period in kept:
        rater.take(report, entry, period, sides)
    return report


def _read_log(path: str, ruleset: str) -> Report:
    from hc_cli.log.chain import LogReader, log_key

    report = Report(path, "log", ruleset)
    raters: dict[str, _Rater] = {}  # a log may hold entries of several rule sets
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
        period = f"entries {first}-{first + 9}"
        if not report.periods or report.periods[-1] != period:
            report.periods.append(period)
        rater.take(report, entry, period, {})
    if broken and not report.rated and not report.not_rated:
        raise HcError(f"{path}: {broken[0]}", "hc replay FILE lists every problem")
    return report


class _Rater:
    """Rates entries of one rule set: the odds of each distinct action worked out once."""

    def __init__(self, ruleset: str, sides: list[str]) -> None:
        from hc_cli.plugin import registry
        from hc_cli.plugin.execute import Session

        self.ruleset = registry.get(ruleset)
        self.luck = getattr(self.ruleset.module, "LUCK", {})
        self.sides = sides
        self.session = Session()
        self.odds: dict[str, Any] = {}
        self.placed: dict[str, list[dict[str, Any]]] = {}

    def take(self, report: Report, entry: dict, period: str, sides: dict[str, str]) -> None:
        seq = entry["seq"] if type(entry.get("seq")) is int else 0
        command = str(entry.get("command"))
        result, game = _mapping(entry.get("result")), _mapping(entry.get("game"))
        unit = game.get("unit") if isinstance(game.get("unit"), str) else None
        reroll = game.get("reroll") if isinstance(game.get("reroll"), int) else None

        def skip(why: str) -> None:
            report.not_rated.append({"entry": seq, "command": command, "unit": unit, "why": why})

        if entry.get("odds"):
            return  # a question of odds rolled nothing
        if entry.get("dice"):
            _count_faces(report.faces, _rolls(result))
        if reroll is not None:
            report.rerolls.append({"entry": seq, "sets_aside": reroll, "unit": unit})
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
        side = sides.get(unit) if unit else None
        at = game.get("at") if isinstance(game.get("at"), list) else []
        target = str(at[0]).partition(":")[0] if at else None
        import json

        roll_off = self._sides(entry)
        summary = _mapping(result.get("summary"))
        # The same action with the same result is placed once (a long game repeats itself).
        key = json.dumps(
            [id(odds), result.get("outcome"), measure.count and summary.get(measure.count),
             measure.count and result.get(measure.count.partition(" ")[0]), unit, side,
             target, roll_off], default=str,
        )  # fmt: skip
        try:
            if key not in self.placed:
                self.placed[key] = _views(measure, odds, result, unit, side, target, sides,
                                          roll_off)  # fmt: skip
            views = self.placed[key]
        except _NotRated as why:
            skip(str(why))
            return
        for view in views:
            report.rated.append(Rated(seq=seq, command=command, period=period, reroll=reroll,
                                      **view))  # fmt: skip

    def _sides(self, entry: dict) -> list[str]:
        flagged = _mapping(entry.get("flags")).get("side")
        return self.sides or [str(s) for s in flagged or ()]

    def _odds(self, entry: dict) -> Any:
        import json

        from hc_cli.log.replay import _rules_files
        from hc_cli.plugin.execute import Call, execute

        rules, _ = _rules_files(entry.get("rules"), {})
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


def _mapping(value: Any) -> dict:
    """A part of an entry read as a mapping: whatever a hand-edited log holds, never a crash."""
    return value if isinstance(value, dict) else {}


def _views(
    measure: Any,
    odds: Any,
    result: dict,
    unit: str | None,
    side: str | None,
    target: str | None,
    sides: dict[str, str],
    roll_off: list[str],
) -> list[dict[str, Any]]:
    """The rated views of one result: the side that acted, and a contest's other side, or
    every side of a roll-off."""
    outcome = result.get("outcome")
    if measure.sides:
        if not roll_off:
            raise _NotRated("not rated: a roll-off of no sides named")
        out = []
        for i, name in enumerate(roll_off):
            p = Fraction(odds.outcomes.get(name, 0))
            dist = {1: p, 0: 1 - p}
            out.append(_rated(dist, int(outcome == name), None, name, "won", "roll-off",
                              i == 0, outcome == name))  # fmt: skip
        return out
    if measure.count is not None:
        dist = odds.distributions.get(measure.count)
        summary = _mapping(result.get("summary"))
        name = measure.count
        plain = name.partition(" ")[0]  # "distance (metres)": the result's field "distance"
        if dist is not None and name in summary:
            value = summary[name]
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
        dist = {k: Fraction(v) for k, v in dist.items()}
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _NotRated("not rated: its result gives no count")
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


def _rated(
    dist: dict,
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


# ---------------------------------------------------------------------------------------------
# Summing


def total(rated: list[Rated]) -> dict[str, Any]:
    """A group's luck: its sum, and the chance under fair dice of a sum at least this far from
    0 either way: every sum listed (the actions' distributions convolved, in floating point)
    while that takes at most EXACT_WORK steps and EXACT_MOST values, else the normal
    approximation (a sum of many actions is as near normal as makes no difference)."""
    n = len(rated)
    luck = float(sum((r.luck for r in rated), Fraction(0)))  # each action's luck is exact
    out: dict[str, Any] = {"actions": n, "luck": luck}
    if not n:
        out.update(p=1.0, method="none", verdict="no action to rate")
        return out
    dist: dict[float, float] | None = {0.0: 1.0}
    work = 0
    for r in rated:
        scores = _floats(r.scores)
        work += len(dist) * len(scores) if dist is not None else 0
        if dist is None or work > EXACT_WORK:
            dist = None
            break
        step: dict[float, float] = {}
        for a, pa in dist.items():
            for b, pb in scores:
                key = round(a + b, 9)  # the same sum reached two ways is one value
                step[key] = step.get(key, 0.0) + pa * pb
        dist = step if len(step) <= EXACT_MOST else None
    if dist is not None:
        far = abs(luck) - 1e-9
        p = sum(q for v, q in dist.items() if abs(v) >= far)
        out["method"] = "exact"
    else:
        var = sum(sum(q * v * v for v, q in _floats(r.scores)) for r in rated)
        z = abs(luck) / math.sqrt(var) if var > 0 else 0.0
        p = math.erfc(z / math.sqrt(2))
        out["method"] = "normal approximation"
    out["p"] = min(1.0, p)
    out["verdict"] = verdict(luck, out["p"], n)
    return out


_FLOATS: dict[int, tuple[dict, list[tuple[float, float]]]] = {}


def _floats(scores: dict[Fraction, Fraction]) -> list[tuple[float, float]]:
    """An action's luck distribution in floating point, worked out once for the many actions
    that share it (an action placed once is placed for every time it recurs)."""
    found = _FLOATS.get(id(scores))
    if found is None or found[0] is not scores:
        found = (scores, [(float(k), float(v)) for k, v in scores.items()])
        _FLOATS[id(scores)] = found
    return found[1]


def verdict(luck: float, p: float, n: int) -> str:
    """The luck in plain words, as far as the number of actions allows."""
    if n == 0:
        return "no action to rate"
    way = "lucky" if luck > 0 else "unlucky"
    if p >= 0.1:
        k = round(p * 10)
        said = "within chance: fair dice land at least this far from even in " + (
            "nearly every game" if k == 10 else f"{k} {'game' if k == 1 else 'games'} in 10"
        )
    elif p >= 0.01:
        said = f"{way}: fair dice land this far from even in about {round(p * 100)} games in 100"
    elif p >= 1e-6:
        said = f"very {way}: fair dice land this far from even in about 1 game in {round(1 / p):,}"
    else:
        said = f"very {way}: fair dice land this far from even in less than 1 game in a million"
    if n < 10:
        said += f" (only {n} {'action' if n == 1 else 'actions'}: too few to tell luck from chance)"
    return said


def counts(rated: list[Rated]) -> dict[str, dict[str, Any]]:
    """For each kind of action with a count (kills, hits): what it came to, and what was to be
    expected."""
    out: dict[str, dict[str, Any]] = {}
    for r in rated:
        if r.expected is None or r.view != "acted":
            continue
        kind = out.setdefault(f"{r.command} {r.measure}", {"actual": 0, "expected": 0.0})
        kind["actual"] += r.value
        kind["expected"] += r.expected
    for kind in out.values():
        kind["expected"] = round(kind["expected"], 3)
    return out


# ---------------------------------------------------------------------------------------------
# Dice entered by hand


def _rolls(result: dict, depth: int = 0) -> list:
    """Every die a result rolled: its own, and its shots' (a volley keeps them by shot)."""
    found, shots = result.get("rolls"), result.get("shots")
    rolls = list(found) if isinstance(found, list) else []
    for shot in shots if isinstance(shots, list) and depth < 3 else []:
        rolls += _rolls(_mapping(shot), depth + 1)
    return rolls


def _count_faces(faces: dict[str, list[int]], rolls: Any) -> None:
    for roll in rolls if isinstance(rolls, list) else ():
        die, value = _mapping(roll).get("die"), _mapping(roll).get("value")
        if not isinstance(die, str) or not die.startswith("d") or not die[1:].isdigit():
            continue
        sides = int(die[1:])
        if 2 <= sides <= 1000 and type(value) is int and 1 <= value <= sides:
            faces.setdefault(die, [0] * sides)[value - 1] += 1


def fit(die: str, counted: list[int]) -> dict[str, Any]:
    """The faces a player entered for one kind of die against fair dice: the exact
    multinomial test where its outcomes can be listed, else chi-square (a d100 in tens)."""
    n = sum(counted)
    cells = counted
    grouped = ""
    if len(counted) == 100:
        cells = [sum(counted[i : i + 10]) for i in range(0, 100, 10)]
        grouped = "in tens (01-10, 11-20, ...)"
    k = len(cells)
    out: dict[str, Any] = {"die": die, "rolls": n, "counts": counted}
    if grouped:
        out["grouped"] = grouped
    if n == 0:
        out.update(p=1.0, method="none")
        return out
    if math.comb(n + k - 1, k - 1) <= MULTINOMIAL_MOST:
        out["p"], out["method"] = _multinomial(cells), "exact multinomial"
    else:
        expected = n / k
        statistic = sum((c - expected) ** 2 / expected for c in cells)
        out["chi_square"] = round(statistic, 4)
        out["p"], out["method"] = _chi_square_p(statistic, k - 1), "chi-square"
    return out


def _multinomial(cells: list[int]) -> float:
    """P(a count of faces no likelier than this one) under fair dice: every count of n rolls
    over k faces listed, by its log-probability."""
    n, k = sum(cells), len(cells)
    log_fact = [math.lgamma(i + 1) for i in range(n + 1)]
    base = log_fact[n] - n * math.log(k)

    def logp(vector: list[int]) -> float:
        return base - sum(log_fact[c] for c in vector)

    seen = logp(cells) + 1e-9
    total_p = 0.0

    def walk(left: int, slots: int, acc: float) -> None:
        nonlocal total_p
        if slots == 1:
            lp = base + acc - log_fact[left]
            if lp <= seen:
                total_p += math.exp(lp)
            return
        for c in range(left + 1):
            walk(left - c, slots - 1, acc - log_fact[c])

    walk(n, k, 0.0)
    return min(1.0, total_p)


def _chi_square_p(x: float, df: int) -> float:
    """P(a chi-square of `df` degrees of freedom is at least `x`): the regularized upper
    incomplete gamma function Q(df/2, x/2), by its series or its continued fraction."""
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    if z < a + 1:
        term = total_sum = 1 / a
        for i in range(1, 1000):
            term *= z / (a + i)
            total_sum += term
            if abs(term) < abs(total_sum) * 1e-15:
                break
        return max(0.0, 1 - total_sum * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    b, c, d = z + 1 - a, 1 / 1e-300, 1 / (z + 1 - a)
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return min(1.0, math.exp(-z + a * math.log(z) - math.lgamma(a)) * h)


# ---------------------------------------------------------------------------------------------
# The report


def luck(
    path: str,
    side: str | None = None,
    unit: str | None = None,
    since: int | None = None,
    ruleset_in_force: str | None = None,
) -> dict[str, Any]:
    """`hc luck`: the report as data (what `--json` prints and the text is drawn from)."""
    from hc_cli.tables.files import shown_path

    report = read(path, ruleset_in_force)
    if not report.rated and not report.not_rated:
        raise HcError(
            f"no action to rate yet in {shown_path(path)}: nothing has been rolled",
            "play first: hc luck reports on the actions of a game or a log",
        )
    rated = report.rated
    if report.kind == "log" and (side or unit):
        raise HcError(
            "a log has no sides or units: --side and --unit are for a game file",
            "leave them out, or give the game file",
        )
    if side is not None:
        named = {r.side for r in rated if r.side} | {u for u in _sides_of(report)}
        if side not in named:
            from hc_cli.core.errors import UnknownName

            error = UnknownName("side", side, sorted(named))
            raise HcError(error.message + " in this game", error.hint)
        rated = [r for r in rated if r.side == side]
    if unit is not None:
        known = {r.unit for r in report.rated if r.unit}
        if unit not in known:
            from hc_cli.core.errors import UnknownName

            error = UnknownName("unit", unit, sorted(known))
            raise HcError(error.message + " among the rated actions", error.hint)
        rated = [r for r in rated if r.unit == unit]
    if since is not None and since < 1:
        raise HcError(f"--since {since}: entries are numbered from 1", "give --since N, N >= 1")
    if since is not None:
        last = max([r.seq for r in report.rated] + [n.get("entry") or 0 for n in report.not_rated])
        if since > last:
            raise HcError(
                f"--since {since}: no rated action is at entry {since} or after it",
                f"the newest is entry {last} (hc history numbers them)",
            )
        rated = [r for r in rated if r.seq >= since]

    def kept(item: dict) -> bool:  # a line of the report within what was asked for
        return (
            (since is None or (item.get("entry") or 0) >= since)
            and (unit is None or item.get("unit") == unit)
            and (side is None or item.get("unit") in {r.unit for r in rated})
        )

    not_rated = [n for n in report.not_rated if kept(n)]
    rerolls = [r for r in report.rerolls if kept(r)]
    counted = [r for r in rated if r.counted or side is not None]
    by: dict[str, dict[str, list[Rated]]] = {"sides": {}, "units": {}, "kinds": {}}
    for r in rated:
        if r.side:
            by["sides"].setdefault(r.side, []).append(r)
        if r.unit and r.view != "target":
            by["units"].setdefault(r.unit, []).append(r)
    for r in counted:
        by["kinds"].setdefault(r.command, []).append(r)
    return {
        "file": path,
        "kind": report.kind,
        "ruleset": report.ruleset,
        "all": {**total(counted), "counts": counts(counted)},
        "sides": {k: {**total(v), "counts": counts(v)} for k, v in by["sides"].items()},
        "units": {k: total(v) for k, v in by["units"].items()},
        "kinds": {k: total(v) for k, v in by["kinds"].items()},
        "actions": [r.to_dict() for r in rated],
        "not_rated": not_rated,
        "rerolls": rerolls,
        "forfeits": [f for f in report.forfeits if kept(f)],
        "unit": unit,
        "hand_entered_dice": [fit(die, c) for die, c in sorted(report.faces.items())],
        "chart": _chart(rated, report.periods),
    }


def _sides_of(report: Report) -> set[str]:
    return {r.side for r in report.rated if r.side}


def _chart(rated: list[Rated], periods: list[str]) -> list[dict[str, Any]]:
    """Each side's running luck after each part of the game (a move, a turn), and the running
    count against its expectation."""
    out: list[dict[str, Any]] = []
    running: dict[str, Fraction] = {}
    by_period: dict[str, list[Rated]] = {}
    for r in rated:
        by_period.setdefault(r.period, []).append(r)
    for period in periods:
        here = by_period.get(period)
        if not here:
            continue
        for r in here:
            key = r.side or "all"
            running[key] = running.get(key, Fraction(0)) + r.luck
        out.append({"period": period, "luck": {k: round(float(v), 4) for k, v in running.items()}})
    return out

"""`hc luck`: where each action's result fell in its own exact distribution (each action
rated by `hc_cli.games.rating`), summed. A group's luck is the sum over its actions; how far
that sum is from 0 is judged by its distribution under fair dice: every sum listed (the
actions' own distributions convolved) while that stays within `EXACT_MOST` values and
`EXACT_WORK` steps, else a normal approximation, said so.

Dice a player entered by hand (--dice, --dice ask) are counted face by face for each kind of
die and tested against fair dice: exactly (a multinomial test) where the outcomes are few
enough to list, else by chi-square (a d100 in tens).

The report is made as the file is read (`Tally`): each action, once rated, is added to the sums
of its groups (`Sum`) and leaves its line of the report and its part in the chart, and is let
go; a game of 20,000 entries is reported in a few megabytes beyond the lines it prints.
"""

from __future__ import annotations

import math
from array import array
from fractions import Fraction
from typing import Any

from hc_cli.core.errors import HcError
from hc_cli.games.rating import Rated, Report, read

EXACT_MOST = 20_000  # values of a group's luck distribution listed; past it, the normal
EXACT_WORK = 50_000  # steps of listing them (a hundredth of a second); past it, the normal
MULTINOMIAL_MOST = 100_000  # outcomes of a face count listed for the exact test


# ---------------------------------------------------------------------------------------------
# Summing


class Sum:
    """A group's luck, its actions added as they come (none is kept): the sum, each action's
    variance (for the normal approximation), the counts against their expectation, and the
    distribution of the sum under fair dice listed (the actions' own convolved, in floating
    point) while that takes at most EXACT_WORK steps and EXACT_MOST values."""

    __slots__ = ("actions", "luck", "dist", "work", "variances", "counted")

    def __init__(self) -> None:
        self.actions = 0
        self.luck = Fraction(0)  # each action's luck is exact
        self.dist: dict[float, float] | None = {0.0: 1.0}  # a sum -> P, None past listing
        self.work = 0
        self.variances = array("d")  # summed at the end, in order, as the sum of a list is
        self.counted: dict[str, dict[str, Any]] = {}  # "fire kills" -> actual, expected

    def add(self, r: Rated) -> None:
        self.actions += 1
        self.luck += r.luck
        scores, variance = _floats(r.scores)
        self.variances.append(variance)
        if self.dist is not None:
            self.work += len(self.dist) * len(scores)
            self.dist = _convolved(self.dist, scores) if self.work <= EXACT_WORK else None
        if r.expected is not None and r.view == "acted":
            kind = self.counted.setdefault(f"{r.command} {r.measure}",
                                           {"actual": 0, "expected": 0.0})  # fmt: skip
            kind["actual"] += r.value
            kind["expected"] += r.expected

    def total(self) -> dict[str, Any]:
        """The sum, and the chance under fair dice of a sum at least this far from 0 either
        way: exactly from the sums listed, else by the normal approximation (a sum of many
        actions is as near normal as makes no difference)."""
        n, luck = self.actions, float(self.luck)
        out: dict[str, Any] = {"actions": n, "luck": luck}
        if not n:
            out.update(p=1.0, method="none", verdict="no action to rate")
            return out
        if self.dist is not None:
            far = abs(luck) - 1e-9
            p = sum(q for v, q in self.dist.items() if abs(v) >= far)
            out["method"] = "exact"
        else:
            var = sum(self.variances)
            z = abs(luck) / math.sqrt(var) if var > 0 else 0.0
            p = math.erfc(z / math.sqrt(2))
            out["method"] = "normal approximation"
        out["p"] = min(1.0, p)
        out["verdict"] = verdict(luck, out["p"], n)
        return out

    def counts(self) -> dict[str, dict[str, Any]]:
        """For each kind of action with a count (kills, hits): what it came to, and what was to
        be expected."""
        return {kind: {"actual": c["actual"], "expected": round(c["expected"], 3)}
                for kind, c in self.counted.items()}  # fmt: skip


def _convolved(
    dist: dict[float, float], scores: list[tuple[float, float]]
) -> dict[float, float] | None:
    """The sum's distribution with one more action's luck added; None past EXACT_MOST values."""
    step: dict[float, float] = {}
    for a, pa in dist.items():
        for b, pb in scores:
            key = round(a + b, 9)  # the same sum reached two ways is one value
            step[key] = step.get(key, 0.0) + pa * pb
    return step if len(step) <= EXACT_MOST else None


_FLOATS: dict[int, tuple[dict[Fraction, Fraction], list[tuple[float, float]], float]] = {}


def _floats(scores: dict[Fraction, Fraction]) -> tuple[list[tuple[float, float]], float]:
    """An action's luck distribution in floating point, and its variance, worked out once for
    the many actions that share it (an action placed once is placed for every time it
    recurs)."""
    found = _FLOATS.get(id(scores))
    if found is None or found[0] is not scores:
        listed = [(float(k), float(v)) for k, v in scores.items()]
        found = (scores, listed, sum(q * v * v for v, q in listed))
        _FLOATS[id(scores)] = found
    return found[1], found[2]


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


# ---------------------------------------------------------------------------------------------
# Dice entered by hand


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

    tally = Tally(side, unit, since)
    report = read(path, tally.add, ruleset_in_force)
    if not report.rated and not report.not_rated:
        raise HcError(
            f"no action to rate yet in {shown_path(path)}: nothing has been rolled",
            "play first: hc luck reports on the actions of a game or a log",
        )
    tally.check(report)

    def kept(item: dict[str, Any]) -> bool:  # a line of the report within what was asked for
        return (
            (since is None or (item.get("entry") or 0) >= since)
            and (unit is None or item.get("unit") == unit)
            and (side is None or item.get("unit") in tally.units)
        )

    not_rated = [n for n in report.not_rated if kept(n)]
    rerolls = [r for r in report.rerolls if kept(r)]
    agreed = [a for a in report.agreed if kept(a)]
    overrides = [o for o in report.overrides if kept(o)]
    return {
        "file": path,
        "kind": report.kind,
        "ruleset": report.ruleset,
        "all": {**tally.all.total(), "counts": tally.all.counts()},
        "sides": {k: {**v.total(), "counts": v.counts()} for k, v in tally.sides.items()},
        "units": {k: v.total() for k, v in tally.by_unit.items()},
        "kinds": {k: v.total() for k, v in tally.kinds.items()},
        "kinds_by_side": {
            side: {k: v.total() for k, v in kinds.items()}
            for side, kinds in tally.side_kinds.items()
        },
        "actions": tally.actions,
        "not_rated": not_rated,
        "rerolls": rerolls,
        "agreed": agreed,
        "overrides": overrides,
        "set_aside_by_side": _by_side(rerolls, agreed, overrides),
        "forfeits": [f for f in report.forfeits if kept(f)],
        "given_up": {k: v for k, v in report.given_up.items() if side in (None, k)},
        "unit": unit,
        "hand_entered_dice": [fit(die, c) for die, c in sorted(report.faces.items())],
        "chart": tally.chart(),
    }


def _by_side(
    rerolls: list[dict[str, Any]], agreed: list[dict[str, Any]], overrides: list[dict[str, Any]]
) -> dict[str, dict[str, int]]:
    """Each side's re-rolls and re-takes both players agreed to, and its actions taken with
    an override (--anyway), counted."""
    out: dict[str, dict[str, int]] = {}
    for kind, items in (("rerolls", rerolls), ("agreed", agreed), ("overrides", overrides)):
        for item in items:
            side = str(item.get("side") or "the game")
            out.setdefault(side, {"rerolls": 0, "agreed": 0, "overrides": 0})[kind] += 1
    return out


class Tally:
    """What the report keeps of the rated actions, each taken as it is rated and let go: every
    side, unit and entry rated (to check what was asked for), and of the actions of `side`, of
    `unit`, from entry `since` on (each when given): the sums of each group, each action's
    line, and each side's running luck after each part of the game."""

    def __init__(self, side: str | None, unit: str | None, since: int | None) -> None:
        self.side, self.unit, self.since = side, unit, since
        self.seen = 0  # rated actions, chosen or not
        self.named: set[str] = set()  # the sides of every rated action
        self.known: set[str] = set()  # the units of every rated action
        self.newest = 0  # the newest entry rated
        self.units: set[str | None] = set()  # the units of the actions chosen
        self.all = Sum()
        self.sides: dict[str, Sum] = {}
        self.by_unit: dict[str, Sum] = {}
        self.kinds: dict[str, Sum] = {}
        self.side_kinds: dict[str, dict[str, Sum]] = {}  # each side's, a roll-off's too
        self.actions: list[dict[str, Any]] = []
        self.points: list[dict[str, Any]] = []  # the chart, but the part of the game it is in
        self.running: dict[str, Fraction] = {}  # each side's luck so far
        self.period: str | None = None  # the part of the game the newest action was in

    def add(self, r: Rated) -> None:
        self.newest = max(self.newest, r.seq) if self.seen else r.seq
        self.seen += 1
        if r.side:
            self.named.add(r.side)
        if r.unit:
            self.known.add(r.unit)
        if (
            (self.side is not None and r.side != self.side)
            or (self.unit is not None and r.unit != self.unit)
            or (self.since is not None and r.seq < self.since)
        ):
            return
        self.units.add(r.unit)
        if r.counted or self.side is not None:
            self.all.add(r)
            self.kinds.setdefault(r.command, Sum()).add(r)
        if r.side:
            self.sides.setdefault(r.side, Sum()).add(r)
            self.side_kinds.setdefault(r.side, {}).setdefault(r.command, Sum()).add(r)
        if r.unit and r.view != "target":
            self.by_unit.setdefault(r.unit, Sum()).add(r)
        self.actions.append(r.to_dict())
        if r.period != self.period:
            self._point()
            self.period = r.period
        key = r.side or "all"
        self.running[key] = self.running.get(key, Fraction(0)) + r.luck

    def _point(self) -> None:
        """The chart's point for the part of the game just ended."""
        if self.period is not None:
            luck = {k: round(float(v), 4) for k, v in self.running.items()}
            self.points.append({"period": self.period, "luck": luck})

    def chart(self) -> list[dict[str, Any]]:
        """Each side's running luck after each part of the game (a move, a turn) it acted in."""
        self._point()
        self.period = None
        return self.points

    def check(self, report: Report) -> None:
        """What was asked for, checked against what the file holds."""
        side, unit, since = self.side, self.unit, self.since
        if report.kind == "log" and (side or unit):
            raise HcError(
                "a log has no sides or units: --side and --unit are for a game file",
                "leave them out, or give the game file",
            )
        if side is not None and side not in self.named:
            from hc_cli.core.errors import UnknownName

            error = UnknownName("side", side, sorted(self.named))
            raise HcError(error.message + " in this game", error.hint)
        if unit is not None and unit not in self.known:
            from hc_cli.core.errors import UnknownName

            error = UnknownName("unit", unit, sorted(self.known))
            raise HcError(error.message + " among the rated actions", error.hint)
        if since is not None and since < 1:
            raise HcError(f"--since {since}: entries are numbered from 1", "give --since N, N >= 1")
        if since is not None:
            newest = [self.newest] if self.seen else []
            last = max(newest + [n.get("entry") or 0 for n in report.not_rated])
            if since > last:
                raise HcError(
                    f"--since {since}: no rated action is at entry {since} or after it",
                    f"the newest is entry {last} (hc history numbers them)",
                )

"""`hc luck`: where each action's result fell in its own exact distribution (each action
rated by `hc_cli.games.rating`), summed. A group's luck is the sum over its actions; how far
that sum is from 0 is judged by its distribution under fair dice: every sum listed (the
actions' own distributions convolved) while that stays within `EXACT_MOST` values and
`EXACT_WORK` steps, else a normal approximation, said so.

Dice a player entered by hand (--dice, --dice ask) are counted face by face for each kind of
die and tested against fair dice: exactly (a multinomial test) where the outcomes are few
enough to list, else by chi-square (a d100 in tens).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hc_cli.core.errors import HcError
from hc_cli.games.rating import Rated, Report, read

EXACT_MOST = 20_000  # values of a group's luck distribution listed; past it, the normal
EXACT_WORK = 50_000  # steps of listing them (a hundredth of a second); past it, the normal
MULTINOMIAL_MOST = 100_000  # outcomes of a face count listed for the exact test


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


_FLOATS: dict[int, tuple[dict[Fraction, Fraction], list[tuple[float, float]]]] = {}


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
    rated = _chosen(report, side, unit, since)

    def kept(item: dict[str, Any]) -> bool:  # a line of the report within what was asked for
        return (
            (since is None or (item.get("entry") or 0) >= since)
            and (unit is None or item.get("unit") == unit)
            and (side is None or item.get("unit") in {r.unit for r in rated})
        )

    not_rated = [n for n in report.not_rated if kept(n)]
    rerolls = [r for r in report.rerolls if kept(r)]
    agreed = [a for a in report.agreed if kept(a)]
    overrides = [o for o in report.overrides if kept(o)]
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
        "agreed": agreed,
        "overrides": overrides,
        "set_aside_by_side": _by_side(rerolls, agreed, overrides),
        "forfeits": [f for f in report.forfeits if kept(f)],
        "given_up": {k: v for k, v in report.given_up.items() if side in (None, k)},
        "unit": unit,
        "hand_entered_dice": [fit(die, c) for die, c in sorted(report.faces.items())],
        "chart": _chart(rated, report.periods),
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


def _chosen(report: Report, side: str | None, unit: str | None, since: int | None) -> list[Rated]:
    """The rated actions of `side`, of `unit`, from entry `since` on (each when given)."""
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
    return rated


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

#!/usr/bin/env python3
"""The other rollers' tested expressions (tests/data/roller_expressions.tsv: d20, rpg-dice-roller,
GNOLL, DiceParser, python-dice, node-roll, dice-notation, caith, ...) run through hc's reader and
exact odds in-process: how many hc refuses, by roller and by feature, and where hc's least,
greatest or scripted total disagrees with the value the roller's test expects.

Usage: python3 bench/roller_corpus.py [--all] [--feature NAME] [--roller NAME]
(run from a checkout whose hc_cli is importable: PYTHONPATH=. or its venv). --all lists every
refused expression (by default the first few of each feature)."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from hc_cli.core.dice import DiceSource, Roll, SeededDice
from hc_cli.core.errors import HcError
from hc_cli.core.parser import read
from hc_cli.core.roll import resolve_roll
from hc_cli.core.weigh import roll_odds

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "roller_expressions.tsv"
FIRST = ("d20", "rpg-dice-roller", "icepool")  # issue 39's first check; the rest its second
SLOW = 5.0  # seconds: an expression that takes longer is reported (and stopped at 4x this)


@dataclass
class Row:
    expression: str
    roller: str
    expect: str
    feature: str
    note: str
    line: int

    @property
    def reading(self) -> str | None:
        """The named reading hc takes where it parts from this roller on purpose."""
        return self.note.split()[0][len("reading:") :] if self.note.startswith("reading:") else None

    @property
    def deliberate(self) -> bool:
        """hc refuses it on purpose (a d0, a total past 10^15)."""
        return self.note.startswith("refuse:")


@dataclass
class Outcome:
    row: Row
    refused: str | None = None  # hc's message when it refuses (to read or to roll it)
    odds_refused: str | None = None  # hc rolls it but refuses its exact odds (too much work)
    low: Fraction | None = None
    high: Fraction | None = None
    mean: Fraction | None = None
    scripted: Fraction | None = None  # the total from the faces the test gives
    disagrees: str | None = None  # what hc gives against what the roller expects
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def load(path: Path = CORPUS) -> list[Row]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 5:
            raise ValueError(f"{path.name}:{number}: {len(cells)} cells, not 5: {line!r}")
        rows.append(Row(*cells, line=number))
    return rows


class Scripted(DiceSource):
    """Dice that show the faces a roller's test gives, in turn."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)

    def _next(self) -> int:
        if not self.faces:
            raise LookupError("hc rolls more dice than the test gives")
        return self.faces.pop(0)

    def roll(self, sides: int, purpose: str) -> Roll:
        return Roll(f"d{sides}", self._next(), purpose)

    def d100(self, purpose: str) -> Roll:
        return Roll("d100", self._next(), purpose)


def _number(text: str) -> Fraction:
    return Fraction(text.strip())


def _expected(expect: str) -> dict[str, object]:
    """What the test expects, by kind: "exact" (V), "faces" (the faces it shows), "within"
    (A, B), "bounds" (A, B exactly), "mean" (M), "error"; none when the test gives no value."""
    found: dict[str, object] = {}
    for word in expect.split():
        if word == "error":
            found["error"] = True
        elif word.startswith("mean="):
            found["mean"] = _number(word[5:])
        elif ".." in word:
            low, _, high = word.lstrip("=").partition("..")
            found["bounds" if word.startswith("=") else "within"] = (_number(low), _number(high))
        else:
            value, _, faces = word.lstrip("=").partition("@")
            found["exact"] = _number(value)
            if faces:
                found["faces"] = [int(f) for f in faces.split(",")]
    return found


class _Slow(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Slow


def run(row: Row) -> Outcome:
    """One expression through hc: read, rolled (on the test's faces, if it gives them), and
    weighed exactly."""
    out = Outcome(row)
    expected = _expected(row.expect)
    faces = expected.get("faces")
    start = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, 4 * SLOW)
    try:
        read(row.expression)
        dice = Scripted(faces) if isinstance(faces, list) else SeededDice(1)
        total = resolve_roll(row.expression, dice, "hc").fields["total"]
        if isinstance(faces, list):
            out.scripted = Fraction(total).limit_denominator(10**6)
        _weigh(out)
    except HcError as error:
        out.refused = error.message
    except LookupError as error:
        out.disagrees = str(error)
    except _Slow:
        out.refused = f"still working after {4 * SLOW:g} s"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    out.seconds = time.perf_counter() - start
    if out.refused is None and out.disagrees is None:
        out.disagrees = _compare(out, expected)
    return out


def _weigh(out: Outcome) -> None:
    """The least, greatest and mean total of hc's exact odds (or why it refuses them)."""
    try:
        odds = roll_odds(out.row.expression, "hc").odds
    except HcError as error:
        out.odds_refused = error.message
        return
    assert odds is not None
    totals = [Fraction(k) for k in odds.outcomes]
    out.low, out.high = min(totals), max(totals)
    out.mean = sum((Fraction(k) * p for k, p in odds.outcomes.items()), Fraction(0))


def _text(value: Fraction | None) -> str:
    if value is None:
        return "?"
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.6g}"


def _compare(out: Outcome, expected: dict[str, object]) -> str | None:
    exact = expected.get("exact")
    found = []
    if isinstance(exact, Fraction) and out.scripted is not None:
        if out.scripted != exact:
            found.append(f"hc totals {_text(out.scripted)} on those faces, the test {_text(exact)}")
    if out.low is None or out.high is None:  # the odds refused: only the faces checked
        return "; ".join(found) or None
    if isinstance(exact, Fraction) and out.scripted is None and not out.low == exact == out.high:
        span = _text(out.low) if out.low == out.high else f"{_text(out.low)}..{_text(out.high)}"
        found.append(f"hc gives {span}, the test {_text(exact)}")
    for kind in ("within", "bounds"):
        span = expected.get(kind)
        if not isinstance(span, tuple):
            continue
        low, high = span
        if (out.low < low or out.high > high) if kind == "within" else (out.low, out.high) != span:
            said = "bounds" if kind == "within" else "gives"
            found.append(f"hc gives {_text(out.low)}..{_text(out.high)}, the test {said} "
                         f"{_text(low)}..{_text(high)}")  # fmt: skip
    mean = expected.get("mean")
    if isinstance(mean, Fraction) and out.mean != mean:
        found.append(f"hc's mean is {_text(out.mean)}, the test's {_text(mean)}")
    return "; ".join(found) or None


def refused(outcomes: list[Outcome]) -> list[Outcome]:
    """What hc refuses of what the roller reads (not counting hc's deliberate refusals)."""
    return [o for o in outcomes if o.refused and o.row.expect != "error" and not o.row.deliberate]


def odds_refused(outcomes: list[Outcome]) -> list[Outcome]:
    """What hc rolls of what the roller reads, but whose exact odds it refuses (the work)."""
    return [o for o in outcomes if o.odds_refused and not o.refused and o.row.expect != "error"]


def disagreeing(outcomes: list[Outcome]) -> list[Outcome]:
    """Where hc answers otherwise than the roller's test, other than by a named reading."""
    return [o for o in outcomes if o.disagrees and o.row.reading is None]


def report(outcomes: list[Outcome], show_all: bool) -> None:
    by_roller: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by_roller[o.row.roller].append(o)
    print(f"{'roller':<18} {'tested':>6} {'refused':>7} {'odds refused':>12} {'on purpose':>10} "
          f"{'disagree':>8} {'readings':>8} {'roller errs, hc answers':>24}")  # fmt: skip
    for check, names in (("first", FIRST), ("second", None)):
        group = [o for o in outcomes if (o.row.roller in FIRST) == (names is not None)]
        for roller in sorted({o.row.roller for o in group}):
            _line(roller, by_roller[roller])
        _line(f"= {check} check", group)
    _line("= all", outcomes)

    print("\nRefused, by feature (what hc refuses of what the rollers read):")
    features: dict[str, list[Outcome]] = defaultdict(list)
    for o in refused(outcomes):
        features[o.row.feature].append(o)
    for feature, group in sorted(features.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        shown = group if show_all else group[:6]
        listed = ", ".join(f"`{o.row.expression.strip()}`" for o in shown)
        more = f" and {len(group) - len(shown)} more" if len(group) > len(shown) else ""
        print(f"  {feature} ({len(group)}): {listed}{more}")

    print("\nRolled, but the exact odds refused (the work they take):")
    for o in odds_refused(outcomes):
        print(f"  `{o.row.expression}` [{o.row.roller}]: {o.odds_refused}")
    print("\nDisagreements of meaning (hc answers otherwise than the roller's test):")
    for o in disagreeing(outcomes):
        print(f"  `{o.row.expression}` [{o.row.roller}, {o.row.feature}]: {o.disagrees}")
    print("\nNamed readings (hc parts from the roller on purpose):")
    for o in outcomes:
        if o.row.reading and o.disagrees:
            print(f"  `{o.row.expression}` [{o.row.roller}] {o.row.reading}: {o.disagrees}")
    slow = [o for o in outcomes if o.seconds > SLOW / 5]
    if slow:
        print(f"\nSlow (over {SLOW / 5:g} s):")
        for o in sorted(slow, key=lambda o: -o.seconds):
            print(f"  `{o.row.expression}`: {o.seconds:.2f} s")
    answered = Counter(o.row.roller for o in outcomes if o.row.expect == "error" and not o.refused)
    if answered:
        print("\nWhat a roller refuses and hc answers (not counted):")
        for o in outcomes:
            if o.row.expect == "error" and not o.refused:
                span = f"{_text(o.low)}..{_text(o.high)}"
                print(f"  `{o.row.expression}` [{o.row.roller}]: hc gives {span}")


def _line(name: str, group: list[Outcome]) -> None:
    tested = [o for o in group if o.row.expect != "error"]
    errors = [o for o in group if o.row.expect == "error"]
    print(
        f"{name:<18} {len(tested):>6} {len(refused(group)):>7} "
        f"{len(odds_refused(group)):>12} "
        f"{sum(1 for o in tested if o.refused and o.row.deliberate):>10} "
        f"{len(disagreeing(group)):>8} "
        f"{sum(1 for o in group if o.disagrees and o.row.reading):>8} "
        f"{sum(1 for o in errors if not o.refused):>24}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="list every refused expression")
    parser.add_argument("--feature", help="only the expressions of this feature")
    parser.add_argument("--roller", help="only the expressions of this roller")
    a = parser.parse_args()
    rows = [r for r in load() if a.feature in (None, r.feature) and a.roller in (None, r.roller)]
    started = time.perf_counter()
    outcomes = [run(r) for r in rows]
    report(outcomes, a.all)
    print(f"\n{len(rows)} expressions in {time.perf_counter() - started:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()

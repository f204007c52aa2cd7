"""`hc sweep`: one option of one action over a range of values, each point the exact `--odds` of
that action (the same resolver that rolls it), the tables loaded once for them all: its mean
and the chance of at least k, point by point. No typer, no rich: values in, rows out."""

from __future__ import annotations

import math
from typing import Any

from hc_cli.core.errors import HcError, OutOfRange

MOST_POINTS = 1000  # a chart a screen shows, or a table a script reads: far fewer
MOST_AT_LEAST = 6  # "at least k" columns: the first ones say what a player asks


def points(text: str) -> tuple[str, list[Any]]:
    """`range=2..24` (every whole number), `range=2..24:2` (a step), `range=2,6,12` or
    `weapon=bolt-gun,lascannon` (a list): (the option's name, its values)."""
    name, equals, values = text.partition("=")
    name = name.strip().lstrip("-")
    if "." not in name:  # an option, as the command line spells it; a table's value as named
        name = name.replace("-", "_")
    if not equals or not name or not values:
        raise HcError(
            f"--over {text}: no option and values",
            "give --over NAME=FROM..TO (a step: FROM..TO:STEP), or NAME=A,B,C",
        )
    span, colon, step_text = values.partition(":")
    if ".." in span:
        low_text, _, high_text = span.partition("..")
        try:
            low, high = float(low_text), float(high_text)
            step = float(step_text) if colon else 1.0
        except ValueError:
            raise HcError(
                f"--over {text}: '{values}' is no range of numbers",
                "give FROM..TO or FROM..TO:STEP, e.g. range=2..24:2",
            ) from None
        if not all(math.isfinite(v) for v in (low, high, step)):
            raise HcError(f"--over {text}: '{values}' is no range of numbers",
                          "give FROM..TO or FROM..TO:STEP, e.g. range=2..24:2")  # fmt: skip
        if step <= 0 or high < low:
            raise HcError(
                f"--over {text}: the range goes nowhere",
                "give FROM..TO with FROM at most TO, and a step above 0",
            )
        count = int((high - low) / step + 1e-9) + 1
        if count > MOST_POINTS:
            raise HcError(
                f"--over {text}: {count:,} points (at most {MOST_POINTS:,})", "take a larger step"
            )
        found = [low + i * step for i in range(count)]
        return name, [int(v) if float(v).is_integer() else round(v, 9) for v in found]
    listed = [v.strip() for v in values.split(",") if v.strip()]
    if len(listed) > MOST_POINTS:
        raise HcError(f"--over {text}: {len(listed):,} values (at most {MOST_POINTS:,})")
    out: list[Any] = []
    for value in listed:
        try:
            number = float(value)
            out.append(int(number) if number.is_integer() else number)
        except ValueError:
            out.append(value)
    return name, out


def _count_of(ruleset: str) -> str:
    """What the rule set's games count a shot by (`GameRules.compare_count`), if it keeps
    games: the same measure in a game's compare and outside one."""
    from hc_cli.plugin import registry

    return getattr(registry.get(ruleset).game_rules, "compare_count", "") or ""


def sweep(
    command: str,
    ruleset: str,
    flags: dict[str, Any],
    name: str,
    values: list[Any],
    rules: tuple[str, ...] = (),
    measure_of: str | None = None,
    none_may_shoot: bool = False,
) -> dict[str, Any]:
    """Each point's odds: the action's own distribution (the first it counts, else its
    outcomes ranked as they come) and its mean and chances of at least k."""
    from hc_cli.core.odds import at_least_floats, mean
    from hc_cli.plugin import registry
    from hc_cli.plugin.execute import Call, Session, command_of, execute

    declared = command_of(registry.get(ruleset), command)
    layered = name.count(".") == 2  # TABLE.ENTRY.FIELD: a value of the tables, point by point
    option = None if layered else declared.option(name)
    if not layered and (option is None or option.positional):
        takes = ", ".join(
            "--" + o.name.replace("_", "-") for o in declared.options if not o.positional
        )
        raise HcError(
            f"hc {command} reads no --{name.replace('_', '-')}",
            f"it takes {takes}; or sweep a table's value: TABLE.ENTRY.FIELD=VALUES (hc tables "
            "lists the tables, their entries and fields)",
        )
    if option is not None and name in flags:
        raise HcError(
            f"the action gives --{name.replace('_', '-')}, which --over sweeps",
            f"leave --{name.replace('_', '-')} out of the action",
        )
    if measure_of is None:
        measure_of = _count_of(ruleset)
    session = Session()
    rows, measure, samples = [], None, []
    first: HcError | None = None
    for value in values:
        given, over = flags, None
        if option is not None:  # as the command line gives it: a text option's value is text
            typed = str(value) if option.kind == "text" else value
            given = {**flags, name: [typed] if option.many else typed}
        else:  # laid as a house-rules file of one value would lay it, over the tables merged once
            over = (f"--over {name}={value}", *name.split("."), value)
        try:
            res = execute(Call(command, ruleset, given, odds=True, rules=rules, over=over), session)
        except HcError as error:  # past the last band: no shot there, the others stand
            refused = HcError(f"at {name} {value}: {error.message}", error.hint)
            if not isinstance(error, OutOfRange):
                raise refused from None
            first = first or refused
            rows.append({"value": value, "no_shot": error.message})
            continue
        odds = res.odds
        assert odds is not None  # an --odds call: every resolver gives its odds
        samples += [v for v in res.sample_values if v not in samples]
        numeric = {k: v for k, v in odds.distributions.items()
                   if v and all(isinstance(n, int) for n in v)}  # fmt: skip
        if measure is None:
            measure = measure_of if measure_of in numeric else next(iter(numeric), None)
        dist = numeric.get(measure) if measure else None
        row: dict[str, Any] = {"value": value}
        if dist is not None:
            row["mean"] = float(mean(dist))
            tail = at_least_floats(dist)  # P(X >= n) at each n the distribution has
            top = max(tail)
            row["at_least"] = {
                k: next((tail[n] for n in sorted(tail) if n >= k), 0.0)
                for k in range(1, min(top, MOST_AT_LEAST) + 1)
            }  # fmt: skip
        row["outcomes"] = {k: float(p) for k, p in odds.outcomes.items()}
        rows.append(row)
    if first is not None and all("no_shot" in r for r in rows) and not none_may_shoot:
        raise first
    return {"command": command, "ruleset": ruleset, "over": name, "measure": measure,
            "rows": rows, "sample_values": samples}  # fmt: skip


def matrix(
    command: str,
    ruleset: str,
    flags: dict[str, Any],
    attackers: tuple[str, list[Any]],
    targets: tuple[str, list[Any]],
    rules: tuple[str, ...] = (),
) -> dict[str, Any]:
    """`hc compare` outside a game: every attacker against every target, each pair the exact
    odds of the action, in the shape a game's compare has: the chance of at least one of what
    it counts and its mean (or the first outcome's chance), best first."""
    first, second = attackers[0], targets[0]
    cells, measure, samples, no_shot = [], None, [], []
    word = "the best outcome"
    if first in flags or second in flags:
        given = first if first in flags else second
        raise HcError(
            f"the action gives --{given.replace('_', '-')}, which --over compares",
            f"leave --{given.replace('_', '-')} out of the action",
        )
    for a in attackers[1]:
        try:
            found = sweep(command, ruleset, {**flags, first: a}, second, targets[1], rules,
                          none_may_shoot=True)  # fmt: skip
        except HcError as error:  # a point's error: at which attacker too
            if not error.message.startswith("at "):
                raise
            said = error.message.removeprefix("at ")
            raise HcError(f"at {first.replace('_', '-')} {a} and {said}", error.hint) from None
        measure = measure or found["measure"]
        samples += [v for v in found["sample_values"] if v not in samples]
        for row in found["rows"]:
            cell: dict[str, Any] = {
                "unit": f"{first.replace('_', '-')} {a}",
                "target": f"{second.replace('_', '-')} {row['value']}",
            }
            if "no_shot" in row:
                no_shot.append({**cell, "range": flags.get("range"), "why": row["no_shot"]})
                continue
            if measure and "mean" in row:
                cell.update(p_any=row["at_least"].get(1, 0.0), mean=row["mean"],
                            at_least={"of": measure, "p": row["at_least"]})  # fmt: skip
            elif measure:  # this pair's odds give no count of it
                cell.update(p_any=0.0, mean=None)
            else:
                word = next(reversed(row["outcomes"]))  # the outcomes end with the best
                cell.update(p_any=row["outcomes"][word], mean=None)
            cells.append(cell)
    if not cells:
        raise HcError(f"no pair has a shot: {no_shot[0]['why']}" if no_shot else "no pair",
                      "give a range within the weapons' bands")  # fmt: skip
    cells.sort(key=lambda c: (-c["p_any"], -(c["mean"] or 0)))
    name = measure or word
    return {
        "game": None,
        "ruleset": ruleset,
        "command": command,
        "columns": [
            {"key": "p_any", "heading": f"P(1+ {name})" if measure else f"P({name})"},
            *([{"key": "mean", "heading": f"mean {measure}"}] if measure else []),
        ],  # fmt: skip
        "cells": [{**c, "range": flags.get("range")} for c in cells],
        "no_shot": no_shot,
        "may_not_fire": [],
        "readings": [],
        "house_rules": list(rules),
        "sample_values": samples,
    }

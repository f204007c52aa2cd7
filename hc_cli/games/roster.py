"""Rosters: the units of each side of a game, in a YAML file, in the rule set's own terms.

```yaml
ruleset: high-crusade
title: Ambush at Karsk            # optional
sides:
  Free Companies:
    fireteam-1: {troop: crusader, figures: 5, weapon: ingrave-ar}
  Orcs:
    boyz: {troop: orc, figures: 8, weapon: bolt-gun}
```

What a unit's entry may hold is the rule set's (`GameRules.unit_fields`, beside its commands);
every problem is named by file, line and key, as a house-rules file's are (`hc roster check`).
A checked roster is resolved against the tables in use (`GameRules.resolved_unit`): the game
keeps the numbers it started with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError, RulesFileError, UnknownName
from hc_cli.tables.schema import Lined, Problems, check_entry, line_of, plain

if TYPE_CHECKING:
    from hc_cli.plugin.game_rules import GameRules

    # A rule set's game rules as the shared game code holds them: a state of plain data
    Rules = GameRules[dict[str, Any], dict[str, Any]]

MAX_UNITS = 500  # a table's armies, not a database
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
ROSTER_KEYS = ("ruleset", "title", "sides")


def unit_name_problem(name: str) -> str | None:
    """A unit's name is typed on the command line and completed by TAB: lowercase letters,
    digits and hyphens, starting with a letter or digit."""
    if not name or len(name) > 40:
        return "a unit's name is 1 to 40 characters"
    if not set(name) <= _NAME_CHARS or name.startswith("-"):
        return "a unit's name is lowercase letters, digits and hyphens (fireteam-1, boyz)"
    return None


TITLE_MOST = 200  # characters: a title is a line
SIDE_MOST = 40


def text_problem(text: str, most: int) -> str | None:
    """Text a roster gives that is printed at the table: one line, no control characters (an
    escape sequence would reach the terminal), not too long."""
    if len(text) > most:
        return f"{len(text):,} characters, more than {most}"
    if any(not c.isprintable() for c in text):
        return "holds a control character (a newline, a tab, an escape sequence)"
    return None


def side_name_problem(side: object) -> str | None:
    """A side's name: text with a letter or a digit in it, one line, no control characters."""
    if not isinstance(side, str):
        return f"{side!r} is not text"
    if not side.strip():
        return "a side needs a name: this one is empty"
    return text_problem(side, SIDE_MOST)


def game_rules(ruleset: str) -> Rules:
    """The rule set's `GameRules` (`_declared_game`), or an error naming the
    rule sets that keep games."""
    from hc_cli.plugin import registry

    rules = _declared_game(ruleset)
    if rules is None:
        keeping = [n for n in registry.names() if _declared_game(n) is not None]
        raise HcError(
            f"{ruleset} keeps no games: it declares no roster",
            "games are kept for: " + ", ".join(keeping),
        )
    return rules


def _declared_game(ruleset: str) -> Rules | None:
    """The rule set's `GAME` (`RuleSet.game_rules`); None for one that keeps no games."""
    from hc_cli.plugin import registry

    rules: Rules | None = registry.get(ruleset).game_rules
    return rules


def load(path: str, tables_for: Callable[[str], Any] | None = None) -> tuple[str, dict[str, Any]]:
    """A roster file checked whole: (rule set, resolved roster). `tables_for(ruleset)` gives
    the tables to check names against (default: the bundled tables with the house rules in
    force). Every problem is reported at once, each with file, line and key."""
    from hc_cli.plugin import registry
    from hc_cli.tables.load import RulesProblems, existing_file, parse_yaml

    file = existing_file(path, "roster", "give the path of a roster YAML file")
    raw = parse_yaml(file)
    if not isinstance(raw, dict):
        raise RulesFileError(path, getattr(raw, "line", 1), None, "is not a roster", _ROSTER_HINT)
    if "ruleset" not in raw:
        raise RulesFileError(path, line_of(raw, "ruleset"), "ruleset", "missing", _ROSTER_HINT)
    ruleset = raw["ruleset"]
    if not isinstance(ruleset, str) or ruleset not in registry.refs():
        err = UnknownName("rule set", str(ruleset), registry.names())
        raise RulesFileError(path, line_of(raw, "ruleset"), "ruleset", err.message, err.hint)
    rules = game_rules(ruleset)
    tables = tables_for(ruleset) if tables_for is not None else registry.get(ruleset).load_tables()
    problems = Problems()
    for key in raw:
        if key not in ROSTER_KEYS:
            problems.add(
                path,
                line_of(raw, key),
                key,
                "unknown key",
                "a roster has: " + ", ".join(ROSTER_KEYS),
            )
    title = raw.get("title", "")
    if not isinstance(title, str):
        problems.add(path, line_of(raw, "title"), "title", f"{title!r} is not text", "a title")
    else:
        bad = text_problem(title, TITLE_MOST)
        if bad:
            problems.add(path, line_of(raw, "title"), "title", bad, "a title of a line")
    sides = raw.get("sides")
    resolved: dict[str, dict[str, Any]] = {}
    if not isinstance(sides, dict) or not sides:
        problems.add(
            path,
            line_of(raw, "sides"),
            "sides",
            "missing" if sides is None else "is not a mapping of sides",
            "give each side's name, and under it its units",
        )
    else:
        resolved = _sides(sides, rules, ruleset, tables, path, problems, line_of(raw, "sides"))
        count = sum(len(units) for units in sides.values() if isinstance(units, dict))
        if count > MAX_UNITS:
            problems.add(
                path, line_of(raw, "sides"), "sides", f"{count} units", f"at most {MAX_UNITS}"
            )
    if problems.items:
        raise RulesProblems(problems.items)
    return ruleset, {"title": title, "sides": resolved}


def _sides(
    sides: dict[Any, Any],
    rules: Rules,
    ruleset: str,
    tables: Any,
    path: str,
    problems: Problems,
    sides_line: int | None,
) -> dict[str, dict[str, Any]]:
    """A roster's sides checked (each problem added to `problems`), and its units resolved
    against the tables."""
    resolved: dict[str, dict[str, Any]] = {}
    least, most = rules.sides
    if not least <= len(sides) <= most:
        problems.add(
            path,
            sides_line,
            "sides",
            f"{len(sides)} side(s)",
            f"a game of {ruleset} has "
            + (f"{least}" if least == most else f"{least} to {most}")
            + " sides",
        )
    seen: dict[str, str] = {}
    sides_seen: dict[str, str] = {}
    for side, units in sides.items():
        key = f"sides.{side}"
        line = sides.line_of(side) if isinstance(sides, Lined) else None
        bad = side_name_problem(side)
        if bad is None and str(side).strip().casefold() in sides_seen:
            bad = f"the same name as side '{sides_seen[str(side).strip().casefold()]}'"
        if bad:
            problems.add(path, line, key, bad, "give each side a name of its own")
        else:
            sides_seen[side.strip().casefold()] = side
        if not isinstance(units, dict) or not units:
            problems.add(
                path,
                line,
                key,
                "has no units" if not units else "is not a mapping of units",
                f"under each side, its units by name: fireteam-1: {{{rules.example}}}",
            )
            continue
        resolved[side] = {}
        for name, unit in units.items():
            unit_key = f"{key}.{name}"
            unit_line = units.line_of(name) if isinstance(units, Lined) else line
            bad = unit_name_problem(name)
            if bad:
                problems.add(path, unit_line, unit_key, bad, "rename it")
            if name in seen:
                problems.add(
                    path,
                    unit_line,
                    unit_key,
                    f"a unit of this name is already in side '{seen[name]}'",
                    "every unit of a game has a name of its own",
                )
            seen[name] = side
            if not isinstance(unit, dict):
                problems.add(
                    path,
                    unit_line,
                    unit_key,
                    f"{unit!r} is not a unit",
                    f"a unit is a mapping: {{{rules.example}}}",
                )
                continue
            before = len(problems.items)
            check_entry(unit, rules.unit_fields, path, unit_key, problems, False, line=unit_line)
            if len(problems.items) == before:
                rules.check_unit(name, unit, tables, path, unit_key, problems)
            if len(problems.items) == before:
                resolved[side][name] = {
                    **rules.resolved_unit(plain(unit), tables),
                    "roster": plain(unit),
                }
    return resolved


_ROSTER_HINT = (
    "a roster starts with its rule set (ruleset: high-crusade), then its sides and their units"
)


def check_file(path: str) -> list[str]:
    """`hc roster check FILE`: every problem, or what the roster holds."""
    ruleset, roster = load(path)
    rules = game_rules(ruleset)
    lines = [
        f"{path}: a valid roster for {ruleset}"
        + (f": {roster['title']}" if roster["title"] else "")
    ]
    for side, units in roster["sides"].items():
        lines.append(f"  {side}: " + ", ".join(rules.describe_unit(n, u) for n, u in units.items()))
    return lines


def roster_problem(rules: Rules, roster: dict[str, Any]) -> str | None:
    """What is wrong with a game file's roster, checked as strictly as a roster file: the
    title, the sides and the units' names (all printed at the table), and each unit's fields
    of the kinds its rule set takes. None when it is whole."""
    from hc_cli.tables.schema import check_value

    title = roster.get("title", "")
    if not isinstance(title, str) or text_problem(title, TITLE_MOST):
        return "has a title that is no title"
    sides = roster.get("sides")
    least, most = rules.sides
    if not isinstance(sides, dict) or not least <= len(sides) <= most:
        return f"does not have {least} to {most} sides"
    for side, units in sides.items():
        if side_name_problem(side):
            return f"has a side named {side!r:.40}: {side_name_problem(side)}"
        if not isinstance(units, dict) or not units:
            return f"has no units for side {side}"
        for name, unit in units.items():
            if unit_name_problem(name):
                return f"has a unit named {name!r:.40}: {unit_name_problem(name)}"
            if not isinstance(unit, dict):
                return f"has a unit {name} that is no unit"
            for key, kind in rules.resolved_kinds.items():
                if not _of_kind(unit.get(key), kind):
                    return f"has a unit {name} whose {key} is not what hc game new writes"
            problems = Problems()
            for key, spec in rules.unit_fields.items():
                if key in rules.resolved_kinds and not isinstance(unit.get(key), int):
                    continue  # resolved from the tables (a profile's name): its kind is checked
                if unit.get(key) is None:
                    if spec.required:
                        return f"has a unit {name} without its {key}"
                    continue
                check_value(unit[key], spec, "", None, f"{name}.{key}", problems)
            if problems.items:
                return (
                    f"has a unit {name} whose {problems.items[0].key}: {problems.items[0].problem}"
                )
    return None


def _of_kind(value: object, kind: str) -> bool:
    """Whether a value read from a game file is of the kind its field takes (`GameRules.
    resolved_kinds`)."""
    if kind.endswith("?"):
        if value is None:
            return True
        kind = kind[:-1]
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "map:int":
        return isinstance(value, dict) and all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in value.items()
        )
    types = {"str": str, "bool": bool, "list": list, "map": dict}
    return isinstance(value, types[kind])

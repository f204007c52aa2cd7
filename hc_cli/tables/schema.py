"""A small declarative schema for rules tables, checked with file, line and key in every message.

A rule set declares, per table, the fields an entry may have. `check_entry` reports every
problem it finds (not just the first), so `hc rules check` can list them all at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from hc_cli.core.errors import RulesFileError
from hc_cli.core.numbers import as_text

if TYPE_CHECKING:
    Entry: TypeAlias = dict[str, Any]  # an entry's fields as read (and laid) from the files
    Tables: TypeAlias = dict[str, dict[str, Entry]]  # table -> entry name -> entry


class Lined(dict[str, object]):
    """A YAML mapping that remembers the line of each key (1-based), for error messages."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line) if hasattr(self, "key_lines") else self.line


class LinedList(list[object]):
    line: int = 0
    item_lines: list[int]


def line_of(container: Any, key: str) -> int | None:
    """The line of `key` in a mapping read from YAML (`Lined`); None for any other value."""
    return container.line_of(key) if isinstance(container, Lined) else None


def line_at(container: Any, index: int | None = None) -> int | None:
    """The line a YAML value starts on, or that of its item `index` (`LinedList`); None for
    a value not read from YAML."""
    if index is not None:
        lines = getattr(container, "item_lines", None)
        return lines[index] if lines is not None and index < len(lines) else None
    return getattr(container, "line", None)


@dataclass(frozen=True, slots=True)
class Field:
    kind: str  # "int", "number", "str", "bool", "list", "map"
    required: bool = False
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    items: dict[str, Field] | None = None  # for a list of mappings
    item_kind: str | None = None  # for a list of scalars
    help: str = ""


@dataclass(slots=True)
class Problems:
    """Collects every problem in a file instead of stopping at the first."""

    items: list[RulesFileError] = field(default_factory=list)

    def add(
        self, path: str, line: int | None, key: str, problem: str, hint: str | None = None
    ) -> None:
        self.items.append(RulesFileError(path, line, key, problem, hint))


_KIND_NAMES = {
    "int": "a whole number",
    "number": "a number",
    "str": "text",
    "bool": "true or false",
    "list": "a list",
    "map": "a mapping (key: value lines)",
    "any": "a value",
    "dice": "a number of wounds or dice such as d6 or 2d6",
}


def _is_kind(value: Any, kind: str) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "list":
        return isinstance(value, list)
    if kind == "map":
        return isinstance(value, dict)
    if kind == "any":
        return True
    if kind == "dice":
        return _is_dice(value)
    raise ValueError(kind)


def _is_dice(value: Any) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return value >= 0
    if not isinstance(value, str):
        return False
    from hc_cli.core.numbers import is_whole

    if is_whole(value):
        return int(value) >= 0
    from hc_cli.core.errors import HcError
    from hc_cli.core.roll import parse

    try:
        parse(value)
    except HcError:
        return False
    return True


def _line(container: Any, key: Any) -> int | None:
    if isinstance(container, Lined):
        return container.line_of(key)
    if (
        isinstance(container, LinedList)
        and isinstance(key, int)
        and key < len(container.item_lines)
    ):
        return container.item_lines[key]
    return getattr(container, "line", None)


def check_value(
    value: Any, spec: Field, path: str, line: int | None, key: str, problems: Problems
) -> None:
    if not _is_kind(value, spec.kind):
        problems.add(
            path,
            line,
            key,
            f"{value!r} is not {_KIND_NAMES[spec.kind]}",
            f"{key} takes {_KIND_NAMES[spec.kind]}" + (f": {spec.help}" if spec.help else ""),
        )
        return
    if spec.choices and value not in spec.choices:
        from difflib import get_close_matches

        close = get_close_matches(str(value), spec.choices, n=1)
        hint = f"did you mean '{close[0]}'?" if close else "one of: " + ", ".join(spec.choices)
        problems.add(path, line, key, f"'{value}' is not allowed", hint)
    if spec.minimum is not None and value < spec.minimum:
        problems.add(
            path,
            line,
            key,
            f"{value} is below the least allowed value {spec.minimum:g}",
            spec.help or None,
        )
    if spec.maximum is not None and value > spec.maximum:
        problems.add(
            path,
            line,
            key,
            f"{value} is above the greatest allowed value {spec.maximum:g}",
            spec.help or None,
        )
    if spec.kind == "map" and spec.items is not None:
        check_entry(value, spec.items, path, key, problems, partial=False)
    if spec.kind == "list":
        for i, item in enumerate(value):
            item_line = _line(value, i)
            item_key = f"{key}[{i}]"
            if spec.items is not None:
                if not isinstance(item, dict):
                    problems.add(
                        path,
                        item_line,
                        item_key,
                        f"{item!r} is not a mapping",
                        "each item takes: " + ", ".join(spec.items),
                    )
                    continue
                check_entry(item, spec.items, path, item_key, problems, partial=False)
            elif spec.item_kind is not None:
                check_value(item, Field(spec.item_kind), path, item_line, item_key, problems)


def check_entry(
    entry: Entry,
    schema: dict[str, Field],
    path: str,
    key: str,
    problems: Problems,
    partial: bool,
    exempt: tuple[str, ...] = (),
    line: int | None = None,
) -> None:
    """Check one entry. `partial` entries change an existing one, so nothing is required;
    `exempt` fields are filled in by the caller; `line` is where the entry is named."""
    for name, value in entry.items():
        spec = schema.get(name)
        if spec is None:
            from difflib import get_close_matches

            close = get_close_matches(str(name), list(schema), n=1)
            hint = f"did you mean '{close[0]}'?" if close else "known keys: " + ", ".join(schema)
            problems.add(path, _line(entry, name), f"{key}.{name}", "unknown key", hint)
            continue
        check_value(value, spec, path, _line(entry, name), f"{key}.{name}", problems)
    if not partial:
        for name, spec in schema.items():
            if spec.required and name not in entry and name not in exempt:
                problems.add(
                    path,
                    line or _line(entry, None),
                    f"{key}.{name}",
                    "missing",
                    f"every entry needs {name}" + (f" ({spec.help})" if spec.help else ""),
                )


def plain(value: Any) -> Any:
    """Strip line bookkeeping: plain dicts and lists, ready for JSON."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def origin(entry: Entry, field: str) -> tuple[str, int | None]:
    """The file and line that gave a merged entry its `field`: the house-rules file that
    changed it last, else the file the entry came from."""
    path = entry.get("_changed", {}).get(field) or entry.get("_file") or "rules"
    return path, entry.get("_lines", {}).get(field)


def check_required(
    tables: Tables, table: str, names: Iterable[str], rules_of: str, problems: Problems
) -> None:
    """Each named entry of the table there: the procedures of `rules_of` (a rule set's title)
    need it."""
    for name in names:
        if name not in tables[table]:
            problems.add(
                "rules",
                None,
                f"{table}.{name}",
                "missing",
                f"the {rules_of} procedures need it; do not remove it",
            )


def check_bounds(
    tables: Tables,
    table: str,
    bounds: Mapping[str, tuple[float, float, str]],
    problems: Problems,
    field: str = "value",
) -> None:
    """Each named entry's `field` within (least, greatest, why): a number a procedure divides
    by, rolls as a die or counts with, bounded as strictly as it is used."""
    for name, (low, high, why) in bounds.items():
        entry = tables.get(table, {}).get(name)
        if entry is None:
            continue  # a missing entry is reported as missing
        value = entry.get(field)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not low <= value <= high:
                path, line = origin(entry, field)
                problems.add(
                    path,
                    line,
                    f"{table}.{name}.{field}",
                    f"{as_text(value)} is outside {as_text(low)}..{as_text(high)}",
                    why,
                )

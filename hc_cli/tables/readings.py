"""Readings: where a rule text is garbled or ambiguous, the tool's reading is a named entry
of the rule set's `readings` table, with its alternatives, the one in force (`choice`) and
one line of reasoning. A house-rules file switches one by giving another `choice`; the output
names every reading that decided a result; `hc tables readings` lists them all.

Every rule set's schema takes the table as `SCHEMA`, its cross-check calls `check`, and its
resolvers ask `choose`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hc_cli.core.errors import HcError
from hc_cli.tables.schema import Field, Problems

if TYPE_CHECKING:
    from hc_cli.core.model import Resolution
    from hc_cli.tables.load import MergedTables
    from hc_cli.tables.schema import Tables

SCHEMA: dict[str, Field] = {
    "choice": Field("str", required=True, help="the reading in force: one of the alternatives"),
    "alternatives": Field("map", required=True, help="each reading's name and what it means"),
    "why": Field("str", help="one line: why the default reads the text so"),
    "source": Field("str", required=True, help="the passage it reads"),
}


def check(tables: Tables, required: tuple[str, ...], problems: Problems) -> None:
    """Each reading's choice is one of its alternatives; the rule set's own are all there."""
    readings = tables.get("readings", {})
    for name in required:
        if name not in readings:
            problems.add("readings", None, f"readings.{name}", "missing", "the resolvers need it")
    from hc_cli.tables.schema import origin

    for name, entry in readings.items():
        alternatives = entry.get("alternatives") or {}
        if entry.get("choice") not in alternatives:
            path, line = origin(entry, "choice")
            problems.add(
                path,
                line,
                f"readings.{name}.choice",
                f"'{entry.get('choice')}' is not one of its alternatives",
                "choose one of: " + ", ".join(alternatives),
            )


def choose(merged: MergedTables, name: str, res: Resolution | None = None) -> str:
    """The reading in force for `name`; with `res`, the resolution notes that it decided."""
    entry = merged.tables.get("readings", {}).get(name)
    if entry is None:
        raise HcError(f"no reading '{name}' in the tables", "restore it in readings.yaml")
    choice = str(entry["choice"])
    if res is not None:
        chosen_by = entry.get("_changed", {}).get("choice")
        note = f"{name} = {choice}" + (
            f" (chosen by {chosen_by.rpartition('/')[2]})" if chosen_by else ""
        )
        if note not in res.readings:
            res.readings.append(note)
    return choice

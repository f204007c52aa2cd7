"""`hc tables`: the merged tables as rows of text, each entry with where it came from."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import UnknownName
from hc_cli.tables.load import MergedTables
from hc_cli.tables.paths import data_root

if TYPE_CHECKING:
    from hc_cli.tables.schema import Entry

INTERNAL = {"_file", "_changed", "_lines", "field_sources"}


@dataclass(slots=True)
class TableListing:
    name: str
    columns: list[str]
    rows: list[list[str]]


@dataclass(slots=True)
class Listing:
    ruleset: str
    files: list[str]
    tables: list[TableListing]
    merged: MergedTables

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "files": self.files,
            "skipped": self.merged.skipped,
            "digest": self.merged.digest,
            "tables": {
                t.name: {k: _public(v) for k, v in self.merged.tables[t.name].items()}
                for t in self.tables
                if t.name in self.merged.tables
            },
        }


def _public(entry: Entry) -> Entry:
    d = {k: v for k, v in entry.items() if not k.startswith("_")}
    d["file"] = _short(entry.get("_file", ""))
    if entry.get("_changed"):
        d["changed_by"] = {k: _short(v) for k, v in entry["_changed"].items()}
    return d


def _short(path: str) -> str:
    """Bundled files by their place in rules_data/, house rules by their own path."""
    root = data_root()
    return Path(path).name if path.startswith(root) else path


def _cell(table: str, key: str, value: Any) -> str:
    if key == "bands" and isinstance(value, list):
        low, parts = 0, []
        for band in value:
            parts.append(f'{low:g}-{band["up_to"]:g}" {band["chance"]}/{band["penetration"]}')
            low = band["up_to"]
        return ", ".join(parts)
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, int):
        signed = key in ("melee", "morale") or (key == "value" and table == "modifiers")
        return f"{value:+d}" if signed else str(value)
    if _is_grid(value):
        return "(the grid below)"
    if isinstance(value, dict):  # each on a line of its own: "reroll-ties: each side ..."
        return "\n".join(f"{k}: {v}" for k, v in value.items())
    if isinstance(value, list):
        return "; ".join(_cell(table, key, v) if isinstance(v, dict) else str(v) for v in value)
    return str(value)


def _is_grid(value: Any) -> bool:
    """A chart printed as rows of numbers, such as Rogue Trader's Strength/Toughness chart."""
    return isinstance(value, list) and bool(value) and all(isinstance(row, list) for row in value)


def _grids(table: str, entries: dict[str, Entry]) -> list[TableListing]:
    """Each grid in a table as a table of its own, numbered down and across from 1."""
    grids = []
    for key, entry in entries.items():
        for field, value in entry.items():
            if field not in INTERNAL and _is_grid(value):
                width = max(len(row) for row in value)
                grids.append(
                    TableListing(
                        f"{table}: {key} ({field}, numbered down and across)",
                        ["", *(str(i) for i in range(1, width + 1))],
                        [[str(i), *(str(v) for v in row)] for i, row in enumerate(value, 1)],
                    )
                )
    return grids


def _origin(entry: Entry) -> str:
    origin = _short(entry.get("_file", ""))
    changed = entry.get("_changed") or {}
    if changed:
        by = sorted(set(changed.values()))
        origin += (
            "; changed by "
            + ", ".join(_short(f) for f in by)
            + " ("
            + ", ".join(sorted(changed))
            + ")"
        )
    return origin


def _source(entry: Entry) -> str:
    """The entry's source, then the fields whose numbers come from elsewhere: 'sample; seed
    000: melee'."""
    by_source: dict[str, list[str]] = {}
    for name, source in (entry.get("field_sources") or {}).items():
        by_source.setdefault(source, []).append(name)
    return "; ".join(
        [entry.get("source", "")]
        + [f"{source}: {', '.join(names)}" for source, names in by_source.items()]
    )


def list_tables(merged: MergedTables, name: str | None) -> Listing:
    names = list(merged.tables)
    if name is not None:
        key = name.strip().lower()
        if key not in merged.tables:
            raise UnknownName("table", key, names)
        names = [key]
    listings = []
    for table in names:
        entries = merged.tables[table]
        columns: list[str] = []
        for entry in entries.values():
            for k in entry:
                if k not in INTERNAL and k != "source" and k not in columns:
                    columns.append(k)
        rows = [
            [key] + [_cell(table, c, e.get(c, "")) for c in columns] + [_source(e), _origin(e)]
            for key, e in entries.items()
        ]
        listings.append(TableListing(table, ["key", *columns, "source", "from"], rows))
        listings.extend(_grids(table, entries))
    return Listing(merged.ruleset, [_short(f) for f in merged.files], listings, merged)

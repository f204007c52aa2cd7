"""What every rule set's typed table entries share: a key, and where the numbers came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from hc_cli.core.errors import UnknownName

E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class Entry:
    key: str
    source: str
    field_sources: dict[str, str] = field(default_factory=dict)
    changed: dict[str, str] = field(default_factory=dict)  # field -> house-rules file
    added_by: str = ""  # the house-rules file that added this entry

    def source_of(self, name: str) -> str:
        """Where the number in `name` comes from in words: the book's tag, "sample", or the
        house-rules file that set it, by its name ("house.yaml")."""
        house = self.house_file(name)
        return house or self.field_sources.get(name, self.source)

    def house_file(self, name: str) -> str:
        """The name of the house-rules file that set this field (or added this entry); empty
        for the bundled tables' own."""
        path = self.changed.get(name) or self.added_by
        return path.rpartition("/")[2] if path else ""

    def is_sample(self, name: str) -> bool:
        return self.source_of(name) == "sample"


def entry_args(key: str, raw: dict[str, Any]) -> dict[str, Any]:
    """The `Entry` fields of a merged table entry, for a subclass's constructor."""
    return {
        "key": key,
        "source": raw["source"],
        "field_sources": raw.get("field_sources", {}),
        "changed": raw.get("_changed", {}),
        "added_by": raw.get("_added_by", ""),
    }


def lookup(table: dict[str, E], kind: str, name: str) -> E:
    """An entry by name (case-insensitive), or an error with the nearest names."""
    key = name.strip().lower()
    if key not in table:
        raise UnknownName(kind, key, table)
    return table[key]

"""What every rule set's typed table entries share: a key, and where the numbers came from."""

from __future__ import annotations

from hc_cli.errors import UnknownName
from hc_cli.record import field, record

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any, TypeVar

    E = TypeVar("E")


@record(frozen=True)
class Entry:
    key: str
    source: str
    field_sources: dict[str, str] = field(default_factory=dict)
    changed: dict[str, str] = field(default_factory=dict)  # field -> house-rules file

    def source_of(self, name: str) -> str:
        if name in self.changed:
            return f"house rules ({self.changed[name]})"
        return self.field_sources.get(name, self.source)

    def is_sample(self, name: str) -> bool:
        return self.source_of(name) == "sample"


def entry_args(key: str, raw: dict[str, Any]) -> dict[str, Any]:
    """The `Entry` fields of a merged table entry, for a subclass's constructor."""
    return {
        "key": key,
        "source": raw["source"],
        "field_sources": raw.get("field_sources", {}),
        "changed": raw.get("_changed", {}),
    }


def lookup(table: dict[str, E], kind: str, name: str) -> E:
    """An entry by name (case-insensitive), or an error with the nearest names."""
    key = name.strip().lower()
    if key not in table:
        raise UnknownName(kind, key, table)
    return table[key]

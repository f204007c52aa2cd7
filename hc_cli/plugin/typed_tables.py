"""How a rule set's implementation module loads its tables: one `Tables` gives it its
`schemas()` and `load_tables()`, and `table_names` what TAB offers from a table."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from hc_cli.plugin.declare import RuleSet
from hc_cli.tables.load import MergedTables, TableSchemas, load_typed

if TYPE_CHECKING:
    from hc_cli.plugin.contract import CrossCheck, Over

T = TypeVar("T")  # the rule set's typed tables (`HighCrusadeTables`)


class Tables(Generic[T]):
    """A rule set's tables as its implementation module loads them: `schemas` (its schemas and
    the check across its tables) and `load` (the typed tables `build` makes of the merged
    files, house rules and `over` laid over them) are the module's `schemas()` and
    `load_tables()`."""

    __slots__ = ("declaration", "table_schemas", "cross_check", "build")

    def __init__(
        self,
        declaration: RuleSet,
        table_schemas: TableSchemas,
        cross_check: CrossCheck | None,
        build: Callable[[MergedTables], T],
    ) -> None:
        self.declaration = declaration
        self.table_schemas = table_schemas
        self.cross_check = cross_check
        self.build = build

    def schemas(self) -> tuple[TableSchemas, CrossCheck | None]:
        return self.table_schemas, self.cross_check

    def load(self, house_files: list[str] | None = None, over: Over | None = None) -> T:
        tables: T = load_typed(self.declaration, self.schemas, house_files, self.build, over)
        return tables


def table_names(tables: object, table: str | None) -> list[str]:
    """The names of one table of a rule set's typed tables (none for no table): what TAB
    offers for an option that names an entry of it."""
    return sorted(getattr(tables, table)) if table else []

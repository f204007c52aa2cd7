"""The values TAB offers for an option: a rule set's table names (weapons, targets, ...) under
the house rules in force, worked out once through the rule set and cached beside the tables'
stat key. Shared by the TAB fast path, click's completion and the hints of an unknown name."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any


def values_for(ruleset: str, command: str, option: str, rules: list[str]) -> list[str]:
    """The values TAB offers for an option (or argument) of a command in a rule set."""
    if option == "ruleset":
        from hc_cli.plugin import registry

        return registry.names()
    if command == "completion" and option == "shell":
        from hc_cli.plugin.shared_commands import SHELLS as SHELL_NAMES

        return list(SHELL_NAMES)
    table_values = _table_values(ruleset, rules)
    return [] if table_values is None else table_values.get(command, {}).get(option, [])


def _table_values(ruleset: str, rules: list[str]) -> dict | None:
    """Every completable value of every command's options for this rule set and these house
    rules: from the cache, or worked out once through the rule set and cached."""
    from hc_cli.core.errors import HcError
    from hc_cli.plugin import registry
    from hc_cli.tables.files import read_cache, write_cache
    from hc_cli.tables.paths import cache_dir, house_rule_paths, stat_key, yaml_files

    try:
        declaration = registry.get(ruleset)
        files = yaml_files(declaration.data) + house_rule_paths(rules)
        name, description = stat_key(ruleset, files)
    except (HcError, OSError):
        return None  # an unknown rule set, or a house-rules file that is not there
    cached = os.path.join(cache_dir(), f"completion-{name}.cache")
    found = read_cache(cached, description, MAX_CACHE_BYTES)
    if _values_shape(found) and set(found) == {*declaration.commands, "tables"}:
        return found
    built = build_values(declaration, rules)
    if built is not None:
        write_cache(cached, description, built)
    return built


MAX_CACHE_BYTES = 8_000_000  # the names TAB offers for a rule set: far less


def _values_shape(values: Any) -> bool:
    """command -> option -> list of names, as `build_values` writes it."""
    return isinstance(values, dict) and all(
        isinstance(options, dict)
        and all(
            isinstance(names, list) and all(isinstance(n, str) for n in names)
            for names in options.values()
        )
        for options in values.values()
    )


def build_values(declaration: Any, rules: list[str]) -> dict | None:
    from hc_cli.core.errors import HcError

    try:
        module = declaration.implementation()
        tables = module.load_tables(rules or None)
    except HcError:
        return None
    values = {
        name: {o.name: module.complete(tables, name, o.name) for o in command.options if o.complete}
        for name, command in declaration.commands.items()
    }
    values["tables"] = {"name": list(tables.merged.tables)}
    return values

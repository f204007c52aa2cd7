"""The values TAB offers for an option: a rule set's table names (weapons, targets, ...) under
the house rules in force, kept with the tables in their cache (`hc_cli.tables.load`). Shared
by TAB completion and the hints of an unknown name."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hc_cli.plugin.declare import RuleSet

    Values = dict[str, dict[str, list[str]]]  # command -> option -> the names TAB offers


def values_for(ruleset: str, command: str, option: str, rules: list[str]) -> list[str]:
    """The values TAB offers for an option (or argument) of a command in a rule set."""
    if option == "ruleset":
        from hc_cli.plugin import registry

        return registry.names()
    if command == "completion" and option == "shell":
        from hc_cli.plugin.shared_commands import SHELLS as SHELL_NAMES

        return list(SHELL_NAMES)
    if command == "compare" and option == "shot":  # the kinds of shot hc fire takes
        command = "fire"
    table_values = _table_values(ruleset, rules)
    return [] if table_values is None else table_values.get(command, {}).get(option, [])


def _table_values(ruleset: str, rules: list[str]) -> Values | None:
    """Every completable value of every command's options for this rule set and these house
    rules: kept with the tables in their cache (a TAB press then imports no resolver: about
    20 ms, as long as the rest of the press), or worked out through the rule set."""
    from hc_cli.core.errors import HcError
    from hc_cli.plugin import registry
    from hc_cli.tables.load import kept_with_tables

    try:
        declaration = registry.get(ruleset)
        found = kept_with_tables(
            declaration, rules, "completion", lambda: build_values(declaration, rules)
        )
    except (HcError, OSError):
        return None  # an unknown rule set, or a house-rules file that is not there
    if _values_shape(found) and set(found) == {*declaration.commands, "tables"}:
        kept: Values = found
        return kept
    return build_values(declaration, rules)  # a cache of another shape: worked out again


def _values_shape(values: object) -> bool:
    """command -> option -> list of names, as `build_values` writes it."""
    return isinstance(values, dict) and all(
        isinstance(options, dict)
        and all(
            isinstance(names, list) and all(isinstance(n, str) for n in names)
            for names in options.values()
        )
        for options in values.values()
    )


def build_values(declaration: RuleSet, rules: list[str]) -> Values | None:
    from hc_cli.core.errors import HcError

    try:
        module = declaration.module
        tables = module.load_tables(rules or None)
    except HcError:
        return None
    values = {
        name: {o.name: module.complete(tables, name, o.name) for o in command.options if o.complete}
        for name, command in declaration.commands.items()
    }
    values["tables"] = {"name": list(tables.merged.tables)}
    return values

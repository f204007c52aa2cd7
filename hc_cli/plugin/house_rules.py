"""`hc rules check FILE`: a house-rules file checked against its rule set, alone over the
bundled tables, with every problem named by file, line and key, and what it would change."""

from __future__ import annotations

from hc_cli.core.errors import RulesFileError, UnknownName
from hc_cli.plugin import registry
from hc_cli.tables.load import bundled_files, existing_file, merge, parse_yaml
from hc_cli.tables.schema import line_of


def check_file(path: str) -> list[str]:
    file = existing_file(path, "house-rules file", "give the path of a YAML file")
    raw = parse_yaml(file)
    if not isinstance(raw, dict) or "ruleset" not in raw:
        raise RulesFileError(
            path,
            getattr(raw, "line", 1),
            "ruleset",
            "missing",
            "start the file with the rule set it changes, e.g. 'ruleset: high-crusade'",
        )
    ruleset = raw["ruleset"]
    if not isinstance(ruleset, str) or ruleset not in registry.refs():
        err = UnknownName("rule set", str(ruleset), registry.names())
        raise RulesFileError(path, line_of(raw, "ruleset"), "ruleset", err.message, err.hint)
    declaration = registry.get(ruleset)
    schemas, cross_check = declaration.module.schemas()
    bundled = merge(ruleset, schemas, bundled_files(declaration), [], cross_check)
    merged = merge(ruleset, schemas, bundled_files(declaration), [file], cross_check)
    lines = [f"{path}: a valid house-rules file for {ruleset}"]
    for table, entries in merged.tables.items():
        before = bundled.tables[table]
        added = sorted(set(entries) - set(before))
        removed = sorted(set(before) - set(entries))
        changed = [
            f"{name} ({', '.join(sorted(entry['_changed']))})"
            for name, entry in entries.items()
            if name in before and entry.get("_changed")
        ]
        if added:
            lines.append(f"  adds {table}: " + ", ".join(added))
        if changed:
            lines.append(f"  changes {table}: " + ", ".join(changed))
        if removed:
            lines.append(f"  removes {table}: " + ", ".join(removed))
    if len(lines) == 1:
        lines.append("  it changes nothing")
    return lines

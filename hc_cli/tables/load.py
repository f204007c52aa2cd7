"""Finding, reading, checking and layering the rules tables.

Order of layers, later wins: the bundled `rules_data/<ruleset>/*.yaml`; every `*.yaml` in the
user's config directory for hc (`$XDG_CONFIG_HOME/hc`, default `~/.config/hc`), by file name;
the files in `HC_RULES` (os.pathsep-separated); the `--rules` files in the order given.

A house-rules file names its `ruleset:` and may, per table: add an entry (a new name, every
required field), change an entry (an existing name, only the fields it gives; a list or a
mapping, such as `bands` or a `profile`, is replaced whole), or remove entries
(`remove: {weapons: [name, ...]}`). A file for another rule set is refused when it was asked
for (`--rules`, `HC_RULES`); in the config directory, which serves every game, it is skipped,
and `hc tables` says so.

Parsing YAML costs more than the rest of a resolution, and every TAB press pays start-up, so
the checked, merged result is cached as JSON, keyed on the files' paths, sizes and times.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from hc_cli.core.errors import HcError, RulesFileError, UnknownName
from hc_cli.core.words import printable, shown_as_is
from hc_cli.tables.files import read_cache, write_cache
from hc_cli.tables.paths import (
    cache_dir,
    config_rule_files,
    house_rule_paths,
    stat_key,
    yaml_files,
)
from hc_cli.tables.schema import (
    Field,
    Lined,
    LinedList,
    Problems,
    check_entry,
    line_at,
    line_of,
    plain,
)

if TYPE_CHECKING:
    from os import PathLike

    from yaml import SafeLoader

    from hc_cli.tables.schema import Tables

    class RuleSet(Protocol):
        """A rule set's declaration (`hc_cli.plugin.declare.RuleSet`) as its tables see it."""

        name: str
        data: str | PathLike[str]


Typed = TypeVar("Typed")


TableSchemas = dict[str, dict[str, Field]]


class RulesProblems(HcError):
    """One or more problems in rules files; the message lists each with file, line and key."""

    def __init__(self, problems: list[RulesFileError]) -> None:
        first = problems[0]
        more = len(problems) - 1
        message = "\n".join(p.message + (f"  ({p.hint})" if p.hint else "") for p in problems)
        super().__init__(message if more else first.message, None if more else first.hint)
        self.problems = problems


def bundled_files(ruleset: RuleSet) -> list[str]:
    """The rule set's own tables: every *.yaml of its data folder."""
    return yaml_files(ruleset.data)


MAX_RULES_BYTES = 1_000_000  # a house-rules file is a page of YAML, not a megabyte
MAX_CACHE_BYTES = 32_000_000  # the tables of a rule set with its house rules: far less


MOST_RULES_FILES = 64  # house-rules files laid on at once: a table uses a handful


def house_rule_files(cli_files: list[str] | None = None) -> list[str]:
    """Every house-rules file in force, in order; a missing one is an error."""
    paths = house_rule_paths(cli_files)
    if len(paths) > MOST_RULES_FILES:
        raise HcError(
            f"{len(paths):,} house-rules files (the config folder, HC_RULES and --rules): "
            f"more than the {MOST_RULES_FILES} hc lays on at once",
            "gather the house rules into fewer files",
        )
    if any(not p for p in os.environ.get("HC_RULES", "x").split(os.pathsep)):
        raise HcError(
            "HC_RULES has an empty entry",
            f"separate house-rules files with '{os.pathsep}', with no empty one between",
        )
    for given in cli_files or []:
        if not given:
            raise HcError("--rules '' names no file", "give the path of a YAML file")
    hint = "give the path of a YAML file (--rules, HC_RULES or the config directory)"
    return [existing_file(p, "house-rules file", hint) for p in paths]


def existing_file(path: str, what: str, hint: str) -> str:
    """A file that is there to be read (its path written plainly, as pathlib writes it), or an
    error that names it (cut to a readable length) and says why: not there, a name too long, a
    folder that cannot be searched."""
    from pathlib import Path  # only for house-rules and roster files: slow to import

    file = Path(path)
    shown = str(path) if len(str(path)) <= 80 else str(path)[:77] + "..."
    try:
        regular = file.is_file()
    except OSError as exc:
        raise HcError(f"{what} '{shown}' cannot be reached: {exc.strerror}", hint) from None
    if not regular:
        raise HcError(f"{what} '{shown}' does not exist", hint)
    return str(file)


# ---------------------------------------------------------------------------------------------
# YAML with line numbers


def _lined_loader(path: str, base: type[SafeLoader]) -> type[SafeLoader]:
    """A safe loader (`base`) whose mappings and lists remember their lines, and which names
    the file and the line of a key given twice, a key that is no plain name or a number too
    long to read."""

    class LinedLoader(base):  # type: ignore[misc, valid-type]  # chosen at run time: C or Python
        pass

    def mapping(loader: Any, node: Any) -> Lined:
        loader.flatten_mapping(node)
        result = Lined()
        result.line = node.start_mark.line + 1
        result.key_lines = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise RulesFileError(
                    str(path), key_node.start_mark.line + 1, str(key), "a key must be a plain name"
                )
            key = str(key)
            if key in result:
                raise RulesFileError(
                    str(path),
                    key_node.start_mark.line + 1,
                    key,
                    f"given twice (first on line {result.key_lines[key]})",
                    "keep one of the two",
                )
            result[key] = loader.construct_object(value_node, deep=True)
            result.key_lines[key] = key_node.start_mark.line + 1
            value = result[key]
            if not shown_as_is(key, lines=False) or (
                isinstance(value, str) and not shown_as_is(value, lines=True)
            ):
                raise RulesFileError(
                    str(path),
                    key_node.start_mark.line + 1,
                    printable(key),
                    "holds a control character (an escape sequence, a tab, NUL): it would "
                    "reach the terminal",
                    "write it in plain characters",
                )
        return result

    def sequence(loader: Any, node: Any) -> LinedList:
        result = LinedList(loader.construct_object(child, deep=True) for child in node.value)
        result.line = node.start_mark.line + 1
        result.item_lines = [child.start_mark.line + 1 for child in node.value]
        return result

    def whole(loader: Any, node: Any) -> Any:
        try:
            return base.construct_yaml_int(loader, node)
        except ValueError:  # past Python's digits for a number read from text
            raise RulesFileError(
                str(path),
                node.start_mark.line + 1,
                None,
                f"a number of {len(node.value):,} digits, more than any table takes",
                "give a number a table can use",
            ) from None

    LinedLoader.add_constructor("tag:yaml.org,2002:int", whole)
    LinedLoader.add_constructor("tag:yaml.org,2002:map", mapping)
    LinedLoader.add_constructor("tag:yaml.org,2002:seq", sequence)
    return LinedLoader


def _rules_text(path: str) -> str:
    """The text of a rules file, or a `RulesFileError` saying why it cannot be read."""
    from hc_cli.tables.files import FileRefused, read_text

    try:
        return read_text(path, MAX_RULES_BYTES)
    except FileRefused as exc:
        raise RulesFileError(
            str(path), None, None, exc.reason, "a rules file is a page of YAML: give that file"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise RulesFileError(str(path), None, None, f"cannot be read ({reason})") from None


def parse_yaml(path: str) -> Any:
    """A rules file read, its mappings and lists knowing their lines (`Lined`, `LinedList`);
    anything that is not a page of plain YAML tables is a `RulesFileError` naming the line."""
    import yaml  # only on a cache miss: it is the slowest import hc has

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = _lined_loader(path, base)
    text = _rules_text(path)
    try:
        # An alias (*name) can expand a few hundred bytes into gigabytes: tables take none.
        # The events are read without building anything, so the check itself is cheap.
        for event in yaml.parse(text, Loader=base):
            if isinstance(event, yaml.AliasEvent):
                raise RulesFileError(
                    str(path),
                    event.start_mark.line + 1 if event.start_mark else None,
                    None,
                    f"uses a YAML alias (*{event.anchor})",
                    "write the values out in full: rules files take no aliases",
                )
        return yaml.load(text, Loader=loader)  # noqa: S506 - a SafeLoader subclass
    except RecursionError:
        raise RulesFileError(
            str(path), None, None, "nested too deep", "a rules file is tables of entries"
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise RulesFileError(
            str(path),
            line,
            None,
            f"not valid YAML: {problem}",
            "check the indentation and the colons on that line",
        ) from None


# ---------------------------------------------------------------------------------------------
# Layering


@dataclass(slots=True)
class MergedTables:
    """Plain data: `tables[table][name] = entry`; each entry knows where it came from."""

    ruleset: str
    tables: Tables
    files: list[str]
    digest: str
    skipped: list[str] = field(default_factory=list)  # config files for other rule sets
    house: list[str] = field(default_factory=list)  # the house-rules files laid on, in order


def _normal(name: Any) -> str:
    return str(name).strip().lower()


def _unknown_table(
    problems: Problems, path: str, line: int | None, key: str, tables: Iterable[str]
) -> None:
    problems.add(str(path), line, key, "unknown table", "tables: " + ", ".join(tables))


def _top_problem(problems: Problems, path: str, raw: object, problem: str, hint: str) -> None:
    """A file that is not the mapping it should be, said of its top."""
    problems.add(str(path), getattr(raw, "line", 1), "(top)", problem, hint)


def _lay_bundled(
    path: str, raw: Any, schemas: TableSchemas, tables: Tables, problems: Problems
) -> None:
    if not isinstance(raw, dict):
        _top_problem(
            problems, path, raw, "must be a mapping of tables", "tables: " + ", ".join(schemas)
        )
        return
    for table, entries in raw.items():
        if table not in schemas:
            _unknown_table(problems, path, line_of(raw, table), table, schemas)
            continue
        _lay_entries(path, table, entries, schemas[table], tables, problems, house=False)


def _lay_entries(
    path: str,
    table: str,
    entries: Any,
    schema: dict[str, Field],
    tables: Tables,
    problems: Problems,
    house: bool,
) -> None:
    if not isinstance(entries, dict):
        problems.add(
            str(path), getattr(entries, "line", None), table, "must be a mapping of name: entry"
        )
        return
    for raw_name, entry in entries.items():
        name = _normal(raw_name)
        key = f"{table}.{name}"
        line = entries.line_of(raw_name) if isinstance(entries, Lined) else None
        if not isinstance(entry, dict):
            problems.add(
                str(path), line, key, "must be a mapping of fields", "fields: " + ", ".join(schema)
            )
            continue
        existing = tables[table].get(name)
        partial = house and existing is not None
        before = len(problems.items)
        # A house rule's own entries need no source: they are the players' ("house rules").
        check_entry(
            entry,
            schema,
            str(path),
            key,
            problems,
            partial=partial,
            exempt=("source",) if house else (),
            line=line,
        )
        if len(problems.items) > before:
            continue
        fields = plain(entry)
        lines = {f: entry.line_of(f) for f in entry} if isinstance(entry, Lined) else {}
        if existing is None:
            if house:  # the players' own: its source is their file, by name
                fields.setdefault("source", os.path.basename(str(path)))
                fields["_added_by"] = str(path)
            fields["_file"] = str(path)
            fields["_lines"] = lines
            tables[table][name] = fields
        else:
            merged = {**existing, **fields}
            changed = dict(existing.get("_changed", {}))
            changed.update({f: str(path) for f in fields})
            merged["_changed"] = changed
            merged["_lines"] = {**existing.get("_lines", {}), **lines}
            tables[table][name] = merged


def _lay_house(
    path: str,
    raw: Any,
    ruleset: str,
    schemas: TableSchemas,
    tables: Tables,
    problems: Problems,
    skipped: list[str],
) -> None:
    if not isinstance(raw, dict):
        hint = "start with 'ruleset: high-crusade' and then tables such as 'weapons:'"
        _top_problem(problems, path, raw, "a house-rules file must be a mapping", hint)
        return
    named = raw.get("ruleset")
    if named is None:
        problems.add(
            str(path),
            line_at(raw),
            "ruleset",
            "missing",
            f"say which rule set the file changes, e.g. 'ruleset: {ruleset}'",
        )
        return
    if named != ruleset:
        if str(path) in config_rule_files():
            skipped.append(f"{path} (for {named})")
        else:
            problems.add(
                str(path),
                line_of(raw, "ruleset"),
                "ruleset",
                f"the file is for {named}, but the rule set in force is {ruleset}",
                f"choose it with --ruleset {named}, or leave the file out",
            )
        return
    _lay_removals(path, raw, schemas, tables, problems)
    for table, entries in raw.items():
        if table in ("ruleset", "remove"):
            continue
        if table not in schemas:
            _unknown_table(problems, path, line_of(raw, table), table, [*schemas, "or remove"])
            continue
        _lay_entries(path, table, entries, schemas[table], tables, problems, house=True)


def _lay_removals(
    path: str, raw: dict[str, Any], schemas: TableSchemas, tables: Tables, problems: Problems
) -> None:
    """A house-rules file's `remove: {table: [name, ...]}`: each name taken out of its table."""
    removals = raw.get("remove", {})
    if not isinstance(removals, dict):
        problems.add(
            str(path),
            line_of(raw, "remove"),
            "remove",
            "must map table names to lists of entry names",
            "e.g. remove: {weapons: [pagan-smg]}",
        )
        removals = {}
    for table, names in removals.items():
        key = f"remove.{table}"
        if table not in schemas:
            _unknown_table(problems, path, line_of(removals, table), key, schemas)
            continue
        if not isinstance(names, list):
            problems.add(str(path), line_of(removals, table), key, "must be a list of names")
            continue
        for i, raw_name in enumerate(names):
            name = _normal(raw_name)
            if name not in tables[table]:
                err = UnknownName(table.rstrip("s"), name, tables[table])
                problems.add(str(path), line_at(names, i), key, err.message, err.hint)
            else:
                del tables[table][name]


def merge(
    ruleset: str,
    schemas: TableSchemas,
    bundled: list[str],
    house: list[str],
    cross_check: Callable[[Tables, Problems], None] | None = None,
) -> MergedTables:
    """Read and lay every file; raise `RulesProblems` listing every problem found."""
    tables: Tables = {t: {} for t in schemas}
    problems = Problems()
    skipped: list[str] = []
    for path in bundled:
        try:
            _lay_bundled(path, parse_yaml(path), schemas, tables, problems)
        except RulesFileError as exc:
            problems.items.append(exc)
    for path in house:
        try:
            _lay_house(path, parse_yaml(path), ruleset, schemas, tables, problems, skipped)
        except RulesFileError as exc:
            problems.items.append(exc)
    if cross_check is not None:
        # Entries with problems were left out, so what is laid can still be cross-checked:
        # one run reports both kinds of problem.
        cross_check(tables, problems)
    if problems.items:
        raise RulesProblems(problems.items)
    laid = [p for p in house if not any(s.startswith(f"{p} (for ") for s in skipped)]
    return MergedTables(ruleset, tables, bundled + house, _digest(tables), skipped, laid)


def _digest(tables: Tables) -> str:
    """Of the content alone: where an entry came from (files, lines) is not what it says."""
    import hashlib  # only when the tables are built anew: it is slow to import
    import json  # as hashlib

    content = {
        table: {
            name: {k: v for k, v in entry.items() if not k.startswith("_")}
            for name, entry in entries.items()
        }
        for table, entries in tables.items()
    }
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def laid_over(merged: MergedTables, schemas_loader: Any, name: str, table: str, entry: str,
              field: str, value: Any) -> MergedTables:  # fmt: skip
    """`merged` with one value more (`hc sweep`'s point: `TABLE.ENTRY.FIELD=VALUE`), laid as a
    house-rules file named `name` would lay it and checked as one is, on a copy: the files
    are read and merged once for every point of a sweep, not once a point."""
    schemas, cross_check = schemas_loader()
    if table not in schemas:
        raise HcError(f"no table '{table}'", "tables: " + ", ".join(schemas))
    if _normal(entry) not in merged.tables[table]:
        raise UnknownName(table.rstrip("s"), entry, merged.tables[table])
    if field not in schemas[table]:
        raise HcError(f"{table} have no field '{field}'", "fields: " + ", ".join(schemas[table]))
    tables = {**merged.tables, table: dict(merged.tables[table])}  # the one table it changes
    problems = Problems()
    layer = {"ruleset": merged.ruleset, table: {entry: {field: value}}}
    _lay_house(name, layer, merged.ruleset, schemas, tables, problems, [])
    if cross_check is not None and not problems.items:
        cross_check(tables, problems)
    if problems.items:  # said of the value, not of a file: there is none
        said = problems.items[0]
        raise HcError(f"{table}.{entry}.{field} = {value}: {said.problem}", said.hint)
    files, house = [*merged.files, name], [*merged.house, name]
    return MergedTables(merged.ruleset, tables, files, _digest(tables), merged.skipped, house)


def _cache_shape(data: Any) -> bool:
    """A cache read back is trusted only in the shape hc writes it; anything else is rebuilt."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("tables"), dict)
        and all(isinstance(t, dict) for t in data["tables"].values())
        and all(isinstance(e, dict) for t in data["tables"].values() for e in t.values())
        and isinstance(data.get("files"), list)
        and isinstance(data.get("digest"), str)
        and isinstance(data.get("skipped"), list)
        and isinstance(data.get("house"), list)
    )


CACHE_FORM = 2  # how tables were checked (2: no control characters); another form is rebuilt


def _cache_of(ruleset: str, files: list[str]) -> tuple[str, str]:
    """The tables cache of these files: its path, and the description it must hold."""
    name, description = stat_key(ruleset, files)
    return os.path.join(cache_dir(), f"tables-{name}.cache"), f"form {CACHE_FORM}\n{description}"


def kept_with_tables(ruleset: RuleSet, cli_files: list[str] | None, part: str, build: Any) -> Any:
    """`part` of what the tables give (TAB's values, `hc_cli.plugin.values`), kept in their
    cache beside them: read from it, or `build()` (which loads the tables, and so writes the
    cache) and added to it. One cache, one key: a changed file changes both."""
    files = bundled_files(ruleset) + house_rule_files(cli_files)
    path, description = _cache_of(ruleset.name, files)
    data = None if os.environ.get("HC_NO_CACHE") else read_cache(path, description, MAX_CACHE_BYTES)
    if isinstance(data, dict) and part in data:
        return data[part]
    built = build()
    data = None if os.environ.get("HC_NO_CACHE") else read_cache(path, description, MAX_CACHE_BYTES)
    if built is not None and data is not None and _cache_shape(data):
        write_cache(path, description, {**data, part: built})
    return built


def load_merged(
    ruleset: RuleSet,
    schemas_loader: Any,
    cli_files: list[str] | None = None,
    use_cache: bool = True,
) -> MergedTables:
    """The merged tables of `ruleset` (its declaration: its name and its data folder), from
    the cache when no file has changed."""
    bundled = bundled_files(ruleset)
    house = house_rule_files(cli_files)
    cached, description = _cache_of(ruleset.name, bundled + house)
    if use_cache and not os.environ.get("HC_NO_CACHE"):
        data = read_cache(cached, description, MAX_CACHE_BYTES)
        if data is not None and _cache_shape(data):
            return MergedTables(
                ruleset.name,
                data["tables"],
                data["files"],
                data["digest"],
                data["skipped"],
                data["house"],
            )
    schemas, cross_check = schemas_loader()
    merged = merge(ruleset.name, schemas, bundled, house, cross_check)
    if use_cache:
        write_cache(
            cached,
            description,
            {
                "tables": merged.tables,
                "files": merged.files,
                "digest": merged.digest,
                "skipped": merged.skipped,
                "house": merged.house,
            },
        )
    return merged


def load_typed(
    ruleset: RuleSet,
    schemas_loader: Any,
    house_files: list[str] | None,
    build: Callable[[MergedTables], Typed],
    over: tuple[str, str, str, str, Any] | None = None,
) -> Typed:
    """A rule set's typed tables (`build(merged)`): from the cache, and if what the cache
    holds cannot be built (written by another hc, or tampered with), from the files. `over`:
    one value laid over them (`laid_over`'s name, table, entry, field and value)."""
    merged = load_merged(ruleset, schemas_loader, house_files)
    try:
        return build(merged if over is None else laid_over(merged, schemas_loader, *over))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        merged = load_merged(ruleset, schemas_loader, house_files, use_cache=False)
        return build(merged if over is None else laid_over(merged, schemas_loader, *over))

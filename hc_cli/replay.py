"""`hc replay FILE`: resolve every logged entry again and report each that does not come out
the same (a roll edited after the fact, tables changed since, another version of hc)."""

from __future__ import annotations

import os

from hc_cli import __version__
from hc_cli.errors import HcError
from hc_cli.execute import Call, Session, execute
from hc_cli.log import file_digest, read
from hc_cli.record import field, record
from hc_cli.render.json_text import as_dict

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any


@record
class EntryReport:
    line: int
    what: str
    reproduced: bool
    differences: list[str] = field(default_factory=list)


@record
class ReplayReport:
    path: str
    entries: list[EntryReport]
    damaged: list[str]
    truncated: bool
    broken: list[str] = field(default_factory=list)

    @property
    def failed(self) -> int:
        """Entries that do not reproduce, damaged lines and breaks in the chain: a log that
        was edited, cut or added to by hand does not pass."""
        return sum(not e.reproduced for e in self.entries) + len(self.damaged) + len(self.broken)

    def to_dict(self) -> dict[str, Any]:
        return {
            "log": self.path,
            "entries": [e.__dict__ for e in self.entries],
            "reproduced": len(self.entries) - self.failed,
            "not_reproduced": self.failed,
            "damaged": self.damaged,
            "chain_broken": self.broken,
            "truncated_last_line": self.truncated,
        }

    def lines(self) -> list[str]:
        out = []
        for e in self.entries:
            out.append(
                f"line {e.line}: {e.what}: "
                + ("reproduced" if e.reproduced else "does NOT reproduce")
            )
            out += [f"  {d}" for d in e.differences]
        out += self.damaged + self.broken
        if self.truncated:
            out.append("the last line was cut short (its writer was stopped): ignored")
        bad = sum(not e.reproduced for e in self.entries)
        out.append(
            f"{len(self.entries)} entries: {len(self.entries) - bad} reproduced, {bad} did not"
        )
        if self.damaged or self.broken:
            out.append(
                f"the log has been tampered with or damaged: {len(self.damaged)} bad line(s), "
                f"{len(self.broken)} break(s) in the chain"
            )
        return out


def _rolls(result: dict) -> str:
    return ", ".join(
        f"{r.get('die')} {r.get('purpose')} {r.get('value')}" for r in result.get("rolls", [])
    )


def _differences(logged: dict, now: dict) -> list[str]:
    out = []
    if logged.get("rolls") != now.get("rolls"):
        out.append(f"rolls: logged [{_rolls(logged)}], now [{_rolls(now)}]")
    for key in sorted(set(logged) | set(now)):
        if key == "rolls" or logged.get(key) == now.get(key):
            continue
        out.append(f"{key}: logged {logged.get(key)!r}, now {now.get(key)!r}")
    return out


def _rules_files(logged: Any, supplied: dict[str, str]) -> tuple[tuple[str, ...], list[str]]:
    """The house-rules files an entry was resolved with, each found by its digest among the
    files given to the replay (--rules), else at the path it had; and a note for each that
    has changed there since. A file that is gone is an error that says how to supply it."""
    files, notes = [], []
    for item in logged or ():
        if isinstance(item, str):  # a log written before files were recorded by digest
            files.append(item)
            continue
        digest, where = item.get("sha256"), item.get("path", "")
        if digest in supplied:
            files.append(supplied[digest])
        elif os.path.isfile(where):
            files.append(where)
            if file_digest(where) != digest:
                notes.append(
                    f"the house-rules file {where} has changed since (give the one it was "
                    "with: hc replay LOG --rules FILE)"
                )
        else:
            raise HcError(
                f"the house-rules file {where} is not there",
                f"give the file it was (sha256 {str(digest)[:12]}...) with: "
                "hc replay LOG --rules FILE",
            )
    return tuple(files), notes


def replay(path: str, rules: list[str] | None = None) -> ReplayReport:
    contents = read(path)
    supplied = {file_digest(f): f for f in rules or ()}
    session = Session()
    reports = []
    for line, entry in contents.entries:
        what = f"{entry.get('command')} ({entry.get('ruleset')})"
        try:
            files, notes = _rules_files(entry.get("rules"), supplied)
            call = Call(
                command=entry["command"],
                ruleset=entry["ruleset"],
                flags=dict(entry.get("flags") or {}),
                seed=None if entry.get("dice") or entry.get("odds") else entry.get("seed"),
                dice=entry.get("dice"),
                odds=bool(entry.get("odds")),
                rules=files,
                exact=bool(entry.get("exact")),
            )
            now = as_dict(execute(call, session))
        except (HcError, KeyError, TypeError, AttributeError) as error:
            reports.append(EntryReport(line, what, False, [f"no longer resolves: {error}"]))
            continue
        differences = _differences(entry.get("result") or {}, now)
        if differences:
            differences += notes
            digest = session.digest(call.ruleset, call.rules)
            if entry.get("tables") not in (None, digest):
                differences.append("the tables have changed since it was logged")
            if entry.get("hc") != __version__:
                differences.append(f"logged by hc {entry.get('hc')}, replayed by {__version__}")
        reports.append(EntryReport(line, what, not differences, differences))
    return ReplayReport(path, reports, contents.damaged, contents.truncated, contents.broken)

"""`hc replay FILE`: resolve every logged entry again and report each that does not come out
the same (a roll edited after the fact, tables changed since, another version of hc)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hc_cli import __version__
from hc_cli.errors import HcError
from hc_cli.execute import Call, Session, execute
from hc_cli.log import read
from hc_cli.render.json_text import as_dict


@dataclass
class EntryReport:
    line: int
    what: str
    reproduced: bool
    differences: list[str] = field(default_factory=list)


@dataclass
class ReplayReport:
    path: str
    entries: list[EntryReport]
    damaged: list[str]
    truncated: bool

    @property
    def failed(self) -> int:
        return sum(not e.reproduced for e in self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {
            "log": self.path,
            "entries": [e.__dict__ for e in self.entries],
            "reproduced": len(self.entries) - self.failed,
            "not_reproduced": self.failed,
            "damaged": self.damaged,
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
        out += self.damaged
        if self.truncated:
            out.append("the last line was cut short (its writer was stopped): ignored")
        out.append(
            f"{len(self.entries)} entries: {len(self.entries) - self.failed} reproduced, "
            f"{self.failed} did not"
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
        if key in ("rolls", "explanation") or logged.get(key) == now.get(key):
            continue
        out.append(f"{key}: logged {logged.get(key)!r}, now {now.get(key)!r}")
    return out


def replay(path: str) -> ReplayReport:
    contents = read(path)
    session = Session()
    reports = []
    for line, entry in contents.entries:
        what = f"{entry.get('command')} ({entry.get('ruleset')})"
        try:
            call = Call(
                command=entry["command"],
                ruleset=entry["ruleset"],
                flags=dict(entry.get("flags") or {}),
                seed=None if entry.get("dice") or entry.get("odds") else entry.get("seed"),
                dice=entry.get("dice"),
                odds=bool(entry.get("odds")),
                rules=tuple(entry.get("rules") or ()),
            )
            now = as_dict(execute(call, session))
        except (HcError, KeyError, TypeError) as error:
            reports.append(EntryReport(line, what, False, [f"no longer resolves: {error}"]))
            continue
        differences = _differences(entry.get("result") or {}, now)
        if differences:
            digest = session.digest(call.ruleset, call.rules)
            if entry.get("tables") not in (None, digest):
                differences.append("the tables have changed since it was logged")
            if entry.get("hc") != __version__:
                differences.append(f"logged by hc {entry.get('hc')}, replayed by {__version__}")
        reports.append(EntryReport(line, what, not differences, differences))
    return ReplayReport(path, reports, contents.damaged, contents.truncated)

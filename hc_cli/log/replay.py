"""`hc replay FILE`: resolve every logged entry again and report each that does not come out
the same (a roll edited after the fact, tables changed since, another version of hc), every
line that is not an entry and every break in the chain of entries; with `--head RECEIPT`, also
whether the log still reaches the head a logged command printed.

The log is read a line at a time and each entry reported as it is replayed, so a log of any
length replays in constant memory.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from hc_cli import __version__
from hc_cli.core.errors import HcError
from hc_cli.log.chain import file_digest, log_key
from hc_cli.log.entry import as_dict
from hc_cli.log.reader import LogReader
from hc_cli.plugin.execute import Call, Session, execute

if TYPE_CHECKING:
    from tempfile import TemporaryDirectory

    class GameCheck(Protocol):
        """What a replay asks of the games' code for a game file's own entries."""

        def describe(self, entry: dict[str, Any]) -> str:
            """A game entry (its roster, a step, an undo) in words."""

        def folds(self, path: str) -> tuple[str, list[str]]:
            """What stops the whole game folding, in words ("" when it folds), and each
            entry whose game part is not what the game gives it (its line, what differs)."""


MAX_NOTED = 1000  # damaged lines and breaks listed in the report: past this the log is no log


@dataclass(slots=True)
class EntryReport:
    line: int
    what: str
    reproduced: bool
    differences: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        head = f"line {self.line}: {self.what}: " + (
            "reproduced" if self.reproduced else "does NOT reproduce"
        )
        return [head] + [f"  {d}" for d in self.differences]

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "what": self.what,
            "reproduced": self.reproduced,
            "differences": self.differences,
        }


_RECEIPT = re.compile(r"^(?:(\d{1,12}):)?([0-9a-f]{8,64})$")


def parse_receipt(text: str) -> tuple[int | None, str]:
    """`12:3f9ac21e` (or `3f9ac21e`, or with a dash inside the hex as a player writes it down)
    -> (12, '3f9ac21e')."""
    found = _RECEIPT.match(text.strip().lower().replace("-", "")) if len(text) < 100 else None
    if found is None:
        raise HcError(
            f"--head '{text[:40]}' is no receipt",
            "give the receipt a logged command printed, e.g. --head 12:3f9ac21e",
        )
    return (int(found.group(1)) if found.group(1) else None), found.group(2)


class Replay:
    """One replay of a log: iterate to replay it entry by entry; then `failed`, `summary`."""

    def __init__(
        self,
        path: str,
        rules: list[str] | None = None,
        head: str | None = None,
        game: GameCheck | None = None,
    ) -> None:
        self.path = path
        # How a game's own entries are read (`hc_cli.games.store.GameCheck`): the log knows
        # chains and resolutions, not games. Without it, a game file replays as a plain log.
        self.game_check = game
        self.supplied = {file_digest(f): f for f in rules or ()}
        # a folder of links: files given back under their old names
        self._renamed: TemporaryDirectory[str] | None = None
        self.head = parse_receipt(head) if head else None
        self.reader = LogReader(path, log_key())
        self.session = Session()
        self.reproduced = 0
        self.not_reproduced = 0
        self.damaged: list[str] = []
        self.broken: list[str] = []
        self.head_reached = False
        self.game = False  # the log is a game (hc game new): its fold is checked at the end
        self.game_rules: list[str] = []  # the digests of the house rules the game began with
        # the last action's tables digest and hc version
        self.game_tables: tuple[Any, Any] | None = None
        self.misplayed: list[str] = []  # entries whose game part the game does not give
        self.from_paths = 0  # house-rules files read at their paths: no text kept of them

    def __iter__(self) -> Iterator[EntryReport | str]:
        """Each entry's report as it is replayed, and each damaged line and break in the
        chain (as a sentence) where it is found."""
        for event in self.reader:
            if event.kind == "entry":
                report = self._entry(event.line, event.entry)
                if report.reproduced:
                    self.reproduced += 1
                else:
                    self.not_reproduced += 1
                if self.head is not None:
                    seq, digest = self.head
                    if event.digest.startswith(digest) and seq in (None, event.entry.get("seq")):
                        self.head_reached = True
                yield report
                continue
            noted = self.damaged if event.kind == "damaged" else self.broken
            if len(noted) < MAX_NOTED:
                noted.append(event.message)
            yield event.message
        if self.game and not self.damaged and not self.broken and self.game_check is not None:
            problem, misplayed = self.game_check.folds(self.path)
            self.misplayed = misplayed[:MAX_NOTED]
            yield from self.misplayed
            if problem:
                self.broken.append(problem)
                yield problem

    def _entry(self, line: int, entry: dict[str, Any]) -> EntryReport:
        what = f"{_text(entry.get('command'))} ({_text(entry.get('ruleset'))})"
        if entry.get("command") == "game" and self.game_check is not None:
            # A game's own entry (its roster, a step, an undo) rolls nothing: the fold of the
            # whole game, after the last entry, checks them.
            if entry.get("seq") == 1:
                self.game = True
                game = entry.get("game")
                self.game_rules = _digests(game.get("rules") if isinstance(game, dict) else [])
            return EntryReport(line, f"game: {_text(self.game_check.describe(entry))}", True)
        game = entry.get("game")
        said = game.get("rules_changed") if isinstance(game, dict) else None
        tables, before = (entry.get("tables"), entry.get("hc")), self.game_tables
        moved = self.game and before not in (None, tables) and tables[0] is not None
        if self.game and tables[0] is not None:
            self.game_tables = tables
        if moved and not said and before is not None and tables[1] == before[1]:
            return EntryReport(
                line,
                what,
                False,
                ["its tables are not those of the game's entries before it (its house rules "
                 "changed), and the game recorded no --rules-changed"],
            )  # fmt: skip
        changed = self.game and _digests(entry.get("rules")) != self.game_rules
        if changed:
            if not said:
                return EntryReport(
                    line,
                    what,
                    False,
                    ["played with house rules other than those the game began with, and the "
                     "game recorded no --rules-changed"],
                )  # fmt: skip
            what += " (house rules changed since the game began: recorded)"
        overrides = game.get("overrides") if isinstance(game, dict) else None
        if isinstance(overrides, list) and overrides:  # an override both players let stand
            from hc_cli.core.words import printable

            said = "; ".join(printable(str(o))[:200] for o in overrides[:20])
            what += f" (override recorded, --anyway: {said})"
        try:
            files, notes = rules_files(entry.get("rules"), self.supplied, self._link)
            self.from_paths += _read_at_paths(entry.get("rules"), self.supplied)
            call, differences = resolved_again(entry, files, self.session)
        except HcError as error:
            hint = f" ({error.hint})" if error.hint else ""
            return EntryReport(line, what, False, [f"no longer resolves: {error.message}{hint}"])
        except Exception as error:  # a hand-made entry of any shape is a report, never a crash
            return EntryReport(
                line, what, False, [f"no longer resolves: {type(error).__name__}: {error}"[:200]]
            )
        differences += notes  # a house-rules file not the one logged fails, whatever it gives
        if differences:
            digest = self.session.digest(call.ruleset, call.rules)
            if entry.get("tables") not in (None, digest):
                differences.append("the tables have changed since it was logged")
            if entry.get("hc") != __version__:
                differences.append(
                    f"logged by hc {_text(entry.get('hc'))}, replayed by {__version__}"
                )
        return EntryReport(line, what, not differences, differences)

    def close(self) -> None:
        if self._renamed is not None:
            self._renamed.cleanup()
            self._renamed = None

    def _link(self, path: str, name: str) -> str:
        """`path` under the file name it had when logged (a result names its house-rules
        files by name): a link in a folder of the replay's own."""
        if os.path.basename(path) == name:
            return path
        if self._renamed is None:
            import tempfile

            self._renamed = tempfile.TemporaryDirectory(prefix="hc-replay-")
        folder = os.path.join(self._renamed.name, file_digest(path)[:16])
        os.makedirs(folder, exist_ok=True)
        link = os.path.join(folder, name)
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(path), link)
        return link

    @property
    def failed(self) -> int:
        """Entries that do not reproduce, damaged lines, breaks in the chain, an empty log and
        a receipt the log no longer reaches: a log edited, cut or added to by hand does not
        pass."""
        entries = self.reproduced + self.not_reproduced
        missed = self.head is not None and not self.head_reached
        unvouched = self.reader.unsigned and not self.head_reached  # a keyed newest, unsigned
        return (
            self.not_reproduced
            + len(self.damaged)
            + len(self.broken)
            + len(self.misplayed)
            + (not entries)
            + missed
            + unvouched
        )

    def summary_lines(self) -> list[str]:
        out = []
        if self.reader.truncated:
            out.append("the last line was cut short (its writer was stopped): ignored")
        if self.reader.unsigned:
            out.append(
                "the newest entry carries no MAC of its own: with a key every entry is signed, "
                "so it may have been changed without the key; only a receipt (--head) vouches "
                "for it"
            )
        if self.from_paths:
            out.append(
                f"{self.from_paths} house-rules file(s) read at the path logged, each checked "
                "by its digest: the entries (of an older hc) keep no text of them"
            )
        entries = self.reproduced + self.not_reproduced
        if not entries:
            out.append("no entries: hc never writes an empty log (emptied, or not a log)")
        out.append(
            f"{entries} entries: {self.reproduced} reproduced, {self.not_reproduced} did not"
        )
        if self.head is not None:
            seq, digest = self.head
            shown = f"{seq}:{digest}" if seq is not None else digest
            out.append(
                f"receipt {shown}: "
                + (
                    "reached"
                    if self.head_reached
                    else "NOT reached: entries were changed or cut since it was printed"
                )
            )
        if self.damaged or self.broken:
            out.append(
                f"the log has been tampered with or damaged: {len(self.damaged)} bad line(s), "
                f"{len(self.broken)} break(s) in the chain"
            )
        if self.misplayed:
            out.append(
                f"{len(self.misplayed)} action(s) the game does not give as logged: a unit, "
                "target, step or option other than the rules fill in the state before it"
            )
        if self.reader.head is not None:
            seq, digest = self.reader.head
            out.append(f"head: {seq}:{digest[:8]}")
        return out

    def summary(self) -> dict[str, Any]:
        entries = self.reproduced + self.not_reproduced
        found: dict[str, Any] = {
            "log": self.path,
            "entries_read": entries,
            "reproduced": self.reproduced,
            "not_reproduced": self.not_reproduced,
            "failed": self.failed,
            "damaged": self.damaged,
            "chain_broken": self.broken,
            "game_part": self.misplayed,
            "rules_read_at_path": self.from_paths,
            "truncated_last_line": self.reader.truncated,
            "unsigned_newest": self.reader.unsigned,
            "head": None
            if self.reader.head is None
            else f"{self.reader.head[0]}:{self.reader.head[1][:8]}",
        }
        if self.head is not None:
            found["receipt_reached"] = self.head_reached
        return found


def _digests(records: object) -> list[str]:
    """The content digests of the house-rules files an entry names, in order."""
    if not isinstance(records, list):
        return []
    return sorted(str(r.get("sha256")) for r in records if isinstance(r, dict))


def _text(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _rolls(result: dict[str, Any]) -> str:
    rolls = result.get("rolls")
    if not isinstance(rolls, list):
        return _text(rolls)
    return ", ".join(
        f"{r.get('die')} {r.get('purpose')} {r.get('value')}" if isinstance(r, dict) else _text(r)
        for r in rolls
    )


def _differences(logged: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """What changed, field by field, from what to what; a nested field by its path."""
    out = []
    if logged.get("rolls") != now.get("rolls"):
        out.append(f"rolls: logged [{_rolls(logged)}], now [{_rolls(now)}]")
    for key in sorted(set(logged) | set(now), key=str):
        if key == "rolls" or logged.get(key) == now.get(key):
            continue
        out += field_changes(str(key), logged.get(key), now.get(key))
    return out


def resolved_again(
    entry: dict[str, Any], files: tuple[str, ...], session: Session
) -> tuple[Call, list[str]]:
    """A logged entry resolved again from its own call (its options, its seed or its dice,
    `files` for its house rules) and how the result differs from the one it logged, field by
    field: what `hc replay` does to every entry, and opening a game to its newest."""
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
    logged = entry.get("result") or {}
    if not isinstance(logged, dict):
        raise HcError("its result is not a resolution")
    return call, _differences(logged, now)


def field_changes(path: str, was: object, now: object, depth: int = 0) -> list[str]:
    if isinstance(was, dict) and isinstance(now, dict) and depth < 4:
        out = []
        for key in sorted(set(was) | set(now), key=str):
            if was.get(key) != now.get(key):
                out += field_changes(f"{path}.{key}", was.get(key), now.get(key), depth + 1)
        return out
    if isinstance(was, list) and isinstance(now, list) and len(was) == len(now) and depth < 4:
        out = []
        for i, (a, b) in enumerate(zip(was, now, strict=True)):
            if a != b:
                out += field_changes(f"{path}[{i}]", a, b, depth + 1)
        return out
    return [f"{path}: logged {_shown(was)}, now {_shown(now)}"]


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def rules_files(
    logged: Any, supplied: dict[str, str], link: Callable[[str, str], str] | None = None
) -> tuple[tuple[str, ...], list[str]]:
    """The house-rules files an entry was resolved with, each found by its digest among the
    files given to the replay (--rules), else at the path it had; and a note for each that
    has changed there since. A file that is gone is an error that says how to supply it."""
    from hc_cli.log.kept import kept_file

    files, notes = [], []
    for item in logged or ():
        if isinstance(item, str):  # a log written before files were recorded by digest
            files.append(item)
            continue
        digest, where = item.get("sha256"), item.get("path", "")
        kept = kept_file(item)  # its own text, kept in the entry: never the file at the path
        if kept is not None:
            files.append(kept)
        elif digest in supplied:
            found = supplied[digest]
            files.append(link(found, os.path.basename(where)) if link else found)
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


def _read_at_paths(logged: Any, supplied: dict[str, str]) -> int:
    """How many of an entry's house-rules files are read at their paths (checked by their
    digest): an entry of an older hc, which kept no text of them."""
    return sum(
        1
        for item in logged or ()
        if isinstance(item, str)
        or (isinstance(item, dict) and not isinstance(item.get("text"), str)
            and item.get("sha256") not in supplied)
    )  # fmt: skip

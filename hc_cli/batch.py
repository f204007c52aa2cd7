"""`hc batch`: JSON Lines in, JSON Lines out, one resolution a line, in one process.

A request has the fields of the command line: `{"command": "fire", "weapon": "ingrave-ar",
"range": 14, "target": "crusader", "seed": 7}`. Each result is what `--json` prints, with its
line number; a bad line yields `{"line": N, "error": ..., "hint": ...}` and the batch goes on.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from hc_cli.errors import HcError
from hc_cli.execute import DEFAULT_RULESET, Call, Session, execute

NOT_FIELDS = {"json", "no_color", "log", "help"}  # options that shape the output, not the call


def _spell(name: str) -> str:
    return f"field '{name}'"


def _options(index: dict, command: str) -> dict[str, dict]:
    """The fields a request may have: the command's options and arguments."""
    spec = index["commands"][command]
    return {
        o["name"].rstrip("_"): o
        for o in spec["options"] + spec["arguments"]
        if o["name"] not in NOT_FIELDS
    }


_WANTED = {
    "integer": "a whole number",
    "float": "a number",
    "boolean": "true or false",
    "text": "text",
}


def _value(name: str, option: dict, value: Any) -> Any:
    if option["multiple"]:
        items = value if isinstance(value, list) else [value]
        return [_scalar(name, option["type"], item) for item in items]
    return _scalar(name, option["type"], value)


def _scalar(name: str, kind: str, value: Any) -> Any:
    if kind == "text":
        ok = isinstance(value, str)
    elif kind == "boolean":
        ok = isinstance(value, bool)
    elif kind == "integer":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == "float":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    else:
        ok = True
    if not ok:
        raise HcError(
            f"field '{name}' is {json.dumps(value)}: not {_WANTED[kind]}",
            f"give '{name}' as {_WANTED[kind]}",
        )
    return value


class _Fields:
    """Each command's fields, worked out once per batch rather than once per line."""

    def __init__(self, index: dict) -> None:
        self.index = index
        self._by_command: dict[str, dict[str, dict]] = {}

    def of(self, command: str) -> dict[str, dict]:
        if command not in self._by_command:
            self._by_command[command] = _options(self.index, command)
        return self._by_command[command]


def parse_request(
    request: Any, index: dict, fields_of: _Fields | None = None
) -> tuple[Call, set[str]]:
    if not isinstance(request, dict):
        raise HcError(
            "a request is a JSON object", 'e.g. {"command": "roll", "expression": "d100"}'
        )
    fields = {str(k).lstrip("-").replace("-", "_"): v for k, v in request.items()}
    command = fields.pop("command", None)
    known = [c for c in index["commands"] if c not in ("batch", "replay", "tables", "rules")]
    if command not in known:
        close = difflib.get_close_matches(str(command), known, n=1)
        raise HcError(
            f"command {json.dumps(command)} cannot be resolved in a batch",
            f"did you mean '{close[0]}'?" if close else "commands: " + ", ".join(known),
        )
    options = (fields_of or _Fields(index)).of(command)
    common: dict[str, Any] = {}
    flags: dict[str, Any] = {}
    for name, value in fields.items():
        option = options.get(name)
        if option is None:
            close = difflib.get_close_matches(name, list(options), n=1)
            raise HcError(
                f"field '{name}' is not an option of {command}",
                f"did you mean '{close[0]}'?" if close else "fields: " + ", ".join(sorted(options)),
            )
        if value is None:
            continue
        value = _value(name, option, value)
        if name in ("ruleset", "seed", "dice", "odds", "rules"):
            common[name] = value
        else:
            flags[name] = value
    call = Call(
        command=command,
        ruleset=common.get("ruleset") or os.environ.get("HC_RULESET") or DEFAULT_RULESET,
        flags=flags,
        seed=common.get("seed"),
        dice=common.get("dice"),
        odds=bool(common.get("odds")),
        rules=tuple(common.get("rules") or ()),
    )
    return call, set(flags)


def run(lines: Iterable[str], out: IO[str], log_path: str | None = None) -> int:
    """Resolve every line; return how many failed."""
    index = json.loads((Path(__file__).parent / "completion_index.json").read_text("utf-8"))
    session = Session()
    fields_of = _Fields(index)
    failed = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            try:
                request = json.loads(line)
            except ValueError as exc:
                raise HcError(
                    f"not JSON: {exc.msg} at column {exc.colno}", "one JSON object a line"
                ) from None
            call, given = parse_request(request, index, fields_of)
            result = execute(call, session, given, _spell).to_dict()
            if log_path:
                from hc_cli.log import append, make_entry

                append(log_path, make_entry(call, result, session.digest(call.ruleset, call.rules)))
            result["line"] = number
            out.write(json.dumps(result, separators=(",", ":"), ensure_ascii=False) + "\n")
        except HcError as error:
            failed += 1
            out.write(
                json.dumps(
                    {"line": number, "error": error.message, "hint": error.hint}, ensure_ascii=False
                )
                + "\n"
            )
    out.flush()
    return failed

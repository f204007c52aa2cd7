"""`--json`: one JSON object, nothing else on stdout; what it says of a resolution is the
entry the log stores (`hc_cli.log.entry`)."""

from __future__ import annotations

import json
from typing import IO, Any

from hc_cli.core.model import Resolution
from hc_cli.log.entry import as_dict


def render(res: Resolution) -> str:
    return dumps(as_dict(res))


def dumps(value: Any) -> str:
    """JSON as every `--json` prints it: indented by two, non-ASCII written as it is."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def write(value: Any, stream: IO[str]) -> None:
    """`dumps(value)` and a newline, written to `stream` a few thousand pieces at a time: a
    long report (a long game's luck) is never one string in memory."""
    pieces: list[str] = []
    for piece in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(value):
        pieces.append(piece)
        if len(pieces) == 4096:
            stream.write("".join(pieces))
            pieces.clear()
    stream.write("".join(pieces) + "\n")
    stream.flush()

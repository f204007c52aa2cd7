"""`--json`: one JSON object, nothing else on stdout.

Written by a small encoder of its own, the same text as `json.dumps(..., indent=2,
ensure_ascii=False)` (a test holds the two together): the json package imports `re` (and `enum`
with it), which takes `hc fire --json` from 2.5 to 3.7 times a bare interpreter's start, past
the 3.0 hc keeps to (../shared/bench/startup.py, on the project's two-core machine). Strings are
escaped by the json package's own C function.
"""

from __future__ import annotations

from _json import encode_basestring

from hc_cli.core.model import Resolution

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any


def as_dict(res: Resolution) -> dict:
    """What `--json`, `hc batch` and the log say of a resolution: its headline, then all."""
    from hc_cli.render.sections import headline

    return res.to_dict(headline(res))


def render(res: Resolution) -> str:
    return dumps(as_dict(res))


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, float):
        return _float(key)
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def dumps(value: Any, indent: str = "  ") -> str:
    """`value` as `json.dumps(value, indent=2, ensure_ascii=False)` writes it."""
    out: list[str] = []
    _write(value, out, indent, "\n")
    return "".join(out)


def _write(value: Any, out: list[str], indent: str, newline: str) -> None:
    if isinstance(value, str):
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + indent
        out.append("{")
        first = True
        for key, item in value.items():
            out.append(inner if first else "," + inner)
            first = False
            out.append(encode_basestring(_key(key)))
            out.append(": ")
            _write(item, out, indent, inner)
        out.append(newline + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = newline + indent
        out.append("[")
        for i, item in enumerate(value):
            out.append(inner if i == 0 else "," + inner)
            _write(item, out, indent, inner)
        out.append(newline + "]")
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

"""`--json`: one JSON object, nothing else on stdout."""

from __future__ import annotations

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


def dumps(value: Any) -> str:
    """`value` as `--json` prints it: indented, and non-ASCII text as it is."""
    import json

    return json.dumps(value, indent=2, ensure_ascii=False)

"""`--json`: one JSON object, nothing else on stdout."""

from __future__ import annotations

import json

from hc_cli.model import Resolution


def as_dict(res: Resolution) -> dict:
    """What `--json`, `hc batch` and the log say of a resolution: its headline, then all."""
    from hc_cli.render.sections import headline

    return res.to_dict(headline(res))


def render(res: Resolution) -> str:
    return json.dumps(as_dict(res), indent=2, ensure_ascii=False)

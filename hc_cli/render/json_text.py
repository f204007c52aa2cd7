"""`--json`: one JSON object, nothing else on stdout."""

from __future__ import annotations

import json

from hc_cli.model import Resolution


def render(res: Resolution) -> str:
    return json.dumps(res.to_dict(), indent=2, ensure_ascii=False)

"""`--json`: one JSON object, nothing else on stdout; what it says of a resolution is the
entry the log stores (`hc_cli.log.entry`)."""

from __future__ import annotations

import json
from typing import Any

from hc_cli.core.model import Resolution
from hc_cli.log.entry import as_dict


def render(res: Resolution) -> str:
    return dumps(as_dict(res))


def dumps(value: Any) -> str:
    """JSON as every `--json` prints it: indented by two, non-ASCII written as it is."""
    return json.dumps(value, indent=2, ensure_ascii=False)

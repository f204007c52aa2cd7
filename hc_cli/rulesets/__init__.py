"""Rule sets: each is a `rules_data/<name>/` folder plus one package here.

Imported by name only when used, so start-up pays for one rule set at most.
"""

from __future__ import annotations

import importlib
from types import ModuleType

MODULES = {
    "high-crusade": "hc_cli.rulesets.high_crusade",
}


def ruleset_module(name: str) -> ModuleType:
    from hc_cli.errors import UnknownName

    if name not in MODULES:
        raise UnknownName("rule set", name, MODULES)
    return importlib.import_module(MODULES[name])

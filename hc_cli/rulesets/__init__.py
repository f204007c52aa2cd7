"""Rule sets: each is a `rules_data/<name>/` folder plus one package here.

A rule set package exposes `load_tables(house_files)` and `COMMANDS`, a mapping from command
name to `CommandSpec`: the flags it reads, how they become a typed request, and the resolver
and odds functions. The CLI only dispatches. Packages are imported by name when used, so
start-up pays for one rule set at most.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

MODULES = {
    "high-crusade": "hc_cli.rulesets.high_crusade",
    "rogue-trader": "hc_cli.rulesets.rogue_trader",
    "t2k": "hc_cli.rulesets.t2k",
}


@dataclass(frozen=True)
class CommandSpec:
    flags: frozenset[str]  # the command's own options this rule set reads (python names)
    build: Callable[[dict[str, Any]], Any]  # option values -> typed request; raises HcError
    resolve: Callable[[Any, Any, Any], Any]  # (tables, request, dice) -> Resolution
    odds: Callable[[Any, Any], Any]  # (tables, request) -> Resolution with odds


_LOADED: dict[str, ModuleType] = {}


def ruleset_module(name: str) -> ModuleType:
    module = _LOADED.get(name)
    if module is None:
        if name not in MODULES:
            from hc_cli.errors import UnknownName

            raise UnknownName("rule set", name, MODULES)
        module = _LOADED[name] = importlib.import_module(MODULES[name])
    return module

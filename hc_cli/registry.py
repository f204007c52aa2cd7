"""Finding the rule sets, and choosing the one in force.

Rule sets are plugins: each registers a `hc_cli.declare.RuleSet` under the `hc.rulesets`
entry-point group, the bundled three exactly as a third-party package would (see
`pyproject.toml`). Reading entry points means importing `importlib.metadata` and scanning every
installed distribution, which costs more than a whole TAB press; so what it finds is cached,
keyed on the import path's folders and their times (installing or removing a package changes
its folder's time).

The rule set in force: `--ruleset NAME` (or `--ruleset=NAME`) anywhere on the command line,
else `HC_RULESET`, else `ruleset = "..."` in the settings file (`settings.toml` in hc's config
folder, beside the house-rules files), else high-crusade.
"""

from __future__ import annotations

import json
import os
import sys
import zlib

from hc_cli import __version__
from hc_cli.errors import HcError, UnknownName
from hc_cli.paths import cache_dir, config_dir, write_atomically

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any


GROUP = "hc.rulesets"
DEFAULT_RULESET = "high-crusade"
SETTINGS_FILE = "settings.toml"

_refs: dict[str, str] | None = None
_loaded: dict[str, Any] = {}


def _cache_key() -> tuple[str, str]:
    parts = [__version__, GROUP]
    for entry in sys.path:
        try:
            parts.append(f"{entry}|{os.stat(entry or '.').st_mtime_ns}")
        except OSError:
            continue
    description = "\n".join(parts)
    return f"rulesets-{zlib.crc32(description.encode()):08x}", description


def refs() -> dict[str, str]:
    """Rule set name -> `module:attribute` of its declaration, for every installed one."""
    global _refs
    if _refs is not None:
        return _refs
    name, description = _cache_key()
    cached = os.path.join(cache_dir(), f"{name}.json")
    try:
        with open(cached, encoding="utf-8") as f:
            data = json.load(f)
        found = data["rulesets"]
        if data["source"] == description and all(
            isinstance(k, str) and isinstance(v, str) for k, v in found.items()
        ):
            _refs = found
            return found
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # no cache, another one's, or a damaged one: scan again
    from importlib.metadata import entry_points

    found = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value)):
        found.setdefault(point.name, point.value)
    write_atomically(cached, json.dumps({"source": description, "rulesets": found}))
    _refs = found
    return found


def names() -> list[str]:
    return sorted(refs())


def get(name: str) -> Any:
    """The declaration (`RuleSet`) of the rule set called `name`."""
    declaration = _loaded.get(name)
    if declaration is not None:
        return declaration
    ref = refs().get(name)
    if ref is None:
        raise UnknownName("rule set", name, refs())
    module_name, _, attribute = ref.partition(":")
    import importlib

    try:
        declaration = getattr(importlib.import_module(module_name), attribute or "RULESET")
    except (ImportError, AttributeError) as exc:
        raise HcError(
            f"rule set '{name}' is registered as '{ref}', which cannot be loaded ({exc})",
            "reinstall the package that provides it, or choose another --ruleset",
        ) from None
    if getattr(declaration, "name", None) != name:
        raise HcError(
            f"rule set '{name}' is registered as '{ref}', which is not a rule set named '{name}'",
            "its entry point must name a hc_cli.declare.RuleSet with that name",
        )
    _loaded[name] = declaration
    return declaration


def implementation(name: str) -> Any:
    """The module that resolves the rule set's commands (imported only now)."""
    return get(name).implementation()


# ---------------------------------------------------------------------------------------------
# The rule set in force


def settings_path() -> str:
    return os.path.join(config_dir(), SETTINGS_FILE)


def _settings_ruleset() -> str | None:
    path = settings_path()
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise HcError(f"settings file '{path}' cannot be read ({exc})", _SETTINGS_HINT) from None
    import tomllib

    try:
        value = tomllib.loads(text).get("ruleset")
    except tomllib.TOMLDecodeError as exc:
        raise HcError(f"{path}: not valid TOML: {exc}", _SETTINGS_HINT) from None
    if value is not None and not isinstance(value, str):
        raise HcError(f"{path}: ruleset: must be a name in quotes", _SETTINGS_HINT)
    return value


_SETTINGS_HINT = 'the settings file holds lines such as: ruleset = "t2k"'


def ruleset_in_args(args: Sequence[str]) -> str | None:
    """The value of the last `--ruleset NAME` / `--ruleset=NAME` before any `--`."""
    found = None
    for i, word in enumerate(args):
        if word == "--":
            break
        if word == "--ruleset" and i + 1 < len(args):
            found = args[i + 1]
        elif word.startswith("--ruleset="):
            found = word.partition("=")[2]
    return found


def choose(args: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """The rule set in force and where that came from: flag > environment > settings > default."""
    env = os.environ if env is None else env
    given = ruleset_in_args(args)
    if given:
        return given, "--ruleset"
    if env.get("HC_RULESET"):
        return env["HC_RULESET"], "HC_RULESET"
    configured = _settings_ruleset()
    if configured:
        return configured, f"settings file {settings_path()}"
    return DEFAULT_RULESET, "default"


def commands_elsewhere(command: str, but: str) -> list[str]:
    """The rule sets other than `but` that have `command`."""
    having = []
    for name in names():
        if name == but:
            continue
        try:
            if command in get(name).commands:
                having.append(name)
        except HcError:
            continue
    return having

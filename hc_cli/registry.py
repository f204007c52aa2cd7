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

import os
import sys

from hc_cli import __version__
from hc_cli.errors import HcError, UnknownName
from hc_cli.paths import cache_dir, config_dir

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any


GROUP = "hc.rulesets"
DEFAULT_RULESET = "high-crusade"
SETTINGS_FILE = "settings.toml"

_refs: dict[str, str] | None = None
_loaded: dict[str, Any] = {}


CACHE_FILE = "rulesets.cache"
MAX_CACHE_BYTES = 1_000_000  # a few rule sets' names: far less


def _cache_key() -> str:
    """What the cache must have been written for: hc's version and every folder of the import
    path with its time (installing or removing a package changes its folder's time). The
    first entry is the folder of the script run (`hc`'s bin folder) or the current directory
    (`python -m`, `-c`): no package folder, left out, so one cache serves every directory."""
    parts = [__version__, sys.implementation.cache_tag, GROUP]
    for entry in sys.path[1:]:
        if entry in ("", "."):
            continue
        try:
            parts.append(f"{entry}|{os.stat(entry).st_mtime_ns}")
        except OSError:
            continue
    return "\n".join(parts)


def _cached_refs(description: str) -> dict[str, str] | None:
    """The cache's rule sets, trusted only whole: written for this key, in the shape hc
    writes, with each reference in `module:attribute` form; None for anything else."""
    from hc_cli.files import read_cache

    found = read_cache(os.path.join(cache_dir(), CACHE_FILE), description, MAX_CACHE_BYTES)
    if isinstance(found, dict) and all(
        isinstance(k, str) and isinstance(v, str) and v.partition(":")[0] for k, v in found.items()
    ):
        return found
    return None  # no cache, another one's, or a damaged one: scan again


def refs(rescan: bool = False) -> dict[str, str]:
    """Rule set name -> `module:attribute` of its declaration, for every installed one.
    `rescan`: read the entry points again, whatever the cache says."""
    global _refs
    if _refs is not None and not rescan:
        return _refs
    description = _cache_key()
    found = None if rescan else _cached_refs(description)
    if found is None:
        from importlib.metadata import entry_points

        found = {}
        for point in sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value)):
            found.setdefault(point.name, point.value)
        from hc_cli.files import write_cache

        write_cache(os.path.join(cache_dir(), CACHE_FILE), description, found)
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
    try:
        declaration = _load(ref)
    except (ImportError, AttributeError):
        # A cache can name a module since removed or moved: read the entry points again
        # before blaming the package.
        ref = refs(rescan=True).get(name) if not _scanned_now() else ref
        if ref is None:
            raise UnknownName("rule set", name, refs()) from None
        try:
            declaration = _load(ref)
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


_rescanned = False


def _scanned_now() -> bool:
    """Whether the entry points were read in this run already (no second scan)."""
    global _rescanned
    done, _rescanned = _rescanned, True
    return done


def _load(ref: str) -> Any:
    import importlib

    module_name, _, attribute = ref.partition(":")
    return getattr(importlib.import_module(module_name), attribute or "RULESET")


def implementation(name: str) -> Any:
    """The module that resolves the rule set's commands (imported only now)."""
    return get(name).implementation()


# ---------------------------------------------------------------------------------------------
# The rule set in force


def settings_path() -> str:
    return os.path.join(config_dir(), SETTINGS_FILE)


MAX_SETTINGS_BYTES = 64_000  # a settings file is a few lines


def _settings_ruleset() -> str | None:
    from hc_cli.files import read_text

    path = settings_path()
    try:
        text = read_text(path, MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "reason", None) or exc.strerror or str(exc)
        raise HcError(f"settings file '{path}' cannot be read: {reason}", _SETTINGS_HINT) from None
    import tomllib

    try:
        value = tomllib.loads(text).get("ruleset")
    except tomllib.TOMLDecodeError as exc:
        raise HcError(f"{path}: not valid TOML: {exc}", _SETTINGS_HINT) from None
    except RecursionError:
        raise HcError(f"{path}: nested too deep to be settings", _SETTINGS_HINT) from None
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

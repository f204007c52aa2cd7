"""Finding the rule sets, and choosing the one in force.

Rule sets are plugins, each a `hc_cli.plugin.declare.RuleSet`. The three bundled with hc are
registered here, in code (as pytest and datasette register their own plugins), so a plain
checkout runs and a command of a bundled rule set reads no package metadata. A third-party
rule set registers itself under the `hc.rulesets` entry-point group of its package. Reading
entry points means importing `importlib.metadata` and scanning every installed distribution,
about 60 ms, 2.6 times a bare interpreter's start (measured on the project's machine): more
than a whole TAB press. So what it finds is cached, keyed on the import path's folders and
their times (installing or removing a package changes its folder's time), and read only when
hc needs every rule set (its help, a name that is not a bundled one).

The rule set in force: `--ruleset NAME` (or `--ruleset=NAME`) anywhere on the command line,
else `HC_RULESET`, else `ruleset = "..."` in the settings file (`settings.toml` in hc's config
folder, beside the house-rules files), else high-crusade.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from hc_cli import __version__
from hc_cli.core.errors import HcError, UnknownName
from hc_cli.tables.paths import cache_dir

if TYPE_CHECKING:
    from hc_cli.plugin.declare import RuleSet


GROUP = "hc.rulesets"
DEFAULT_RULESET = "high-crusade"
# The bundled rule sets: name -> `module:attribute` of its declaration. A third-party rule
# set of the same name does not replace one of these.
BUILTIN = {
    "high-crusade": "hc_cli.rulesets.high_crusade.declaration:DECLARATION",
    "rogue-trader": "hc_cli.rulesets.rogue_trader.declaration:DECLARATION",
    "t2k": "hc_cli.rulesets.t2k.declaration:DECLARATION",
}

_refs: dict[str, str] | None = None
_loaded: dict[str, RuleSet] = {}


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
    from hc_cli.tables.files import read_cache

    found = read_cache(os.path.join(cache_dir(), CACHE_FILE), description, MAX_CACHE_BYTES)
    if isinstance(found, dict) and all(
        isinstance(k, str) and isinstance(v, str) and v.partition(":")[0] for k, v in found.items()
    ):
        return found
    return None  # no cache, another one's, or a damaged one: scan again


def refs(rescan: bool = False) -> dict[str, str]:
    """Rule set name -> `module:attribute` of its declaration, for the bundled ones and every
    installed one. `rescan`: read the entry points again, whatever the cache says."""
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
        from hc_cli.tables.files import write_cache

        write_cache(os.path.join(cache_dir(), CACHE_FILE), description, found)
    _refs = {**found, **BUILTIN}
    return _refs


def names() -> list[str]:
    return sorted(refs())


def get(name: str) -> RuleSet:
    """The declaration (`RuleSet`) of the rule set called `name`."""
    declaration = _loaded.get(name)
    if declaration is not None:
        return declaration
    ref = BUILTIN.get(name) or refs().get(name)
    if ref is None:
        raise UnknownName("rule set", name, refs())
    try:
        declaration = _load(ref)
    except (ImportError, AttributeError):
        # A cache can name a module since removed or moved: read the entry points again
        # before blaming the package.
        ref = refs(rescan=True).get(name) if name not in BUILTIN and not _scanned_now() else ref
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
            "its entry point must name a hc_cli.plugin.declare.RuleSet with that name",
        )
    _loaded[name] = declaration
    return declaration


_rescanned = False


def _scanned_now() -> bool:
    """Whether the entry points were read in this run already (no second scan)."""
    global _rescanned
    done, _rescanned = _rescanned, True
    return done


def _load(ref: str) -> RuleSet:
    import importlib

    module_name, _, attribute = ref.partition(":")
    declaration: RuleSet = getattr(importlib.import_module(module_name), attribute or "RULESET")
    return declaration


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

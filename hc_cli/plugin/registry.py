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

from hc_cli import __version__
from hc_cli.core.errors import HcError, UnknownName
from hc_cli.tables.paths import cache_dir, config_dir

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from hc_cli.plugin.contract import RuleSetModule


GROUP = "hc.rulesets"
DEFAULT_RULESET = "high-crusade"
# The bundled rule sets: name -> `module:attribute` of its declaration. A third-party rule
# set of the same name does not replace one of these.
BUILTIN = {
    "high-crusade": "hc_cli.rulesets.high_crusade.declaration:DECLARATION",
    "rogue-trader": "hc_cli.rulesets.rogue_trader.declaration:DECLARATION",
    "t2k": "hc_cli.rulesets.t2k.declaration:DECLARATION",
}
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


def get(name: str) -> Any:
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


def _load(ref: str) -> Any:
    import importlib

    module_name, _, attribute = ref.partition(":")
    return getattr(importlib.import_module(module_name), attribute or "RULESET")


def implementation(name: str) -> RuleSetModule:
    """The module that resolves the rule set's commands (imported only now)."""
    return get(name).implementation()


# ---------------------------------------------------------------------------------------------
# The rule set in force


def settings_path() -> str:
    return os.path.join(config_dir(), SETTINGS_FILE)


MAX_SETTINGS_BYTES = 64_000  # a settings file is a few lines


def _settings() -> dict[str, str]:
    """The settings file's `ruleset` and `game`, as far as it gives them."""
    from hc_cli.tables.files import read_text

    path = settings_path()
    try:
        text = read_text(path, MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or str(exc)
        raise HcError(f"settings file '{path}' cannot be read: {reason}", _SETTINGS_HINT) from None
    import tomllib

    try:
        found = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HcError(f"{path}: not valid TOML: {exc}", _SETTINGS_HINT) from None
    except RecursionError:
        raise HcError(f"{path}: nested too deep to be settings", _SETTINGS_HINT) from None
    settings = {}
    for key in ("ruleset", "game"):
        value = found.get(key)
        if value is not None and not isinstance(value, str):
            raise HcError(f"{path}: {key}: must be text in quotes", _SETTINGS_HINT)
        if value:
            settings[key] = value
    if "game" in settings and not os.path.isabs(settings["game"]):
        settings["game"] = os.path.join(os.path.dirname(path), settings["game"])
    for key in SWITCHES:
        value = found.get(key)
        if value is not None and not isinstance(value, bool):
            raise HcError(f"{path}: {key}: must be true or false", _SETTINGS_HINT)
        if value:
            settings[key] = "yes"
    return settings


# Settings a player switches on: `turn_ends_by_itself = true` ends a side's turn once every
# unit of it has acted (Rogue Trader), without hc game next.
SWITCHES = ("turn_ends_by_itself",)


def switched_on(name: str) -> bool:
    """Whether the settings file switches `name` on (SWITCHES)."""
    return bool(_settings().get(name))


_SETTINGS_HINT = (
    'the settings file holds lines such as: ruleset = "t2k", game = "karsk.hcg" or '
    "turn_ends_by_itself = true"
)


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
    """The rule set in force and where that came from: the flag, else the game in force (its
    own rule set: `--game`, `HC_GAME`), else the environment, else the settings file (its game,
    then its rule set), else the default."""
    from hc_cli.games.choice import game_in_args, in_force, ruleset_of

    env = os.environ if env is None else env
    given = ruleset_in_args(args)
    if given:
        return given, "--ruleset"
    settings = None
    game = in_force(args, env)
    if game is None and game_in_args(args) is None and "HC_GAME" not in env:
        if not env.get("HC_RULESET"):
            settings = _settings()
            game = in_force(args, env, settings.get("game"))
    if game is not None:
        found = ruleset_of(game[0])
        if found is not None:
            return found, f"the game {game[0]} ({game[1]})"
    if env.get("HC_RULESET"):
        return env["HC_RULESET"], "HC_RULESET"
    if settings is None:
        settings = _settings()
    if settings.get("ruleset"):
        return settings["ruleset"], f"settings file {settings_path()}"
    return DEFAULT_RULESET, "default"


def game_in_force(
    flag: str | None = None, env: Mapping[str, str] | None = None
) -> tuple[str, str] | None:
    """(path, where it came from) of the game in force: `--game` (its value here), else
    HC_GAME, else the settings file's game unless HC_RULESET chose another rule set; None for
    no game (`--game none`)."""
    from hc_cli.games.choice import in_force

    env = os.environ if env is None else env
    args = () if flag is None else ("--game", flag)
    found = in_force(args, env)
    if found is not None or flag is not None or "HC_GAME" in env or env.get("HC_RULESET"):
        return found
    return in_force(args, env, _settings().get("game"))


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

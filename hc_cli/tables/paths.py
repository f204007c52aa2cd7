"""Where hc finds its tables, the house rules, its settings and its caches; and the key that
says whether a cache is still good. Plain strings and `os` only: every TAB press imports this
module, and `pathlib` alone would cost it several milliseconds."""

from __future__ import annotations

import os
import zlib

from hc_cli import __version__

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # hc_cli/


def data_root() -> str:
    """`rules_data/` inside the installed package, or beside it in a source checkout."""
    installed = os.path.join(_HERE, "rules_data")
    return (
        installed
        if os.path.isdir(installed)
        else os.path.join(os.path.dirname(_HERE), "rules_data")
    )


def yaml_files(folder: str | os.PathLike[str]) -> list[str]:
    """Every *.yaml directly in `folder`, by name; none if it is not there."""
    folder = os.fspath(folder)
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, n) for n in sorted(names) if n.endswith(".yaml")]


def config_dir() -> str:
    """hc's config folder: the settings file, house rules (*.yaml) and sealed rolls' secrets.
    `$XDG_CONFIG_HOME/hc`, else `~/.config/hc`: every module asks here."""
    return _own_folder("XDG_CONFIG_HOME", ".config")


def cache_dir() -> str:
    """hc's cache folder: what it can always build again (tables, rule sets, game snapshots).
    `$XDG_CACHE_HOME/hc`, else `~/.cache/hc`: every module asks here."""
    return _own_folder("XDG_CACHE_HOME", ".cache")


def state_dir() -> str:
    """hc's state folder: what it remembers and cannot build again (the newest head of each
    game it wrote or read, `hc_cli.games.heads`). `$XDG_STATE_HOME/hc`, else
    `~/.local/state/hc`."""
    return _own_folder("XDG_STATE_HOME", os.path.join(".local", "state"))


def _own_folder(variable: str, default: str) -> str:
    base = os.environ.get(variable) or os.path.join(os.path.expanduser("~"), default)
    return os.path.join(base, "hc")


def config_rule_files() -> list[str]:
    """The house-rules files of the config directory: each applies to the rule set it names,
    and is skipped by the others."""
    return yaml_files(config_dir())


def house_rule_paths(cli_files: list[str] | None = None) -> list[str]:
    """Every house-rules file in force, in the order they are laid on (later wins): the
    config directory's *.yaml by name, then HC_RULES, then --rules."""
    files = config_rule_files()
    env = os.environ.get("HC_RULES", "")
    files.extend(p for p in env.split(os.pathsep) if p)
    files.extend(cli_files or [])
    return files


def stat_key(ruleset: str, files: list[str]) -> tuple[str, str]:
    """A cache's name and the full description it must match: they change whenever hc's
    version or any of the files (path, size, time) changes. The name is a CRC (hashlib's
    OpenSSL costs a TAB press 2 ms to load); the description, stored in the cache and
    compared on reading, makes a CRC collision harmless."""
    import sys

    parts = [__version__, sys.implementation.cache_tag, ruleset]
    for f in files:
        st = os.stat(f)
        parts.append(f"{os.path.realpath(f)}|{st.st_size}|{st.st_mtime_ns}")
    description = "\n".join(parts)
    return f"{ruleset}-{zlib.crc32(description.encode()):08x}", description


def write_atomically(path: str, data: str | bytes) -> None:
    """Write a cache file whole or not at all; a read-only home only costs speed."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except OSError:
        try:  # a write that failed (a full disk) leaves nothing behind
            os.unlink(tmp)
        except OSError:
            pass

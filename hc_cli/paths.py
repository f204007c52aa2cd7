"""Where hc finds its tables, the house rules, and its caches; and the key that says whether a
cache is still good. Imports nothing heavy: the TAB-completion fast path uses it too."""

from __future__ import annotations

import os
import zlib
from pathlib import Path

from hc_cli import __version__


def data_root() -> Path:
    """`rules_data/` inside the installed package, or beside it in a source checkout."""
    here = Path(__file__).resolve().parent
    installed = here / "rules_data"
    return installed if installed.is_dir() else here.parent / "rules_data"


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "hc"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hc"


def config_rule_files() -> list[Path]:
    """The house-rules files of the config directory: each applies to the rule set it names,
    and is skipped by the others."""
    conf = config_dir()
    return sorted(conf.glob("*.yaml")) if conf.is_dir() else []


def house_rule_paths(cli_files: list[str] | None = None) -> list[Path]:
    """Every house-rules file in force, in the order they are laid on (later wins): the
    config directory's *.yaml by name, then HC_RULES, then --rules."""
    files = config_rule_files()
    env = os.environ.get("HC_RULES", "")
    files.extend(Path(p) for p in env.split(os.pathsep) if p)
    files.extend(Path(p) for p in cli_files or [])
    return files


def stat_key(ruleset: str, files: list[Path]) -> tuple[str, str]:
    """A cache's name and the full description it must match: they change whenever hc's
    version or any of the files (path, size, time) changes. The name is a CRC (hashlib's
    OpenSSL costs a TAB press 2 ms to load); the description, stored in the cache and
    compared on reading, makes a CRC collision harmless."""
    parts = [__version__, ruleset]
    for f in files:
        st = f.stat()
        parts.append(f"{f.resolve()}|{st.st_size}|{st.st_mtime_ns}")
    description = "\n".join(parts)
    return f"{ruleset}-{zlib.crc32(description.encode()):08x}", description


def write_atomically(path: Path, text: str) -> None:
    """Write a cache file whole or not at all; a read-only home only costs speed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass

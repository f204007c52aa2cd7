"""House rules kept with the log: every entry resolved with house rules keeps each file's text
beside its path and digest (`hc_cli.log.chain.rules_record`), and a game's roster entry keeps
the text of the house rules it began with. A replay, an action and the check of a game's newest
entry resolve with that text, never with whatever file is at the path now: the text is given
back as a file of the name it had (a result names its house rules by file name), in hc's cache
folder under its digest. A text that is not the one its digest names is refused."""

from __future__ import annotations

import os
from typing import Any

from hc_cli.core.errors import HcError


def kept_file(record: object) -> str | None:
    """The file of a house-rules record's kept text (written to the cache folder if it is not
    there as it must be), or None when the record keeps no text (an older hc's entry)."""
    import hashlib

    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        return None
    content = record["text"].encode("utf-8", "surrogateescape")
    digest = hashlib.sha256(content).hexdigest()
    name = os.path.basename(str(record.get("path") or ""))
    if digest != record.get("sha256"):
        raise HcError(
            f"the house-rules text kept for {name[:60]!r} is not the file its digest names "
            f"(sha256 {digest[:12]}..., recorded {str(record.get('sha256'))[:12]}...): it was "
            "edited by hand",
            "a log is only ever appended to by hc; hc replay FILE lists every problem",
        )
    if not name or name in (".", "..") or not name.isprintable():
        name = "house-rules.yaml"
    return _written(os.path.abspath(os.path.join(_folder(), digest[:32], name)), content)


def _folder() -> str:
    from hc_cli.tables.paths import cache_dir

    return os.path.join(cache_dir(), "kept-rules")


def _written(path: str, content: bytes) -> str:
    """`path`, holding `content`: written anew unless it already holds it byte for byte."""
    from hc_cli.tables.paths import write_atomically

    def holds() -> bool:
        try:
            with open(path, "rb") as f:
                return f.read(len(content) + 1) == content
        except OSError:
            return False

    if holds():
        return path
    write_atomically(path, content)
    if holds():
        return path
    raise HcError(
        f"cannot write the kept house rules to hc's cache folder ({_folder()})",
        "make the cache folder writable (XDG_CACHE_HOME names it)",
    )


def kept_files(records: list[dict[str, Any]]) -> tuple[str, ...] | None:
    """The files of every record's kept text, in order; None unless every record keeps one."""
    files = [kept_file(r) for r in records]
    if any(f is None for f in files):
        return None
    return tuple(f for f in files if f is not None)

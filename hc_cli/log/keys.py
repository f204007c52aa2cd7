"""The key a log or a game is chained under: `HC_LOG_KEY` itself, or the content of the file
`HC_LOG_KEY_FILE` names (never both: hc cannot tell which is the game's, so it refuses).

A key is an HMAC-SHA256 key: whoever holds it can extend or rewrite the chain, and a key that
can be guessed can be found from the file itself (a 4-character key was found in seconds). hc
cannot measure how random a key is, only the most it could hold: its length times what each
character can carry in the smallest of these alphabets that holds all its characters: decimal
digits (3.3 bits each), hex digits (4), base64 (6, either alphabet, with its '='), printable
ASCII (6.6), any byte (8). A key that could hold fewer than 128 bits is refused wherever hc
would write with it: at least 16 random bytes, 22 base64 or 32 hex characters (`hc game key`
makes one of 256 bits). It still reads what was written with it, with a warning, so a game
keyed so before stays readable (hc status, hc history, hc replay).

The first entry a key writes carries the key's id (`"key_id"`, an HMAC of a fixed label
under the key: it gives nothing of the key away), so a wrong key is told from a forgery.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hc_cli.core.errors import HcError

KEY_BITS = 128
MAX_KEY_BYTES = 4096
KEY_ID = b',"key_id":"'
_ALPHABETS = (
    ("decimal digits", b"0123456789", 10),
    ("hex digits", b"0123456789abcdefABCDEF", 16),
    ("base64", b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=", 64),
    ("printable ASCII", bytes(range(0x20, 0x7F)), 95),
)
MAKE_ONE = "make one: hc game key --file FILE, then HC_LOG_KEY_FILE=FILE"
_SAID: set[str] = set()  # warnings given by this process: each once


def key_bits(key: bytes) -> tuple[int, str]:
    """The most bits `key` could hold, and the alphabet that says so."""
    import math

    chars = set(key)
    name, size = next(((n, s) for n, a, s in _ALPHABETS if chars <= set(a)), ("bytes", 256))
    return int(len(key) * math.log2(size)), name


def key_id(key: bytes) -> str:
    """The key's id: the same key, the same id; it gives nothing of the key away."""
    import hashlib
    import hmac

    return hmac.new(key, b"hc log key id", hashlib.sha256).hexdigest()[:16]


def _warn(text: str) -> None:
    if text not in _SAID:
        from hc_cli.render.wrap import tell

        _SAID.add(text)
        tell(f"hc: warning: {text}")


def given_key(env: Mapping[str, str] | None = None) -> tuple[bytes, str] | None:
    """The key and where it came from (`HC_LOG_KEY`, or `HC_LOG_KEY_FILE 'PATH'`); None when
    neither is set. A key file that others can read is taken, with a warning."""
    from hc_cli.tables.files import read_bounded, shown_path

    env = os.environ if env is None else env
    text, path = env.get("HC_LOG_KEY"), env.get("HC_LOG_KEY_FILE")
    if text and path:
        raise HcError(
            "HC_LOG_KEY and HC_LOG_KEY_FILE are both set: hc cannot tell which is the game's key",
            "unset one of them (a key file keeps the key out of the environment)",
        )
    if text:
        return text.encode("utf-8", "surrogateescape"), "HC_LOG_KEY"
    if not path:
        return None
    source = f"HC_LOG_KEY_FILE '{shown_path(path)}'"
    try:
        key = read_bounded(path, MAX_KEY_BYTES).strip()
        mode = os.stat(path).st_mode
    except OSError as exc:
        reason = getattr(exc, "reason", None) or exc.strerror
        raise HcError(f"{source} cannot be read: {reason}",
                      "name a small file holding the game's key") from None  # fmt: skip
    if not key:
        raise HcError(f"{source} is empty", f"write the key in it, or {MAKE_ONE}")
    if mode & 0o044:
        _warn(
            f"{source} can be read by others (mode {mode & 0o777:o}): chmod 600 {shown_path(path)}"
        )
    return key, source


def log_key(env: Mapping[str, str] | None = None) -> bytes | None:
    """The key to read a log or a game with; None when none is set. A key too short to write
    with still reads, with a warning."""
    return _key(env, writing=False)


def writing_key(env: Mapping[str, str] | None = None) -> bytes | None:
    """The key to write with; a key that could hold fewer than 128 bits is refused."""
    return _key(env, writing=True)


def _key(env: Mapping[str, str] | None, writing: bool) -> bytes | None:
    given = given_key(env)
    if given is None:
        return None
    key, source = given
    bits, alphabet = key_bits(key)
    if bits >= KEY_BITS:
        return key
    short = _short(source, key, bits, alphabet)
    if writing:
        raise HcError(
            f"{short}: anyone with the file could find it and forge entries, so nothing is "
            "written with it (what it wrote still reads)",
            f"{MAKE_ONE}; go on in a new game (hc game new) or a new --log file",
        )
    _warn(f"{short}: it reads what was written with it, and writes nothing ({MAKE_ONE})")
    return key


def _short(source: str, key: bytes, bits: int, alphabet: str) -> str:
    return (
        f"the key in {source} is {len(key)} {'characters' if alphabet != 'bytes' else 'bytes'} "
        f"of {alphabet}, at most {bits} bits: a key needs {KEY_BITS} (16 random bytes, 22 "
        "base64 or 32 hex characters)"
    )


def wrong_key(line: bytes, key: bytes) -> str | None:
    """Why a first entry whose own MAC fails under `key` is the wrong key, not a forgery: the
    id it carries is not the key's. None when it names this key (then it was changed), or
    names none (an older hc: then it cannot be told)."""
    at = line.find(KEY_ID, 0, 80)
    if at < 0:
        return None
    named = line[at + len(KEY_ID) : at + len(KEY_ID) + 16].decode("ascii", "replace")
    if named == key_id(key):
        return None
    return f"it was started with another key (its key id {named}; the key given has {key_id(key)})"


def new_key() -> str:
    """A fresh key of 256 bits, in base64 (43 characters)."""
    import secrets

    return secrets.token_urlsafe(32)


def write_key_file(path: str) -> str:
    """A fresh key written to the new file `path`, readable by its owner alone; its id."""
    from hc_cli.tables.files import shown_path

    key = new_key()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise HcError(
            f"{shown_path(path)} already exists: a key file is never overwritten (a game "
            "keyed with it would be lost)",
            "give a new file name",
        ) from None
    except OSError as exc:
        raise HcError(f"cannot write the key file {shown_path(path)}: {exc.strerror}",
                      "give a file in a directory you can write to") from None  # fmt: skip
    with os.fdopen(fd, "w", encoding="ascii") as f:
        os.fchmod(f.fileno(), 0o600)  # whatever the umask
        f.write(key + "\n")
    return key_id(key.encode())

"""`--mod X`: a modifier by its table name, or a signed number with an optional label."""

from __future__ import annotations

from dataclasses import dataclass

from hc_cli.core.errors import HcError
from hc_cli.core.numbers import is_digits, is_whole, shown


@dataclass(frozen=True, slots=True)
class ModSpec:
    text: str
    name: str | None = None  # a table entry, looked up by the rule set
    label: str | None = None  # for a direct number: what the player calls it
    value: int | None = None  # a direct number


def parse_mod(text: str) -> ModSpec:
    raw = text.strip()
    label, sep, number = raw.rpartition("=")
    if sep:
        if not label.strip():
            raise HcError(
                f"--mod '{text}' has no label before '='",
                "write --mod smoke=-10, --mod -10 or a table name like --mod target-static",
            )
        return ModSpec(text, label=label.strip(), value=_number(text, number))
    if is_digits(raw):
        return ModSpec(text, value=_bounded(text, raw))
    if not raw:
        raise HcError("--mod is empty", "write --mod smoke=-10, --mod -10 or a table name")
    return ModSpec(text, name=raw.lower())


MOST = 1000  # no modifier of these games comes near it: a larger one is a typo


def _bounded(text: str, digits: str) -> int:
    if not is_whole(digits) or abs(int(digits)) > MOST:
        raise HcError(
            f"--mod '{shown(text)}': {shown(digits.strip())} is larger than any modifier",
            f"a modifier is -{MOST}..{MOST}, e.g. --mod smoke=-10",
        )
    return int(digits)


def _number(text: str, number: str) -> int:
    if not is_digits(number):
        raise HcError(
            f"--mod '{shown(text)}': '{shown(number)}' is not a whole number",
            "write a signed whole number after '=', e.g. --mod smoke=-10",
        )
    return _bounded(text, number)


def parse_mods(texts: list[str] | None, stacks: tuple[str, ...] = ()) -> tuple[ModSpec, ...]:
    """Each `--mod` given. A modifier named twice is refused (issue 37: a modifier applies
    once), but for those of `stacks`, the rule set's modifiers its table counts per step."""
    mods = tuple(parse_mod(t) for t in texts or [])
    # A number labelled as a modifier is named (--mod smoke --mod smoke=-10 is smoke twice).
    called = [m.name or (m.label or "").lower() or None for m in mods]
    named = [name for name in called if name is not None and name not in stacks]
    for name in named:
        if named.count(name) > 1:
            raise HcError(
                f"--mod {name} is given twice: a modifier applies once",
                f"give --mod {name} once",
            )
    return mods

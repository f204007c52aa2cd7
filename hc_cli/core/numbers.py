"""Numbers read from text that a player, a script or a file wrote.

Only ASCII digits make a number here, and never more of them than a game could need: text that
merely looks like a number (a superscript ², another script's digits, five thousand nines) is
an error that names the field and what would be right, never a crash in `int()`.
"""

from __future__ import annotations

from hc_cli.core.errors import HcError

DIGITS = frozenset("0123456789")
LONGEST = 9  # digits: more than any count, distance or die of these games


def as_text(value: float) -> str:
    """A number as a message writes it: a whole number whole (9223372036854775807, not
    9.22337e+18), a fraction as short as it goes (2.5)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        value = int(value)
    return str(value) if isinstance(value, int) else f"{value:g}"


def shown(text: str, most: int = 24) -> str:
    """Text as a message quotes it: cut to a readable length."""
    return text if len(text) <= most else text[: most - 3] + "..."


def is_digits(text: str) -> bool:
    """An optional sign and ASCII digits, however many."""
    body = text.strip()
    digits = body[1:] if body[:1] in ("+", "-") else body
    return bool(digits) and set(digits) <= DIGITS


def is_whole(text: str) -> bool:
    """An optional sign and ASCII digits, and not too many of them to be a game's number."""
    return is_digits(text) and len(text.strip().lstrip("+-")) <= LONGEST


def is_number(text: str) -> bool:
    """A whole number, or one with a decimal point (2.5, -0.5), in ASCII digits, however
    many."""
    whole, dot, fraction = text.strip().partition(".")
    return (is_digits(whole) or bool(dot and whole in ("", "-", "+"))) and (
        not dot or (bool(fraction) and set(fraction) <= DIGITS)
    )


def whole(text: str, what: str, low: int, high: int) -> int:
    """`text` as a whole number within low..high, or an error naming `what` and the bounds."""
    if not is_digits(text):
        raise HcError(
            f"{what} '{shown(text)}' is not a whole number",
            f"give {what} as a whole number from {low} to {high}, in digits 0-9",
        )
    value = int(text) if is_whole(text) else (high + 1 if text.strip()[:1] != "-" else low - 1)
    if not low <= value <= high:
        raise HcError(
            f"{what} {shown(text.strip())} is out of bounds: {low}..{high}",
            f"give {what} from {low} to {high}",
        )
    return value


def number(text: str, what: str, low: float, high: float) -> float:
    """`text` as a number within low..high, or an error naming `what` and the bounds."""
    if not is_number(text):
        raise HcError(
            f"{what} '{shown(text)}' is not a number",
            f"give {what} as a number from {as_text(low)} to {as_text(high)}, in digits 0-9",
        )
    digits = text.strip().lstrip("+-").partition(".")[0]
    value = (
        float(text)
        if len(digits) <= LONGEST
        else (high + 1 if text.strip()[:1] != "-" else low - 1)
    )
    if not low <= value <= high:
        raise HcError(
            f"{what} {shown(text.strip())} is out of bounds: {as_text(low)}..{as_text(high)}",
            f"give {what} from {as_text(low)} to {as_text(high)}",
        )
    return value

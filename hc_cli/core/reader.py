"""The words of the dice notation (`hc_cli.core.notation`): a cursor over the text whose error
names the column of the first character it cannot read and what would be right there. The
grammar (`hc_cli.core.parser`) and a term's modifiers (`hc_cli.core.modifiers`) read with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hc_cli.core.errors import HcError
from hc_cli.core.notation import COMPARISONS, MAX_ROLLS
from hc_cli.core.numbers import shown

if TYPE_CHECKING:
    from collections.abc import Callable

    from hc_cli.core.notation import Node, Point

# Dice and sides are bounded by the work a question takes, not by their count: a roll by the
# rolls it takes (`MAX_ROLLS`), --odds by its budget (`hc_cli.core.weigh`). These only keep a
# term's dice and a die's faces listable: 100,000 dice roll in about 0.3 s, and a die of a
# million faces is listed to be read in about 0.1 s.
MAX_DICE = MAX_ROLLS
MAX_SIDES = 1_000_000
MAX_LISTED = 1000  # faces of a die that lists them (d{2,4,6}, d[1..6], z4, dF20)
MAX_CONSTANT = 9_999_999  # a number written: what seven digits write (a total is bounded at 10^15)
MAX_TERMS = 50  # dice terms and numbers in one expression: no table writes more
MAX_DEPTH = 50  # parentheses, groups and signs within one another

EXAMPLES = "d100, 2d6+1, 4d6kh3, 2d20kl1, 10d6>=4, d6!, 3d6r1, (d8+2)*2, 4dF"


class Reader:
    """A cursor over the text of an expression."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.terms = 0
        self.depth = 0

    def deeper(self, at: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise HcError(
                f"'{shown(self.text)}' nests more than {MAX_DEPTH} deep at column {at + 1}",
                f"write at most {MAX_DEPTH} parentheses, groups or signs within one another",
            )

    def nested(self, at: int, read: Callable[[], Node]) -> Node:
        """What `read` reads one level deeper (a sign, an exponent, parentheses)."""
        self.deeper(at)
        tree = read()
        self.depth -= 1
        return tree

    def fail(self, expected: str, at: int | None = None) -> HcError:
        at = self.pos if at is None else at
        found = self.text[at : at + 12]
        where = f"'{shown(found)}' at column {at + 1}" if found else f"the end (column {at + 1})"
        return HcError(
            f"cannot read '{shown(self.text)}': {where}",
            f"{expected} there; dice are written like {EXAMPLES}",
        )

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def peek(self, word: str) -> bool:
        self.skip()
        return self.text.startswith(word, self.pos)

    def take(self, word: str) -> bool:
        if self.peek(word):
            self.pos += len(word)
            return True
        return False

    def at(self, chars: str, offset: int = 0) -> bool:
        """Whether the character `offset` past the cursor (no space skipped) is one of `chars`."""
        i = self.pos + offset
        return i < len(self.text) and self.text[i] in chars

    def number(self, what: str) -> int:
        self.skip()
        start = self.pos
        while self.at("0123456789"):
            self.pos += 1
        if start == self.pos:
            raise self.fail(what)
        digits = self.text[start : self.pos]
        if len(digits) > 7:
            raise HcError(
                f"'{shown(self.text)}' holds a number of {len(digits):,} digits at column "
                f"{start + 1}",
                f"dice are 1..{MAX_DICE} of 1..{MAX_SIDES} sides; a number is at most "
                f"{MAX_CONSTANT:,}",
            )
        return int(digits)

    def signed(self, what: str) -> int:
        negative = self.take("-")
        return -self.number(what) if negative else self.number(what)

    def point(self, what: str, bare: str | None = "=") -> Point | None:
        """A compare point right here, no space before it (`>=4`, `<3`, `!=1`, DiceParser's
        `[>=7]`, `[<2|>7]`, `[8-10]`, `[%2=0]`); a bare number is `bare` (None: no point)."""
        if self.at("[") and self.at("<>=!%-0123456789", 1):
            self.pos += 1
            found = self.condition(what)
            if not self.take("]"):
                raise self.fail(f"']' to close the compare point ({what})")
            return found
        for op in COMPARISONS:
            if self.text.startswith(op, self.pos):
                self.pos += len(op)
                n = self.number(f"a number after {op} ({what})")
                return {"<>": "!=", "==": "="}.get(op, op), n
        if bare is not None and self.at("0123456789"):
            return bare, self.number(what)
        return None

    def condition(self, what: str) -> Point:
        """DiceParser's condition in brackets: points joined by | (any) or & (each)."""
        parts: list[Point] = []
        joiner = ""
        while True:
            if self.take("%"):
                m = self.number("a number after % (%2=0: even)")
                if m == 0:
                    raise self.fail("a number of 1 or more after % (%2=0: even)", self.pos - 1)
                if not self.take("="):
                    raise self.fail("= and the remainder after %2 (%2=0: even)")
                parts.append(("%", (m, self.number("the remainder (%2=0)"))))
            elif self.at("-0123456789"):
                low = self.signed(what)
                if self.at("-"):  # a range: 8-10
                    self.pos += 1
                    high = self.signed("the last value of the range (8-10)")
                    parts.append(("&", ((">=", low), ("<=", high))))
                else:
                    parts.append(("=", low))
            else:
                found = self.point(what, bare=None)
                if found is None:
                    raise self.fail(f"a compare point ({what}: >=7, <2|>7, 8-10)")
                parts.append(found)
            if not (self.at("|&") and joiner in ("", self.text[self.pos])):
                return parts[0] if len(parts) == 1 else (joiner, tuple(parts))
            joiner = self.text[self.pos]
            self.pos += 1

    def count_term(self) -> None:
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise HcError(
                f"'{shown(self.text)}' joins more than {MAX_TERMS} terms",
                f"write at most {MAX_TERMS} terms (10d6 is one term of ten dice)",
            )

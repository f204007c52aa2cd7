"""Reading the dice notation (`hc_cli.core.notation`) into its tree: a recursive descent whose
error names the column of the first character it cannot read and what would be right there,
and the checks a tree passes before a die is rolled or weighed (its values within 10^15, its
rolls within `MAX_ROLLS`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from hc_cli.core.errors import HcError
from hc_cli.core.notation import (
    COMPARISONS,
    MAX_EXPLOSIONS,
    MAX_MAGNITUDE,
    MAX_ROLLS,
    Binary,
    Dice,
    Die,
    Group,
    Num,
    Pool,
    Unary,
    matches,
)
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
MAX_CONSTANT = 9_999_999  # a number written: what seven digits write (a total is bounded at 10^15)
MAX_TERMS = 50  # dice terms and numbers in one expression: no table writes more
MAX_LENGTH = 500  # characters of an expression
MAX_DEPTH = 50  # parentheses, groups and signs within one another

EXAMPLES = "d100, 2d6+1, 4d6kh3, 2d20kl1, 10d6>=4, d6!, 3d6r1, (d8+2)*2, 4dF"


class _Reader:
    """A recursive descent over the text; an error names the column of the first character it
    cannot read and what would be right there."""

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

    def number(self, what: str) -> int:
        self.skip()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
            self.pos += 1
        if start == self.pos:
            raise self.fail(what)
        digits = self.text[start : self.pos]
        if len(digits) > 7:
            raise HcError(
                f"'{shown(self.text)}' holds a number of {len(digits):,} digits at column "
                f"{start + 1}",
                f"dice are 1..{MAX_DICE} of 2..{MAX_SIDES} sides; a number is at most "
                f"{MAX_CONSTANT:,}",
            )
        return int(digits)

    def point(self, what: str, bare: str | None = "=") -> Point | None:
        """A compare point (`>=4`, `<3`, `=1`); a bare number is `bare` (None: no point)."""
        self.skip()
        for op in COMPARISONS:
            if self.text.startswith(op, self.pos):
                self.pos += len(op)
                return op, self.number(f"a number after {op} ({what})")
        if bare is not None and self.pos < len(self.text) and self.text[self.pos].isdigit():
            return bare, self.number(what)
        return None

    # -- the grammar -----------------------------------------------------------------------

    def whole(self) -> Node:
        if len(self.text) > MAX_LENGTH:
            raise HcError(
                f"an expression of {len(self.text):,} characters",
                f"write at most {MAX_LENGTH} (10d6 is one term of ten dice)",
            )
        if not self.text.strip():
            raise HcError("no dice to roll", f"give an expression such as {EXAMPLES}")
        tree = self.sum()
        self.skip()
        if self.pos < len(self.text):
            split = self.text[self.pos - 1 : self.pos] == " "  # a shell's words joined again
            raise self.fail("an operator (+ - * / // % ^) or the end" + (
                " (quote an expression a shell would expand: hc roll '{d20,d20}kh1')"
                if split else ""))  # fmt: skip
        return tree

    def sum(self) -> Node:
        tree = self.product()
        while True:
            at = self.pos
            if self.take("+"):
                tree = Binary("+", tree, self.product(), at)
            elif self.take("-"):
                tree = Binary("-", tree, self.product(), at)
            else:
                return tree

    def product(self) -> Node:
        tree = self.unary()
        while True:
            self.skip()
            at = self.pos
            op = next((o for o in ("//", "*", "/", "%") if self.text.startswith(o, at)), None)
            if op is None:
                return tree
            self.pos += len(op)
            tree = Binary(op, tree, self.unary(), at)

    def unary(self) -> Node:
        self.skip()
        at = self.pos
        if self.take("-") or self.take("+"):
            part = self.nested(at, self.unary)
            return Unary("-", part, at) if self.text[at] == "-" else part
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        self.skip()
        at = self.pos
        if self.take("^") or self.take("**"):
            return Binary("^", base, self.nested(at, self.unary), at)
        return base

    def atom(self) -> Node:
        self.skip()
        at = self.pos
        if self.take("("):
            tree = self.nested(at, self.sum)
            if not self.take(")"):
                raise self.fail("')' to close the '(' at column " + str(at + 1))
            return tree
        if self.take("{"):
            self.deeper(at)
            parts = [self.sum()]
            while self.take(","):
                parts.append(self.sum())
            self.depth -= 1
            if not self.take("}"):
                raise self.fail("',' or '}' to close the '{' at column " + str(at + 1))
            if len(parts) > MAX_DICE:
                raise HcError(f"a group of {len(parts)} parts", f"at most {MAX_DICE}")
            pool = self.pool_modifiers(len(parts), at)
            return Group(tuple(parts), pool, self.text[at : self.pos].strip(), at)
        if self.pos < len(self.text) and self.text[self.pos].isdigit():
            n = self.number("a number")
            if self.pos < len(self.text) and self.text[self.pos] in "dD":
                return self.dice(n, at)
            if n > MAX_CONSTANT:
                raise HcError(
                    f"'{shown(self.text)}' writes {n:,} at column {at + 1}",
                    f"a number is 0..{MAX_CONSTANT:,}",
                )
            self.count_term()
            return Num(n, at)
        if self.pos < len(self.text) and self.text[self.pos] in "dD":
            return self.dice(1, at)
        raise self.fail("a number, a die (d6), '(' or '{'")

    def count_term(self) -> None:
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise HcError(
                f"'{shown(self.text)}' joins more than {MAX_TERMS} terms",
                f"write at most {MAX_TERMS} terms (10d6 is one term of ten dice)",
            )

    def dice(self, count: int, at: int) -> Dice:
        self.pos += 1  # the d
        self.count_term()
        if not 1 <= count <= MAX_DICE:
            raise HcError(
                f"{count} dice at column {at + 1} of '{shown(self.text)}'",
                f"roll 1..{MAX_DICE} dice of a kind",
            )
        here = self.pos
        if self.take("%"):
            die = Die(100, "%")
        elif self.take("F") or self.take("f"):
            die = Die(3, "F")
        else:
            sides = self.number("the die's sides (d6, d20, d%, dF)")
            kind = {66: "66", 666: "666"}.get(sides, "")
            if sides == 100:
                kind = "%"
            if not kind and not 2 <= sides <= MAX_SIDES:
                raise HcError(
                    f"a d{sides} has no sides to roll (column {here + 1})",
                    f"dice have 2..{MAX_SIDES} sides",
                )
            die = Die(6 if kind in ("66", "666") else sides, kind)
        die = self.die_modifiers(die)
        pool = self.pool_modifiers(count, at)
        if pool.keep is not None and die.explode is not None and die.explode[0] != "compound":
            raise HcError(
                f"'{shown(self.text)}' keeps or drops dice an explosion adds (column {at + 1})",
                "an exploded roll is a die of its own; to keep each die whole with its rolls "
                "added, compound it: 4d6!!kh3",
            )
        return Dice(count, die, pool, self.text[at : self.pos].strip(), at)

    def die_modifiers(self, die: Die) -> Die:
        faces = die.faces()
        while True:
            self.skip()
            at = self.pos
            if self.take("mi") or self.take("ma"):
                low = self.text[at : at + 2] == "mi"
                n = self.number("a number after " + ("mi (each roll at least)" if low
                                                     else "ma (each roll at most)"))  # fmt: skip
                if (low and n > max(faces)) or (not low and n < min(faces)):
                    raise HcError(
                        f"'{shown(self.text)}': {'mi' if low else 'ma'}{n} at column {at + 1} "
                        f"is past every face ({min(faces)}..{max(faces)})",
                        f"clamp within the faces, e.g. mi2 or ma{max(faces) - 1}",
                    )
                die = replace(die, low=n) if low else replace(die, high=n)
            elif self.peek("!") or self.peek("e"):
                if die.explode:
                    raise self.fail("at most one explosion on a die", at)
                if die.kind in ("66", "666"):
                    raise HcError(f"'{shown(self.text)}': a d{die.kind} cannot explode",
                                  "explode a plain die: d6!")  # fmt: skip
                if self.take("e"):
                    mode = "add"
                    point = self.point("the faces that explode", bare="=")
                    if point is None:
                        raise self.fail("a face or a compare point after e (e6, e>5)")
                else:
                    self.take("!")
                    mode = (
                        "compound" if self.take("!") else "penetrate" if self.take("p") else "add"
                    )
                    point = self.point("the faces that explode") or ("=", max(faces))
                matching = [f for f in faces if matches(die.clamped(f), point)]
                if len(matching) in (0, len(faces)):
                    said = "every face" if matching else "no face"
                    raise HcError(f"'{shown(self.text)}' explodes on {said} (column {at + 1})",
                                  "explode on some faces only, e.g. d6! or d10!>=9")  # fmt: skip
                die = replace(die, explode=(mode, point))
            elif self.peek("r"):
                if die.reroll:
                    raise self.fail("at most one reroll on a die", at)
                self.take("r")
                mode = "once" if self.take("o") else "add" if self.take("a") else "until"
                if mode == "until":
                    self.take("r")
                point = self.point("the faces rerolled") or ("=", min(faces))
                matching = [f for f in faces if matches(f, point)]  # the face rolled
                if not matching or (mode == "until" and len(matching) == len(faces)):
                    said = "every face" if matching else "no face"
                    raise HcError(f"'{shown(self.text)}' rerolls {said} (column {at + 1})",
                                  "reroll some faces only, e.g. d6r1 or d20r<3")  # fmt: skip
                die = replace(die, reroll=(mode, point))
            else:
                return die

    def pool_modifiers(self, count: int, at: int) -> Pool:
        pool = Pool()
        while True:
            self.skip()
            here = self.pos
            word = next((w for w in ("kh", "kl", "k", "dh", "dl", "ph", "pl", "p", "d")
                         if self.text.startswith(w, here)), None)  # fmt: skip
            if word is not None and (word != "d" or self.text[here + 1 : here + 2].isdigit()):
                if pool.keep is not None or pool.by_value is not None:
                    raise self.fail("at most one keep or drop on a term (4d6kh3, 4d6dl1)", here)
                self.pos += len(word)
                keeps = word[0] == "k"
                point = None if word[-1] in "hl" else self.point("", bare=None)
                if point is not None:
                    pool = replace(pool, by_value=(keeps, point))
                    continue
                n = self.number(
                    f"how many dice after {word} (4d6{word}1)"
                    if word[-1] in "hl"
                    else f"h or l, how many dice (4d6{word}1) or a compare point (4d6{word}>3) "
                    f"after {word}"
                )
                drops = not keeps
                lowest = word[-1] == "l" or (drops and word in ("d", "p"))
                if not 1 <= n <= count - drops:
                    raise HcError(
                        f"'{shown(self.text)}' {'keeps' if keeps else 'drops'} {n} of {count} "
                        f"dice at column {here + 1}",
                        f"keep 1..{count} (kh, kl) or drop 1..{count - 1} (dh, dl)",
                    )
                kept = n if keeps else count - n
                highest = not lowest if keeps else lowest  # dropping the lowest keeps the highest
                pool = replace(pool, keep=kept, highest_first=highest)
                continue
            if self.take("f"):
                point = self.point("the failures", bare="=")
                if point is None:
                    raise self.fail("a compare point after f (f<2)")
                pool = replace(pool, failure=point)
                continue
            point = self.point("the successes", bare=None)
            if point is None:
                return pool
            if pool.success is not None:
                raise self.fail("at most one success count on a term", here)
            pool = replace(pool, success=point)


_PARSED: dict[str, Node] = {}  # a batch rolls the same dice again


def read(expression: str) -> Node:
    """The tree of a dice expression (an error names the column it cannot read), checked
    whole before a die is rolled or weighed: every value it can take within 10^15, and the
    rolls one roll of it takes on average within `MAX_ROLLS`."""
    found = _PARSED.get(expression)
    if found is None:
        found = _Reader(expression).whole()
        low, high = _bounds(found)
        if max(abs(low), abs(high)) > MAX_MAGNITUDE:
            raise HcError(
                f"'{shown(expression)}' can reach a value past 10^{len(str(MAX_MAGNITUDE)) - 1}",
                "no table reads a total this large: join smaller parts",
            )
        rolls = _rolls(found)
        if rolls > MAX_ROLLS:
            raise HcError(
                f"'{shown(expression)}' takes about {rolls:,.0f} rolls to roll once (more than "
                f"{MAX_ROLLS:,})",
                "reroll fewer faces, or fewer dice",
            )
        if len(_PARSED) < 256:
            _PARSED[expression] = found
    return found


def _die_bounds(die: Die) -> tuple[int, int]:
    faces = die.faces()  # clamping keeps the order: the least face clamped is the least
    low, high = die.clamped(min(faces)), die.clamped(max(faces))
    if die.reroll is not None and die.reroll[0] == "add":
        low, high = min(low, 2 * low), max(high, 2 * high)
    if die.explode is not None:  # each further roll at most a face (less 1, penetrating)
        lower = 1 if die.explode[0] == "penetrate" else 0
        low = min(low, low + MAX_EXPLOSIONS * min(0, low - lower))
        high = max(high, high + MAX_EXPLOSIONS * (high - lower))
    return low, high


def _bounds(node: Node) -> tuple[int, int]:
    """The least and the greatest value a node can take, or bounds wider than those."""
    if isinstance(node, Num):
        return node.value, node.value
    if isinstance(node, (Dice, Group)):
        if isinstance(node, Dice):  # a die's bounds hold its further rolls too
            each = [_die_bounds(node.die)] * node.count
            counted = node.count
            if node.die.explode is not None and node.die.explode[0] != "compound":
                counted *= MAX_EXPLOSIONS + 1  # each further roll a die the pool counts
        else:
            each = [_bounds(part) for part in node.parts]
            counted = len(each)
        if node.pool.success is not None or node.pool.failure is not None:
            return -counted, counted
        return sum(min(0, lo) for lo, _ in each), sum(max(0, hi) for _, hi in each)
    if isinstance(node, Unary):
        low, high = _bounds(node.part)
        return -high, -low
    (a, b), (c, d) = _bounds(node.left), _bounds(node.right)
    if node.op == "+":
        return a + c, b + d
    if node.op == "-":
        return a - d, b - c
    if node.op == "^":
        top = max(abs(a), abs(b)) ** max(0, min(int(d), 64)) if abs(d) <= 64 else 10**100
        return -top, top
    if node.op == "*":
        corners = (a * c, a * d, b * c, b * d)
        return min(corners), max(corners)
    top = max(abs(a), abs(b))  # / // %: never past the number divided (or the divisor for %)
    return -max(top, abs(c), abs(d)), max(top, abs(c), abs(d))


def _rolls(node: Node) -> float:
    """About how many rolls one roll of a node takes."""
    if isinstance(node, Dice):
        die, each = node.die, 1.0
        faces = die.faces() if die.reroll or die.explode else []
        if die.reroll is not None:
            mode, point = die.reroll
            hit = sum(1 for f in faces if matches(f, point))
            each = len(faces) / (len(faces) - hit) if mode == "until" else 1 + hit / len(faces)
        if die.explode is not None:
            top = sum(1 for f in faces if matches(die.clamped(f), die.explode[1]))
            each += min(MAX_EXPLOSIONS, top / (len(faces) - top)) if top < len(faces) else 0
        return node.count * each
    if isinstance(node, Group):
        return sum(_rolls(part) for part in node.parts)
    if isinstance(node, Unary):
        return _rolls(node.part)
    if isinstance(node, Binary):
        return _rolls(node.left) + _rolls(node.right)
    return 0.0

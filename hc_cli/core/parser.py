"""Reading the dice notation (`hc_cli.core.notation`) into its tree: a recursive descent whose
error names the column of the first character it cannot read and what would be right there
(`hc_cli.core.reader`; a term's modifiers: `hc_cli.core.modifiers`), and the checks a tree
passes before a die is rolled or weighed (its values within 10^15, its rolls within
`MAX_ROLLS`).

Where the rollers part, the readings named in `hc roll --help`:
- a compare point right after a term's dice counts them (`10d6>=4`, `{d20,d20}>=10`); after a
  space, a bracket or a number it compares two values, 1 or 0 (`1d20 >= 10`, `(2d6)>7`, `2>1`);
- `#`, `/* */`, caith's `:` and ` ! ` begin a comment, and so does `//` when no number, die,
  bracket or function follows it (`3d6 // fire`; `7 // 2` rounds down); `[words]` after a
  term labels it (`1d20 [attack]`);
- a count or sides worked out is rounded down (`3d(5/2)` is 3d2); a count or sides rolled
  first (`(2d6)d10`, `d(1d10)`) rolls that many dice of that many sides;
- a group of one dice term keeps of its dice (`{4d6}kh2`, `((10d6kh5)kl2)kh1`).
The rest: docs/roll-notation.md.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from hc_cli.core.errors import HcError
from hc_cli.core.modifiers import die_modifiers, pool_modifiers
from hc_cli.core.notation import (
    COMPARISONS,
    FUNCTIONS,
    MAX_EXPLOSIONS,
    MAX_MAGNITUDE,
    MAX_ROLLS,
    ONE_VALUE,
    Binary,
    Counted,
    Dice,
    Die,
    Group,
    Num,
    Pool,
    Unary,
    apply,
    matches,
    operate,
)
from hc_cli.core.numbers import shown
from hc_cli.core.reader import EXAMPLES, MAX_CONSTANT, MAX_DICE, MAX_LISTED, MAX_SIDES, Reader

if TYPE_CHECKING:
    from hc_cli.core.notation import Node, Value

MAX_LENGTH = 500  # characters of an expression


def constant(node: Node) -> Value | None:
    """The value of a node without dice (`4*6`), or None."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Unary):
        part = constant(node.part)
        return None if part is None else apply(node.op, part, node)
    if isinstance(node, Binary):
        a, b = constant(node.left), constant(node.right)
        return None if a is None or b is None else operate(node.op, a, b, node)
    return None


def _uncommented(text: str) -> str:
    """The expression without its comments: `/* ... */` (rpg-dice-roller), and to the end
    `#`, caith's `: reason` and a `!` between spaces (`1d6 ! initiative`)."""
    while "/*" in text:
        start = text.index("/*")
        end = text.find("*/", start + 2)
        text = text[:start] + " " + (text[end + 2 :] if end >= 0 else "")
    ends = [i for i in (text.find("#"), text.find(":"), text.find(" ! ")) if i >= 0]
    if text.endswith(" !"):
        ends.append(len(text) - 2)
    return text[: min(ends)] if ends else text


class _Reader(Reader):
    """The grammar, by precedence: comparisons, sums, products, signs, powers, atoms."""

    def whole(self) -> Node:
        if len(self.text) > MAX_LENGTH:
            raise HcError(
                f"an expression of {len(self.text):,} characters",
                f"write at most {MAX_LENGTH} (10d6 is one term of ten dice)",
            )
        self.text = _uncommented(self.text)
        if not self.text.strip():
            raise HcError("no dice to roll", f"give an expression such as {EXAMPLES}")
        tree = self.compare()
        self.skip()
        if self.pos < len(self.text):
            split = self.text[self.pos - 1 : self.pos] == " "  # a shell's words joined again
            raise self.fail("an operator (+ - * / // % ^ >=), a label ([fire]) or the end" + (
                " (quote an expression a shell would expand: hc roll '{d20,d20}kh1')"
                if split else ""))  # fmt: skip
        return tree

    def compare(self) -> Node:
        tree = self.sum()
        while True:
            self.skip()
            at = self.pos
            op = next((o for o in COMPARISONS if self.text.startswith(o, at)), None)
            if op is None:
                return tree
            self.pos += len(op)
            tree = Binary({"==": "=", "<>": "!="}.get(op, op), tree, self.sum(), at)

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
            op = next((o for o in ("//", "*", "/", "%", "\\") if self.text.startswith(o, at)),
                      None)  # fmt: skip
            if op is None:
                return tree
            self.pos += len(op)
            if op == "//" and not self.operand():  # a comment: 3d6 // fire
                self.text = self.text[:at]
                return tree
            tree = Binary(op, tree, self.unary(), at)

    def operand(self) -> bool:
        """Whether a value starts here: a number, a die, a sign, a bracket, a function."""
        self.skip()
        rest = self.text[self.pos :]
        word = rest.partition("(")[0].strip().lower()
        return bool(rest) and (rest[0] in "0123456789({+-" or (word in FUNCTIONS and "(" in rest)
                               or (rest[0] in "dD" and self.die_follows(self.pos + 1)))  # fmt: skip

    def die_follows(self, i: int) -> bool:
        return i < len(self.text) and self.text[i] in "0123456789%Ff({["

    def unary(self) -> Node:
        self.skip()
        at = self.pos
        if self.take("-") or self.take("+"):
            part = self.nested(at, self.unary)
            return Unary("-", part, at) if self.text[at] == "-" else part
        return self.power()

    def power(self) -> Node:
        base = self.labelled(self.advantage(self.atom()))
        self.skip()
        at = self.pos
        if self.take("^") or self.take("**"):
            if self.at("+#"):  # caith's repeats: refused, not read as a power
                raise HcError(
                    f"'{shown(self.text)}': ^{self.text[self.pos]} at column {at + 1} is caith's "
                    "repeat; hc's ^ is a power",
                    "to add two rolls write (2d6+6) + (2d6+6); to square one, (2d6+6)^2",
                )
            return Binary("^", base, self.nested(at, self.unary), at)
        return base

    def advantage(self, node: Node) -> Node:
        """skizzerz's `1d20ad` (`da`): the term rolled twice, the higher (lower) kept."""
        at = self.pos
        if not isinstance(node, (Dice, Counted, Group)) or self.text[at : at + 2] not in (
                "ad", "da"):  # fmt: skip
            return node
        self.pos += 2
        if self.text[self.pos : self.pos + 2] in ("ad", "da"):
            raise self.fail("advantage or disadvantage once on a term")
        text = self.text[node.at : self.pos].strip()
        return Group((node, node), Pool(keep=1, highest_first=self.text[at] == "a"), text, at)

    def labelled(self, node: Node) -> Node:
        """`1d20 [attack]`: a label, shown with the term's dice (it changes nothing)."""
        while self.peek("["):
            end = self.text.find("]", self.pos)
            if end < 0:
                raise self.fail("']' to close the label")
            label = self.text[self.pos : end + 1]
            self.pos = end + 1
            if isinstance(node, (Dice, Group)):
                node = replace(node, text=f"{node.text} {label}")
            elif isinstance(node, Counted):
                node = replace(node, dice=replace(node.dice, text=f"{node.dice.text} {label}"))
        return node

    def atom(self) -> Node:
        self.skip()
        at = self.pos
        if self.take("(") or self.take("{"):
            close = ")" if self.text[at] == "(" else "}"
            self.deeper(at)
            parts = [self.compare()]
            trailing = False
            while self.take(","):
                trailing = self.peek(close)  # d20's (1,): a list of one
                if not trailing:
                    parts.append(self.compare())
            self.depth -= 1
            if not self.take(close):
                raise self.fail(
                    f"',' or '{close}' to close the '{self.text[at]}' at column {at + 1}"
                )
            keeps = self.at("kp") or (self.at("dD") and self.at("hl", 1))  # d20's (1)k1
            if close == "}" or len(parts) > 1 or trailing or keeps:  # a group: (1, 2)k1,
                return self.group(parts, at, close)  # {4d6, 3d8}kh1, d20's set of one: (1)k1
            if self.at("dD") and self.die_follows(self.pos + 1):
                return self.counted(parts[0], at)
            return parts[0]
        word = self.text[at:].partition("(")[0].strip().lower()
        if word in FUNCTIONS and self.text[at:].startswith(word):
            return self.function(word, at)
        if self.at("0123456789") or (self.at(".") and self.at("0123456789", 1)):
            n = self.number("a number") if not self.at(".") else 0
            if self.at(".") and self.at("0123456789", 1):
                return self.decimal(n, at)
            if self.at("dDzZ"):
                return self.dice(n, at)
            if self.at("{") and 1 <= n <= MAX_DICE:  # skizzerz's 2{2d20}: rolled twice, added
                once = self.atom()
                tree = once
                for _ in range(n - 1):
                    tree = Binary("+", tree, once, at)
                return tree
            if n > MAX_CONSTANT:
                raise HcError(
                    f"'{shown(self.text)}' writes {n:,} at column {at + 1}",
                    f"a number is 0..{MAX_CONSTANT:,}",
                )
            self.count_term()
            return Num(n, at)
        if self.at("dD") or (self.at("zZ") and self.at("0123456789", 1)):
            return self.dice(1, at)
        raise self.fail("a number, a die (d6), '(', '{' or a function (max, floor ...)")

    def decimal(self, whole: int, at: int) -> Num:
        """`1.5`, `.5`: a decimal written, exact (3/2)."""
        from fractions import Fraction

        self.pos += 1
        start = self.pos
        while self.at("0123456789"):
            self.pos += 1
        digits = self.text[start : self.pos]
        if len(digits) > 7:
            raise self.fail("at most 7 decimal places", start)
        self.count_term()
        value = whole + Fraction(int(digits), 10 ** len(digits))
        return Num(value.numerator if value.denominator == 1 else value, at)

    def group(self, parts: list[Node], at: int, close: str) -> Node:
        if len(parts) > MAX_DICE:
            raise HcError(
                f"a group of {len(parts)} parts at column {at + 1}", f"at most {MAX_DICE}"
            )
        one = parts[0]
        bare = Pool()
        if len(parts) == 1 and isinstance(one, Dice) and (
            replace(one.pool, keep=None, skip=0, highest_first=True, order="",
                    critical=(None, None)) == bare):  # fmt: skip
            # a group of one part: a keep or drop keeps its dice ({4d6}kh2; d20's (4d6)kh2),
            # of those it kept already (((10d6kh5)kl2)kh1: of the 5 highest, the 4th)
            first, end = one.pool.window(one.count)
            pool = pool_modifiers(self, end - first, at, one.die.faces())
            if pool.keep is not None or (pool.by_value is not None and one.pool.keep is None):
                inner, outer = pool.window(end - first)
                if pool.keep is not None:
                    pool = pool.windowed(first + inner, first + outer, one.count)
                return replace(one, pool=pool, text=self.text[at : self.pos].strip())
        else:
            pool = pool_modifiers(self, len(parts), at, [])
            if close == "}" and len(parts) == 1 and pool.keep is not None:
                raise HcError(
                    f"'{shown(self.text)}' keeps or drops the dice of the terms of a group of "
                    f"one part at column {at + 1} (rpg-dice-roller's reading): hc does not",
                    "keep or drop the dice of one term ({4d6}kh2, 4d6kh2), or among parts "
                    "({4d6, 2d8}kh1)",
                )
        return Group(tuple(parts), pool, self.text[at : self.pos].strip(), at)

    def function(self, name: str, at: int) -> Node:
        self.pos += len(name)
        if not self.take("("):
            raise self.fail(f"'(' after {name} ({name}(4d6))")
        self.deeper(at)
        args = [self.compare()]
        while self.take(","):
            args.append(self.compare())
        self.depth -= 1
        if not self.take(")"):
            raise self.fail(f"',' or ')' to close {name}( at column {at + 1}")
        takes = 1 if name in ONE_VALUE and not (name == "fix" and len(args) == 2) else 2
        if len(args) != takes and not (name in ("min", "max") and len(args) > 1):
            said = {1: "one value", 2: "two values"}[takes] + " or more" * (name in ("min", "max"))
            example = ", ".join(["4d6", "7"][:takes])
            raise HcError(f"{name}() at column {at + 1} is given {len(args)} of them",
                          f"{name} takes {said}: {name}({example})")  # fmt: skip
        if takes == 1:
            return Unary(name, args[0], at)
        tree = args[0]
        for arg in args[1:]:
            tree = Binary("^" if name == "pow" else name, tree, arg, at)
        return tree

    def counted(self, count: Node, at: int) -> Node:
        """`(4*6)d6`, `(2d6)d10`: a count worked out (rounded down) or rolled first."""
        value = constant(count)
        if value is not None:
            if value < 0:
                raise HcError(f"{value} dice at column {at + 1} of '{shown(self.text)}'",
                              f"roll 0..{MAX_DICE} dice of a kind")  # fmt: skip
            return self.dice(math.floor(value), at)
        low, high = _bounds(count)
        if low < 0:
            raise HcError(
                f"'{shown(self.text)}': the count rolled at column {at + 1} can be under 0",
                "a count of dice cannot be less than 0: (d6-3)d6 could be; write (d6-1)d6",
            )
        if high > MAX_DICE:
            raise HcError(
                f"'{shown(self.text)}' may roll {high:,} dice at column {at + 1}",
                f"roll 0..{MAX_DICE} dice of a kind",
            )
        found = self.dice(None, at)
        return replace(found, count=count) if isinstance(found, Counted) else Counted(
            count, found, at)  # fmt: skip

    def sides(self) -> tuple[Die, Node | None]:
        """The die after its d: d6, d%, dF, d66, d{2,4,6}, d[-1..1], d(5/2); or its sides
        rolled first (`d(1d10)`: a plain die stands in, and the sides)."""
        here = self.pos
        if self.at("("):
            self.pos += 1
            node = self.nested(here, self.compare)
            if not self.take(")"):
                raise self.fail(f"')' to close the '(' at column {here + 1}")
            value = constant(node)
            if value is None:
                if _bounds(node)[1] > MAX_SIDES:
                    raise HcError(
                        f"'{shown(self.text)}': the sides at column {here + 1} can pass "
                        f"{MAX_SIDES}",
                        f"dice have 1..{MAX_SIDES} sides",
                    )
                return Die(1), node
            return self.die_of(math.floor(value), here), None  # rpg-dice-roller's d2.5: a d2
        return self.die_of(None, here), None

    def die_of(self, sides: int | None, here: int) -> Die:
        """The die of `sides` worked out, or of what follows its d."""
        if sides is None:
            if self.text[here - 1] in "zZ":  # GNOLL's zero-based die: z4 is 0..3
                sides = self.number("the die's sides (z4: 0..3)")
                if not 1 <= sides <= MAX_LISTED:
                    raise HcError(f"a z{sides} at column {here + 1}",
                                  f"a die from 0 has 1..{MAX_LISTED} sides")  # fmt: skip
                return Die(sides, "list", tuple(range(sides)))
            if self.take("%"):
                return Die(100, "%")
            if self.take("F") or self.take("f"):
                return self.fudge(here)
            if self.at("{["):
                return self.listed()
            sides = self.number("the die's sides (d6, d20, d%, dF)")
        kind = {66: "66", 666: "666", 100: "%"}.get(sides, "")
        if not kind and not 1 <= sides <= MAX_SIDES:
            raise HcError(
                f"a d{sides} has no sides to roll (column {here + 1})",
                f"dice have 1..{MAX_SIDES} sides",
            )
        return Die(6 if kind in ("66", "666") else sides, kind)

    def fudge(self, here: int) -> Die:
        """dF (-1, 0, +1; rpg-dice-roller's dF.2), its dF.1 (-1 and +1 one in six each),
        skizzerz's dF20 (-20..20)."""
        if self.text.startswith(".1", self.pos):
            self.pos += 2
            return Die(6, "list", (-1, 0, 0, 0, 0, 1))
        self.pos += 2 if self.text.startswith(".2", self.pos) else 0
        if self.at("0123456789"):
            n = self.number("the Fudge die's reach (dF20: -20..20)")
            if not 1 <= n <= MAX_LISTED // 2:
                raise HcError(f"a dF{n} at column {here + 1}", f"dF1..dF{MAX_LISTED // 2}")
            return Die(2 * n + 1, "list", tuple(range(-n, n + 1)))
        return Die(3, "F")

    def listed(self) -> Die:
        """d{2,4,6}, d[-1..1], d[1/1/2]: a die of the faces listed, each alike likely."""
        at = self.pos
        close = "}" if self.text[at] == "{" else "]"
        self.pos += 1
        faces: list[int] = []
        while True:
            low = self.signed("a face (d{2,4,6}, d[-1..1])")
            ranged = self.take("..") or (self.at("-") and not self.at(",/", 1))  # [1..6], [0-9]
            if ranged and self.text[self.pos] == "-":
                self.pos += 1
            high = self.signed("the last face of the range") if ranged else low
            if high < low:
                raise HcError(
                    f"'{shown(self.text)}': the faces {low}..{high} at column {at + 1}",
                    "a range runs from its lowest face to its highest: d[1..3]",
                )
            if len(faces) + high - low + 1 > MAX_LISTED:
                raise HcError(f"a die of {len(faces) + high - low + 1:,} faces (column {at + 1})",
                              f"list at most {MAX_LISTED}")  # fmt: skip
            faces += range(low, high + 1)
            if not (self.take(",") or self.take("/")):
                break
        if not self.take(close) or not faces:
            raise self.fail(f"',' or '{close}' to close the faces at column {at + 1}")
        return Die(len(faces), "list", tuple(faces))

    def dice(self, count: int | None, at: int) -> Dice | Counted:
        """`count` dice (None: rolled first) of the die after the d, and their modifiers."""
        self.pos += 1  # the d
        self.count_term()
        if count is not None and not 0 <= count <= MAX_DICE:
            raise HcError(
                f"{count} dice at column {at + 1} of '{shown(self.text)}'",
                f"roll 0..{MAX_DICE} dice of a kind",
            )
        die, rolled = self.sides()
        modifier = ("!", "r", "e", "mi", "ma")
        if rolled is not None:  # its faces known once rolled: no modifier of the die's own
            if any(self.text.startswith(w, self.pos) for w in modifier):
                raise self.fail("no reroll, explosion or clamp on a die whose sides are rolled")
            pool = pool_modifiers(self, count, at, [])
            text = self.text[at : self.pos].strip()
            return Counted(Num(count or 0, at), Dice(count or 0, die, pool, text, at), at, rolled)
        die = die_modifiers(self, die)
        pool = pool_modifiers(self, count, at, sorted({die.clamped(f) for f in die.faces()}))
        while any(self.text.startswith(w, self.pos) for w in modifier):
            die = die_modifiers(self, die)  # rpg-dice-roller's any order: 6d10>=8!>=9
            pool = pool_modifiers(self, count, at, sorted({die.clamped(f) for f in die.faces()}),
                                  pool)  # fmt: skip
        if pool.keep is not None and die.explode is not None and die.explode[0] != "compound":
            raise HcError(
                f"'{shown(self.text)}' keeps or drops dice an explosion adds (column {at + 1})",
                "an exploded roll is a die of its own; to keep each die whole with its rolls "
                "added, compound it: 4d6!!kh3",
            )
        if pool.unique:
            faces = die.faces()
            if die.reroll or die.explode or die.low is not None or die.high is not None or (
                    len(set(faces)) < len(faces) or (count or 0) > len(faces)):  # fmt: skip
                raise HcError(
                    f"'{shown(self.text)}': u (no two dice alike) at column {at + 1} needs "
                    "as many faces as dice, each different, and no reroll, explosion or clamp",
                    "e.g. 4d6u",
                )
        return Dice(count or 0, die, pool, self.text[at : self.pos].strip(), at)


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


def _most(node: Counted) -> Dice:
    """The dice of a count (and sides) rolled first, as many and as large as they can be."""
    most = max(0, math.floor(_bounds(node.count)[1]))
    die = Die(max(1, _bounds(node.sides)[1])) if node.sides is not None else node.dice.die
    return replace(node.dice, count=most, die=die, pool=node.dice.pool.sized(most))


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
        return math.floor(node.value), math.ceil(node.value)
    if isinstance(node, Counted):  # as many dice as the count can reach
        return _bounds(_most(node))
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
    if isinstance(node, Counted):
        sides = _rolls(node.sides) if node.sides is not None else 0.0
        return _rolls(node.count) + sides + _rolls(_most(node))
    if isinstance(node, Group):
        return sum(_rolls(part) for part in node.parts)
    if isinstance(node, Unary):
        return _rolls(node.part)
    if isinstance(node, Binary):
        return _rolls(node.left) + _rolls(node.right)
    return 0.0

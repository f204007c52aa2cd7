"""Answers a batch has worked out already, found again by the faces of the dice that decided them.

A resolver is a function of its request and of the faces its dice show: it asks its
`DiceSource` for every die and never looks at where the numbers come from (`hc_cli.dice`). So
two seeded lines of one shape (the same fields but the seed) whose dice show the same faces
get the same answer but for their seed and line number. A batch of thousands of the same fire
rolls the same few hundred faces again and again.

For each shape, `Recall` keeps a tree of what the resolver asked for: at each node the sides
of the next die, and a branch per face seen. A line walks it with the faces its own seed
draws, exactly as `SeededDice` draws them, and at a leaf finds the answer's text: nothing is
resolved, built or encoded again. A walk that leaves the tree is resolved in full with a
source that records every die, and its path and answer are added.

What is kept is checked before it is trusted:
- A leaf's text is cut from the encoder's own text of the answer, with a mark in the seed's
  place: the same bytes a full resolution writes. An answer the batch would escape whole (a
  lone surrogate), or with a field of its own named "line", is not kept.
- The first `AGREED` leaves of a shape are used only once a second, different seed has
  reached each and resolved in full to the same answer; later leaves of that shape are used
  at once. A resolver that read anything but its faces (the seed itself, a clock, a counter)
  shows there, or as a die asked of a different size than before after the same faces: its
  shape is then never kept again in this batch, and every line of it is resolved in full.
- The tree is bounded (`LEAVES` leaves in all, `DEEPEST` dice a path, answers up to `LONGEST`
  characters, `SHAPES` shapes); past that a line is resolved in full, as it always can be.
  A shape whose lines are seldom found (a volley of many dice: see `_look`) is let go, and
  its lines resolved in full, at no cost of keeping.

A line not found is resolved with a source that goes on from the numbers the search drew from
its seed: every face is the one `SeededDice(seed)` would roll.

Parallel workers each keep a tree, and tell each other what they add (`hc_cli.workers`).
"""

from __future__ import annotations

import random

from hc_cli.dice import SeededDice

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

LEAVES = 1 << 14  # answers kept in all: ~25 MB of text at the longest usual answers
DEEPEST = 64  # dice on one path: a volley of hundreds of shots is not worth keeping
LONGEST = 1 << 14  # characters of one answer
SHAPES = 1024  # shapes kept
AGREED = 8  # leaves of a shape a second seed must confirm before new ones are trusted at once
WINDOW = 512  # lines of a shape between two looks at how many were found (see `_look`): a
# volley of many dice seldom rolls the same faces twice, and is then kept no more


_MARK = 8_640_000_000_000_000_000_000_007  # no seed is so big: it marks the seed's place
_MARK_TEXT = f'"seed":{_MARK}'


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _GoingOn:
    """A seeded generator some of whose numbers were drawn already: those first, then on."""

    __slots__ = ("_drawn", "_next", "_rng")

    def __init__(self, drawn: list[float], rng: random.Random) -> None:
        self._drawn, self._next, self._rng = list(drawn), 0, rng

    def random(self) -> float:
        if self._next < len(self._drawn):
            self._next += 1
            return self._drawn[self._next - 1]
        return self._rng.random()


class RecordingDice(SeededDice):
    """A seeded source that notes each die asked for: (sides, face), in order. `going_on`:
    the seed's generator, some of its numbers drawn already (the search's)."""

    def __init__(self, seed: int, going_on: _GoingOn | None = None) -> None:
        if going_on is None:
            super().__init__(seed)
        else:
            self.seed, self._rng = seed, going_on  # type: ignore[assignment]
        self.path: list[tuple[int, int]] = []

    def _face(self, sides: int, die: str, purpose: str) -> int:
        face = SeededDice._face(self, sides, die, purpose)
        self.path.append((sides, face))
        return face


class _Leaf:
    """One answer: its text in two pieces, around the seed and before the line number."""

    __slots__ = ("head", "tail", "seeded", "seed", "trusted")

    def __init__(self, head: str, tail: str, seeded: bool) -> None:
        self.head, self.tail, self.seeded = head, tail, seeded
        self.seed = 0  # the seed that made it: a second, different one must agree
        self.trusted = False

    def text(self, seed: int, line: int) -> str:
        if self.seeded:
            return f"{self.head}{seed}{self.tail}{line}}}\n"
        return f"{self.head}{line}}}\n"

    def result_text(self, seed: int) -> str:
        """The answer's JSON text without its line number: the result a log records."""
        text = f"{self.head}{seed}{self.tail}" if self.seeded else self.head
        text = text[: -len('"line":')]  # what is left ends "," or, for an empty answer, "{"
        return (text[:-1] if text.endswith(",") else text) + "}"

    def same(self, other: _Leaf) -> bool:
        return (self.head, self.tail, self.seeded) == (other.head, other.tail, other.seeded)


class _Node:
    """A die the resolver asks for here: its sides, and where each face seen leads."""

    __slots__ = ("sides", "branches")

    def __init__(self, sides: int) -> None:
        self.sides = sides
        self.branches: dict[int, _Node | _Leaf] = {}


class _Shape:
    """One shape's tree, how far it has been found a function of its faces, and whether its
    answers come round again often enough to be worth keeping."""

    __slots__ = ("root", "agreed", "impure", "leaves", "asked", "found", "before", "wide")

    def __init__(self) -> None:
        self.root: _Node | _Leaf | None = None
        self.agreed = 0  # leaves a second seed resolved to the same answer
        self.impure = False  # a leaf a second seed answered otherwise: never kept again
        self.leaves = 0
        self.asked = 0  # lines looked for, in this window of WINDOW
        self.found = 0  # of which found
        self.before = 0  # found in the window before
        self.wide = False  # too few found: its answers seldom come round (many dice)


class Recall:
    """The answers of one batch's seeded lines, by shape and faces (see the module)."""

    def __init__(self, encode: Callable[[Any], str]) -> None:
        self._encode = encode  # the compact encoder the batch writes its answers with
        self._shapes: dict[Any, _Shape] = {}
        self._leaves = 0
        self._rng = random.Random()
        self._walked: int | None = None  # the seed the last search drew for
        self._drawn: list[float] = []  # what it drew
        self.found = 0  # lines answered from what was kept

    def keeps(self, shape: Any) -> bool:
        """Whether lines of `shape` are looked for and kept (not when its resolver was found
        to read more than its faces, when its answers seldom come round, or when too many
        other shapes are kept)."""
        kept = self._shapes.get(shape)
        if kept is None:
            return len(self._shapes) < SHAPES
        return not (kept.impure or kept.wide)

    def find(self, shape: Any, seed: int) -> _Leaf | None:
        """The trusted answer the faces `seed` draws lead to, if the tree holds one."""
        kept = self._shapes.get(shape)
        if kept is None:
            self._walked = None
            return None
        node = kept.root
        rng = self._rng
        rng.seed(seed)
        self._walked = seed
        drawn = self._drawn
        drawn.clear()
        while node.__class__ is _Node:
            drawn.append(rng.random())
            node = node.branches.get(int(drawn[-1] * node.sides) + 1)  # as SeededDice draws
        kept.asked += 1
        if kept.asked >= WINDOW:
            self._look(kept)
        if node is None or not node.trusted:  # type: ignore[union-attr]
            return None
        kept.found += 1
        self.found += 1
        return node  # type: ignore[return-value]

    def _look(self, kept: _Shape) -> None:
        """At the end of a window: a shape whose lines were seldom found (under 1 in 8), and
        no more often than in the window before (a tree still filling finds more each
        window), is kept no more."""
        if kept.found * 8 < kept.asked and kept.found < kept.before * 3 // 2 + 4:
            kept.wide, kept.root = True, None
            self._leaves -= kept.leaves
            kept.leaves = 0
        kept.before, kept.asked, kept.found = kept.found, 0, 0

    def recording(self, seed: int) -> RecordingDice:
        """The source to resolve a line of `seed` that was not found: it rolls what
        `SeededDice(seed)` rolls, going on from the dice the search drew."""
        if self._walked != seed:
            return RecordingDice(seed)
        return RecordingDice(seed, _GoingOn(self._drawn, self._rng))

    def keep(self, shape: Any, path: list[tuple[int, int]], leaf: _Leaf) -> None:
        """Keep `leaf`, the answer the faces of `path` gave (see `leaf`), for lines of `shape`."""
        kept = self._shapes.get(shape)
        if kept is None:
            if len(self._shapes) >= SHAPES:
                return
            kept = self._shapes[shape] = _Shape()
        if kept.impure or kept.wide:
            return
        leaf.trusted = kept.agreed >= AGREED
        before = self._leaves
        if kept.root is None:
            kept.root = self._grow(path, 0, leaf)
        elif not self._place(kept, path, leaf):
            kept.impure, kept.root = True, None  # not a function of its faces
            self._leaves -= kept.leaves
            kept.leaves = 0
            return
        kept.leaves += self._leaves - before

    def leaf(self, result: dict, seed: int, path: list[tuple[int, int]]) -> _Leaf | None:
        """The answer `result` (as a batch writes it, but its line number) that the faces of
        `path` gave for `seed`, in two pieces around its seed. None for one not worth keeping
        (too long, too many dice), or whose pieces would not make the batch's own text (a
        field named "line", or text it would escape whole: a lone surrogate)."""
        if "line" in result or len(path) > DEEPEST:
            return None
        seeded = result.get("seed") == seed and result.get("seed").__class__ is int
        # Encoded with a mark in the seed's place, cut there: the encoder writes each member
        # where it stands, whatever the others are.
        text = self._encode({**result, "seed": _MARK} if seeded else result)
        if len(text) > LONGEST or not text.isascii() and not _utf8(text):
            return None
        sep = "," if result else ""
        if not seeded:
            leaf = _Leaf(text[:-1] + sep + '"line":', "", False)
        else:
            head, mark, tail = text.partition(_MARK_TEXT)
            if not mark or _MARK_TEXT in tail:
                return None
            leaf = _Leaf(head + '"seed":', tail[:-1] + ',"line":', True)
        leaf.seed = seed
        return leaf

    def _grow(self, path: list[tuple[int, int]], at: int, leaf: _Leaf) -> _Node | _Leaf:
        self._leaves += 1
        if at == len(path):
            return leaf
        root = node = _Node(path[at][0])
        for i in range(at, len(path)):
            following: _Node | _Leaf = _Node(path[i + 1][0]) if i + 1 < len(path) else leaf
            node.branches[path[i][1]] = following
            node = following  # type: ignore[assignment]
        return root

    def _place(self, kept: _Shape, path: list[tuple[int, int]], leaf: _Leaf) -> bool:
        """Add `leaf` at the end of `path`; False when the tree says the resolver asked for
        other dice, or answered otherwise, after the same faces: it is not a function of them."""
        node = kept.root
        for i, (sides, face) in enumerate(path):
            if node.__class__ is not _Node or node.sides != sides:  # type: ignore[union-attr]
                return False
            following = node.branches.get(face)  # type: ignore[union-attr]
            if following is None:
                if self._leaves < LEAVES:
                    node.branches[face] = self._grow(path, i + 1, leaf)  # type: ignore[union-attr]
                return True
            node = following
        if node.__class__ is not _Leaf:
            return False
        known: _Leaf = node  # type: ignore[assignment]
        if not known.same(leaf):
            return False
        if not known.trusted and leaf.seed != known.seed:
            known.trusted = True
            kept.agreed += 1
        return True

"""Dice sources: one small interface, three ways of answering it.

A resolver asks a `DiceSource` for every die it needs and never looks at where the numbers
come from. So the same resolver code rolls (`SeededDice`), takes the player's own dice
(`ScriptedDice`, `--dice`), and walks every outcome with its exact probability
(`hc_cli.core.odds.EnumeratingDice`): `--odds` can never drift from the roll. (The enumerating
source lives with the odds, so that a plain roll never imports `fractions`.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from hc_cli.core.errors import DiceError
from hc_cli.core.numbers import is_whole, shown
from hc_cli.core.words import count

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Roll:
    """One die as the breakdown lists it. `faces` holds what the dice showed for a D100."""

    die: str
    value: int
    purpose: str
    faces: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, str | int | list[int]]:
        d: dict[str, str | int | list[int]] = {
            "die": self.die,
            "value": self.value,
            "purpose": self.purpose,
        }
        if self.faces:
            d["faces"] = list(self.faces)
        return d


def read_d100(tens: int, units: int) -> int:
    """Two D10 faces (0..9) read as the High Crusade text says: 0-0 is 100, else tens*10+units."""
    return 100 if tens == 0 and units == 0 else tens * 10 + units


def d100_faces(value: int) -> tuple[int, int]:
    """The two faces (tens, units) that read as `value` (1..100)."""
    return (0, 0) if value == 100 else (value // 10, value % 10)


class DiceSource:
    """What a resolver may ask for. Subclasses decide where the faces come from."""

    seed: int | None = None

    def _face(self, sides: int, die: str, purpose: str) -> int:
        raise NotImplementedError

    def roll(self, sides: int, purpose: str) -> Roll:
        """One die of `sides` faces, 1..sides (a D10's 0 counts as 10)."""
        return Roll(f"d{sides}", self._face(sides, f"d{sides}", purpose), purpose)

    def d100(self, purpose: str) -> Roll:
        """Percentile dice: two D10 read as tens and units, 1..100."""
        tens, units = self._percentile_faces(purpose)
        return Roll("d100", read_d100(tens, units), purpose, (tens, units))

    def _percentile_faces(self, purpose: str) -> tuple[int, int]:
        # A D10 face reads 1..10 on its own; inside a D100 its "0" face is zero.
        tens = self._face(10, "d100 tens", purpose) % 10
        units = self._face(10, "d100 units", purpose) % 10
        return tens, units

    def batch(self, phase: str, requests: list[tuple[int, str]]) -> list[Roll]:
        """Dice the table rolls together, one phase of a volley: `(sides, purpose)` each.
        Rolled one after another here; a source that asks the player asks for them at once.
        100 sides is a D100: two D10 read as tens and units."""
        return [
            self.d100(purpose) if sides == 100 else self.roll(sides, purpose)
            for sides, purpose in requests
        ]

    def sum_of(
        self, phase: str, requests: list[tuple[int, str]], signs: tuple[int, ...] = ()
    ) -> list[Roll]:
        """Dice rolled together of which only the total is read, each added (or, with its
        sign -1, taken away): a damage roll. Rolled, or asked for, as `batch` rolls them; the
        enumerating source answers with the total's distribution instead of every face."""
        return self.batch(phase, requests)

    def pool(self, count: int, sides: int, at_most: int, purpose: str) -> list[Roll]:
        """`count` identical dice, each a success on `at_most` or less. Resolvers may read
        only how many succeeded (and show the faces): that is what lets the enumerating
        source answer with the binomial instead of sides**count paths."""
        return [
            self.d100(f"{purpose} #{i + 1}")
            if sides == 100
            else self.roll(sides, f"{purpose} #{i + 1}")
            for i in range(count)
        ]

    def rolloff(self, names: list[str], sides: int, purpose: str) -> tuple[list[str], list[Roll]]:
        """Order tied names by a die each, highest first; names still tied roll again."""
        rolls: list[Roll] = []
        order: list[str] = []
        groups = [list(names)]
        while groups:
            group = groups.pop(0)
            if len(group) == 1:
                order.append(group[0])
                continue
            scored: dict[int, list[str]] = {}
            tied = self.batch(
                f"{purpose} ({', '.join(group)})", [(sides, f"{purpose}: {n}") for n in group]
            )
            for name, roll in zip(group, tied, strict=True):
                rolls.append(roll)
                scored.setdefault(roll.value, []).append(name)
            groups = [scored[v] for v in sorted(scored, reverse=True)] + groups
        return order, rolls

    def finish(self) -> None:
        """Called once the resolution is complete; a scripted source checks nothing is left."""


class SeededDice(DiceSource):
    """Dice from a seed. Every face derives from `Random.random()`, the one sequence Python
    promises to keep across versions, so a seed replays on any OS and any Python 3.11+."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def _face(self, sides: int, die: str, purpose: str) -> int:
        return int(self._rng.random() * sides) + 1


def system_seed() -> int:
    """A fresh seed from the OS, small enough to type back in."""
    return random.SystemRandom().randrange(1, 2**31)


@dataclass(slots=True)
class _Token:
    text: str
    value: int
    percent: bool  # written as a read D100 value, e.g. "46%"
    forced: str | None = None  # "read" or "face": how a prompt's count says to read it

    @property
    def read_value(self) -> bool:
        """A D100 as read: "46%", or two or more digits ("07", "46", "00", "100"). A lone
        digit is one D10 face, so "4,6" (tens, units) and "46" cannot be confused; unless
        the count of entries at a prompt says how they are read (`forced`)."""
        if self.forced is not None:
            return self.forced == "read"
        return self.percent or len(self.text.lstrip("+-")) >= 2

    @property
    def as_listed(self) -> str:
        """The entry as --dice reads it the same way: a lone digit a prompt read as a D100's
        value (7 for 07) written with its two digits."""
        if self.forced == "read" and not self.percent and len(self.text.lstrip("+-")) < 2:
            return f"{self.value:02d}"
        return self.text


D100_HELP = (
    "a D100 is one read value of two digits (07, 46; 00 or 100 for 100) or two single-digit "
    "faces, tens then units (4,6; 0,0 is 100)"
)


class ScriptedDice(DiceSource):
    """The player's own dice, given in the order the breakdown lists the rolls.

    A lone D10 takes 1..10 (0 is read as 10, as the die shows it). A D100 takes one read
    value of two digits or more ("07", "46", "00" or "100" for 100, or "46%"), or two D10
    faces of one digit each, tens then units (0,0 is 100).
    """

    def __init__(self, text: str) -> None:
        # Commas or spaces between dice: --dice 4,6 or --dice "4 6", as the prompt takes them.
        self._tokens = [self._parse(t) for t in text.replace(",", " ").split()] if text else []
        if not self._tokens:
            raise DiceError(
                "--dice is empty", "give face values separated by commas, e.g. --dice 7,3"
            )
        self._next = 0
        self._used: list[str] = []

    @staticmethod
    def _parse(token: str) -> _Token:
        text = token.strip()
        body, percent = (text[:-1], True) if text.endswith("%") else (text, False)
        if not is_whole(body):
            raise DiceError(
                f"--dice: '{shown(text)}' is not a face value",
                "give whole numbers separated by commas, e.g. --dice 7,3 (" + D100_HELP + ")",
            )
        return _Token(text, int(body), percent)

    def _take(self, die: str, purpose: str) -> _Token:
        if self._next >= len(self._tokens):
            used = len(self._tokens)
            raise DiceError(
                f"--dice ran out at roll {len(self._used) + 1}: {die} for {purpose}",
                f"this resolution needs more dice than the {used} value(s) given; "
                "give one value per die, in the order the breakdown lists them"
                + (f" ({D100_HELP})" if die.startswith("d100") else ""),
            )
        token = self._tokens[self._next]
        self._next += 1
        self._used.append(f"{die} for {purpose}")
        return token

    def _face(self, sides: int, die: str, purpose: str) -> int:
        token = self._take(die, purpose)
        low = 0 if sides == 10 else 1
        if token.percent or not low <= token.value <= sides:
            zero = " (0 is read as 10)" if sides == 10 else ""
            raise DiceError(
                f"--dice value '{token.text}' does not fit the {die} for {purpose}",
                f"a {die} takes 1..{sides}{zero}",
            )
        return sides if token.value == 0 else token.value

    def _percentile_faces(self, purpose: str) -> tuple[int, int]:
        if self._next < len(self._tokens) and self._tokens[self._next].read_value:
            token = self._take("d100", purpose)
            value = 100 if token.value == 0 and not token.percent else token.value
            if not 1 <= value <= 100:
                raise DiceError(
                    f"--dice value '{token.text}' does not fit the d100 for {purpose}",
                    D100_HELP,
                )
            return d100_faces(value)
        faces = []
        for part in ("tens", "units"):
            token = self._take(f"d100 {part}", purpose)
            if token.read_value or not 0 <= token.value <= 9:
                raise DiceError(
                    f"--dice value '{token.text}' does not fit the d100 {part} die for {purpose}",
                    D100_HELP,
                )
            faces.append(token.value)
        return faces[0], faces[1]

    def finish(self) -> None:
        left = len(self._tokens) - self._next
        if left:
            rolls = "; ".join(self._used) or "none"
            raise DiceError(
                f"--dice has {left} value(s) too many: "
                + ", ".join(t.text for t in self._tokens[self._next :]),
                f"this resolution rolled {len(self._used)} time(s): {rolls}",
            )


def _as_typed(hint: str | None) -> str:
    """A hint written for --dice (commas) as a prompt takes it (spaces)."""
    import re

    text = (hint or "").replace("--dice ", "").replace("separated by commas", "separated by spaces")
    return re.sub(r"(\d),(\d)", r"\1 \2", text)


def die_help(sides: int) -> str:
    """What a die takes at a --dice ask prompt, in the die's own terms."""
    if sides == 100:
        return (
            "a D100 takes one value of two digits (46, 07; 00 is 100) or its two faces, tens "
            "then units (4 6)"
        )
    if sides == 10:
        return "a D10 takes 1..10 (0 is 10)"
    return f"a D{sides} takes 1..{sides}"


def _example(sides: int, i: int) -> str:
    if sides == 100:
        return ("46", "07")[i]
    return str(max(1, sides * 2 // 3 - i * (sides // 3)))


def entry_help(kinds: tuple[int, ...], needed: int) -> str:
    """How to enter the dice of a prompt: what each kind of die asked for takes (a D10
    prompt says nothing of a D100's), then as many as it asks, with an example that fits."""
    takes = "; ".join(die_help(k) for k in kinds)
    word = "value" if 100 in kinds else "face"
    if len(kinds) > 1:
        how = f"enter the {needed} {word}s rolled, in the prompt's order, separated by spaces"
    elif needed == 1:
        how = f"enter the {word} rolled, e.g. {_example(kinds[0], 0)}"
    else:
        example = f"{_example(kinds[0], 0)} {_example(kinds[0], 1)}"
        how = f"enter the {needed} {word}s rolled, separated by spaces, e.g. {example}"
    return f"{takes}; {how}"


class AskingDice(ScriptedDice):
    """`--dice ask`: the player's own dice, asked for as they are needed, a phase at a time
    ("roll 4 D6 to hit:"). An entry that does not fit (too few, too many, a face the die does
    not have) is said why and asked again; nothing entered before is lost. `ask(prompt)`
    returns one line, or None when there is no more input; `tell(text)` shows a message. The
    values taken, in order, are `entered`: the same resolution as `--dice` with that list."""

    def __init__(self, ask: Callable[[str], str | None], tell: Callable[[str], None]) -> None:
        self._tokens = []
        self._next = 0
        self._used = []
        self._ask = ask
        self._tell = tell
        self._inside = False

    @property
    def entered(self) -> str:
        """The values taken, as `--dice` reads them to the same roll (a replay, an export)."""
        return ",".join(t.as_listed for t in self._tokens[: self._next])

    def _asked(
        self,
        prompt: str,
        action: Callable[[], T],
        needed: int = 1,
        d100s: int = 0,
        kinds: tuple[int, ...] = (),
    ) -> T:
        """Ask until an entry fits. With D100s among the dice, the count decides how the
        entries are read: as many as the dice, each a read value (7 is 07); a D100's two faces
        more, tens then units. `kinds`: the dice asked for (their sides), which an entry
        that is no number is told of."""
        if self._inside:  # a roll within a batch or a pool already asked for
            return action()
        while True:
            line = self._ask(prompt + ": ")
            if line is None:
                raise DiceError(
                    f"--dice ask: no more input at roll {len(self._used) + 1} ({prompt})",
                    "enter the dice a line at a time, values separated by spaces",
                )
            try:
                tokens = [self._parse(t) for t in line.replace(",", " ").split()]
            except DiceError as error:
                what = error.message.replace("--dice: ", "")
                if kinds:
                    what = what.replace("is not a face value", "is not a whole number")
                hint = entry_help(kinds, needed) if kinds else _as_typed(error.hint)
                self._tell(f"{what}: {hint}")
                continue
            if not tokens:
                continue
            read_as = ""
            if d100s:
                faces = needed + d100s
                if len(tokens) not in (needed, faces):
                    self._tell(
                        f"{count(len(tokens), 'entry')}, {needed} wanted (a read value a D100: "
                        "46 07) "
                        f"or {faces} (two faces a D100, tens then units: 4 6 0 7): try again"
                    )
                    continue
                read_as = (
                    "read as values (7 is 07)"
                    if len(tokens) == needed
                    else "read as faces, tens then units"
                )
                for token in tokens:
                    token.forced = "read" if len(tokens) == needed else "face"
            kept = (len(self._tokens), self._next, len(self._used))
            self._tokens.extend(tokens)
            self._inside = True
            try:
                result = action()
                if self._next < len(self._tokens):
                    extra = ", ".join(t.text for t in self._tokens[self._next :])
                    raise DiceError(f"too many values: {extra}", f"{prompt} asks for fewer")
            except DiceError as error:
                del self._tokens[kept[0] :]
                self._next = kept[1]
                del self._used[kept[2] :]
                if "ran out" in error.message or "too many" in error.message:
                    what = f"{count(len(tokens), 'entry')}, {needed} wanted"
                else:
                    what = f"{error.message.replace('--dice ', '')}; {_as_typed(error.hint)}"
                self._tell(f"{what}" + (f" ({read_as})" if read_as else "") + ": try again")
                continue
            finally:
                self._inside = False
            return result

    def roll(self, sides: int, purpose: str) -> Roll:
        return self._asked(
            f"roll a D{sides} ({purpose})",
            lambda: super(AskingDice, self).roll(sides, purpose),
            kinds=(sides,),
        )

    def d100(self, purpose: str) -> Roll:
        return self._asked(
            f"roll a D100 ({purpose}; 00 = 100)",
            lambda: super(AskingDice, self).d100(purpose),
            1,
            1,
            (100,),
        )

    def batch(self, phase: str, requests: list[tuple[int, str]]) -> list[Roll]:
        kinds = sorted({sides for sides, _ in requests})
        dice = " and ".join(f"{sum(s == k for s, _ in requests)} D{k}" for k in kinds)
        d100s = sum(s == 100 for s, _ in requests)
        return self._asked(
            f"roll {dice} {phase}" + (" (00 = 100)" if d100s else ""),
            lambda: super(AskingDice, self).batch(phase, requests),
            len(requests),
            d100s,
            tuple(kinds),
        )

    def pool(self, count: int, sides: int, at_most: int, purpose: str) -> list[Roll]:
        return self._asked(
            f"roll {count} D{sides} ({purpose}; {at_most} or less succeeds)",
            lambda: super(AskingDice, self).pool(count, sides, at_most, purpose),
            count,
            count if sides == 100 else 0,
            (sides,),
        )

    def finish(self) -> None:
        """Nothing can be left over: every entry was checked as it came."""


class TooManyOutcomes(DiceError):
    """Enumeration would take too long: the odds need a smaller question."""

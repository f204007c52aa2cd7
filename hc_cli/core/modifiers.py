"""A term's modifiers, read after its dice (`4d6kh3`, `d6!>=5`, `3d6r1mi2`, `10d10c>7`): the
die's (clamps, reroll, explosion: `Die`) and then the pool's (keep or drop, counts, marks:
`Pool`), each as the tested rollers spell it where their spellings do not clash."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from hc_cli.core.errors import HcError
from hc_cli.core.notation import EVERY, Die, Pool, matches
from hc_cli.core.numbers import shown

if TYPE_CHECKING:
    from hc_cli.core.reader import Reader

# Keep and drop, longest first: kh/kl/k keep (k: the highest), dh/dl/d drop (d: the lowest),
# d20's ph/pl/p drop, python-dice's h/l keep the highest/lowest and v the lowest, node-roll's
# b and w the best and the worst.
KEEPS = ("kh", "kl", "k", "dh", "dl", "ph", "pl", "p", "d", "h", "l", "v", "b", "w")


def die_modifiers(r: Reader, die: Die) -> Die:
    faces = die.faces()
    while True:
        start = r.pos
        r.skip()
        at = r.pos
        if r.peek("min") or r.peek("max") or r.peek("mi") or r.peek("ma"):
            low = r.text[at : at + 2] == "mi"
            r.pos += 3 if r.text[at : at + 3] in ("min", "max") else 2  # min3/max3: mi3/ma3
            n = r.signed("a number after " + ("mi (each roll at least)" if low
                                              else "ma (each roll at most)"))  # fmt: skip
            die = replace(die, low=n) if low else replace(die, high=n)
        elif (r.peek("!") and not (at > start and r.at("=", 1))) or r.peek("e"):  # d6 != 3
            die = _explosion(r, die, faces, at)
        elif r.peek("r"):
            r.take("r")
            mode = "once" if r.take("o") else "add" if r.take("a") else "until"
            if mode == "until":
                r.take("r")
            point = r.point("the faces rerolled") or ("=", min(faces))
            if die.reroll and die.reroll[0] != mode:
                raise r.fail("one kind of reroll on a die (rr1rr2 rerolls the 1s and 2s)", at)
            if die.reroll:  # skizzerz's rr1rr2: either point
                point = ("|", (die.reroll[1], point))
            matching = [f for f in faces if matches(f, point)]  # the face rolled
            if not matching or (mode == "until" and len(matching) == len(faces)):
                said = "every face" if matching else "no face"
                raise HcError(f"'{shown(r.text)}' rerolls {said} (column {at + 1})",
                              "reroll some faces only, e.g. d6r1 or d20r<3")  # fmt: skip
            die = replace(die, reroll=(mode, point))
        else:
            r.pos = start  # a space before what follows: a compare point there compares
            return die


def _explosion(r: Reader, die: Die, faces: list[int], at: int) -> Die:
    if die.explode:
        raise r.fail("at most one explosion on a die", at)
    if die.kind in ("66", "666"):
        raise HcError(f"'{shown(r.text)}': a d{die.kind} cannot explode (column {at + 1})",
                      "explode a plain die: d6!")  # fmt: skip
    if r.take("e"):  # d20's e6, e>5; GNOLL's e alone: the top face
        mode = "add"
        point = r.point("the faces that explode", bare="=") or ("=", max(faces))
    else:
        r.take("!")  # !! or skizzerz's !c compound, !p penetrates, skizzerz's !e adds
        mode = "compound" if r.at("!c") else "penetrate" if r.at("p") else "add"
        r.pos += mode != "add" or r.at("e")
        point = r.point("the faces that explode") or ("=", max(faces))
    matching = [f for f in faces if matches(die.clamped(f), point)]
    if len(matching) in (0, len(faces)):
        said = "every face" if matching else "no face"
        raise HcError(f"'{shown(r.text)}' explodes on {said} (column {at + 1})",
                      "explode on some faces only, e.g. d6! or d10!>=9")  # fmt: skip
    return replace(die, explode=(mode, point))


def pool_modifiers(
    r: Reader, count: int | None, at: int, faces: list[int], pool: Pool | None = None
) -> Pool:
    """The pool's modifiers (after those of `pool`, read before the die's that follow them:
    6d10>=8!>=9); `count` None: rolled first (a drop kept as such, `Pool.drop`)."""
    pool = pool or Pool()
    ends: set[bool] = set()  # the ends kept (highest: True)
    while True:
        start = r.pos
        r.skip()
        here = r.pos
        word = next((w for w in KEEPS if r.text.startswith(w, here)), None)
        if word is not None and (word != "d" or r.at("0123456789", 1)):
            pool = _keep(r, pool, word, count, ends)
        elif r.take("cs") or r.take("cf"):  # critical marks: on the top face, the lowest
            success = r.text[here + 1] == "s"
            point = r.point("the faces marked") or (
                ("=", max(faces) if success else min(faces)) if faces else None
            )
            if point is None:
                raise r.fail(f"a compare point after {r.text[here : here + 2]} (cs>19, cf1)")
            pool = replace(pool, critical=(point, pool.critical[1]) if success
                           else (pool.critical[0], point))  # fmt: skip
        elif r.take("tt"):  # caith's: each die at 9 or more two successes
            point = r.point("the double successes", bare=">=")
            if point is None or pool.double is not None:
                raise r.fail("one compare point after tt (10d10t7tt9)")
            pool = replace(pool, double=point)
        elif r.take("c") or r.take("t"):  # counted: c>7 (c[>7]); a target number: t7 is >=7
            target = r.text[here] == "t"
            point = r.point("the successes", bare=">=" if target else "=")
            if point is None:  # c alone counts the dice (GNOLL); t alone: the total
                point = pool.success or (EVERY if not target else None)
            if point is not None:
                pool = _success(r, pool, point, here)
        elif r.take("f"):
            point = r.point("the failures", bare="=")
            if point is None:
                raise r.fail("a compare point after f (f<2)")
            pool = replace(pool, failure=point)
        elif r.take("sd") or r.take("sa") or r.take("s"):
            pool = replace(pool, order="d" if r.text[here : here + 2] == "sd" else "a")
        elif r.take("u"):
            pool = replace(pool, unique=True)
        elif start == here and r.point("", bare=None) is not None:  # right after the dice
            r.pos = here
            pool = _success(r, pool, r.point(""), here)
        else:
            break
    r.pos = start
    if pool.failure is not None and pool.success in (None, EVERY):  # GNOLL's filter: 10d10f<4
        if pool.keep is not None or pool.by_value is not None:  # keeps the dice under 4
            raise r.fail("a keep, or f (the dice kept at a point), not both", here)
        pool = replace(pool, by_value=(True, pool.failure), failure=None)
    return pool


def _success(r: Reader, pool: Pool, point: tuple[str, int] | None, here: int) -> Pool:
    if pool.success is not None and point != pool.success:
        raise r.fail("at most one success count on a term", here)
    return replace(pool, success=point)


def _keep(r: Reader, pool: Pool, word: str, count: int | None, ends: set[bool]) -> Pool:
    """One keep or drop; chained on a term (3d6kh2dl1, 3d20dhdl), a die is kept when no
    keep or drop leaves it out (rpg-dice-roller's and GNOLL's reading)."""
    here = r.pos
    chained = pool.keep is not None
    if pool.by_value is not None or pool.drop is not None or (chained and count is None):
        raise r.fail("one keep or drop on a term kept by value or whose count is rolled", here)
    r.pos += len(word)
    keeps = word[0] in "khlvbw"
    point = None if word[-1] in "hlvbw" else r.point("", bare=None)
    if point is not None:
        if chained:
            raise r.fail("a keep by count (kh3) or by value (k>3) on a term, not both", here)
        return replace(pool, by_value=(keeps, point))
    n = r.number("how many dice") if r.at("0123456789") else 1  # 2d20kh: the highest one
    drops = not keeps
    lowest = word[-1] in "lvw" or (drops and word in ("d", "p"))
    highest = not lowest if keeps else lowest  # dropping the lowest keeps the highest
    if count is None:  # rolled first: the keep or drop is made once the count is known
        if keeps:
            return replace(pool, keep=n, highest_first=highest)
        return replace(pool, drop=n, highest_first=highest)
    if drops and n > count:
        raise HcError(
            f"'{shown(r.text)}' drops {n} of {count} dice at column {here + 1}",
            f"drop 0..{count} (dh, dl); to roll a count of dice rolled first, write (2d4)d6",
        )
    if keeps:
        ends.add(highest)
        if len(ends) == 2:
            raise HcError(
                f"'{shown(r.text)}' keeps the highest and the lowest at column {here + 1}: "
                "d20 keeps both, rpg-dice-roller neither",
                "keep one end (4d6kh1), or drop from both ends to keep the middle (5d6dhdl)",
            )
    first, end = pool.window(count)
    n = min(n, count)
    if highest:  # kh n, dl n: the lowest left out
        end = min(end, n if keeps else count - n)
    else:  # kl n, dh n: the highest left out
        first = max(first, count - n if keeps else n)
    return pool.windowed(first, end, count)

"""Rolling the dice notation (`hc_cli.core.notation`, read by `hc_cli.core.parser`): `hc roll`,
and the plain dice (sums of NdS and numbers) the rule sets' tables write for damage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hc_cli.core import notation
from hc_cli.core.dice import DiceSource, Roll
from hc_cli.core.errors import HcError
from hc_cli.core.model import Resolution
from hc_cli.core.numbers import shown
from hc_cli.core.parser import read

if TYPE_CHECKING:
    from hc_cli.core.notation import Node, Value

# One die gives up: never, in practice (its odds are the limit).
MAX_REROLLS = 100 * notation.MAX_ROLLS


# ---------------------------------------------------------------------------------------------
# Plain dice: damage (sums of NdS and numbers), as the rule sets' tables write it


@dataclass(frozen=True, slots=True)
class Term:
    sign: int
    count: int  # 0 for a number
    sides: int  # the number's value when count == 0


def parse(expression: str) -> list[Term]:
    """The terms of a plain expression (sums of NdS and numbers: a weapon's damage)."""
    terms: list[Term] = []

    def walk(node: Node, sign: int) -> bool:
        if isinstance(node, notation.Num):
            if not isinstance(node.value, int):
                return False
            terms.append(Term(sign, 0, node.value))
            return True
        if isinstance(node, notation.Dice):
            if not node.pool.plain or node.die != notation.Die(node.die.sides, node.die.kind) or (
                    node.die.kind not in ("", "%")):  # fmt: skip
                return False
            terms.append(Term(sign, node.count, node.die.sides))
            return True
        if isinstance(node, notation.Binary) and node.op in "+-":
            return walk(node.left, sign) and walk(node.right, sign * (-1 if node.op == "-" else 1))
        if isinstance(node, notation.Unary):
            return walk(node.part, -sign)
        return False

    tree = read(expression)
    if not walk(tree, 1):
        raise HcError(
            f"cannot read '{shown(expression)}' as dice added up",
            "write dice as NdS joined by + or -, e.g. d6, 2d6+1",
        )
    if not any(t.count for t in terms):
        raise HcError(f"'{shown(expression)}' rolls no dice", "add a die, e.g. d6+2")
    return terms


def plain_dice(terms: list[Term]) -> list[Term]:
    """Each die of a plain expression, in the order it names them."""
    return [term for term in terms for _ in range(term.count)]


def plain_total(terms: list[Term], rolls: list[Roll]) -> int:
    """A plain expression's total, its dice read from `rolls`: one each, as `plain_dice`."""
    faces = iter(rolls)
    total = 0
    for term in terms:
        if not term.count:
            total += term.sign * term.sides
            continue
        for _ in range(term.count):
            total += term.sign * next(faces).value
    return total


def check_damage(expression: str, what: str) -> None:
    """A damage (a number, or sums of NdS) that `what` gives; an error names `what`."""
    try:
        parse(expression)
    except HcError as error:
        raise HcError(f"{what}: {error.message}", error.hint) from None


# ---------------------------------------------------------------------------------------------
# Rolling


def _face(die: notation.Die, dice: DiceSource, purpose: str) -> tuple[int, list[Roll]]:
    """One roll of the die as the dice source gives it (before its clamps)."""
    if die.kind == "%":
        roll = dice.d100(purpose)
        return roll.value, [roll]
    if die.kind in ("66", "666"):
        places = ("tens", "units", "")[: len(die.kind)]
        faces = [dice.roll(6, f"{purpose} {place}".strip()) for place in places]
        digits = tuple(r.value for r in faces)
        value = int("".join(map(str, digits)))
        return value, [Roll(f"d{die.kind}", value, purpose, digits)]
    if die.kind == "F":
        roll = dice.roll(3, purpose)
        return roll.value - 2, [roll]
    if die.listed:  # entered as the place of the face listed, 1..n
        roll = dice.roll(die.sides, purpose)
        face = die.listed[roll.value - 1]
        return face, [Roll(f"d{die.sides}", face, purpose, (roll.value,))]
    roll = dice.roll(die.sides, purpose)
    return roll.value, [roll]


def roll_die(die: notation.Die, dice: DiceSource, purpose: str) -> tuple[list[int], list[Roll]]:
    """One die, in one order whatever the order written: its roll and its reroll (on the face
    rolled), its clamps, its explosion (each further roll clamped too). Its values, one for
    each roll an explosion adds as a die of its own (`!`, `!p`, `e`: each a die the pool
    counts), or one in all (`!!`: compounding, the rolls added into one die)."""
    value, rolls = _face(die, dice, purpose)
    if die.reroll is not None:
        mode, point = die.reroll
        if mode == "until":
            times = 0
            while notation.matches(value, point):
                times += 1
                if times > MAX_REROLLS:
                    raise HcError(f"{purpose}: rerolled {MAX_REROLLS:,} times", "roll again")
                value, more = _face(die, dice, f"{purpose} (rerolled)")
                rolls += more
        elif notation.matches(value, point):
            again, more = _face(die, dice, f"{purpose} (rerolled)")
            rolls += more
            value = (
                die.clamped(again) if mode == "once" else die.clamped(value) + die.clamped(again)
            )
    value = die.clamped(value) if die.reroll is None or die.reroll[0] != "add" else value
    values = [value]
    if die.explode is not None:
        mode, point = die.explode
        last, times = value, 0
        while notation.matches(last, point) and times < notation.MAX_EXPLOSIONS:
            last, more = _face(die, dice, f"{purpose} (exploded)")
            last = die.clamped(last)
            rolls += more
            values.append(last - (1 if mode == "penetrate" else 0))
            times += 1
        if mode == "compound":
            values = [sum(values)]
    return values, rolls


def _roll_dice(node: notation.Dice, dice: DiceSource, rolls: list[Roll]) -> list[Value]:
    """Each die of a term in turn; `u`: each rerolled until no die before it shows its value."""
    values: list[Value] = []
    for i in range(node.count):
        purpose = node.text + (f" #{i + 1}" if node.count > 1 else "")
        die_values, die_rolls = roll_die(node.die, dice, purpose)
        times = 0
        while node.pool.unique and die_values[0] in values:
            times += 1
            if times > MAX_REROLLS:
                raise HcError(f"{purpose}: rerolled {MAX_REROLLS:,} times", "roll again")
            rolls += die_rolls
            die_values, die_rolls = roll_die(node.die, dice, f"{purpose} (rerolled)")
        values += die_values
        rolls += die_rolls
    return values


def _marked(value: Value, pool: notation.Pool) -> str:
    """A value as the breakdown shows it, with its critical mark (`20**`, `1__`)."""
    success, failure = pool.critical
    text = notation.value_text(value)
    if success is not None and notation.matches(value, success):
        text += "**"
    if failure is not None and notation.matches(value, failure):
        text += "__"
    return text


def _show_pool(values: list[Value], pool: notation.Pool) -> tuple[Value, str]:
    """The pool's value (`Pool.read`) and how it was read: kept and dropped, or counted."""
    total = pool.read(values)
    if pool.order:
        values = sorted(values, reverse=pool.order == "d")
    kept = list(values)
    if pool.keep is not None:
        ordered = sorted(values, reverse=pool.highest_first)
        kept = ordered[pool.skip : pool.skip + pool.keep]
    elif pool.by_value is not None:
        keeps, point = pool.by_value
        kept = [v for v in values if notation.matches(v, point) == keeps]
    dropped = list(values)
    for v in kept:
        dropped.remove(v)
    if pool.counting:
        said = " ".join(notation.point_text(p) for p in (pool.success, pool.double, pool.failure)
                        if p is not None)  # fmt: skip
        text = f"{total} of ({' '.join(_marked(v, pool) for v in kept)}) {said}"
        return total, text + (
            f" (dropped {' '.join(map(notation.value_text, dropped))})" if dropped else ""
        )
    shown_kept = [_marked(v, pool) for v in kept]
    text = "".join(("" if i == 0 or v.startswith("-") else "+") + v
                   for i, v in enumerate(shown_kept)) or "0"  # fmt: skip
    text += f" (dropped {' '.join(map(notation.value_text, dropped))})" if dropped else ""
    return total, f"({text})" if len(kept) > 1 or dropped else text


def _evaluate(node: Node, dice: DiceSource, rolls: list[Roll]) -> tuple[Value, str]:
    """A node's value and how it reads, its dice rolled in the order the expression names
    them (left to right, each die whole)."""
    if isinstance(node, notation.Num):
        return node.value, str(node.value)
    if isinstance(node, notation.Dice):
        return _show_pool(_roll_dice(node, dice, rolls), node.pool)
    if isinstance(node, notation.Counted):  # the count first, the sides, then the dice
        count, count_text = _evaluate(node.count, dice, rolls)
        sides, sides_text = _evaluate(node.sides, dice, rolls) if node.sides else (None, "")
        sized = notation.sized_dice(node, count, sides)
        total, text = _show_pool(_roll_dice(sized, dice, rolls), sized.pool)
        return total, f"{count_text}d{sides_text or sized.die.sides}: {text}"
    if isinstance(node, notation.Group):
        parts = [_evaluate(part, dice, rolls) for part in node.parts]
        total, text = _show_pool([v for v, _ in parts], node.pool)
        return total, "{" + ", ".join(t for _, t in parts) + "} " + text
    if isinstance(node, notation.Unary):
        value, text = _evaluate(node.part, dice, rolls)
        said = f"-{text}" if node.op == "-" else f"{node.op}({text})"
        return notation.apply(node.op, value, node), said
    left, left_text = _evaluate(node.left, dice, rolls)
    right, right_text = _evaluate(node.right, dice, rolls)
    said = (f"{node.op}({left_text}, {right_text})" if node.op in ("min", "max", "fix")
            else f"{left_text} {node.op} {right_text}")  # fmt: skip
    return notation.operate(node.op, left, right, node), said


def resolve_roll(expression: str, dice: DiceSource, ruleset: str) -> Resolution:
    res = Resolution("roll", ruleset, {"expression": expression})
    rolls: list[Roll] = []
    total, text = _evaluate(read(expression), dice, rolls)
    res.rolls += rolls
    whole = isinstance(total, int) or (isinstance(total, float) and total.is_integer())
    res.fields["total"] = int(total) if whole else float(total)
    res.explanation.append(f"{text} = {notation.value_text(total)}")
    return res

"""Rogue Trader movement: how far a model goes this turn, and what the ground costs. Pure.

Arithmetic in half inches, because the rules round every fraction up to the next 1/2".
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from hc_cli.core.dice import DiceSource
from hc_cli.core.errors import HcError
from hc_cli.core.model import Resolution
from hc_cli.rulesets.rogue_trader.request import characteristic
from hc_cli.rulesets.rogue_trader.tables import RULESET, RogueTraderTables


@dataclass(frozen=True, slots=True)
class MoveRequest:
    profile: str | None = None
    m: float | None = None
    armour: str | None = None
    charge: bool = False
    turns: int = 0
    difficult: float = 0
    very_difficult: float = 0
    obstacle: bool = False
    distance: float | None = None  # how far it did move, when less than it may
    reserve: bool = False  # the reserves move of phase 4
    contact: bool = False  # a charge that made contact: hand-to-hand combat
    no_contact: bool = False  # a charge that failed to make contact
    routs: bool = False  # a rout: compulsory movement


def _half_inches_up(inches: float) -> float:
    """Round up to the next 1/2" (the seed: 'round all fractions of an inch up')."""
    return math.ceil(inches * 2 - 1e-9) / 2


def plan_move(t: RogueTraderTables, req: MoveRequest) -> Resolution:
    res = Resolution("move", RULESET, asdict(req))  # every field of the request
    for given, flag in ((req.contact, "--contact"), (req.no_contact, "--no-contact")):
        if given and not req.charge:
            raise HcError(f"{flag} is for a charge", f"add --charge, or leave out {flag}")
    if req.contact and req.no_contact:
        raise HcError("--contact and --no-contact together", "give one: did the charge reach?")
    if req.charge and (req.reserve or req.routs):
        raise HcError(
            "a charge is made in the movement part of the turn, not as "
            + ("a reserve move" if req.reserve else "a rout"),
            "leave out --charge, or move it as a charge alone",
        )
    move = characteristic(t, req.m, req.profile, "m", res)
    if move is None:
        raise HcError("no move given", "give --profile PROFILE (e.g. --profile human) or --m N")
    for value, flag in (
        (move, "--m"),
        (req.turns, "--turns"),
        (req.difficult, "--difficult"),
        (req.very_difficult, "--very-difficult"),
    ):
        if value < 0:
            raise HcError(f"{flag} {value:g} is negative", f"give {flag} as 0 or more")
    allowance, total = _allowance(t, req, move, res)
    if req.obstacle:
        allowance = _cross_obstacle(allowance, total, res)
    open_ground = _ground(t, req, allowance, res)
    _distance(req, allowance, open_ground, res)
    _what_follows(req, res)
    return res


def _allowance(
    t: RogueTraderTables, req: MoveRequest, move: float, res: Resolution
) -> tuple[float, float]:
    """The move this turn: M, less the armour's encumbrance, doubled for a charge (its total,
    for an obstacle), less the turns beyond the free ones."""
    allowance = float(move)
    res.explanation.append(f'M {move:g}"')
    armour_name = req.armour or (t.profile(req.profile).armour if req.profile else None)
    if armour_name:
        armour = t.armour_named(armour_name)
        if armour.encumbrance:
            allowance -= armour.encumbrance
            res.explanation.append(
                f'{armour.key} armour: -{armour.encumbrance:g}" = {allowance:g}"'
            )
    if req.charge:
        allowance *= t.rule("charge-multiplier")
        res.explanation.append(f'a charge: x{t.rule("charge-multiplier")} = {allowance:g}"')
    total = allowance  # "half of its total move distance": before turns and ground
    extra_turns = max(0, req.turns - t.rule("free-turns"))
    if extra_turns:
        cost = extra_turns * t.rule("turn-cost-half-inches") / 2
        allowance -= cost
        res.explanation.append(
            f"{req.turns} turns of up to 90 degrees, {t.rule('free-turns')} "
            f'free: -{cost:g}" = {allowance:g}"'
        )
    return allowance, total


def _cross_obstacle(allowance: float, total: float, res: Resolution) -> float:
    """An obstacle: "Crossing an obstacle costs a model half of its total move distance ...
    round remaining fractions up to the nearest 1/2". Models which approach an obstacle and
    then have less than half their move remaining, cannot cross" (seed 003)."""
    half = total / 2
    if allowance < half:
        raise HcError(
            f'{allowance:g}" left, less than half the {total:g}" move: it cannot cross the '
            "obstacle and must halt",
            "fewer turns first, or cross next turn",
        )
    left_after = _half_inches_up(allowance - half)
    res.explanation.append(
        f'crossing an obstacle costs half the total move: -{half:g}" = {allowance - half:g}"'
        + (f', rounded up to {left_after:g}"' if left_after != allowance - half else "")
    )
    return left_after


def _ground(t: RogueTraderTables, req: MoveRequest, allowance: float, res: Resolution) -> float:
    """Difficult ground costs double, very difficult four times; what is left of the move, on
    each kind of ground, rounded up to the next 1/2"."""
    spent = req.difficult * t.rule("difficult-ground-divisor") + req.very_difficult * t.rule(
        "very-difficult-ground-divisor"
    )
    if spent:
        res.explanation.append(
            f'{req.difficult:g}" difficult (x{t.rule("difficult-ground-divisor")}) and '
            f'{req.very_difficult:g}" very difficult (x{t.rule("very-difficult-ground-divisor")}) '
            f'use {spent:g}" of the move'
        )
    left = allowance - spent
    if left < 0:
        raise HcError(
            f'that ground needs {spent:g}" of move, the model has {allowance:g}"',
            f'at most {_half_inches_up(allowance / t.rule("difficult-ground-divisor")):g}" '
            "of difficult ground this move",
        )
    open_ground = _half_inches_up(left)  # "round all fractions of an inch up to the nearest 1/2""
    res.fields.update(
        move=allowance,
        open_ground=open_ground,
        difficult_ground=_half_inches_up(left / t.rule("difficult-ground-divisor")),
        very_difficult_ground=_half_inches_up(left / t.rule("very-difficult-ground-divisor")),
    )
    res.explanation.append(
        f'left: {open_ground:g}" on open ground, or {res.fields["difficult_ground"]:g}" of '
        f'difficult, or {res.fields["very_difficult_ground"]:g}" of very difficult ground '
        '(fractions rounded up to the next 1/2")'
    )
    return open_ground


def _distance(req: MoveRequest, allowance: float, open_ground: float, res: Resolution) -> None:
    """How far over the table it goes at most: the ground crossed and the open ground left (a
    game counts it for the fast-moving-target modifier), and how far it did go."""
    furthest = req.difficult + req.very_difficult + open_ground
    if req.distance is not None:
        if req.distance < 0 or req.distance > furthest:
            raise HcError(
                f'--distance {req.distance:g}": it may go {furthest:g}" at most',
                f"give --distance 0..{furthest:g}, the inches it did go",
            )
        res.explanation.append(f'moved {req.distance:g}" of the {furthest:g}" it may')
        res.headline = f'moves {req.distance:g}" (of up to {furthest:g}")'
        res.fields["moved"] = req.distance
    elif furthest != allowance:
        res.fields["moved"] = furthest
        res.headline = f'moves up to {furthest:g}" over this ground ({allowance:g}" of move)'


def _what_follows(req: MoveRequest, res: Resolution) -> None:
    """What a reserve move, a charge and a rout mean for the rest of the turn."""
    if req.reserve:
        res.explanation.append(
            "a reserve move (part 4 of the turn): uncommitted troops only; a model in hiding may "
            "not make "
            "one, nor go into hiding during or after it"
        )
    if req.no_contact:
        res.explanation.append(
            "the charge failed to make contact: the charger may do nothing at all for the rest "
            "of this turn"
        )
    elif req.charge:
        res.explanation.append(
            "a charge into base-to-base contact: hand-to-hand combat, and no shooting for it in "
            "the shooting part of the turn"
        )
    if req.routs:
        res.explanation.append(
            "a rout: compulsory movement; the unit routs until it is rallied in a rallying "
            "phase of its own turn (hc rally)"
        )


def resolve_move(t: RogueTraderTables, req: MoveRequest, dice: DiceSource) -> Resolution:
    return plan_move(t, req)


def move_odds(t: RogueTraderTables, req: MoveRequest) -> Resolution:
    raise HcError("a move rolls no dice: there are no odds to give", "leave out --odds")

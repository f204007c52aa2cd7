"""Rogue Trader's first turn: "Flip a coin to see which side has the first turn." Pure."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hc_cli.core.dice import DiceSource
from hc_cli.core.errors import HcError
from hc_cli.core.model import Odds, Resolution
from hc_cli.rulesets.rogue_trader.tables import RULESET, RogueTraderTables

# ---------------------------------------------------------------------------------------------
# The first turn: "Flip a coin to see which side has the first turn."


@dataclass(frozen=True, slots=True)
class InitiativeRequest:
    sides: tuple[str, str] = ("Side 1", "Side 2")


def plan_initiative(req: InitiativeRequest) -> Resolution:
    a, b = (s.strip() for s in req.sides)
    if not a or not b or a.lower() == b.lower():
        raise HcError(
            f"the two sides need two different names, not '{a}' and '{b}'",
            "give --side NAME twice, e.g. --side Imperials --side Orks",
        )
    return Resolution(command="initiative", ruleset=RULESET, inputs={"sides": [a, b]})


def coin_flip(res: Resolution, dice: DiceSource) -> Resolution:
    """The coin: heads (1) the first side named goes first, tails (2) the other."""
    a, b = res.inputs["sides"]
    res = replace(res, rolls=[], explanation=[], fields={})
    coin = dice.roll(2, "coin (1 heads, 2 tails)")
    res.rolls.append(coin)
    first, second = (a, b) if coin.value == 1 else (b, a)
    res.outcome = first
    res.fields["order"] = [
        {"name": first, "initiative": None, "extra": False, "player": "A", "role": "side"},
        {"name": second, "initiative": None, "extra": False, "player": "B", "role": "side"},
    ]
    res.explanation += [
        f"the coin falls {'heads' if coin.value == 1 else 'tails'}: {first} has the first turn "
        f"(side A), then {second} (side B), then {first} again, in strict rotation"
    ]
    return res


def resolve_initiative(
    t: RogueTraderTables, req: InitiativeRequest, dice: DiceSource
) -> Resolution:
    return coin_flip(plan_initiative(req), dice)


def initiative_odds(t: RogueTraderTables, req: InitiativeRequest) -> Resolution:
    from hc_cli.core.odds import enumerate_outcomes

    res = plan_initiative(req)
    res.odds = Odds(enumerate_outcomes(lambda d: coin_flip(res, d), lambda r: str(r.outcome)))
    return res

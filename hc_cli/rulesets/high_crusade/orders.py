"""High Crusade orders: each Fireteam's order for the move, given in the orders phase (seed
001), and the modifiers to fire it stands for (seed 000: they "depend on the firers orders for
that move and the targets"; `orders.yaml` names them). Outside a game `hc orders ORDER` says
what an order means; in a game the orders are kept and fill every shot of the move. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from hc_cli.core.dice import DiceSource
from hc_cli.core.errors import HcError
from hc_cli.core.model import Resolution
from hc_cli.rulesets.high_crusade.tables import RULESET, HighCrusadeTables, Order

EXAMPLE = "hc orders advance fireteam-2=static"


@dataclass(frozen=True, slots=True)
class OrdersRequest:
    # Each an ORDER (what it means) or UNIT=ORDER (the order a Fireteam is given).
    given: tuple[str, ...] = ()


def split_word(word: str) -> tuple[str | None, str]:
    """`fireteam-2=static` -> ("fireteam-2", "static"); `advance` -> (None, "advance")."""
    unit, equals, order = word.rpartition("=")
    if not equals:
        return None, word
    if not unit.strip():
        raise HcError(f"'{word}' names no Fireteam before '='", f"write UNIT=ORDER: {EXAMPLE}")
    return unit.strip(), order


def player_order(tables: HighCrusadeTables, name: str, word: str) -> Order:
    """An order a player gives: one of the table's, and not one only the game gives."""
    order = tables.order(name)
    if order.by == "game":
        givable = ", ".join(k for k, o in tables.orders.items() if o.by != "game")
        raise HcError(
            f"'{word}': {order.key} is an order the game gives by itself ({order.description})",
            f"give one of: {givable}",
        )
    return order


def meaning(tables: HighCrusadeTables, order: Order, res: Resolution) -> str:
    """What an order does to fire: "a shot by it -10 (firer-advance); a shot at it: none"."""
    parts = []
    for side, modifier in (("by", order.firer), ("at", order.target)):
        if modifier is None:
            parts.append(f"a shot {side} it: no modifier")
            continue
        entry = tables.modifiers[modifier]
        res.note_source(entry, "value", f"modifier {entry.key} {entry.value:+d}")
        parts.append(f"a shot {side} it {entry.value:+d} ({entry.key})")
    return "; ".join(parts)


def resolve_orders(tables: HighCrusadeTables, req: OrdersRequest, dice: DiceSource) -> Resolution:
    if not req.given:
        givable = ", ".join(k for k, o in tables.orders.items() if o.by != "game")
        raise HcError("no order given", f"give an order ({givable}): {EXAMPLE}")
    res = Resolution("orders", RULESET, {"given": list(req.given)})
    kept: dict[str, str] = {}
    said = []
    explained = set()
    for word in req.given:
        unit, name = split_word(word)
        order = player_order(tables, name, word)
        if unit is not None:
            kept[unit] = order.key
        if order.key not in explained:
            explained.add(order.key)
            what = f" ({order.description})" if order.description else ""
            res.explanation.append(f"{order.key}{what}: {meaning(tables, order, res)}")
        said.append(f"{unit} {order.key.capitalize()}" if unit else order.key.capitalize())
    res.fields["orders"] = kept
    res.outcome = "given" if kept else "explained"
    res.headline = ", ".join(said)  # "boyz Static, ladz Advance"; history says "orders: ..."
    return res


def orders_odds(tables: HighCrusadeTables, req: OrdersRequest) -> Resolution:
    raise HcError("orders roll no dice: there are no odds to give", "leave out --odds")

"""The orders of a High Crusade game (seed 001): given to the Fireteams in the orders phase
that opens the move, standing until given again, filled into each shot for the firer and the
target, and shown as they stand. Pure: plain data in, plain data out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.plugin.game_rules import Fill, known_unit, possessive
from hc_cli.rulesets.high_crusade.sequence import ORDERS, where_now
from hc_cli.rulesets.high_crusade.words import ROUT_ORDER, STATIC_ORDER

if TYPE_CHECKING:
    from hc_cli.rulesets.high_crusade.state import HcState, HcUnit


def give_orders(state: HcState, result: dict[str, Any]) -> list[str]:
    """Each Fireteam's order for the move, as `hc orders` gave it."""
    given = result["orders"]
    if not isinstance(given, dict):
        raise HcError("the orders given are not a mapping of Fireteams to orders")
    sides: list[str] = []
    for name, order in given.items():
        if not (isinstance(order, str) and order.isprintable() and len(order) <= 40):
            raise HcError(f"the order given {name} is no order's name")
        unit = known_unit(state, name, "an order")
        unit["order"], unit["order_move"] = order, state["move"]
        if unit["side"] not in sides:
            sides.append(unit["side"])
    return [
        f"{possessive(side)} orders for move {state['move']}: they stand until given again"
        for side in sides
    ]


def fill_orders(state, unit, at, flags, tables) -> Fill:
    """`hc orders WORD ...`: each word an order for every Fireteam of a side not given
    another, a side's name, or UNIT=ORDER; made into UNIT=ORDER for each Fireteam."""
    from hc_cli.rulesets.high_crusade.orders import player_order, split_word

    example = game_example(state)
    if unit is not None or at:
        raise HcError(
            "orders are given to Fireteams by name: UNIT=ORDER, not as the unit acting",
            example,
        )
    sides = {side.lower(): side for side in state["sides"]}
    named: dict[str, str] = {}  # Fireteam -> order, as given
    bare: list[str] = []
    sides_named: list[str] = []
    for word in flags.get("given") or ():
        who, what = split_word(str(word))
        if who is not None:
            known_unit(state, who, "an order")
            named[who] = player_order(tables, what, word).key
        elif what.lower() in tables.orders:
            bare.append(player_order(tables, what, word).key)
        elif what.lower() in sides:
            sides_named.append(sides[what.lower()])
        elif what in state["units"]:
            raise HcError(f"{what}: which order?", f"write UNIT=ORDER: hc orders {what}=advance")
        else:
            givable = [k for k, o in tables.orders.items() if o.by != "game"]
            import difflib  # only on an error

            known = {k.lower(): k for k in [*givable, *state["sides"]]}
            close = difflib.get_close_matches(what.lower(), list(known), n=2, cutoff=0.6)
            hint = f"orders: {', '.join(givable)}; sides: {', '.join(state['sides'])}"
            if close:
                hint = f"did you mean {' or '.join(repr(known[c]) for c in close)}? ({hint})"
            raise HcError(
                f"'{word}' is no order, no side and no UNIT=ORDER", f"{hint}; e.g. {example}"
            )
    if len(bare) > 1:
        raise HcError(
            f"{' and '.join(bare)}: one order goes to the rest of a side",
            f"give the others by name: {example}",
        )
    side = one_side(state, sides_named, bare, named)
    notes = []
    if bare:
        if side is None:
            first = side_example(state, bare[0])
            hint = f"{first}, or {example}" if first else example
            phase = may_order(state, {})  # out of the orders phase, that first (found in play)
            raise HcError(f"{phase}; and name whose Fireteams" if phase else
                          f"{bare[0]}: whose Fireteams? name the side", hint)  # fmt: skip
        for name, u in state["units"].items():
            if u["side"] == side and name not in named:
                if not u["left"] or u["morale"] != "steady":
                    why = "is wiped out" if not u["left"] else f"is {u['morale']}"
                    notes.append(f"{name} {why}: no order for it")
                    continue
                named[name] = bare[0]
    if not named:
        raise HcError("no Fireteam is given an order", example)
    flags["given"] = [f"{n}={named[n]}" for n in state["units"] if n in named]  # roster order
    return Fill(flags, refusal=may_order(state, named), notes=notes)


def one_side(
    state: HcState, sides_named: list[str], bare: list[str], named: dict[str, str]
) -> str | None:
    """The one side the orders given are for (a side named, else the side of the Fireteams
    named, when a bare order needs one); refused when the words are of more than one side,
    with the words as typed split into a command a side."""
    units = state["units"]
    stray = next((n for n in named if sides_named and units[n]["side"] != sides_named[0]), None)
    of = list(dict.fromkeys([*sides_named, *(units[n]["side"] for n in named)]))
    if len(set(sides_named)) > 1:
        why = f"{' and '.join(dict.fromkeys(sides_named))} named: orders go to one side at a time"
    elif stray is not None:
        why = f"{stray} is of {units[stray]['side']}, not {sides_named[0]}"
    elif bare and len(of) > 1:
        why = f"{bare[0]}: whose Fireteams? the Fireteams named are of both sides"
    else:
        return of[0] if of else None
    import shlex

    words: dict[str, list[str]] = {s: list(bare) for s in dict.fromkeys(sides_named)}
    for name, order in named.items():
        words.setdefault(units[name]["side"], [] if sides_named else list(bare))
        words[units[name]["side"]].append(f"{name}={order}")
    commands = [" ".join(["hc orders", shlex.quote(s), *w]) for s, w in words.items() if w]
    raise HcError(
        why, commands[0] if len(commands) == 1 else "a command a side: " + ", then ".join(commands)
    )


def side_example(state: HcState, order: str = STATIC_ORDER) -> str | None:
    """`hc orders SIDE ORDER` as this game takes it now: a side with a Fireteam that may take
    orders, one with none yet first; None when no Fireteam may."""
    import shlex

    able = [(u["order"] is not None, u["side"]) for u in state["units"].values()
            if u["left"] and u["morale"] == "steady"]  # fmt: skip
    return f"hc orders {shlex.quote(min(able, key=lambda a: a[0])[1])} {order}" if able else None


def unordered_hint(state: HcState, names: list[str]) -> str:
    """How to give the Fireteams `names` the order the orders phase closed on them without:
    "hc undo, then hc orders Orcs static" (a command for each of their sides)."""
    import shlex

    sides = dict.fromkeys(state["units"][n]["side"] for n in names
                          if state["units"][n]["morale"] == "steady")  # fmt: skip
    given = [f"hc orders {shlex.quote(side)} {STATIC_ORDER}" for side in sides]
    return ", then ".join(["hc undo", *given]) if given else "hc undo"


def game_example(state: HcState) -> str:
    """`hc orders UNIT=ORDER` as this game would take it: the first Fireteam that may take an
    order (neither wiped out nor routed nor rallied), one with no order yet first. One side's
    alone: an example of both sides' taught a player to give the other side's orders (found in
    play)."""
    able = [(u["order"] is not None, name) for name, u in state["units"].items()
            if u["left"] and u["morale"] == "steady"]  # fmt: skip
    name = min(able, key=lambda a: a[0])[1] if able else next(iter(state["units"]))
    return f"hc orders {name}=advance"


def may_order(state: HcState, named: dict[str, str]) -> str | None:
    """Why the orders may not be given now."""
    if not state["move"]:
        return "no move has begun: roll the Initiative first (hc initiative)"
    if state["step"] != ORDERS:
        return (
            f"orders are given in the orders phase that opens the move (seed 001); it is "
            f"{where_now(state)}; move {state['move'] + 1}'s comes after hc initiative"
        )
    for name in named:
        u = state["units"][name]
        if not u["left"]:
            return f"{name} is wiped out: no figure of it is left to take orders"
        if u["morale"] == "routed":
            return (
                f"{name} is routed: it makes a full Advance move toward its own table edge "
                f"until a Regroup order rallies it (hc rally {name})"
            )
        if u["morale"] == "rallied":
            return f"{name} rallied this move: it stays Static for the rest of it (seed 001)"
    return None


def order_fill(
    state: HcState, name: str, unit: HcUnit, option: str, side: str, flags: dict, tables: Any
) -> list[str]:
    """A shot's order for the firer (`order`) or the target (`target_order`), from the game:
    the order the Fireteam was given, the rout's of a routed one, the Static of a rallied one.
    An order given by hand, or a --mod that is an order's modifier, is left to stand."""
    if option in flags:
        return []
    by_hand = {getattr(o, side) for o in tables.orders.values()} - {None}
    mod = next((m for m in flags.get("mod") or () if str(m).lower() in by_hand), None)
    if mod is not None:
        return [f"--mod {mod} given: no order of {possessive(name)} filled in"]
    order = unit["order"]
    if order is None:
        return [f"{name} has no order for the move (none was given in its orders phase): no "
                "order modifier"]  # fmt: skip
    if order not in tables.orders:  # the house rules in force dropped it
        return [f"{possessive(name)} order {order} is no order of the tables: no order modifier"]
    flags[option] = order
    why = {ROUT_ORDER: ": routed", STATIC_ORDER: ": rallied"}.get(order, "")
    if order == STATIC_ORDER and unit["morale"] != "rallied":
        why = ""
    since = f", given in move {unit['order_move']}" if unit["order_move"] < state["move"] else ""
    return [f"{name} on {order.capitalize()} orders{why}{since}"]


def order_shown(unit: HcUnit) -> str:
    """The status table's order: "Advance", "routed", "rallied: Static", "-" (none yet)."""
    if unit["morale"] == "routed":
        return "routed"
    if unit["morale"] == "rallied":
        return "rallied: Static"
    return unit["order"].capitalize() if unit["order"] else "-"


def orders_due(state: HcState) -> str:
    """The orders of the move as they stand, and who has none yet."""
    standing = []
    for side in state["sides"]:
        units = [(n, u) for n, u in state["units"].items() if u["side"] == side and u["left"]]
        said = ", ".join(
            f"{n} {u['order'].capitalize() if u['order'] else '(none)'}" for n, u in units
        )
        standing.append(f"{side}: {said}")
    example = side_example(state)
    how = f" (e.g. {example})" if example else ""
    return f"orders for the move{how}, as they stand: " + "; ".join(standing)

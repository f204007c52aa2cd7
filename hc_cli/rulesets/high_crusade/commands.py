"""High Crusade commands: option values -> typed requests, and the resolvers they go to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.core.mods import parse_mods
from hc_cli.core.numbers import is_digits, whole
from hc_cli.plugin.declare import CommandSpec, Luck
from hc_cli.plugin.typed_tables import Tables, table_names
from hc_cli.rulesets.high_crusade import resolve
from hc_cli.rulesets.high_crusade.declaration import DECLARATION
from hc_cli.rulesets.high_crusade.tables import SCHEMAS, HighCrusadeTables, cross_check

TABLES = Tables(DECLARATION, SCHEMAS, cross_check, HighCrusadeTables.from_merged)
schemas, load_tables = TABLES.schemas, TABLES.load


def _fire_request(f: dict[str, Any]) -> resolve.FireRequest:
    # A bare number is a defence factor; anything else names a troop type.
    targets = [
        resolve.TargetSpec(defence=whole(t, "--target (a defence factor)", -1000, 1000))
        if is_digits(t)
        else resolve.TargetSpec(troop=t)
        for t in f.get("target") or []
    ]
    if f.get("df") is not None:
        if len(targets) > 1:
            raise HcError(
                "--df goes with one target",
                "under a template give each target as a troop name or a number: "
                "--target crusader --target 6",
            )
        targets = [resolve.TargetSpec(targets[0].troop if targets else None, f["df"])]
    return resolve.FireRequest(
        weapon=f.get("weapon"),
        range=f.get("range"),
        chance=f.get("chance"),
        penetration=f.get("penetration"),
        targets=tuple(targets),
        shots=f.get("shots", 1),
        template=f.get("template"),
        mods=parse_mods(f.get("mod")),
        ambush=bool(f.get("ambush")),
        weapons=_volley(f.get("volley")),
        under=f.get("under"),
        order=f.get("order"),
        target_order=f.get("target_order"),
    )


def _volley(given: Any) -> tuple[tuple[str, int], ...]:
    """`--volley NAME[:N]`, repeated: each weapon and the figures firing it (1 unless said)."""
    volley = []
    for item in given or ():
        name, colon, figures = str(item).partition(":")
        if not colon:
            volley.append((name, 1))
            continue
        if not (is_digits(figures) and len(figures) <= 6) or not 1 <= int(figures) <= 10_000:
            raise HcError(
                f"--volley {item}: after the colon comes how many figures fire it",
                f"give --volley {name}:N, N from 1 to 10000 (--volley {name}:4)",
            )
        volley.append((name, int(figures)))
    return tuple(volley)


def _initiative_request(f: dict[str, Any]) -> resolve.InitiativeRequest:
    sides = f.get("side") or ["Side 1", "Side 2"]
    if len(sides) != 2:
        raise HcError(f"{len(sides)} --side given", "give --side NAME exactly twice")
    return resolve.InitiativeRequest(
        (sides[0], sides[1]), parse_mods(f.get("mod")), parse_mods(f.get("second_mod"))
    )


COMMANDS = {
    "fire": CommandSpec(
        _fire_request,
        resolve.resolve_fire,
        resolve.fire_odds,
    ),
    "melee": CommandSpec(
        lambda f: resolve.MeleeRequest(
            f.get("attacker"),
            f.get("attacker_weapon"),
            f.get("defender"),
            f.get("defender_weapon"),
            parse_mods(f.get("mod")),
            parse_mods(f.get("defender_mod")),
        ),
        resolve.resolve_melee,
        resolve.melee_odds,
    ),
    "morale": CommandSpec(
        lambda f: resolve.MoraleRequest(
            f.get("troop"),
            f.get("fired_at", False),
            f.get("ambushed", False),
            f.get("first_casualty", False),
            f.get("below_half", False),
            f.get("strength"),
            f.get("casualties"),
            parse_mods(f.get("mod")),
            f.get("has_casualties", False),
        ),
        resolve.resolve_morale,
        resolve.morale_odds,
    ),
    "rally": CommandSpec(
        lambda f: resolve.RallyRequest(
            f.get("troop"),
            f.get("has_casualties", False),
            f.get("casualties_during_regroup", False),
            parse_mods(f.get("mod")),
            f.get("casualties"),
        ),
        resolve.resolve_rally,
        resolve.rally_odds,
    ),
    "orders": CommandSpec(
        lambda f: resolve.OrdersRequest(tuple(f.get("given") or ())),
        resolve.resolve_orders,
        resolve.orders_odds,
    ),
    "initiative": CommandSpec(
        _initiative_request,
        resolve.resolve_initiative,
        resolve.initiative_odds,
    ),
}


TABLE_OF_OPTION = {
    "weapon": "weapons",
    "volley": "weapons",
    "attacker_weapon": "weapons",
    "defender_weapon": "weapons",
    "target": "troops",
    "attacker": "troops",
    "defender": "troops",
    "troop": "troops",
    "template": "templates",
    "order": "orders",
    "target_order": "orders",
    "given": "orders",
}
MODIFIERS_FOR = {
    "fire": ("chance", "defence"),
    "melee": ("melee",),
    "morale": ("morale",),
    "rally": ("morale",),
    "initiative": ("initiative",),
}


LUCK = {  # how hc luck rates a result for the side that acted
    "fire": Luck("kills", single={"kill": 1}),
    "melee": Luck(order=("defender", "draw", "attacker"), contest=True),
    "morale": Luck(order=("rout", "pass")),
    "rally": Luck(order=("rout", "retreat", "rallied")),
    "initiative": Luck(sides=True),
}


def complete(tables: Any, command: str, option: str) -> list[str]:
    """Names an option of a command takes, from the tables in use (for TAB completion)."""
    if option in ("mod", "defender_mod", "second_mod"):
        fits = MODIFIERS_FOR.get(command, ())
        return sorted(k for k, m in tables.modifiers.items() if m.applies_to in fits)
    if option == "given":  # hc orders: the orders a player gives (the rout is the game's)
        return sorted(k for k, o in tables.orders.items() if o.by == "player")
    return table_names(tables, TABLE_OF_OPTION.get(option))


if TYPE_CHECKING:  # this module keeps the contract of a rule set's `impl` (a type checker says)
    from hc_cli.plugin.contract import RuleSetModule
    from hc_cli.rulesets.high_crusade import commands as _this

    _contract: RuleSetModule = _this

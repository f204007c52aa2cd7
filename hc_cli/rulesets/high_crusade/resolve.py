"""High Crusade resolvers: typed request + tables + dice source -> one `Resolution`, gathered
from their steps: shooting, melee, morale (with Regroup), initiative. Each has a `plan_*` step
(every lookup and modifier, fixed before any die is rolled), the dice step that rolls, and an
`*_odds` step that runs the very same dice step under an `EnumeratingDice`.

Pure: no printing, no typer, no rich. Each step is a module of its own; this is their face for
the commands and for those who call the resolvers."""

from __future__ import annotations

from hc_cli.rulesets.high_crusade.initiative import (
    MAX_ROLL_OFFS,
    InitiativeRequest,
    initiative_odds,
    plan_initiative,
    resolve_initiative,
    roll_off_round,
)
from hc_cli.rulesets.high_crusade.melee import (
    MeleeRequest,
    melee_contest,
    melee_odds,
    plan_melee,
    resolve_melee,
)
from hc_cli.rulesets.high_crusade.morale import (
    CASUALTIES,
    TRIGGER_FLAGS,
    D10Test,
    MoraleRequest,
    RallyRequest,
    d10_test,
    morale_odds,
    morale_test,
    plan_morale,
    plan_rally,
    rally_odds,
    rally_test,
    resolve_morale,
    resolve_rally,
)
from hc_cli.rulesets.high_crusade.orders import OrdersRequest, orders_odds, resolve_orders
from hc_cli.rulesets.high_crusade.shooting import (
    FireRequest,
    ShotSpec,
    TargetSpec,
    decide_shot,
    fire_odds,
    fire_shot,
    plan_fire,
    resolve_fire,
)
from hc_cli.rulesets.high_crusade.words import (
    MOVE_SEQUENCE,
    RALLIED_MEANS,
    RETREAT_MEANS,
    ROUT_MEANS,
)

__all__ = [
    "OrdersRequest",
    "orders_odds",
    "resolve_orders",
    "TargetSpec",
    "FireRequest",
    "ShotSpec",
    "fire_shot",
    "decide_shot",
    "plan_fire",
    "resolve_fire",
    "fire_odds",
    "MeleeRequest",
    "plan_melee",
    "melee_contest",
    "resolve_melee",
    "melee_odds",
    "ROUT_MEANS",
    "RETREAT_MEANS",
    "RALLIED_MEANS",
    "D10Test",
    "d10_test",
    "MoraleRequest",
    "TRIGGER_FLAGS",
    "CASUALTIES",
    "plan_morale",
    "morale_test",
    "resolve_morale",
    "morale_odds",
    "RallyRequest",
    "plan_rally",
    "rally_test",
    "resolve_rally",
    "rally_odds",
    "MOVE_SEQUENCE",
    "InitiativeRequest",
    "MAX_ROLL_OFFS",
    "plan_initiative",
    "roll_off_round",
    "resolve_initiative",
    "initiative_odds",
]

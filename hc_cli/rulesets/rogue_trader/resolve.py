"""Rogue Trader's resolvers, gathered from its steps: shooting (the plan), shots (the dice),
area (deviation), odds, initiative (the coin), move, and turn (hiding, rallying). Each step is
a module of its own; this is their face for the commands and for those who call the
resolvers."""

from hc_cli.rulesets.rogue_trader.area import DeviateRequest, deviate_odds, resolve_deviate
from hc_cli.rulesets.rogue_trader.initiative import (
    InitiativeRequest,
    initiative_odds,
    resolve_initiative,
)
from hc_cli.rulesets.rogue_trader.move import MoveRequest, move_odds, resolve_move
from hc_cli.rulesets.rogue_trader.odds import fire_odds
from hc_cli.rulesets.rogue_trader.request import FireRequest
from hc_cli.rulesets.rogue_trader.shots import resolve_fire
from hc_cli.rulesets.rogue_trader.turn import (
    HideRequest,
    MeleeRequest,
    RallyRequest,
    hide_odds,
    melee_odds,
    rally_odds,
    resolve_hide,
    resolve_melee,
    resolve_rally,
)

__all__ = [
    "MoveRequest",
    "move_odds",
    "resolve_move",
    "HideRequest",
    "MeleeRequest",
    "melee_odds",
    "resolve_melee",
    "RallyRequest",
    "hide_odds",
    "rally_odds",
    "resolve_hide",
    "resolve_rally",
    "DeviateRequest",
    "FireRequest",
    "InitiativeRequest",
    "deviate_odds",
    "fire_odds",
    "initiative_odds",
    "resolve_deviate",
    "resolve_fire",
    "resolve_initiative",
]

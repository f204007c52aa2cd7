"""Twilight: 2000 resolvers, gathered from their steps: direct fire, automatic fire, shotguns
and thrown weapons (request, the data; shooting, bursts and thrown, the plan; shots and damage,
the dice; odds), the Initiative and reloading. Each step is a module of its own; this is their
face for the commands and for those who call the resolvers."""

from __future__ import annotations

from hc_cli.rulesets.t2k.damage import roll_damage
from hc_cli.rulesets.t2k.initiative import InitiativeRequest, initiative_odds, resolve_initiative
from hc_cli.rulesets.t2k.odds import fire_odds
from hc_cli.rulesets.t2k.reload import ReloadRequest, reload_odds, resolve_reload
from hc_cli.rulesets.t2k.request import (
    QUICK_KILL_LOCATIONS,
    SHOT_KINDS,
    FirePlan,
    FireRequest,
    HitEffects,
)
from hc_cli.rulesets.t2k.shooting import plan_fire
from hc_cli.rulesets.t2k.shots import fire_dice, resolve_fire
from hc_cli.rulesets.t2k.task import mount_paces
from hc_cli.rulesets.t2k.thrown import (
    DeviateRequest,
    deviate_grenade,
    deviate_odds,
    plan_deviate,
    resolve_deviate,
)

__all__ = [
    "InitiativeRequest",
    "initiative_odds",
    "resolve_initiative",
    "ReloadRequest",
    "reload_odds",
    "resolve_reload",
    "SHOT_KINDS",
    "QUICK_KILL_LOCATIONS",
    "FireRequest",
    "FirePlan",
    "HitEffects",
    "mount_paces",
    "plan_fire",
    "deviate_grenade",
    "DeviateRequest",
    "plan_deviate",
    "resolve_deviate",
    "deviate_odds",
    "roll_damage",
    "fire_dice",
    "resolve_fire",
    "fire_odds",
]

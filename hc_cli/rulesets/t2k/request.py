"""Twilight: 2000 fire, as data: the request a player makes, the plan made of it (the hit number,
the dice of a burst or throw) and what each hit does. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hc_cli.core.model import Modifier, Resolution
from hc_cli.core.mods import ModSpec
from hc_cli.rulesets.t2k.tables import RULESET

if TYPE_CHECKING:
    from hc_cli.rulesets.t2k.tables import Weapon

SHOT_KINDS = ("aimed", "quick", "aimed-burst", "burst")

QUICK_KILL_LOCATIONS = ("head", "chest")


@dataclass(frozen=True, slots=True)
class FireRequest:
    asset: int | None = None
    skill: int | None = None
    attribute: int | None = None
    riding: int | None = None
    weapon: str | None = None
    short_range: float | None = None
    rof: str | None = None
    recoil: int | None = None
    damage: str | None = None
    range: float | None = None
    shot: str = "aimed"
    shots: int = 1
    strength: int | None = None
    movement: str = "stationary"
    obscured: bool = False
    target_speed: float | None = None
    target_kph: float | None = None
    scope: bool = False
    laser_sight: bool = False
    braced: bool = False
    two_weapons: bool = False
    npc: bool = False
    location: str | None = None
    damage_done: int | None = None
    riders: bool = False
    zone: tuple[str, ...] = ()
    zone_npc: tuple[str, ...] = ()  # targets of --zone who are NPCs: their hits may quick-kill
    kept: int = 0  # a burst's danger zone dice kept, rolled at a target entering the zone
    thrown: bool = False
    weight: float | None = None
    throw_range: float | None = None
    grenade_number: int = 1
    ammo: str | None = None
    gait: str | None = None
    mods: tuple[ModSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class FirePlan:
    kind: str  # single, aimed-burst, burst, kept (a burst's kept dice), pellets, thrown
    hit_number: int
    dice: int  # task dice rolled together (shots this action, or a burst's dice)
    hits_count: int = 1  # a 50-round burst's hits count three
    zone: tuple[tuple[str, float], ...] = ()  # targets in the danger zone, nearest first
    effects: HitEffects | None = None  # each hit's location and damage (quick kill for NPCs)
    riders_percent: int | None = None
    grenade: tuple[float, float, int, int] | None = None  # (metres per pip, cap, die, direction)
    task_die: int = 20
    remainder: tuple[str, str] = ("zone-misses", "")  # the reading zone-dice-remainder, as said


@dataclass(frozen=True, slots=True)
class HitEffects:
    """What each hit does: where it lands (rolled, or --location) and its damage (rolled, or
    --damage-done); on an NPC's head or chest (the target's, or a danger zone target's named
    by --zone-npc) a quick-kill die may kill outright."""

    locations: tuple[tuple[int, str], ...]  # (highest roll, location)
    location_die: int
    location: str | None  # given: no location roll
    damage: str  # dice per hit; "" when the weapon gives none
    damage_done: int | None
    npc: bool
    kill_die: int
    zone_npc: tuple[str, ...] = ()


@dataclass(slots=True)
class Fire:
    """What every later step of a shot reads: the request, the weapon, the resolution being
    written, the firer's asset and Strength for recoil, each hit's effects and the steps that
    moved the range band so far."""

    req: FireRequest
    weapon: Weapon
    res: Resolution
    asset: int
    strength: int
    effects: HitEffects
    steps: list[Modifier]


def new_resolution(command: str, inputs: dict) -> Resolution:
    return Resolution(command=command, ruleset=RULESET, inputs=inputs)

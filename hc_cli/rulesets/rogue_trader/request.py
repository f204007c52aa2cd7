"""Rogue Trader fire, as data: the request a player makes and the plan the shooting step
makes of it (each shot's numbers, fixed before a die is rolled); the resolution every step
writes, and a characteristic a request gives or names by its profile. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hc_cli.core.model import Resolution
from hc_cli.core.mods import ModSpec
from hc_cli.rulesets.rogue_trader.area import DeviationSpec
from hc_cli.rulesets.rogue_trader.tables import RULESET

if TYPE_CHECKING:
    from hc_cli.rulesets.rogue_trader.tables import RogueTraderTables

OUTCOMES = ("miss", "no-wound", "saved", "wounded", "casualty")

FRIEND = "friend: "  # the label of the friend a shot into hand to hand may strike
WOUND_DAMAGE = {"saved", "wounded", "casualty"}  # following fire goes on after these


# ---------------------------------------------------------------------------------------------
# Requests


@dataclass(frozen=True, slots=True)
class FireRequest:
    firer: str | None = None
    bs: int | None = None
    firer_wounded: bool = False
    firers_wounded: int = 0
    weapon: str | None = None
    short: float | None = None
    long: float | None = None
    maximum: float | None = None
    to_hit_short: int | None = None
    to_hit_long: int | None = None
    strength: int | None = None
    damage: str | None = None
    save_mod: int | None = None
    weapon_type: tuple[str, ...] = ()
    radius: float | None = None
    range: float | None = None
    targets: tuple[str, ...] = ()
    toughness: int | None = None
    wounds_left: int | None = None
    wounds_taken: int | None = None
    save: int | None = None
    armour: str | None = None
    size: str | None = None
    moving_surface: bool = False
    mounted_weapon: bool = False
    target_moved: float | None = None
    soft_cover: bool = False
    hard_cover: bool = False
    improvised: bool = False
    moved: bool = False
    allow_7plus: bool = False
    one_model: bool = False
    models: int | None = None
    wounded: tuple[int, ...] = ()
    lying_down: bool = False
    in_woods: bool = False
    in_hand_to_hand: bool = False
    shots: int = 1
    mount: str | None = None
    at_mount: bool = False
    into_melee: bool = False
    friend: str | None = None
    friend_wounded: int = 0
    placed: bool = False
    under: int | None = None
    partly: int = 0
    blasting_cover: bool = False
    closed_room: bool = False
    mods: tuple[ModSpec, ...] = ()


# ---------------------------------------------------------------------------------------------
# Plans: everything fixed before a die is rolled


@dataclass(frozen=True, slots=True)
class Victim:
    """A model a shot can wound, with the numbers that decide it."""

    label: str
    strength: int
    toughness: int
    wounds_left: int
    needed_to_wound: int | None  # None: N on the chart, no effect
    needed_to_save: int | None  # None: no save
    wounds: int = 1  # W: the wounds it has unhurt


@dataclass(frozen=True, slots=True)
class ShotSpec:
    label: str
    needed_to_hit: int  # after the floor; 7..9 only when allowed
    second_roll: int | None  # for 7+: the second D6 needed after a 6
    victim: Victim
    other: Victim | None = None  # the mount, or the friend in hand to hand
    split: str | None = None  # "rider" or "melee": which D6 picks victim or other
    split_at: int = 3
    damage: str = "1"
    auto_hit: bool = False  # an area weapon in a closed room hits every occupant
    model: str = ""  # which model the victim is: shots at the same model add up their wounds
    under_die: bool = False  # partly under the marker, and a D6 decides whether it is a target


@dataclass(slots=True)
class FirePlan:
    res: Resolution
    specs: list[ShotSpec]
    mode: str  # "single", "unit", "following", "area"
    deviation: DeviationSpec | None = None
    # A volley at a unit: the wounds each of its models has left, in the order they are fired
    # at (a model a shot unless --models says how many there are), and how the shots are
    # shared among them (the reading volley-shares).
    left: tuple[int, ...] = ()
    share: str = "spread"
    numbered: bool = False  # the models are the player's (--models): say which one is struck


# ---------------------------------------------------------------------------------------------
# What every step reads and writes


def new_resolution(command: str, inputs: dict) -> Resolution:
    return Resolution(command=command, ruleset=RULESET, inputs=inputs)


def characteristic(
    t: RogueTraderTables,
    direct: float | None,
    profile_name: str | None,
    name: str,
    res: Resolution,
) -> float | None:
    """A characteristic given as a number, else from the named profile (marked when it is a
    sample number); None when neither is given."""
    if direct is not None:
        return direct
    if not profile_name:
        return None
    profile = t.profile(profile_name)
    value = profile[name]
    res.note_source(profile, name, f"{profile.key} {name.upper()} {value}")
    return value

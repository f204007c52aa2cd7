"""Twilight: 2000 (combat rules v1.1) tables: schema, cross-checks, typed views."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from hc_cli.core.errors import HcError
from hc_cli.tables import readings
from hc_cli.tables.entries import Entry, entry_args, lookup
from hc_cli.tables.load import MergedTables
from hc_cli.tables.schema import Field, Problems, check_bounds, check_required, origin

RULESET = "t2k"
BANDS = ("short", "medium", "long", "extreme")

_SOURCE = Field("str", required=True, help="where the numbers come from: 'seed 002' or 'sample'")
_FIELD_SOURCES = Field("map", help="per-field sources where they differ from the entry's")

SCHEMAS: dict[str, dict[str, Field]] = {
    "readings": readings.SCHEMA,
    "difficulties": {
        "rank": Field("int", required=True, minimum=0),
        "multiplier": Field("number", required=True, minimum=0),
        "source": _SOURCE,
    },
    "wound_levels": {
        "reduction": Field("int", required=True, minimum=0),
        "from_damage": Field("int", minimum=0, help="the damage in all that makes this level"),
        "source": _SOURCE,
        "field_sources": _FIELD_SOURCES,
    },
    "feeds": {
        "name": Field("str"),
        "actions": Field("int", minimum=1, help="actions to a full load"),
        "actions_with_helper": Field("int", minimum=1, help="actions to a full load for two"),
        "rounds_per_action": Field("int", minimum=1, help="rounds loaded an action"),
        "speed_loader_rounds": Field("int", minimum=1, help="rounds an action with a speed loader"),
        "source": _SOURCE,
    },
    "weapon_types": {"skill": Field("str", required=True), "source": _SOURCE},
    "rof": {
        "shots": Field("int", required=True, minimum=1),
        "description": Field("str"),
        "source": _SOURCE,
    },
    "movement": {
        "metres": Field("number", minimum=0),
        "may_fire": Field("bool"),
        "may_aim": Field("bool"),
        "strength_minus": Field("int", minimum=0),
        "strength_half": Field("bool"),
        "quick_band_shift": Field("int", minimum=0),
        "aimed_band_shift": Field("int", minimum=0),
        "lower_of_riding": Field("bool"),
        "mount_pace": Field("bool", help="a pace a mount moves at (--gait)"),
        "source": _SOURCE,
    },
    "target_speeds": {
        "metres": Field("number", required=True, minimum=0),
        "kph": Field("number", required=True, minimum=0),
        "levels": Field("int", required=True, minimum=1),
        "source": _SOURCE,
    },
    "bursts": {
        "dice_lost_per_band": Field("int", required=True, minimum=0),
        "minimum_dice": Field("int", required=True, minimum=1),
        "recoil_factor": Field("int", required=True, minimum=0),
        "as_burst": Field("int", minimum=1),
        "hits_count": Field("int", minimum=1),
        "source": _SOURCE,
    },
    "hit_locations": {
        "up_to": Field("int", required=True, minimum=1, help="the highest roll of this location"),
        "source": _SOURCE,
    },
    "ammunition": {
        "max_band": Field("str", required=True, choices=BANDS),
        "penetration": Field("list"),
        "source": _SOURCE,
    },
    "weapons": {
        "name": Field("str"),
        "type": Field("str", required=True),
        "short": Field("number", minimum=0, help="printed (Short) range in metres"),
        "rof": Field("str", help="single-shot kind: ss, ba, la, pa, dar, sa"),
        "burst": Field("int", minimum=1, help="rounds in a burst"),
        "recoil": Field("int", minimum=0),
        "burst_recoil": Field("int", minimum=0),
        "damage": Field("dice", required=True),
        "penetration": Field("str"),
        "bulk": Field("int", minimum=0),
        "ammo": Field("str"),
        "magazine": Field("int", minimum=1, help="rounds a full load holds"),
        "feed": Field("str", help="how it is loaded: bx, r, i, b or c (the feeds table)"),
        "weight": Field("number", minimum=0),
        "grenade": Field("bool"),
        "knife": Field("bool"),
        "source": _SOURCE,
        "field_sources": _FIELD_SOURCES,
    },
    "modifiers": {
        "levels": Field("int", required=True, help="difficulty levels: + harder"),
        "description": Field("str"),
        "source": _SOURCE,
    },
    "rules": {"value": Field("int", required=True), "description": Field("str"), "source": _SOURCE},
}

_DIE = "a die has 2 sides or more"
# Each rule's value as the procedures can use it: a die has two sides or more, a factor and a
# weight are at least 1, a percentage is 0..100.
RULE_BOUNDS = {
    "task-die": (2, 1000, _DIE),
    "range-band-factor": (1, 100, "each band reaches this many times the one before"),
    "scope-bonus": (0, 1000, "added to a hit number"),
    "laser-sight-shots": (1, 100, "aimed shots an action"),
    "pistol-brace": (0, 100, "recoil off"),
    "two-weapons-strength": (0, 100, "Strength off"),
    "danger-zone-metres": (0, 100_000, "metres either side of the target"),
    "quick-kill-die": (2, 1000, _DIE),
    "riders-percent": (0, 100, "a percentage"),
    "shotgun-pellets": (1, 1000, "a burst size of the bursts table"),
    "bursts-per-action": (1, 100, "bursts an action"),
    "hit-location-die": (2, 1000, _DIE),
    "thrown-effective": (0, 100, "a difficulty rank of the difficulties table"),
    "thrown-long": (0, 100, "a difficulty rank of the difficulties table"),
    "thrown-damage-die": (2, 1000, _DIE),
    "min-throw-weight": (1, 1000, "kg: an object lighter throws as this"),
    "grenade-deviation-die": (2, 1000, _DIE),
    "grenade-direction-die": (2, 1000, _DIE),
    "further-grenade-bonus": (0, 100, "skill for each further grenade"),
    "extra-action-above": (0, 100, "an Initiative"),
    "extra-action-round-up": (0, 1, "1 rounds up, 0 down"),
    "tie-die": (2, 1000, _DIE + ": ties on a 1-sided die never end"),
    "out-of-action-damage": (1, 100_000, "damage in all"),
}


READINGS = (
    "aimed-burst-difficulty",
    "automatic-fire-band",
    "recoil-floor",
    "scope-bonus",
    "laser-sight",
    "further-grenades",
    "reload-per-turn",
    "wound-initiative",  # these two the game decides by (hc_cli.rulesets.t2k.game)
    "outside-order-action",
    "zone-dice-remainder",
    "zone-dice-kept",  # the game keeps a burst's zone dice by it (hc_cli.rulesets.t2k.game_zone)
    "sealed-roll-forfeit",  # the game decides a forfeit by it (hc_cli.games.seal_protocol)
)


def cross_check(tables: dict[str, dict[str, dict]], problems: Problems) -> None:
    readings.check(tables, READINGS, problems)
    check_bounds(tables, "rules", RULE_BOUNDS, problems)
    _check_rules(tables, problems)
    _check_difficulties_and_feeds(tables, problems)
    _check_weapon_references(tables, problems)


def _check_rules(tables: dict[str, dict[str, dict]], problems: Problems) -> None:
    """The rules the procedures need, each with a value the other tables can honour."""
    rules = {name: entry.get("value") for name, entry in tables["rules"].items()}
    top = max((entry.get("up_to", 0) for entry in tables["hit_locations"].values()), default=0)
    die = rules.get("hit-location-die")
    if isinstance(die, int) and top < die:
        path, line = origin(tables["rules"]["hit-location-die"], "value")
        problems.add(
            path,
            line,
            "rules.hit-location-die.value",
            f"a d{rules['hit-location-die']} rolls past the last hit location (up to {top})",
            "every roll of the die must land on a location of hit_locations",
        )
    if str(rules.get("shotgun-pellets")) not in tables["bursts"]:
        path, line = origin(tables["rules"].get("shotgun-pellets", {}), "value")
        problems.add(
            path,
            line,
            "rules.shotgun-pellets.value",
            f"{rules.get('shotgun-pellets')} is not a burst size of the bursts table",
            "bursts: " + ", ".join(tables["bursts"]),
        )
    for name in ("thrown-effective", "thrown-long"):
        rank = rules.get(name)
        if isinstance(rank, int) and rank >= len(tables["difficulties"]):
            path, line = origin(tables["rules"][name], "value")
            problems.add(
                path,
                line,
                f"rules.{name}.value",
                f"rank {rank} is past the hardest difficulty",
                f"ranks 0..{len(tables['difficulties']) - 1}",
            )
    check_required(tables, "rules", RULE_BOUNDS, "Twilight: 2000", problems)


def _check_difficulties_and_feeds(tables: dict[str, dict[str, dict]], problems: Problems) -> None:
    ranks = sorted(d["rank"] for d in tables["difficulties"].values())
    if ranks != list(range(len(ranks))):
        problems.add(
            "difficulties",
            None,
            "difficulties.rank",
            f"ranks {ranks} have gaps",
            "number the levels 0, 1, 2 ... from easiest to hardest",
        )
    for name, feed in tables.get("feeds", {}).items():
        if ("actions" in feed) == ("rounds_per_action" in feed):
            problems.add(
                feed.get("_file", "feeds"),
                None,
                f"feeds.{name}",
                "a feed reloads whole after `actions`, or by `rounds_per_action`: give one",
                "bx: {actions: 1}, r: {rounds_per_action: 3}",
            )


def _check_weapon_references(tables: dict[str, dict[str, dict]], problems: Problems) -> None:
    """A weapon's field that names an entry of another table must name one that exists."""
    references = (
        ("type", "weapon_types"),
        ("rof", "rof"),
        ("burst", "bursts"),
        ("ammo", "ammunition"),
        ("feed", "feeds"),
    )
    for name, weapon in tables["weapons"].items():
        for field, table in references:
            value = weapon.get(field)
            if value is not None and str(value) not in tables[table]:
                problems.add(
                    weapon["_file"],
                    None,
                    f"weapons.{name}.{field}",
                    f"'{value}' is not in the {table} table",
                    f"{table}: " + ", ".join(tables[table]),
                )


@dataclass(frozen=True, slots=True)
class Difficulty(Entry):
    rank: int = 0
    multiplier: float = 1


@dataclass(frozen=True, slots=True)
class Weapon(Entry):
    name: str = ""
    type: str = "rifle"
    short: float | None = None
    rof: str | None = None
    burst: int | None = None
    recoil: int = 0
    burst_recoil: int = 0
    damage: str = "1d6"
    penetration: str = ""
    bulk: int = 0
    ammo: str | None = None
    magazine: int | None = None
    feed: str | None = None
    weight: float | None = None
    grenade: bool = False
    knife: bool = False


@dataclass(frozen=True, slots=True)
class Feed(Entry):
    """How a weapon is reloaded: a full load after `actions`, or rounds an action."""

    name: str = ""
    actions: int | None = None
    actions_with_helper: int | None = None
    rounds_per_action: int | None = None
    speed_loader_rounds: int | None = None


@dataclass(frozen=True, slots=True)
class Burst(Entry):
    dice_lost_per_band: int = 0
    minimum_dice: int = 1
    recoil_factor: int = 1
    as_burst: int | None = None
    hits_count: int = 1


@dataclass(frozen=True, slots=True)
class Movement(Entry):
    metres: float = 0
    may_fire: bool = True
    may_aim: bool = True
    strength_minus: int = 0
    strength_half: bool = False
    quick_band_shift: int = 0
    aimed_band_shift: int = 0
    lower_of_riding: bool = False
    mount_pace: bool = False


def _own(kind: type, raw: dict[str, Any], *but: str) -> dict[str, Any]:
    """The fields of the table entry `raw` that the record `kind` declares beyond an Entry's
    (less those in `but`, which the caller gives itself)."""
    own = {f.name for f in fields(kind)} - {f.name for f in fields(Entry)} - set(but)
    return {name: raw[name] for name in raw if name in own}


@dataclass(slots=True)
class T2kTables:
    merged: MergedTables
    difficulties: list[Difficulty]  # easiest first
    wound_levels: dict[str, int]
    wound_damage: list[tuple[int, str]]  # (least damage in all, level), least first
    feeds: dict[str, Feed]
    weapon_types: dict[str, str]
    rof: dict[str, int]
    movement: dict[str, Movement]
    target_speeds: list[tuple[float, float, int]]  # (metres, kph, levels), slowest first
    bursts: dict[int, Burst]
    ammunition: dict[str, tuple[str, list[str]]]
    hit_locations: list[tuple[int, str]]  # (highest roll, location), lowest first
    weapons: dict[str, Weapon]
    modifiers: dict[str, Entry]
    modifier_levels: dict[str, int]
    rules: dict[str, Entry]
    rule_values: dict[str, int]
    sources: dict[str, dict[str, str]]

    @classmethod
    def from_merged(cls, merged: MergedTables) -> T2kTables:
        t = merged.tables
        return cls(
            merged=merged,
            difficulties=sorted(
                (
                    Difficulty(**entry_args(k, v), rank=v["rank"], multiplier=v["multiplier"])
                    for k, v in t["difficulties"].items()
                ),
                key=lambda d: d.rank,
            ),
            wound_levels={k: v["reduction"] for k, v in t["wound_levels"].items()},
            wound_damage=sorted(
                (v["from_damage"], k) for k, v in t["wound_levels"].items() if "from_damage" in v
            ),
            feeds={
                k: Feed(**entry_args(k, v), name=v.get("name", k), **_own(Feed, v, "name"))
                for k, v in t.get("feeds", {}).items()
            },
            weapon_types={k: v["skill"] for k, v in t["weapon_types"].items()},
            rof={k: v["shots"] for k, v in t["rof"].items()},
            movement={
                k: Movement(**entry_args(k, v), **_own(Movement, v))
                for k, v in t["movement"].items()
            },
            target_speeds=sorted(
                (v["metres"], v["kph"], v["levels"]) for v in t["target_speeds"].values()
            ),
            bursts={
                int(k): Burst(**entry_args(k, v), **_own(Burst, v)) for k, v in t["bursts"].items()
            },
            ammunition={
                k: (v["max_band"], [str(p) for p in v.get("penetration", [])])
                for k, v in t["ammunition"].items()
            },
            hit_locations=sorted(
                ((v["up_to"], k) for k, v in t["hit_locations"].items()), key=lambda x: x[0]
            ),
            weapons={
                k: Weapon(
                    **entry_args(k, v),
                    name=v.get("name", k),
                    damage=str(v["damage"]),
                    **_own(Weapon, v, "name", "damage"),
                )
                for k, v in t["weapons"].items()
            },
            modifiers={k: Entry(**entry_args(k, v)) for k, v in t["modifiers"].items()},
            modifier_levels={k: v["levels"] for k, v in t["modifiers"].items()},
            rules={k: Entry(**entry_args(k, v)) for k, v in t["rules"].items()},
            rule_values={k: v["value"] for k, v in t["rules"].items()},
            sources={
                table: {k: v["source"] for k, v in entries.items()} for table, entries in t.items()
            },
        )

    def weapon(self, name: str) -> Weapon:
        return lookup(self.weapons, "weapon", name)

    def rule(self, name: str) -> int:
        return self.rule_values[name]

    def difficulty(self, rank: int) -> Difficulty:
        return self.difficulties[rank]

    def difficulty_named(self, name: str) -> Difficulty:
        by_name = {d.key: d for d in self.difficulties}
        return lookup(by_name, "difficulty", name)

    def hit_number(self, asset: int, difficulty: Difficulty) -> int:
        return max(1, math.floor(asset * difficulty.multiplier))

    def burst(self, size: int) -> Burst:
        if size not in self.bursts:
            raise HcError(
                f"no burst rule for {size} rounds",
                "bursts of " + ", ".join(str(b) for b in sorted(self.bursts)),
            )
        return self.bursts[size]

"""Rogue Trader tables: schema, cross-checks, and typed views for the resolvers."""

from __future__ import annotations

from dataclasses import dataclass

from hc_cli.tables import readings
from hc_cli.tables.entries import Entry, entry_args, lookup
from hc_cli.tables.load import MergedTables
from hc_cli.tables.schema import Field, Problems, check_bounds, check_required, origin

RULESET = "rogue-trader"
CHARACTERISTICS = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld", "int", "cl", "wp")
SIZES = ("small", "normal", "large")

_SOURCE = Field("str", required=True, help="where the numbers come from: 'seed 003' or 'sample'")
_FIELD_SOURCES = Field("map", help="per-field sources where they differ from the entry's")
_RANGE = Field("number", minimum=0, help="inches")

SCHEMAS: dict[str, dict[str, Field]] = {
    "readings": readings.SCHEMA,
    "charts": {
        "source": _SOURCE,
        "by_bs": Field("list", item_kind="int", help="to-hit score needed by BS 1..10"),
        "second_roll": Field("list", item_kind="int", help="second D6 needed for 7+, 8+, 9+"),
        "rows": Field("list", help="wound chart rows, Strength 1..10, each ten scores or N"),
        "radii": Field(
            "list",
            help="deviation by marker radius",
            items={
                "radius": Field("number", required=True, minimum=0),
                "deviates_on": Field("int", required=True, minimum=1, maximum=7),
            },
        ),
    },
    "modifiers": {
        "value": Field("int", required=True, help="added to the to-hit roll"),
        "per_inches": Field("number", minimum=1, help="applied once per full this many inches"),
        "description": Field("str"),
        "source": _SOURCE,
    },
    "armour": {
        "name": Field("str"),
        "save": Field(
            "int", required=True, minimum=1, maximum=7, help="D6 score needed to save; 7 is no save"
        ),
        "encumbrance": Field("number", minimum=0, help="inches off the move"),
        "source": _SOURCE,
        "field_sources": _FIELD_SOURCES,
    },
    "weapons": {
        "name": Field("str"),
        "source": _SOURCE,
        "field_sources": _FIELD_SOURCES,
        "short": _RANGE,
        "long": _RANGE,
        "maximum": _RANGE,
        "to_hit_short": Field("int"),
        "to_hit_long": Field("int"),
        "strength": Field("int", required=True, minimum=1, maximum=10),
        "damage": Field("dice", required=True),
        "save_modifier": Field("int"),
        "types": Field("list", item_kind="str", help="S (slow), F (following fire)"),
        "area": Field("number", minimum=0.5, help="area marker radius in inches"),
        "thrown": Field("bool"),
        "improvised": Field("bool"),
    },
    "profiles": {
        "name": Field("str"),
        "source": _SOURCE,
        "field_sources": _FIELD_SOURCES,
        "profile": Field(
            "map",
            required=True,
            items={
                c: Field("int", required=True, minimum=0, maximum=10 if c != "w" else 100)
                for c in CHARACTERISTICS
            },
        ),
        "armour": Field("str"),
        "size": Field("str", choices=SIZES),
    },
    "rules": {
        "value": Field("int", required=True),
        "description": Field("str"),
        "source": _SOURCE,
    },
}

_DIE = "a die has 2 sides or more"
# Each rule's value as the procedures can use it: a die has two sides or more, a divisor is
# at least 1, a D6 split falls on the die.
RULE_BOUNDS = {
    "minimum-to-hit": (1, 7, "the least D6 score to hit, 1..7"),
    "following-fire-reach": (0, 1000, "inches from one target to the next"),
    "rider-split": (0, 6, "a D6 of this or less hits the rider: 0..6"),
    "melee-split": (0, 6, "a D6 of this or less hits the enemy: 0..6"),
    "deviation-distance-die": (2, 1000, _DIE),
    "deviation-direction-die": (2, 1000, _DIE),
    "blasting-cover-penalty": (-6, 6, "added to a D6"),
    "difficult-ground-divisor": (1, 100, "ground crossed at 1/N the rate: N is 1 or more"),
    "very-difficult-ground-divisor": (1, 100, "ground crossed at 1/N the rate: N is 1 or more"),
    "free-turns": (0, 100, "turns a move makes free"),
    "turn-cost-half-inches": (0, 100, "half inches a further turn costs"),
    "charge-multiplier": (1, 10, "a charge multiplies the move"),
}
REQUIRED = {
    "charts": ("to-hit", "seven-plus", "wound", "deviation"),
    "rules": tuple(RULE_BOUNDS),
}


READINGS = (
    "seven-plus-chart",
    "deviation-table",
    "deviation-radius-between-rows",
    "deviation-direction",
    "mounted-weapon-exemption",
    "partly-under-marker",
    "volley-shares",
    "rally-test",
    "reserve-move",
    "hiding-lasts",
    "engaged-move",  # the game decides by it whether an engaged unit moves
    "sealed-roll-forfeit",  # the game decides a forfeit by it (hc_cli.games.seal_protocol)
)


def cross_check(tables: dict[str, dict[str, dict]], problems: Problems) -> None:
    readings.check(tables, READINGS, problems)
    for table, names in REQUIRED.items():
        check_required(tables, table, names, "Rogue Trader", problems)
    check_bounds(tables, "rules", RULE_BOUNDS, problems)
    _check_deviation_and_seven_plus(tables["charts"], problems)
    _check_wound_and_to_hit(tables["charts"], problems)
    _check_weapons_and_profiles(tables, problems)


def _check_deviation_and_seven_plus(charts: dict[str, dict], problems: Problems) -> None:
    deviation = charts.get("deviation", {})
    if "deviation" in charts and not deviation.get("radii"):
        path, line = origin(deviation, "radii")
        problems.add(
            path, line, "charts.deviation.radii", "is empty", "list each marker radius and its D6"
        )
    for i, row in enumerate(deviation.get("radii") or []):
        if not isinstance(row, dict) or not 1 <= row.get("deviates_on", 0) <= 7:
            path, line = origin(deviation, "radii")
            problems.add(
                path,
                line,
                f"charts.deviation.radii[{i}].deviates_on",
                f"{row.get('deviates_on') if isinstance(row, dict) else row!r} is no D6 score",
                "the D6 score on which it deviates, 1..6 (7: never)",
            )
    second = charts.get("seven-plus", {}).get("second_roll")
    if "seven-plus" in charts and not (
        isinstance(second, list)
        and second
        and all(isinstance(v, int) and 1 <= v <= 6 for v in second)
    ):
        path, line = origin(charts["seven-plus"], "second_roll")
        problems.add(
            path,
            line,
            "charts.seven-plus.second_roll",
            "must list the second D6 needed for 7, 8, 9 ...",
            "whole numbers 1..6",
        )


def _check_wound_and_to_hit(charts: dict[str, dict], problems: Problems) -> None:
    if "wound" in charts:
        rows = charts["wound"].get("rows") or []
        where = charts["wound"].get("_changed", {}).get("rows") or charts["wound"]["_file"]
        ok = len(rows) == 10 and all(
            isinstance(row, list)
            and len(row) == 10
            and all(v == "N" or (isinstance(v, int) and 2 <= v <= 6) for v in row)
            for row in rows
        )
        if not ok:
            problems.add(
                where,
                None,
                "charts.wound.rows",
                "must be 10 rows of 10 scores",
                "each score 2..6 or N, rows Strength 1..10, columns Toughness 1..10",
            )
    if "to-hit" in charts and len(charts["to-hit"].get("by_bs") or []) != 10:
        problems.add(
            charts["to-hit"]["_file"],
            None,
            "charts.to-hit.by_bs",
            "must list the score needed for BS 1..10",
            "ten whole numbers",
        )


def _check_weapons_and_profiles(tables: dict[str, dict[str, dict]], problems: Problems) -> None:
    for name, weapon in tables["weapons"].items():
        where = weapon["_file"]
        short, long_ = weapon.get("short"), weapon.get("long")
        if short is not None and long_ is not None and long_ < short:
            problems.add(
                where,
                None,
                f"weapons.{name}.long",
                f"{long_} is shorter than short range {short}",
                "long range reaches further than short range",
            )
        for kind in weapon.get("types", []):
            if kind not in ("S", "F"):
                problems.add(
                    where,
                    None,
                    f"weapons.{name}.types",
                    f"'{kind}' is not a type",
                    "S (slow) or F (following fire)",
                )
    for name, profile in tables["profiles"].items():
        armour = profile.get("armour")
        if armour is not None and armour not in tables["armour"]:
            problems.add(
                profile["_file"],
                None,
                f"profiles.{name}.armour",
                f"unknown armour '{armour}'",
                "armour: " + ", ".join(tables["armour"]),
            )


@dataclass(frozen=True, slots=True)
class Weapon(Entry):
    name: str = ""
    short: float | None = None
    long: float | None = None
    maximum: float | None = None
    to_hit_short: int = 0
    to_hit_long: int = 0
    strength: int = 0
    damage: str = "1"
    save_modifier: int = 0
    slow: bool = False
    following_fire: bool = False
    area: float | None = None
    thrown: bool = False
    improvised: bool = False

    @property
    def reach(self) -> float | None:
        return self.maximum if self.maximum is not None else self.long


@dataclass(frozen=True, slots=True)
class Profile(Entry):
    name: str = ""
    characteristics: dict[str, int] | None = None
    armour: str | None = None
    size: str = "normal"

    def __getitem__(self, characteristic: str) -> int:
        assert self.characteristics is not None
        return self.characteristics[characteristic]


@dataclass(frozen=True, slots=True)
class Armour(Entry):
    name: str = ""
    save: int = 7
    encumbrance: float = 0


@dataclass(frozen=True, slots=True)
class Value(Entry):
    value: int = 0
    per_inches: float | None = None
    description: str = ""


@dataclass(frozen=True, slots=True)
class Charts:
    to_hit: tuple[int, ...]
    seven_plus: tuple[int, ...]
    wound: tuple[tuple[int | None, ...], ...]  # None = N, no effect
    deviation: tuple[tuple[float, int], ...]  # (radius, deviates on), smallest radius first
    sources: dict[str, str]


@dataclass(slots=True)
class RogueTraderTables:
    merged: MergedTables
    charts: Charts
    weapons: dict[str, Weapon]
    profiles: dict[str, Profile]
    armour: dict[str, Armour]
    modifiers: dict[str, Value]
    rules: dict[str, Value]

    @classmethod
    def from_merged(cls, merged: MergedTables) -> RogueTraderTables:
        t = merged.tables
        c = t["charts"]
        charts = Charts(
            to_hit=tuple(c["to-hit"]["by_bs"]),
            seven_plus=tuple(c["seven-plus"]["second_roll"]),
            wound=tuple(tuple(None if v == "N" else v for v in row) for row in c["wound"]["rows"]),
            deviation=tuple(
                sorted((r["radius"], r["deviates_on"]) for r in c["deviation"]["radii"])
            ),
            sources={k: v["source"] for k, v in c.items()},
        )
        return cls(
            merged=merged,
            charts=charts,
            weapons={
                k: Weapon(
                    **entry_args(k, v),
                    name=v.get("name", k),
                    short=v.get("short"),
                    long=v.get("long"),
                    maximum=v.get("maximum"),
                    to_hit_short=v.get("to_hit_short", 0),
                    to_hit_long=v.get("to_hit_long", 0),
                    strength=v["strength"],
                    damage=str(v["damage"]),
                    save_modifier=v.get("save_modifier", 0),
                    slow="S" in v.get("types", []),
                    following_fire="F" in v.get("types", []),
                    area=v.get("area"),
                    thrown=v.get("thrown", False),
                    improvised=v.get("improvised", False),
                )
                for k, v in t["weapons"].items()
            },
            profiles={
                k: Profile(
                    **entry_args(k, v),
                    name=v.get("name", k),
                    characteristics=dict(v["profile"]),
                    armour=v.get("armour"),
                    size=v.get("size", "normal"),
                )
                for k, v in t["profiles"].items()
            },
            armour={
                k: Armour(
                    **entry_args(k, v),
                    name=v.get("name", k),
                    save=v["save"],
                    encumbrance=v.get("encumbrance", 0),
                )
                for k, v in t["armour"].items()
            },
            modifiers={
                k: Value(
                    **entry_args(k, v),
                    value=v["value"],
                    per_inches=v.get("per_inches"),
                    description=v.get("description", ""),
                )
                for k, v in t["modifiers"].items()
            },
            rules={
                k: Value(**entry_args(k, v), value=v["value"], description=v.get("description", ""))
                for k, v in t["rules"].items()
            },
        )

    def weapon(self, name: str) -> Weapon:
        return lookup(self.weapons, "weapon", name)

    def profile(self, name: str) -> Profile:
        return lookup(self.profiles, "profile", name)

    def armour_named(self, name: str) -> Armour:
        return lookup(self.armour, "armour", name)

    def modifier(self, name: str) -> Value:
        return lookup(self.modifiers, "modifier", name)

    def rule(self, name: str) -> int:
        return self.rules[name].value

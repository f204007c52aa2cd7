"""High Crusade tables: their schema, their cross-checks, and typed views for the resolvers."""

from __future__ import annotations

from dataclasses import dataclass

from hc_cli.core.errors import HcError, UnknownName
from hc_cli.rulesets.high_crusade.words import ROUT_ORDER
from hc_cli.tables import readings
from hc_cli.tables.entries import Entry, entry_args, lookup
from hc_cli.tables.load import MergedTables
from hc_cli.tables.schema import Field, Problems, check_bounds, check_required

RULESET = "high-crusade"
MODIFIER_TARGETS = ("chance", "defence", "melee", "morale", "initiative")

_SOURCE = Field("str", required=True, help="where the numbers come from: 'seed 000' or 'sample'")
_FIELD_SOURCES = Field("map", help="per-field sources where they differ from the entry's")

SCHEMAS: dict[str, dict[str, Field]] = {
    "readings": readings.SCHEMA,
    "weapons": {
        "name": Field("str", help="the name in full; the key if left out"),
        "source": _SOURCE,
        "field_sources": _FIELD_SOURCES,
        "carried_by": Field("str"),
        "template": Field("str", help="a template name (cone, circle) for a heavy weapon"),
        "melee": Field("int", help="hand-to-hand modifier for carrying it"),
        "bands": Field(
            "list",
            required=True,
            help="range bands, nearest first",
            items={
                "up_to": Field(
                    "number",
                    required=True,
                    minimum=0,
                    help="inches: the band holds ranges up to and including this",
                ),
                "chance": Field(
                    "int", required=True, minimum=0, maximum=100, help="D100 chance to hit, 0..100"
                ),
                "penetration": Field(
                    "int",
                    required=True,
                    minimum=0,
                    help="kills when at least the target's defence factor",
                ),
            },
        ),
    },
    "troops": {
        "name": Field("str", help="the name in full; the key if left out"),
        "source": _SOURCE,
        "field_sources": _FIELD_SOURCES,
        "defence": Field("int", required=True, minimum=0, help="the defence factor (DF)"),
        "melee": Field("int", help="hand-to-hand modifier"),
        "morale": Field("int", help="Morale and Regroup modifier"),
    },
    "modifiers": {
        "value": Field("int", required=True),
        "applies_to": Field("str", required=True, choices=MODIFIER_TARGETS),
        "description": Field("str"),
        "morale_trigger": Field("bool", help="true if this event calls for a Morale test"),
        "source": _SOURCE,
    },
    "templates": {
        "shape": Field("str", required=True, choices=("cone", "circle")),
        "description": Field("str"),
        "size_15mm": Field("str"),
        "size_25mm": Field("str"),
        "source": _SOURCE,
    },
    "rules": {
        "value": Field("int", required=True),
        "description": Field("str"),
        "source": _SOURCE,
    },
    "orders": {
        "description": Field("str"),
        "firer": Field("str", help="the modifier a shot by a Fireteam on this order takes"),
        "target": Field("str", help="the modifier a shot at a Fireteam on this order takes"),
        "by": Field(
            "str", choices=("player", "game"), help="who gives it: a player, or the game itself"
        ),
        "source": _SOURCE,
    },
}

# Each rule's value as the procedures can use it: a die has two sides or more.
RULE_BOUNDS = {
    "morale-pass": (-100, 100, "the modified D10 a Morale test needs"),
    "rally-pass": (-100, 100, "the modified D10 a Regroup needs"),
    "initiative-die": (2, 1000, "a die has 2 sides or more: a roll-off of 1-sided dice never ends"),
}


READINGS = (
    "initiative-rolloff",
    "casualty-modifier",
    "regroup-after-rout",
    "casualties-fall-on",
    "heavy-weapon-shots",
    "fire-after-melee",
    "routed-attack",
    "sealed-roll-forfeit",  # the game decides a forfeit by it (hc_cli.games.seal_protocol)
)


def cross_check(tables: dict[str, dict[str, dict]], problems: Problems) -> None:
    """What no single field can show: band order, template names, the procedure numbers, the
    modifiers an order names."""
    readings.check(tables, READINGS, problems)
    _check_orders(tables, problems)
    for name, weapon in tables["weapons"].items():
        where = weapon.get("_changed", {}).get("bands") or weapon["_file"]
        bands = weapon["bands"]
        if not bands:
            problems.add(
                where,
                None,
                f"weapons.{name}.bands",
                "no range bands",
                "give at least one band: {up_to: 12, chance: 65, penetration: 4}",
            )
        for i in range(1, len(bands)):
            if bands[i]["up_to"] <= bands[i - 1]["up_to"]:
                problems.add(
                    where,
                    None,
                    f"weapons.{name}.bands[{i}].up_to",
                    f"{bands[i]['up_to']} overlaps the band before it "
                    f"(up to {bands[i - 1]['up_to']})",
                    "list bands nearest first, each reaching further than the last",
                )
        template = weapon.get("template")
        if template is not None and template not in tables["templates"]:
            err = UnknownName("template", template, tables["templates"])
            where = weapon.get("_changed", {}).get("template") or weapon["_file"]
            problems.add(where, None, f"weapons.{name}.template", err.message, err.hint)
    check_required(tables, "rules", RULE_BOUNDS, "High Crusade", problems)
    check_bounds(tables, "rules", RULE_BOUNDS, problems)


def _check_orders(tables: dict[str, dict[str, dict]], problems: Problems) -> None:
    """Each order's modifiers are modifiers of fire; the game needs the rout's order."""
    fire = {k for k, m in tables["modifiers"].items() if m["applies_to"] in ("chance", "defence")}
    for name, order in tables.get("orders", {}).items():
        for side in ("firer", "target"):
            modifier = order.get(side)
            if modifier is not None and modifier not in fire:
                where = order.get("_changed", {}).get(side) or order["_file"]
                problems.add(
                    where,
                    None,
                    f"orders.{name}.{side}",
                    f"'{modifier}' is no modifier of fire (chance or defence)",
                    "name one of: " + ", ".join(sorted(fire)),
                )
    if ROUT_ORDER not in tables.get("orders", {}):
        problems.add(
            "orders", None, f"orders.{ROUT_ORDER}", "missing", "a game gives it a routed Fireteam"
        )


# ---------------------------------------------------------------------------------------------
# Typed views


@dataclass(frozen=True, slots=True)
class RangeBand:
    low: float  # exclusive, except that the first band starts at 0 inclusive
    up_to: float
    chance: int
    penetration: int
    label: str = ""  # e.g. 12-24"


@dataclass(frozen=True, slots=True)
class Weapon(Entry):
    name: str = ""
    bands: tuple[RangeBand, ...] = ()
    template: str | None = None
    melee: int = 0

    def band_at(self, distance: float) -> RangeBand | None:
        for band in self.bands:
            if distance <= band.up_to:
                return band
        return None


@dataclass(frozen=True, slots=True)
class Troop(Entry):
    name: str = ""
    defence: int = 0
    melee: int = 0
    morale: int = 0


@dataclass(frozen=True, slots=True)
class NamedModifier(Entry):
    value: int = 0
    applies_to: str = "chance"
    description: str = ""
    morale_trigger: bool = False


@dataclass(frozen=True, slots=True)
class Template(Entry):
    shape: str = ""
    description: str = ""
    size_15mm: str = ""
    size_25mm: str = ""


@dataclass(frozen=True, slots=True)
class Order(Entry):
    description: str = ""
    firer: str | None = None  # the modifier of a shot by a Fireteam on this order
    target: str | None = None  # the modifier of a shot at one
    by: str = "player"


def _bands(raw: list[dict]) -> tuple[RangeBand, ...]:
    bands, low = [], 0.0
    for b in raw:
        bands.append(
            RangeBand(low, b["up_to"], b["chance"], b["penetration"], f'{low:g}-{b["up_to"]:g}"')
        )
        low = b["up_to"]
    return tuple(bands)


@dataclass(slots=True)
class HighCrusadeTables:
    merged: MergedTables
    weapons: dict[str, Weapon]
    troops: dict[str, Troop]
    modifiers: dict[str, NamedModifier]
    templates: dict[str, Template]
    rules: dict[str, NamedModifier]
    orders: dict[str, Order]

    @classmethod
    def from_merged(cls, merged: MergedTables) -> HighCrusadeTables:
        t = merged.tables
        return cls(
            merged=merged,
            weapons={
                k: Weapon(
                    **entry_args(k, v),
                    name=v.get("name", k),
                    bands=_bands(v["bands"]),
                    template=v.get("template"),
                    melee=v.get("melee", 0),
                )
                for k, v in t["weapons"].items()
            },
            troops={
                k: Troop(
                    **entry_args(k, v),
                    name=v.get("name", k),
                    defence=v["defence"],
                    melee=v.get("melee", 0),
                    morale=v.get("morale", 0),
                )
                for k, v in t["troops"].items()
            },
            modifiers={
                k: NamedModifier(
                    **entry_args(k, v),
                    value=v["value"],
                    applies_to=v["applies_to"],
                    description=v.get("description", ""),
                    morale_trigger=v.get("morale_trigger", False),
                )
                for k, v in t["modifiers"].items()
            },
            templates={
                k: Template(
                    **entry_args(k, v),
                    shape=v["shape"],
                    description=v.get("description", ""),
                    size_15mm=v.get("size_15mm", ""),
                    size_25mm=v.get("size_25mm", ""),
                )
                for k, v in t["templates"].items()
            },
            rules={
                k: NamedModifier(
                    **entry_args(k, v),
                    value=v["value"],
                    applies_to="rules",
                    description=v.get("description", ""),
                )
                for k, v in t["rules"].items()
            },
            orders={
                k: Order(
                    **entry_args(k, v),
                    description=v.get("description", ""),
                    firer=v.get("firer"),
                    target=v.get("target"),
                    by=v.get("by", "player"),
                )
                for k, v in t.get("orders", {}).items()
            },
        )

    def weapon(self, name: str) -> Weapon:
        return lookup(self.weapons, "weapon", name)

    def troop(self, name: str) -> Troop:
        return lookup(self.troops, "troop type", name)

    def template(self, name: str) -> Template:
        return lookup(self.templates, "template", name)

    def modifier(self, name: str, allowed: tuple[str, ...], command: str) -> NamedModifier:
        mod = lookup(self.modifiers, "modifier", name)
        if mod.applies_to not in allowed:
            fitting = sorted(k for k, m in self.modifiers.items() if m.applies_to in allowed)
            raise HcError(
                f"modifier '{mod.key}' applies to {mod.applies_to}, not to {command}",
                f"{command} takes: " + ", ".join(fitting),
            )
        return mod

    def rule(self, name: str) -> NamedModifier:
        return self.rules[name]

    def order(self, name: str) -> Order:
        return lookup(self.orders, "order", name)

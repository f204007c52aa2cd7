"""Twilight: 2000 Initiative: who acts when in an action turn. Pure.

Wounds reduce Initiative; characters act highest first; above 5 a character gets an extra
action at half the value; ties go to the higher Agility - bulk, then Agility, then a die.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hc_cli.core.dice import DiceSource
from hc_cli.core.errors import HcError, RulesFileError, UnknownName
from hc_cli.core.model import Odds, Resolution
from hc_cli.core.numbers import is_digits, shown, whole
from hc_cli.rulesets.t2k.tables import RULESET, T2kTables
from hc_cli.tables.schema import Field, Problems, check_entry, line_at

NOTES = {
    "ambush": "acts outside the Initiative order: ambush",
    "opportunity_fire": "acts outside the Initiative order: opportunity fire (the first shot is "
    "aimed if the target was visible at the start of the action, else quick; "
    "automatic fire is never aimed)",
    "knocked_down": "involuntary action: panics (knocked down)",
    "surprised": "involuntary action: panics (surprised)",
    "vehicle_pierced": "involuntary action: bails out (vehicle pierced by other than small arms)",
    "charged": "involuntary action: panics (charged by a vehicle or a running animal)",
}
# The headline's words for a character flagged so: he acts outside the order, whoever's action
# it is (the order's first is then named as the first in the order).
EXCEPTED = {
    "ambush": "acts outside the order (ambush)",
    "opportunity_fire": "acts outside the order (opportunity fire)",
    "knocked_down": "panics (knocked down)",
    "surprised": "panics (surprised)",
    "vehicle_pierced": "bails out (vehicle pierced)",
    "charged": "panics (charged)",
}
ROSTER_FIELDS = {
    "name": Field("str", required=True),
    "initiative": Field("int", required=True),
    "wounds": Field("str"),
    "agility": Field("int", minimum=0),
    "bulk": Field("int", minimum=0),
}


@dataclass(frozen=True, slots=True)
class Character:
    name: str
    initiative: int
    wounds: str = "none"
    agility: int | None = None  # not given: its ties go to the die
    bulk: int = 0


@dataclass(frozen=True, slots=True)
class InitiativeRequest:
    characters: tuple[str, ...] = ()
    roster: str | None = None
    ambush: tuple[str, ...] = ()
    opportunity_fire: tuple[str, ...] = ()
    knocked_down: tuple[str, ...] = ()
    surprised: tuple[str, ...] = ()
    vehicle_pierced: tuple[str, ...] = ()
    charged: tuple[str, ...] = ()


def parse_character(text: str) -> Character:
    """`Name:initiative[:wounds[:agility[:bulk]]]`, e.g. `Kowalski:6:serious:7:3`."""
    parts = [p.strip() for p in text.split(":")]
    hint = "write --char NAME:INITIATIVE[:WOUNDS[:AGILITY[:BULK]]], e.g. Kowalski:6:serious:7:3"
    if len(parts) < 2 or len(parts) > 5 or not parts[0]:
        raise HcError(f"--char '{text}' cannot be read", hint)
    for part in [parts[1], *parts[3:5]]:
        if part and not is_digits(part):
            raise HcError(
                f"--char '{shown(text)}': initiative, agility and bulk are whole numbers", hint
            )
    initiative = whole(parts[1], "--char initiative", -1000, 1000)
    agility = whole(parts[3], "--char agility", 0, 1000) if len(parts) > 3 and parts[3] else None
    bulk = whole(parts[4], "--char bulk", 0, 1000) if len(parts) > 4 and parts[4] else 0
    wounds = parts[2].lower() if len(parts) > 2 and parts[2] else "none"
    return Character(parts[0], initiative, wounds, agility, bulk)


def read_roster(path: str) -> list[Character]:
    """A YAML roster: a list of {name, initiative, wounds, agility, bulk}."""
    from hc_cli.tables.load import existing_file, parse_yaml

    file = existing_file(path, "roster file", "give the path of a YAML roster")
    raw = parse_yaml(file)
    if not isinstance(raw, list):
        raise RulesFileError(
            path,
            getattr(raw, "line", 1),
            "(top)",
            "a roster is a list",
            "- {name: Kowalski, initiative: 6, wounds: serious, agility: 7, bulk: 3}",
        )
    problems = Problems()
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict):
            problems.add(
                path,
                line_at(raw, i),
                f"[{i}]",
                "each character is a mapping",
                "name, initiative, wounds, agility, bulk",
            )
            continue
        check_entry(entry, ROSTER_FIELDS, path, f"[{i}]", problems, partial=False)
    if problems.items:
        from hc_cli.tables.load import RulesProblems

        raise RulesProblems(problems.items)
    return [
        Character(
            str(e["name"]),
            e["initiative"],
            str(e.get("wounds", "none")).lower(),
            e.get("agility"),
            e.get("bulk", 0),
        )
        for e in raw
    ]


@dataclass(frozen=True, slots=True)
class Slot:
    name: str
    value: int
    extra: bool
    tie_key: tuple[int, int] | None  # (agility - bulk, agility); None: Agility not given


def plan_initiative(
    t: T2kTables, req: InitiativeRequest
) -> tuple[Resolution, list[list[Slot]], int]:
    characters = [parse_character(c) for c in req.characters]
    if req.roster:
        characters += read_roster(req.roster)
    if not characters:
        raise HcError(
            "no characters given",
            "give --char NAME:INITIATIVE[:WOUNDS[:AGILITY[:BULK]]] for each, or --roster FILE",
        )
    names = [c.name for c in characters]
    if len(set(n.lower() for n in names)) != len(names):
        raise HcError("two characters share a name", "give each character its own name")
    res = Resolution(
        "initiative", RULESET, {"characters": list(req.characters), "roster": req.roster}
    )
    threshold = t.rule("extra-action-above")
    round_up = bool(t.rule("extra-action-round-up"))
    slots: list[Slot] = []
    for c in characters:
        if c.wounds not in t.wound_levels:
            raise UnknownName("wound level", c.wounds, t.wound_levels)
        reduced = c.initiative - t.wound_levels[c.wounds]
        key = None if c.agility is None else (c.agility - c.bulk, c.agility)
        line = f"{c.name}: Initiative {c.initiative}"
        if c.wounds != "none":
            line += f" - {t.wound_levels[c.wounds]} ({c.wounds} wound) = {reduced}"
        if reduced < 0:
            line += ", never below 0: 0"
            reduced = 0
        slots.append(Slot(c.name, reduced, False, key))
        if reduced > threshold:
            half = math.ceil(reduced / 2) if round_up else reduced // 2
            slots.append(Slot(c.name, half, True, key))
            line += f"; above {threshold}: an extra action at {half}"
        res.explanation.append(line)
    for name, flag in _excepted(req, names):
        res.explanation.append(f"{name}: {NOTES[flag]}")
    # Equal value, Agility - bulk and Agility: only a die can part them. A character whose
    # Agility is not given cannot be compared on it, so a tie with it goes to the die.
    by_value: dict[int, list[Slot]] = {}
    for slot in slots:
        by_value.setdefault(slot.value, []).append(slot)
    groups: list[list[Slot]] = []
    for value in sorted(by_value, reverse=True):
        tied = by_value[value]
        if any(s.tie_key is None for s in tied):
            if len(tied) > 1:
                ranked = [s for s in tied if s.tie_key is not None]
                ranked.sort(key=lambda s: (-s.tie_key[0], -s.tie_key[1]))  # type: ignore[index]
                res.explanation.append(
                    "Agility not given for "
                    + ", ".join(_label(s) for s in tied if s.tie_key is None)
                    + f": the die places it in the tie at {value}"
                    + (
                        "; Agility - bulk, then Agility, still order "
                        + ", ".join(_label(s) for s in ranked)
                        if len(ranked) > 1
                        else ""
                    )
                )
            groups.append(tied)
            continue
        tied.sort(key=lambda s: (-s.tie_key[0], -s.tie_key[1]))  # type: ignore[index]
        for slot in tied:
            if groups and groups[-1][0].value == value and groups[-1][0].tie_key == slot.tie_key:
                groups[-1].append(slot)
            else:
                groups.append([slot])
    if any(len(group) > 1 for group in groups):  # the die is rolled only for a tie
        res.note_source(
            t.rules["tie-die"],
            "value",
            f"tie die: d{t.rule('tie-die')} (the text says only 'a die roll')",
        )
    return res, groups, t.rule("tie-die")


def order_slots(groups: list[list[Slot]], die: int, dice: DiceSource) -> tuple[list[Slot], list]:
    """Each tied group rolls off. The die decides only what Agility cannot: where a character
    whose Agility is not given falls; the places the others take go to them in order of
    Agility - bulk, then Agility (the die orders only those equal on both)."""
    order, rolls = [], []
    for group in groups:
        if len(group) == 1:
            order.append(group[0])
            continue
        labels = [_label(s) for s in group]
        ranked, tie_rolls = dice.rolloff(labels, die, "tie")
        rolls += tie_rolls
        by_label = {_label(s): s for s in group}
        rolled = [by_label[label] for label in ranked]
        known = [s for s in rolled if s.tie_key is not None]
        known.sort(key=lambda s: (-s.tie_key[0], -s.tie_key[1]))  # type: ignore[index]
        places = iter(known)
        order += [s if s.tie_key is None else next(places) for s in rolled]
    return order, rolls


def group_orders(group: list[Slot]) -> int:
    """How many orders of a tied group the die can give, each as likely: n! placings, of which
    Agility fixes the order of those it ranks (equal Agility - bulk and Agility aside)."""
    known = [s.tie_key for s in group if s.tie_key is not None]
    fixed = math.factorial(len(known))
    for key in set(known):
        fixed //= math.factorial(known.count(key))
    return math.factorial(len(group)) // fixed


def _excepted(req: InitiativeRequest, names: list[str]) -> list[tuple[str, str]]:
    """(name, flag) for each character flagged to act outside the order, flag by flag."""
    out = []
    for flag in NOTES:
        for name in getattr(req, flag):
            match = next((n for n in names if n.lower() == name.strip().lower()), None)
            if match is None:
                raise UnknownName("character", name, names)
            out.append((match, flag))
    return out


def _label(slot: Slot) -> str:
    return slot.name + (" (extra)" if slot.extra else "")


def resolve_initiative(t: T2kTables, req: InitiativeRequest, dice: DiceSource) -> Resolution:
    res, groups, die = plan_initiative(t, req)
    order, rolls = order_slots(groups, die, dice)
    res.rolls = rolls
    res.fields["order"] = [{"name": s.name, "initiative": s.value, "extra": s.extra} for s in order]
    res.outcome = ", ".join(_label(s) for s in order)
    excepted = _excepted(req, [s.name for s in order])
    if excepted:
        first = next((s for s in order if s.name not in {name for name, _ in excepted}), None)
        res.headline = "; ".join(f"{name} {EXCEPTED[flag]}" for name, flag in excepted) + (
            f"; in the order {first.name} acts first" if first else ""
        )
    place = {id(s): n for n, s in enumerate(order)}
    for group in groups:
        if len(group) > 1 and all(s.tie_key is not None for s in group):
            names = ", ".join(_label(s) for s in group)
            res.explanation.append(
                f"tie at {group[0].value} ({names}): same Agility - bulk and Agility, a die decides"
            )
        elif len(group) > 1:
            start = min(place[id(s)] for s in group)
            res.explanation.append(
                f"tie at {group[0].value}: the die places "
                + ", ".join(
                    f"{_label(s)} {place[id(s)] - start + 1} of {len(group)}"
                    for s in group
                    if s.tie_key is None
                )
            )
    return res


LISTED_ORDERS = 720  # beyond this many equally likely orders, count them: do not list them


def initiative_odds(t: T2kTables, req: InitiativeRequest) -> Resolution:
    from fractions import Fraction

    from hc_cli.core.odds import enumerate_outcomes

    res, groups, die = plan_initiative(t, req)
    orders = math.prod(group_orders(g) for g in groups)
    paths = math.prod(math.factorial(len(g)) for g in groups)
    if orders <= LISTED_ORDERS and paths <= LISTED_ORDERS:
        dist = enumerate_outcomes(
            lambda d: order_slots(groups, die, d)[0],
            lambda order: ", ".join(_label(s) for s in order),
        )
        res.odds = Odds(dict(sorted(dist.items(), key=lambda kv: -kv[1])))
        return res
    # Every tie is a fair roll-off: each of the orders is equally likely, 1 / orders. Listing
    # them would take n! lines; who acts first is what a table asks. The first place falls to
    # a character without Agility at 1/n; to one with it when the die gives the place to one
    # of those Agility ranks (a/n), and then to the best of them (shared among equals).
    first = groups[0]
    known = [s.tie_key for s in first if s.tie_key is not None]
    best = max(known) if known else None
    res.odds = Odds(
        {
            f"{_label(s)} first": Fraction(1, len(first))
            if s.tie_key is None
            else Fraction(len(known), len(first) * known.count(best))
            if s.tie_key == best
            else Fraction(0)
            for s in first
        }
    )
    res.fields.update(orders=orders, each_order=f"1/{orders}")
    res.explanation.append(
        f"{orders:,} orders, each at 1/{orders:,}: "
        + "; ".join(
            f"{len(g)} tied at {g[0].value} ({group_orders(g):,} orders)"
            for g in groups
            if len(g) > 1
        )
    )
    return res

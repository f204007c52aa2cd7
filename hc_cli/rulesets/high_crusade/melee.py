"""High Crusade hand to hand: both sides' totals planned, one D10 each, the higher wins
(`melee_contest`); the odds from the same contest. Pure."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hc_cli.core.dice import DiceSource
from hc_cli.core.errors import HcError
from hc_cli.core.model import Modifier, Odds, Resolution
from hc_cli.core.mods import ModSpec
from hc_cli.rulesets.high_crusade.steps import in_order, mod_total, new_resolution, resolve_mods
from hc_cli.rulesets.high_crusade.tables import HighCrusadeTables

# ---------------------------------------------------------------------------------------------
# Hand to hand


@dataclass(frozen=True, slots=True)
class MeleeRequest:
    attacker: str | None = None
    attacker_weapon: str | None = None
    defender: str | None = None
    defender_weapon: str | None = None
    attacker_mods: tuple[ModSpec, ...] = ()
    defender_mods: tuple[ModSpec, ...] = ()


def plan_melee(tables: HighCrusadeTables, req: MeleeRequest) -> Resolution:
    res = new_resolution(
        "melee",
        {
            "attacker": req.attacker,
            "attacker_weapon": req.attacker_weapon,
            "defender": req.defender,
            "defender_weapon": req.defender_weapon,
            "mods": [m.text for m in req.attacker_mods],
            "defender_mods": [m.text for m in req.defender_mods],
        },
    )
    for side, troop_name, weapon_name, specs in (
        ("attacker", req.attacker, req.attacker_weapon, req.attacker_mods),
        ("defender", req.defender, req.defender_weapon, req.defender_mods),
    ):
        if troop_name:
            troop = tables.troop(troop_name)
            res.modifiers.append(
                Modifier(troop.key, troop.melee, "melee", troop.source_of("melee"), side)
            )
            res.note_source(troop, "melee", f"{troop.key} melee {troop.melee:+d}")
        if weapon_name:
            weapon = tables.weapon(weapon_name)
            res.modifiers.append(
                Modifier(
                    f"carrying {weapon.key}", weapon.melee, "melee", weapon.source_of("melee"), side
                )
            )
            res.note_source(weapon, "melee", f"{weapon.key} melee {weapon.melee:+d}")
        res.modifiers.extend(resolve_mods(tables, specs, ("melee",), "melee", "melee", res, side))
    for side, troop_name, specs, mod_flag in (
        ("attacker", req.attacker, req.attacker_mods, "--mod"),
        ("defender", req.defender, req.defender_mods, "--defender-mod"),
    ):
        if not troop_name and not specs:
            names = ", ".join(sorted(tables.troops)[:3])
            raise HcError(
                f"a melee needs both sides: no {side} given",
                f"add --{side} TROOP ({names} ...), or {mod_flag} N for a side given by numbers",
            )
    return res


def melee_contest(res: Resolution, dice: DiceSource) -> Resolution:
    res = replace(res, rolls=[], explanation=list(res.explanation), fields=dict(res.fields))
    totals = {}
    # Each player rolls a D10: rolled together, and asked for together.
    rolls = dice.batch("for the melee (attacker, defender)", [(10, "attacker"), (10, "defender")])
    for side, roll in zip(("attacker", "defender"), rolls, strict=True):
        res.rolls.append(roll)
        totals[side] = roll.value + mod_total(res.modifiers, "melee", side)
        res.fields[f"{side}_total"] = totals[side]
    if totals["attacker"] > totals["defender"]:
        res.outcome = "attacker"
    elif totals["defender"] > totals["attacker"]:
        res.outcome = "defender"
    else:
        res.outcome = "draw"
    for side in ("attacker", "defender"):
        parts = " ".join(f"{m.value:+d}" for m in res.modifiers if m.side == side)
        roll_value = next(r.value for r in res.rolls if r.purpose == side)
        res.explanation.append(f"{side}: {roll_value} {parts} = {totals[side]}".replace("  ", " "))
    if res.outcome == "draw":
        res.explanation.append("equal totals: a draw, both figures stay on the table")
    else:
        loser = "defender" if res.outcome == "attacker" else "attacker"
        res.explanation.append(f"the {res.outcome} wins; the {loser} is removed as a casualty")
    return res


def resolve_melee(tables: HighCrusadeTables, req: MeleeRequest, dice: DiceSource) -> Resolution:
    return melee_contest(plan_melee(tables, req), dice)


def melee_odds(tables: HighCrusadeTables, req: MeleeRequest) -> Resolution:
    from hc_cli.core.odds import enumerate_outcomes

    res = plan_melee(tables, req)
    dist = enumerate_outcomes(lambda d: melee_contest(res, d), lambda r: r.outcome)
    res.odds = Odds(in_order(dist, ("attacker", "defender", "draw")))
    return res

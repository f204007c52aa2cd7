"""High Crusade hand to hand in a game (seed 000): each side's figure fights with the weapon it
carries, the loser's figure is removed, and both Fireteams have fought this move (whether they
may still fire is the reading fire-after-melee). Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hc_cli.plugin.game_rules import Fill, Flags
from hc_cli.rulesets.high_crusade.fireteam import weapons_text
from hc_cli.rulesets.high_crusade.game_morale import remove_casualties

if TYPE_CHECKING:
    from hc_cli.rulesets.high_crusade.state import HcState, HcUnit


def fill_melee(
    me: HcUnit, name: str, target: HcUnit, flags: Flags, refusal: str | None, unit: str = ""
) -> Fill:
    """The fight filled in: each side's troop and the weapon its fighting figure carries; a
    weapon no figure of the Fireteam carries is refused."""
    filled = {
        "attacker": me["troop"],
        "attacker_weapon": _fighting_weapon(me),
        "defender": target["troop"],
        "defender_weapon": _fighting_weapon(target),
    }
    notes = []
    for key, value in filled.items():
        if key not in flags:
            flags[key] = value
            notes.append(f"{key.replace('_', ' ')} {value}")
    for who, fighter, key in ((unit, me, "attacker_weapon"), (name, target, "defender_weapon")):
        weapon = str(flags[key]).lower()
        if refusal is None and not fighter["weapons"].get(weapon):
            refusal = (
                f"no figure of {who} carries {weapon} ({weapons_text(fighter['weapons'])}): "
                "the figure fighting carries its own weapon"
            )
    return Fill(flags, refusal=refusal, notes=notes)


def routed_attacker(unit: str, enemy: str, later: bool) -> str:
    """Why a routed Fireteam does not attack (seed 001: it makes a full Advance move toward its
    own table edge every move until rallied), and the fight as the enemy that reaches it
    fights it (`later`: once the move is on at the enemy's step)."""
    theirs = f"hc melee {enemy} --at {unit}"
    return (
        f"{unit} is routed: it retreats toward its own table edge until rallied and brings no "
        "base into contact (reading: routed-attack = defends-only); an enemy that reaches it "
        "still fights it: " + (f"hc game next, then {theirs}" if later else theirs)
    )


def fought(state: HcState, name: str, target: str, flags: Flags, outcome: str) -> list[str]:
    """A logged fight into the state: the loser's fighting figure removed, both have fought."""
    loser, weapon = {
        "attacker": (target, flags.get("defender_weapon")),
        "defender": (name, flags.get("attacker_weapon")),
    }.get(outcome, (None, None))
    state["units"][name]["fought"] = state["units"][target]["fought"] = True
    if loser is None:
        return ["a draw: both stay"]
    notes = [f"{loser} loses the fight: one figure removed"]
    remove_casualties(state, loser, 1, notes, str(weapon).lower() if weapon else None)
    return notes


def _fighting_weapon(unit: HcUnit) -> str:
    """The weapon of the figure that fights hand to hand: the main weapon while a figure
    carries it, else the first weapon a figure left carries."""
    if unit["weapons"].get(unit["weapon"]):
        return unit["weapon"]
    return next((w for w, n in unit["weapons"].items() if n), unit["weapon"])

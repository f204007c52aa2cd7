"""Twilight: 2000 hits' effects: damage dice read as a total, where each hit lands, its damage
and an NPC's quick kill. Pure."""

from __future__ import annotations

from hc_cli.core.dice import DiceSource, Roll
from hc_cli.core.model import Resolution
from hc_cli.core.numbers import is_whole
from hc_cli.core.roll import parse as parse_dice
from hc_cli.core.roll import plain_dice, plain_total
from hc_cli.rulesets.t2k.request import QUICK_KILL_LOCATIONS, HitEffects

# ---------------------------------------------------------------------------------------------
# The dice


def roll_damage(expression: str, dice: DiceSource, purpose: str) -> tuple[int, list[Roll]]:
    if is_whole(expression):
        return int(expression), []
    terms = parse_dice(expression)
    each = plain_dice(terms)
    wanted = [(term.sides, purpose) for term in each]
    # Rolled together, read as a total.
    rolls = dice.sum_of(purpose, wanted, tuple(t.sign for t in each)) if wanted else []
    return plain_total(terms, rolls), rolls


def land_hits(
    effects: HitEffects,
    hits: int,
    dice: DiceSource,
    res: Resolution,
    who: str = "",
    dead: bool = False,
) -> tuple[bool, list[dict]]:
    """Each hit's location and damage ("determine hit location and damage normally"); on an
    NPC (the target, or a danger zone target named by --zone-npc; never the other of a rider),
    a hit in head or chest may quick-kill. `who` names whose hits they are when not the
    target's (a zone target, the other): --location and --damage-done are the target's. The
    hits after a quick kill (or on one `dead` already, by an earlier burst of the action) land
    on a dead man: nothing is rolled or asked for them. Returns whether a hit killed outright,
    and where each rolled hit landed with its damage."""
    npc = effects.npc if not who else who in effects.zone_npc
    killed = False
    landed = []
    for n in range(1, hits + 1):
        label = (f"{who} " if who else "") + (f"hit {n}" if hits > 1 else "hit")
        if killed or dead:
            later = f"hits {n}-{hits}" if n < hits else f"hit {n}" if hits > 1 else "the hit"
            whose = who or "the target"
            res.explanation.append(f"{later}: {whose} is killed already: nothing rolled")
            break
        where = effects.location if not who else None
        if where is None:
            roll = dice.roll(effects.location_die, f"{label} location")
            res.rolls.append(roll)
            where = next(name for top, name in effects.locations if roll.value <= top)
        if effects.damage_done is not None and not who:
            damage = effects.damage_done
        elif effects.damage:
            damage, damage_rolls = roll_damage(effects.damage, dice, f"{label} damage")
            res.rolls.extend(damage_rolls)
        else:
            damage = None
        line = f"{label}: {where}" + (f", damage {damage}" if damage is not None else "")
        landed.append({"location": where, "damage": damage})
        if npc and where in QUICK_KILL_LOCATIONS and damage is not None:
            kill = dice.roll(effects.kill_die, f"{label} quick kill")
            res.rolls.append(kill)
            top = effects.kill_die
            if kill.value <= damage and kill.value != top:
                killed = True
                line += f"; quick kill: d{top} {kill.value} <= damage {damage}: killed outright"
            else:
                line += f"; quick kill: d{top} {kill.value}" + (
                    f" (a {top} never kills): no" if kill.value == top else f" > {damage}: no"
                )
        res.explanation.append(line)
    return killed, landed

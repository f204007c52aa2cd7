"""What a logged Twilight: 2000 fire does to the characters it hit (seed 002): the target's hits
and the danger zone's alike, each its damage, the wound level the table gives for the damage
in all, out of the fight, and a quick kill where the result reports one. Read from the result
alone (a burst of several bursts reports each burst's hits in its own part). Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.rulesets.t2k.game_order import initiative_now, wound_of

if TYPE_CHECKING:
    from hc_cli.rulesets.t2k.state import T2kState


def struck(result: dict[str, Any], target: str | None) -> dict[str, tuple[list[dict], bool]]:
    """Who the fire hit: name -> (each hit's location and damage, killed outright), the
    target's hits and each danger zone target's, from every part of the result (the whole, or
    each burst)."""
    parts = [result, *(result.get("shots") or [])]
    hit: dict[str, tuple[list[dict], bool]] = {}

    def add(name: str, effects: list[dict], killed: bool) -> None:
        landed, was_killed = hit.get(name, ([], False))
        hit[name] = ([*landed, *effects], was_killed or killed)

    for part in parts:
        if target is not None:
            add(target, part.get("hit_effects") or [], part.get("outcome") == "quick-kill")
        kills = part.get("zone_kills") or []
        for name, effects in (part.get("zone_effects") or {}).items():
            add(name, effects, name in kills)
    return {name: taken for name, taken in hit.items() if taken != ([], False)}


def hits_text(hits: list[dict]) -> str:
    """Each hit a character took, where and its damage: "chest 9, arm 3"."""
    return ", ".join(
        h["location"] + (f" {h['damage']}" if h.get("damage") is not None else "") for h in hits
    )


def take_damage(state: T2kState, name: str, hits: list[dict], killed: bool, by: str) -> list[str]:
    """The hits into the character's state (each kept, where it landed, its damage and who
    fired it), and what they changed, in words: the wound level is always the table's for the
    damage in all (it is worked out from it, never kept)."""
    unit = state["units"][name]
    before = wound_of(unit)
    notes = []
    unit["hits"] += [{"location": h["location"], "damage": h.get("damage"), "by": by} for h in hits]
    damage = sum(h.get("damage") or 0 for h in hits)
    if damage:
        unit["damage"] += damage
        notes.append(f"{name}: {damage} damage ({hits_text(hits)}), {unit['damage']} in all")
    going = not unit["out"] and (killed or unit["damage"] >= unit["out_damage"])
    level = wound_of(unit)
    if level != before:
        line = f"{name} is {level}ly wounded"
        if not (unit["out"] or going):
            reading = state["readings"]["wound-initiative"]
            off = unit["reductions"].get(level, 0)
            floor = ", never below 0" if off > unit["initiative"] else ""
            line += (
                f": Initiative {unit['initiative']} - {off}{floor} = {initiative_now(unit)}, "
                f"his place in the order from the {reading.replace('-', ' ')} (reading: "
                f"wound-initiative = {reading})"
            )
        notes.append(line)
    if going:
        unit["out"] = True
        unit["killed"] = killed
        notes.append(
            f"{name} is killed outright (a quick kill)"
            if killed
            else f"{name} is out of the fight ({unit['out_damage']} damage or more)"
        )
    return notes

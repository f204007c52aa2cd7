"""A burst's danger zone dice kept in a Twilight: 2000 game (seed 002, Danger Zone): "Half of
the remainder after the second roll are saved for targets entering the zone for the remainder
of the turn". The game keeps each burst's kept dice with the burst's range and weapon, and
`hc fire FIRER --kept all --at TARGET` (or `--kept N` of them) rolls them at a character who
enters the zone, whenever he does: it is no action of the firer's, and uses no rounds. How long
they keep is the reading zone-dice-kept. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError, did_you_mean
from hc_cli.core.words import count
from hc_cli.plugin.game_rules import Fill, Flags, known_unit, possessive

if TYPE_CHECKING:
    from hc_cli.rulesets.t2k.state import T2kState

READING = "zone-dice-kept"
ALL = "all"  # --kept all: every die the burst kept (the game knows how many)


def kept_count(value: Any, kept: int | None = None) -> int:
    """--kept N or --kept all as a number of dice: all is what the burst kept, which only a
    game knows (`kept`)."""
    text = str(value).strip().lower()
    if text == ALL and kept is not None:
        return kept
    if text == ALL:
        raise HcError(
            "--kept all: only a game knows how many dice the burst kept",
            "give --kept N, the dice the burst kept, or fire in a game (--game FILE)",
        )
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise HcError(
            f"--kept {value}: not a number of dice",
            did_you_mean(text, [ALL], "give --kept N (1 or more) or all"),
        )
    return int(text)


def kept_back(result: dict[str, Any]) -> int:
    """The dice a burst (or each of several bursts) kept for its danger zone."""
    parts = result.get("shots") or [result]
    return sum(int(part.get("kept_back") or 0) for part in parts)


def keep(state: T2kState, name: str, entry: dict[str, Any], weapon: str) -> list[str]:
    """A burst's kept dice into the state, with what rolling them again needs."""
    dice = kept_back(entry["result"])
    if not dice or entry["flags"].get("kept"):
        return []
    state["zone_kept"].append(
        {
            "firer": name,
            "dice": dice,
            "range": entry["flags"].get("range"),
            "weapon": weapon,
            "at": (entry["game"].get("at") or [None])[0],
            "combat_turn": state["combat_turn"],
            "action_turn": state["action_turn"],
        }
    )
    return [f"{name} keeps {count(dice, 'die')} for targets entering the zone: {_hint(name)}"]


def _hint(name: str, dice: int | None = None) -> str:
    """The command that rolls the kept dice; with `dice`, the most --kept N may be."""
    return f"hc fire {name} --kept all --at NAME" + (
        f" (or --kept N, up to {dice})" if dice and dice > 1 else ""
    )


def kept_now(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The kept dice still to be rolled: this combat turn's (or this action turn's, as the
    reading zone-dice-kept says)."""
    per_action = state["readings"].get(READING) == "action-turn"
    return [
        k
        for k in state["zone_kept"]
        if k["dice"]
        and k["combat_turn"] == state["combat_turn"]
        and (not per_action or k["action_turn"] == state["action_turn"])
    ]


def lapsed(state: T2kState, before: list[dict[str, Any]]) -> list[str]:
    """What of `before` (kept dice still to be rolled) the turn's end let go, in words."""
    now = [id(k) for k in kept_now(state)]
    reading = state["readings"].get(READING, "combat-turn")
    return [
        f"{possessive(k['firer'])} {count(k['dice'], 'die')} kept for the zone of his burst "
        f"at {k['at']} {'lapses' if k['dice'] == 1 else 'lapse'}: the "
        f"{reading.replace('-', ' ')} is over (reading: {READING} = {reading})"
        for k in before
        if id(k) not in now
    ]


def newest_kept(state: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    mine = [k for k in kept_now(state) if k["firer"] == name]
    return mine[-1] if mine else None


def fill_kept(state: T2kState, unit: str, at: list[str], flags: Flags) -> Fill:
    """`hc fire FIRER --kept N --at TARGET`: the burst's kept dice at a character entering its
    zone, filled from the burst; whoever's action it is."""
    kept = newest_kept(state, unit)
    reading = state["readings"].get(READING, "combat-turn")
    if kept is None:
        raise HcError(
            f"{unit} has no danger zone dice kept in this "
            f"{'action' if reading == 'action-turn' else 'combat'} turn (reading: {READING} = "
            f"{reading})",
            "a burst keeps half the dice its danger zone left: fire one with --shot burst",
        )
    want = kept_count(flags["kept"], kept["dice"])
    if want > kept["dice"]:
        raise HcError(
            f"--kept {want}: {unit} has {count(kept['dice'], 'die')} kept",
            _hint(unit, kept["dice"]),
        )
    flags["kept"] = want  # the entry keeps the number: all is what was kept then
    if len(at) != 1:
        raise HcError("the kept dice go at one character entering the zone", _hint(unit))
    target = known_unit(state, at[0], "--at")  # a typo is told as any --at's is
    if at[0] == unit:
        raise HcError(f"--at {unit}: the dice of his own burst go at another", _hint(unit))
    if target["out"]:
        raise HcError(f"{at[0]} is out of the fight", "choose another target")
    notes = []
    for key, value in (("shot", "burst"), ("range", kept["range"]), ("weapon", kept["weapon"])):
        if key not in flags and value is not None:
            flags[key] = value
            shown = f"{value:g}" if key == "range" else value
            notes.append(f"{key} {shown} (the burst's)")
    me = state["units"][unit]
    flags.setdefault("asset", me["asset"])
    flags.setdefault("strength", me["strength"])
    if target["npc"] and "npc" not in flags:
        flags["npc"] = True
        notes.append(f"{at[0]} is an NPC")
    notes.append(f"{count(want, 'die')} of {kept['dice']} kept, at {at[0]} entering the zone")
    return Fill(flags, notes=notes)


def spend(state: T2kState, name: str, entry: dict[str, Any]) -> list[str]:
    kept = newest_kept(state, name)
    if kept is None:  # the fill made sure of it; an entry of a forged file has its say
        return []
    kept["dice"] -= int(entry["flags"]["kept"])
    left = f"{count(kept['dice'], 'die')} kept left" if kept["dice"] else "no die kept left"
    return [f"{name}'s danger zone: {left}"]

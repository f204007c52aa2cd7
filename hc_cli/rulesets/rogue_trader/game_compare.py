"""Rogue Trader `hc compare` numbers of a shot, from its exact odds and the game as it stands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.plugin.game_rules import count_of, mean_of
from hc_cli.rulesets.rogue_trader.game_fire import (
    fired_models,
    living,
    model_label,
    strike_order,
    wounds_left,
)

if TYPE_CHECKING:
    from hc_cli.rulesets.rogue_trader.state import RtState


def compare_numbers(state: RtState, target: str, odds: Any) -> dict[str, Any]:
    """The chance a model of the target is removed, and the mean casualties and wounds, each
    capped by what the target has left (E[min(X, left)], as `hc luck` caps them; a single
    shot by the model it strikes, its damage past that model's wounds lost). An area weapon's
    counts are of its marker on target: a deviated marker counts no casualty at the target
    (where it lands is placed and resolved again, hc fire --placed)."""
    on = 1 - odds.outcomes.get("deviated", 0)
    suffix = " if on target" if "deviated" in odds.outcomes else ""
    them = state["units"][target]
    left = {"casualties": len(living(them)), "wounds": wounds_left(state, target)}
    if "casualties" + suffix not in odds.distributions:  # one shot, at the model first struck
        first = strike_order(them)[0]
        left = {"casualties": 1, "wounds": them["w"] - them["taken"][first]}
    counted: dict[str, dict[int, Any]] = {}
    for name, single in (("casualties", {"casualty": 1}), ("wounds", {})):
        found = odds.distributions.get(name + suffix)
        dist = count_of(odds, name, single) if found is None else dict(found)
        most = left[name]
        capped: dict[int, Any] = {0: 1 - on}
        for k, p in dist.items():
            k = k if most is None else min(k, most)
            capped[k] = capped.get(k, 0) + p * on
        counted[name] = capped
    return {
        "p_removed": float(1 - counted["casualties"].get(0, 0)),
        "mean_casualties": mean_of(counted["casualties"]),
        "mean_wounds": mean_of(counted["wounds"]),
        "_counted": ("casualties", counted["casualties"]),
    }


def into_melee(state: RtState, unit: str, target: str) -> tuple[str, str, dict[str, Any]] | None:
    """A target engaged in hand to hand is fired at only into the combat, a model at a time
    (seed 003; `hc fire UNIT:N --at TARGET --into-melee`): compared as the shot of the firer's
    next model that has not fired, its hits split between the enemy and a friend."""
    units = state["units"]
    me = units[unit]
    if not units[target]["engaged"] or me["engaged"]:
        return None
    ready = [m for m in living(me) if m not in fired_models(me)]
    firer = model_label(unit, me, ready[0]) if ready else unit
    return "into melee", firer, {"into_melee": True}

"""Twilight: 2000 reloading (seed 002, action 4): "Reload: Bx. 1 action. R 3 bullets per turn.
R 6 bullets with speed loader. I 3 bullets per turn. B 2 actions for one person. B 1 action for
two persons. C 5 actions." How long a reload takes, by how the weapon is fed; no dice. Pure."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from hc_cli.core.errors import HcError, UnknownName
from hc_cli.core.model import Odds, Resolution
from hc_cli.core.words import count
from hc_cli.rulesets.t2k.tables import RULESET, T2kTables
from hc_cli.tables import readings

if TYPE_CHECKING:
    from hc_cli.core.dice import DiceSource


@dataclass(frozen=True, slots=True)
class ReloadRequest:
    weapon: str | None = None
    feed: str | None = None
    magazine: int | None = None
    speed_loader: bool = False
    helper: bool = False


def plan_reload(t: T2kTables, req: ReloadRequest) -> Resolution:
    res = Resolution("reload", RULESET, asdict(req))  # every field of the request
    weapon = t.weapon(req.weapon) if req.weapon else None
    key = req.feed or (weapon.feed if weapon else None)
    if key is None:
        raise HcError(
            f"how is {weapon.key if weapon else 'the weapon'} loaded?",
            "give --feed " + "|".join(t.feeds) + (", or --weapon NAME" if weapon is None else ""),
        )
    feed = t.feeds.get(key.lower())
    if feed is None:
        raise UnknownName("feed", key, t.feeds)
    magazine = req.magazine or (weapon.magazine if weapon else None)
    if magazine is not None and magazine < 1:
        raise HcError(f"--magazine {magazine} holds nothing", "give 1 or more rounds")
    if weapon is not None:
        res.inputs["weapon"] = weapon.key
        if weapon.magazine is not None:
            res.note_source(weapon, "magazine", f"{weapon.key} magazine {weapon.magazine}")
    res.fields.update(feed=feed.key, magazine=magazine)
    if req.helper and not feed.actions_with_helper:
        raise HcError(f"a second person does not speed a {feed.name}", "leave out --helper")
    if req.speed_loader and not feed.speed_loader_rounds:
        raise HcError(f"a speed loader is for a revolver, not a {feed.name}", "leave out it")
    if feed.actions is not None:
        actions = (feed.actions_with_helper if req.helper else None) or feed.actions
        res.fields.update(actions=actions)
        res.outcome = "reloaded" if actions == 1 else "reloading"
        res.headline = f"{feed.name}: a full load in {count(actions, 'action')}"
        res.explanation.append(
            f"{feed.key} ({feed.name}): {count(actions, 'action')}"
            + (" for two persons" if req.helper else "")
            + (f"; then {magazine} rounds" if magazine else "")
        )
        return res
    per = feed.speed_loader_rounds if req.speed_loader else feed.rounds_per_action
    assert per is not None
    reading = readings.choose(t.merged, "reload-per-turn", res)
    res.fields.update(rounds_per_action=per)
    res.outcome = "reloading"
    when = "each action spent reloading" if reading == "action-turn" else "each combat turn"
    res.headline = f"{feed.name}: {per} rounds in {when}"
    if magazine:
        actions = math.ceil(magazine / per)
        res.fields.update(actions=actions)
        res.explanation.append(
            f"{feed.key} ({feed.name}): {per} rounds in {when}"
            + (" (a speed loader)" if req.speed_loader else "")
            + f": a full load of {magazine} in {count(actions, 'action')}"
        )
    return res


def resolve_reload(t: T2kTables, req: ReloadRequest, dice: DiceSource) -> Resolution:
    return plan_reload(t, req)


def reload_odds(t: T2kTables, req: ReloadRequest) -> Resolution:
    from fractions import Fraction

    res = plan_reload(t, req)
    res.odds = Odds({res.outcome or "reloading": Fraction(1)})
    return res

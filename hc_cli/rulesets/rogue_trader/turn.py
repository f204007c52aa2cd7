"""Rogue Trader's turn beyond shooting (seed 003): a model declared hiding, and the rally of
routing troops in the rallying phase. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from hc_cli.core.dice import DiceSource
from hc_cli.core.errors import HcError
from hc_cli.core.model import Odds, Resolution
from hc_cli.core.words import count
from hc_cli.rulesets.rogue_trader.request import characteristic
from hc_cli.rulesets.rogue_trader.tables import RULESET, RogueTraderTables
from hc_cli.tables import readings

HIDING = (
    "hiding behind cover: it cannot be targeted upon during the enemy's following turn",
    "firing gives its position away; it cannot go into or stay in hiding in a turn it fires",
    "it cannot go into hiding during or after a reserve move, nor make one while hiding",
    'enemies spot it within their Initiative in inches (humans, I 3: 3"), and may fire at it '
    "then; an area weapon may always aim at the cover it hides in",
)


@dataclass(frozen=True, slots=True)
class HideRequest:
    pass


def resolve_hide(t: RogueTraderTables, req: HideRequest, dice: DiceSource) -> Resolution:
    res = Resolution("hide", RULESET, {})
    res.outcome = "hidden"
    res.headline = "hidden: it cannot be targeted in the enemy's following turn"
    res.explanation.extend(HIDING)
    return res


def hide_odds(t: RogueTraderTables, req: HideRequest) -> Resolution:
    raise HcError("hiding rolls no dice: there are no odds to give", "leave out --odds")


@dataclass(frozen=True, slots=True)
class RallyRequest:
    profile: str | None = None
    ld: int | None = None


def plan_rally(t: RogueTraderTables, req: RallyRequest) -> tuple[Resolution, int, str]:
    res = Resolution("rally", RULESET, {"profile": req.profile, "ld": req.ld})
    test = readings.choose(t.merged, "rally-test", res)
    name = "cl" if test == "cool" else "ld"
    value = characteristic(t, req.ld, req.profile, name, res)
    if value is None:
        raise HcError(
            "no routing troops given", "give --profile PROFILE (e.g. --profile ork) or --ld N"
        )
    res.fields.update(needed=value)
    return res, int(value), name.capitalize()


def rally_roll(res: Resolution, needed: int, name: str, dice: DiceSource) -> Resolution:
    """2D6 rolled together: equal to or under the characteristic rallies the troops."""
    rolls = dice.batch("rally", [(6, "rally"), (6, "rally")])
    res.rolls.extend(rolls)
    total = sum(r.value for r in rolls)
    res.fields["total"] = total
    res.outcome = "rallied" if total <= needed else "routing"
    res.headline = f"{res.outcome}: 2D6 {total}, needs {needed} or less"
    res.explanation.append(
        f"2D6 {rolls[0].value} + {rolls[1].value} = {total}: "
        + (
            f"{total} <= {name} {needed}, rallied"
            if total <= needed
            else f"over {name} {needed}: still routing"
        )  # fmt: skip
    )
    return res


def resolve_rally(t: RogueTraderTables, req: RallyRequest, dice: DiceSource) -> Resolution:
    res, needed, name = plan_rally(t, req)
    return rally_roll(res, needed, name, dice)


def rally_odds(t: RogueTraderTables, req: RallyRequest) -> Resolution:
    from fractions import Fraction

    from hc_cli.core.odds import enumerate_outcomes

    res, needed, name = plan_rally(t, req)
    outcomes = enumerate_outcomes(
        lambda d: rally_roll(Resolution("rally", RULESET, {}), needed, name, d),
        lambda r: r.outcome,
    )
    res.odds = Odds({k: outcomes.get(k, Fraction(0)) for k in ("rallied", "routing")})
    return res


@dataclass(frozen=True, slots=True)
class MeleeRequest:
    """What a hand-to-hand fight did, as the players say: models of the target removed, wounds
    on its next model, or the combat broken off. The seed stops before the blows: hc rolls
    none."""

    removed: int = 0
    wounds: int = 0
    broke_off: bool = False


def resolve_melee(t: RogueTraderTables, req: MeleeRequest, dice: DiceSource) -> Resolution:
    res = Resolution("melee", RULESET, {"removed": req.removed, "wounds": req.wounds,
                                        "broke_off": req.broke_off})  # fmt: skip
    if req.removed < 0 or req.wounds < 0:
        raise HcError("--removed and --wounds count models and wounds", "give them as 0 or more")
    if not (req.removed or req.wounds or req.broke_off):
        raise HcError(
            "hc melee records what the hand-to-hand fight did: nothing given",
            "give --removed N (models removed), --wounds N (wounds on the next model), or "
            "--break (the combat broke off)",
        )
    done = [f"{req.removed} removed"] if req.removed else []
    done += [f"{count(req.wounds, 'wound')} on the next model"] if req.wounds else []
    done += ["the combat broke off"] if req.broke_off else []
    res.outcome = "broke off" if req.broke_off else "fought"
    res.headline = "hand to hand: " + "; ".join(done)
    res.explanation.append(
        "the players fight the blows and say what they did: hc rolls no dice for them (seed "
        "003 stops before the blows); all models in hand-to-hand combat may fight, no matter "
        "whose turn it is"
    )
    return res


def melee_odds(t: RogueTraderTables, req: MeleeRequest) -> Resolution:
    raise HcError("hc melee rolls no dice: there are no odds to give", "leave out --odds")

"""A Rogue Trader volley at a unit, planned: how many of its shots come from wounded models,
and the wounds left on each model fired at (a unit's models in the order they are fired at,
the wounded first, or a model a listed target); and how the shots are shared among them
(the reading volley-shares), in words. Pure."""

from __future__ import annotations

from hc_cli.core.errors import HcError
from hc_cli.core.words import count
from hc_cli.rulesets.rogue_trader.request import FireRequest, ShotSpec

SHARES = {
    "spread": "in turn, the wounded first (volley-shares = spread)",
    "next-standing": "the wounds on one model until it is removed, the wounded first "
    "(volley-shares = next-standing)",
}


def wounded_firers(req: FireRequest, mode: str) -> int:
    """How many of a unit's shots come from wounded models (the first ones): -1 on those."""
    if not req.firers_wounded:
        return 0
    if mode != "unit":
        raise HcError(
            "--firers-wounded N is for a unit's --shots",
            "one firer: --firer-wounded if it is wounded",
        )
    if req.firers_wounded > req.shots:
        raise HcError(
            f"--firers-wounded {req.firers_wounded}: more than the {req.shots} shots",
            f"give 0..{req.shots}, or --firer-wounded when every firer is wounded",
        )
    return req.firers_wounded


def models_left(req: FireRequest, mode: str, specs: list[ShotSpec]) -> list[int]:
    """The wounds left on each model fired at: a unit's models in the order they are fired at
    (--models, the wounded first), or the model of each spec (one a target listed, or a model
    under an area marker). --wounded gives the wounds they have taken, in that order."""
    first = specs[0].victim
    if mode == "single" and req.models is not None:  # one shot at the first of the models
        return models_left(req, "unit", specs)[:1]
    if mode == "unit":
        many = 1 if req.one_model else req.models if req.models is not None else req.shots
        names = [first.label] * many
        base = [first.wounds_left] * many
    else:
        if req.models is not None:
            raise HcError(
                "--models N is for a unit's --shots at another unit",
                "give --shots N with one --target; following fire and an area marker name "
                "their models with --target (or --under N)",
            )
        names = [spec.victim.label for spec in specs]
        base = [spec.victim.wounds_left for spec in specs]
    if not req.wounded:
        return base
    if mode == "following":  # one value a model, in the order each is first listed
        distinct = list(dict.fromkeys(spec.model for spec in specs))
        if len(req.wounded) > len(distinct):
            raise HcError(
                f"{len(req.wounded)} x --wounded for {count(len(distinct), 'model')} listed",
                "give at most one --wounded for each model of the --target list, in order",
            )
        taken = dict(zip(distinct, req.wounded, strict=False))
        values = [taken.get(spec.model, 0) for spec in specs]
        wounds = [spec.victim.wounds for spec in specs]
    else:
        if len(req.wounded) > len(names):
            raise HcError(
                f"{len(req.wounded)} x --wounded for {count(len(names), 'model')} fired at",
                "give at most one --wounded for each model (with --models N, up to N)",
            )
        values = list(req.wounded) + [0] * (len(names) - len(req.wounded))
        wounds = [first.wounds] * len(names) if mode == "unit" else [s.victim.wounds for s in specs]
    for value, w, name in zip(values, wounds, names, strict=True):
        if value >= w:
            raise HcError(
                f"--wounded {value} does not fit W {w} of {name}",
                f"give 0..{w - 1}: a model with W wounds taken is already a casualty",
            )
    return [w - value for value, w in zip(values, wounds, strict=True)]

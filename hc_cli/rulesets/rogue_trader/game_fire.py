"""A Rogue Trader fire filled in from the game (seed 003): which models fire (a model shoots
once a turn; the wounded first, their shots at -1), which models of which units they fire at
and in what order (the wounded first), what the game knows of the target (how far it moved in
its last turn, whether it hides) and of the friend a shot into hand to hand may hit. What the
fill puts in `meta` is how the fold finds the game's models again in the result's `struck`.
Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.core.words import count
from hc_cli.plugin.game_rules import Fill, enemy_check, known_unit, possessive

if TYPE_CHECKING:
    from hc_cli.rulesets.rogue_trader.state import RtState, RtUnit


def living(unit: RtUnit) -> list[int]:
    return [i for i, taken in enumerate(unit["taken"]) if taken < unit["w"]]


def model_label(name: str, unit: RtUnit, model: int) -> str:
    return f"{name}:{model + 1}" if len(unit["taken"]) > 1 else name


def fired_models(unit: RtUnit) -> list[int]:
    """The models that have fired this turn (a game file before models kept a yes or no)."""
    fired = unit["fired"]
    if isinstance(fired, bool):
        return living(unit) if fired else []
    return fired


def unit_and_model(state: RtState, word: str, role: str) -> tuple[str, int | None]:
    """`boyz` or `boyz:3` (its third model, as the roster counts them): the unit, the model."""
    name, _, number = word.partition(":")
    unit = known_unit(state, name, role)
    if not number:
        return name, None
    if not (number.isascii() and number.isdigit()) or not 1 <= int(number) <= len(unit["taken"]):
        raise HcError(
            f"{word}: {name} has models 1..{len(unit['taken'])}", f"give {name}:N, or {name}"
        )
    model = int(number) - 1
    if model not in living(unit):
        raise HcError(f"{word} is removed: it acts and is shot no more", f"give {name}")
    return name, model


def strike_order(unit: RtUnit) -> list[int]:
    """A unit's models still standing, in the order a volley strikes them: the wounded first
    (the most wounded first), then the rest, each in the roster's order."""
    return sorted(living(unit), key=lambda i: -unit["taken"][i])


def _trimmed(taken: list[int]) -> list[int]:
    """--wounded as few as it can be: the trailing unwounded models need not be named."""
    while taken and not taken[-1]:
        taken = taken[:-1]
    return taken


# What the game keeps of the models fired at: given by hand, the result would strike other
# models than the game's, and the two would part.
KEPT = ("target", "models", "wounded", "wounds_taken", "wounds_left", "one_model", "shots")


def fill_fire(state, name, model, me, at, flags, tables, refusal) -> Fill:
    if not at:
        raise HcError(f"hc fire {name} needs its target", f"hc fire {name} --at UNIT")
    given = [key for key in KEPT if key in flags and (key != "shots" or flags[key] > 1 and
             model is not None)]  # fmt: skip
    if given:
        from hc_cli.plugin.execute import spell_option

        raise HcError(
            f"in a game, {spell_option(given[0])} is the game's to fill: it keeps the models "
            "fired at, and their wounds",
            "leave it out (--at UNIT:N names one model), or fire outside the game: --game none",
        )
    notes: list[str] = []
    if "firer" not in flags and "bs" not in flags:
        flags["firer"] = me["profile"]
        notes.append(f"firer {me['profile']}")
    if "weapon" not in flags and "strength" not in flags:
        if me["weapon"] is None:
            raise HcError(f"{name} carries no weapon in the roster", "give --weapon NAME")
        flags["weapon"] = me["weapon"]
        notes.append(f"weapon {me['weapon']}")
    if flags.get("mount"):
        raise HcError(
            "the roster keeps no mounts: a game cannot keep what a shot does to one",
            "fire at the mount as a unit of its own, or outside the game: --game none",
        )
    weapon = tables.weapons.get(str(flags.get("weapon", "")).lower())
    area = flags.get("radius") is not None or (weapon is not None and weapon.area)
    firers = _firers(name, model, me, area, flags, notes)
    if refusal is None and (me["charged"] or me["engaged"]):
        refusal = (
            f"{name} is engaged in hand-to-hand combat"
            + (f" with {', '.join(me['engaged'])}" if me["engaged"] else "")
            + ": troops who have entered hand-to-hand combat may not fire during the shooting "
            "part of the turn (seed 003)"
        )
    if refusal is None and flags.get("placed") and not _placing(me, firers):
        refusal = (
            f"{name if model is None else model_label(name, me, model)} has no deviated marker "
            "to place: --placed resolves a marker where it landed once it deviated; a new one "
            f"rolls for where it lands (hc fire {name} --at UNIT)"
        )
    if refusal is None and not firers:
        refusal = (
            f"{name}:{model + 1} has fired this turn" if model is not None
            else f"every model of {name} has fired this turn"
        )  # fmt: skip
    firers = firers or ([model] if model is not None else living(me))
    meta: dict[str, Any] = {"firers": firers}
    if me["moved"] and "moved" not in flags:
        flags["moved"] = True
        notes.append("moved this turn")
    wounded = sum(1 for i in firers if me["taken"][i])
    if wounded and "firer_wounded" not in flags and "firers_wounded" not in flags:
        if wounded == len(firers):
            flags["firer_wounded"] = True
            notes.append("the firer is wounded" if wounded == 1 else "the firers are wounded")
        else:
            flags["firers_wounded"] = wounded
            notes.append(f"{count(wounded, 'firer')} wounded (-1 on their shots)")
    targets = _targets(state, name, me, at, bool(flags.get("placed")) and _placing(me, firers),
                       notes)  # fmt: skip
    if refusal is None:
        refusal = _combat_refusal(state, name, targets, flags, notes)
    _fill_targets(state, targets, area, flags, meta, notes)
    _fill_friend(state, name, flags, meta, notes)
    first = state["units"][targets[0][0]]
    if first.get("inches", 0) and "target_moved" not in flags and first["side"] != me["side"]:
        flags["target_moved"] = first["inches"]
        notes.append(f'{targets[0][0]} moved {first["inches"]:g}" in its last turn')
    if refusal is None:
        refusal = _hidden_refusal(state, name, me, targets, area, flags, notes)
    return Fill(flags, meta=meta, refusal=refusal, notes=notes)


def _targets(
    state: RtState, name: str, me: RtUnit, at: list[str], placing: bool, notes: list[str]
) -> list[tuple[str, int | None]]:
    """The units (and models) fired at: the other side's, standing; a deviated marker placed
    where it landed strikes whoever is under it, the firer's own side too."""
    targets = [unit_and_model(state, word, "--at") for word in at]
    if placing and any(state["units"][t]["side"] == me["side"] for t, _ in targets):
        notes.append("a deviated marker strikes the models under it where it landed, friend or foe")
    for target, _ in targets:
        if not placing:
            enemy_check(state, name, target)
        if not living(state["units"][target]):
            raise HcError(f"every model of {target} is removed", "choose another target")
    return targets


def _placing(me: RtUnit, firers: list[int]) -> bool:
    return any(m["model"] in firers for m in me["markers"])


def markers_moved(
    unit: RtUnit, name: str, firers: list[int], entry: dict, deviated: bool
) -> list[str]:
    """A logged area shot into the markers waiting: a marker placed is resolved, one that
    deviated waits to be placed where it landed (each its own, however many wait)."""
    notes = []
    if entry["flags"].get("placed"):
        unit["markers"] = [m for m in unit["markers"] if m["model"] not in firers]
    if deviated:
        fired_at = (entry["result"].get("inputs") or {}).get("range")
        for model in firers:
            unit["markers"].append({"model": model, "range": fired_at})
            notes.append(
                f"{possessive(name)} marker deviated: resolve the models under it where it "
                f"landed (hc fire {model_label(name, unit, model)} --at UNIT --placed --under N)"
            )
    return notes


def _firers(name, model, me, area, flags, notes) -> list[int]:
    """The models that fire: the one named, or those of the unit not yet fired this turn,
    the wounded first (their shots are the first, at -1); an area weapon fires one."""
    if flags.get("shots", 1) < 1:
        raise HcError(f"--shots {flags['shots']} fires nothing", "give --shots 1 or more")
    fired = set(fired_models(me))
    waiting = [m for m in me["markers"] if model in (None, m["model"])]
    if flags.get("placed") and waiting:  # the oldest first, or the named model's
        marker = waiting[0]
        notes.append(
            f"the marker {model_label(name, me, marker['model'])} fired this turn deviated: "
            "placed where it landed, the same shot"
        )
        if "range" not in flags and marker["range"] is not None:
            flags["range"] = marker["range"]
            notes.append(f'range {marker["range"]:g}" (the shot that deviated)')
        return [marker["model"]]
    if model is not None:
        return [] if model in fired else [model]
    ready = [i for i in living(me) if i not in fired]
    ready.sort(key=lambda i: not me["taken"][i])
    if area and len(ready) > 1:
        notes.append(
            f"an area weapon: one marker a model; {model_label(name, me, ready[0])} fires "
            f"(hc fire {name} again for the next)"
        )
        ready = ready[:1]
    if "shots" not in flags and len(ready) > 1:
        flags["shots"] = len(ready)
        notes.append(f"{len(ready)} shots (a model each)")
    elif flags.get("shots", 1) > max(len(ready), 1):
        raise HcError(
            f"--shots {flags['shots']}: {name} has {len(ready)} models left to fire",
            f"give --shots 1..{max(len(ready), 1)}",
        )
    return ready[: flags.get("shots", 1)] if ready else []


def _fill_targets(state, targets, area, flags, meta, notes) -> None:
    """The models fired at, as the resolver takes them, and which model of the game each
    is (`meta["models"]`, in the resolver's order)."""
    units = state["units"]
    if len(targets) > 1:  # following fire, or the models under an area marker: each named
        resolved: list[tuple[str, int]] = []
        for target, model in targets:
            if model is None:  # the unit alone: its next model not named yet
                order = strike_order(units[target])
                model = next((m for m in order if (target, m) not in resolved), order[0])
            resolved.append((target, model))
        chosen = list(dict.fromkeys(resolved))
        named = [f"{units[t]['profile']}:{t}-{m + 1}" for t, m in resolved]
        flags.setdefault("target", named)
        meta["models"] = [list(c) for c in chosen]
        taken = [units[t]["taken"][m] for t, m in chosen]
        if any(taken) and "wounded" not in flags:
            flags["wounded"] = _trimmed(taken)
        notes.append("target " + ", ".join(named))
        return
    target, model = targets[0]
    unit = units[target]
    flags.setdefault("target", [unit["profile"]])
    order = [model] if model is not None else strike_order(unit)
    if area and model is None:
        under = flags.get("under", 1) + flags.get("partly", 0)
        if under > len(order):
            raise HcError(
                f"{under} models under the marker: {target} has {len(order)} left",
                f"give --under up to {len(order)}",
            )
        order = order[:under]
        taken = [unit["taken"][m] for m in order]
        if any(taken) and "wounded" not in flags:
            flags["wounded"] = _trimmed(taken)
        flags.setdefault("shots", 1)
    elif len(order) == 1:  # one model: all the shots at it, its wounds adding up
        if flags.get("shots", 1) > 1:
            flags["one_model"] = True
        wounds = unit["taken"][order[0]]
        if wounds and "wounds_taken" not in flags and "wounds_left" not in flags:
            flags["wounds_taken"] = wounds
            notes.append(f"{count(wounds, 'wound')} taken already")
    elif "models" not in flags:
        flags["models"] = len(order)
        taken = [unit["taken"][m] for m in order]
        if any(taken) and "wounded" not in flags:
            flags["wounded"] = _trimmed(taken)
        notes.append(
            f"{count(len(order), 'model')} of {target}"
            + (f", {count(len(_trimmed(taken)), 'wounded')} first" if any(taken) else "")
        )
    meta["models"] = [[target, m] for m in order]
    notes.append(f"target {', '.join(flags['target'])}")


def _combat_refusal(state, name, targets, flags, notes) -> str | None:
    """Models engaged in hand to hand "are not eligible as targets", unless the firer fires
    into the combat (--into-melee), a D6 a hit: 1-3 the enemy, 4-6 the firer's friends; the
    friend is the unit of the firer's side in that combat (seed 003)."""
    units = state["units"]
    side = units[name]["side"]
    engaged = [t for t, _ in targets if units[t]["engaged"]]
    if not flags.get("into_melee"):
        if not engaged:
            return None
        return (
            f"{engaged[0]} is engaged in hand-to-hand combat with "
            f"{', '.join(units[engaged[0]]['engaged'])}: models engaged in hand-to-hand combat "
            "are not eligible as targets (seed 003); to fire into the combat anyway, "
            "--into-melee: a D6 for each hit, 1-3 the enemy, 4-6 the firer's friends"
        )
    if len(targets) > 1 or not engaged:
        raise HcError(
            "--into-melee fires into one hand-to-hand combat"
            + ("" if engaged else f": {targets[0][0]} is in none"),
            "fire at one engaged unit, or leave out --into-melee",
        )
    friends = [u for u in units[engaged[0]]["engaged"] if units[u]["side"] == side]
    friend = flags.get("friend") or (friends[0] if len(friends) == 1 else None)
    if friend not in friends:
        raise HcError(
            f"--friend names {possessive(side)} unit fighting {engaged[0]} hand to hand, "
            + (f"not '{friend}'" if friend else "one of several"),
            "give --friend " + " or ".join(friends),
        )
    if "friend" not in flags:
        flags["friend"] = friend
        notes.append(f"into the combat: the friend a 4-6 strikes is {friend}")
    return None


def _fill_friend(state, name, flags, meta, notes) -> None:
    """Firing into hand to hand: the friend a D6 may hit is a unit of the firer's side."""
    friend = flags.get("friend")
    if not friend:
        return
    units = state["units"]
    mine = [n for n, u in units.items() if u["side"] == units[name]["side"] and living(u)]
    if friend not in mine:
        raise HcError(
            f"in a game, --friend names {possessive(units[name]['side'])} unit in the fight, "
            f"not '{friend}'",
            "give --friend " + (mine[0] if mine else "UNIT"),
        )
    if len(meta["firers"]) > 1:  # the hint as it runs: the next model, the game's friend
        target = meta["models"][0][0]
        fighting = [u for u in units[target]["engaged"] if u in mine]
        given = f" --range {flags['range']:g}" if isinstance(flags.get("range"), float) else ""
        raise HcError(
            "fire into hand to hand a model at a time: each shot's D6 may strike a friend of "
            "its own",
            f"hc fire {name}:{meta['firers'][0] + 1} --at {target}{given} --into-melee"
            + (f" --friend {friend}" if len(fighting) > 1 else ""),
        )
    model = strike_order(units[friend])[0]
    flags["friend"] = units[friend]["profile"]
    if units[friend]["taken"][model]:
        flags["friend_wounded"] = units[friend]["taken"][model]
    meta["friend"] = [friend, model]
    notes.append(f"friend {model_label(friend, units[friend], model)} ({flags['friend']})")


def _hidden_refusal(state, name, me, targets, area, flags, notes) -> str | None:
    for target, _ in targets:
        if not state["units"][target].get("hidden"):
            continue
        if area:
            notes.append(f"{target} hides: an area weapon may aim at the cover it hides in")
            continue
        spots = me.get("i")
        distance = flags.get("range")
        if spots is not None and distance is not None and distance <= spots:
            within = f'within {possessive(name)} Initiative ({spots}")'
            notes.append(f"{target} hides, but {within}: spotted")
            continue
        return (
            f"{target} is hiding: it cannot be targeted (seed 003); a firer within its "
            f'Initiative in inches spots it ({name}: I {spots}, {spots}")'
            ", or an area weapon may aim at its cover"
        )
    return None


def legacy_hits(state: RtState, game: dict, meta: dict, result: dict) -> list[tuple[str, int, int]]:
    """A fire logged before results said which model each shot struck: the models as the
    game then took them (a label a following-fire target, else the unit's models in turn)."""
    shots = result.get("shots") or [result]
    if meta.get("labels"):
        hits = []
        for shot in shots:
            victim = str(shot.get("victim") or "").partition(": ")[2] or shot.get("victim")
            target = meta["labels"].get(victim)
            if target is not None:
                hits.append((target[0], target[1], shot.get("wounds") or 0))
        return hits
    target = game["at"][0].partition(":")[0]
    models = (
        [meta["model"]] * len(shots)
        if meta.get("model") is not None
        else living(state["units"][target])
    )
    return [(target, m, s.get("wounds") or 0) for s, m in zip(shots, models, strict=False)]


def side_playing(state: RtState) -> str:
    """The side whose turn it is: one from the first turn on, which the callers wait for."""
    side = state["playing"]
    if side is None:
        raise HcError("no turn has begun", "hc initiative flips the coin for the first turn")
    return side


def wounds_left(state: RtState, target: str) -> int | None:
    """The wounds the target has left (a unit's models', or one model's, `unit:N`): the most a
    shot at it can cause, as `hc luck` counts them."""
    name, _, model = target.partition(":")
    unit = state["units"].get(name)
    if unit is None or not (model.isdigit() or not model):
        return None
    taken = unit["taken"]
    models = [int(model) - 1] if model else living(unit)  # a model's wounds, or the unit's
    return sum(max(0, unit["w"] - taken[i]) for i in models if 0 <= i < len(taken))

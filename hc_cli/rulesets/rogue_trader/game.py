"""Rogue Trader played as a game: each side's units of models, the wounds each model carries
until it is removed ("once the target has received this many wounds it is out of combat ...
and can be removed as a casualty", seed 003), removed models that no longer fire or get shot,
and the turns: a coin for the first, then the sides in strict rotation. Pure: the state is
plain data, folded from the game's entries."""

from __future__ import annotations

from hc_cli.errors import HcError
from hc_cli.game_rules import Fill, GameRules, enemy_check, known_unit, possessive
from hc_cli.schema import Field

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

    from hc_cli.schema import Problems


def _living(unit: dict) -> list[int]:
    return [i for i, taken in enumerate(unit["taken"]) if taken < unit["w"]]


class RogueTraderGame(GameRules):
    sides = (2, 2)
    unit_fields = {
        "profile": Field("str", required=True, help="the models' profile (hc tables profiles)"),
        "models": Field("int", minimum=1, maximum=200, help="models in the unit (default 1)"),
        "weapon": Field("str", help="the weapon its models fire (hc tables weapons)"),
    }
    example = "profile: space-marine, models: 5, weapon: bolt-gun"
    whole_game = ("initiative",)
    unit_commands = ("fire", "move")

    # -- the roster -------------------------------------------------------------------------

    def check_unit(
        self, name: str, unit: dict, tables: Any, path: str, key: str, problems: Problems
    ) -> None:
        checks = (("profile", tables.profiles, "profile"), ("weapon", tables.weapons, "weapon"))
        self.names_in_tables(unit, checks, path, key, problems)
        if "profile" in unit and unit["profile"].lower() in tables.profiles:
            profile = tables.profile(unit["profile"])
            if "weapon" in unit and profile["bs"] == 0:
                problems.add(
                    path,
                    unit.line_of("weapon"),
                    f"{key}.weapon",
                    f"{profile.key} has BS 0: it may not shoot",
                    "leave out the weapon",
                )

    def resolved_unit(self, unit: dict, tables: Any) -> dict[str, Any]:
        profile = tables.profile(unit["profile"])
        return {
            "profile": profile.key,
            "models": unit.get("models", 1),
            "weapon": tables.weapon(unit["weapon"]).key if unit.get("weapon") else None,
            "w": profile["w"],
        }

    def describe_unit(self, name: str, unit: dict) -> str:
        weapon = f", {unit['weapon']}" if unit.get("weapon") else ""
        return f"{name} ({unit['models']} {unit['profile']}, W {unit['w']}{weapon})"

    # -- the fold ---------------------------------------------------------------------------

    def unit_state(self, unit: dict[str, Any]) -> dict[str, Any]:
        return {
            "profile": unit["profile"],
            "weapon": unit["weapon"],
            "w": unit["w"],
            "taken": [0] * unit["models"],  # wounds on each model; W taken: removed
            "fired": False,  # this turn
            "moved": False,  # this turn
        }

    def first_clock(self) -> dict[str, Any]:
        return {"turn": 0, "first": None, "playing": None}

    def apply(self, state: dict[str, Any], entry: dict[str, Any]) -> list[str]:
        command = entry["command"]
        result = entry["result"]
        game = entry["game"]
        if command == "initiative":
            state["turn"] = 1
            state["first"] = state["playing"] = result["outcome"]
            for unit in state["units"].values():
                unit["fired"] = unit["moved"] = False
            return [f"{state['first']} has the first turn; then the sides take turns in strict "
                    "rotation"]  # fmt: skip
        name = game["unit"]
        unit = state["units"][name]
        if command == "move":
            unit["moved"] = True
            return [f'{name} has moved this turn (up to {result.get("move", 0):g}")']
        if command != "fire":
            raise HcError(f"{command} is no action of a Rogue Trader game")
        unit["fired"] = True
        notes = [f"{name} has fired this turn"]
        shots = result.get("shots") or [result]
        meta = game.get("meta") or {}
        hits: list[tuple[str, int, int]] = []  # (unit, model, wounds)
        if meta.get("labels"):
            for shot in shots:
                target = meta["labels"].get(shot.get("victim") or "")
                if target is not None:
                    hits.append((target[0], target[1], shot.get("wounds") or 0))
        else:
            target = game["at"][0].partition(":")[0]
            models = (
                [meta["model"]] * len(shots)
                if meta.get("model") is not None
                else _living(state["units"][target])
            )
            for shot, model in zip(shots, models, strict=False):
                hits.append((target, model, shot.get("wounds") or 0))
        for target, model, wounds in hits:
            self._wound(state, target, model, wounds, notes)
        return notes

    def _wound(self, state: dict, name: str, model: int, wounds: int, notes: list[str]) -> None:
        unit = state["units"][name]
        if not wounds or unit["taken"][model] >= unit["w"]:
            return
        unit["taken"][model] = min(unit["w"], unit["taken"][model] + wounds)
        label = f"{name}:{model + 1}" if len(unit["taken"]) > 1 else name
        if unit["taken"][model] >= unit["w"]:
            left = len(_living(unit))
            notes.append(
                f"{label} is a casualty and removed; {name}: {left} of {len(unit['taken'])} "
                "models left"
            )
        else:
            notes.append(
                f"{label}: {unit['taken'][model]} of {unit['w']} wounds taken (they stay until "
                "it is removed)"
            )

    def next(self, state: dict[str, Any]) -> list[str]:
        if not state["turn"]:
            raise HcError("no turn has begun", "hc initiative flips the coin for the first turn")
        ending = state["playing"]
        other = next(s for s in state["sides"] if s != ending)
        if other == state["first"]:
            state["turn"] += 1
        state["playing"] = other
        for unit in state["units"].values():
            if unit["side"] == other:
                unit["fired"] = unit["moved"] = False
        return [f"{possessive(ending)} turn ends; turn {state['turn']}: {other} plays"]

    # -- acting -----------------------------------------------------------------------------

    def fill(
        self,
        state: dict[str, Any],
        command: str,
        unit: str | None,
        at: list[str],
        flags: dict[str, Any],
        tables: Any,
    ) -> Fill:
        if command == "initiative":
            notes = self.sides_fill(state, unit, at, flags)
            refusal = None
            if state["turn"]:
                refusal = "the first turn was decided: the sides take turns (hc game next)"
            return Fill(flags, refusal=refusal, notes=notes)
        if command not in self.unit_commands:
            raise HcError(f"{command} is no action of a Rogue Trader game")
        if unit is None:
            raise HcError(
                f"hc {command} in a game names the unit that acts",
                f"hc {command} UNIT" + (" --at UNIT" if command == "fire" else ""),
            )
        me = known_unit(state, unit, "the unit acting")
        if not _living(me):
            raise HcError(f"every model of {unit} is removed", "act with another unit")
        refusal = None
        if not state["turn"]:
            refusal = "no turn has begun: flip for the first turn (hc initiative)"
        elif me["side"] != state["playing"]:
            refusal = (
                f"it is {possessive(state['playing'])} turn, not {possessive(me['side'])} "
                "(hc game next)"
            )
        if command == "move":
            if at:
                raise HcError("a move takes no --at", f"hc move {unit}")
            if "profile" not in flags and "m" not in flags:
                flags["profile"] = me["profile"]
            if me["moved"] and refusal is None:
                refusal = f"{unit} has moved this turn"
            return Fill(flags, refusal=refusal, notes=[f"profile {me['profile']}"])
        return self._fill_fire(state, unit, me, at, flags, tables, refusal)

    def _fill_fire(self, state, unit, me, at, flags, tables, refusal) -> Fill:  # type: ignore[no-untyped-def]
        if not at:
            raise HcError(f"hc fire {unit} needs its target", f"hc fire {unit} --at UNIT")
        notes = []
        living = _living(me)
        if "firer" not in flags and "bs" not in flags:
            flags["firer"] = me["profile"]
            notes.append(f"firer {me['profile']}")
        if "weapon" not in flags and "strength" not in flags:
            if me["weapon"] is None:
                raise HcError(f"{unit} carries no weapon in the roster", "give --weapon NAME")
            flags["weapon"] = me["weapon"]
            notes.append(f"weapon {me['weapon']}")
        weapon = tables.weapons.get(str(flags.get("weapon", "")).lower())
        area = flags.get("radius") is not None or (weapon is not None and weapon.area)
        if area:  # one marker: the models of the target under it are the player's to count
            notes.append("an area weapon: --under N for the target's models under the marker")
        elif "shots" not in flags and len(living) > 1:
            flags["shots"] = len(living)
            notes.append(f"{len(living)} shots (a model each)")
        elif flags.get("shots", 1) > len(living):
            raise HcError(
                f"--shots {flags['shots']}: {unit} has {len(living)} models left",
                f"give --shots 1..{len(living)}",
            )
        if me["moved"] and "moved" not in flags:
            flags["moved"] = True
            notes.append("moved this turn")
        if all(me["taken"][i] for i in living) and "firer_wounded" not in flags:
            flags["firer_wounded"] = True
            notes.append("the firer is wounded")
        targets = []
        for word in at:
            name, _, number = word.partition(":")
            target = known_unit(state, name, "--at")
            enemy_check(state, unit, name)
            alive = _living(target)
            if not alive:
                raise HcError(f"every model of {name} is removed", "choose another target")
            if number:
                if not number.isdigit() or not 1 <= int(number) <= len(target["taken"]):
                    raise HcError(
                        f"--at {word}: {name} has models 1..{len(target['taken'])}",
                        f"give --at {name}:N",
                    )
                if int(number) - 1 not in alive:
                    raise HcError(f"{word} is removed: it is shot no more", f"--at {name}")
                targets.append((name, int(number) - 1, True))
            else:
                targets.append((name, alive[0], len(alive) == 1))
        meta: dict[str, Any] = {}
        if len(targets) > 1:  # following fire: a model of each unit named
            labels = {}
            names = []
            for name, model, _ in targets:
                label = f"{state['units'][name]['profile']}:{name}-{model + 1}"
                labels[label] = [name, model]
                names.append(label)
            flags.setdefault("target", names)
            meta["labels"] = labels
            taken = {state["units"][n]["taken"][m] for n, m, _ in targets}
        else:
            name, model, single = targets[0]
            target = state["units"][name]
            flags.setdefault("target", [target["profile"]])
            under = flags.get("under", 1) + flags.get("partly", 0) if area else 0
            if area and under > len(_living(target)):
                raise HcError(
                    f"{under} models under the marker: {name} has {len(_living(target))} left",
                    f"give --under up to {len(_living(target))}",
                )
            if area:
                single = False
                flags.setdefault("shots", 1)
            if single:
                meta["model"] = model
                if flags.get("shots", 1) > 1:
                    flags["one_model"] = True
                    notes.append(
                        f"every shot at {name}"
                        + (f":{model + 1}" if len(target["taken"]) > 1 else "")
                    )
                taken = {target["taken"][model]}
            else:
                shots = under or flags.get("shots", 1)
                if shots > len(_living(target)):
                    raise HcError(
                        f"{shots} shots at {name}'s {len(_living(target))} models: each shot goes "
                        "at a model of its own",
                        f"give --shots up to {len(_living(target))}, or fire at one model: --at "
                        f"{name}:N",
                    )
                taken = {target["taken"][i] for i in _living(target)[:shots]}
        if len(taken) > 1:
            raise HcError(
                "the models fired at carry different wounds",
                "fire at one model at a time: --at UNIT:N",
            )
        wounds = taken.pop()
        if wounds and "wounds_taken" not in flags and "wounds_left" not in flags:
            flags["wounds_taken"] = wounds
            notes.append(f"{wounds} wounds taken already")
        notes.append(f"target {', '.join(flags['target'])}")
        if me["fired"] and refusal is None:
            refusal = f"{unit} has fired this turn"
        return Fill(flags, meta=meta, refusal=refusal, notes=notes)

    # -- seeing -----------------------------------------------------------------------------

    def clock(self, state: dict[str, Any]) -> str:
        if not state["turn"]:
            return "before the first turn"
        return f"turn {state['turn']}: {state['playing']} plays"

    def clock_fields(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"turn": state["turn"], "playing": state["playing"], "first": state["first"]}

    def period(self, state: dict[str, Any]) -> str:
        return self.clock(state)

    def due(self, state: dict[str, Any]) -> list[str]:
        if not state["turn"]:
            return ["flip for the first turn: hc initiative"]
        ready = [
            n
            for n, u in state["units"].items()
            if u["side"] == state["playing"] and u["weapon"] and not u["fired"] and _living(u)
        ]
        out = []
        if ready:
            out.append(f"{state['playing']} may still fire: " + ", ".join(ready))
        out.append(f"then {possessive(state['playing'])} turn ends: hc game next")
        return out

    def columns(self) -> list[tuple[str, str]]:
        return [
            ("name", "unit"),
            ("profile", "profile"),
            ("models", "models"),
            ("wounds", "wounds taken"),
            ("weapon", "weapon"),
            ("moved", "moved"),
            ("fired", "fired"),
        ]

    def row(self, state: dict[str, Any], name: str, unit: dict[str, Any]) -> dict[str, Any]:
        living = _living(unit)
        return {
            "name": name,
            "profile": unit["profile"],
            "models": f"{len(living)}/{len(unit['taken'])}",
            "left": len(living),
            "total": len(unit["taken"]),
            "w": unit["w"],
            "taken": list(unit["taken"]),
            "wounds": [f"{unit['taken'][i]}/{unit['w']}" for i in living if unit["taken"][i]],
            "weapon": unit["weapon"],
            "moved": unit["moved"],
            "fired": unit["fired"],
        }


GAME = RogueTraderGame()

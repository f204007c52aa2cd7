"""High Crusade played as a game: each side's Fireteams, their figures and morale; the move,
its Initiative and its five steps (seed 000); the Morale rules between actions (seed 001): the
tests a Fireteam must take and when, the rout, the Regroup order, the Static rallied Fireteam
and the automatic rout. Pure: the state is plain data, folded from the game's entries."""

from __future__ import annotations

from hc_cli.errors import HcError
from hc_cli.game_rules import Fill, GameRules, enemy_check, known_unit, possessive
from hc_cli.rulesets.high_crusade.words import (
    MOVE_SEQUENCE,
    RALLIED_MEANS,
    RETREAT_MEANS,
    ROUT_MEANS,
)
from hc_cli.schema import Field
from hc_cli.words import count

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

    from hc_cli.schema import Problems

# The four occasions of seed 001 for a Morale test, by the morale command's flags.
TRIGGERS = {
    "fired_at": "first time fired at",
    "ambushed": "ambushed",
    "first_casualty": "first casualty",
    "below_half": "strength below 50%",
}
STATIC_MODIFIER = "target-static"


class HighCrusadeGame(GameRules):
    sides = (2, 2)
    unit_fields = {
        "troop": Field("str", required=True, help="the Fireteam's troop type (hc tables troops)"),
        "figures": Field(
            "int", required=True, minimum=1, maximum=100, help="the Fireteam's figures"
        ),
        "weapon": Field(
            "str", required=True, help="the weapon its figures carry (hc tables weapons)"
        ),
    }
    example = "troop: crusader, figures: 5, weapon: ingrave-ar"
    whole_game = ("initiative",)
    unit_commands = ("fire", "melee", "morale", "rally")

    # -- the roster -------------------------------------------------------------------------

    def check_unit(
        self, name: str, unit: dict, tables: Any, path: str, key: str, problems: Problems
    ) -> None:
        checks = (("troop", tables.troops, "troop type"), ("weapon", tables.weapons, "weapon"))
        self.names_in_tables(unit, checks, path, key, problems)

    def resolved_unit(self, unit: dict, tables: Any) -> dict[str, Any]:
        return {
            "troop": tables.troop(unit["troop"]).key,
            "figures": unit["figures"],
            "weapon": tables.weapon(unit["weapon"]).key,
        }

    def describe_unit(self, name: str, unit: dict) -> str:
        return f"{name} ({unit['figures']} {unit['troop']}, {unit['weapon']})"

    # -- the fold ---------------------------------------------------------------------------

    def unit_state(self, unit: dict[str, Any]) -> dict[str, Any]:
        return {
            "troop": unit["troop"],
            "weapon": unit["weapon"],
            "figures": unit["figures"],
            "left": unit["figures"],
            "casualties": 0,
            "morale": "steady",  # routed, rallied (Static for the rest of its move)
            "fired": False,  # this move
            "fired_at": False,  # ever: the first time is a Morale trigger
            "below_half": False,  # its strength has fallen below 50%
            "due": [],  # the triggers of the Morale test it must take
            "regroup": 0,  # the move its last Regroup order was given in
        }

    def first_clock(self) -> dict[str, Any]:
        return {"move": 0, "step": 0, "a": None, "b": None}

    def apply(self, state: dict[str, Any], entry: dict[str, Any]) -> list[str]:
        command = entry["command"]
        result = entry["result"]
        game = entry["game"]
        if command == "initiative":
            return self._new_move(state, result)
        name = game["unit"]
        unit = state["units"][name]
        notes: list[str] = []
        if command == "fire":
            target = game["at"][0]
            if unit["side"] == state["a"] and state["step"] in (1, 3):
                state["step"] += 1
                notes.append(f"step {state['step']}: {self._step(state)}")
            unit["fired"] = True
            notes.append(f"{name} has fired this move")
            summary = result.get("summary")
            kills = summary["kills"] if summary else int(result.get("outcome") == "kill")
            self._fired_at(state, target, bool(entry["flags"].get("ambush")), notes)
            self._casualties(state, target, kills, notes)
        elif command == "melee":
            target = game["at"][0]
            loser = {"attacker": target, "defender": name}.get(result["outcome"])
            if loser is None:
                notes.append("a draw: both stay")
            else:
                notes.append(f"{loser} loses the fight: one figure removed")
                self._casualties(state, loser, 1, notes)
        elif command == "morale":
            unit["due"] = []
            if result["outcome"] == "pass":
                notes.append(f"{name} passes its Morale test and fights on")
            else:
                unit["morale"] = "routed"
                notes.append(f"{name} routs: {ROUT_MEANS}")
        elif command == "rally":
            unit["regroup"] = state["move"]
            if result["outcome"] == "rallied":
                unit["morale"] = "rallied"
                notes.append(f"{name} rallies: {RALLIED_MEANS}")
            elif result["outcome"] == "retreat":
                notes.append(f"{name} fails to rally: {RETREAT_MEANS}")
            else:
                unit["morale"] = "routed"
                notes.append(f"{name} routs")
        else:
            raise HcError(f"{command} is no action of a High Crusade game")
        return notes

    def _new_move(self, state: dict[str, Any], result: dict[str, Any]) -> list[str]:
        state["move"] += 1
        state["step"] = 1
        state["a"], state["b"] = result["player_a"], result["player_b"]
        notes = [
            f"move {state['move']}: {state['a']} has the Initiative (Player A), {state['b']} "
            "is Player B",
            f"step 1: {self._step(state)}",
        ]
        for name, unit in state["units"].items():
            unit["fired"] = False
            if unit["morale"] == "rallied":
                unit["morale"] = "steady"
                notes.append(f"{name} takes orders as normal again")
            elif unit["morale"] == "routed" and unit["left"]:
                notes.append(f"{name} is routed: a full Advance move toward its own table edge")
        return notes

    def next(self, state: dict[str, Any]) -> list[str]:
        if not state["move"]:
            raise HcError("no move has begun", "hc initiative rolls for the Initiative of move 1")
        if state["step"] >= len(MOVE_SEQUENCE):
            raise HcError(
                f"move {state['move']} is over: step 5 was its last",
                f"hc initiative rolls for the Initiative of move {state['move'] + 1}",
            )
        state["step"] += 1
        return [f"step {state['step']}: {self._step(state)}"]

    def _fired_at(self, state: dict, name: str, ambushed: bool, notes: list[str]) -> None:
        unit = state["units"][name]
        if not unit["fired_at"]:
            unit["fired_at"] = True
            self._trigger(state, name, "fired_at", notes)
        if ambushed:
            self._trigger(state, name, "ambushed", notes)

    def _casualties(self, state: dict, name: str, count: int, notes: list[str]) -> None:
        unit = state["units"][name]
        count = min(count, unit["left"])
        if not count:
            return
        first = unit["casualties"] == 0
        unit["casualties"] += count
        unit["left"] -= count
        notes.append(
            f"{name}: {count} {'casualty' if count == 1 else 'casualties'}, {unit['left']} of "
            f"{unit['figures']} left"
        )
        if not unit["left"]:
            unit["due"] = []
            notes.append(f"{name} is wiped out")
            return
        if unit["morale"] == "rallied" and unit["regroup"] == state["move"]:
            unit["morale"] = "routed"
            notes.append(f"casualties during its Regroup move: {name} routs at once (no test)")
        if first:
            self._trigger(state, name, "first_casualty", notes)
        if 2 * unit["left"] < unit["figures"] and not unit["below_half"]:
            unit["below_half"] = True
            self._trigger(state, name, "below_half", notes)

    def _trigger(self, state: dict, name: str, trigger: str, notes: list[str]) -> None:
        unit = state["units"][name]
        if unit["morale"] == "routed" or not unit["left"] or trigger in unit["due"]:
            return
        unit["due"].append(trigger)
        notes.append(f"{name} must test morale: {TRIGGERS[trigger]}")

    def _step(self, state: dict[str, Any]) -> str:
        return MOVE_SEQUENCE[state["step"] - 1].format(a=state["a"], b=state["b"])

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
            return Fill(flags, notes=self.sides_fill(state, unit, at, flags))
        if command not in self.unit_commands:
            raise HcError(f"{command} is no action of a High Crusade game")
        if unit is None:
            raise HcError(
                f"hc {command} in a game names the Fireteam that acts",
                f"hc {command} UNIT" + (" --at UNIT" if command in ("fire", "melee") else ""),
            )
        me = known_unit(state, unit, "the Fireteam acting")
        if not me["left"]:
            raise HcError(f"{unit} is wiped out: no figure of it is left", "act with another")
        return getattr(self, f"_fill_{command}")(state, unit, me, at, flags, tables)

    def _target(self, state: dict, unit: str, at: list[str], command: str) -> tuple[str, dict]:
        if len(at) != 1:
            raise HcError(
                f"hc {command} {unit} needs its target: one Fireteam of the other side",
                f"hc {command} {unit} --at UNIT",
            )
        target = known_unit(state, at[0].partition(":")[0], "--at")
        name = at[0].partition(":")[0]
        enemy_check(state, unit, name)
        if not target["left"]:
            raise HcError(f"{name} is wiped out: no figure of it is left", "choose another target")
        return name, target

    def _fill_fire(self, state, unit, me, at, flags, tables) -> Fill:  # type: ignore[no-untyped-def]
        name, target = self._target(state, unit, at, "fire")
        notes = []
        if "weapon" not in flags and "chance" not in flags:
            flags["weapon"] = me["weapon"]
            notes.append(f"weapon {me['weapon']}")
        if "shots" not in flags:
            flags["shots"] = me["left"]
            notes.append(f"{me['left']} shots (the figures left)")
        elif flags["shots"] > me["left"]:
            raise HcError(
                f"--shots {flags['shots']}: {unit} has {me['left']} figures left",
                f"give --shots 1..{me['left']}",
            )
        if "target" not in flags and "df" not in flags:
            flags["target"] = [target["troop"]]
            notes.append(f"target {target['troop']} ({name})")
        if target["morale"] == "rallied" and target["regroup"] == state["move"]:
            mods = list(flags.get("mod") or ())
            if STATIC_MODIFIER in tables.modifiers and STATIC_MODIFIER not in mods:
                flags["mod"] = [*mods, STATIC_MODIFIER]
                notes.append(f"{name} is Static (rallied this move): --mod {STATIC_MODIFIER}")
        return Fill(flags, refusal=self._may_fire(state, unit, me), notes=notes)

    def _may_fire(self, state: dict, unit: str, me: dict) -> str | None:
        if not state["move"]:
            return "no move has begun: roll the Initiative first (hc initiative)"
        if me["fired"]:
            return f"{unit} has already fired this move"
        if me["morale"] == "routed":
            return f"{unit} is routed: it retreats toward its own table edge until rallied"
        if me["morale"] == "rallied":
            return f"{unit} rallied this move: it stays Static and may not fire"
        if me["due"]:
            return f"{unit} must first test morale ({self._triggers(me)}): hc morale {unit}"
        step = state["step"]
        if me["side"] == state["a"] and step == 5:
            return (
                f"{possessive(me['side'])} fire is over for move {state['move']}: step 5 is "
                f"{possessive(state['b'])}"
            )
        if me["side"] == state["b"] and step < 5:
            return (
                f"{me['side']} fires at step 5; it is step {step}: {self._step(state)} (hc game "
                "next moves the move on)"
            )
        return None

    def _fill_melee(self, state, unit, me, at, flags, tables) -> Fill:  # type: ignore[no-untyped-def]
        name, target = self._target(state, unit, at, "melee")
        filled = {
            "attacker": me["troop"],
            "attacker_weapon": me["weapon"],
            "defender": target["troop"],
            "defender_weapon": target["weapon"],
        }
        notes = []
        for key, value in filled.items():
            if key not in flags:
                flags[key] = value
                notes.append(f"{key.replace('_', ' ')} {value}")
        refusal = None if state["move"] else "no move has begun: roll the Initiative first"
        return Fill(flags, refusal=refusal, notes=notes)

    def _fill_morale(self, state, unit, me, at, flags, tables) -> Fill:  # type: ignore[no-untyped-def]
        if at:
            raise HcError(
                "a Morale test is the Fireteam's own: it takes no --at", f"hc morale {unit}"
            )
        notes = self._troop_and_casualties(me, flags)
        for trigger in me["due"]:
            if trigger not in flags:
                flags[trigger] = True
                notes.append(TRIGGERS[trigger])
        refusal = None
        if me["morale"] == "routed":
            refusal = f"{unit} is routed already: a Regroup order rallies it (hc rally {unit})"
        elif not me["due"]:
            refusal = f"no Morale test is due for {unit}"
        return Fill(flags, refusal=refusal, notes=notes)

    def _fill_rally(self, state, unit, me, at, flags, tables) -> Fill:  # type: ignore[no-untyped-def]
        if at:
            raise HcError(
                "a Regroup order is the Fireteam's own: it takes no --at", f"hc rally {unit}"
            )
        notes = self._troop_and_casualties(me, flags)
        refusal = None
        if me["morale"] != "routed":
            refusal = f"{unit} is not routed: a Regroup order rallies a routed Fireteam"
        elif me["regroup"] == state["move"]:
            refusal = f"{unit} was given its Regroup order this move already"
        elif not state["move"]:
            refusal = "no move has begun: roll the Initiative first (hc initiative)"
        return Fill(flags, refusal=refusal, notes=notes)

    def _troop_and_casualties(self, me: dict, flags: dict[str, Any]) -> list[str]:
        """What a Morale test and a Regroup both take from the game: the troop type, and the
        casualties suffered (the casualty modifier's)."""
        notes = []
        if "troop" not in flags:
            flags["troop"] = me["troop"]
            notes.append(f"troop {me['troop']}")
        if me["casualties"] and "casualties" not in flags and "has_casualties" not in flags:
            flags["casualties"] = me["casualties"]
            notes.append(f"{count(me['casualties'], 'casualty')} suffered")
        return notes

    # -- seeing -----------------------------------------------------------------------------

    def _triggers(self, unit: dict) -> str:
        return ", ".join(TRIGGERS[t] for t in unit["due"])

    def clock(self, state: dict[str, Any]) -> str:
        if not state["move"]:
            return "before the first move"
        return f"move {state['move']}, step {state['step']}: {self._step(state)}"

    def clock_fields(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            "move": state["move"],
            "step": state["step"],
            "player_a": state["a"],
            "player_b": state["b"],
        }

    def period(self, state: dict[str, Any]) -> str:
        return f"move {state['move']}" if state["move"] else "before the first move"

    def due(self, state: dict[str, Any]) -> list[str]:
        out = []
        if not state["move"]:
            return ["roll the Initiative for move 1: hc initiative"]
        for name, unit in state["units"].items():
            if unit["due"]:
                out.append(f"{name} must test morale ({self._triggers(unit)}): hc morale {name}")
        for name, unit in state["units"].items():
            if unit["morale"] == "routed" and unit["left"]:
                if unit["regroup"] == state["move"]:
                    out.append(f"{name} retreats a full Advance move toward its own table edge")
                else:
                    out.append(
                        f"{name} is routed: it makes a full Advance move toward its own table "
                        f"edge, unless a Regroup order rallies it (hc rally {name})"
                    )
        step = state["step"]
        firing = state["a"] if step in (2, 4) else state["b"] if step == 5 else None
        if firing is not None:
            ready = [
                n
                for n, u in state["units"].items()
                if u["side"] == firing and u["left"] and self._may_fire(state, n, u) is None
            ]
            if ready:
                out.append(f"{firing} may fire: " + ", ".join(ready))
        if step == len(MOVE_SEQUENCE):
            out.append(f"then the Initiative for move {state['move'] + 1}: hc initiative")
        else:
            nxt = MOVE_SEQUENCE[step].format(a=state["a"], b=state["b"])
            out.append(f"next, step {step + 1}: {nxt} (hc game next)")
        return out

    def columns(self) -> list[tuple[str, str]]:
        return [
            ("name", "Fireteam"),
            ("troop", "troop"),
            ("figures", "figures"),
            ("weapon", "weapon"),
            ("morale", "morale"),
            ("fired", "fired"),
            ("due", "test due"),
        ]

    def row(self, state: dict[str, Any], name: str, unit: dict[str, Any]) -> dict[str, Any]:
        morale = unit["morale"] if unit["left"] else "wiped out"
        return {
            "name": name,
            "troop": unit["troop"],
            "figures": f"{unit['left']}/{unit['figures']}",
            "left": unit["left"],
            "total": unit["figures"],
            "casualties": unit["casualties"],
            "weapon": unit["weapon"],
            "morale": "rallied (Static)" if morale == "rallied" else morale,
            "fired": unit["fired"],
            "fired_at": unit["fired_at"],
            "due": [TRIGGERS[t] for t in unit["due"]],
        }


GAME = HighCrusadeGame()

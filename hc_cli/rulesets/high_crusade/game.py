"""High Crusade played as a game: each side's Fireteams, their figures, the weapons they carry
and their morale; the move, its Initiative, its orders phase and its five steps (seed 000,
kept as data in `sequence`); the Morale rules between actions (seed 001, in `game_morale`):
the tests a Fireteam must take and when, the rout, the Regroup order, the Static rallied
Fireteam and the automatic rout; the orders given and filled into shots (`game_orders`). Pure:
the state is plain data, folded from the game's entries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.plugin.game_rules import (
    Fill,
    Flags,
    GameRules,
    count_of,
    enemy_check,
    known_unit,
    mean_of,
)
from hc_cli.rulesets.high_crusade.fireteam import (
    MIXED_EXAMPLE,
    check_under,
    check_weapons,
    main_weapon,
    resolved_weapons,
    volley_flags,
    weapons_text,
)
from hc_cli.rulesets.high_crusade.game_melee import fill_melee, fought, routed_attacker
from hc_cli.rulesets.high_crusade.game_morale import (
    TRIGGERS,
    fill_morale,
    fill_rally,
    mark_fired_at,
    regroup_due,
    remove_casualties,
    rout,
    routed_due,
    tests_first,
    triggers_text,
)
from hc_cli.rulesets.high_crusade.game_orders import (
    fill_orders,
    give_orders,
    order_fill,
    order_shown,
    orders_due,
    unordered_hint,
)
from hc_cli.rulesets.high_crusade.overrides import overrides as rule_overrides
from hc_cli.rulesets.high_crusade.sequence import (
    BETWEEN,
    LAST,
    ORDERS,
    PERIOD,
    SEQUENCE,
    closed_undone,
    step_check,
    step_words,
    where_now,
)
from hc_cli.rulesets.high_crusade.words import (
    RALLIED_MEANS,
    RETREAT_MEANS,
    ROUT_MEANS,
    STATIC_ORDER,
)
from hc_cli.tables.schema import Field

if TYPE_CHECKING:
    from hc_cli.rulesets.high_crusade.state import HcState, HcUnit
    from hc_cli.tables.schema import Problems


class HighCrusadeGame(GameRules["HcState", "HcUnit"]):
    sides = (2, 2)
    unit_fields = {
        "troop": Field("str", required=True, help="the Fireteam's troop type (hc tables troops)"),
        "figures": Field(
            "int", required=True, minimum=1, maximum=100, help="the Fireteam's figures"
        ),
        "weapon": Field(
            "any",
            required=True,
            help="the weapon its figures carry (hc tables weapons), or each weapon with the "
            f"figures that carry it: {MIXED_EXAMPLE}",
        ),
    }
    resolved_kinds = {"troop": "str", "figures": "int", "weapon": "str", "weapons": "map:int?"}
    example = "troop: crusader, figures: 5, weapon: ingrave-ar"
    whole_game = ("initiative", "orders")
    unit_commands = ("fire", "melee", "morale", "rally")
    due_commands = ("morale",)
    period_name = PERIOD
    noun = "Fireteam"
    sequence = SEQUENCE
    between = BETWEEN
    state_version = 4  # each unit's order for the move; whether it fought hand to hand
    readings = {
        "regroup-after-rout": ("next-move", "at-once"),
        "casualties-fall-on": ("main-weapon", "other-weapons"),
        "heavy-weapon-shots": ("one-per-fireteam", "one-per-figure"),
        "fire-after-melee": ("may-fire", "no-fire"),
        "routed-attack": ("defends-only", "fights"),
        **GameRules.shared_readings,
    }

    # -- the roster -------------------------------------------------------------------------

    def check_unit(
        self, name: str, unit: dict, tables: Any, path: str, key: str, problems: Problems
    ) -> None:
        self.names_in_tables(unit, (("troop", tables.troops, "troop type"),), path, key, problems)
        check_weapons(unit, tables, path, key, problems)

    def resolved_unit(self, unit: dict, tables: Any) -> dict[str, Any]:
        weapons = resolved_weapons(unit["weapon"], unit["figures"], tables)
        resolved = {
            "troop": tables.troop(unit["troop"]).key,
            "figures": unit["figures"],
            "weapon": main_weapon(weapons),
        }
        if len(weapons) > 1 or isinstance(unit["weapon"], dict):
            resolved["weapons"] = weapons
        return resolved

    def describe_unit(self, name: str, unit: dict) -> str:
        carried = weapons_text(unit.get("weapons") or {unit["weapon"]: unit["figures"]})
        return f"{name} ({unit['figures']} {unit['troop']}, {carried})"

    # -- the fold ---------------------------------------------------------------------------

    def unit_state(self, unit: dict[str, Any]) -> dict[str, Any]:
        return {
            "troop": unit["troop"],
            "weapon": unit["weapon"],  # the main weapon: the one most of its figures carry
            # The figures left with each weapon (a roster before mixed Fireteams names one).
            "weapons": dict(unit.get("weapons") or {unit["weapon"]: unit["figures"]}),
            "figures": unit["figures"],
            "left": unit["figures"],
            "casualties": 0,
            "morale": "steady",  # routed, rallied (Static for the rest of its move)
            "fired": False,  # this move
            "fought": False,  # hand to hand, this move
            "fired_at": False,  # ever: the first time is a Morale trigger
            "below_half": False,  # its strength has fallen below 50%
            "due": [],  # the triggers of the Morale test it must take
            "regroup": 0,  # the move its last Regroup order was given in
            "routed": 0,  # the move it last routed in
            "order": None,  # its order (orders.yaml): it stands until given again
            "order_move": 0,  # the move it was given in
        }

    def first_clock(self) -> dict[str, Any]:
        return {"move": 0, "step": 0, "a": None, "b": None}

    def apply(self, state: HcState, entry: dict[str, Any]) -> list[str]:
        command = entry["command"]
        result = entry["result"]
        game = entry["game"]
        meta = game.get("meta") or {}
        if command == "initiative":
            return self._settled(state, self._new_move(state, result, meta))
        if command == "orders":
            return self._settled(state, give_orders(state, result))
        name = game["unit"]
        unit = state["units"][name]
        notes: list[str] = []
        if command == "fire":
            target = game["at"][0]
            self._clock_to(state, meta, unit["side"] == state["a"], notes)
            unit["fired"] = True
            notes.append(f"{name} has fired this move")
            if unit["fought"]:  # said where it decides, in the output, -q and the history
                reading = state["readings"]["fire-after-melee"]
                notes.append(
                    f"{name} fought hand to hand this move and may still fire (reading: "
                    f"fire-after-melee = {reading})" if reading == "may-fire" else
                    f"{name} fought hand to hand this move and fired all the same (reading: "
                    f"fire-after-melee = {reading}, --anyway)"
                )  # fmt: skip
            summary = result.get("summary")
            kills = summary["kills"] if summary else int(result.get("outcome") == "kill")
            mark_fired_at(state, target, bool(entry["flags"].get("ambush")), notes)
            remove_casualties(state, target, kills, notes)
        elif command == "melee":
            self._clock_to(state, meta, False, notes)
            notes += fought(state, name, game["at"][0], entry["flags"], result["outcome"])
        elif command == "morale":
            unit["due"] = []
            if result["outcome"] == "pass":
                notes.append(f"{name} passes its Morale test and fights on")
            else:
                rout(state, unit)
                notes.append(f"{name} routs: {ROUT_MEANS}")
        elif command == "rally":
            unit["regroup"] = state["move"]
            if result["outcome"] == "rallied":
                unit["morale"] = "rallied"
                unit["order"], unit["order_move"] = STATIC_ORDER, state["move"]
                notes.append(f"{name} rallies: {RALLIED_MEANS}")
            elif result["outcome"] == "retreat":
                notes.append(f"{name} fails to rally: {RETREAT_MEANS}")
            else:
                rout(state, unit)
                notes.append(f"{name} routs")
        else:
            raise HcError(f"{command} is no action of a High Crusade game")
        return self._settled(state, notes)

    # -- steps with nothing left to do ------------------------------------------------------

    def _settled(self, state: HcState, notes: list[str]) -> list[str]:
        """After each action and step of a game of version 2 on: a fire step whose side has no
        Fireteam left that may fire passes by itself, once no Morale test is due. A step of
        movement never passes by itself (the game cannot see the table), nor the orders
        phase, nor the last step (the next move begins with its Initiative)."""
        if state.get("version", 1) < 2 or not state["move"]:
            return notes
        while state["step"] < LAST and self.empty(state, state["step"]):
            if tests_first(state, "") is not None:
                break
            side = state["b"] if state["step"] == LAST else state["a"]
            state["step"] += 1
            notes.append(f"{side} has nothing left to fire: {where_now(state)}")
        return notes

    def empty(self, state: HcState, step: int) -> bool:
        """A fire step whose side has no Fireteam that may still fire."""
        side = {2: state["a"], 4: state["a"], 5: state["b"]}.get(step)
        if side is None:
            return False
        return not any(u["side"] == side and self._able_to_fire(u) for u in state["units"].values())

    def _passable(self, state: HcState) -> Any:
        """The steps an action may pass over though they are the other player's: those with
        nothing left to do (a game of version 2 on)."""
        if state.get("version", 1) < 2:
            return None
        held = tests_first(state, "") is not None  # a test due holds the game in its step
        return lambda step: not held and self.empty(state, step)

    def _step_or_test(self, state: HcState, command: str, side: str) -> tuple[int, Any]:
        """The step `command` by `side` is taken in, and why not now: when it would pass over
        steps with nothing left to do while a Morale test is due, the test comes first."""
        step, refusal = step_check(state, command, side, self._passable(state))
        if refusal is not None and state.get("version", 1) >= 2:
            free = step_check(state, command, side, lambda s: self.empty(state, s))
            if free[1] is None:  # only the test due holds it
                refusal = tests_first(state, "the move goes on")
        return step, refusal

    def _able_to_fire(self, unit: HcUnit) -> bool:
        return bool(unit["left"]) and not unit["fired"] and unit["morale"] == "steady"

    def _clock_to(self, state: HcState, meta: dict, legacy_move: bool, notes: list[str]) -> None:
        """The step the action was taken in, as its fill logged it (an action of a later step
        ends the steps before it). An entry logged before the sequence was kept as data
        names none: then Player A's fire ended its move at step 1 or 3."""
        step = _step_of(meta)
        if step is None:
            step = state["step"] + 1 if legacy_move and state["step"] in (1, 3) else state["step"]
        if step != state["step"]:
            state["step"] = step
            notes.append(f"step {step}: {step_words(state, step)}")

    def _new_move(self, state: HcState, result: dict, meta: dict) -> list[str]:
        undone = state["move"] and state.get("version", 1) >= 2 and closed_undone(
            state, lambda side: [n for n, u in state["units"].items()
                                 if u["side"] == side and self._able_to_fire(u)])  # fmt: skip
        state["move"] += 1
        # The move opens with its orders phase; a game file written before the orders phase
        # was kept goes straight to step 1.
        step = _step_of(meta)
        state["step"] = 1 if step is None else step
        state["a"], state["b"] = result["player_a"], result["player_b"]
        notes = [undone] if undone else []
        notes += [
            f"move {state['move']}: {state['a']} has the Initiative (Player A), {state['b']} "
            "is Player B",
            where_now(state),
        ]
        for name, unit in state["units"].items():
            unit["fired"] = unit["fought"] = False
            if unit["morale"] == "rallied":
                unit["morale"] = "steady"
                notes.append(f"{name} takes orders as normal again")
            elif unit["morale"] == "routed" and unit["left"]:
                regroup = f", unless a Regroup order rallies it now (hc rally {name})"
                notes.append(
                    f"{name} is routed: a full Advance move toward its own table edge"
                    + (regroup if state["step"] == ORDERS else "")
                )
        return notes

    def next(self, state: HcState) -> list[str]:
        if not state["move"]:
            raise HcError("no move has begun", "hc initiative rolls for the Initiative of move 1")
        if state["step"] >= LAST:
            raise HcError(
                f"move {state['move']} is over: step {LAST} was its last",
                f"hc initiative rolls for the Initiative of move {state['move'] + 1}",
            )
        unordered = [n for n, u in state["units"].items()
                     if state["step"] == ORDERS and u["left"] and u["order"] is None]  # fmt: skip
        state["step"] += 1
        said = [where_now(state)]
        if unordered:  # the orders phase closed on them: said, not passed over in silence
            said.append(f"{', '.join(unordered)} {'has' if len(unordered) == 1 else 'have'} no "
                        "order this move: no order modifier "
                        f"({unordered_hint(state, unordered)})")  # fmt: skip
        return self._settled(state, said)

    def hold(self, state: HcState) -> str | None:
        return tests_first(state, "the game moves on")

    def due_units(self, state: HcState, command: str) -> list[str]:
        if command != "morale":
            return []
        return [n for n, u in state["units"].items() if u["due"] and u["left"]]

    # -- acting -----------------------------------------------------------------------------

    def fill(
        self,
        state: HcState,
        command: str,
        unit: str | None,
        at: list[str],
        flags: Flags,
        tables: Any,
    ) -> Fill:
        if command == "initiative":
            notes = self.sides_fill(state, unit, at, flags)
            before = f"move {state['move'] + 1} begins"
            return Fill(flags, meta={"step": ORDERS}, refusal=tests_first(state, before),
                        notes=notes)  # fmt: skip
        if command == "orders":
            return fill_orders(state, unit, at, flags, tables)
        if command not in self.unit_commands:
            raise HcError(f"{command} is no action of a High Crusade game")
        if unit is None:
            raise HcError(
                f"hc {command} in a game names the Fireteam that acts",
                f"hc {command} UNIT" + (" --at UNIT" if command in ("fire", "melee") else ""),
            )
        me: HcUnit = known_unit(state, unit, "the Fireteam acting")
        if not me["left"]:
            raise HcError(f"{unit} is wiped out: no figure of it is left", "act with another")
        fills = {"fire": self._fill_fire, "melee": self._fill_melee, "morale": fill_morale,
                 "rally": fill_rally}  # fmt: skip
        return fills[command](state, unit, me, at, flags, tables)

    overrides = staticmethod(rule_overrides)

    def _target(self, state: HcState, unit: str, at: list[str], command: str) -> tuple[str, HcUnit]:
        if len(at) != 1:
            raise HcError(
                f"hc {command} {unit} needs its target: one Fireteam of the other side",
                f"hc {command} {unit} --at UNIT",
            )
        name, colon, _ = at[0].partition(":")
        if colon:  # a Fireteam is fired at, or fought, as one: its figures are not named
            raise HcError(
                f"--at {at[0]}: a High Crusade {command} is at a Fireteam, not one of its figures",
                f"hc {command} {unit} --at {name}",
            )
        target: HcUnit = known_unit(state, name, "--at")
        enemy_check(state, unit, name)
        if not target["left"]:
            raise HcError(f"{name} is wiped out: no figure of it is left", "choose another target")
        return name, target

    def _fill_fire(self, state, unit, me, at, flags, tables) -> Fill:
        name, target = self._target(state, unit, at, "fire")
        reading = self.reading(state, "heavy-weapon-shots")
        notes = volley_flags(unit, me, flags, tables, reading)
        if "target" not in flags and "df" not in flags:
            flags["target"] = [target["troop"]]
            notes.append(f"target {target['troop']} ({name})")
        check_under(unit, name, target, flags, tables)
        notes += order_fill(state, unit, me, "order", "firer", flags, tables)
        notes += order_fill(state, name, target, "target_order", "target", flags, tables)
        step, refusal = self._may_fire(state, unit, me)
        return Fill(flags, meta={"step": step}, refusal=refusal, notes=notes)

    def _may_fire(self, state: HcState, unit: str, me: HcUnit) -> tuple[int, str | None]:
        """The step the fire is taken in, and why the Fireteam may not fire now."""
        if not state["move"]:
            return 0, "no move has begun: roll the Initiative first (hc initiative)"
        if me["fired"]:
            return state["step"], f"{unit} has already fired this move"
        if me["fought"] and state["readings"]["fire-after-melee"] == "no-fire":
            return (
                state["step"],
                f"{unit} fought hand to hand this move and may not fire as well (reading: "
                "fire-after-melee = no-fire)",
            )
        if me["morale"] == "routed":
            return (
                state["step"],
                f"{unit} is routed: it retreats toward its own table edge until rallied",
            )
        if me["morale"] == "rallied":
            return state["step"], f"{unit} rallied this move: it stays Static and may not fire"
        if me["due"]:
            return (
                state["step"],
                f"{unit} must first test morale ({triggers_text(me)}): hc morale {unit}",
            )
        pending = regroup_due(state)
        if state["step"] == ORDERS and pending:  # a fire would close the orders phase on them
            return (
                state["step"],
                "the orders phase is still open: "
                + ", ".join(pending)
                + (" may be given a Regroup order (hc rally " + pending[0] + "); hc game next "
                   "closes the orders phase"),
            )  # fmt: skip
        return self._step_or_test(state, "fire", me["side"])

    def _fill_melee(self, state, unit, me, at, flags, tables) -> Fill:
        name, target = self._target(state, unit, at, "melee")
        if not state["move"]:
            return fill_melee(
                me, name, target, flags, "no move has begun: roll the Initiative first"
            )
        step, refusal = self._step_or_test(state, "melee", me["side"])
        defends = state["readings"]["routed-attack"] == "defends-only"
        if refusal is None and me["morale"] == "routed" and defends:
            later = self._step_or_test(state, "melee", target["side"])[1] is not None
            refusal = routed_attacker(unit, name, later)
        filled = fill_melee(me, name, target, flags, refusal, unit)
        filled.meta = {"step": step}
        return filled

    # -- seeing -----------------------------------------------------------------------------

    def clock(self, state: HcState) -> str:
        if not state["move"]:
            return "before the first move"
        return f"move {state['move']}, {where_now(state)}"

    def clock_fields(self, state: HcState) -> dict[str, Any]:
        return {
            "move": state["move"],
            "step": state["step"],  # 0 in a move: its orders phase
            "player_a": state["a"],
            "player_b": state["b"],
        }

    def forfeit_failed(self, state: HcState, action: dict[str, Any]) -> list[str] | None:
        name = action.get("unit")
        if action.get("command") != "morale" or name not in state["units"]:
            return None  # a rally forfeit leaves the Fireteam routed: it is only spent
        rout(state, state["units"][name])  # as a failed test: seed 001
        return self._settled(state, [f"{name} routs, its Morale test failed: {ROUT_MEANS}"])

    def playing(self, state: HcState) -> str | None:
        if not state["move"] or state["step"] == ORDERS:
            return None  # both give their orders
        return str(state["b"] if state["step"] in (3, 5) else state["a"])  # MOVE_SEQUENCE

    def period(self, state: HcState) -> str:
        return f"move {state['move']}" if state["move"] else "before the first move"

    def due(self, state: HcState) -> list[str]:
        out = []
        if not state["move"]:
            return ["roll the Initiative for move 1: hc initiative"]
        for name, unit in state["units"].items():
            if unit["due"]:
                out.append(f"{name} must test morale ({triggers_text(unit)}): hc morale {name}")
        for name, unit in state["units"].items():
            if unit["morale"] == "routed" and unit["left"]:
                out.append(routed_due(state, name, unit))
        step = state["step"]
        if step == ORDERS and state.get("version", 1) >= 2:
            out.append(orders_due(state))
        firing = state["a"] if step in (2, 4) else state["b"] if step == 5 else None
        if firing is not None:
            ready = [
                n
                for n, u in state["units"].items()
                if u["side"] == firing and u["left"] and self._may_fire(state, n, u)[1] is None
            ]
            if ready:
                out.append(f"{firing} may fire: " + ", ".join(ready))
        if step == LAST:
            out.append(f"then the Initiative for move {state['move'] + 1}: hc initiative")
        else:
            out.append(f"next, step {step + 1}: {step_words(state, step + 1)} (hc game next)")
        return out

    def compare_columns(self) -> list[tuple[str, str]]:
        return [("p_kill", "P(a kill)"), ("mean_kills", "mean kills"),
                ("p_test", "P(morale test)"), ("p_half", "P(below 50%)")]  # fmt: skip

    def band_reach(self, tables: Any, weapon: str, band: str) -> float:
        """The bands of a weapon are unnamed (seed 000: "every weapon has its own set"): by
        their order, `band-1` the nearest."""
        bands = tables.weapons[weapon].bands
        names = [f"band-{i}" for i in range(1, len(bands) + 1)]
        if band not in names:
            raise HcError(
                f"--range {band}: {weapon} has no band '{band}'",
                f"its bands: {', '.join(names)} (nearest first), or a number",
            )
        return float(bands[names.index(band)].up_to)

    compare_count = "kills"

    def compare_cells(self, state: HcState, unit: str, target: str, odds: Any) -> dict[str, Any]:
        """The chance of a kill, the mean, and the chances the shot makes the target test its
        morale (seed 001: the first time fired at, its first casualty, its strength below 50%;
        a Fireteam wiped out tests nothing) and falls below 50%, kill count by kill count."""
        them = state["units"][target]
        kills: dict[int, Any] = {}  # a kill past the figures left finds no figure
        for k, p in count_of(odds, "kills", {"kill": 1}).items():
            kills[min(k, them["left"])] = kills.get(min(k, them["left"]), 0) + p
        test = half = 0.0
        for k, p in kills.items():
            left = max(0, them["left"] - k)
            below = 2 * left < them["figures"]
            due = not them["fired_at"] or (k > 0 and them["casualties"] == 0) or (
                below and not them["below_half"])  # fmt: skip
            test += float(p) if left and due else 0.0
            half += float(p) if below else 0.0
        return {
            "p_kill": float(1 - kills.get(0, 0)),
            "mean_kills": mean_of(kills),
            "p_test": None if them["due"] else test,  # a test due already: said by a dash
            "p_half": None if them["below_half"] else half,
            "_counted": ("kills", kills),
        }

    def columns(self) -> list[tuple[str, str]]:
        # The troop type is the roster's, unchanging (hc status --json keeps it): the room
        # goes to the weapons left, which a Fireteam of several weapons needs at 80 columns.
        return [
            ("name", "Fireteam"),
            ("figures", "figures"),
            ("weapon", "weapon"),
            ("order", "order"),
            ("fired", "fired"),
            ("due", "test due"),
        ]

    def most(self, state: HcState, target: str, count: str) -> int | None:
        unit = state["units"].get(target)
        return unit["left"] if count == "kills" and unit is not None else None

    def may_take(self, state: HcState, command: str, name: str) -> bool:
        unit = state["units"][name]  # a Regroup order rallies a routed Fireteam alone; the
        if command == "orders":  # order of a routed or rallied one is the game's (may_order)
            return bool(unit["left"]) and unit["morale"] == "steady"
        return bool(unit["left"]) and (command != "rally" or unit["morale"] == "routed")

    def standing(self, state: HcState, name: str) -> bool:
        return bool(state["units"][name]["left"])  # a figure left: routed ones may rally

    def row(self, state: HcState, name: str, unit: HcUnit) -> dict[str, Any]:
        morale = unit["morale"] if unit["left"] else "wiped out"
        return {
            "name": name,
            "troop": unit["troop"],
            "figures": f"{unit['left']}/{unit['figures']}",
            "left": unit["left"],
            "total": unit["figures"],
            "casualties": unit["casualties"],
            "weapon": weapons_text(unit["weapons"]),  # what the figures left carry
            "main_weapon": unit["weapon"],
            "weapons": dict(unit["weapons"]),  # the figures left with each weapon
            "morale": "rallied (Static)" if morale == "rallied" else morale,
            "order": order_shown(unit) if unit["left"] else "wiped out",
            "order_name": unit["order"],
            "fired": unit["fired"],
            "fought": unit["fought"],
            "fired_at": unit["fired_at"],
            "due": [TRIGGERS[t] for t in unit["due"]],
        }


def _step_of(meta: dict[str, Any]) -> int | None:
    """The step of the move an entry's fill logged (None for an entry that logs none)."""
    step = meta.get("step")
    if step is not None and (type(step) is not int or not ORDERS <= step <= LAST):
        raise HcError(f"step {step!r} is no step of the move")
    return step


GAME = HighCrusadeGame()


if TYPE_CHECKING:  # GAME keeps the contract the shared game code relies on (a type checker says)
    from hc_cli.plugin.contract import KeepsGames

    _contract: KeepsGames[HcState] = GAME

"""High Crusade played as a game: each side's Fireteams, their figures, the weapons they carry
and their morale; the move, its Initiative, its orders phase and its five steps (seed 000,
kept as data in `sequence`); the Morale rules between actions (seed 001): the tests a Fireteam
must take and when, the rout, the Regroup order, the Static rallied Fireteam and the automatic
rout. Pure: the state is plain data, folded from the game's entries."""

from __future__ import annotations

from hc_cli.core.errors import HcError
from hc_cli.core.words import count
from hc_cli.plugin.game_rules import (
    Fill,
    GameRules,
    count_of,
    enemy_check,
    known_unit,
    mean_of,
    possessive,
)
from hc_cli.rulesets.high_crusade.fireteam import (
    MIXED_EXAMPLE,
    check_under,
    check_weapons,
    falling_order,
    main_weapon,
    resolved_weapons,
    take_casualties,
    volley_flags,
    weapons_text,
)
from hc_cli.rulesets.high_crusade.sequence import (
    BETWEEN,
    LAST,
    ORDERS,
    PERIOD,
    SEQUENCE,
    step_check,
    step_words,
    where_now,
)
from hc_cli.rulesets.high_crusade.words import (
    RALLIED_MEANS,
    RETREAT_MEANS,
    ROUT_MEANS,
    ROUT_ORDER,
    STATIC_ORDER,
)
from hc_cli.tables.schema import Field

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

    from hc_cli.rulesets.high_crusade.state import HcState, HcUnit
    from hc_cli.tables.schema import Problems

# The four occasions of seed 001 for a Morale test, by the morale command's flags.
TRIGGERS = {
    "fired_at": "first time fired at",
    "ambushed": "ambushed",
    "first_casualty": "first casualty",
    "below_half": "strength below 50%",
}


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
    sequence = SEQUENCE
    between = BETWEEN
    state_version = 3  # each unit's order for the move
    readings = {
        "regroup-after-rout": ("next-move", "at-once"),
        "casualties-fall-on": ("main-weapon", "other-weapons"),
        "heavy-weapon-shots": ("one-per-fireteam", "one-per-figure"),
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
            return self._settled(state, self._orders(state, result))
        name = game["unit"]
        unit = state["units"][name]
        notes: list[str] = []
        if command == "fire":
            target = game["at"][0]
            self._clock_to(state, meta, unit["side"] == state["a"], notes)
            unit["fired"] = True
            notes.append(f"{name} has fired this move")
            summary = result.get("summary")
            kills = summary["kills"] if summary else int(result.get("outcome") == "kill")
            self._fired_at(state, target, bool(entry["flags"].get("ambush")), notes)
            self._casualties(state, target, kills, notes)
        elif command == "melee":
            self._clock_to(state, meta, False, notes)
            target = game["at"][0]
            flags = entry["flags"]
            loser, weapon = {
                "attacker": (target, flags.get("defender_weapon")),
                "defender": (name, flags.get("attacker_weapon")),
            }.get(result["outcome"], (None, None))
            weapon = str(weapon).lower() if weapon else None
            if loser is None:
                notes.append("a draw: both stay")
            else:
                notes.append(f"{loser} loses the fight: one figure removed")
                self._casualties(state, loser, 1, notes, weapon)
        elif command == "morale":
            unit["due"] = []
            if result["outcome"] == "pass":
                notes.append(f"{name} passes its Morale test and fights on")
            else:
                self._rout(state, unit)
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
                self._rout(state, unit)
                notes.append(f"{name} routs")
        else:
            raise HcError(f"{command} is no action of a High Crusade game")
        return self._settled(state, notes)

    def _rout(self, state: HcState, unit: HcUnit) -> None:
        """A routed Fireteam tests no more (seed 001): its tests due go with the rout."""
        unit["morale"] = "routed"
        unit["due"] = []
        unit["routed"] = state["move"]
        unit["order"], unit["order_move"] = ROUT_ORDER, state["move"]

    def _orders(self, state: HcState, result: dict[str, Any]) -> list[str]:
        """Each Fireteam's order for the move, as `hc orders` gave it."""
        given = result["orders"]
        if not isinstance(given, dict):
            raise HcError("the orders given are not a mapping of Fireteams to orders")
        sides: list[str] = []
        for name, order in given.items():
            if not (isinstance(order, str) and order.isprintable() and len(order) <= 40):
                raise HcError(f"the order given {name} is no order's name")
            unit = known_unit(state, name, "an order")
            unit["order"], unit["order_move"] = order, state["move"]
            if unit["side"] not in sides:
                sides.append(unit["side"])
        return [
            f"{possessive(side)} orders for move {state['move']}: they stand until given again"
            for side in sides
        ]

    # -- steps with nothing left to do ------------------------------------------------------

    def _settled(self, state: HcState, notes: list[str]) -> list[str]:
        """After each action and step of a game of version 2 on: a fire step whose side has no
        Fireteam left that may fire passes by itself, once no Morale test is due. A step of
        movement never passes by itself (the game cannot see the table), nor the orders
        phase, nor the last step (the next move begins with its Initiative)."""
        if state.get("version", 1) < 2 or not state["move"]:
            return notes
        while state["step"] < LAST and self.empty(state, state["step"]):
            if self._tests_first(state, "") is not None:
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
        held = self._tests_first(state, "") is not None  # a test due holds the game in its step
        return lambda step: not held and self.empty(state, step)

    def _step_or_test(self, state: HcState, command: str, side: str) -> tuple[int, Any]:
        """The step `command` by `side` is taken in, and why not now: when it would pass over
        steps with nothing left to do while a Morale test is due, the test comes first."""
        step, refusal = step_check(state, command, side, self._passable(state))
        if refusal is not None and state.get("version", 1) >= 2:
            free = step_check(state, command, side, lambda s: self.empty(state, s))
            if free[1] is None:  # only the test due holds it
                refusal = self._tests_first(state, "the move goes on")
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
        state["move"] += 1
        # The move opens with its orders phase; a game file written before the orders phase
        # was kept goes straight to step 1.
        step = _step_of(meta)
        state["step"] = 1 if step is None else step
        state["a"], state["b"] = result["player_a"], result["player_b"]
        notes = [
            f"move {state['move']}: {state['a']} has the Initiative (Player A), {state['b']} "
            "is Player B",
            where_now(state),
        ]
        for name, unit in state["units"].items():
            unit["fired"] = False
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
        state["step"] += 1
        return self._settled(state, [where_now(state)])

    def hold(self, state: HcState) -> str | None:
        return self._tests_first(state, "the game moves on")

    def _tests_first(self, state: HcState, before: str) -> str | None:
        """The Morale tests due: taken "whenever the following circumstances occur" (seed
        001), so before the move goes on."""
        due = [(n, u) for n, u in state["units"].items() if u["due"] and u["left"]]
        if not due:
            return None
        tests = "; ".join(f"{n} ({self._triggers(u)})" for n, u in due)
        commands = ", ".join(f"hc morale {n}" for n, _ in due)
        return (
            f"a Morale test is taken when it falls due (seed 001): {tests} must test before "
            f"{before}: {commands}"
        )

    def due_units(self, state: HcState, command: str) -> list[str]:
        if command != "morale":
            return []
        return [n for n, u in state["units"].items() if u["due"] and u["left"]]

    def _fired_at(self, state: HcState, name: str, ambushed: bool, notes: list[str]) -> None:
        unit = state["units"][name]
        if not unit["fired_at"]:
            unit["fired_at"] = True
            self._trigger(state, name, "fired_at", notes)
        if ambushed:
            self._trigger(state, name, "ambushed", notes)

    def _casualties(
        self, state: HcState, name: str, lost: int, notes: list[str], weapon: str | None = None
    ) -> None:
        """`lost` figures of the Fireteam removed: those of `weapon` first when it is known (it
        fought hand to hand with it), else as the casualties-fall-on reading says."""
        unit = state["units"][name]
        if lost > unit["left"]:  # a volley kills no more figures than a Fireteam has left
            over = lost - unit["left"]
            finds = "finds" if over == 1 else "find"
            notes.append(f"{over} of the kills {finds} no figure of {name} left")
        lost = min(lost, unit["left"])
        if not lost:
            return
        first = unit["casualties"] == 0
        unit["casualties"] += lost
        unit["left"] -= lost
        weapons = unit["weapons"]
        reading = self.reading(state, "casualties-fall-on")
        carried = [w for w, n in weapons.items() if n]
        fell = take_casualties(
            weapons, lost, falling_order(weapons, unit["weapon"], reading, weapon)
        )
        said = f"{name}: {count(lost, 'casualty')}, {unit['left']} of {unit['figures']} left"
        if len(weapons) > 1:
            said += ": " + ", ".join(f"{n} {w}" for w, n in fell) + " fell"
            if len(carried) > 1 and not (weapon in carried and lost <= 1):
                said += f" (reading: casualties-fall-on = {reading})"
        notes.append(said)
        if not unit["left"]:
            unit["due"] = []
            due = f"{name} must test morale"  # said before the casualties: a wiped out team
            notes[:] = [n for n in notes if not n.startswith(due)]  # tests nothing
            notes.append(f"{name} is wiped out")
            return
        if unit["morale"] == "rallied" and unit["regroup"] == state["move"]:
            self._rout(state, unit)
            notes.append(f"casualties during its Regroup move: {name} routs at once (no test)")
        if first:
            self._trigger(state, name, "first_casualty", notes)
        if 2 * unit["left"] < unit["figures"] and not unit["below_half"]:
            unit["below_half"] = True
            self._trigger(state, name, "below_half", notes)

    def _trigger(self, state: HcState, name: str, trigger: str, notes: list[str]) -> None:
        unit = state["units"][name]
        if unit["morale"] == "routed" or not unit["left"] or trigger in unit["due"]:
            return
        unit["due"].append(trigger)
        notes.append(f"{name} must test morale: {TRIGGERS[trigger]}")

    # -- acting -----------------------------------------------------------------------------

    def fill(
        self,
        state: HcState,
        command: str,
        unit: str | None,
        at: list[str],
        flags: dict[str, Any],
        tables: Any,
    ) -> Fill:
        if command == "initiative":
            notes = self.sides_fill(state, unit, at, flags)
            before = f"move {state['move'] + 1} begins"
            return Fill(flags, meta={"step": ORDERS}, refusal=self._tests_first(state, before),
                        notes=notes)  # fmt: skip
        if command == "orders":
            return self._fill_orders(state, unit, at, flags, tables)
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
        return getattr(self, f"_fill_{command}")(state, unit, me, at, flags, tables)

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
        notes += _order_fill(state, unit, me, "order", "firer", flags, tables)
        notes += _order_fill(state, name, target, "target_order", "target", flags, tables)
        step, refusal = self._may_fire(state, unit, me)
        return Fill(flags, meta={"step": step}, refusal=refusal, notes=notes)

    def _fill_orders(self, state, unit, at, flags, tables) -> Fill:
        """`hc orders WORD ...`: each word an order for every Fireteam of a side not given
        another, a side's name, or UNIT=ORDER; made into UNIT=ORDER for each Fireteam."""
        from hc_cli.rulesets.high_crusade.orders import EXAMPLE, player_order, split_word

        if unit is not None or at:
            raise HcError(
                "orders are given to Fireteams by name: UNIT=ORDER, not as the unit acting",
                EXAMPLE,
            )
        sides = {side.lower(): side for side in state["sides"]}
        named: dict[str, str] = {}  # Fireteam -> order, as given
        bare, side = [], None
        for word in flags.get("given") or ():
            who, what = split_word(str(word))
            if who is not None:
                known_unit(state, who, "an order")
                named[who] = player_order(tables, what, word).key
            elif what.lower() in tables.orders:
                bare.append(player_order(tables, what, word).key)
            elif what.lower() in sides:
                side = sides[what.lower()]
            else:
                givable = [k for k, o in tables.orders.items() if o.by != "game"]
                import difflib  # only on an error

                known = {k.lower(): k for k in [*givable, *state["sides"]]}
                close = difflib.get_close_matches(what.lower(), list(known), n=2, cutoff=0.6)
                hint = f"orders: {', '.join(givable)}; sides: {', '.join(state['sides'])}"
                if close:
                    hint = f"did you mean {' or '.join(repr(known[c]) for c in close)}? ({hint})"
                raise HcError(
                    f"'{word}' is no order, no side and no UNIT=ORDER", f"{hint}; e.g. {EXAMPLE}"
                )
        if len(bare) > 1:
            raise HcError(
                f"{' and '.join(bare)}: one order goes to the rest of a side",
                f"give the others by name: {EXAMPLE}",
            )
        notes = []
        if bare:
            of = {state["units"][n]["side"] for n in named} | ({side} if side else set())
            if len(of) != 1:
                import shlex

                raise HcError(
                    f"{bare[0]}: whose Fireteams? "
                    + ("the Fireteams named are of both sides" if of else "name the side"),
                    f"hc orders {shlex.quote(state['sides'][0])} {bare[0]}, or {EXAMPLE}",
                )
            (side,) = of
            for name, u in state["units"].items():
                if u["side"] == side and name not in named:
                    if not u["left"] or u["morale"] != "steady":
                        why = "is wiped out" if not u["left"] else f"is {u['morale']}"
                        notes.append(f"{name} {why}: no order for it")
                        continue
                    named[name] = bare[0]
        if not named:
            raise HcError("no Fireteam is given an order", EXAMPLE)
        flags["given"] = [f"{n}={named[n]}" for n in state["units"] if n in named]  # roster order
        return Fill(flags, refusal=self._may_order(state, named), notes=notes)

    def _may_order(self, state: HcState, named: dict[str, str]) -> str | None:
        """Why the orders may not be given now."""
        if not state["move"]:
            return "no move has begun: roll the Initiative first (hc initiative)"
        if state["step"] != ORDERS:
            return (
                f"orders are given in the orders phase that opens the move (seed 001); it is "
                f"{where_now(state)}; move {state['move'] + 1}'s comes after hc initiative"
            )
        for name in named:
            u = state["units"][name]
            if not u["left"]:
                return f"{name} is wiped out: no figure of it is left to take orders"
            if u["morale"] == "routed":
                return (
                    f"{name} is routed: it makes a full Advance move toward its own table edge "
                    f"until a Regroup order rallies it (hc rally {name})"
                )
            if u["morale"] == "rallied":
                return f"{name} rallied this move: it stays Static for the rest of it (seed 001)"
        return None

    def _may_fire(self, state: HcState, unit: str, me: HcUnit) -> tuple[int, str | None]:
        """The step the fire is taken in, and why the Fireteam may not fire now."""
        if not state["move"]:
            return 0, "no move has begun: roll the Initiative first (hc initiative)"
        if me["fired"]:
            return state["step"], f"{unit} has already fired this move"
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
                f"{unit} must first test morale ({self._triggers(me)}): hc morale {unit}",
            )
        pending = self._regroup_due(state)
        if state["step"] == ORDERS and pending:  # a fire would close the orders phase on them
            return (
                state["step"],
                "the orders phase is still open: "
                + ", ".join(pending)
                + (" may be given a Regroup order (hc rally " + pending[0] + "); hc game next "
                   "closes the orders phase"),
            )  # fmt: skip
        return self._step_or_test(state, "fire", me["side"])

    def _regroup_due(self, state: HcState) -> list[str]:
        """The routed Fireteams that may be given a Regroup order in this move's orders phase."""
        late = self.reading(state, "regroup-after-rout") == "next-move"
        return [
            name
            for name, u in state["units"].items()
            if u["morale"] == "routed"
            and u["left"]
            and u["regroup"] != state["move"]
            and not (late and u["routed"] == state["move"])
        ]

    def _fill_melee(self, state, unit, me, at, flags, tables) -> Fill:
        name, target = self._target(state, unit, at, "melee")
        filled = {
            "attacker": me["troop"],
            "attacker_weapon": _fighting_weapon(me),
            "defender": target["troop"],
            "defender_weapon": _fighting_weapon(target),
        }
        notes = []
        for key, value in filled.items():
            if key not in flags:
                flags[key] = value
                notes.append(f"{key.replace('_', ' ')} {value}")
        if not state["move"]:
            return Fill(flags, refusal="no move has begun: roll the Initiative first", notes=notes)
        step, refusal = self._step_or_test(state, "melee", me["side"])
        for who, fighter, key in ((unit, me, "attacker_weapon"), (name, target, "defender_weapon")):
            weapon = str(flags[key]).lower()
            if refusal is None and not fighter["weapons"].get(weapon):
                refusal = (
                    f"no figure of {who} carries {weapon} ({weapons_text(fighter['weapons'])}): "
                    "the figure fighting carries its own weapon"
                )
        return Fill(flags, meta={"step": step}, refusal=refusal, notes=notes)

    def _fill_morale(self, state, unit, me, at, flags, tables) -> Fill:
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
        else:  # every step takes a test when it falls due
            refusal = step_check(state, "morale", me["side"])[1]
        return Fill(flags, refusal=refusal, notes=notes)

    def _fill_rally(self, state, unit, me, at, flags, tables) -> Fill:
        if at:
            raise HcError(
                "a Regroup order is the Fireteam's own: it takes no --at", f"hc rally {unit}"
            )
        notes = self._troop_and_casualties(me, flags)
        refusal = None
        reading = self.reading(state, "regroup-after-rout")
        if not state["move"]:
            refusal = "no move has begun: roll the Initiative first (hc initiative)"
        elif me["morale"] != "routed":
            refusal = f"{unit} is not routed: a Regroup order rallies a routed Fireteam"
        elif me["regroup"] == state["move"]:
            refusal = f"{unit} was given its Regroup order this move already"
        elif me["routed"] == state["move"] and reading == "next-move":
            refusal = (
                f"{unit} routed this move: a Regroup order is given in the orders phase of a "
                "later move (seed 001: the worked example rallies the move after the rout; "
                f"reading: regroup-after-rout = {reading}); the next is move "
                f"{state['move'] + 1}'s, after hc initiative"
            )
        elif me["routed"] == state["move"]:
            notes.append(f"routed this move (reading: regroup-after-rout = {reading})")
        else:
            refusal = step_check(state, "rally", me["side"])[1]
        return Fill(flags, refusal=refusal, notes=notes)

    def _troop_and_casualties(self, me: HcUnit, flags: dict[str, Any]) -> list[str]:
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

    def _triggers(self, unit: HcUnit) -> str:
        return ", ".join(TRIGGERS[t] for t in unit["due"])

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

    def period(self, state: HcState) -> str:
        return f"move {state['move']}" if state["move"] else "before the first move"

    def due(self, state: HcState) -> list[str]:
        out = []
        if not state["move"]:
            return ["roll the Initiative for move 1: hc initiative"]
        for name, unit in state["units"].items():
            if unit["due"]:
                out.append(f"{name} must test morale ({self._triggers(unit)}): hc morale {name}")
        for name, unit in state["units"].items():
            if unit["morale"] == "routed" and unit["left"]:
                out.append(self._routed_due(state, name, unit))
        step = state["step"]
        if step == ORDERS and state.get("version", 1) >= 2:
            out.append(self._orders_due(state))
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

    def _orders_due(self, state: HcState) -> str:
        """The orders of the move as they stand, and who has none yet."""
        standing = []
        for side in state["sides"]:
            units = [(n, u) for n, u in state["units"].items() if u["side"] == side and u["left"]]
            said = ", ".join(
                f"{n} {u['order'].capitalize() if u['order'] else '(none)'}" for n, u in units
            )
            standing.append(f"{side}: {said}")
        return (
            "orders for the move (hc orders ORDER [UNIT=ORDER ...]), as they stand: "
            + "; ".join(standing)
        )

    def _routed_due(self, state: HcState, name: str, unit: HcUnit) -> str:
        advance = f"{name} is routed: it makes a full Advance move toward its own table edge"
        if unit["regroup"] == state["move"]:
            return f"{name} retreats a full Advance move toward its own table edge"
        in_orders = state["step"] == ORDERS and unit["routed"] < state["move"]
        at_once = unit["routed"] == state["move"] and (
            self.reading(state, "regroup-after-rout") == "at-once"
        )
        if in_orders or at_once:
            return f"{advance}, unless a Regroup order rallies it (hc rally {name})"
        return (
            f"{advance}, and again every move until a Regroup order rallies it (the orders "
            f"phase of move {state['move'] + 1}: hc rally {name})"
        )

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
            "order": _order_shown(unit) if unit["left"] else "wiped out",
            "order_name": unit["order"],
            "fired": unit["fired"],
            "fired_at": unit["fired_at"],
            "due": [TRIGGERS[t] for t in unit["due"]],
        }


def _order_fill(
    state: HcState, name: str, unit: HcUnit, option: str, side: str, flags: dict, tables: Any
) -> list[str]:
    """A shot's order for the firer (`order`) or the target (`target_order`), from the game:
    the order the Fireteam was given, the rout's of a routed one, the Static of a rallied one.
    An order given by hand, or a --mod that is an order's modifier, is left to stand."""
    if option in flags:
        return []
    by_hand = {getattr(o, side) for o in tables.orders.values()} - {None}
    mod = next((m for m in flags.get("mod") or () if str(m).lower() in by_hand), None)
    if mod is not None:
        return [f"--mod {mod} given: no order of {possessive(name)} filled in"]
    order = unit["order"]
    if order is None:
        return [f"{name} has no order for the move (hc orders): no order modifier"]
    if order not in tables.orders:  # the house rules in force dropped it
        return [f"{possessive(name)} order {order} is no order of the tables: no order modifier"]
    flags[option] = order
    why = {ROUT_ORDER: ": routed", STATIC_ORDER: ": rallied"}.get(order, "")
    if order == STATIC_ORDER and unit["morale"] != "rallied":
        why = ""
    since = f", given in move {unit['order_move']}" if unit["order_move"] < state["move"] else ""
    return [f"{name} on {order.capitalize()} orders{why}{since}"]


def _order_shown(unit: HcUnit) -> str:
    """The status table's order: "Advance", "routed", "rallied: Static", "-" (none yet)."""
    if unit["morale"] == "routed":
        return "routed"
    if unit["morale"] == "rallied":
        return "rallied: Static"
    return unit["order"].capitalize() if unit["order"] else "-"


def _step_of(meta: dict[str, Any]) -> int | None:
    """The step of the move an entry's fill logged (None for an entry that logs none)."""
    step = meta.get("step")
    if step is not None and (type(step) is not int or not ORDERS <= step <= LAST):
        raise HcError(f"step {step!r} is no step of the move")
    return step


def _fighting_weapon(unit: HcUnit) -> str:
    """The weapon of the figure that fights hand to hand: the main weapon while a figure
    carries it, else the first weapon a figure left carries."""
    if unit["weapons"].get(unit["weapon"]):
        return unit["weapon"]
    return next((w for w, n in unit["weapons"].items() if n), unit["weapon"])


GAME = HighCrusadeGame()


if TYPE_CHECKING:  # GAME keeps the contract the shared game code relies on (a type checker says)
    from hc_cli.plugin.contract import KeepsGames

    _contract: KeepsGames[HcState] = GAME

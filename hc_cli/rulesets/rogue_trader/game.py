"""Rogue Trader played as a game (seed 003): each side's units of models, the wounds each model
carries until it is removed ("once the target has received this many wounds it is out of combat
... and can be removed as a casualty"), and the turn: a coin for the first, then the sides in
strict rotation, each turn in its six parts (movement, shooting, hand to hand, reserves,
psionics, rallying). The game keeps what the text makes a player remember: who has moved and
how far (a fast moving target), which models have fired, who charged and who failed to make
contact, who hides, who routs. Pure: the state is plain data, folded from the game's entries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from hc_cli.core.errors import HcError
from hc_cli.core.words import count
from hc_cli.plugin.game_rules import Fill, Flags, GameRules, possessive
from hc_cli.rulesets.rogue_trader.game_compare import compare_numbers, into_melee
from hc_cli.rulesets.rogue_trader.game_fire import (
    fill_fire,
    fired_models,
    legacy_hits,
    living,
    markers_moved,
    model_label,
    side_playing,
    unit_and_model,
    wounds_left,
)
from hc_cli.rulesets.rogue_trader.game_melee import (
    end_combats,
    engage,
    fill_charge,
    fill_melee,
    fought,
    wound,
)
from hc_cli.rulesets.rogue_trader.game_parts import fights, ready_to_fire, to_part
from hc_cli.rulesets.rogue_trader.overrides import overrides as rule_overrides
from hc_cli.rulesets.rogue_trader.sequence import BETWEEN, FIGHT, PHASE_NAMES, PHASE_OF, SEQUENCE
from hc_cli.tables.schema import Field, line_of

if TYPE_CHECKING:
    from hc_cli.rulesets.rogue_trader.state import RtState, RtUnit
    from hc_cli.tables.schema import Problems

UNCOMMITTED = "reserve-move"  # the reading: which troops may make a reserve move
HIDING = "hiding-lasts"  # the reading: how long a model declared hiding stays hidden
ENGAGED_MOVE = "engaged-move"  # the reading: whether a unit in hand-to-hand combat moves


class RogueTraderGame(GameRules["RtState", "RtUnit"]):
    sides = (2, 2)
    unit_fields = {
        "profile": Field("str", required=True, help="the models' profile (hc tables profiles)"),
        "models": Field("int", minimum=1, maximum=200, help="models in the unit (default 1)"),
        "weapon": Field("str", help="the weapon its models fire (hc tables weapons)"),
    }
    resolved_kinds = {"profile": "str", "models": "int", "weapon": "str?", "w": "int", "i": "int?"}
    example = "profile: space-marine, models: 5, weapon: bolt-gun"
    whole_game = ("initiative",)
    unit_commands = ("fire", "move", "hide", "rally", "melee")
    period_name = "the turn: the sides in strict rotation, each turn in six parts"
    sequence = SEQUENCE
    between = BETWEEN
    readings = {
        UNCOMMITTED: ("not-moved-or-fired", "not-fired"),
        HIDING: ("declared-each-turn", "until-it-fires"),
        ENGAGED_MOVE: ("held", "free"),
        **GameRules.shared_readings,
    }
    state_version = 4  # models fire and are struck one by one; six parts; units engaged; the
    # range of a deviated marker

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
                    line_of(unit, "weapon"),
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
            "i": profile["i"],  # it spots hiding enemies within this many inches
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
            "i": unit.get("i"),
            "taken": [0] * unit["models"],  # wounds on each model; W taken: removed
            "fired": [],  # the models that have fired this turn
            "moved": False,  # this turn, in the movement part
            "inches": 0.0,  # moved in its side's turn (the last one, in the enemy's turn)
            "charged": False,  # charged into hand-to-hand combat this turn
            "stalled": False,  # a charge that failed to make contact: nothing else this turn
            "reserve": False,  # made a reserve move this turn
            "hidden": False,
            "routing": False,
            # The area markers that deviated this turn, each to be placed where it landed (the
            # same shot): the model that fired it and the range it was fired at.
            "markers": [],
            "engaged": [],  # the enemy units it is in hand-to-hand combat with
        }

    def first_clock(self) -> dict[str, Any]:
        return {"turn": 0, "first": None, "playing": None, "phase": 0}

    def apply(self, state: RtState, entry: dict[str, Any]) -> list[str]:
        command = entry["command"]
        result = entry["result"]
        game = entry["game"]
        if command == "initiative":
            state["turn"] = 1
            state["first"] = state["playing"] = result["outcome"]
            state["phase"] = 0
            for unit in state["units"].values():
                self._new_turn(unit)
            return [f"{state['first']} has the first turn; then the sides take turns in strict "
                    "rotation"]  # fmt: skip
        name = game["unit"].partition(":")[0]
        unit = state["units"][name]
        meta = game.get("meta") or {}
        if command == "move":
            notes = self._moved(state, name, unit, entry["flags"], result, game.get("at") or [])
        elif command == "hide":
            unit["hidden"] = True
            notes = [f"{name} hides: it cannot be targeted in the enemy's following turn"]
        elif command == "rally":
            said = to_part(state, PHASE_OF["rally"])
            if result["outcome"] == "rallied":
                unit["routing"] = False
                notes = [*said, f"{name} rallies: it routs no more"]
            else:
                notes = [*said, f"{name} fails to rally: it goes on routing"]
        elif command == "fire":
            notes = self._fire(state, name, unit, entry, meta)
        elif command == "melee":
            notes = fought(state, name, game["at"][0], entry["flags"])
        else:
            raise HcError(f"{command} is no action of a Rogue Trader game")
        notes += end_combats(state)
        if meta.get("turn_ends") and self._side_done(state):
            notes.append(
                f"every unit of {state['playing']} has acted: its turn ends by itself "
                "(turn_ends_by_itself in the settings file)"
            )
            notes += self.next(state)
        return notes

    def _side_done(self, state: RtState) -> bool:
        """Whether every unit of the side playing has done all it may this turn: fired with
        every model left (or charged, failed its charge, hidden), a unit with no weapon moved;
        none routing (it may still rally) nor uncommitted (it may still make a reserve move)."""
        for unit in state["units"].values():
            if unit["side"] != state["playing"] or not living(unit):
                continue
            if unit.get("routing"):
                return False
            if unit["stalled"] or unit["charged"] or unit.get("hidden") or unit["engaged"]:
                continue
            if unit["weapon"]:
                if set(living(unit)) - set(fired_models(unit)):
                    return False
            elif not (unit["moved"] or unit["reserve"]):
                return False
        return True

    def _moved(
        self, state: RtState, name: str, unit: RtUnit, flags: dict, result: dict, at: list
    ) -> list[str]:
        reserve = bool(flags.get("reserve"))
        notes = to_part(state, PHASE_OF["move --reserve" if reserve else "move"])
        moved = result.get("moved", result.get("move", 0)) or 0
        unit["inches"] = unit.get("inches", 0) + moved

        def mark(
            key: Literal["reserve", "moved", "stalled", "charged", "routing"], note: str
        ) -> None:
            """The unit marked so this turn, and the player told."""
            unit[key] = True
            notes.append(note)

        if reserve:
            mark("reserve", f'{name} makes a reserve move (up to {moved:g}")')
        else:
            mark("moved", f'{name} has moved this turn ({moved:g}")')
        if flags.get("charge") and flags.get("no_contact"):
            mark("stalled", f"{name} failed to make contact: it does nothing else this turn")
        elif flags.get("charge"):
            mark("charged", f"{name} charged into hand-to-hand combat: it may not shoot now")
            if flags.get("contact") and at:
                notes += engage(state, name, at[0].partition(":")[0])
        if flags.get("routs"):
            mark("routing", f"{name} routs: compulsory movement until it is rallied")
        return notes

    def _fire(self, state: RtState, name: str, unit: RtUnit, entry: dict, meta: dict) -> list[str]:
        game, result = entry["game"], entry["result"]
        passed = to_part(state, PHASE_OF["fire"])
        firers = meta.get("firers")
        if firers is None:  # a game file before models kept their own fire: the whole unit
            firers = living(unit)
        unit["fired"] = sorted(set(fired_models(unit)) | set(firers))
        deviated = result.get("outcome") == "deviated"
        notes = markers_moved(unit, name, firers, entry, deviated)
        done = set(fired_models(unit)) >= set(living(unit))
        notes = [*passed, f"{name} has fired this turn" if done else
                 f"{name}: {count(len(firers), 'model')} fired", *notes]  # fmt: skip
        if unit.get("hidden"):
            unit["hidden"] = False
            notes.append(f"{name} fired: its position is given away, it hides no more")
        if "struck" not in result:  # a game file from before results said what they struck
            hits = legacy_hits(state, game, meta, result)
        else:
            hits = []
            models = meta.get("models") or []
            for struck in result["struck"]:
                if "other" in struck:
                    friend = meta.get("friend")
                    if friend is not None:
                        hits.append((friend[0], friend[1], struck["wounds"]))
                    continue
                target, model = models[struck["model"] - 1]
                hits.append((target, model, struck["wounds"]))
        for target, model, wounds in hits:
            wound(state, target, model, wounds, notes)
        return notes

    def _new_turn(self, unit: RtUnit) -> None:
        unit["fired"] = []
        unit["markers"] = []
        unit["moved"] = unit["charged"] = unit["stalled"] = unit["reserve"] = False
        unit["inches"] = 0.0

    def next(self, state: RtState) -> list[str]:
        if not state["turn"]:
            raise HcError("no turn has begun", "hc initiative flips the coin for the first turn")
        ending = side_playing(state)
        other = next(s for s in state["sides"] if s != ending)
        if other == state["first"]:
            state["turn"] += 1
        state["playing"] = other
        state["phase"] = 0
        notes = [f"{possessive(ending)} turn ends; turn {state['turn']}: {other} plays"]
        lapse = self.reading(state, HIDING) == "declared-each-turn"
        for name, unit in state["units"].items():
            if unit["side"] == other:
                self._new_turn(unit)
                if lapse and unit.get("hidden"):  # the enemy's following turn is over
                    unit["hidden"] = False
                    notes.append(
                        f"{name} hides no more: declare it again to stay hidden (hc hide "
                        f"{name}; reading: {HIDING} = declared-each-turn)"
                    )
        return notes

    overrides = staticmethod(rule_overrides)

    # -- acting -----------------------------------------------------------------------------

    def fill(
        self,
        state: RtState,
        command: str,
        unit: str | None,
        at: list[str],
        flags: Flags,
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
        filled = self._fill_unit(state, command, unit, at, flags, tables)
        from hc_cli.games.choice import switched_on

        if switched_on("turn_ends_by_itself"):  # kept with the action: the fold reads no setting
            filled.meta["turn_ends"] = True
        return filled

    def _fill_unit(
        self,
        state: RtState,
        command: str,
        unit: str,
        at: list[str],
        flags: Flags,
        tables: Any,
    ) -> Fill:
        name, model = unit_and_model(state, unit, "the unit acting")
        me = state["units"][name]
        if not living(me):
            raise HcError(f"every model of {name} is removed", "act with another unit")
        if model is not None and command != "fire":
            raise HcError(f"a unit {command}s as one: name the unit", f"hc {command} {name}")
        if command == "melee":  # either side, whatever the turn (seed 003)
            return fill_melee(state, name, me, at, flags)
        refusal = self._turn_refusal(state, name, me)
        if command == "fire":
            if refusal is None:
                refusal = self._phase_refusal(state, "fire")
            return fill_fire(state, name, model, me, at, flags, tables, refusal)
        if command == "move":
            fill_charge(state, name, at, flags)
            return self._fill_move(state, name, me, flags, refusal)
        if at:
            raise HcError(f"hc {command} takes no --at", f"hc {command} {name}")
        if command == "hide":
            return Fill(flags, refusal=refusal or self._may_hide(name, me))
        notes = []
        if "profile" not in flags and "ld" not in flags:
            flags["profile"] = me["profile"]
            notes.append(f"profile {me['profile']}")
        if refusal is None and not me.get("routing"):
            refusal = f"{name} is not routing: the rallying part rallies routing troops"
        if refusal is None and state["phase"] > PHASE_OF["rally"]:
            refusal = "the turn is over"
        return Fill(flags, refusal=refusal, notes=notes)

    def _turn_refusal(self, state: RtState, name: str, me: RtUnit) -> str | None:
        if not state["turn"]:
            return "no turn has begun: flip for the first turn (hc initiative)"
        if me["side"] != state["playing"]:
            return (
                f"it is {possessive(side_playing(state))} turn, not {possessive(me['side'])} "
                "(hc game next)"
            )
        if me.get("stalled"):
            return (
                f"{name} charged and failed to make contact: it may do nothing at all for the "
                "rest of this turn (seed 003)"
            )
        return None

    def _phase_refusal(self, state: RtState, command: str) -> str | None:
        """A command of an earlier part of the turn than one already taken."""
        wanted = PHASE_OF[command]
        if state["phase"] <= wanted:
            return None
        return (
            f"the {PHASE_NAMES[wanted]} part of the turn ({wanted}) is over: the turn is at "
            f"{state['phase']}, {PHASE_NAMES[state['phase']]} (hc game rules)"
        )

    def _fill_move(
        self, state: RtState, name: str, me: RtUnit, flags: dict, refusal: str | None
    ) -> Fill:
        if "profile" not in flags and "m" not in flags:
            flags["profile"] = me["profile"]
        notes = [f"profile {me['profile']}"]
        reserve = bool(flags.get("reserve"))
        if refusal is None:
            refusal = self._phase_refusal(state, "move --reserve" if reserve else "move")
        if refusal is None and reserve:
            choice = self.reading(state, UNCOMMITTED)
            done = {
                "moved": me["moved"] and choice == "not-moved-or-fired",
                "fired": bool(fired_models(me)),
                "charged": me["charged"],
                "made a reserve move": me["reserve"],
            }
            committed = [what for what, did in done.items() if did]
            if committed:
                refusal = (
                    f"{name} has {' and '.join(committed)} this turn: only uncommitted troops "
                    f"make a reserve move ({UNCOMMITTED} = {choice})"
                )
            elif me.get("hidden"):
                refusal = f"{name} is hiding: a model in hiding may not make a reserve move"
        elif refusal is None and me["moved"]:
            refusal = f"{name} has moved this turn"
        if refusal is None and me["engaged"] and self.reading(state, ENGAGED_MOVE) == "held":
            enemy = me["engaged"][0]
            refusal = (
                f"{name} is in hand-to-hand combat with {', '.join(me['engaged'])}: it moves "
                f"when the combat ends (reading: {ENGAGED_MOVE} = held); the players record it "
                f"broken off in the hand-to-hand part (hc melee {name} --at {enemy} --break)"
            )
        return Fill(flags, refusal=refusal, notes=notes)

    def _may_hide(self, name: str, me: RtUnit) -> str | None:
        if fired_models(me):
            return f"{name} fired this turn: a model cannot fire and go into hiding in one turn"
        if me["reserve"]:
            return f"{name} made a reserve move: a model cannot go into hiding during or after one"
        if me.get("hidden"):
            return f"{name} is hiding already"
        return None

    # -- seeing -----------------------------------------------------------------------------

    def clock(self, state: RtState) -> str:
        if not state["turn"]:
            return "before the first turn"
        phase = state.get("phase", 0)
        part = f": {PHASE_NAMES[phase]} (part {phase} of 6)" if phase else ""
        return f"turn {state['turn']}: {state['playing']} plays{part}"

    def clock_fields(self, state: RtState) -> dict[str, Any]:
        return {
            "turn": state["turn"],
            "playing": state["playing"],
            "first": state["first"],
            "phase": state.get("phase", 0),
        }

    def forfeit_failed(self, state: RtState, action: dict[str, Any]) -> list[str] | None:
        name = action.get("unit")
        if action.get("command") != "rally" or name not in state["units"]:
            return None
        to_part(state, PHASE_OF["rally"])  # as a failed rally
        return [f"{name} fails to rally: it goes on routing"]

    def playing(self, state: RtState) -> str | None:
        return str(state["playing"]) if state["turn"] else None

    def period(self, state: RtState) -> str:
        if not state["turn"]:
            return "before the first turn"
        return f"turn {state['turn']}: {state['playing']} plays"

    def due(self, state: RtState) -> list[str]:
        if not state["turn"]:
            return ["flip for the first turn: hc initiative"]
        playing = side_playing(state)
        mine = {n: u for n, u in state["units"].items() if u["side"] == playing and living(u)}
        out = []
        for n, u in mine.items():
            if u.get("routing"):
                out.append(
                    f"{n} routs: its move is compulsory; rally it in the rallying part "
                    f"(hc rally {n})"
                )
        out += [
            f"{model_label(n, u, m['model'])}'s marker deviated: place it where it landed (hc fire "
            f"{model_label(n, u, m['model'])} --at UNIT --placed --under N)"
            for n, u in mine.items() for m in u["markers"]
        ]  # fmt: skip
        if state.get("phase", 0) <= PHASE_OF["fire"] and (ready := ready_to_fire(state)):
            out.append(f"{playing} may still fire: " + ", ".join(ready))
        if state.get("phase", 0) <= PHASE_OF["melee"] and (combats := fights(state)):
            out.append(f"hand to hand, either side: {', '.join(combats)} ({FIGHT})")
        from hc_cli.games.choice import switched_on

        if switched_on("turn_ends_by_itself"):  # the settings file: the next action says
            out.append(f"then {possessive(playing)} turn ends by itself once every unit has "
                       "done all it may, or at hc game next")  # fmt: skip
        else:
            out.append(f"then {possessive(playing)} turn ends: hc game next")
        return out

    def compare_columns(self) -> list[tuple[str, str]]:
        return [("p_removed", "P(removal)"), ("mean_casualties", "mean casualties"),
                ("mean_wounds", "mean wounds")]  # fmt: skip

    def band_reach(self, tables: Any, weapon: str, band: str) -> float:
        """Short or long range: the farthest of each on the weapon's profile."""
        found = tables.weapon(weapon)
        reach = {"short": found.short, "long": found.long}
        if reach.get(band) is None:
            raise HcError(f"--range {band}: {weapon} has no {band} range",
                          "give short, long or a number")  # fmt: skip
        return float(reach[band])

    compare_count = "casualties"

    def compare_marker(self, tables: Any, weapon: str) -> bool:
        return tables.weapon(weapon).area is not None

    def compare_cells(self, state: RtState, unit: str, target: str, odds: Any) -> dict[str, Any]:
        return compare_numbers(state, target, odds)

    def compare_instead(self, state: RtState, unit: str, target: str) -> Any:
        return into_melee(state, unit, target)

    def columns(self) -> list[tuple[str, str]]:
        return [
            ("name", "unit"),
            ("models", "models"),
            ("wounds", "wounds"),
            ("weapon", "weapon"),
            ("moved", "moved"),
            ("fired", "fired"),
            ("state", "state"),
        ]

    def most(self, state: RtState, target: str, count: str) -> int | None:
        return wounds_left(state, target) if count == "wounds" else None

    def may_take(self, state: RtState, command: str, name: str) -> bool:
        unit = state["units"][name]  # only routing troops rally
        return bool(living(unit)) and (command != "rally" or bool(unit.get("routing")))

    def models(self, state: RtState, name: str) -> list[str]:
        return [f"{name}:{i + 1}" for i in living(state["units"][name])]

    def standing(self, state: RtState, name: str) -> bool:
        return bool(living(state["units"][name]))  # a model not removed

    def row(self, state: RtState, name: str, unit: RtUnit) -> dict[str, Any]:
        standing = living(unit)
        fired = [i for i in fired_models(unit) if i in standing]
        inches = unit.get("inches", 0)
        marks = {
            "routing": unit.get("routing"),
            "hidden": unit.get("hidden"),
            "charged": unit.get("charged"),
            "no contact": unit.get("stalled"),
            "reserve move": unit.get("reserve"),
        }
        what = [word for word, on in marks.items() if on] if standing else ["removed"]
        what += ["engaged with " + ", ".join(unit["engaged"])] if unit["engaged"] else []
        moved = f'{inches:g}"' if standing and (unit["moved"] or unit.get("reserve")) else False
        shot = (
            bool(standing)
            and set(standing) <= set(fired)
            or (f"{len(fired)} of {len(standing)}" if fired else False)
        )
        # The marks of the side playing now: the other side's are of its last turn, which
        # the table leaves out (its distance still makes a fast moving target; --json keeps
        # them, as `last_turn`).
        now = unit["side"] == state.get("playing")
        return {
            "name": name,
            "profile": unit["profile"],
            "models": f"{len(standing)}/{len(unit['taken'])}",
            "left": len(standing),
            "total": len(unit["taken"]),
            "w": unit["w"],
            "taken": list(unit["taken"]),
            "wounds": [
                ("#" + str(i + 1) + " " if len(unit["taken"]) > 1 else "")
                + f"{unit['taken'][i]}/{unit['w']}"
                for i in standing
                if unit["taken"][i]
            ],
            "weapon": unit["weapon"],
            "moved": moved if now else False,
            "inches": inches,
            "fired": shot if now else False,
            "fired_models": [i + 1 for i in fired],
            "last_turn": None if now else {"moved": moved, "fired": shot},
            "hidden": bool(unit.get("hidden")),
            "routing": bool(unit.get("routing")),
            "engaged": list(unit["engaged"]),
            "state": what,
        }


GAME = RogueTraderGame()


if TYPE_CHECKING:  # GAME keeps the contract the shared game code relies on (a type checker says)
    from hc_cli.plugin.contract import KeepsGames

    _contract: KeepsGames[RtState] = GAME

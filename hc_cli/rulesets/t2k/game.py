"""Twilight: 2000 played as a game (seed 002): characters, the damage they take and the wound
level it makes ("Initiative Table Reductions due to wounds: 1 if slightly; 3 if seriously; 5 if
critically"), the action turns in Initiative order (six to a combat turn; those above 5 act
again at half), the actions outside the order, the rounds a shot or a burst uses and the
actions a reload takes. The order is the game's (`game_order`), the hits' effects are read
from the result (`game_hits`). Pure: the state is plain data, folded from the game's entries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.core.words import count
from hc_cli.plugin.game_rules import GameRules, count_of, mean_of, possessive
from hc_cli.rulesets.t2k import game_zone
from hc_cli.rulesets.t2k.game_hits import struck, take_damage
from hc_cli.rulesets.t2k.game_order import (
    INVOLUNTARY,
    OUTSIDE,
    actor,
    go_on,
    initiative_now,
    label,
    next_slot,
    pending_wounds,
    take,
    to_act,
    wound_of,
)
from hc_cli.rulesets.t2k.overrides import overrides as rule_overrides
from hc_cli.rulesets.t2k.request import SHOT_KINDS
from hc_cli.rulesets.t2k.sequence import BETWEEN, SEQUENCE, fill_action
from hc_cli.tables.schema import Field, line_of

if TYPE_CHECKING:
    from hc_cli.rulesets.t2k.state import Slot, T2kState, T2kUnit
    from hc_cli.tables.schema import Problems

# A game started before hc kept these with the roster plays by the bundled tables' values.
BEFORE_KEPT = {"extra_above": 5, "extra_round_up": 0}


class T2kGame(GameRules["T2kState", "T2kUnit"]):
    sides = (1, 8)
    unit_fields = {
        "asset": Field("int", required=True, minimum=1, maximum=100, help="skill + attribute"),
        "strength": Field("int", required=True, minimum=1, maximum=100, help="for recoil"),
        "initiative": Field("int", required=True, minimum=0, maximum=100),
        "agility": Field("int", minimum=0, maximum=100, help="breaks Initiative ties"),
        "weapon": Field("str", required=True, help="the weapon carried (hc tables weapons)"),
        "bulk": Field("int", minimum=0, maximum=100, help="the weapon's bulk, if not the table's"),
        "rounds": Field("int", minimum=0, maximum=100_000, help="rounds loaded (default: full)"),
        "npc": Field("bool", help="an NPC: a hit in head or chest may quick-kill"),
    }
    resolved_kinds = {
        "asset": "int", "strength": "int", "initiative": "int", "agility": "int?",
        "weapon": "str", "bulk": "int?", "npc": "bool", "magazine": "int?", "rounds": "int?",
        "feed": "str?", "wound_damage": "list", "out_damage": "int", "reductions": "map:int",
    }  # fmt: skip
    example = "asset: 12, strength: 5, initiative: 6, agility: 7, weapon: m16a2"
    whole_game = ("initiative",)
    unit_commands = ("fire", "reload")
    acting_unit_known = True
    period_name = "the combat turn, six action turns of 5 seconds"
    noun = "character"
    sequence = SEQUENCE
    between = BETWEEN
    readings = {
        "wound-initiative": ("next-action-turn", "next-combat-turn"),
        "outside-order-action": ("his-action", "beside-his-action"),
        "zone-dice-kept": ("combat-turn", "action-turn"),
        **GameRules.shared_readings,
    }
    state_version = 3  # the order kept by the game, every hit taken: where, its damage

    # -- the roster -------------------------------------------------------------------------

    def check_unit(
        self, name: str, unit: dict, tables: Any, path: str, key: str, problems: Problems
    ) -> None:
        before = len(problems.items)
        self.names_in_tables(unit, (("weapon", tables.weapons, "weapon"),), path, key, problems)
        if len(problems.items) > before:
            return
        weapon = tables.weapon(unit["weapon"])
        if "rounds" in unit and weapon.magazine is not None and unit["rounds"] > weapon.magazine:
            problems.add(
                path,
                line_of(unit, "rounds"),
                f"{key}.rounds",
                f"{unit['rounds']} rounds: a {weapon.key} holds {weapon.magazine}",
                f"give 0..{weapon.magazine}",
            )

    def resolved_unit(self, unit: dict, tables: Any) -> dict[str, Any]:
        weapon = tables.weapon(unit["weapon"])
        levels = [(damage, level) for damage, level in tables.wound_damage if damage > 0]
        return {
            "asset": unit["asset"],
            "strength": unit["strength"],
            "initiative": unit["initiative"],
            "agility": unit.get("agility"),
            "weapon": weapon.key,
            "bulk": unit.get("bulk", weapon.bulk),
            "npc": bool(unit.get("npc")),
            "magazine": weapon.magazine,
            "rounds": unit.get("rounds", weapon.magazine),
            "feed": weapon.feed,
            "wound_damage": levels,  # (least damage in all, level): the game keeps its numbers
            "out_damage": tables.rule("out-of-action-damage"),
            "reductions": dict(tables.wound_levels),  # Initiative off, by wound level
            "extra_above": tables.rule("extra-action-above"),
            "extra_round_up": tables.rule("extra-action-round-up"),
        }

    def describe_unit(self, name: str, unit: dict) -> str:
        rounds = f", {unit['rounds']} rounds" if unit["rounds"] is not None else ""
        return f"{name} (initiative {unit['initiative']}, {unit['weapon']}{rounds})"

    # -- the fold ---------------------------------------------------------------------------

    def unit_state(self, unit: dict[str, Any]) -> dict[str, Any]:
        return {
            **{k: unit[k] for k in ("asset", "strength", "initiative", "agility",
                                    "weapon", "bulk", "npc", "magazine", "rounds",
                                    "feed", "wound_damage", "out_damage",
                                    "reductions")},
            **{k: unit.get(k, v) for k, v in BEFORE_KEPT.items()},
            "damage": 0,  # the wound level is the table's for it (game_order.wound_of)
            "hits": [],  # each hit taken: location, damage, who fired it
            "out": False,  # killed, or out of the fight
            "killed": False,  # by a quick kill
            "reloading": 0,  # actions spent on a reload not yet done
            "reload_needed": 0,  # the actions that reload takes
            "reloaded_turn": 0,  # the combat turn of its last reload action
        }  # fmt: skip

    def first_clock(self) -> dict[str, Any]:
        # order: this action turn's actions (game_order); rolled: the order the last roll gave,
        # which parts the ties Agility cannot; outside: name -> why he may act outside it.
        # zone_kept: the dice each burst kept for its danger zone (game_zone).
        return {"combat_turn": 0, "action_turn": 0, "order": [], "rolled": [], "outside": {},
                "zone_kept": []}  # fmt: skip

    def apply(self, state: T2kState, entry: dict[str, Any]) -> list[str]:
        command = entry["command"]
        was = actor(state)
        if command == "initiative":
            notes = self._initiative(state, entry)
            return notes + self._go_on(state, was)
        name = entry["game"]["unit"]
        if command == "fire" and entry["flags"].get("kept"):  # no action of his (game_zone)
            return self._struck(state, entry) + game_zone.spend(state, name, entry)
        if command == "fire":
            notes = self._fired(state, entry)
        elif command == "reload":
            notes = self._reload(state, name, entry["result"])
        else:
            raise HcError(f"{command} is no action of a Twilight: 2000 game")
        notes += self._spend(state, name, was) + self._go_on(state, was)
        if was is not None and actor(state) is was and was["name"] != name:
            notes.append(f"still {possessive(was['name'])} action (initiative {was['initiative']})")
        return notes

    def _go_on(self, state: T2kState, was: Slot | None) -> list[str]:
        """The game goes on (game_order.go_on), unless it is over; dice a burst kept that
        lapse with the turn are said."""
        if self.over(state) is not None:  # it moves on no further
            return []
        before = game_zone.kept_now(state)
        return go_on(state, was) + game_zone.lapsed(state, before)

    def _initiative(self, state: T2kState, entry: dict) -> list[str]:
        result, meta = entry["result"], entry["game"].get("meta") or {}
        rolled = [[o["name"], o["extra"]] for o in result["order"]]
        notes = []
        if not state["combat_turn"]:  # the first roll: the order of the first action turn
            state["rolled"] = rolled
            state["order"] = [
                {"name": o["name"], "initiative": o["initiative"], "extra": o["extra"],
                 "done": False}
                for o in result["order"]
            ]  # fmt: skip
            state["combat_turn"] = state["action_turn"] = 1
            notes.append("the order: " + ", ".join(label(s) for s in state["order"]))
        elif meta.get("roll") != "exceptions":  # rolled again (--anyway): the ties only
            state["rolled"] = rolled
            notes.append(
                "the order of this action turn stands; this roll parts the ties Agility "
                "cannot from the next action turn on"
            )
        for name, kind in (meta.get("outside") or {}).items():
            notes += self._outside(state, name, kind)
        return notes

    def _outside(self, state: T2kState, name: str, kind: str) -> list[str]:
        """An exception to the order: an involuntary action is taken at once (it is the
        record); an ambush or opportunity fire is the character's next hc fire or reload."""
        reading = self.reading(state, "outside-order-action")
        said = f"(reading: outside-order-action = {reading})"
        if kind in INVOLUNTARY:
            slot = take(state, name) if reading == "his-action" else None
            line = f"{name}: an involuntary action, outside the order"
            if reading != "his-action":
                return [f"{line}, beside his actions in the order {said}"]
            if slot is None:
                return [f"{line}; he had taken his actions of this action turn {said}"]
            return [f"{line}: his action at {slot['initiative']} of this action turn {said}"]
        state["outside"][name] = OUTSIDE[kind]
        spent = (
            "it is his action of this action turn"
            if reading == "his-action"
            else "beside his actions in the order"
        )
        return [
            f"{name} may act now, whoever's action it is (hc fire {name} or hc reload {name}); "
            f"{spent} {said}"
        ]

    def _spend(self, state: T2kState, name: str, was: Slot | None) -> list[str]:
        """The action is the character's: at his place in the order, that place; outside the
        order, his next action of the action turn, unless it comes beside them (the reading
        outside-order-action); out of his turn (--anyway), his next action too."""
        if was is not None and was["name"] == name:
            take(state, name)
            self._lapse(state, name)
            return []
        granted = state["outside"].pop(name, None)
        reading = self.reading(state, "outside-order-action")
        said = f"(reading: outside-order-action = {reading})"
        if granted and reading == "beside-his-action":
            return [f"{name} acted outside the order ({granted}), beside his actions {said}"]
        slot = take(state, name)
        spent = f"his action at {slot['initiative']} is spent" if slot else "he had none left"
        if granted:
            return [f"{name} acted outside the order ({granted}): {spent} {said}"]
        return [f"{name} acted out of his turn: {spent}"] if state["order"] else []

    def _lapse(self, state: T2kState, name: str) -> None:
        """An action outside the order that is one of his goes with his last action."""
        if self.reading(state, "outside-order-action") == "his-action":
            if next_slot(state, name) is None:
                state["outside"].pop(name, None)

    def _fired(self, state: T2kState, entry: dict) -> list[str]:
        game, result = entry["game"], entry["result"]
        name = game["unit"]
        unit = state["units"][name]
        notes = []
        fired = str((entry.get("flags") or {}).get("weapon", unit["weapon"])).lower()
        if fired == unit["weapon"]:  # another weapon's rounds are not his weapon's
            used = result.get("rounds")
            if unit["rounds"] is not None and isinstance(used, int):
                unit["rounds"] = max(0, unit["rounds"] - used)
                notes.append(f"{name}: {count(used, 'round')} fired, {unit['rounds']} left")
            if unit["reloading"]:
                notes.append(
                    f"{possessive(name)} reload is given up: {unit['reloading']} of "
                    f"{unit['reload_needed']} actions lost"
                )
                unit["reloading"] = 0
        return notes + self._struck(state, entry) + game_zone.keep(state, name, entry, fired)

    def _struck(self, state: T2kState, entry: dict) -> list[str]:
        notes = []
        name, target = entry["game"]["unit"], (entry["game"].get("at") or [None])[0]
        for who, (hits, killed) in struck(entry["result"], target).items():
            if who in state["units"]:  # a bystander of an old game file is no character
                notes += take_damage(state, who, hits, killed, name)
        return notes

    def _reload(self, state: T2kState, name: str, result: dict) -> list[str]:
        unit = state["units"][name]
        unit["reloaded_turn"] = state["combat_turn"]
        magazine = result.get("magazine") or unit["magazine"]
        per = result.get("rounds_per_action")
        if per:
            unit["rounds"] = min(magazine or per, (unit["rounds"] or 0) + per)
            return [f"{name} loads {per} rounds: {unit['rounds']} in"]
        unit["reloading"] += 1
        needed = unit["reload_needed"] = result.get("actions") or 1
        if unit["reloading"] >= needed:
            unit["reloading"] = 0
            unit["rounds"] = magazine
            return [f"{name} has reloaded: {magazine} rounds"]
        return [f"{name} is reloading: {unit['reloading']} of {needed} actions"]

    def next(self, state: T2kState) -> list[str]:
        if not state["combat_turn"]:
            raise HcError("there is no order yet", "hc initiative rolls the Initiative order")
        slot = actor(state)
        if slot is None:
            raise HcError("nobody is left to act", "the fight is over: hc status shows it")
        slot["done"] = True
        self._lapse(state, slot["name"])
        return [f"{slot['name']} passes"] + self._go_on(state, slot)

    def standing(self, state: T2kState, name: str) -> bool:
        return not state["units"][name]["out"]  # neither killed nor out of the fight

    def hold(self, state: T2kState) -> str | None:
        """An action outside the order is open to a character until his action turn ends:
        passing its last action would close it unseen."""
        slot = actor(state)
        waiting = [n for n in state["outside"] if slot is None or n != slot["name"]]
        if not waiting or len(to_act(state)) > 1:
            return None
        return (
            " and ".join(waiting)
            + " may still act outside the order in this action turn ("
            + ", ".join(state["outside"][n] for n in waiting)
            + f"): hc fire {waiting[0]} --at NAME or hc reload {waiting[0]}; passing ends the "
            "action turn"
        )

    # -- acting -----------------------------------------------------------------------------

    fill = staticmethod(fill_action)

    overrides = staticmethod(rule_overrides)

    # -- seeing -----------------------------------------------------------------------------

    def clock(self, state: T2kState) -> str:
        if not state["combat_turn"]:
            return "before the first action turn"
        slot = actor(state)
        return f"{self.period(state)}: " + (
            f"{possessive(slot['name'])} action" if slot else "nobody left to act"
        )

    def acting(self, state: T2kState) -> Slot | None:
        """Whose action it is: nobody's once the game is over."""
        return None if self.over(state) is not None else actor(state)

    def clock_fields(self, state: T2kState) -> dict[str, Any]:
        slot = self.acting(state)
        return {
            "combat_turn": state["combat_turn"],
            "action_turn": state["action_turn"],
            "acting": slot["name"] if slot else None,
            "order": state["order"],
            "outside": state["outside"],
            "zone_kept": game_zone.kept_now(state),
        }

    def playing(self, state: T2kState) -> str | None:
        slot = actor(state) if state["combat_turn"] else None
        return str(state["units"][slot["name"]]["side"]) if slot else None

    def period(self, state: T2kState) -> str:
        if not state["combat_turn"]:
            return "before the first action turn"
        return f"combat turn {state['combat_turn']}, action turn {state['action_turn']}"

    def due(self, state: T2kState) -> list[str]:
        if not state["combat_turn"]:
            return ["roll the Initiative order: hc initiative"]
        out = [
            f"{name} may act outside the order ({why}): hc fire {name} --at NAME or hc reload "
            f"{name}, whoever's action it is"
            for name, why in state["outside"].items()
        ]
        out += pending_wounds(state)
        out += [
            f"{k['firer']} keeps {count(k['dice'], 'die')} for targets entering the zone of his "
            f"burst at {k['at']}: hc fire {k['firer']} --kept all --at NAME"
            for k in game_zone.kept_now(state)
        ]
        slot = actor(state)
        if slot is None:
            return out
        name = slot["name"]
        me = state["units"][name]
        what = "extra action (no movement as a second action)" if slot["extra"] else "action"
        out.append(f"{possessive(name)} {what}: " + self._offers(state, name))
        if me["reloading"]:
            out.append(
                f"{name} is reloading his {me['weapon']} ({me['reloading']} of "
                f"{me['reload_needed']} actions): it fires when it is done (hc reload {name})"
            )
        elif me["rounds"] is not None and me["rounds"] == 0:
            out.append(f"{possessive(name)} {me['weapon']} is empty: hc reload {name}")
        rest = to_act(state)[1:]
        if rest:
            out.append("then in this action turn: " + ", ".join(label(s) for s in rest))
        return out

    def _offers(self, state: T2kState, name: str) -> str:
        """What `name` may do with the action: fire, reload (each unless a forfeit spent it,
        `hc_cli.games.seal_protocol.forfeited`), or pass."""
        from hc_cli.games.seal_protocol import forfeited

        period = self.period(state)
        offers = [f"hc {command} {name}" + (" --at NAME" if command == "fire" else "")
                  for command in ("fire", "reload")
                  if forfeited(dict(state), command, name, period) is None]  # fmt: skip
        return ", ".join([*offers, f"{'or ' if offers else ''}hc game next to pass"])

    compare_count = "hits"
    shot_kinds = SHOT_KINDS  # aimed, quick, aimed-burst, burst

    def compare_columns(self) -> list[tuple[str, str]]:
        return [("p_hit", "P(a hit)"), ("mean_hits", "mean hits"),
                ("mean_damage", "mean damage"), ("p_serious", "P(serious+)")]  # fmt: skip

    def compare_cells(self, state: T2kState, unit: str, target: str, odds: Any) -> dict[str, Any]:
        """The chance of a hit, the mean hits and damage, and the chance the target is left
        seriously wounded or worse: its damage in all after the shot at least the table's
        for a serious wound, out of the fight, or (an NPC) killed outright by a quick kill.
        None where the weapon gives no damage, or the target is seriously wounded already."""
        hits = count_of(odds, "hits", {"hit": 1})
        damage = odds.distributions.get("damage")
        them = state["units"][target]
        worse = [least for least, level in them["wound_damage"] if level in ("serious", "critical")]
        serious = min([*worse, them["out_damage"]])
        p_serious = None
        spared = odds.extra.get("spared")  # an NPC: damage where no hit killed outright
        if them["damage"] < serious and (damage is not None or spared is not None):
            below = spared if spared is not None else damage
            short = sum(p for d, p in below.items() if them["damage"] + d < serious)
            p_serious = float(1 - short)
        return {
            "p_hit": float(1 - hits.get(0, 0)),
            "mean_hits": mean_of(hits),
            "mean_damage": float(odds.extra["mean_damage"])
            if "mean_damage" in odds.extra
            else None,
            "p_serious": p_serious,
        }

    def band_reach(self, tables: Any, weapon: str, band: str) -> float:
        """Short (the printed range), medium, long, extreme: each twice the one before."""
        from hc_cli.rulesets.t2k.tables import BANDS

        found = tables.weapons[weapon]
        if band not in BANDS or found.short is None:
            raise HcError(f"--range {band}: no band of {weapon}",
                          f"give {', '.join(BANDS)} or a number")  # fmt: skip
        return float(found.short * tables.rule("range-band-factor") ** BANDS.index(band))

    def compare_shots(self, tables: Any, weapon: str) -> tuple[str, ...]:
        """Aimed and quick shots; an aimed burst and bursts where the weapon fires bursts."""
        found = tables.weapons.get(weapon)
        if found is None:
            return ()
        return self.shot_kinds if found.burst else self.shot_kinds[:2]

    def compare_samples(self, tables: Any) -> list[str]:
        """P(serious+) reads the damage a serious wound starts at."""
        from hc_cli.tables.entries import Entry, entry_args

        level = tables.merged.tables["wound_levels"].get("serious", {})
        if "from_damage" in level and Entry(**entry_args("serious", level)).is_sample(
            "from_damage"
        ):
            return [f"a serious wound from {level['from_damage']} damage (for P(serious+))"]
        return []

    def columns(self) -> list[tuple[str, str]]:
        return [
            ("name", "character"),
            ("initiative", "initiative"),
            ("wound", "wound"),
            ("damage_text", "damage"),
            ("weapon", "weapon"),
            ("rounds", "rounds"),
            ("state", "state"),
        ]

    def row(self, state: T2kState, name: str, unit: T2kUnit) -> dict[str, Any]:
        rounds = unit["rounds"]
        slot = self.acting(state)
        mine = [s for s in state["order"] if s["name"] == name]
        if unit["out"]:
            what = ["killed (a quick kill)" if unit["killed"] else "out of the fight"]
        elif slot is not None and slot["name"] == name:
            what = ["acting"]
        elif name in state["outside"]:
            what = [f"may act outside the order ({state['outside'][name]})"]
        elif mine and all(s["done"] for s in mine):
            what = ["acted"]
        else:
            what = []
        if unit["reloading"] and not unit["out"]:
            what.append(f"reloading ({unit['reloading']} done)")
        now = initiative_now(unit)
        return {
            "name": name,
            "initiative": now if now == unit["initiative"] else f"{now} (of {unit['initiative']})",
            "initiative_now": now,
            "wound": wound_of(unit),
            "damage": unit["damage"],
            "hits": list(unit["hits"]),
            # each hit is in --json and in the history: the table keeps to 80 columns
            "damage_text": f"{unit['damage']} ({count(len(unit['hits']), 'hit')})"
            if unit["hits"]
            else str(unit["damage"]),
            "weapon": unit["weapon"],
            "rounds": "-" if rounds is None else f"{rounds}/{unit['magazine']}",
            "rounds_left": rounds,
            "out": unit["out"],
            "killed": unit["killed"],
            "state": ", ".join(what),
        }


GAME = T2kGame()


if TYPE_CHECKING:  # GAME keeps the contract the shared game code relies on (a type checker says)
    from hc_cli.plugin.contract import KeepsGames

    _contract: KeepsGames[T2kState] = GAME

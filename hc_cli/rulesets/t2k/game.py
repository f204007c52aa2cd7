"""Twilight: 2000 played as a game (seed 002): characters, the damage they take and the wound
level it makes ("Initiative Table Reductions due to wounds: 1 if slightly; 3 if seriously; 5 if
critically"), the action turns in Initiative order (six to a combat turn; those above 5 act
again at half), the rounds a shot or a burst uses and the actions a reload takes. Pure: the
state is plain data, folded from the game's entries."""

from __future__ import annotations

from hc_cli.errors import HcError
from hc_cli.game_rules import Fill, GameRules, enemy_check, known_unit, possessive
from hc_cli.schema import Field
from hc_cli.words import count

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

    from hc_cli.schema import Problems

ACTION_TURNS = 6  # "Combat turn: 30 seconds Action Turn: 5 seconds"


class T2kGame(GameRules):
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
    example = "asset: 12, strength: 5, initiative: 6, agility: 7, weapon: m16a2"
    whole_game = ("initiative",)
    unit_commands = ("fire", "reload")

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
                unit.line_of("rounds"),
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
            "damage": 0,
            "wound": "none",  # slight, serious, critical (the seed's levels)
            "out": False,  # killed, or out of the fight
            "reloading": 0,  # actions spent on a reload not yet done
            "reloaded_turn": 0,  # the combat turn of its last reload action
        }  # fmt: skip

    def first_clock(self) -> dict[str, Any]:
        return {"combat_turn": 0, "action_turn": 0, "order": [], "pos": 0, "stale": False}

    def apply(self, state: dict[str, Any], entry: dict[str, Any]) -> list[str]:
        command = entry["command"]
        result = entry["result"]
        game = entry["game"]
        if command == "initiative":
            state["order"] = [
                {"name": o["name"], "initiative": o["initiative"], "extra": o["extra"]}
                for o in result["order"]
            ]
            state["pos"] = 0
            state["stale"] = False
            if not state["combat_turn"]:
                state["combat_turn"] = state["action_turn"] = 1
            notes = ["the order: " + ", ".join(self._entry_words(o) for o in state["order"])]
            return notes + self._skip_out(state)
        name = game["unit"]
        unit = state["units"][name]
        notes: list[str] = []
        if command == "fire":
            used = result.get("rounds")
            if unit["rounds"] is not None and isinstance(used, int):
                unit["rounds"] = max(0, unit["rounds"] - used)
                notes.append(f"{name}: {count(used, 'round')} fired, {unit['rounds']} left")
            if game.get("at"):
                self._hit(state, game["at"][0], result, notes)
        elif command == "reload":
            notes += self._reload(state, name, unit, result)
        else:
            raise HcError(f"{command} is no action of a Twilight: 2000 game")
        if self._actor(state) == name:
            notes += self._advance(state)
        return notes

    def _hit(self, state: dict, name: str, result: dict, notes: list[str]) -> None:
        unit = state["units"][name]
        damage = sum(e.get("damage") or 0 for e in result.get("hit_effects") or [])
        if result.get("outcome") == "quick-kill":
            unit["out"] = True
            notes.append(f"{name} is killed outright (a quick kill)")
        if damage:
            unit["damage"] += damage
            notes.append(f"{name}: {damage} damage, {unit['damage']} in all")
        if unit["damage"] >= unit["out_damage"] and not unit["out"]:
            unit["out"] = True
            notes.append(f"{name} is out of the fight ({unit['out_damage']} damage or more)")
        level = "none"
        for least, named in unit["wound_damage"]:
            if unit["damage"] >= least:
                level = named
        if level != unit["wound"] and not unit["out"]:
            unit["wound"] = level
            state["stale"] = True
            off = unit["reductions"].get(level, 0)
            notes.append(
                f"{name} is {level}ly wounded: Initiative {unit['initiative']} - {off} = "
                f"{unit['initiative'] - off} (the order is rolled again: hc initiative)"
            )
        if unit["out"]:
            state["stale"] = True

    def _reload(self, state: dict, name: str, unit: dict, result: dict) -> list[str]:
        unit["reloaded_turn"] = state["combat_turn"]
        magazine = result.get("magazine") or unit["magazine"]
        per = result.get("rounds_per_action")
        if per:
            unit["rounds"] = min(magazine or per, (unit["rounds"] or 0) + per)
            return [f"{name} loads {per} rounds: {unit['rounds']} in"]
        unit["reloading"] += 1
        needed = result.get("actions") or 1
        if unit["reloading"] >= needed:
            unit["reloading"] = 0
            unit["rounds"] = magazine
            return [f"{name} has reloaded: {magazine} rounds"]
        return [f"{name} is reloading: {unit['reloading']} of {needed} actions"]

    def _actor(self, state: dict) -> str | None:
        order = state["order"]
        return order[state["pos"]]["name"] if order and state["pos"] < len(order) else None

    def _entry_words(self, entry: dict) -> str:
        return f"{entry['name']} ({entry['initiative']}{', extra' if entry['extra'] else ''})"

    def _skip_out(self, state: dict) -> list[str]:
        """Past the characters out of the fight; who acts now, in words."""
        notes = []
        while True:
            order = state["order"]
            while state["pos"] < len(order) and state["units"][order[state["pos"]]["name"]]["out"]:
                state["pos"] += 1
            if state["pos"] < len(order):
                break
            if not any(not state["units"][o["name"]]["out"] for o in order):
                return notes + ["nobody in the order is left to act"]
            state["pos"] = 0
            state["action_turn"] += 1
            if state["action_turn"] > ACTION_TURNS:
                state["combat_turn"] += 1
                state["action_turn"] = 1
            notes.append(
                f"combat turn {state['combat_turn']}, action turn {state['action_turn']} begins"
            )
        actor = state["order"][state["pos"]]
        extra = ", an extra action" if actor["extra"] else ""
        return notes + [
            f"next: {possessive(actor['name'])} action (initiative {actor['initiative']}{extra})"
        ]

    def _advance(self, state: dict) -> list[str]:
        state["pos"] += 1
        return self._skip_out(state)

    def next(self, state: dict[str, Any]) -> list[str]:
        if not state["order"]:
            raise HcError("there is no order yet", "hc initiative rolls the Initiative order")
        actor = self._actor(state)
        return [f"{actor} passes"] + self._advance(state)

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
            return self._fill_initiative(state, unit, at, flags)
        if command not in self.unit_commands:
            raise HcError(f"{command} is no action of a Twilight: 2000 game")
        if unit is None:
            raise HcError(
                f"hc {command} in a game names the character who acts",
                f"hc {command} NAME" + (" --at NAME" if command == "fire" else ""),
            )
        me = known_unit(state, unit, "the character acting")
        if me["out"]:
            raise HcError(f"{unit} is out of the fight", "act with another character")
        refusal = self._may_act(state, unit)
        notes = []
        if command == "reload":
            if at:
                raise HcError("a reload takes no --at", f"hc reload {unit}")
            if "weapon" not in flags and "feed" not in flags:
                flags["weapon"] = me["weapon"]
                notes.append(f"weapon {me['weapon']}")
            if me["magazine"] is not None and "magazine" not in flags:
                flags["magazine"] = me["magazine"]
            from hc_cli import readings

            feed = tables.feeds.get(str(flags.get("feed") or me["feed"] or "").lower())
            per_turn = readings.choose(tables.merged, "reload-per-turn") == "combat-turn"
            if (
                refusal is None
                and feed is not None
                and feed.rounds_per_action
                and per_turn
                and me["reloaded_turn"] == state["combat_turn"]
            ):
                refusal = f"{unit} has reloaded this combat turn (reload-per-turn = combat-turn)"
            if refusal is None and me["rounds"] is not None and me["rounds"] == me["magazine"]:
                refusal = f"{possessive(unit)} {me['weapon']} is full ({me['rounds']} rounds)"
            return Fill(flags, refusal=refusal, notes=notes)
        for key in ("asset", "strength", "weapon"):
            if key not in flags:
                flags[key] = me[key]
                notes.append(f"{key} {me[key]}")
        if at:
            if len(at) > 1:
                raise HcError("a shot is at one character", f"hc fire {unit} --at NAME")
            target = known_unit(state, at[0], "--at")
            enemy_check(state, unit, at[0])
            if target["out"]:
                raise HcError(f"{at[0]} is out of the fight", "choose another target")
            if target["npc"] and "npc" not in flags:
                flags["npc"] = True
                notes.append(f"{at[0]} is an NPC")
        need = self._rounds_needed(flags, tables)
        if refusal is None and me["rounds"] is not None and need is not None:
            if need > me["rounds"]:
                refusal = (
                    f"{unit} has {me['rounds']} rounds left, the shot needs {need}: "
                    f"hc reload {unit}"
                )
        return Fill(flags, refusal=refusal, notes=notes)

    def _rounds_needed(self, flags: dict[str, Any], tables: Any) -> int | None:
        if flags.get("thrown"):
            return None
        shots = flags.get("shots", 1)
        if flags.get("shot") in ("burst", "aimed-burst"):
            weapon = tables.weapons.get(str(flags.get("weapon", "")).lower())
            burst = flags.get("rof") or (weapon.burst if weapon is not None else None)
            return None if burst is None else int(burst) * shots
        return shots

    def _may_act(self, state: dict, unit: str) -> str | None:
        if not state["order"]:
            return "there is no order yet: roll the Initiative (hc initiative)"
        actor = self._actor(state)
        if state["stale"] and state["pos"] == 0:
            return "wounds have changed the order: roll it again (hc initiative)"
        if actor != unit:
            return f"it is {possessive(actor or 'nobody')} action: hc game next passes it on"
        return None

    def _fill_initiative(self, state, unit, at, flags) -> Fill:  # type: ignore[no-untyped-def]
        if unit is not None or at:
            raise HcError("the order is everybody's, not one character's", "hc initiative")
        if flags.get("char") or flags.get("roster"):
            raise HcError(
                "the game's characters are its roster's",
                "leave out --char and --roster, or roll outside the game: --game none",
            )
        chars = []
        for name, u in state["units"].items():
            if u["out"]:
                continue
            wound = "" if u["wound"] == "none" else u["wound"]
            agility = "" if u["agility"] is None else str(u["agility"])
            chars.append(f"{name}:{u['initiative']}:{wound}:{agility}:{u['bulk'] or 0}")
        if not chars:
            raise HcError("nobody is left in the fight", "the game is over")
        flags["char"] = chars
        return Fill(flags, notes=[f"{len(chars)} characters, with their wounds"])

    # -- seeing -----------------------------------------------------------------------------

    def clock(self, state: dict[str, Any]) -> str:
        if not state["order"]:
            return "before the first action turn"
        actor = self._actor(state)
        return f"combat turn {state['combat_turn']}, action turn {state['action_turn']}: " + (
            f"{possessive(actor)} action" if actor else "nobody left to act"
        )

    def clock_fields(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            "combat_turn": state["combat_turn"],
            "action_turn": state["action_turn"],
            "acting": self._actor(state),
            "order": state["order"],
        }

    def period(self, state: dict[str, Any]) -> str:
        if not state["combat_turn"]:
            return "before the first action turn"
        return f"combat turn {state['combat_turn']}, action turn {state['action_turn']}"

    def due(self, state: dict[str, Any]) -> list[str]:
        if not state["order"]:
            return ["roll the Initiative order: hc initiative"]
        out = []
        if state["stale"]:
            out.append("wounds have changed the Initiative: roll the order again (hc initiative)")
        actor = self._actor(state)
        if actor:
            me = state["units"][actor]
            line = f"{possessive(actor)} action: hc fire {actor} --at NAME, hc reload {actor}"
            out.append(line + ", or hc game next to pass")
            if me["rounds"] is not None and me["rounds"] == 0:
                out.append(f"{possessive(actor)} {me['weapon']} is empty: hc reload {actor}")
        return out

    def columns(self) -> list[tuple[str, str]]:
        return [
            ("name", "character"),
            ("initiative", "initiative"),
            ("wound", "wound"),
            ("damage", "damage"),
            ("weapon", "weapon"),
            ("rounds", "rounds"),
            ("state", "state"),
        ]

    def row(self, state: dict[str, Any], name: str, unit: dict[str, Any]) -> dict[str, Any]:
        rounds = unit["rounds"]
        what = "out" if unit["out"] else "acting" if name == self._actor(state) else ""
        if unit["reloading"] and not unit["out"]:
            what = (what + ", " if what else "") + f"reloading ({unit['reloading']} done)"
        now = unit["initiative"] - unit["reductions"].get(unit["wound"], 0)
        return {
            "name": name,
            "initiative": now if now == unit["initiative"] else f"{now} (of {unit['initiative']})",
            "initiative_now": now,
            "wound": unit["wound"],
            "damage": unit["damage"],
            "weapon": unit["weapon"],
            "rounds": "-" if rounds is None else f"{rounds}/{unit['magazine']}",
            "rounds_left": rounds,
            "out": unit["out"],
            "state": what,
        }


GAME = T2kGame()

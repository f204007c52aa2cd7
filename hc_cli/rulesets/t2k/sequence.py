"""The sequence of a Twilight: 2000 game (seed 002), as `hc game rules` prints it and every
action is checked against it, and the actions filled from the game: a command no step in force
takes, a character acting out of his turn, a weapon halfway through its reload, movement as a
second action, a shot the rounds left cannot fire, each refused with the rule and what would
make it legal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.core.words import count
from hc_cli.plugin.game_rules import Fill, Flags, Step, enemy_check, known_unit, possessive
from hc_cli.rulesets.t2k.game_order import EXCEPTIONS, OUTSIDE, actor, next_slot, wound_of
from hc_cli.rulesets.t2k.game_zone import fill_kept

if TYPE_CHECKING:
    from hc_cli.rulesets.t2k.state import T2kState, T2kUnit

SEQUENCE = (
    Step(
        "1",
        "the characters",
        "take their places in the order by Initiative, highest first, once, before the first "
        "action turn (the die of a tie is rolled here); the game keeps the order from then on",
        ("initiative",),
        "seed 002, Initiative Issues",
    ),
    Step(
        "2",
        "each character in the order",
        "takes one action each action turn, and an extra one at half his Initiative if it is "
        "above 5: fire, reload, or pass",
        ("fire", "reload", "game next"),
        "seed 002, Action turns",
    ),
    Step(
        "3",
        "a character who ambushes, fires from opportunity or acts involuntarily (panics: "
        "knocked down, surprised, charged by a vehicle or running animal; bails out: vehicle "
        "pierced by other than small arms)",
        "acts outside the order, whoever's action it is",
        tuple(f"initiative --{e.replace('_', '-')} NAME" for e in EXCEPTIONS),
        "seed 002, Initiative exceptions",
    ),
)

BETWEEN = (
    "'Combat turn: 30 seconds Action Turn: 5 seconds' (seed 002): six action turns a combat "
    "turn; the next begins when every character has taken his actions.",
    "One action a character an action turn; 'Initiative higher than 5 receive extra action at "
    "1/2 the value' (seed 002). An action outside the order, or out of his turn with --anyway, "
    "spends his next action of the action turn (reading outside-order-action).",
    "'Reductions due too wounds: 1 if slightly; 3 if seriously; 5 if critically' (seed 002): "
    "the game makes the order again from the Initiatives as wounds leave them, from the next "
    "action turn (reading wound-initiative), with no roll.",
    "'Ties are resolved by Agility minus bulk of weapon, then raw agility score, then die "
    "roll' (seed 002): hc initiative rolls the die once; a later tie that Agility cannot part "
    "goes as that roll ordered them (the game rolls no die of its own).",
    "'No movement permitted as second action' (seed 002): an extra action fires without "
    "--movement crawling, walking, trotting or running.",
    "'No firing while crawling or running' (seed 002): hc fire refuses it.",
    "'Reload: Bx. 1 action. R 3 bullets per turn. R 6 bullets with speed loader. I 3 bullets "
    "per turn. B 2 actions for one person. B 1 action for two persons. C 5 actions.' (seed "
    "002): hc reload counts the actions; a weapon halfway through its reload fires only when "
    "the reload is done.",
)


def fill_action(
    state: T2kState, command: str, unit: str | None, at: list[str], flags: Flags, tables: Any
) -> Fill:
    """A command of the game made whole from its state, with why it may not be taken now."""
    if command == "initiative":
        return _fill_initiative(state, unit, at, flags)
    if command not in ("fire", "reload"):
        raise HcError(f"{command} is no action of a Twilight: 2000 game")
    chosen = None
    if unit is None:  # the character whose action it is, when the order says who
        slot = actor(state) if state["combat_turn"] else None
        if slot is None:
            raise HcError(
                f"hc {command} in a game names the character who acts",
                f"hc {command} NAME" + (" --at NAME" if command == "fire" else ""),
            )
        unit = chosen = slot["name"]
    me = known_unit(state, unit, "the character acting")
    if me["out"]:
        raise HcError(f"{unit} is out of the fight", "act with another character")
    if command == "fire" and flags.get("kept"):
        return fill_kept(state, unit, at, flags)
    refusal = _out_of_sequence(state, command, flags) or _may_act(state, unit)
    fill = _fill_reload if command == "reload" else _fill_fire
    filled = fill(state, unit, at, flags, tables, refusal)
    if chosen is not None:
        filled.unit = chosen
        filled.notes.insert(0, f"{chosen} acts: his action in the order")
    return filled


def _fill_reload(
    state: T2kState, unit: str, at: list[str], flags: Flags, tables: Any, refusal: str | None
) -> Fill:
    me = state["units"][unit]
    if at:
        raise HcError("a reload takes no --at", f"hc reload {unit}")
    notes = []
    if "weapon" not in flags and "feed" not in flags:
        flags["weapon"] = me["weapon"]
        notes.append(f"weapon {me['weapon']}")
    if me["magazine"] is not None and "magazine" not in flags:
        flags["magazine"] = me["magazine"]
    from hc_cli.tables import readings

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


def _fill_fire(
    state: T2kState, unit: str, at: list[str], flags: Flags, tables: Any, refusal: str | None
) -> Fill:
    me = state["units"][unit]
    notes = []
    for key in ("asset", "strength", "weapon"):
        if key not in flags:
            flags[key] = me[key]
            notes.append(f"{key} {me[key]}")
    if not at:  # the hits would land on no one the game knows: no result kept for them
        raise HcError(f"hc fire {unit} needs its target", f"hc fire {unit} --at NAME")
    if len(at) > 1:
        raise HcError("a shot is at one character", f"hc fire {unit} --at NAME")
    target = known_unit(state, at[0], "--at")
    enemy_check(state, unit, at[0])
    if target["out"]:
        raise HcError(f"{at[0]} is out of the fight", "choose another target")
    if target["npc"] and "npc" not in flags:
        flags["npc"] = True
        notes.append(f"{at[0]} is an NPC")
    notes += _fill_zone(state, unit, at, flags)
    acting = actor(state)
    from_opportunity = state["outside"].get(unit) == OUTSIDE["opportunity_fire"] and (
        acting is None or acting["name"] != unit
    )
    if refusal is None and from_opportunity and flags.get("shot") == "aimed-burst":
        refusal = (
            "opportunity fire: automatic fire is never an aimed shot (seed 002, Special "
            "cases): --shot burst, or an aimed single shot"
        )
    own = str(flags["weapon"]).lower() == me["weapon"]
    if refusal is None and own and me["reloading"]:
        refusal = (
            f"{unit} is halfway through reloading his {me['weapon']} ({me['reloading']} of "
            f"{me['reload_needed']} actions; seed 002, Reload): it fires when the reload is "
            f"done: hc reload {unit} (a weapon the roster does not give him: --weapon NAME "
            "--anyway)"
        )
    slot = next_slot(state, unit)
    moving = tables.movement.get(str(flags.get("movement") or "stationary").lower())
    if refusal is None and slot is not None and slot["extra"] and moving and moving.metres:
        refusal = (
            f"'No movement permitted as second action' (seed 002): {possessive(unit)} action "
            f"at {slot['initiative']} is his extra one: fire without --movement "
            f"{moving.key}"
        )
    need = _rounds_needed(flags, tables) if own else None
    if refusal is None and me["rounds"] is not None and need is not None:
        if need > me["rounds"]:
            refusal = (
                f"{unit} has {me['rounds']} rounds left, the shot needs {need}: hc reload {unit}"
            )
    return Fill(flags, refusal=refusal, notes=notes)


def _fill_zone(state: T2kState, unit: str, at: list[str], flags: dict) -> list[str]:
    """The danger zone's targets are the game's characters (a typo is no bystander); its
    NPCs may be quick-killed, as the target may."""
    notes, npcs = [], []
    for text in flags.get("zone") or []:
        name = str(text).rpartition(":")[0].strip()
        if not name:
            continue  # the resolver says what --zone needs
        who = known_unit(state, name, "--zone")
        if name == unit or name in at:
            raise HcError(
                f"--zone {name}: the danger zone is beside the target, not the "
                + ("firer" if name == unit else "target"),
                "name the others within 5 m of the target",
            )
        if who["out"]:
            raise HcError(f"{name} is out of the fight", f"leave {name} out of --zone")
        if who["npc"]:
            npcs.append(name)
    if npcs and "zone_npc" not in flags:
        flags["zone_npc"] = npcs
        notes.append(f"in the danger zone, NPCs {', '.join(npcs)}")
    return notes


def _rounds_needed(flags: Flags, tables: Any) -> int | None:
    if flags.get("thrown"):
        return None
    shots = flags.get("shots", 1)
    if flags.get("shot") in ("burst", "aimed-burst"):
        weapon = tables.weapons.get(str(flags.get("weapon", "")).lower())
        burst = flags.get("rof") or (weapon.burst if weapon is not None else None)
        return None if burst is None else int(burst) * shots
    return shots


def _steps_now(state: T2kState) -> tuple[Step, ...]:
    """The steps of the sequence in force: the order first, then the action turns and
    the exceptions to them."""
    return SEQUENCE[:1] if not state["combat_turn"] else SEQUENCE[1:]


def _out_of_sequence(state: T2kState, command: str, flags: dict) -> str | None:
    """A command no step in force takes, refused with the rule of the step that takes it
    and the commands that are taken now."""
    now = _steps_now(state)
    if any(_takes(step, command, flags) for step in now):
        return None
    legal = _commands_text([c for step in now for c in step.commands])
    step = next(s for s in SEQUENCE if _takes(s, command, flags))
    return (
        f"hc {command} comes in step {step.name}: {step.who} {step.does} ({step.source}); "
        f"now: {legal}"
    )


def _commands_text(commands: list[str]) -> str:
    """The commands a step takes, those of one command with an option each said once: "hc
    initiative --ambush NAME (or --opportunity-fire, ...)"."""
    said: dict[str, list[str]] = {}
    for command in commands:
        head, _, option = command.partition(" --")
        said.setdefault(head, []).append(option.partition(" ")[0])
    words = []
    for head, options in said.items():
        if options == [""]:
            words.append(f"hc {head}")
        else:
            more = ", ".join(f"--{o}" for o in options[1:])
            words.append(f"hc {head} --{options[0]} NAME" + (f" (or {more})" if more else ""))
    return ", ".join(words)


def _may_act(state: T2kState, unit: str) -> str | None:
    """Whether it is the character's action: his place in the order, or one outside it
    that hc initiative recorded."""
    slot = actor(state)
    mine = next_slot(state, unit)
    beside = state["readings"]["outside-order-action"] == "beside-his-action"
    if unit in state["outside"] and (mine is not None or beside):
        return None
    if slot is not None and slot["name"] == unit:
        return None
    turn = f"action turn {state['action_turn']}"
    if mine is None:
        return (
            f"{unit} has taken his actions of {turn}: each character acts once an action "
            "turn, and once more above 5 (seed 002); he acts again in the next"
        )
    exception = " or ".join(f"--{e.replace('_', '-')} {unit}" for e in OUTSIDE)
    acting = f"{possessive(slot['name'])} action" if slot else "nobody's action"
    return (
        f"it is {acting}: {unit} acts at {mine['initiative']} in {turn}, or outside the "
        f"order once hc initiative {exception} records it; hc game next passes the action"
    )


def _fill_initiative(state: T2kState, unit: str | None, at: list[str], flags: dict) -> Fill:
    """The order rolled once, before the first action turn; after it only the exceptions to
    it are recorded (a roll of the ties again is refused unless --anyway)."""
    if unit is not None or at:
        raise HcError("the order is everybody's, not one character's", "hc initiative")
    if flags.get("char") or flags.get("roster"):
        raise HcError(
            "the game's characters are its roster's",
            "leave out --char and --roster, or roll outside the game: --game none",
        )
    outside: dict[str, str] = {}
    for kind in EXCEPTIONS:
        names = []
        for name in flags.get(kind) or []:
            option = f"--{kind.replace('_', '-')}"
            if known_unit(state, name, option)["out"]:
                raise HcError(f"{name} is out of the fight", f"leave out {option} {name}")
            if name in outside:
                raise HcError(f"{name} is named twice: one exception a character", "name him once")
            outside[name] = kind
            names.append(name)
        if names:
            flags[kind] = names
    refusal = _out_of_sequence(state, "initiative", flags)
    meta: dict[str, Any] = {"outside": outside} if outside else {}
    chars = [n for n, u in state["units"].items() if not u["out"]]
    if state["combat_turn"] and outside:  # the order stands: the exceptions are recorded
        chars, meta["roll"] = list(outside), "exceptions"
        if state["readings"]["outside-order-action"] == "his-action":
            spent = [n for n in outside if next_slot(state, n) is None]
            if spent:
                refusal = (
                    f"{' and '.join(spent)} has taken his actions of action turn "
                    f"{state['action_turn']}: an action outside the order is his action of "
                    "the action turn (reading: outside-order-action = his-action); record "
                    "it in the next"
                )
    if not chars:
        raise HcError("nobody is left in the fight", "the game is over")
    flags["char"] = [_char(n, state["units"][n]) for n in chars]
    return Fill(
        flags,
        meta=meta,
        refusal=refusal,
        notes=[f"{count(len(chars), 'character')}, with their wounds"],
    )


def _char(name: str, u: T2kUnit) -> str:
    """A character as hc initiative takes it: NAME:INITIATIVE:WOUNDS:AGILITY:BULK."""
    wound = wound_of(u)
    agility = "" if u["agility"] is None else str(u["agility"])
    return f"{name}:{u['initiative']}:{'' if wound == 'none' else wound}:{agility}:{u['bulk'] or 0}"


def _takes(step: Step, command: str, flags: Flags) -> bool:
    """Whether the step takes the command as given: `initiative --ambush NAME` takes hc
    initiative with --ambush, `initiative` takes it with or without."""
    for taken in step.commands:
        words = taken.split()
        name = " ".join(w for w in words if not w.startswith("--") and not w.isupper())
        options = [w[2:].replace("-", "_") for w in words if w.startswith("--")]
        if name == command and all(flags.get(o) for o in options):
            return True
    return False

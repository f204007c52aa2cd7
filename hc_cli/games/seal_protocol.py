"""A sealed roll's entries as the fold checks them, step by step (`take_event`,
`check_action`): what a secret is committed to, the seed both secrets give, what a sealed
roll under way waits for. The steps the players take are `hc_cli.games.seal`'s.

A reveal that does not match its commitment, a secret or a commitment used twice, a step out
of order, a roll with another seed or of another action, is a damaged file. Once both players
committed a roll is final: it is not abandoned, and a roller who does not reveal it forfeits
it, claimed by the other player (`seal-forfeit`): the unit's action is spent for the move or
turn, by the reading `sealed-roll-forfeit`.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError
from hc_cli.plugin.game_rules import FORFEIT_READING

if TYPE_CHECKING:
    from hc_cli.games.roster import Rules

EVENTS = ("seal", "seal-commit", "seal-reveal", "seal-abandon", "seal-forfeit")
FORFEIT = next(iter(FORFEIT_READING))  # what a forfeit spends: a reading of every game
_HEX = re.compile(r"[0-9a-f]{32}")
_HEAD = re.compile(r"[0-9a-f]{64}")


def commitment(secret: str) -> str:
    """What a secret is committed to: `printf 'hc seal:%s' SECRET | sha256sum`, its first
    32 hex digits."""
    return hashlib.sha256(f"hc seal:{secret}".encode()).hexdigest()[:32]


def derive(head: str, a: str, b: str) -> int:
    """The seed of a sealed roll: `printf 'hc sealed roll:%s:%s:%s' HEAD A B | sha256sum`, its
    first 15 hex digits as a number."""
    return int(hashlib.sha256(f"hc sealed roll:{head}:{a}:{b}".encode()).hexdigest()[:15], 16)


def open_seal(state: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The sealed roll under way that holds the game (a hidden one until it is unsealed): (its
    entry number, what the file says of it), or None."""
    before_3 = state.get("version", 1) < 3  # a hidden roll opened let the game go on then
    for number, seal in (state.get("seals") or {}).items():
        if not seal["done"] and not (before_3 and seal["hidden"] and seal["b"] is not None):
            return number, seal
    return None


def take_event(
    state: dict[str, Any], entry: dict[str, Any], rules: Rules | None = None
) -> list[str]:
    """A sealed roll's step into the state (in place): what it says, in words. A forfeit of
    a test the rules require is taken as failed (`GameRules.forfeit_failed`)."""
    game = entry["game"]
    event = game["event"]
    seals = state.setdefault("seals", {})
    used = {v for s in seals.values() for k in ("a", "b", "commit_a", "commit_b") if (v := s[k])}
    if event == "seal":
        action, commit, hidden = game["action"], game["commit"], game.get("hidden", False)
        if open_seal(state) is not None:
            raise HcError("a sealed roll begins while another is under way")
        if not _HEX.fullmatch(str(commit)) or commit in used:
            raise HcError("a sealed roll's commitment is no fresh commitment")
        if not isinstance(action, dict) or not isinstance(hidden, bool):
            raise HcError("a sealed roll names no action")
        seals[str(entry["seq"])] = {
            "action": action, "seq": entry["seq"], "head": None, "hidden": hidden,
            "commit_a": commit, "commit_b": None, "a": None, "b": None, "done": False,
        }  # fmt: skip
        return [f"a sealed roll begins: {what(action)}"]
    seal = seals.get(str(game.get("seal")))
    if seal is None or seal["done"]:
        raise HcError(f"entry {str(game.get('seal'))[:20]} is no sealed roll under way")
    if event == "seal-abandon":
        if seal["commit_b"] is not None and state.get("version", 1) < 3 and seal["b"] is None:
            seal["done"] = "forfeit"  # a game of an older hc: given up after both committed
            return [f"sealed roll {game.get('seal')} given up after both players committed: a "
                    "forfeit, nothing rolled"]  # fmt: skip
        if seal["commit_b"] is not None:
            raise HcError("a sealed roll abandoned after both players committed: it is final")
        seal["done"] = "abandoned"
        return [f"sealed roll {game.get('seal')} abandoned: nothing was rolled"]
    if event == "seal-forfeit":
        if seal["commit_b"] is None:
            raise HcError("a sealed roll's forfeit claimed before both players committed")
        if seal["a"] is not None and seal["b"] is not None:
            raise HcError("a sealed roll's forfeit claimed once both secrets were shown")
        if seal["b"] is None:
            raise HcError("a sealed roll's forfeit claimed before the other player's secret was "
                          "in the file, for its roller to roll with")  # fmt: skip
        seal["done"] = "forfeit"
        failed = rules.forfeit_failed(state, seal["action"]) if rules is not None else None
        if failed is not None:
            seal["failed"] = failed
        return [f"sealed roll {game.get('seal')} not revealed by its roller: a forfeit, claimed "
                f"by the other player; {spent(state, seal)}"]  # fmt: skip
    if event == "seal-commit":
        commit = game.get("commit")
        if seal["commit_b"] is not None:
            raise HcError("a sealed roll committed to twice")
        if not _HEX.fullmatch(str(commit)) or commit in used:
            raise HcError("a sealed roll's second commitment is no fresh commitment")
        if entry.get("seq") != seal["seq"] + 1 or not _HEAD.fullmatch(str(entry.get("prev"))):
            raise HcError("a sealed roll's second commitment is not the entry after it")
        seal["commit_b"], seal["head"] = commit, entry["prev"]  # the sealing entry's hash
        return ["both players are committed to the sealed roll"]
    if seal["commit_b"] is None:
        raise HcError("a sealed roll's secret shown before both players committed")
    notes = []
    for who in ("b", "a"):
        secret = game.get(who)
        if secret is None:
            continue
        if seal[who] is not None or not _HEX.fullmatch(str(secret)) or secret in used:
            raise HcError(f"a sealed roll's secret {who} is shown twice, or is no fresh secret")
        if commitment(secret) != seal[f"commit_{who}"]:
            raise HcError(f"a sealed roll's secret {who} does not match its commitment")
        seal[who] = secret
        notes.append(f"secret {who} shown: it matches its commitment")
    if not notes or (seal["a"] is not None and seal["b"] is None):
        raise HcError("a sealed roll's secrets are shown out of order")
    return notes


def plain_roll(entry: dict[str, Any]) -> bool:
    """A roll of dice kept in a game (`hc roll EXPR --sealed` or `--hidden`): no unit acts."""
    return entry.get("command") == "roll"


def check_action(state: dict[str, Any], entry: dict[str, Any], period: str = "") -> None:
    """An action of the game (in `period`, the game's as it stands): while a sealed roll holds
    the game, only its own roll, with the seed both secrets give and the action as sealed;
    none that a forfeit spent."""
    game = entry.get("game") or {}
    held = open_seal(state)
    number = game.get("sealed")
    if number is None and plain_roll(entry):
        raise HcError("a roll of dice in a game that is no sealed roll")
    if number is None:
        lost = forfeited(state, str(entry.get("command")), game.get("unit"), period)
        if lost is not None:
            raise HcError(f"an action spent by a forfeit, made: {lost}")
    if number is None:
        if held is not None and held[1]["a"] is None:
            raise HcError(f"an action while the sealed roll of entry {held[0]} is under way")
        if held is not None:
            raise HcError(f"an action in place of the sealed roll of entry {held[0]}")
        return
    seal = (state.get("seals") or {}).get(str(number))
    if seal is None or seal["done"] or seal["a"] is None or seal["b"] is None:
        raise HcError(f"a roll of entry {str(number)[:20]}, which is no sealed roll opened")
    action = seal["action"]
    made = {"command": entry.get("command"), "unit": game.get("unit"), "at": game.get("at"),
            "flags": entry.get("flags"), "given": game.get("given"),
            "meta": game.get("meta"), "anyway": bool(game.get("anyway"))}  # fmt: skip
    if any(action.get(k) != v for k, v in made.items()):
        raise HcError(f"the roll of the sealed roll of entry {number} is not the action sealed")
    if entry.get("dice") or entry.get("seed") != derive(seal["head"], seal["a"], seal["b"]):
        raise HcError(f"the sealed roll of entry {number} was rolled with another seed")
    seal["done"] = True


def next_step(number: str, seal: dict[str, Any]) -> str:
    """What a sealed roll under way waits for, in words, with the command that does it."""
    if seal["commit_b"] is None:
        return (
            f"sealed roll {number} waits for the other player's commitment: hc seal commit "
            f"CODE with the line their hc printed (its roller alone may give it up first: hc "
            f"seal abandon {number})"
        )
    forfeit = (f"; not revealed, it is forfeit: the other player claims it with hc seal forfeit "
               f"{number}")  # fmt: skip
    if seal["b"] is None:
        return (
            f"sealed roll {number} is final, both players committed: it waits for the other "
            "player's secret, in the file by their hc seal reveal CODE (or hc seal open CODE "
            "with the line their hc printed); once it is there, not revealed, it is forfeit"
        )
    if seal["a"] is not None:  # both secrets in the file: the roll is made, by either player
        return f"sealed roll {number} waits for its roll: hc seal open {number}"
    if not seal["hidden"]:
        return f"sealed roll {number} waits for its roller: hc seal open {number}{forfeit}"
    return (f"hidden roll {number} holds the game until it is unsealed: hc seal unseal "
            f"{number}{forfeit}")  # fmt: skip


def due(state: dict[str, Any], period: str | None = None) -> list[str]:
    """The sealed rolls under way, and those forfeit (in `period`, when given), for `hc
    status`: first, as nothing else goes on meanwhile."""
    seals = (state.get("seals") or {}).items()
    out = [next_step(n, s) for n, s in seals if not s["done"]]
    out += [f"sealed roll {n} ({what(s['action'])}) was forfeit: {spent(state, s)}"
            for n, s in seals if s["done"] == "forfeit"
            and period in (None, s["action"].get("period"))]  # fmt: skip
    return out


def game_due(rules: Rules, state: dict[str, Any]) -> list[str]:
    """What the game now requires: a sealed roll under way first, and alone (nothing else can
    be played meanwhile), else what the rules require, after the forfeits of the period."""
    if open_seal(state) is not None:
        return due(state)
    over = rules.over(state)
    if over is not None:
        return [over]  # nothing more is due
    return due(state, rules.period(state)) + rules.due(state)


def reading(state: dict[str, Any]) -> str:
    """What a forfeit spends in this game: the reading `sealed-roll-forfeit` it began with (a
    game from before it was one, the first)."""
    return str((state.get("readings") or {}).get(FORFEIT, FORFEIT_READING[FORFEIT][0]))


def spent(state: dict[str, Any], seal: dict[str, Any]) -> str:
    """What a forfeit spends, in words, naming the reading that decides it."""
    action = seal["action"]
    unit, period = action.get("unit"), action.get("period")
    said = f"(reading: {FORFEIT} = {reading(state)})"
    if not unit:
        return f"nothing else is spent: a roll of no unit is made again only sealed anew {said}"
    failed = seal.get("failed")
    if failed:
        said = f"taken as failed, as the rules require it {said}: {'; '.join(failed)}"
    if reading(state) == "unit-spent":
        return f"{unit} acts no more in {period} {said}"
    targets = ", at any target" if action.get("at") else ""
    return f"{unit} makes no {action.get('command')} again in {period}{targets} {said}"


def forfeited(state: dict[str, Any], command: str, unit: str | None, period: str) -> str | None:
    """Why `unit` may not take `command` in `period`: a sealed roll of it there forfeit (a
    forfeit that bought a new roll, at another target, would be no forfeit), or None."""
    unit = str(unit or "").partition(":")[0]  # a model of the unit acts as the unit
    for number, seal in (state.get("seals") or {}).items():
        action = seal["action"]
        if seal["done"] != "forfeit" or not unit:
            continue
        if str(action.get("unit") or "").partition(":")[0] != unit:
            continue
        same = reading(state) == "unit-spent" or action.get("command") == command
        if action.get("period") == period and same:
            return f"sealed roll {number} ({what(action)}) was forfeit: {spent(state, seal)}"
    return None


def rolled_by(state: dict[str, Any], seal: dict[str, Any]) -> str:
    """The side that sealed a roll: its unit's; a roll of no unit, the side its entry names
    (`hc roll --side`, else the side playing when it was sealed); else "no unit"."""
    units = state.get("units") or {}
    unit = str(seal["action"].get("unit") or "").partition(":")[0]
    if unit in units:
        return str(units[unit]["side"])
    return str(seal["action"].get("side") or "no unit")


def given_up(state: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The sealed rolls abandoned (before the other player committed) and forfeit (not
    revealed after), counted by the roller's side (`rolled_by`)."""
    out = {side: {"abandoned": 0, "forfeit": 0} for side in state.get("sides") or []}
    for seal in (state.get("seals") or {}).values():
        if seal["done"] in ("abandoned", "forfeit"):
            side = rolled_by(state, seal)
            out.setdefault(side, {"abandoned": 0, "forfeit": 0})[seal["done"]] += 1
    return out


def what(action: dict[str, Any]) -> str:
    """A sealed action in a few words: "marines fire", "roll 2d6"."""
    found = action.get("flags")
    flags: dict[str, Any] = found if isinstance(found, dict) else {}
    if action.get("command") == "roll":
        return f"roll {flags.get('expression')}"
    return f"{action.get('unit') or ''} {action.get('command')}".strip()


def describe(entry: dict[str, Any]) -> str:
    found = entry.get("game")
    game: dict[str, Any] = found if isinstance(found, dict) else {}
    event = game.get("event")
    if event == "seal":
        sealed = game.get("action")
        action: dict[str, Any] = sealed if isinstance(sealed, dict) else {}
        hidden = " (hidden)" if game.get("hidden") is True else ""
        return f"sealed roll{hidden}: {what(action)}, committed"
    if event == "seal-commit":
        return f"sealed roll of entry {game.get('seal')}: the other player committed"
    if event == "seal-abandon":
        return f"sealed roll of entry {game.get('seal')}: abandoned, nothing rolled"
    if event == "seal-forfeit":
        return f"sealed roll of entry {game.get('seal')}: not revealed, a forfeit claimed"
    return f"sealed roll of entry {game.get('seal')}: secrets shown"

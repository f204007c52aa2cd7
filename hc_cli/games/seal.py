"""Sealed rolls for players apart: a roll neither player can choose or foresee, without a server.

The player whose action it is starts it (`hc fire UNIT --at X --sealed`): hc draws a fresh
secret `a`, keeps it in the player's own folder, and writes to the game file the action as
filled and the commitment `sha256("hc seal:" + a)` (entry N, "seal"). The other player's hc
draws `b` and gives back its commitment (`hc seal join N:COMMIT`), which goes into the file
(`hc seal commit N:COMMIT`, entry "seal-commit"). Only then are the secrets shown: `a` to the
other player, `b` back (`hc seal reveal`), and `hc seal open N:b` writes both into the file
("seal-reveal") and rolls the action with the seed

    int(sha256("hc sealed roll:" + HEAD + ":" + a + ":" + b)[:15], 16)

where HEAD is the chain's head when the roll was sealed (the "prev" of entry N). A hidden
roll (`--hidden`) writes only `b` at its opening: its roller sees the result, the file holds
it sealed until `hc seal unseal N` writes `a` and the action. The fold checks every step
(`take_event`, `check_action`): a reveal that does not match its commitment, a secret or a
commitment used twice, a step out of order or a roll with another seed is a damaged file.
"""

from __future__ import annotations

import hashlib
import os
import re

from hc_cli.core.errors import HcError

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any

EVENTS = ("seal", "seal-commit", "seal-reveal", "seal-abandon")
_HEX = re.compile(r"[0-9a-f]{32}")
_CODE = re.compile(r"\s*(\d{1,12}):([0-9a-f]{32})\s*")


def commitment(secret: str) -> str:
    """What a secret is committed to: `printf 'hc seal:%s' SECRET | sha256sum`, its first
    32 hex digits."""
    return hashlib.sha256(f"hc seal:{secret}".encode()).hexdigest()[:32]


def derive(head: str, a: str, b: str) -> int:
    """The seed of a sealed roll: `printf 'hc sealed roll:%s:%s:%s' HEAD A B | sha256sum`, its
    first 15 hex digits as a number."""
    return int(hashlib.sha256(f"hc sealed roll:{head}:{a}:{b}".encode()).hexdigest()[:15], 16)


def parse_code(text: str, what: str) -> tuple[int, str]:
    """`N:HEX` as the other player's hc printed it: (N, HEX)."""
    found = _CODE.fullmatch(text.lower()) if len(text) < 200 else None
    if found is None:
        raise HcError(
            f"'{text[:50]}' is no {what}",
            f"give the code the other player's hc printed: N and 32 hex digits, e.g. "
            f"7:{'3f9ac21e' * 4}",
        )
    return int(found.group(1)), found.group(2)


# ---------------------------------------------------------------------------------------------
# The fold: each step checked as the file is read


def open_seal(state: dict) -> tuple[str, dict] | None:
    """The sealed roll under way that holds the game (not a hidden one whose opening is
    done): (its entry number, what the file says of it), or None."""
    for number, seal in (state.get("seals") or {}).items():
        if not seal["done"] and not (seal["hidden"] and seal["b"] is not None):
            return number, seal
    return None


def take_event(state: dict, entry: dict) -> list[str]:
    """A sealed roll's step into the state (in place): what it says, in words."""
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
            "action": action, "head": entry["prev"], "hidden": hidden, "commit_a": commit,
            "commit_b": None, "a": None, "b": None, "done": False,
        }  # fmt: skip
        return [f"a sealed roll begins: {_what(action)}"]
    seal = seals.get(str(game.get("seal")))
    if seal is None or seal["done"]:
        raise HcError(f"entry {str(game.get('seal'))[:20]} is no sealed roll under way")
    if event == "seal-abandon":
        seal["done"] = "abandoned"
        return [f"sealed roll {game.get('seal')} abandoned: nothing was rolled"]
    if event == "seal-commit":
        commit = game.get("commit")
        if seal["commit_b"] is not None:
            raise HcError("a sealed roll committed to twice")
        if not _HEX.fullmatch(str(commit)) or commit in used:
            raise HcError("a sealed roll's second commitment is no fresh commitment")
        seal["commit_b"] = commit
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


def plain_roll(entry: dict) -> bool:
    """A roll of dice kept in a game (`hc roll EXPR --sealed` or `--hidden`): no unit acts."""
    return entry.get("command") == "roll"


def check_action(state: dict, entry: dict) -> None:
    """An action of the game: while a sealed roll holds the game, only its own roll, with
    the seed both secrets give and the action as sealed."""
    game = entry.get("game") or {}
    held = open_seal(state)
    number = game.get("sealed")
    if number is None and plain_roll(entry):
        raise HcError("a roll of dice in a game that is no sealed roll")
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
            "flags": entry.get("flags")}  # fmt: skip
    if any(action.get(k) != v for k, v in made.items()):
        raise HcError(f"the roll of the sealed roll of entry {number} is not the action sealed")
    if entry.get("dice") or entry.get("seed") != derive(seal["head"], seal["a"], seal["b"]):
        raise HcError(f"the sealed roll of entry {number} was rolled with another seed")
    seal["done"] = True


def next_step(number: str, seal: dict) -> str:
    """What a sealed roll under way waits for, in words, with the command that does it."""
    if seal["commit_b"] is None:
        return (
            f"sealed roll {number} waits for the other player's commitment: hc seal commit "
            f"{number}:CODE with the line their hc printed (or hc seal abandon {number})"
        )
    if seal["b"] is None:
        return (
            f"sealed roll {number} waits for the other player's secret: hc seal open "
            f"{number}:SECRET (or hc seal abandon {number})"
        )
    if seal["hidden"] and seal["a"] is None:
        return f"hidden roll {number} is sealed: hc seal unseal {number} shows it"
    return f"sealed roll {number} waits for its roll: hc seal open {number}:SECRET again"


def due(state: dict) -> list[str]:
    """The sealed rolls under way, for `hc status`: first, as nothing else goes on meanwhile."""
    return [next_step(n, s) for n, s in (state.get("seals") or {}).items() if not s["done"]]


def _what(action: dict) -> str:
    """A sealed action in a few words: "marines fire", "roll 2d6"."""
    found = action.get("flags")
    flags: dict = found if isinstance(found, dict) else {}
    if action.get("command") == "roll":
        return f"roll {flags.get('expression')}"
    return f"{action.get('unit') or ''} {action.get('command')}".strip()


def describe(entry: dict) -> str:
    found = entry.get("game")
    game: dict = found if isinstance(found, dict) else {}
    event = game.get("event")
    if event == "seal":
        sealed = game.get("action")
        action: dict = sealed if isinstance(sealed, dict) else {}
        hidden = " (hidden)" if game.get("hidden") is True else ""
        return f"sealed roll{hidden}: {_what(action)}, committed"
    if event == "seal-commit":
        return f"sealed roll of entry {game.get('seal')}: the other player committed"
    if event == "seal-abandon":
        return f"sealed roll of entry {game.get('seal')}: abandoned, nothing rolled"
    return f"sealed roll of entry {game.get('seal')}: secrets shown"


# ---------------------------------------------------------------------------------------------
# Each player's secrets, kept in their own folder until shown


def _store(name: str) -> str:
    from hc_cli.tables.paths import config_dir

    folder = os.path.join(config_dir(), "seals")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return os.path.join(folder, name + ".json")


def _keep(name: str, data: dict) -> None:
    import json

    path = _store(name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f)


def _kept(name: str, missing: str, hint: str) -> dict:
    import json

    try:
        with open(_store(name)) as f:
            found = json.load(f)
    except (OSError, ValueError):
        raise HcError(missing, hint) from None
    if not isinstance(found, dict):
        raise HcError(missing, hint)
    return found


def _fresh_secret() -> str:
    import secrets

    return secrets.token_hex(16)


# ---------------------------------------------------------------------------------------------
# The commands


def begin(prepared: Any, game: Any, fd: int, hidden: bool) -> dict[str, Any]:
    """`hc fire ... --sealed`: the action as filled, sealed with the roller's commitment."""
    from hc_cli.games.actions import game_entry
    from hc_cli.games.chain import copy
    from hc_cli.games.store import append

    call = prepared.call
    held = open_seal(game.folded.state)
    if held is not None:
        raise HcError(
            f"the sealed roll of entry {held[0]} is under way",
            "open it first (hc seal open N:SECRET), then seal the next",
        )
    secret = _fresh_secret()
    action = {"command": call.command, "unit": prepared.unit, "at": prepared.at,
              "flags": call.flags, "given": prepared.given, "meta": prepared.fill.meta,
              "anyway": bool(prepared.fill.refusal and prepared.anyway)}  # fmt: skip
    import json

    action = json.loads(json.dumps(action))
    entry = game_entry(
        game.folded.ruleset, "seal", commit=commitment(secret), action=action, hidden=hidden
    )
    after = copy(game.folded.state)
    seq = game.chain.count + 1
    take_event(after, {**entry, "seq": seq, "prev": game.chain.head})
    receipt = append(game, fd, entry, after)
    _keep(
        f"{commitment(secret)}", {"secret": secret, "game": os.path.abspath(game.path), "seal": seq}
    )
    return {
        "seal": seq,
        "receipt": receipt,
        "code": f"{seq}:{commitment(secret)}",
        "say": [
            f"sealed roll {seq}: "
            + (f"{prepared.unit} {call.command}" if prepared.unit else _what(action))
            + (" (hidden: only you will see the result until you unseal it)" if hidden else ""),
            "your commitment is in the game file; send the other player this line:",
            f"  hc seal join {seq}:{commitment(secret)}",
        ],
    }


def join(code: str) -> dict[str, Any]:
    """`hc seal join N:COMMIT` (the other player): a secret of this player's own, kept here,
    and its commitment to send back. Needs no game file."""
    import glob
    import json

    number, theirs = parse_code(code, "sealed roll to join")
    said = []
    try:  # joined already: the same secret, and the same line again
        kept = _kept(f"joined-{theirs}", "", "")
        secret = kept["secret"]
        said.append(f"you joined sealed roll {number} already: the same secret, the same line")
    except HcError:
        for path in glob.glob(_store("joined-*")):  # another code for this roll: mistyped
            try:
                with open(path) as f:
                    other = json.load(f)
            except (OSError, ValueError):
                continue
            if isinstance(other, dict) and other.get("seal") == number:
                os.remove(path)
                said.append(f"this replaces the code you joined sealed roll {number} with before")
        secret = _fresh_secret()
        if commitment(secret) == theirs:
            raise HcError("the two commitments are the same: join again") from None
        _keep(f"joined-{theirs}", {"secret": secret, "seal": number, "theirs": theirs})
    mine = commitment(secret)
    return {
        "seal": number,
        "code": f"{number}:{mine}",
        "say": [
            *said,
            f"your secret for sealed roll {number} is kept here, not yet shown; send back:",
            f"  hc seal commit {number}:{mine}",
        ],
    }


def commit(game_path: str, code: str) -> dict[str, Any]:
    """`hc seal commit N:COMMIT` (the roller, in the game): the other player's commitment into
    the file; then this player's secret to show."""
    from hc_cli.games.actions import game_entry
    from hc_cli.games.chain import copy
    from hc_cli.games.store import Locked, append, open_game

    number, theirs = parse_code(code, "commitment")
    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        seal = _seal(game, number)
        if seal["commit_b"] is not None:
            raise HcError(
                f"the other player is committed to sealed roll {number} already",
                f"send them your secret: hc seal reveal {number}:...",
            )
        kept = mine(seal)
        entry = game_entry(game.folded.ruleset, "seal-commit", seal=number, commit=theirs)
        after = copy(game.folded.state)
        take_event(after, entry)
        receipt = append(game, fd, entry, after)
    if seal["hidden"]:  # the roller's secret stays here until the roll is unsealed
        return {
            "seal": number,
            "receipt": receipt,
            "code": f"{number}",
            "say": [
                f"both players are committed to hidden roll {number}; send the other player:",
                f"  hc seal reveal {number}",
                "and see the roll with the secret they send back: hc seal open N:SECRET",
            ],
        }
    return {
        "seal": number,
        "receipt": receipt,
        "code": f"{number}:{kept['secret']}",
        "say": [
            f"both players are committed to sealed roll {number}; send the other player:",
            f"  hc seal reveal {number}:{kept['secret']}",
            "and open the roll with the secret they send back: hc seal open N:SECRET",
        ],
    }


def reveal(code: str) -> dict[str, Any]:
    """`hc seal reveal N:SECRET` (the other player): the roller's secret checked against the
    commitment joined to; then this player's own secret to send back. A hidden roll's reveal
    (`hc seal reveal N`) gives this player's secret alone: the roller's stays sealed."""
    if code.strip().isdigit():
        number = int(code.strip())
        joined = _joined(number)
        return {
            "seal": number,
            "code": f"{number}:{joined['secret']}",
            "say": [
                f"hidden roll {number}: the roller's secret stays sealed until the roll is "
                "shown (hc replay checks it then); send back your own:",
                f"  hc seal open {number}:{joined['secret']}",
            ],
        }
    number, theirs = parse_code(code, "secret")
    kept = _kept(
        f"joined-{commitment(theirs)}",
        f"that secret matches no sealed roll you joined ({number})",
        "give the secret the roller's hc printed for the roll you joined",
    )
    if kept.get("seal") != number:
        raise HcError(f"that secret is for sealed roll {kept.get('seal')}, not {number}")
    return {
        "seal": number,
        "code": f"{number}:{kept['secret']}",
        "say": [
            f"the roller's secret matches the commitment you joined sealed roll {number} with;",
            f"send back your own: hc seal open {number}:{kept['secret']}",
        ],
    }


def _joined(number: int) -> dict:
    """This player's secret for the roll `number` joined (the newest join of it)."""
    import glob
    import json

    for path in sorted(glob.glob(_store("joined-*")), key=os.path.getmtime, reverse=True):
        try:
            with open(path) as f:
                found = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(found, dict) and found.get("seal") == number:
            return found
    raise HcError(
        f"you joined no sealed roll {number}",
        "join it first with the line the roller's hc printed: hc seal join N:CODE",
    )


def opening(game_path: str, code: str) -> tuple[int, dict, dict]:
    """`hc seal open N:SECRET` (the roller): the other player's secret checked against its
    commitment and written, with the roller's own unless the roll is hidden; the action's
    (call words, the seal, the seed) for the roll."""
    from hc_cli.games.actions import game_entry
    from hc_cli.games.chain import copy
    from hc_cli.games.store import Locked, append, open_game

    number, theirs = parse_code(code, "secret")
    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        seal = _seal(game, number)
        if seal["commit_b"] is None:
            raise HcError(
                f"the other player has not committed to sealed roll {number} yet",
                "hc seal commit N:COMMIT with the line they sent first",
            )
        if seal["b"] is None:
            if commitment(theirs) != seal["commit_b"]:
                raise HcError(
                    f"that secret does not match the other player's commitment to "
                    f"sealed roll {number}",
                    "give the secret their hc printed; if a code was pasted wrong before, "
                    f"give the roll up and seal it again: hc seal abandon {number}",
                )
            kept = mine(seal)
            shown = {"b": theirs} if seal["hidden"] else {"b": theirs, "a": kept["secret"]}
            entry = game_entry(game.folded.ruleset, "seal-reveal", seal=number, **shown)
            after = copy(game.folded.state)
            take_event(after, entry)
            append(game, fd, entry, after)
            seal = after["seals"][str(number)]
        elif theirs != seal["b"]:
            raise HcError(f"sealed roll {number} was opened with another secret")
        return number, seal, mine(seal)


def unsealing(game_path: str, number: int) -> dict:
    """`hc seal unseal N`: a hidden roll's own secret into the file, for its roll."""
    from hc_cli.games.actions import game_entry
    from hc_cli.games.chain import copy
    from hc_cli.games.store import Locked, append, open_game

    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        seal = _seal(game, number)
        if not seal["hidden"] or seal["b"] is None:
            raise HcError(
                f"sealed roll {number} is no hidden roll opened",
                "a hidden roll is unsealed once opened: hc seal open N:SECRET",
            )
        kept = mine(seal)
        if seal["a"] is None:
            entry = game_entry(game.folded.ruleset, "seal-reveal", seal=number, a=kept["secret"])
            after = copy(game.folded.state)
            take_event(after, entry)
            append(game, fd, entry, after)
            seal = after["seals"][str(number)]
        return seal


def abandon(game_path: str, number: int) -> dict[str, Any]:
    """`hc seal abandon N`: a sealed roll under way given up (a code pasted wrong, a player
    gone): the file records it, and nothing is rolled. A roll whose secrets are both written
    is rolled, not abandoned."""
    from hc_cli.games.actions import game_entry
    from hc_cli.games.chain import copy
    from hc_cli.games.store import Locked, append, open_game

    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        seal = _seal(game, number)
        if seal["b"] is not None:
            raise HcError(f"both secrets of sealed roll {number} are written: it is rolled",
                          next_step(str(number), seal))  # fmt: skip
        entry = game_entry(game.folded.ruleset, "seal-abandon", seal=number)
        after = copy(game.folded.state)
        notes = take_event(after, entry)
        receipt = append(game, fd, entry, after)
    return {"seal": number, "receipt": receipt, "code": f"{number}", "say": notes}


def _seal(game: Any, number: int) -> dict:
    seal = (game.folded.state.get("seals") or {}).get(str(number))
    if seal is None:
        raise HcError(
            f"entry {number} of this game is no sealed roll",
            "give the number of the entry hc printed when the roll was sealed",
        )
    if seal["done"]:
        done = "abandoned" if seal["done"] == "abandoned" else "rolled already"
        raise HcError(f"sealed roll {number} is {done}", "hc history shows it")
    return seal


def mine(seal: dict) -> dict:
    """The roller's own secret for `seal`, from this player's folder."""
    return _kept(
        seal["commit_a"],
        "this sealed roll was not begun here: its secret is not kept in this player's folder",
        "the player who sealed it opens it, on their own machine",
    )

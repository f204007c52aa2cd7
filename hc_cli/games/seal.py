"""Sealed rolls for players apart: a roll neither player can choose or foresee, without a server.

The player whose action it is seals it (`hc fire UNIT --at X --sealed`): hc draws a fresh
secret `a`, keeps it in the player's own folder, and writes to the game file the action as
filled and the commitment `sha256("hc seal:" + a)` (entry N, "seal"). The other player's hc
draws `b` and gives back its commitment (`hc seal join`), which goes into the file right after
(`hc seal commit`, entry N+1, "seal-commit"). Only then is a secret shown: `b`, to the
roller (`hc seal reveal`, given the roll's mark alone), and `hc seal open` writes both into
the file ("seal-reveal") and rolls the action with the seed

    int(sha256("hc sealed roll:" + HEAD + ":" + a + ":" + b)[:15], 16)

where HEAD is the hash of the sealing entry (the "prev" of entry N+1): it covers the action
sealed, so the seed is of that action and no other. The codes the players paste carry a
check of four hex digits (a code mistyped or cut short is refused where it is pasted); the
join code carries the sealing entry's hash, so the other player's hc knows the roll it
commits to, and `hc seal check FILE` lets that player check the file against it (the
roller's secret among it). A hidden roll (`hc roll EXPR --hidden`) writes only `b` at its
opening and holds the game until `hc seal unseal N` writes `a` and the roll. The fold checks
every step (`take_event`, `check_action`): a reveal that does not match its commitment, a
secret or a commitment used twice, a step out of order, a roll with another seed or of
another action, an undo of any of it, is a damaged file.

The roller, who reveals last, is the one player who can see the result before the other:
so once both players committed a roll is final (`hc seal abandon` only before), and a roller
who does not reveal it forfeits it, claimed by the other player (`hc seal forfeit N`): the
unit's action is spent for the move or turn (`seal_protocol.spent`).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hc_cli.core.errors import HcError
from hc_cli.games.fold import copy, fold
from hc_cli.games.scan import read_chain
from hc_cli.games.seal_protocol import (
    commitment,
    next_step,
    open_seal,
    rolled_by,
    spent,
    take_event,
    what,
)
from hc_cli.games.store import Game, Locked, append, game_entry, open_game
from hc_cli.log.chain import chain_hash, log_key

_PART = {
    "n": r"\d{1,12}",
    "hex": r"[0-9a-f]{32}",
    "head": r"[0-9a-f]{12}",
    "mode": r"[oh]",
    "game": r"[0-9a-f]{6}",
}


def code(*parts: object) -> str:
    """A code for the other player to paste: its parts and a check of four hex digits."""
    text = ":".join(str(p) for p in parts)
    return f"{text}:{hashlib.sha256(f'hc code:{text}'.encode()).hexdigest()[:4]}"


def parse_code(text: str, shapes: tuple[tuple[str, ...], ...], what: str) -> list[str]:
    """A pasted code: its parts, of one of `shapes` (names of `_PART`), its check checked."""
    words = text.strip().lower().split(":") if len(text) < 300 else []
    for shape in shapes:
        if len(words) != len(shape) + 1:
            continue
        parts = words[:-1]
        if all(re.fullmatch(_PART[k], w) for k, w in zip(shape, parts, strict=True)):
            if code(*parts) != ":".join(words):
                raise HcError(
                    f"'{text.strip()[:60]}' does not check: a character of the {what} was "
                    "mistyped or lost",
                    "paste the whole code as the other player's hc printed it",
                )
            return parts
    raise HcError(
        f"'{text.strip()[:60]}' is no {what}",
        "give the code the other player's hc printed, whole (numbers and hex digits, with "
        "its colons)",
    )


# ---------------------------------------------------------------------------------------------
# Each player's secrets, kept in their own folder until shown


def _store(name: str) -> str:
    from hc_cli.tables.paths import config_dir

    folder = os.path.join(config_dir(), "seals")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError as error:
        raise HcError(
            f"cannot keep a secret in {folder}: {error.strerror or error}",
            "hc keeps each player's secrets in their config folder (XDG_CONFIG_HOME/hc/seals)",
        ) from None
    return os.path.join(folder, name + ".json")


def _keep(name: str, data: dict[str, Any]) -> str:
    import json

    path = _store(name)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(data, f)
    except OSError as error:
        raise HcError(
            f"cannot keep a secret in {path}: {error.strerror or error}",
            "hc keeps each player's secrets in their config folder (XDG_CONFIG_HOME/hc/seals)",
        ) from None
    return path


def _kept(name: str) -> dict[str, Any] | None:
    import json

    try:
        with open(_store(name)) as f:
            found = json.load(f)
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def _joined_all() -> list[dict[str, Any]]:
    import glob
    import json

    out = []
    for path in glob.glob(_store("joined-*")):
        try:
            with open(path) as f:
                found = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(found, dict) and isinstance(found.get("secret"), str):
            out.append(found)
    return out


def _fresh_secret() -> str:
    import secrets

    return secrets.token_hex(16)


def mine(seal: dict[str, Any]) -> str:
    """The roller's own secret for `seal`, from this player's folder."""
    found = _kept(f"mine-{seal['commit_a']}")
    if found is None or commitment(str(found.get("secret"))) != seal["commit_a"]:
        raise HcError(
            "this sealed roll was not sealed here: its secret is not in this player's folder",
            "the player who sealed it takes this step, on their own machine",
        )
    return str(found["secret"])


# ---------------------------------------------------------------------------------------------
# The steps


def _append_event(game: Game, fd: int, event: str, **fields: Any) -> tuple[str, dict[str, Any]]:
    """A sealed roll's step, worked out on a copy first and then appended: (receipt, state)."""
    entry = game_entry(game.folded.ruleset, event, **fields)
    after = copy(game.folded.state)
    take_event(after, {**entry, "seq": game.chain.count + 1, "prev": game.chain.head}, game.rules)
    return append(game, fd, entry, after), after


def begin(game: Game, fd: int, action: dict[str, Any], hidden: bool) -> dict[str, Any]:
    """`hc fire ... --sealed`: the action as filled (`hc_cli.games.actions.seal_action`),
    sealed with the roller's commitment (its secret kept first, so no sealing entry is ever
    written without it)."""
    import json

    held = open_seal(game.folded.state)
    if held is not None:
        raise HcError(f"the sealed roll of entry {held[0]} is under way", next_step(*held))
    secret = _fresh_secret()
    commit = commitment(secret)
    action = json.loads(json.dumps(action))
    side = None if action.get("unit") else game.rules.playing(game.folded.state)
    if side:  # a roll of no unit: the side's whose step it is (`GameRules.playing`)
        action["side"] = side
    seq = game.chain.count + 1
    kept = _keep(f"mine-{commit}", {"secret": secret, "seal": seq})
    try:
        receipt, _ = _append_event(game, fd, "seal", commit=commit, action=action, hidden=hidden)
    except BaseException:
        os.remove(kept)
        raise
    game_mark = chain_hash(game.chain.line(1), log_key())[:6]
    join = code(seq, game.chain.head[:12], commit, "h" if hidden else "o", game_mark)
    return {
        "seal": seq,
        "receipt": receipt,
        "code": join,
        "say": [
            f"sealed roll {seq}: {what(action)}"
            + (" (hidden: only you will see the result until you unseal it)" if hidden else ""),
            "your commitment is in the game file; send the other player this line:",
            f"  hc seal join {join}",
        ],
    }


def join(text: str) -> dict[str, Any]:
    """`hc seal join CODE` (the other player): a secret of this player's own for that roll,
    kept here, and its commitment to send back. Joined again, the same secret and line."""
    number, head, theirs, mode, game_mark = parse_code(
        text, (("n", "head", "hex", "mode", "game"),), "join code"
    )
    found = _kept(f"joined-{head}")
    said = []
    if found is not None and found.get("commit_a") == theirs:
        secret = str(found["secret"])
        said.append(f"you joined sealed roll {number} already: the same secret, the same line")
    else:
        secret = _fresh_secret()
        if commitment(secret) == theirs:
            raise HcError("the two commitments are the same: join again")
        _keep(f"joined-{head}", {"secret": secret, "seal": int(number), "head": head,
                                 "commit_a": theirs, "mode": mode, "game": game_mark})  # fmt: skip
    back = code(number, commitment(secret))
    return {
        "seal": int(number),
        "code": back,
        "say": [
            *said,
            f"your secret for sealed roll {number} is kept here, not yet shown; send back:",
            f"  hc seal commit {back}",
            "(with the game file, hc seal check FILE checks every roll you joined)",
        ],
    }


def commit(game_path: str, text: str) -> dict[str, Any]:
    """`hc seal commit CODE` (the roller, in the game): the other player's commitment into the
    file, right after the sealing entry; then the other player's secret to ask for, by the
    roll's mark (this player's own is shown last, in the file, so the other player never sees
    the result before the roller can)."""
    number_text, theirs = parse_code(text, (("n", "hex"),), "commitment code")
    number = int(number_text)
    with _locked_seal(game_path, number) as (game, fd, seal):
        if seal["commit_b"] is not None:
            raise HcError(f"the other player is committed to sealed roll {number} already",
                          next_step(str(number), seal))  # fmt: skip
        mine(seal)
        receipt, after = _append_event(game, fd, "seal-commit", seal=number, commit=theirs)
        head = after["seals"][str(number)]["head"]
    ask = code(number, head[:12])
    kind, then = ("hidden roll", "see the roll") if seal["hidden"] else ("sealed roll", "roll")
    return {"seal": number, "receipt": receipt, "code": ask, "say": [
        f"both players are committed to {kind} {number}: it is final; send the other player:",
        f"  hc seal reveal {ask}",
        f"which writes their secret into the game file; then {then} with hc seal open {number} (or "
        "with the line they send back, if they reveal without the file: hc seal open CODE)",
    ]}  # fmt: skip


def reveal(text: str, game_path: str | None = None) -> dict[str, Any]:
    """`hc seal reveal CODE` (the other player): this player's own secret for the roll the
    code marks. With the roll's game file in force it is written there (`seal-reveal`, b
    alone), once the commitment the file holds as this player's is checked to be theirs: the
    roller then opens from the file (`hc seal open N`), and a roller who does not forfeits it
    (`hc seal forfeit N`, refused until this secret is in the file). Without it, the line to
    send back. The roller's secret stays sealed until it is in the file (`hc seal check FILE`
    checks it then), so this player never knows the result first."""
    number_text, head = parse_code(text, (("n", "head"),), "reveal code")
    number = int(number_text)
    joined = _kept(f"joined-{head}")
    if joined is None or joined.get("seal") != number:
        raise HcError(
            f"you joined no sealed roll {number} of that mark",
            "paste the line the roller's hc printed at hc seal commit for the roll you joined",
        )
    if game_path is not None and _game_mark(game_path) == joined.get("game"):
        return _reveal_in_file(game_path, number, joined)
    back = code(number, joined["secret"])
    said = (f"sealed roll {number}: the roller's secret stays sealed until it is in the file (hc "
            "seal check FILE checks it then); send back your own:")  # fmt: skip
    check = ("(with the game file in force, --game FILE, your secret goes into it instead, once "
             "hc checked the commitment the roller entered as yours is yours)")  # fmt: skip
    return {"seal": number, "code": back, "say": [said, f"  hc seal open {back}", check],
            "in_file": False}  # fmt: skip


def _game_mark(game_path: str) -> str:
    """The mark of a game, as a join code carries it: the hash of its first line."""
    return chain_hash(read_chain(game_path).line(1), log_key())[:6]


def _reveal_in_file(game_path: str, number: int, joined: dict[str, Any]) -> dict[str, Any]:
    """This player's secret for sealed roll `number` into its game file, under its lock, once
    the commitment written there as theirs is checked to be theirs."""
    secret = str(joined["secret"])
    with _locked_seal(game_path, number) as (game, fd, seal):
        if seal["commit_b"] is None or seal["head"][:12] != joined.get("head"):
            raise HcError(f"sealed roll {number} waits for its roller's hc seal commit",
                          "reveal once the roller's hc printed hc seal reveal CODE")  # fmt: skip
        if seal["commit_b"] != commitment(secret):
            raise HcError(
                f"the roller entered another commitment than yours to sealed roll {number}: "
                "the commitment the file holds as yours is not the one your hc sent",
                "your secret is not revealed; hc seal check FILE shows it, and the roller's "
                "hc seal open cannot roll it without you",
            )
        receipt = None
        if seal["b"] is None:
            receipt, _ = _append_event(game, fd, "seal-reveal", seal=number, b=secret)
    said = (f"sealed roll {number}: your secret is in the game file (the roller's stays sealed "
            "until it is there too); the roller rolls it with:")  # fmt: skip
    claim = f"(not revealed, it is forfeit: you claim it with hc seal forfeit {number})"
    return {"seal": number, "receipt": receipt, "code": str(number), "in_file": True,
            "say": [said, f"  hc seal open {number}", claim]}  # fmt: skip


def opening(game_path: str, text: str) -> tuple[int, dict[str, Any], str]:
    """`hc seal open CODE` (the roller), checked, nothing written yet: (the roll, the seal with
    the other player's secret, the roller's secret). The roll is tried first; `show` writes."""
    if text.strip().isdigit() and len(text.strip()) < 13:  # the other player's secret in the file
        number, theirs = int(text.strip()), None
    else:
        number_text, theirs = parse_code(text, (("n", "hex"),), "secret code")
        number = int(number_text)
    game = open_game(game_path)
    seal = dict(_seal(game, number))
    if theirs is None and seal["b"] is None:
        raise HcError(
            f"the other player's secret for sealed roll {number} is not in the file yet",
            "they write it there with hc seal reveal CODE (the game file in force), or send "
            "the line their hc printed: hc seal open CODE",
        )
    theirs = theirs or seal["b"]
    if seal["commit_b"] is None:
        raise HcError(f"the other player has not committed to sealed roll {number} yet",
                      next_step(str(number), seal))  # fmt: skip
    if seal["b"] is None and commitment(theirs) != seal["commit_b"]:
        raise HcError(
            f"that secret does not match the other player's commitment to sealed roll {number}",
            "paste the line their hc printed at hc seal reveal (it prints the same line again)",
        )
    if seal["b"] is not None and theirs != seal["b"]:
        raise HcError(f"sealed roll {number} was opened with another secret")
    seal["b"] = theirs
    return number, seal, seal["a"] or mine(seal)


def show(game_path: str, number: int, b: str | None, a: str | None) -> None:
    """The secrets of sealed roll `number` into the file (those not there yet)."""
    with _locked_seal(game_path, number) as (game, fd, seal):
        shown = {k: v for k, v in (("b", b), ("a", a)) if v is not None and seal[k] is None}
        if shown:
            _append_event(game, fd, "seal-reveal", seal=number, **shown)


def unsealing(game_path: str, number: int) -> tuple[dict[str, Any], str]:
    """`hc seal unseal N` (the roller of a hidden roll), checked, nothing written yet."""
    game = open_game(game_path)
    seal = dict(_seal(game, number))
    if not seal["hidden"] or seal["b"] is None:
        raise HcError(f"sealed roll {number} is no hidden roll opened",
                      "a hidden roll is unsealed once opened: hc seal open CODE")  # fmt: skip
    seal["a"] = seal["a"] or mine(seal)
    return seal, seal["a"]


def abandon(game_path: str, number: int) -> dict[str, Any]:
    """`hc seal abandon N` (the roller): a sealed roll given up before the other player
    committed to it, nothing rolled. After, it is final: revealed, or forfeit."""
    with _locked_seal(game_path, number) as (game, fd, seal):
        if _kept(f"mine-{seal['commit_a']}") is None:
            raise HcError(
                f"sealed roll {number} ({what(seal['action'])}) is its roller's to abandon "
                f"({rolled_by(game.folded.state, seal)}), who sealed it on their own hc; it "
                "was not sealed here",
                "the roller abandons it, or commits to it: wait for their hc seal join line"
                if seal["commit_b"] is None
                else f"it is final: its roller reveals it with hc "
                f"seal open {number} once your secret is in the file (hc seal reveal CODE)",
            )
        if seal["commit_b"] is not None:
            raise HcError(
                f"sealed roll {number} is final: both players committed to it, so it is not "
                "abandoned",
                f"reveal it: {_revealing(number, seal)} (a roller who will not forfeits it: the "
                f"other player claims it, hc seal forfeit {number})",
            )
        receipt, _ = _append_event(game, fd, "seal-abandon", seal=number)
    said = f"sealed roll {number} abandoned before the other player committed: nothing rolled"
    return {"seal": number, "receipt": receipt, "code": str(number), "say": [said]}


def _revealing(number: int, seal: dict[str, Any]) -> str:
    """How the roller reveals sealed roll `number`, now that both players committed."""
    if seal["hidden"] and seal["b"] is not None:
        return f"hc seal unseal {number} writes it and its roll"
    if seal["b"] is not None:
        return f"the other player's secret is in the file: hc seal open {number} rolls it"
    return ("the other player's hc seal reveal writes their secret in the file, and hc seal "
            f"open {number} rolls with it")  # fmt: skip


def forfeit(game_path: str, number: int) -> dict[str, Any]:
    """`hc seal forfeit N` (the other player, who joined the roll): a roll both players
    committed to, not revealed by its roller, claimed as a forfeit: its unit's action spent
    for the move or turn (`seal_protocol.spent`). Once both secrets are in the file the roll
    is rolled, never forfeit."""
    with _locked_seal(game_path, number) as (game, fd, seal):
        if seal["commit_b"] is None:
            raise HcError(
                f"sealed roll {number} has no forfeit to claim: the other player has not "
                "committed to it",
                "its roller may abandon it: hc seal abandon " + str(number),
            )
        if seal["a"] is not None and seal["b"] is not None:
            raise HcError(f"both secrets of sealed roll {number} are in the file: it is rolled",
                          f"either player rolls it: hc seal open {number}")  # fmt: skip
        joined = _kept(f"joined-{seal['head'][:12]}")
        if joined is None or commitment(str(joined.get("secret"))) != seal["commit_b"]:
            raise HcError(
                f"sealed roll {number} was not joined here: its forfeit is the other player's "
                "to claim",
                f"its roller reveals it: {_revealing(number, seal)}",
            )
        if seal["b"] is None:
            raise HcError(
                f"sealed roll {number} has no forfeit to claim yet: your secret is not in the "
                "game file, so its roller could not roll it",
                "write it there first: hc seal reveal CODE, with the line the roller's hc "
                "printed at hc seal commit (the game file in force)",
            )
        receipt, after = _append_event(game, fd, "seal-forfeit", seal=number)
    said = (f"sealed roll {number} not revealed by its roller: a forfeit, in the file for both "
            f"to see; {spent(after, after['seals'][str(number)])}")  # fmt: skip
    return {"seal": number, "receipt": receipt, "code": str(number), "say": [said]}


def check(path: str) -> dict[str, Any]:
    """`hc seal check FILE` (the other player): every sealed roll of the game this player
    joined, against what their hc kept: the action's entry, their commitment, their secret."""
    from hc_cli.tables.files import shown_path

    if not os.path.isfile(path):
        raise HcError(f"{shown_path(path)} is no game file",
                      "give the game file the roller sent, as you saved it")  # fmt: skip
    chain = read_chain(path)
    folded = fold(chain, path)
    joined = {j.get("head"): j for j in _joined_all()}
    game_mark = chain_hash(chain.line(1), log_key())[:6]
    lines, wrong, seen = [], 0, set()
    for number, seal in (folded.state.get("seals") or {}).items():
        mark = seal["head"][:12] if seal["head"] else None
        if mark is None:  # not committed to yet: the sealing entry's own hash
            mark = chain_hash(chain.line(int(number)), log_key())[:12]
        kept = joined.get(mark)
        seen.add(mark)
        if kept is None and _kept(f"mine-{seal['commit_a']}") is not None:
            lines.append(f"sealed roll {number} ({what(seal['action'])}): you rolled it")
            continue
        if kept is None:
            if seal["commit_b"] is not None:  # committed to by another than this player
                wrong += 1
                lines.append(f"sealed roll {number} ({what(seal['action'])}): another player "
                             "than you committed to it (you never joined it)")  # fmt: skip
            continue
        problems = []
        if kept.get("commit_a") != seal["commit_a"]:
            problems.append("the roller's commitment is not the one you joined")
        if seal["commit_b"] is not None and seal["commit_b"] != commitment(kept["secret"]):
            problems.append("the commitment written as yours is not yours")
        if seal["b"] is not None and seal["b"] != kept["secret"]:
            problems.append("the secret written as yours is not yours")
        state = {"forfeit": "not revealed by its roller (a forfeit)",
                 "abandoned": "abandoned before you committed", True: "rolled"}.get(
            seal["done"], "under way")  # fmt: skip
        wrong += bool(problems)
        verdict = "; ".join(problems) if problems else "it is the roll you joined"
        lines.append(f"sealed roll {number} ({what(seal['action'])}): {state}; {verdict}")
    for head, kept in joined.items():
        if kept.get("game") == game_mark and head not in seen:
            wrong += 1
            lines.append(f"sealed roll {kept.get('seal')}, which you joined, is not in this "
                         "file: it was cut short, or rewritten")  # fmt: skip
    if not lines:
        lines.append("no sealed roll of this game was joined here")
    return {"file": path, "checked": lines, "problems": wrong}


@contextmanager
def _locked_seal(game_path: str, number: int) -> Iterator[tuple[Game, int, dict[str, Any]]]:
    """The game locked for writing, and its sealed roll `number` (one under way)."""
    with Locked(game_path) as fd:
        game = open_game(game_path, fd)
        yield game, fd, _seal(game, number)


def _seal(game: Game, number: int) -> dict[str, Any]:
    seal: dict[str, Any] | None = (game.folded.state.get("seals") or {}).get(str(number))
    if seal is None:
        raise HcError(
            f"entry {number} of this game is no sealed roll",
            "give the number of the entry hc printed when the roll was sealed",
        )
    if seal["done"]:
        done = {True: "rolled already", "abandoned": "abandoned", "forfeit": "forfeit"}
        raise HcError(f"sealed roll {number} is {done[seal['done']]}", "hc history shows it")
    return seal

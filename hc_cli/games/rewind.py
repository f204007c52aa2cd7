"""`hc game rewind --accept RECEIPT`: the players agree to play on from a game file that went
back from the head this player's hc last saw of it (`hc_cli.games.heads`). The acceptance is an
entry of the game, naming the head that was lost and the one the file had; it changes nothing
in the game's state, and `hc undo` never takes it back."""

from __future__ import annotations

from hc_cli.core.errors import HcError
from hc_cli.games.heads import Rewound, remember
from hc_cli.games.store import Game, Locked, append, game_entry, open_game


def accept(game_path: str, lost: str) -> dict[str, str]:
    """`hc game rewind --accept RECEIPT`: the players play on from the file as it is; an entry
    says which head was lost, and this hc remembers the new one."""
    from hc_cli.tables.files import shown_path

    with Locked(game_path) as fd:
        try:
            game = open_game(game_path, fd, fresh=True)
        except Rewound as rewound:
            assert isinstance(rewound.game, Game)
            game, seen = rewound.game, rewound.seen
        else:
            raise HcError(
                f"nothing to accept: the game file {shown_path(game_path)} reaches "
                f"{game.head()}, the newest head this hc saw of it",
                "a game that went back is refused with the receipt to accept",
            )
        if lost != seen.receipt:
            raise HcError(
                f"--accept {lost[:40]}: this hc last saw the game at {seen.receipt}",
                f"accept what was lost: hc game rewind --accept {seen.receipt}",
            )
        found = game.head()
        entry = game_entry(game.folded.ruleset, "rewind", lost=seen.receipt, found=found)
        said = append(game, fd, entry)
        remember(game, accepted=True)
    return {"game": game_path, "lost": seen.receipt, "found": found, "receipt": said}

"""The house rules a game began with, against those an action would be resolved with."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from hc_cli.log.chain import file_digest

if TYPE_CHECKING:
    from hc_cli.games.fold import Folded


def house_rules_changed(recorded: list[dict[str, Any]], files: tuple[str, ...]) -> str | None:
    """How the house rules an action would be resolved with differ from those the game began
    with: every file laid on, in order (the config folder's, HC_RULES, --rules: a later one
    wins, so the order is part of them), by its content's digest; None when the same."""
    from hc_cli.tables.files import shown_path

    for path in files:
        if not os.path.isfile(path):
            return f"the game's house rules {shown_path(path)} are gone"
    now = [(os.path.abspath(p), file_digest(p)) for p in files]
    kept = [(str(r.get("path")), str(r.get("sha256"))) for r in recorded]
    if now == kept:
        return None
    if [p for p, _ in now] == [p for p, _ in kept]:
        changed = [shown_path(p) for (p, a), (_, b) in zip(now, kept, strict=True) if a != b]
        return f"the game's house rules {', '.join(changed)} were changed since it began"
    if sorted(now) == sorted(kept):
        return "the game's house rules are laid on in another order than when it began"
    return "these house rules are not the ones the game began with"


def layers_changed(folded: Folded, tables: Any) -> str | None:
    """Every house-rules file laid on now (the config folder's, HC_RULES and --rules) against
    those the game began with; a game file of an older hc kept only its --rules."""
    if folded.layers is None:
        return None
    return house_rules_changed(folded.layers, tuple(getattr(tables.merged, "house", ())))

"""`hc luck` on a long game (issue 37, item 8): the file is read once, an entry at a time, and
of each action only its line of the report is kept (its place in its odds, a few numbers), so
its memory grows by far less than the game's entries take. The 20,000-entry bounds (50 MB, 2
times `hc replay`'s time) are measured whole by bench/luck_bounds.py."""

from __future__ import annotations

import json
import tracemalloc

import pytest
from helpers import RT_SKIRMISH

MISSES = {"marines": ",".join(["1"] * 5), "boyz": ",".join(["1"] * 10)}
TURN_PAIR = [  # each side's volley, every die a miss, and the turn's end: the game unchanged
    f"fire marines --at boyz -r 10 --dice {MISSES['marines']}",
    "game next",
    f"fire boyz --at marines -r 10 --dice {MISSES['boyz']}",
    "game next",
]


@pytest.fixture
def template(hc, tmp_path) -> list[dict]:
    """A Rogue Trader game played once through hc: the roster, the Initiative, a turn pair."""
    folder = tmp_path / "template"
    folder.mkdir()
    (folder / "roster.yaml").write_text(RT_SKIRMISH, encoding="utf-8")
    path = folder / "game.hcg"
    env = {"HC_GAME": str(path)}
    assert hc(f"game new {path} --roster {folder / 'roster.yaml'}").exit_code == 0
    for line in ["initiative --dice 1", *TURN_PAIR]:
        assert hc(line, env=env).exit_code == 0, line
    entries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [{k: v for k, v in e.items() if k not in ("seq", "prev")} for e in entries]


def _game(path, template: list[dict], size: int) -> str:
    """The template's turn pair repeated and chained again: a game of `size` entries."""
    from hc_cli.log.chain import chain_hash, entry_line

    head, cycle = template[:2], template[2:]
    prev = None
    with open(path, "wb") as f:
        for seq, entry in enumerate([*head, *cycle * ((size - 2) // len(cycle))], 1):
            line = entry_line(seq, prev, entry, None)
            prev = chain_hash(line, None)
            f.write(line + b"\n")
    return str(path)


def _peak(path: str) -> int:
    """The most memory Python held above what it held before, while luck read the game."""
    from hc_cli.games.luck import luck

    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        found = luck(path)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert found["all"]["actions"] > 0
    return peak


def test_luck_holds_a_line_an_action_not_the_game(template, tmp_path):
    _peak(_game(tmp_path / "warm.hcg", template, 10))  # the tables loaded, the odds code imported
    small = _peak(_game(tmp_path / "small.hcg", template, 1000))
    large = _peak(_game(tmp_path / "large.hcg", template, 4000))
    # Each entry here is 1.9 kB on disk and some 10 kB once read; an action's line of the report
    # (and the chart's point for its turn) is well under 1.5 kB. Held entry by entry, 3,000 more
    # entries would cost some 30 MB more (as they did); as lines of the report, about 2 MB.
    print(f"luck's peak: {small / 1e6:.1f} MB at 1,000 entries, {large / 1e6:.1f} MB at 4,000")
    assert large - small < 3000 * 1500, (small, large)
    assert large < 1.5 * small + 3_000_000, (small, large)

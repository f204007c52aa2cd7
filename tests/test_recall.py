"""A batch's kept answers (`hc_cli.recall`): every answer found again by its dice is, byte for
byte, the answer the line gets resolved in full; a resolver that reads anything but its faces
is never answered from what was kept; lines alike but for the seed are read from their text."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

from hc_cli import batch
from hc_cli.recall import AGREED, Recall

HC_FIRE = {"command": "fire", "weapon": "ingrave-ar", "range": 14, "target": "orc"}
SHAPES = [
    HC_FIRE,
    {**HC_FIRE, "shots": 3, "target": "crusader", "mod": ["target-static"]},
    {"command": "melee", "attacker": "crusader", "attacker-weapon": "40mm-plasma-cannon",
     "defender": "orc", "defender-weapon": "bolt-gun"},
    {"command": "morale", "troop": "crusader", "ambushed": True, "first-casualty": True},
    {"command": "rally", "troop": "crusader", "has-casualties": True},
    {"command": "initiative", "side": ["Crusaders", "Orcs"]},
    {"command": "roll", "expression": "4d6kh3"},
    {"command": "roll", "expression": "d100", "ruleset": "t2k"},
    {"command": "fire", "ruleset": "rogue-trader", "firer": "space-marine", "weapon": "bolt-gun",
     "range": 10, "target": "ork", "armour": "mesh"},
    {"command": "fire", "ruleset": "rogue-trader", "bs": 4, "weapon": "bolt-gun", "range": 18,
     "target": "ork", "shots": 2},
    {"command": "deviate", "ruleset": "rogue-trader", "weapon": "frag-grenade", "range": 8},
    {"command": "fire", "ruleset": "t2k", "asset": 12, "strength": 5, "weapon": "m16a2",
     "range": 100},
    {"command": "fire", "ruleset": "t2k", "asset": 14, "strength": 5, "weapon": "m60",
     "range": 60, "shot": "burst", "zone": ["Ivanov:3", "Popov:4"]},
    {"command": "initiative", "ruleset": "t2k",
     "char": ["Kowalski:6:serious:7:3", "Ivanov:8::6:5", "Petrov:4::5:0"]},
    {"command": "deviate", "ruleset": "t2k", "range": 30, "band": "long"},
]  # fmt: skip


def _answers(lines: list[str], recall: bool = True, log: str | None = None) -> list[str]:
    out = io.StringIO()
    batch.run(io.StringIO("".join(line + "\n" for line in lines)), out, log, 1, recall)
    return out.getvalue().splitlines()


def _lines(per_shape: int) -> list[str]:
    """Every shape in turn, its seeds repeating (the same dice, the same answer) and each
    shape's faces coming round again: the batch keeps answers and finds them."""
    return [
        json.dumps({**shape, "seed": (i * 7919) % (per_shape // 2)})
        for i in range(per_shape)
        for shape in SHAPES
    ]


def test_every_kept_answer_is_the_answer_resolved_in_full():
    lines = _lines(160)
    worker = batch._Worker(False)
    kept = [text for _, text, _, _ in worker.group((1, lines))]
    assert worker.recall.found > len(lines) // 3  # many lines were answered from kept answers
    full = _answers(lines, recall=False)
    assert [line.rstrip("\n") for line in kept] == full
    assert not any('"error"' in line for line in full)  # every shape resolves
    # A line answered from what was kept is the line resolved alone, with its own dice.
    for n in (len(lines) - 1, len(lines) - 5):
        alone = json.loads(_answers([lines[n]], recall=False)[0])
        assert {**alone, "line": n + 1} == json.loads(full[n])


def test_workers_tell_each_other_what_they_kept_and_answer_alike(tmp_path):
    """hc batch with two workers (each keeping answers, and telling the other) writes what
    one process resolving every line in full writes."""
    lines = _lines(400)
    data = tmp_path / "lines.jsonl"
    data.write_text("".join(line + "\n" for line in lines))
    with open(data, "rb") as stdin:
        run = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "hc_cli", "batch", "--jobs", "2"],
            stdin=stdin,
            capture_output=True,
            timeout=240,
        )
    assert run.returncode == 0 and b"hc_cli.workers" in run.stderr
    assert run.stdout.decode().splitlines() == _answers(lines, recall=False)


def test_the_log_of_kept_answers_is_the_log_of_full_ones(tmp_path, monkeypatch):
    """Byte for byte (at one moment): a kept answer's text goes into its log entry as it is."""
    from hc_cli import log

    monkeypatch.setattr(log, "_now", lambda: "2026-11-30T12:00:00Z")
    lines = _lines(40) + ["{not json", json.dumps({**HC_FIRE, "weapon": "x", "seed": 1})]
    logs = {}
    for recall in (True, False):
        log = tmp_path / f"{recall}.log"
        logs[recall] = (_answers(lines, recall, str(log)), log.read_bytes())
    assert logs[True] == logs[False]
    assert len(logs[True][1].splitlines()) == len(lines) - 2
    replay = subprocess.run(
        [sys.executable, "-m", "hc_cli", "replay", "--json", str(tmp_path / "True.log")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert replay.returncode == 0 and json.loads(replay.stdout)["reproduced"] == len(lines) - 2


def test_lines_without_a_seed_replay_from_the_seed_they_were_given():
    lines = [json.dumps(SHAPES[11])] * 600
    worker = batch._Worker(False)
    answers = [json.loads(text) for _, text, _, _ in worker.group((1, lines))]
    assert worker.recall.found > 300
    assert len({a["seed"] for a in answers}) > 590  # a seed of its own for each
    for answer in answers[-3:]:
        again = json.loads(_answers([json.dumps({**SHAPES[11], "seed": answer["seed"]})])[0])
        assert {**again, "line": answer["line"]} == answer


def test_lines_alike_but_for_the_seed_are_read_from_their_text_as_json_reads_them():
    base = json.dumps({**HC_FIRE, "seed": 5})
    compact = json.dumps({**HC_FIRE, "seed": 6}, separators=(",", ":"))
    lines = [
        base,
        base.replace(": 5}", ": 05}"),  # not JSON
        base.replace(": 5}", ": 5.0}"),  # not a whole number
        base.replace(": 5}", ": 5e0}"),
        base.replace(": 5}", ": -0}"),  # zero
        base.replace(": 5}", ": 99999999999999999999999}"),  # out of bounds
        base.replace(": 5}", ": " + "9" * 40 + "}"),
        base.replace('{"command"', '{"seed": 1, "command"').replace(": 5}", ": 8}"),  # the last
        base.replace(": 5}", ":\t9}"),
        compact,
        compact.replace(":6}", ":7}"),
        base.replace(": 5}", ": 5} "),
        base.replace(": 5}", ': 5, "seed": 3}'),
    ]
    read = _answers(lines)
    full = _answers(lines, recall=False)
    assert read == full
    seeds = [json.loads(a).get("seed") for a in read]
    assert seeds == [5, None, None, None, 0, None, None, 8, 9, 6, 7, 5, 3]
    # And each as the same request written plainly.
    plain = [json.dumps({**HC_FIRE, "seed": s}) for s in (0, 8, 9, 7)]
    for seed, answer in zip((0, 8, 9, 7), _answers(plain), strict=True):
        assert json.loads(answer)["rolls"] == json.loads(read[seeds.index(seed)])["rolls"]


class _Counting:
    """A resolver that is not a function of its faces: it counts the calls it answers."""

    def __init__(self, execute):
        self.execute, self.calls = execute, 0

    def __call__(self, *args, **kwargs):
        res = self.execute(*args, **kwargs)
        self.calls += 1
        res.explanation.append(f"call {self.calls}")
        return res


def test_a_resolver_that_reads_more_than_its_faces_is_never_answered_from_what_was_kept(
    monkeypatch,
):
    counting = _Counting(batch.execute)
    monkeypatch.setattr(batch, "execute", counting)
    lines = [json.dumps({**HC_FIRE, "seed": s % 50}) for s in range(400)]
    worker = batch._Worker(False)
    answers = [json.loads(text) for _, text, _, _ in worker.group((1, lines))]
    assert worker.recall.found == 0 and counting.calls == len(lines)
    assert [a["explanation"][-1] for a in answers] == [f"call {n}" for n in range(1, 401)]


def _encode(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _text(value):
    return _encode(value) + "\n"


def test_a_tree_that_disagrees_with_itself_is_dropped():
    """The same faces answered otherwise, or followed by a die of another size: that shape is
    kept no more; other shapes are."""
    for second in (
        ([(6, 3)], {"headline": "other", "seed": 2}),  # another answer after the same faces
        ([(8, 3)], {"headline": "same", "seed": 2}),  # a d8 where a d6 was asked
        ([(6, 3), (6, 1)], {"headline": "same", "seed": 2}),  # a die where the answer was
    ):
        recall = Recall(_encode)
        first = recall.leaf({"headline": "same", "seed": 1}, 1, [(6, 3)])
        recall.keep("shape", [(6, 3)], first)
        recall.keep("other", [(6, 3)], recall.leaf({"headline": "x", "seed": 1}, 1, [(6, 3)]))
        path, result = second
        recall.keep("shape", path, recall.leaf(result, 2, path))
        assert recall._shapes["shape"].impure and recall._shapes["shape"].root is None
        assert not recall._shapes["other"].impure


def test_a_leaf_is_trusted_after_a_second_seed_agrees_then_at_once():
    """The first AGREED leaves of a shape wait for a second seed's full answer to agree;
    later ones are used at once."""
    recall = Recall(_encode)
    seeds: dict[int, list[int]] = {}  # seeds whose d20 shows each face, as SeededDice draws
    for seed in range(2000):
        seeds.setdefault(int(random.Random(seed).random() * 20) + 1, []).append(seed)

    def answer(face: int, seed: int):
        return recall.leaf({"headline": f"face {face}", "seed": seed}, seed, [(20, face)])

    for face in range(1, AGREED + 1):
        a, b = seeds[face][:2]
        recall.keep("shape", [(20, face)], answer(face, a))
        assert recall.find("shape", b) is None  # seen once: not yet
        recall.keep("shape", [(20, face)], answer(face, b))
        found = recall.find("shape", b)
        assert found is not None
        assert found.text(b, 4) == _text({"headline": f"face {face}", "seed": b, "line": 4})
    assert recall._shapes["shape"].agreed == AGREED
    face = AGREED + 1
    a, b = seeds[face][:2]
    recall.keep("shape", [(20, face)], answer(face, a))
    found = recall.find("shape", b)  # at once
    assert found is not None and found.text(b, 9) == _text(
        {"headline": f"face {face}", "seed": b, "line": 9}
    )


def test_a_written_result_is_the_log_line_its_value_would_make():
    from hc_cli.log import Written, entry_line

    result = {"headline": "hit: é", "seed": 3, "rolls": [{"die": "d6", "value": 4}]}
    text = json.dumps(result, separators=(",", ":"), ensure_ascii=False)
    for entry in ({"command": "fire", "result": result}, {"result": result, "after": 1}):
        written = {k: Written(text, 3) if k == "result" else v for k, v in entry.items()}
        for key in (None, b"k"):
            assert entry_line(7, "ab", written, key) == entry_line(7, "ab", entry, key)


def test_a_shape_whose_answers_seldom_come_round_is_kept_no_more():
    """Four shots of two D100 each: no two lines roll the same faces. After a window of
    lines the shape is kept no more (its tree let go); the answers are the same."""
    from hc_cli.recall import WINDOW

    lines = [json.dumps({**HC_FIRE, "shots": 4, "seed": s}) for s in range(WINDOW + 50)]
    worker = batch._Worker(False)
    kept = [text.rstrip("\n") for _, text, _, _ in worker.group((1, lines))]
    assert kept == _answers(lines, recall=False)
    (shape,) = worker.recall._shapes.values()
    assert shape.wide and shape.root is None and worker.recall._leaves == 0


def test_a_tree_still_filling_is_kept():
    """Few found in a window, but more than the window before: its faces are coming round."""
    from hc_cli.recall import WINDOW, _Shape

    recall = Recall(_encode)
    shape = _Shape()
    for found, wide in ((4, False), (24, False), (49, False), (200, False), (20, True)):
        shape.asked, shape.found = WINDOW, found
        recall._look(shape)
        assert shape.wide == wide, found

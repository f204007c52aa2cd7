"""Twilight: 2000 games played step by step through `hc` (seed 002), `hc status --json` checked
after every step. The expected values are worked by hand from the seed and the bundled tables
(the samples marked so in their YAML):

- m16a2: Short 65 m, 3-round burst, burst recoil 6, 2d6, bulk 5, 30 rounds (box: 1 action);
  ak-74: Short 60 m, 5-round burst, 2d6, bulk 5; m60: Short 85 m, 10-round burst, burst recoil
  7, 3d6, 100 rounds (belt: "B 2 actions for one person").
- Hit number: asset x 1 (Average: an aimed shot at Short), x 1/8 (Impossible: every die of a
  burst), rounded down. Hit location d10: 1 head, 2-4 chest, 5 abdomen, 6-7 arm, 8-10 leg.
- Wounds (samples): slight from 1 damage, serious from 8, critical from 16; Initiative -1, -3,
  -5 ("Reductions due too wounds: 1 if slightly; 3 if seriously; 5 if critically"); out of the
  fight at 30. Above 5 an extra action at half ("Initiative higher than 5 receive extra action
  at 1/2 the value"), rounded down. Quick kill: NPCs only, head or chest, d10 <= damage, never
  a 10.

The last test plays random small games and checks that every change `hc status --json` shows
is the one the action's own result reports, worked out here from that result alone."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
import yaml
from games_setup import start_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
KALISZ = str(ROOT / "examples" / "t2k-roster.yaml")
# kowalski 6 (agility 7, m16a2), nguyen 4 (agility 6, m60) | ivanov 5 (NPC, agility 6, ak-74),
# popov 3 (NPC, agility 5, ak-74). The order: kowalski 6, ivanov 5, nguyen 4, kowalski's extra
# action at 6 // 2 = 3, popov 3 (the tie at 3: Agility - bulk, kowalski 7 - 5 = 2, popov 0).
FIRST_ORDER = [("kowalski", 6, False), ("ivanov", 5, False), ("nguyen", 4, False),
               ("kowalski", 3, True), ("popov", 3, False)]  # fmt: skip


@pytest.fixture
def game(hc, tmp_path):
    """A game started from a roster (a path, or YAML text): (act, status, entries); act runs an
    hc command line in it, status is its `hc status --json`, entries how many it holds."""

    def start(roster: str = KALISZ, rules: str | None = None):
        if not roster.endswith(".yaml"):
            (tmp_path / "roster.yaml").write_text(roster, encoding="utf-8")
            roster = str(tmp_path / "roster.yaml")
        path = tmp_path / "game.hcg"
        extra = ("--rules", rules) if rules else ()
        act, status = start_game(hc, path, roster, *extra)

        def entries() -> int:
            return len(path.read_text(encoding="utf-8").splitlines())

        return act, status, entries

    return start


def ok(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def refused(result, *words: str) -> str:
    """A refused action: exit 2, every word in the message, no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    text = result.stderr.replace("\n    ", " ")
    for word in words:
        assert word in text, (word, text)
    return text


def row(status: dict, name: str) -> dict:
    return next(r for rows in status["sides"].values() for r in rows if r["name"] == name)


def order(status: dict) -> list[tuple[str, int, bool]]:
    return [(s["name"], s["initiative"], s["extra"]) for s in status["order"]]


def house(tmp_path: Path, readings: dict[str, str]) -> str:
    path = tmp_path / "house.yaml"
    chosen = {name: {"choice": choice} for name, choice in readings.items()}
    path.write_text(yaml.safe_dump({"ruleset": "t2k", "readings": chosen}), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------------------------------
# 1. The danger zone's hits are taken like the target's


def test_a_danger_zone_hit_is_damage_a_wound_and_a_quick_kill(game):
    act, status, entries = game()
    ok(act("initiative", "--json"))
    assert order(status()) == FIRST_ORDER
    # Kowalski's 3-round burst at 50 m (Short): 3 dice - 0 for range - (6 - 5) for recoil = 2
    # dice at 12 x 1/8 = 1: 20, 20 miss; half the 2 misses, 1 die, at popov in the zone: 1, a
    # hit; the abdomen (d10 5, no quick kill), 2d6 = 6 + 4 = 10 damage.
    zone = ok(act("fire", "kowalski", "--at", "ivanov", "--range", "50", "--shot", "burst",
                  "--zone", "popov:3", "--dice", "20,20,1,5,6,4", "--json"))  # fmt: skip
    assert zone["headline"] == "no hit of 2 dice; zone: popov 1 (abdomen 10 damage)"
    assert zone["zone_effects"] == {"popov": [{"location": "abdomen", "damage": 10}]}
    s = status()
    popov = row(s, "popov")
    # 10 damage: serious (8 or more), Initiative 3 - 3 = 0, from the next action turn.
    assert (popov["damage"], popov["wound"], popov["initiative_now"], popov["out"]) == (
        10, "serious", 0, False)  # fmt: skip
    assert row(s, "kowalski")["rounds"] == "27/30"
    assert row(s, "ivanov")["damage"] == 0
    assert s["acting"] == "ivanov" and order(s) == FIRST_ORDER  # this action turn stands
    ok(act("game", "next", "--json"))  # ivanov passes
    # Nguyen's 10-round M60 burst at 50 m: 10 dice - 0 - 2 x (7 - 4) = 4 dice at 11 x 1/8 = 1:
    # four misses; 2 dice at the zone: 1 (a hit on popov), 20. The chest (d10 2), 3d6 = 3;
    # popov is an NPC: quick kill d10 3 <= 3, killed outright.
    dice = "20,20,20,20,1,20,2,1,1,1,3"
    kill = ok(act("fire", "nguyen", "--at", "ivanov", "--range", "50", "--shot", "burst",
                  "--zone", "popov:2", "--dice", dice, "--json"))  # fmt: skip
    assert kill["zone_kills"] == ["popov"]
    s = status()
    popov = row(s, "popov")
    assert (popov["damage"], popov["wound"], popov["out"], popov["killed"]) == (
        13, "serious", True, True)  # fmt: skip
    assert popov["state"] == "killed (a quick kill)"
    assert row(s, "nguyen")["rounds"] == "90/100"
    # A character out of the fight is in no danger zone; the refusal appends nothing.
    before = entries()
    refused(act("fire", "kowalski", "--at", "ivanov", "--range", "50", "--shot", "burst",
                "--zone", "popov:3", "--seed", "1"), "popov is out of the fight")  # fmt: skip
    refused(act("fire", "kowalski", "--at", "ivanov", "--range", "50", "--shot", "burst",
                "--zone", "pavlov:3", "--seed", "1"), "unknown unit 'pavlov'")  # fmt: skip
    assert entries() == before
    # Kowalski's extra action, then the next action turn: popov is out of the order.
    assert status()["acting"] == "kowalski"
    ok(act("game", "next", "--json"))
    s = status()
    assert (s["action_turn"], s["acting"]) == (2, "kowalski")
    assert order(s) == [("kowalski", 6, False), ("ivanov", 5, False), ("nguyen", 4, False),
                        ("kowalski", 3, True)]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# 2. A wound changes the order from the next action turn, by itself


def _kowalski_wounded(act, status):
    ok(act("initiative", "--json"))
    # Kowalski: aimed at 30 m (Short), 12 x 1 = 12: d20 20 misses.
    ok(act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--dice", "20", "--json"))
    # Ivanov: 10 x 1 = 10, d20 3 hits; the chest (d10 3), 2d6 = 4 + 5 = 9: serious (8 or
    # more), Initiative 6 - 3 = 3, no extra action (3 is not above 5). Kowalski is no NPC.
    hit = ok(act("fire", "ivanov", "--at", "kowalski", "--range", "30", "--dice", "3,3,4,5",
                 "--json"))  # fmt: skip
    assert hit["hit_effects"] == [{"location": "chest", "damage": 9}]
    kowalski = row(status(), "kowalski")
    assert (kowalski["damage"], kowalski["wound"], kowalski["initiative_now"]) == (9, "serious", 3)


def test_a_wound_changes_the_order_from_the_next_action_turn(game):
    act, status, entries = game()
    _kowalski_wounded(act, status)
    s = status()
    assert s["acting"] == "nguyen" and order(s) == FIRST_ORDER
    assert any("from the next action turn" in d and "wound-initiative" in d for d in s["due"])
    before = entries()
    refused(act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--dice", "20"),
            "it is nguyen's action", "kowalski acts at 3 in action turn 1")  # fmt: skip
    ok(act("game", "next", "--json"))  # nguyen passes
    # The action turn goes on as it began: Kowalski's extra action at 3 is still his.
    assert status()["acting"] == "kowalski"
    ok(act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--dice", "20", "--json"))
    s = status()
    assert (s["acting"], row(s, "kowalski")["rounds"], row(s, "kowalski")["state"]) == (
        "popov", "28/30", "acted")  # fmt: skip
    # Nobody acts twice: his actions of this action turn are taken; the order is not rolled.
    refused(act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--dice", "20"),
            "kowalski has taken his actions of action turn 1")  # fmt: skip
    refused(act("initiative"), "hc initiative comes in step 1", "the game keeps the order")
    assert entries() == before + 2
    # Popov passes: action turn 2, its order made by the game from the wounded Initiatives:
    # ivanov 5, nguyen 4, kowalski 3 before popov 3 (Agility - bulk 2 against 0).
    passed = ok(act("game", "next", "--json"))
    assert any("wound-initiative = next-action-turn" in c for c in passed["changes"])
    s = status()
    assert (s["combat_turn"], s["action_turn"], s["acting"]) == (1, 2, "ivanov")
    second = [("ivanov", 5, False), ("nguyen", 4, False), ("kowalski", 3, False),
              ("popov", 3, False)]  # fmt: skip
    assert order(s) == second
    assert not any("lowers his Initiative" in d for d in s["due"])
    for _ in second:  # everyone passes once: action turn 3, the same order
        ok(act("game", "next", "--json"))
    s = status()
    assert (s["action_turn"], s["acting"], order(s)) == (3, "ivanov", second)


def test_the_reading_next_combat_turn_keeps_the_order_for_the_combat_turn(game, tmp_path):
    act, status, _ = game(rules=house(tmp_path, {"wound-initiative": "next-combat-turn"}))
    _kowalski_wounded(act, status)
    assert any("from combat turn 2" in d for d in status()["due"])
    for _ in range(3):  # nguyen, kowalski (extra), popov: action turn 2
        ok(act("game", "next", "--json"))
    s = status()
    assert (s["action_turn"], order(s)) == (2, FIRST_ORDER)  # the combat turn's order stands
    for _ in range(5 * 5):  # action turns 2 to 6, five actions each
        ok(act("game", "next", "--json"))
    s = status()
    assert (s["combat_turn"], s["action_turn"]) == (2, 1)
    assert order(s) == [("ivanov", 5, False), ("nguyen", 4, False), ("kowalski", 3, False),
                        ("popov", 3, False)]  # fmt: skip


TIES = """\
ruleset: t2k
sides:
  Americans:
    b: {asset: 10, strength: 5, initiative: 3, agility: 5, weapon: ak-74}
    a: {asset: 10, strength: 5, initiative: 8, agility: 5, weapon: ak-74}
  Soviets:
    c: {asset: 12, strength: 5, initiative: 9, agility: 9, weapon: ak-74}
"""


def test_a_tie_agility_cannot_part_goes_as_the_last_roll_ordered_it(game):
    act, status, _ = game(TIES)
    ok(act("initiative", "--json"))
    # c 9 (extra at 4), a 8 (extra at 4), b 3; the tie at 4: c 9 - 5 = 4 before a 5 - 5 = 0.
    assert order(status()) == [("c", 9, False), ("a", 8, False), ("c", 4, True),
                               ("a", 4, True), ("b", 3, False)]  # fmt: skip
    # c hits a in the leg for 16: critical, Initiative 8 - 5 = 3, no extra action.
    ok(act("fire", "c", "--at", "a", "--range", "30", "--location", "leg", "--damage-done",
           "16", "--dice", "1", "--json"))  # fmt: skip
    assert row(status(), "a")["wound"] == "critical"
    for _ in range(3):  # a, c (extra), a (extra): still this action turn's; then b
        ok(act("game", "next", "--json"))
    last = ok(act("game", "next", "--json"))
    # a 3 and b 3: the same Agility - bulk (0) and Agility (5): the die's order, a before b
    # (a was rolled at 8, b at 3), not the roster's (b first).
    assert order(status()) == [("c", 9, False), ("c", 4, True), ("a", 3, False),
                               ("b", 3, False)]  # fmt: skip
    assert any("as the last roll ordered them" in c for c in last["changes"])


# ---------------------------------------------------------------------------------------------
# 3. Actions outside the order


def test_an_ambush_is_an_action_outside_the_order_and_his_action(game):
    act, status, entries = game()
    ok(act("initiative", "--json"))
    ambush = ok(act("initiative", "--ambush", "ivanov", "--json"))
    assert ambush["headline"] == "ivanov acts outside the order (ambush)"
    s = status()
    assert (s["acting"], s["outside"], row(s, "ivanov")["state"]) == (
        "kowalski", {"ivanov": "ambush"}, "may act outside the order (ambush)")  # fmt: skip
    # Ivanov fires while it is Kowalski's action, without --anyway: 20 misses (needs 10).
    fired = ok(act("fire", "ivanov", "--at", "kowalski", "--range", "30", "--dice", "20",
                   "--json"))  # fmt: skip
    assert "anyway" not in fired["game"]
    s = status()
    assert (s["acting"], s["outside"], row(s, "ivanov")["rounds"]) == ("kowalski", {}, "29/30")
    assert [x["done"] for x in s["order"]] == [False, True, False, False, False]
    # It was his action of the action turn (reading outside-order-action = his-action): after
    # Kowalski, Nguyen acts, and Ivanov acts no more in action turn 1.
    ok(act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--dice", "20", "--json"))
    assert status()["acting"] == "nguyen"
    before = entries()
    refused(act("fire", "ivanov", "--at", "kowalski", "--range", "30", "--dice", "20"),
            "ivanov has taken his actions of action turn 1")  # fmt: skip
    refused(act("initiative", "--opportunity-fire", "ivanov"), "outside-order-action = his-action")
    assert entries() == before
    # An involuntary action (popov knocked down: he panics) is taken by its record: his action.
    panic = ok(act("initiative", "--knocked-down", "popov", "--json"))
    assert panic["headline"] == "popov panics (knocked down)"
    s = status()
    assert (s["acting"], row(s, "popov")["state"]) == ("nguyen", "acted")
    ok(act("game", "next", "--json"))  # nguyen
    ok(act("game", "next", "--json"))  # kowalski's extra action: and action turn 2
    s = status()
    assert (s["action_turn"], s["acting"], order(s)) == (2, "kowalski", FIRST_ORDER)


def test_beside_his_action_leaves_his_place_in_the_order(game, tmp_path):
    act, status, _ = game(rules=house(tmp_path, {"outside-order-action": "beside-his-action"}))
    ok(act("initiative", "--ambush", "ivanov", "--json"))  # at the start: the order, and him
    assert status()["outside"] == {"ivanov": "ambush"}
    ok(act("fire", "ivanov", "--at", "kowalski", "--range", "30", "--dice", "20", "--json"))
    ok(act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--dice", "20", "--json"))
    assert status()["acting"] == "ivanov"  # he acts again at his place


# ---------------------------------------------------------------------------------------------
# 4. A weapon halfway through its reload


BELT = """\
ruleset: t2k
sides:
  Americans:
    kowalski: {asset: 12, strength: 5, initiative: 6, agility: 7, weapon: m60, rounds: 12}
  Soviets:
    ivanov: {asset: 10, strength: 6, initiative: 5, agility: 6, weapon: ak-74}
"""


def test_a_weapon_halfway_through_its_reload_does_not_fire(game):
    act, status, entries = game(BELT)
    ok(act("initiative", "--json"))  # kowalski 6, ivanov 5, kowalski 3 (extra)
    first = ok(act("reload", "kowalski", "--json"))  # "B 2 actions for one person"
    assert (first["actions"], first["outcome"]) == (2, "reloading")
    assert row(status(), "kowalski")["state"] == "reloading (1 done)"
    ok(act("game", "next", "--json"))  # ivanov passes: kowalski's extra action
    burst = ("fire", "kowalski", "--at", "ivanov", "--range", "100", "--shot", "burst")
    before = entries()
    refused(act(*burst, "--dice", "20,20,20"), "halfway through reloading his m60",
            "hc reload kowalski")  # fmt: skip
    assert entries() == before
    # --anyway fires it and is recorded: 100 m is Medium, 10 dice - 3 - 2 x (7 - 5) = 3 dice,
    # all missing; 10 rounds of the 12, and the reload's one action is lost.
    fired = ok(act(*burst, "--dice", "20,20,20", "--anyway", "--json"))
    assert "halfway through reloading" in fired["game"]["anyway"]
    kowalski = row(status(), "kowalski")
    assert (kowalski["rounds"], kowalski["state"]) == ("2/100", "acting")
    assert "(--anyway: kowalski is halfway" in act("history").stdout.replace("\n", " ")
    # Action turn 2: two actions of reloading, then the belt is full and fires.
    ok(act("reload", "kowalski", "--json"))
    ok(act("game", "next", "--json"))
    ok(act("reload", "kowalski", "--json"))
    s = status()
    assert (row(s, "kowalski")["rounds"], s["action_turn"], s["acting"]) == (
        "100/100", 3, "kowalski")  # fmt: skip
    ok(act(*burst, "--dice", "20,20,20", "--json"))
    assert row(status(), "kowalski")["rounds"] == "90/100"


def test_no_movement_as_a_second_action(game):
    act, status, entries = game()
    ok(act("initiative", "--json"))
    for _ in range(3):  # kowalski, ivanov, nguyen pass: kowalski's extra action at 3
        ok(act("game", "next", "--json"))
    before = entries()
    walking = act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--shot", "quick",
                  "--movement", "walking", "--dice", "20")  # fmt: skip
    refused(walking, "'No movement permitted as second action'", "without --movement walking")
    assert entries() == before
    ok(act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--shot", "quick",
           "--dice", "20", "--json"))  # fmt: skip


# ---------------------------------------------------------------------------------------------
# 5. The wound level is always the table's for the damage taken


def test_the_wound_level_is_the_tables_for_the_damage(game):
    act, status, _ = game()
    ok(act("initiative", "--json"))
    # Kowalski hits ivanov (an NPC): d20 1, the chest (d10 2), 2d6 = 4 + 4 = 8; quick kill d10
    # 3 <= 8: killed outright. 8 damage is serious all the same.
    ok(act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--dice", "1,2,4,4,3", "--json"))
    ivanov = row(status(), "ivanov")
    assert (ivanov["damage"], ivanov["wound"], ivanov["out"]) == (8, "serious", True)
    for _ in range(2):  # ivanov is out: nguyen, kowalski (extra) pass; popov acts
        ok(act("game", "next", "--json"))
    hit = ("fire", "popov", "--at", "nguyen", "--range", "30", "--location", "arm")
    ok(act(*hit, "--damage-done", "9", "--dice", "1", "--json"))  # 9: serious
    assert row(status(), "nguyen")["wound"] == "serious"
    # Action turn 2: kowalski 6, kowalski 3 (extra), popov 3, nguyen 4 - 3 = 1.
    assert order(status()) == [("kowalski", 6, False), ("kowalski", 3, True),
                               ("popov", 3, False), ("nguyen", 1, False)]  # fmt: skip
    for _ in range(2):
        ok(act("game", "next", "--json"))
    ok(act(*hit, "--damage-done", "8", "--dice", "1", "--json"))  # 17: critical from 16
    nguyen = row(status(), "nguyen")
    assert (nguyen["damage"], nguyen["wound"], nguyen["initiative_now"]) == (17, "critical", 0)
    ok(act("game", "next", "--json"))  # nguyen; action turn 3
    for _ in range(2):
        ok(act("game", "next", "--json"))
    ok(act(*hit, "--damage-done", "1", "--dice", "1", "--json"))  # 18: critical
    assert row(status(), "nguyen")["wound"] == "critical"


# ---------------------------------------------------------------------------------------------
# 6. History, and the rules the game keeps


def test_history_files_each_action_under_its_action_turn(game):
    act, status, _ = game()
    _kowalski_wounded(act, status)
    for _ in range(3):  # nguyen, kowalski (extra), popov: the last of action turn 1
        ok(act("game", "next", "--json"))
    ok(act("fire", "ivanov", "--at", "kowalski", "--range", "30", "--dice", "20", "--json"))
    text = act("history").stdout
    first, _, second = text.partition("combat turn 1, action turn 2\n")
    assert "combat turn 1, action turn 1\n" in first
    assert "popov passes" in first and "initiative: kowalski acts first" in first
    assert "ivanov fire at kowalski: no hit" in second and "passes" not in second


def test_the_rules_the_game_keeps_read_at_80_columns(game):
    act, status, entries = game()
    view = ok(act("game", "rules", "--json"))
    assert view["period"] == "the combat turn, six action turns of 5 seconds"
    assert [s["commands"][0] for s in view["sequence"]] == [
        "initiative", "fire", "initiative --ambush NAME"]  # fmt: skip
    assert any("'No movement permitted as second action'" in b for b in view["between"])
    assert {r["name"]: r["choice"] for r in view["readings"]} == {
        "wound-initiative": "next-action-turn", "outside-order-action": "his-action",
        "zone-dice-kept": "combat-turn", "sealed-roll-forfeit": "action-spent"}  # fmt: skip
    text = act("game", "rules").stdout
    lines = [line for line in text.splitlines() if "game.hcg" not in line]  # a path: unwrapped
    assert max(len(line) for line in lines) <= 80
    # Before the order, the sequence takes only hc initiative: the refusal says so.
    refused(act("fire", "kowalski", "--at", "ivanov", "--range", "30", "--seed", "1"),
            "hc fire comes in step 2", "now: hc initiative")  # fmt: skip
    refused(act("game", "next"), "there is no order yet")
    assert entries() == 1


# ---------------------------------------------------------------------------------------------
# Random games: what status shows changed is what each action's result reports

WEAPONS = {"m16a2": 3, "ak-74": 5, "m60": 10, "mp5": 5, "m1911": None}  # burst rounds
TASKS = yaml.safe_load((ROOT / "rules_data" / "t2k" / "tasks.yaml").read_text(encoding="utf-8"))
LEVELS = sorted((v["from_damage"], k) for k, v in TASKS["wound_levels"].items())
OUT_AT = 30  # rules_data/t2k/combat.yaml out-of-action-damage


def wound_for(damage: int) -> str:
    return [level for least, level in LEVELS if damage >= least][-1]


characters = st.fixed_dictionaries(
    {
        "asset": st.integers(8, 24),
        "strength": st.integers(3, 7),
        "initiative": st.integers(1, 9),
        "agility": st.integers(3, 8),
        "weapon": st.sampled_from(sorted(WEAPONS)),
        "npc": st.booleans(),
    },
    optional={"rounds": st.integers(0, 7)},  # a few rounds: reloads come soon
)


def hits_reported(result: dict, target: str | None) -> tuple[dict[str, int], set[str]]:
    """Damage by name and the names killed outright, from the result's own fields: the whole
    result and each burst of several."""
    damage: dict[str, int] = {}
    killed: set[str] = set()
    for part in [result, *result.get("shots", [])]:
        for effect in part.get("hit_effects", []):
            damage[target] = damage.get(target, 0) + (effect["damage"] or 0)
        if part.get("outcome") == "quick-kill":
            killed.add(target)
        for name, effects in part.get("zone_effects", {}).items():
            damage[name] = damage.get(name, 0) + sum(e["damage"] or 0 for e in effects)
        killed |= set(part.get("zone_kills", []))
    return damage, killed


@settings(
    max_examples=int(os.environ.get("HC_EXAMPLES", "15")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    roster=st.tuples(
        st.lists(characters, min_size=1, max_size=2), st.lists(characters, min_size=1, max_size=2)
    ),
    data=st.data(),
)
def test_what_status_shows_is_what_each_result_reports(hc, roster, data):
    sides = {
        side: {f"{side[0].lower()}{i}": c for i, c in enumerate(members)}
        for side, members in zip(("Americans", "Soviets"), roster, strict=True)
    }
    folder = Path(tempfile.mkdtemp())
    (folder / "r.yaml").write_text(yaml.safe_dump({"ruleset": "t2k", "sides": sides}))
    path = str(folder / "g.hcg")
    assert hc("game", "new", path, "--roster", str(folder / "r.yaml")).exit_code == 0
    env = {"HC_GAME": path}
    side_of = {name: side for side, members in sides.items() for name in members}
    ok(hc("initiative", "--seed", str(data.draw(st.integers(0, 99), "seed")), "--json", env=env))
    taken: set[tuple[int, int, int]] = set()  # (combat turn, action turn, slot): once each
    for _ in range(data.draw(st.integers(1, 12), "actions")):
        before = ok(hc("status --json", env=env))
        if before["acting"] is None:
            break
        rows = {r["name"]: r for rs in before["sides"].values() for r in rs}
        # Each character's first action not yet taken in this action turn (the order's slot).
        first: dict[str, int] = {}
        for i, s in enumerate(before["order"]):
            if not s["done"] and not rows[s["name"]]["out"]:
                first.setdefault(s["name"], i)
        assert before["order"][min(first.values())]["name"] == before["acting"]
        kind = data.draw(st.sampled_from(["fire", "fire", "fire", "reload", "pass", "ambush"]))
        who = before["acting"]
        if kind == "ambush":  # someone later in the order acts outside it, then fires
            later = sorted(n for n in first if n != who)
            if not later:
                continue
            who = data.draw(st.sampled_from(later), "ambusher")
            ok(hc("initiative", "--ambush", who, "--json", env=env))
            before = ok(hc("status --json", env=env))
            assert before["outside"][who] == "ambush"
            kind = "fire"
        enemies = [n for n in rows if side_of[n] != side_of[who] and not rows[n]["out"]]
        target = None
        if kind == "fire" and enemies:
            target = data.draw(st.sampled_from(enemies), "target")
            burst = WEAPONS[sides[side_of[who]][who]["weapon"]]
            shot = data.draw(
                st.sampled_from(
                    ["aimed", "quick"] + (["burst"] * 3 + ["aimed-burst"] if burst else [])
                )
            )
            args = ["fire", who, "--at", target, "--shot", shot,
                    "--range", str(data.draw(st.integers(5, 70), "range")),
                    "--shots", str(data.draw(st.integers(1, 2), "shots"))]  # fmt: skip
            others = [n for n in rows if n not in (who, target) and not rows[n]["out"]]
            if shot == "burst" and others:  # the others near the target, most often
                near = st.lists(st.sampled_from(others), min_size=1, unique=True)
                for name in data.draw(near, "zone"):
                    args += ["--zone", f"{name}:{data.draw(st.integers(0, 6))}"]
            args += ["--seed", str(data.draw(st.integers(0, 10**6), "dice seed")), "--json"]
        elif kind == "reload":
            args = ["reload", who, "--json"]
        else:
            args, kind, who = ["game", "next", "--json"], "pass", before["acting"]
        key = (before["combat_turn"], before["action_turn"], first[who])
        assert key not in taken  # nobody takes an action twice
        result = hc(*args, env=env)
        after = ok(hc("status --json", env=env))
        if result.exit_code == 2:  # refused or not resolvable: nothing changed
            assert "Traceback" not in result.output
            assert after["entries"] == before["entries"], result.stderr
            continue
        out = ok(result)
        taken.add(key)
        if after["action_turn"] == before["action_turn"]:  # that one action taken, no other
            spent = [
                dict(s, done=s["done"] or i == first[who]) for i, s in enumerate(before["order"])
            ]
            assert after["order"] == spent
        now = {r["name"]: r for rs in after["sides"].values() for r in rs}
        damage, killed = hits_reported(out, target) if kind == "fire" else ({}, set())
        for name, was in rows.items():
            got = now[name]
            taken_damage = was["damage"] + damage.get(name, 0)
            assert got["damage"] == taken_damage, (name, out)
            assert got["wound"] == wound_for(taken_damage)
            assert got["out"] == (was["out"] or name in killed or taken_damage >= OUT_AT)
            fired = out.get("rounds", 0) if kind == "fire" and name == who else 0
            if was["rounds_left"] is not None:
                if kind == "reload" and name == who:
                    if out["outcome"] == "reloaded" or was["state"].endswith("(1 done)"):
                        assert got["rounds_left"] == out["magazine"]
                    else:
                        assert got["rounds_left"] == was["rounds_left"]
                else:
                    assert got["rounds_left"] == was["rounds_left"] - fired


def test_a_shot_at_no_one_is_refused_and_appends_nothing(game):
    """The hits of a shot with no --at would land on no character the game keeps: refused,
    as a Fireteam's or a unit's fire with no target is, and nothing is appended."""
    act, status, entries = game()
    ok(act("initiative", "--json"))
    before = entries()
    refused(act("fire", "kowalski", "--range", "30"), "needs its target", "--at NAME")
    refused(act("fire", "kowalski", "ivanov", "--range", "30"), "needs its target")
    assert entries() == before

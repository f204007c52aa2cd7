"""`hc luck` (issue 28): each action's place in its own exact distribution, and the sums. The
expected values come from enumerations written here, not from hc's odds code: a Fireteam's
kills are binomial in its shots (High Crusade), a unit's casualties binomial in the chain of
hit, wound and save per shot (Rogue Trader), a face count of hand-entered d6 against the
uniform by listing every count."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from helpers import HC_SKIRMISH, RT_SKIRMISH, binomial

HC_ROSTER = HC_SKIRMISH.replace("figures: 5,", "figures: 4,")  # a Fireteam of four

RT_ROSTER = RT_SKIRMISH


def _place(dist: dict[int, Fraction], x: int) -> tuple[Fraction, Fraction, Fraction]:
    """(P(no better), P(no worse), luck) of the count x, worked from the distribution."""
    below = sum((p for k, p in dist.items() if k < x), Fraction(0))
    equal = dist[x]
    return below + equal, 1 - below, below + equal / 2 - Fraction(1, 2)


def _two_sided(dist: dict[int, Fraction], luck: Fraction) -> Fraction:
    """P(|luck| at least this) for one action under fair dice, listed value by value."""
    return sum((p for k, p in dist.items() if abs(_place(dist, k)[2]) >= abs(luck)), Fraction(0))


@pytest.fixture
def start(hc, tmp_path):
    def make(roster: str):
        (tmp_path / "roster.yaml").write_text(roster, encoding="utf-8")
        path = tmp_path / "game.hcg"
        assert hc(f"game new {path} --roster {tmp_path / 'roster.yaml'}").exit_code == 0
        env = {"HC_GAME": str(path)}

        def run(line: str) -> dict | str:
            result = hc(line, env=env)
            assert result.exit_code == 0, result.output
            return json.loads(result.stdout) if "--json" in line else result.stdout

        return run, path

    return make


def test_a_fireteams_kills_against_the_binomial_of_its_shots(start):
    run, path = start(HC_ROSTER)
    run("initiative --dice 9,1")  # the Free Companies are Player A
    # Four rifles kill on 75 (75/5 at 10" against DF 4): kills ~ Binomial(4, 3/4); one kill.
    run("fire fireteam-1 --at boyz -r 10 --dice 10,80,80,80")
    report = run("luck --since 3 --json")
    (action,) = report["actions"]
    kills = binomial(4, Fraction(3, 4))
    no_better, no_worse, luck = _place(kills, 1)
    assert (action["value"], action["measure"], action["unit"]) == (1, "kills", "fireteam-1")
    assert action["expected"] == pytest.approx(3.0)
    assert action["p_no_better"] == pytest.approx(float(no_better))  # 13/256
    assert action["p_no_worse"] == pytest.approx(float(no_worse))  # 255/256
    assert action["luck"] == pytest.approx(float(luck))  # -121/256
    side = report["sides"]["Free Companies"]
    assert side["luck"] == pytest.approx(float(luck)) and side["method"] == "exact"
    assert side["p"] == pytest.approx(float(_two_sided(kills, luck)))
    assert side["counts"] == {"fire kills": {"actual": 1, "expected": 3.0}}
    text = run("luck")
    assert text.startswith("Free Companies: luck")  # the verdict is the first thing seen
    assert "too few to tell luck from chance" in " ".join(text.split())


def test_kills_are_capped_by_the_figures_the_target_has_left(start):
    # Issue 38: eight bolt guns at a Fireteam of two (65/5 at 10" against DF 5: each hit
    # kills): at most two figures can die, so the count is min(X, 2) for X ~ Binomial(8, 65%)
    # and its expectation E[min(X, 2)] = P(X >= 1) + P(X >= 2), listed here.
    run, path = start(HC_SKIRMISH.replace("figures: 5,", "figures: 2,"))
    run("initiative --dice 1,9")  # the Orcs are Player A
    run("fire boyz --at fireteam-1 -r 10 --dice 01,01,01,01,01,99,99,99")  # five hits
    (action,) = run("luck --since 3 --json")["actions"]
    kills = binomial(8, Fraction(65, 100))
    capped: dict[int, Fraction] = {}
    for k, p in kills.items():
        capped[min(k, 2)] = capped.get(min(k, 2), Fraction(0)) + p
    expected = sum(k * p for k, p in capped.items())
    assert expected == 1 - kills[0] + 1 - kills[0] - kills[1]
    assert (action["value"], action["expected"]) == (2, pytest.approx(float(expected)))
    no_better, no_worse, luck = _place(capped, 2)
    assert action["p_no_better"] == pytest.approx(float(no_better))  # 1: none better than 2
    assert action["luck"] == pytest.approx(float(luck))
    # By kind, each side its own (a roll-off rated for both: won 1/2, luck +1/4; lost -1/4).
    kinds = run("luck --json")["kinds_by_side"]
    assert {s: {k: g["actions"] for k, g in ks.items()} for s, ks in kinds.items()} == {
        "Free Companies": {"initiative": 1},
        "Orcs": {"initiative": 1, "fire": 1},
    }
    assert kinds["Free Companies"]["initiative"]["luck"] == pytest.approx(-0.25)
    assert kinds["Orcs"]["fire"]["luck"] == pytest.approx(float(luck))


def test_wounds_are_capped_by_the_wounds_the_model_has_left(start):
    # Rogue Trader: a lascannon's 5 wounds on a marine of 1 wound left cause 1 (issue 38: it
    # was rated as 5); its expectation E[min(W, 1)] is the chance of a casualty, at most 1.
    roster = """ruleset: rogue-trader
sides:
  Imperials:
    marines: {profile: space-marine, models: 1, weapon: bolt-gun}
  Orks:
    boyz: {profile: ork, models: 2, weapon: lascannon}
"""
    run, path = start(roster)
    run("initiative --dice 1")
    run("game next")
    said = run("fire boyz:1 --at marines -r 10 --dice 6,6,1,4")  # hit, wound, no save: 4 on d6
    assert said.startswith("casualty")
    (action,) = [a for a in run("luck --json")["actions"] if a["measure"] == "wounds"]
    assert action["value"] == 1 and 0 < action["expected"] <= 1, action


def test_a_units_casualties_against_hit_wound_and_save_per_shot(start):
    run, _ = start(RT_ROSTER)
    run("initiative --dice 1")  # the Imperials first
    # Marines BS 4 at 10" with bolt guns: to hit 7 - 4 = 3, +1 at short range: 2+ (5/6);
    # S 4 against an ork's T 4: 4+ (1/2); flak's save of 6 less the bolt gun's 1: none.
    per_shot = Fraction(5, 6) * Fraction(1, 2) * 1
    run("fire marines --at boyz --range 10 --dice 6,6,6,1,1,6,1,6")  # 3 hits, 2 wounds
    report = run("luck --unit marines --json")
    (action,) = report["actions"]
    casualties = binomial(5, per_shot)
    no_better, no_worse, luck = _place(casualties, 2)
    assert action["value"] == 2
    assert action["expected"] == pytest.approx(float(5 * per_shot))
    assert action["p_no_better"] == pytest.approx(float(no_better))
    assert action["p_no_worse"] == pytest.approx(float(no_worse))
    assert action["luck"] == pytest.approx(float(luck))


def _exact_multinomial(counts: list[int]) -> Fraction:
    """P(a count of faces no likelier than this) for fair dice, every count listed."""
    n, k = sum(counts), len(counts)

    def p(vector: tuple[int, ...]) -> Fraction:
        ways = math.factorial(n)
        for c in vector:
            ways //= math.factorial(c)
        return Fraction(ways, k**n)

    seen = p(tuple(counts))
    total = Fraction(0)
    for cut in itertools.combinations(range(n + k - 1), k - 1):  # stars and bars
        bounds = (-1, *cut, n + k - 1)
        vector = tuple(bounds[i + 1] - bounds[i] - 1 for i in range(k))
        if p(vector) <= seen:
            total += p(vector)
    return total


@pytest.mark.parametrize(
    "dice",
    ["6,6,6,6,6,6,6,6,6,6", "2,3,4,5,6,1,2,3,4,5", "2,2,3,3,4,4,1,6,6,5"],
)
def test_hand_entered_d6_against_fair_dice(start, dice):
    run, _ = start(RT_ROSTER)
    run("initiative --dice 1")
    run(f"fire marines --at boyz --range 10 --dice {dice}")
    report = run("luck --json")
    (d6,) = [d for d in report["hand_entered_dice"] if d["die"] == "d6"]
    faces = [dice.split(",").count(str(face)) for face in range(1, 7)]
    assert d6["counts"] == faces and d6["rolls"] == 10
    assert d6["method"] == "exact multinomial"
    assert d6["p"] == pytest.approx(float(_exact_multinomial(faces)))


def test_a_face_count_past_listing_is_tested_by_chi_square():
    from hc_cli.games.luck import fit

    # 600 rolls of a d6, by hand: chi-square 5 degrees of freedom; its tail worked here
    # from the closed form for odd degrees (no library): Q(5/2, x/2).
    counts = [90, 110, 100, 95, 105, 100]
    found = fit("d6", counts)
    x = sum((c - 100) ** 2 / 100 for c in counts)
    tail = math.erfc(math.sqrt(x / 2)) + math.exp(-x / 2) * math.sqrt(2 * x / math.pi) * (1 + x / 3)
    assert found["method"] == "chi-square"
    assert found["chi_square"] == pytest.approx(x)
    assert found["p"] == pytest.approx(tail, rel=1e-9)


def test_a_reroll_is_shown_and_undone_actions_are_not_rated(start, hc):
    run, path = start(RT_ROSTER)
    run("initiative --dice 1")
    run("fire marines --at boyz --range 10 --dice 1,1,1,1,1")
    run("undo")
    run("fire marines --at boyz --range 10 --dice 6,6,6,6,6,6,6,6,6,6 --reroll")
    report = run("luck --json")
    assert [a["entry"] for a in report["actions"] if a["command"] == "fire"] == [5]
    assert report["rerolls"] == [
        {"entry": 5, "sets_aside": 3, "unit": "marines", "side": "Imperials"}
    ]
    assert "re-rolled by agreement" in run("luck")


def test_a_log_is_rated_and_what_cannot_be_is_listed_not_guessed(hc, tmp_path):
    log = tmp_path / "play.log"
    assert hc(f"fire -w ingrave-ar -r 10 -t orc --shots 4 --dice 10,80,80,80 --log {log}")\
        .exit_code == 0  # fmt: skip
    assert hc(f"roll 2d6 --seed 3 --log {log}").exit_code == 0
    big = "--ruleset rogue-trader --bs 4 --strength 4 --toughness 3 --damage 100d1000"
    assert hc(f"fire {big} --seed 1 --log {log}").exit_code == 0
    report = hc.json(f"luck {log}")
    (action,) = report["actions"]
    assert action["luck"] == pytest.approx(float(_place(binomial(4, Fraction(3, 4)), 1)[2]))
    why = {n["command"]: n["why"] for n in report["not_rated"]}
    assert "a plain roll" in why["roll"]
    assert why["fire"].startswith("not rated: --odds for a roll of 100 dice")
    assert "a log has no sides" in hc.error(f"luck {log} --side Orcs")


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("", "is empty"),
        ("hello\n", "neither a game file nor a log"),
        ('{"a": 1}\n', "neither a game file nor a log"),
    ],
)
def test_a_file_that_is_no_game_nor_log_is_one_clear_line(hc, tmp_path, content, said):
    odd = tmp_path / "odd.txt"
    odd.write_text(content)
    assert said in hc.error(f"luck {odd}")
    assert "Traceback" not in hc(f"luck {odd}").output


def test_an_empty_game_has_nothing_to_report(hc, start):
    run, path = start(HC_ROSTER)
    for line in (f"luck --game {path}", f"luck --since 3 --game {path}"):
        result = hc(line)
        assert result.exit_code == 2 and "no action to rate yet" in " ".join(result.stderr.split())


def test_a_log_of_another_rule_set_and_an_unknown_side(hc, tmp_path, start):
    log = tmp_path / "play.log"
    assert hc(f"roll d6 --seed 1 --log {log}").exit_code == 0
    assert "a log of high-crusade, not of t2k" in hc.error(f"luck {log} --ruleset t2k")
    run, path = start(HC_ROSTER)
    run("initiative --dice 9,1")
    assert "unknown side" in hc.error(f"luck --side Elves --game {path}")
    assert "numbered from 1" in hc.error(f"luck --since -3 --game {path}")
    assert "no rated action is at entry 99" in hc.error(f"luck --since 99 --game {path}")


def _log_luck(hc, tmp_path, line: str, *dice: str) -> list[dict]:
    log = tmp_path / "shots.log"
    for each in dice:
        assert hc(f"{line} --log {log} --dice {each}").exit_code == 0
    found = json.loads(hc(f"luck {log} --json").stdout)
    assert found["not_rated"] == []
    return found["actions"]


def test_following_fire_is_rated_by_its_casualties(hc, tmp_path):
    """Issue 38 (it was 'not rated: its outcome ... is not in its odds'): a heavy bolter's
    following fire at two orks, worked shot by shot: hit on 3+ (BS 4), wound on 3+ (S 5
    against T 4), no save (flak 6+ at -2): a casualty 4/9, and only a shot that wounds fires
    on at the next. Its odds count casualties, not wounds: it is rated by those."""
    p = Fraction(4, 9)
    dist: dict[int, Fraction] = {}
    for first, second in itertools.product((True, False), repeat=2):
        if not first and second:
            continue  # no second shot after a first that caused nothing: in the next line
        chance = (p if first else 1 - p) * ((p if second else 1 - p) if first else 1)
        dist[first + second] = dist.get(first + second, Fraction(0)) + chance
    assert sum(dist.values()) == 1
    line = "fire --ruleset rogue-trader --bs 4 --weapon heavy-bolter -r 10 -t ork -t ork:b"
    # 3, 3: hit and wound the first (damage 1 of its d4); 1: the second is missed.
    rated = _log_luck(hc, tmp_path, line, "3,3,1,1", "1")
    for view, count in zip(rated, (1, 0), strict=True):
        no_better, no_worse, _ = _place(dist, count)
        assert (view["measure"], view["value"]) == ("casualties", count)
        assert view["p_no_better"] == pytest.approx(float(no_better))
        assert view["p_no_worse"] == pytest.approx(float(no_worse))
        assert view["expected"] == pytest.approx(float(sum(k * q for k, q in dist.items())))


def test_a_grenade_is_rated_by_its_wounds_at_the_target_a_deviated_one_causing_none(hc, tmp_path):
    """Issue 38 (it was 'not rated: ... is not in its odds'): a frag grenade at two orks under
    its 2" marker: on target on a D6 of 1-2 (it deviates on 3+), then each model hit on 4+
    (BS 3) and wounded on 5+ (S 3 against T 4), no save (flak 6+ at -1). Listed die by die;
    a deviated throw causes no wound at its target (where it lands is its own --placed)."""
    dist: dict[int, Fraction] = {}
    for deviation, *rolls in itertools.product(range(1, 7), repeat=5):
        hits, wounds = rolls[:2], rolls[2:4]
        wounded = sum(h >= 4 and w >= 5 for h, w in zip(hits, wounds, strict=True))
        count = wounded if deviation <= 2 else 0
        dist[count] = dist.get(count, Fraction(0)) + Fraction(1, 6**5)
    line = "fire --ruleset rogue-trader --bs 3 --weapon frag-grenade -r 3 -t ork --under 2"
    # 1: on target; 4, 5: both hit; 5, 1: the first wounded. 6: deviated.
    rated = _log_luck(hc, tmp_path, line, "1,4,5,5,1", "6,1,1")
    for view, count in zip(rated, (1, 0), strict=True):
        no_better, no_worse, _ = _place(dist, count)
        assert (view["measure"], view["value"]) == ("wounds", count)
        assert view["p_no_better"] == pytest.approx(float(no_better))
        assert view["p_no_worse"] == pytest.approx(float(no_worse))
    assert rated[0]["expected"] == pytest.approx(float(Fraction(1, 3) * 2 * Fraction(1, 6)))

"""`hc compare` in a game (issue 29): every unit that may fire now against every enemy unit,
each cell the exact odds of that very shot. Expected values come from the seeds' mechanics,
worked here: High Crusade's kills are binomial in the shots (a Fireteam's figures), at least
one kill 1 - (1 - p)^n; Rogue Trader's casualties binomial in the chain of hit, wound and save
per shot. Every cell also equals the `--odds` of the same single action."""

from __future__ import annotations

import csv
import json
from fractions import Fraction

import pytest
from games_setup import army
from helpers import RT_SKIRMISH, binomial

HC = """\
ruleset: high-crusade
sides:
  Free Companies:
    fireteam-1: {troop: crusader, figures: 4, weapon: ingrave-ar}
    fireteam-2: {troop: crusader, figures: 5, weapon: ingrave-ar}
  Orcs:
    boyz: {troop: orc, figures: 8, weapon: bolt-gun}
    ladz: {troop: orc, figures: 6, weapon: bolt-gun}
"""

RT = RT_SKIRMISH


@pytest.fixture
def start(hc, tmp_path):
    def make(roster: str, *first: str):
        (tmp_path / "roster.yaml").write_text(roster, encoding="utf-8")
        path = tmp_path / "game.hcg"
        assert hc(f"game new {path} --roster {tmp_path / 'roster.yaml'}").exit_code == 0
        env = {"HC_GAME": str(path)}
        for line in first:
            assert hc(line, env=env).exit_code == 0

        def run(line: str):
            return hc(line, env=env)

        return run, path

    return make


def _cell(found: dict, unit: str, target: str, shot: str = "aimed") -> dict:
    (cell,) = [c for c in found["cells"] if (c["unit"], c["target"]) == (unit, target)
               and c.get("shot", "aimed") == shot]  # fmt: skip
    return cell


def test_every_shot_of_the_side_that_may_fire_against_thebinomial(start):
    run, path = start(HC, "initiative --dice 9,1")  # the Free Companies are Player A
    before = path.read_bytes()
    found = json.loads(run("compare --range 10 --json").stdout)
    assert path.read_bytes() == before  # nothing logged
    # ingrave-ar 75/5 at 10" against an orc's DF 4: every hit kills, p = 3/4 a figure.
    p = Fraction(3, 4)
    for unit, figures in (("fireteam-1", 4), ("fireteam-2", 5)):
        for target, left in (("boyz", 8), ("ladz", 6)):
            cell, kills = _cell(found, unit, target), binomial(figures, p)
            assert cell["p_kill"] == pytest.approx(float(1 - (1 - p) ** figures))
            assert cell["mean_kills"] == pytest.approx(figures * 0.75)
            assert cell["p_test"] == pytest.approx(1.0)  # fired at for the first time
            below = sum((q for k, q in kills.items() if 2 * (left - k) < left), Fraction(0))
            assert cell["p_half"] == pytest.approx(float(below))
    assert {c["unit"] for c in found["cells"]} == {"fireteam-1", "fireteam-2"}
    assert {i["unit"] for i in found["may_not_fire"]} == {"boyz", "ladz"}  # Player B: step 5
    firsts = [(c["p_kill"], c["mean_kills"]) for c in found["cells"]]
    assert firsts == sorted(firsts, reverse=True)  # best first
    text = run("compare --range 10").stdout
    assert text.startswith("best: fireteam-2 at ")
    assert run("compare -r 10").stdout == text  # -r as hc fire takes it (issue 38)
    cell, kills = _cell(found, "fireteam-2", "boyz"), binomial(5, p)
    assert cell["at_least"]["of"] == "kills"
    for k in range(1, 6):  # at least k kills: the binomial's tail, worked here
        tail = sum((q for n, q in kills.items() if n >= k), Fraction(0))
        assert cell["at_least"]["p"][str(k)] == pytest.approx(float(tail))
    assert "at least, kills: 1 " in run("compare --range 10 --at-least").stdout


def test_each_cell_is_the_odds_of_that_shot(start):
    run, _ = start(HC, "initiative --dice 9,1")
    found = json.loads(run("compare --range 10 --range fireteam-1:ladz=20 --json").stdout)
    for cell in found["cells"]:
        odds = json.loads(run(f"fire {cell['unit']} --at {cell['target']} -r {cell['range']:g} "
                              "--odds --json").stdout)  # fmt: skip
        assert cell["mean_kills"] == pytest.approx(odds["means"]["kills"])
        assert cell["p_kill"] == pytest.approx(odds["at_least"]["kills"]["1"])
    assert _cell(found, "fireteam-1", "ladz")["range"] == 20


def test_a_units_chance_of_removing_a_model_by_hit_wound_and_save(start):
    run, _ = start(RT, "initiative --dice 1")
    found = json.loads(run("compare --range 10 --json").stdout)
    # BS 4, +1 at short range: 2+ to hit (5/6); S 4 against T 4: 4+ (1/2); no save.
    per_shot = Fraction(5, 6) * Fraction(1, 2)
    cell = _cell(found, "marines", "boyz")
    assert cell["p_removed"] == pytest.approx(float(1 - (1 - per_shot) ** 5))
    assert cell["mean_casualties"] == pytest.approx(float(5 * per_shot))
    assert cell["mean_wounds"] == pytest.approx(float(5 * per_shot))


T2K = """\
ruleset: t2k
sides:
  Americans:
    kowalski: {asset: 12, strength: 5, initiative: 6, agility: 7, weapon: ak-74}
  Soviets:
    ivanov: {asset: 10, strength: 6, initiative: 5, agility: 6, weapon: ak-74}
    petrov: {asset: 10, strength: 6, initiative: 4, agility: 6, weapon: ak-74}
"""


def _two_d6_at_least(n: int) -> Fraction:
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= n), 36)


def test_a_characters_chance_of_a_hit_its_damage_and_a_serious_wound(start):
    """An aimed shot at Short is Average: d20 at or under asset 12 (3/5); each hit's damage
    is the ak-74's 2d6 (mean 7); a serious wound from 8 damage in all (the sample table)."""
    run, _ = start(T2K, "initiative")  # kowalski 6, ivanov 5, petrov 4, kowalski 3 (extra)
    found = json.loads(run("compare --range 30 --json").stdout)
    p = Fraction(3, 5)
    for target in ("ivanov", "petrov"):
        cell = _cell(found, "kowalski", target)
        assert cell["p_hit"] == pytest.approx(float(p))
        assert cell["mean_damage"] == pytest.approx(float(p * 7))
        assert cell["p_serious"] == pytest.approx(float(p * _two_d6_at_least(8)))
    assert "a serious wound from 8 damage" in " ".join(found["sample_values"])
    # A hit in the leg for 2 + 3 = 5: petrov now needs 3 more for a serious wound.
    assert run("fire kowalski --at petrov --range 30 --dice 1,9,2,3").exit_code == 0
    assert run("game next").exit_code == 0 and run("game next").exit_code == 0
    found = json.loads(run("compare --range 30 --json").stdout)  # kowalski's extra action
    cell = _cell(found, "kowalski", "petrov")
    assert cell["p_serious"] == pytest.approx(float(p * _two_d6_at_least(3)))
    assert _cell(found, "kowalski", "ivanov")["p_serious"] == pytest.approx(
        float(p * _two_d6_at_least(8))
    )
    odds = json.loads(run("fire kowalski --at petrov --range 30 --odds --json").stdout)
    assert cell["mean_damage"] == pytest.approx(odds["means"]["damage"])
    text = run("compare --range 30").stdout
    assert "mean damage" in text and "P(serious+)" in text


def test_a_range_band_by_name_is_its_farthest_range(start, hc):
    """`--range band-2` (High Crusade's unnamed bands, by order), `short`/`long` (Rogue
    Trader), `medium` (Twilight: 2000): each shot at the farthest range of its weapon's band,
    as the tables give it, and the cell the --odds of the shot at that range."""
    bands = hc.json("tables weapons --json")["tables"]["weapons"]["ingrave-ar"]["bands"]
    run, _ = start(HC, "initiative --dice 9,1")
    found = json.loads(run("compare --range band-2 --json").stdout)
    cell = _cell(found, "fireteam-1", "boyz")
    assert (cell["band"], cell["range"]) == ("band-2", bands[1]["up_to"])
    odds = json.loads(run(f"fire fireteam-1 --at boyz -r {bands[1]['up_to']} --odds --json").stdout)
    assert cell["mean_kills"] == pytest.approx(odds["means"]["kills"])
    assert "each at the farthest of band-2" in run("compare --range band-2").stdout
    refused = run("compare --range band-9")
    assert refused.exit_code == 2 and "band-1, band-2" in refused.stderr


def test_a_twilight_range_band_is_its_printed_range_doubled(start):
    run, _ = start(T2K, "initiative")
    cell = _cell(json.loads(run("compare --range medium --json").stdout), "kowalski", "ivanov")
    assert cell["range"] == 120  # the ak-74's printed 60 m, twice: Difficult, 12 / 2 = 6 in 20
    assert cell["p_hit"] == pytest.approx(6 / 20)


def test_kills_past_the_figures_left_find_no_figure(start):
    """Eight bolt-guns at 8" (65/5 against a crusader's DF 5: a kill a hit, p = 0.65) at a
    Fireteam of 2: at most 2 kills; the mean is E[min(K, 2)], K binomial(8, 0.65)."""
    roster = HC.replace("figures: 4, weapon: ingrave-ar", "figures: 2, weapon: ingrave-ar")
    run, _ = start(roster, "initiative --dice 1,9")  # the Orcs are Player A
    found = json.loads(run("compare --range 8 --json").stdout)
    cell, kills = _cell(found, "boyz", "fireteam-1"), binomial(8, Fraction(13, 20))
    capped = sum((min(k, 2) * q for k, q in kills.items()), Fraction(0))
    assert cell["mean_kills"] == pytest.approx(float(capped))
    assert set(cell["at_least"]["p"]) == {"1", "2"}
    # the target tests its morale unless wiped out: exactly one kill (it has not been fired at)
    assert cell["p_test"] == pytest.approx(float(kills[0] + kills[1]))


def test_a_quick_kill_counts_as_serious_or_worse(start):
    """An NPC hit in head (1) or chest (2-4) on the d10 location is killed outright when a
    d10 (never a 10) is at most the damage: P(serious+) is 1 - P(no quick kill and the 2d6
    under 8), enumerated here over location, damage and the quick-kill die."""
    roster = T2K.replace("agility: 6, weapon: ak-74}\n    petrov", "agility: 6, weapon: ak-74, "
                         "npc: true}\n    petrov")  # fmt: skip
    run, _ = start(roster, "initiative")
    spared = Fraction(0)
    for location in range(1, 11):
        for a in range(1, 7):
            for b in range(1, 7):
                damage, p = a + b, Fraction(1, 10 * 36)
                kills = Fraction(sum(1 for k in range(1, 10) if k <= damage), 10)
                alive = 1 - kills if location <= 4 else Fraction(1)
                spared += p * alive * (damage < 8)
    cell = _cell(json.loads(run("compare --range 30 --json").stdout), "kowalski", "ivanov")
    assert cell["p_serious"] == pytest.approx(float(Fraction(3, 5) * (1 - spared)))


def test_a_shot_out_of_reach_leaves_the_others(start):
    """At 30" the bolt gun (24") has no shot; the lascannon (48") has."""
    roster = RT.replace("weapon: bolt-gun}\n  Orks", "weapon: bolt-gun}\n    lascannon-team: "
                        "{profile: space-marine, weapon: lascannon}\n  Orks")  # fmt: skip
    run, _ = start(roster, "initiative --dice 1")
    found = json.loads(run("compare --range 30 --json").stdout)
    assert {c["unit"] for c in found["cells"]} == {"lascannon-team"}
    assert [(n["unit"], n["target"]) for n in found["no_shot"]] == [("marines", "boyz")]
    assert "marines at boyz (30): no shot: out of range" in run("compare --range 30").stdout


def test_what_cannot_be_compared_is_said(start, hc):
    run, path = start(HC, "initiative --dice 9,1")
    for line, said in (
        ("compare", "no range for fireteam-1 at boyz"),
        ("compare --range x%", "--range x%: 'x%' is no range"),
        ("compare --range x", "ingrave-ar has no band 'x' its bands: band-1"),
        ("compare --range nobody:boyz=10", "unknown unit 'nobody'"),
        ("compare --range 999999", "999999 is past 0..100,000"),
        ("compare --range 10 --range 12", "given a range twice"),
        ("compare --range =8", "no unit or target before ="),
        ("compare --range 60", "fireteam-1 at boyz: out of range"),  # past every band
    ):
        result = run(line)
        assert result.exit_code == 2 and said in " ".join(result.stderr.split()), line
    assert "give --game FILE" in hc.error("compare --range 10 --game none")


# ---------------------------------------------------------------------------------------------
# hc sweep


def test_a_sweep_over_range_against_the_binomial_of_each_band(hc):
    """ingrave-ar 75/5 to 12", 65/4 to 24" against an orc's DF 4: every hit kills; 4 shots."""
    found = json.loads(hc("sweep --over range=2..24:2 --json -- fire -w ingrave-ar -t orc "
                          "--shots 4").stdout)  # fmt: skip
    assert found["measure"] == "kills" and [r["value"] for r in found["rows"]] == list(
        range(2, 25, 2)
    )
    for row in found["rows"]:
        p = Fraction(3, 4) if row["value"] <= 12 else Fraction(13, 20)
        kills = binomial(4, p)
        assert row["mean"] == pytest.approx(float(4 * p))
        for k in range(1, 5):
            assert row["at_least"][str(k)] == pytest.approx(
                float(sum(q for n, q in kills.items() if n >= k))
            )


def test_each_point_is_the_odds_of_that_action(hc):
    found = json.loads(hc("sweep --over range=5,15 --ruleset rogue-trader --json -- fire --bs 4 "
                          "-w bolt-gun -t ork --shots 5").stdout)  # fmt: skip
    for row in found["rows"]:
        odds = hc.json(f"fire --ruleset rogue-trader --bs 4 -w bolt-gun -t ork --shots 5 "
                       f"-r {row['value']} --odds")  # fmt: skip
        assert row["mean"] == pytest.approx(odds["means"]["casualties"])


def test_a_sweep_as_csv_and_of_outcomes(hc):
    out = hc("sweep --over range=2,14 --csv -- fire -w ingrave-ar -t orc").stdout
    assert out.splitlines() == ["range,miss,hit,kill", "2,25.0%,0.0%,75.0%",
                                "14,35.0%,0.0%,65.0%"]  # fmt: skip


def test_a_sweep_of_modifiers_as_numbers(hc):
    """--mod takes text (a table's name or a number): swept as -10 and 10 it is the chance
    75 (ingrave-ar's first band against an orc, as range 2 above) less or more 10."""
    out = hc("sweep --over mod=-10,10 --csv -- fire -w ingrave-ar -t orc -r 5").stdout
    assert out.splitlines() == ["mod,miss,hit,kill", "-10,35.0%,0.0%,65.0%",
                                "10,15.0%,0.0%,85.0%"]  # fmt: skip


def test_a_sweep_of_outcomes_has_a_column_for_every_point(hc):
    # T2K: an Initiative above the threshold acts again at half of it. A 6 and a 4: above 3
    # both act again, above 4 or 5 only A, above 6 or 7 neither; each point is certain.
    line = "sweep --over rules.extra-action-above.value=3..7 --csv -- initiative --ruleset t2k"
    rows = list(csv.reader(hc(f"{line} --char A:6 --char B:4").stdout.splitlines()))
    both, one, none = "A, B, A (extra), B (extra)", "A, B, A (extra)", "A, B"
    heads = rows[0][1:]
    assert sorted(heads) == sorted([both, one, none]), heads
    want = {"3": both, "4": one, "5": one, "6": none, "7": none}
    for value, *cells in rows[1:]:
        got = dict(zip(heads, cells, strict=True))
        assert got == {w: "100.0%" if w == want[value] else "0.0%" for w in heads}, (value, got)
    text = hc(line.replace(" --csv", "") + " --char A:6 --char B:4").stdout
    assert all(word in text for word in (both, one)), text


def test_a_csv_cell_that_would_be_a_formula_is_inert(hc, house):
    """A house rule's weapon named as a formula (=HYPERLINK(...), -, @) reaches a spreadsheet
    as text, led by an apostrophe (a negative number stays a number: the sweep of --mod)."""
    rules = house(
        "ruleset: high-crusade\nweapons:\n"
        + "".join(
            f'  "{name}":\n    name: Evil\n    bands:\n'
            "      - {up_to: 10, chance: 80, penetration: 5}\n"
            for name in ("=HYPERLINK(1)", "-x", "@cmd")
        )
    )
    out = hc("sweep", "--over", "weapon==HYPERLINK(1),-x,@cmd", "--csv", "--rules", rules,
             "--", "fire", "-t", "orc", "-r", "5").stdout  # fmt: skip
    assert [line.split(",")[0] for line in out.splitlines()[1:]] == [
        "'=HYPERLINK(1)",
        "'-x",
        "'@cmd",
    ]


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("sweep --over range=2..24 -- morale --troop levy", "hc morale reads no --range"),
        ("sweep --over range=1..100000:1 -- fire -w ingrave-ar -t orc", "at most 1,000"),
        ("sweep --over range=9..2 -- fire -w ingrave-ar -t orc", "goes nowhere"),
        ("sweep --over range -- fire -w ingrave-ar -t orc", "no option and values"),
        ("sweep --over range=2..4 -- fire -w ingrave-ar --nope", "--nope is not an option"),
        ("sweep --over range=2..4 -- fire -w ingrave-ar -n x", "'x' is not a valid int"),
        ("sweep --over range=2..4 -- frie -w ingrave-ar", "no action to read after --"),
        ("sweep --over range=nan..3 -- fire -w ingrave-ar -t orc", "no range of numbers"),
        ("sweep --over range=60,99 -- fire -w ingrave-ar -t orc", "at range 60: out of range"),
        ("sweep --over range=2..4 --over weapon=bolt-gun -- fire -t orc", "one --over"),
        ("sweep --over range=2..4", "no action after --"),
        ("sweep --over weapon=bolt-gun,x -- fire -w bolt-gun -t orc -r 3", "which --over sweeps"),
    ],
)  # fmt: skip
def test_what_cannot_be_swept_is_said(hc, line, said):
    result = hc(line)
    assert result.exit_code == 2 and said in " ".join(result.stderr.split()), result.output


def test_a_point_past_every_band_is_no_shot_and_the_others_stand(hc):
    done = hc("sweep --over range=2,99 -- fire -w ingrave-ar -t orc")
    assert done.exit_code == 0 and "no shot at range 99: out of range" in done.stdout
    found = json.loads(hc("sweep --over range=2,99 --json -- fire -w ingrave-ar -t orc").stdout)
    assert "no_shot" in found["rows"][1] and found["rows"][0]["outcomes"]["kill"] == 0.75


def test_a_compare_outside_a_game_is_every_pair_of_its_two_lists(hc):
    """Attackers against target profiles: each cell the --odds of that pair (ingrave-ar 75/5
    to 12" kills an orc, DF 4, on every hit, a crusader, DF 5, on none; bolt-gun 65/5)."""
    found = json.loads(hc("compare --over weapon=ingrave-ar,bolt-gun --over target=orc,crusader "
                          "--json -- fire -r 10 --shots 3").stdout)  # fmt: skip
    cells = {(c["unit"], c["target"]): c for c in found["cells"]}
    assert len(cells) == 4
    orc = cells[("weapon ingrave-ar", "target orc")]
    assert orc["p_any"] == pytest.approx(float(1 - Fraction(1, 4) ** 3))
    assert orc["mean"] == pytest.approx(2.25)
    for (weapon, target), cell in cells.items():
        odds = hc.json(f"fire -w {weapon.split()[1]} -t {target.split()[1]} -r 10 --shots 3 "
                       "--odds")  # fmt: skip
        assert cell["mean"] == pytest.approx(odds["means"]["kills"])
    assert [c["p_any"] for c in found["cells"]] == sorted(
        [c["p_any"] for c in found["cells"]], reverse=True
    )
    assert "takes --over twice" in hc.error("compare --over weapon=ingrave-ar -- fire -r 10")


def test_a_sweep_of_a_house_rules_value_lays_it_point_by_point(hc, clean_environment):
    """A table's value swept: each point a house rule of that value over the tables (the
    modifier target-static at 0, 10, 20, 30 on ingrave-ar's 75 to hit an orc: every hit kills,
    75 + the value, at most 100), and nothing left in the player's cache folder."""
    found = json.loads(hc("sweep --over modifiers.target-static.value=0..30:10 --json -- fire "
                          "-w ingrave-ar -t orc -r 10 --mod target-static").stdout)  # fmt: skip
    for row in found["rows"]:
        assert row["outcomes"]["kill"] == pytest.approx(min(75 + row["value"], 100) / 100)
    cache = clean_environment / "cache" / "hc"
    before = sorted(p.name for p in cache.glob("*")) if cache.exists() else []
    hc("sweep --over modifiers.target-static.value=5,15 -- fire -w ingrave-ar -t orc -r 10 "
       "--mod target-static")  # fmt: skip
    after = sorted(p.name for p in cache.glob("*")) if cache.exists() else []
    assert after == before
    bad = hc("sweep --over weapons.ingrave-ar.nope=1,2 -- fire -w ingrave-ar -t orc -r 10")
    assert bad.exit_code == 2 and "weapons have no field 'nope'" in bad.stderr
    bad = hc("sweep --over weapons.ingrave-arr.range=1,2 -- fire -w ingrave-ar -t orc -r 10")
    assert bad.exit_code == 2 and "did you mean 'ingrave-ar'" in bad.stderr
    bad = hc("sweep --over modifiers.target-static.value=5,x -- fire -w ingrave-ar -t orc "
             "-r 10 --mod target-static")  # fmt: skip
    assert bad.exit_code == 2 and "'x' is not a" in bad.stderr and "whole number" in bad.stderr


def test_each_point_of_a_table_value_sweep_is_the_odds_under_that_house_rule(hc, tmp_path):
    """A point laid over the tables merged once is the --odds of the same action under a
    house-rules file that says the same value."""
    line = ("sweep --over modifiers.target-static.value=-20,15 --json -- fire -w ingrave-ar "
            "-t orc -r 14 --shots 2 --mod target-static")  # fmt: skip
    found = json.loads(hc(line).stdout)
    for row in found["rows"]:
        house = tmp_path / f"house{row['value']}.yaml"
        house.write_text("ruleset: high-crusade\nmodifiers:\n  target-static:\n"
                         f"    value: {row['value']}\n")  # fmt: skip
        odds = hc.json(f"fire -w ingrave-ar -t orc -r 14 --shots 2 --mod target-static --odds "
                       f"--rules {house}")  # fmt: skip
        assert row["mean"] == pytest.approx(odds["means"]["kills"])
        assert row["outcomes"] == pytest.approx(odds["odds"])


def test_a_fireteam_that_owes_a_test_already_shows_a_dash(start):
    """After boyz's fire, fireteam-1 must test (first time fired at): ladz's shot at it adds
    no test (None); fireteam-2, not fired at yet, tests unless ladz's 6 shots (65/5 against
    DF 5: a kill a hit) wipe out its 5 figures."""
    run, _ = start(HC, "initiative --dice 1,9")  # the Orcs are Player A
    fired = run("fire boyz --at fireteam-1 --range 8 --dice 99,99,99,99,99,99,99,99")
    assert fired.exit_code == 0, fired.output
    found = json.loads(run("compare --range 8 --json").stdout)
    assert _cell(found, "ladz", "fireteam-1")["p_test"] is None
    wiped = sum((q for k, q in binomial(6, Fraction(13, 20)).items() if k >= 5), Fraction(0))
    assert _cell(found, "ladz", "fireteam-2")["p_test"] == pytest.approx(float(1 - wiped))


def test_the_damage_of_several_hits_is_each_hits_damage_added(hc):
    """An aimed burst hits d3 times on a hit (seed 002); each hit's damage is the ak-74's
    2d6, each independent: P(damage d) = sum over n of P(n hits) P(n times 2d6 = d), the sums
    of 2d6 listed here. The chance of n hits is the tool's; the adding up is checked."""
    found = hc.json("fire", "--ruleset", "t2k", "--asset", "12", "--strength", "5", "--weapon",
                    "ak-74", "--range", "30", "--shot", "aimed-burst", "--odds")  # fmt: skip
    hits = {int(n): Fraction(p) for n, p in found["distributions_exact"]["hits"].items()}
    assert set(hits) == {0, 1, 2, 3}
    two_d6: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            two_d6[a + b] = two_d6.get(a + b, Fraction(0)) + Fraction(1, 36)
    expected: dict[int, Fraction] = {}
    for n, p in hits.items():
        sums = {0: Fraction(1)}
        for _ in range(n):  # one hit's damage more
            step: dict[int, Fraction] = {}
            for s, q in sums.items():
                for v, r in two_d6.items():
                    step[s + v] = step.get(s + v, Fraction(0)) + q * r
            sums = step
        for d, q in sums.items():
            expected[d] = expected.get(d, Fraction(0)) + p * q
    got = {int(d): Fraction(p) for d, p in found["distributions_exact"]["damage"].items()}
    assert got == {d: p for d, p in expected.items() if p}


def test_what_a_sweep_or_compare_outside_a_game_refuses_names_the_right_part(hc):
    error = " ".join(hc.error("compare --over weapon=bolt-gun,ingrave-ar --over nope=1,2 -- "
                              "fire -r 14").split())  # fmt: skip
    assert error.startswith("hc compare: hc fire reads no --nope"), error
    assert "is no action to read after --" in hc.error("sweep --over range=1,2 -- tables")
    assert "'-r' requires an argument" in hc.error("sweep --over range=1,2 -- fire -w "
                                                   "ingrave-ar -t orc -r")  # fmt: skip
    csv = hc("sweep --over range=2,60 --csv -- fire -w ingrave-ar -t orc").stdout.splitlines()
    assert csv[-1] == "60,no shot,,"


def test_a_characters_own_reason_not_to_fire_is_not_said_of_a_target(start):
    run, _ = start(T2K, "initiative")  # kowalski acts: ivanov and petrov may not fire now
    found = json.loads(run("compare --range 30 --json").stdout)
    why = {u["unit"]: u["why"] for u in found["may_not_fire"]}
    assert why["ivanov"].startswith("it is kowalski's action"), why
    text = run("compare --range 30").stdout  # one line for both, in its first clause
    assert "ivanov, petrov may not fire now: it is kowalski's action\n" in text, text


def test_a_point_whose_odds_count_nothing_of_it_is_a_dash_not_a_traceback(hc):
    """Rogue Trader's odds of one shot count its wounds; of ten thousand, only casualties:
    that point's row is dashes, the other points stand."""
    done = hc("sweep --over shots=1,10000 -q -- fire --ruleset rogue-trader --bs 4 -w "
              "lascannon -r 10 -t carnosaur")  # fmt: skip
    assert done.exit_code == 0, done.output
    last = done.stdout.splitlines()[-1].split()
    assert last[0] == "10000" and set(last[1:]) == {"-"}


def test_a_range_for_a_pair_that_may_not_shoot_is_said(start):
    """Two Fireteams of one side are no shot: a range given for them is said unused."""
    run, _ = start(HC, "initiative --dice 9,1")
    text = run("compare --range 10 --range fireteam-1:fireteam-2=8").stdout
    assert "--range fireteam-1:fireteam-2=8: no shot compared is at it" in text


def test_a_compare_of_the_largest_roster_is_refused_at_once_or_answers_in_time(start):
    """500 units (MAX_UNITS): every pair, 125,000 of them, took 272 s; now refused before any
    is worked out, saying how to narrow it; narrowed to one unit's 250 shots, it answers, each
    cell the chance of a kill in that Fireteam's 5 shots."""
    import time

    from hc_cli.games.roster import MAX_UNITS

    run, _ = start(army(MAX_UNITS), "initiative --dice 9,1")  # the Free Companies fire
    began = time.monotonic()
    refused = run("compare --range 10")
    assert refused.exit_code == 2 and time.monotonic() - began < 2
    said = " ".join(refused.stderr.split())
    assert "125,000 shots" in said and "--unit NAME" in said and "--at NAME" in said
    began = time.monotonic()
    found = json.loads(run("compare --range 10 --unit fireteam-2 --json").stdout)
    assert time.monotonic() - began < 5
    assert len(found["cells"]) == MAX_UNITS // 2
    p = Fraction(3, 4)  # ingrave-ar 75/5 at 10" against an orc's DF 4: every hit kills
    for target in ("mob-0", "mob-249"):  # fireteam-2: 5 figures, 5 shots
        assert _cell(found, "fireteam-2", target)["p_kill"] == pytest.approx(
            float(1 - (1 - p) ** 5)
        )


def test_a_compare_narrowed_to_some_units_and_targets(start, hc):
    run, _ = start(HC, "initiative --dice 9,1")
    found = json.loads(run("compare --range 10 --at boyz --json").stdout)
    assert {(c["unit"], c["target"]) for c in found["cells"]} == {
        ("fireteam-1", "boyz"),
        ("fireteam-2", "boyz"),
    }
    found = json.loads(run("compare --range 10 --unit fireteam-1 --at ladz --json").stdout)
    assert [(c["unit"], c["target"]) for c in found["cells"]] == [("fireteam-1", "ladz")]
    said = " ".join(run("compare --range 10 --unit fireteam-9").stderr.split())
    assert "--unit names" in said and "fireteam-9" in said
    outside = hc("compare --over weapon=bolt-gun --over target=orc --unit boyz -- fire -r 14")
    assert outside.exit_code == 2 and "--unit and --at" in outside.stderr


HC_HEAVY = """\
ruleset: high-crusade
sides:
  Free Companies:
    support: {troop: crusader, figures: 3, weapon: heavy-laser}
    fireteam-1: {troop: crusader, figures: 4, weapon: ingrave-ar}
  Orcs:
    boyz: {troop: orc, figures: 8, weapon: bolt-gun}
    ladz: {troop: orc, figures: 6, weapon: bolt-gun}
"""


def test_a_template_shot_needs_the_figures_under_it_and_is_compared_with_them(start):
    """Issue 38: a heavy weapon's shot is not refused but needs --under; with it, each figure
    under the cone is a target: heavy-laser 70/7 at 20" (sample) against an orc's DF 4, every
    hit kills, so the kills are binomial(figures under, 7/10)."""
    run, _ = start(HC_HEAVY, "initiative --dice 9,1")
    found = json.loads(run("compare -r 20 --json").stdout)
    assert {(n["unit"], n["target"], n["needs"]) for n in found["needs"]} == {
        ("support", "boyz", "--under"), ("support", "ladz", "--under")}  # fmt: skip
    assert "support" not in {i["unit"] for i in found["may_not_fire"]}
    assert {c["unit"] for c in found["cells"]} == {"fireteam-1"}
    assert "support at boyz: needs --under N" in run("compare -r 20").stdout
    found = json.loads(run("compare -r 20 --under 3 --under ladz=2 --json").stdout)
    assert found["needs"] == []
    p = Fraction(7, 10)
    for target, under in (("boyz", 3), ("ladz", 2)):
        cell, kills = _cell(found, "support", target), binomial(under, p)
        assert cell["p_kill"] == pytest.approx(float(1 - kills[0]))
        assert cell["mean_kills"] == pytest.approx(float(under * p))
        odds = json.loads(run(f"fire support --at {target} -r 20 --under {under} --odds "
                              "--json").stdout)  # fmt: skip
        assert cell["mean_kills"] == pytest.approx(odds["means"]["kills"])
    found = json.loads(run("compare -r 20 --under support:boyz=3 --under fireteam-1:ladz=2 "
                           "--json").stdout)  # fmt: skip
    assert [(n["unit"], n["target"]) for n in found["needs"]] == [("support", "ladz")]
    assert found["unused_unders"] == ["fireteam-1:ladz=2"]  # no template shot there
    assert _cell(found, "support", "boyz")["mean_kills"] == pytest.approx(2.1)
    refused = run("compare -r 20 --under 0")
    assert refused.exit_code == 2 and "no number of figures" in refused.output
    refused = run("compare -r 20 --under boyz=9")  # boyz has 8 figures, ladz 6
    assert refused.exit_code == 2 and "9 figures under the template" in refused.output


T2K_M60 = """\
ruleset: t2k
sides:
  Americans:
    kowalski: {asset: 12, strength: 5, initiative: 6, agility: 7, weapon: m60}
  Soviets:
    ivanov: {asset: 10, strength: 6, initiative: 5, agility: 6, weapon: m1911}
"""


def test_every_kind_of_shot_a_weapon_fires_is_a_row(start):
    """Issue 38: an M60 is compared aimed, quick, as an aimed burst and as a burst. At 50 m
    (Short for its 85) an aimed shot is Average (d20 <= asset 12: 12/20), a quick shot one
    level harder (seed 002), Difficult: half the asset (the sample multipliers), 6/20; its
    damage 3d6 (mean 10.5) a hit. The bursts are each the --odds of that shot."""
    run, _ = start(T2K_M60, "initiative")
    found = json.loads(run("compare -r 50 --json").stdout)
    kinds = {c["shot"] for c in found["cells"] if c["unit"] == "kowalski"}
    assert kinds == {"aimed", "quick", "aimed-burst", "burst"}
    for kind, p in (("aimed", Fraction(12, 20)), ("quick", Fraction(6, 20))):
        cell = _cell(found, "kowalski", "ivanov", kind)
        assert cell["p_hit"] == pytest.approx(float(p))
        assert cell["mean_damage"] == pytest.approx(float(p) * 10.5)
    for kind in ("aimed-burst", "burst"):
        odds = json.loads(run(f"fire kowalski --at ivanov -r 50 --shot {kind} --odds --json")
                          .stdout)  # fmt: skip
        assert _cell(found, "kowalski", "ivanov", kind)["mean_hits"] == pytest.approx(
            odds["means"]["hits"])  # fmt: skip
    found = json.loads(run("compare -r 50 --shot quick --json").stdout)
    assert [c["shot"] for c in found["cells"]] == ["quick"]
    assert "kowalski at ivanov (50, quick)" in run("compare -r 50 --shot quick").stdout
    refused = run("compare -r 50 --shot auto")
    assert refused.exit_code == 2 and "aimed, quick, aimed-burst, burst" in refused.output


def test_a_kind_of_shot_the_weapon_cannot_fire_is_said(start):
    run, _ = start(T2K_M60, "initiative", "game next")  # ivanov's action: an m1911
    found = json.loads(run("compare -r 5 --json").stdout)
    assert {c["shot"] for c in found["cells"]} == {"aimed", "quick"}  # no bursts
    found = json.loads(run("compare -r 5 --shot burst --shot aimed --json").stdout)
    assert [c["shot"] for c in found["cells"]] == ["aimed"]
    assert [n["why"] for n in found["no_shot"]] == ["m1911 fires no burst shot"]
    refused = run("compare -r 5 --shot burst")
    assert refused.exit_code == 2 and "m1911 fires no burst shot" in refused.output


def test_shot_is_for_a_rule_set_with_kinds_of_shot(start):
    run, _ = start(HC, "initiative --dice 9,1")
    refused = run("compare -r 10 --shot burst")
    assert refused.exit_code == 2 and "has no kinds of shot" in refused.output

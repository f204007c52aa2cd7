"""Rogue Trader games that keep every result (issue 24), played through `hc` as two players
would, `hc status --json` checked after each step. Expected values are worked by hand from
seed 003 and the tables' numbers (samples where the seed prints none: an ork BS 3 T 4 W 1 in
flak, a space marine BS 4 T 3 W 1 in power armour, save 4; an ogryn BS 2 T 5 W 3 in flak; a
carnosaur M 7 T 6 W 6, large; the bolt gun S 4, +1 to hit at short range up to 12", save
modifier -1; the heavy bolter S 5, d4 damage, save modifier -2, following fire): to hit
7 - BS, never below 2; the seed's wound chart; a save of the armour's score less the weapon's
modifier, none above 6."""

from __future__ import annotations

import itertools
import json
import os
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROSTER = """\
ruleset: rogue-trader
title: Hunt at the ridge
sides:
  Imperials:
    marines: {profile: space-marine, models: 5, weapon: bolt-gun}
    heavy: {profile: space-marine, weapon: heavy-bolter}
    grenadier: {profile: space-marine, weapon: frag-grenade}
    lascannon-team: {profile: space-marine, weapon: lascannon}
  Orks:
    boyz: {profile: ork, models: 10, weapon: bolt-gun}
    ogryns: {profile: ogryn, models: 3, weapon: bolt-gun}
    carnosaur: {profile: carnosaur}
"""


@pytest.fixture
def play(hc, tmp_path):
    """A game of ROSTER: act(*args) runs an hc command in it, status() its status --json,
    row(name) a unit's row; the Imperials have the first turn."""
    (tmp_path / "roster.yaml").write_text(ROSTER, encoding="utf-8")
    path = tmp_path / "hunt.hcg"
    assert hc("game", "new", str(path), "--roster", str(tmp_path / "roster.yaml")).exit_code == 0
    env = {"HC_GAME": str(path)}

    class Game:
        file = path

        def act(self, *args: str):
            return hc(*args, env=env)

        def json(self, *args: str) -> dict:
            result = hc(*args, "--json", env=env)
            assert result.exit_code == 0, result.output
            return json.loads(result.stdout)

        def refused(self, *args: str) -> str:
            before = path.read_bytes()
            message = hc.error(*args, env=env)
            assert path.read_bytes() == before  # a refused action appends nothing
            return message

        def status(self) -> dict:
            return self.json("status")

        def row(self, name: str) -> dict:
            rows = [r for side in self.status()["sides"].values() for r in side]
            return next(r for r in rows if r["name"] == name)

    game = Game()
    game.json("initiative", "--dice", "1")  # heads: the Imperials, named first, go first
    return game


def test_following_fire_over_several_models_removes_each_casualty(play):
    # Heavy bolter at boyz 3, 4, 5: to hit 6 (needs 7 - 4 = 3), to wound 4 (S5 against T4:
    # 3), no save (flak 6, -2: 8), d4 2: a casualty; then 5, 5, d4 1: a casualty; then a 1
    # misses and the chain stops.
    shot = play.json(
        "fire", "heavy", "--at", "boyz:3", "--at", "boyz:4", "--at", "boyz:5", "--range", "18",
        "--dice", "6,4,2,5,5,1,1",
    )  # fmt: skip
    assert shot["summary"]["casualties"] == 2
    boyz = play.row("boyz")
    assert boyz["models"] == "8/10"
    assert boyz["taken"] == [0, 0, 1, 1, 0, 0, 0, 0, 0, 0]


def test_following_fire_over_two_units_keeps_both(play):
    # boyz (its first model): 6, 4, d4 3: a casualty. ogryns:1: to hit 5, to wound 4 (S5 against
    # T5: 4), no save, d4 2: two of its three wounds; the list ends there.
    play.json(
        "fire", "heavy", "--at", "boyz", "--at", "ogryns", "--range", "18",
        "--dice", "6,4,3,5,4,2",
    )  # fmt: skip
    assert play.row("boyz")["taken"][0] == 1
    assert play.row("boyz")["models"] == "9/10"
    assert play.row("ogryns")["taken"] == [2, 0, 0]
    assert play.row("ogryns")["models"] == "3/3"


def _orks_turn(play) -> None:
    play.json("game", "next")


TEN_AT_FIVE = (
    # Ten boyz at five marines, 10" (short range): to hit 7 - 3 = 4, +1 for the bolt gun at
    # short range: 3. Seven hits. To wound S4 against T3: 3; six wound. Saves: power 4, -1
    # for the bolt gun: 5; six 1s fail. Damage 1 each.
    "6,6,6,6,6,6,6,1,1,1,6,6,6,6,6,6,1,1,1,1,1,1,1"
)


def test_ten_firers_at_five_models_are_one_volley_shared_in_turn(play):
    _orks_turn(play)
    volley = play.json("fire", "boyz", "--at", "marines", "--range", "10", "--dice", TEN_AT_FIVE)
    assert volley["inputs"]["shots"] == 10 and volley["inputs"]["models"] == 5
    assert "volley-shares = spread" in volley["readings"]
    # spread: shots 1..6 wound models 1, 2, 3, 4, 5 and 1 again: five removed, one lost.
    assert [s.get("model") for s in volley["shots"]] == [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]
    assert volley["summary"]["casualties"] == 5 and volley["summary"]["lost"] == 1
    assert play.row("marines")["models"] == "0/5"


def test_the_reading_next_standing_puts_the_wounds_on_one_model_after_another(play, house):
    rules = house("ruleset: rogue-trader\nreadings:\n  volley-shares: {choice: next-standing}\n")
    volley = play.json(
        "fire", "marines", "--at", "ogryns", "--range", "10", "--rules", rules, "--rules-changed",
        # to hit 7 - 4 = 3, +1 at short range: 2; four hits. To wound S4 against T5: 5; three
        # wound. No save (flak 6, -1: 7).
        "--dice", "2,2,2,2,1," "5,5,5,1",
    )  # fmt: skip
    assert "volley-shares = next-standing (chosen by house.yaml)" in volley["readings"]
    # Three wounds on ogryn 1 (W 3) remove it; none reaches ogryn 2. (Spread: one on each.)
    assert play.row("ogryns")["taken"] == [3, 0, 0]


def test_a_volley_at_a_unit_with_a_wounded_model_is_one_volley(play):
    # ogryns:1 takes 2 wounds first: heavy bolter 6 to hit, 4 to wound, d4 2.
    play.json("fire", "heavy", "--at", "ogryns:1", "--range", "18", "--dice", "6,4,2")
    assert play.row("ogryns")["taken"] == [2, 0, 0]
    # Five marines: to hit 7 - 4 = 3, +1 at short range: 2. To wound S4 against T5: 5. No
    # save. The wounded ogryn first: shots 1..5 at ogryns 1, 2, 3, 1, 2.
    volley = play.json(
        "fire", "marines", "--at", "ogryns", "--range", "10",
        "--dice", "2,2,2,2,2," "5,1,1,1,5",
    )  # fmt: skip
    assert volley["inputs"]["wounded"] == [2]
    assert play.row("ogryns")["taken"] == [3, 1, 0]
    assert play.row("ogryns")["models"] == "2/3"


def test_a_wounded_model_fires_at_minus_one_and_a_model_fires_alone(play):
    play.json("fire", "heavy", "--at", "ogryns:2", "--range", "18", "--dice", "6,4,1")
    _orks_turn(play)
    # ogryns:3 alone, unwounded: to hit 7 - 2 = 5, +1 at short range: 4.
    alone = play.json("fire", "ogryns:3", "--at", "marines", "--range", "10", "--dice", "3")
    assert alone["needed_to_hit"] == 4 and alone["outcome"] == "miss"
    assert play.row("ogryns")["fired_models"] == [3]
    # The two left, the wounded one first: its shot needs 5 ("-1 if the firer is wounded").
    both = play.json("fire", "ogryns", "--at", "marines", "--range", "10", "--dice", "4,4,1")
    assert both["inputs"]["firers_wounded"] == 1
    assert [s["outcome"] for s in both["shots"]] == ["miss", "no-wound"]
    assert play.row("ogryns")["fired"] is True
    assert "has fired this turn" in play.refused("fire", "ogryns:1", "--at", "marines", "-r", "9")


def test_a_charge_makes_a_fast_moving_target_next_turn(play):
    _orks_turn(play)
    moved = play.json("move", "carnosaur", "--charge", "--at", "marines", "--no-contact")
    assert moved["move"] == 14  # M 7, doubled for the charge: all of it, unless --distance
    play.json("game", "next")
    # Lascannon at the carnosaur: 7 - 4 = 3; +1 large target, -1 for the full 10" of its 14".
    shot = play.json("fire", "lascannon-team", "--at", "carnosaur", "--range", "20", "--dice", "2")
    mods = {m["name"]: m["value"] for m in shot["modifiers"]}
    assert mods["target-moved"] == -1 and mods["large-target"] == 1
    assert shot["needed_to_hit"] == 3 and shot["outcome"] == "miss"


def test_hiding_keeps_a_unit_from_being_targeted_until_it_fires(play):
    play.json("hide", "marines")
    assert play.row("marines")["hidden"] is True
    _orks_turn(play)
    message = play.refused("fire", "boyz", "--at", "marines", "--range", "10")
    assert "hiding" in message and "Initiative" in message
    # An ork spots a hiding model within its Initiative (2) in inches.
    play.json("fire", "boyz", "--at", "marines", "--range", "2", "--seed", "1")
    play.json("game", "next")
    play.json("fire", "marines", "--at", "boyz", "--range", "10", "--seed", "2")
    assert play.row("marines")["hidden"] is False  # firing gives its position away


def test_the_turn_goes_in_the_rules_order(play):
    play.json("move", "marines", "--distance", "3")
    play.json("fire", "heavy", "--at", "boyz", "--range", "18", "--seed", "3")
    assert play.status()["phase"] == 2
    assert "movement part" in play.refused("move", "lascannon-team")
    # A reserve move: uncommitted troops only (reserve-move = not-moved-or-fired).
    assert "uncommitted" in play.refused("move", "marines", "--reserve")
    play.json("move", "lascannon-team", "--reserve")
    assert play.status()["phase"] == 4
    assert "shooting part" in play.refused("fire", "grenadier", "--at", "boyz", "-r", "6")
    assert "reserve move" in play.refused("hide", "lascannon-team")
    assert "not routing" in play.refused("rally", "marines")


def test_a_charge_that_fails_to_make_contact_does_nothing_else(play):
    play.json("move", "marines", "--charge", "--at", "boyz", "--no-contact")
    message = play.refused("fire", "marines", "--at", "boyz", "--range", "6")
    assert "nothing at all" in message
    anyway = play.json("fire", "marines", "--at", "boyz", "--range", "6", "--seed", "1",
                       "--anyway")  # fmt: skip
    assert "nothing at all" in anyway["game"]["anyway"]


def test_routing_troops_rally_in_the_rallying_part(play):
    play.json("move", "marines", "--routs")
    assert play.row("marines")["routing"] is True
    assert any("rally" in line for line in play.status()["due"])
    # 2D6 against Ld 8 (rally-test = leadership): 4 + 4 = 8 rallies.
    rally = play.json("rally", "marines", "--dice", "4,4")
    assert rally["outcome"] == "rallied" and "rally-test = leadership" in rally["readings"]
    assert play.row("marines")["routing"] is False
    assert play.status()["phase"] == 6


def _casualties_by_hand(p: Fraction, shots: int, left: list[int], share: str) -> dict:
    """Every way `shots` shots of one wound each (a wound with probability p) can fall, shared
    out as the reading says, counted by hand: the casualties' distribution."""
    out: dict[int, Fraction] = {}
    for wounds in itertools.product((0, 1), repeat=shots):
        weight = Fraction(1)
        for w in wounds:
            weight *= p if w else 1 - p
        remaining = list(left)
        for i, w in enumerate(wounds):
            if not w:
                continue
            if share == "spread":
                model = i % len(left)
            else:
                model = next((m for m, r in enumerate(remaining) if r > 0), None)
                if model is None:
                    continue
            remaining[model] = max(0, remaining[model] - 1)
        dead = sum(1 for before, r in zip(left, remaining, strict=True) if before and not r)
        out[dead] = out.get(dead, Fraction(0)) + weight
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize(
    ("shots", "models", "wounded", "share"),
    [(3, 3, [2], "spread"), (3, 3, [2], "next-standing"), (5, 2, [], "spread"),
     (5, 2, [], "next-standing"), (4, 3, [1, 2], "spread"), (4, 3, [1, 2], "next-standing")],
)  # fmt: skip
def test_the_odds_of_a_shared_volley_are_counted_by_hand(hc, house, shots, models, wounded, share):
    # Space marines' bolt guns at ogryns, 10": a hit on 2+ (5/6), a wound on 5+ (1/3), no save,
    # one wound a shot: p = 5/18. Ogryns have W 3.
    rules = house(f"ruleset: rogue-trader\nreadings:\n  volley-shares: {{choice: {share}}}\n")
    args = ["fire", "--ruleset", "rogue-trader", "--firer", "space-marine", "--weapon",
            "bolt-gun", "-r", "10", "--target", "ogryn", "--shots", str(shots), "--models",
            str(models), "--rules", rules, "--odds"]  # fmt: skip
    for w in wounded:
        args += ["--wounded", str(w)]
    odds = hc.json(*args)
    left = [3 - w for w in wounded] + [3] * (models - len(wounded))
    expected = _casualties_by_hand(Fraction(5, 18), shots, left, share)
    got = {int(k): Fraction(v) for k, v in odds["distributions_exact"]["casualties"].items()}
    assert got == expected


# ---------------------------------------------------------------------------------------------
# Every result kept: random legal actions of random games, the change in `hc status --json`
# against what each result itself reports.

SMALL = """\
ruleset: rogue-trader
sides:
  Imperials:
    marines: {profile: space-marine, models: %d, weapon: bolt-gun}
    heavy: {profile: space-marine, weapon: heavy-bolter}
  Orks:
    boyz: {profile: ork, models: %d, weapon: bolt-gun}
    ogryns: {profile: ogryn, models: %d, weapon: bolt-gun}
"""
SIDES = {"Imperials": ("marines", "heavy"), "Orks": ("boyz", "ogryns")}
W = {"marines": 1, "heavy": 1, "boyz": 1, "ogryns": 3}

actions = st.lists(
    st.tuples(
        st.sampled_from(["fire", "fire", "fire", "model", "next", "move"]),
        st.integers(0, 1),  # which unit of the side acts
        st.lists(st.tuples(st.integers(0, 1), st.integers(0, 3)), min_size=1, max_size=3),
        st.integers(1, 30),  # range, or inches moved
        st.integers(0, 2**32),  # seed
    ),
    min_size=1,
    max_size=8,
)


def _expected(before: dict, shots: list[dict], targets: list[tuple[str, int | None]]) -> dict:
    """The wounds each model should carry after a fire, read from the shots alone: which model
    a shot struck is in its victim's label (following fire: profile:unit-N) or, for one unit,
    the volley's own order (a model named: it alone; else the wounded first, shot i at the
    i-th model round again, as the reading spread says); each model takes no more wounds than
    it has left."""
    taken = {name: list(row["taken"]) for name, row in before.items()}
    if len(targets) == 1:
        unit, model = targets[0]
        if model is not None:
            order = [model]
        else:
            standing = [i for i, t in enumerate(taken[unit]) if t < W[unit]]
            order = sorted(standing, key=lambda i: -taken[unit][i])
    for i, shot in enumerate(shots):
        wounds = shot.get("wounds") or 0
        if not wounds:
            continue
        if len(targets) > 1:
            label = shot["victim"].partition(": ")[2].partition(":")[2]  # unit-N
            unit, _, number = label.rpartition("-")
            model = int(number) - 1
        else:
            model = order[i % len(order)]
        taken[unit][model] = min(W[unit], taken[unit][model] + wounds)
    return taken


@settings(
    max_examples=int(os.environ.get("HC_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.tuples(st.integers(1, 4), st.integers(1, 5), st.integers(1, 3)), actions)
def test_every_result_a_fire_reports_is_what_the_game_keeps(hc, tmp_path_factory, sizes, plan):
    folder = tmp_path_factory.mktemp("game")
    (folder / "roster.yaml").write_text(SMALL % sizes, encoding="utf-8")
    path = folder / "g.hcg"
    assert hc("game", "new", str(path), "--roster", str(folder / "roster.yaml")).exit_code == 0
    env = {"HC_GAME": str(path)}

    def status() -> dict:
        result = hc("status --json", env=env)
        assert result.exit_code == 0, result.output
        return {r["name"]: r for rows in json.loads(result.stdout)["sides"].values() for r in rows}

    assert hc("initiative --seed 7", env=env).exit_code == 0
    for kind, who, aims, distance, seed in plan:
        playing = json.loads(hc("status --json", env=env).stdout)["playing"]
        enemy = next(s for s in SIDES if s != playing)
        unit = SIDES[playing][who]
        before = status()
        size = path.stat().st_size
        if kind == "next":
            assert hc("game next", env=env).exit_code == 0
            continue
        if kind == "move":
            result = hc("move", unit, "--distance", str(min(distance, 4)), env=env)
            assert result.exit_code in (0, 2), result.output
            continue
        firer = f"{unit}:{(seed % before[unit]['total']) + 1}" if kind == "model" else unit
        words, targets = [], []
        for target_index, model in aims[: 3 if unit == "heavy" else 1]:
            name = SIDES[enemy][target_index]
            standing = [i for i, t in enumerate(before[name]["taken"]) if t < W[name]]
            if model and standing:
                chosen = standing[model % len(standing)]
                words += ["--at", f"{name}:{chosen + 1}"]
                targets.append((name, chosen))
            else:
                words += ["--at", name]
                targets.append((name, None))
        result = hc("fire", firer, *words, "--range", str(distance), "--seed", str(seed),
                    "--json", env=env)  # fmt: skip
        if result.exit_code == 2:  # refused (fired already, removed, out of range): no trace
            assert path.stat().st_size == size, result.output
            continue
        assert result.exit_code == 0, result.output
        out = json.loads(result.stdout)
        shots = out.get("shots") or [out]
        if len(targets) > 1:  # a unit named alone in following fire: the model it was given
            targets = [(t, 0) for t, _ in targets]
        after = status()
        expected = _expected(before, shots, targets)
        assert {n: r["taken"] for n, r in after.items()} == expected, (firer, words, out)
        removed = sum(
            sum(t >= W[n] for t in expected[n]) - sum(t >= W[n] for t in before[n]["taken"])
            for n in expected
        )
        assert removed == out.get("summary", {}).get("casualties", out["outcome"] == "casualty")


def test_hiding_lasts_through_the_enemys_following_turn(play):
    # "it cannot then be targeted upon during the enemy's following turn" (seed 003): the
    # reading hiding-lasts = declared-each-turn, then it is declared again or lapses.
    play.json("hide", "marines")
    _orks_turn(play)
    assert "hiding" in play.refused("fire", "boyz", "--at", "marines", "--range", "10")
    back = play.json("game", "next")
    assert any("hides no more" in line for line in back["changes"])
    assert play.row("marines")["hidden"] is False
    play.json("game", "next")
    play.json("fire", "boyz", "--at", "marines", "--range", "10", "--seed", "4")


def test_a_deviated_marker_is_placed_where_it_landed_at_the_range_it_was_thrown(play):
    """A frag grenade thrown 6": the deviation die 4 (a 2" marker deviates on 3+, the reading
    half-inch-steps), 5" capped at half the range, toward 10 o'clock. Where it landed it is the
    same shot, at the range it was thrown (the game fills it in): over two boyz, BS 4 hits on 3,
    S3 against T4 wounds on 5, flak 6 with -1 saves on nothing: two casualties."""
    thrown = play.json("fire", "grenadier", "--at", "boyz", "--range", "6", "--under", "3",
                       "--dice", "4,5,10")  # fmt: skip
    assert thrown["outcome"] == "deviated"
    placed = play.json("fire", "grenadier", "--at", "boyz", "--placed", "--under", "2",
                       "--dice", "4,5,5,6")  # fmt: skip
    assert placed["inputs"]["range"] == 6
    assert placed["summary"]["casualties"] == 2
    assert play.row("boyz")["models"] == "8/10"


def test_each_deviated_marker_waits_to_be_placed_and_none_is_placed_unthrown(hc, tmp_path):
    """Two grenadiers throw and both markers deviate (the die 4 on a 2" marker, 3+): each is
    placed where it landed, at the range it was thrown from, one after the other; a third
    --placed has no marker to place (a throw that landed with no roll for it), and is refused."""
    roster = tmp_path / "r.yaml"
    roster.write_text("ruleset: rogue-trader\nsides:\n  Imperials:\n    guards: {profile: "
                      "space-marine, models: 2, weapon: frag-grenade}\n    marines: {profile: "
                      "space-marine, models: 3, weapon: bolt-gun}\n  Orks:\n    boyz: "
                      "{profile: ork, models: 10, weapon: bolt-gun}\n")  # fmt: skip
    path = tmp_path / "g.hcg"
    assert hc("game", "new", str(path), "--roster", str(roster)).exit_code == 0
    env = {"HC_GAME": str(path)}

    def fire(line: str) -> dict:
        result = hc(f"fire {line} --json", env=env)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    assert hc("initiative --dice 1", env=env).exit_code == 0
    assert fire("guards --at boyz -r 6 --under 1 --dice 4,5,10")["outcome"] == "deviated"
    assert fire("guards --at boyz -r 7 --under 1 --dice 4,5,10")["outcome"] == "deviated"
    due = " ".join(json.loads(hc("status --json", env=env).stdout)["due"])
    assert "guards:1's marker deviated: place it" in due and "guards:2's marker" in due
    other = hc("fire guards --at boyz --placed --under 1 -r 9 --dice 1", env=env)  # not its range
    assert other.exit_code == 2 and 'fired at, 6"' in " ".join(other.output.split())
    first = fire("guards --at boyz --placed --under 1 --dice 1")  # a miss: no one struck
    # the second landed on the guards' own marines: it strikes them as it would the enemy
    second = fire("guards --at marines --placed --under 1 --dice 1")
    assert (first["inputs"]["range"], second["inputs"]["range"]) == (6, 7)
    before = path.read_bytes()
    said = hc("fire guards --at boyz --placed --under 1 -r 6 --dice 4,5", env=env)
    assert said.exit_code == 2 and "no deviated marker to place" in " ".join(said.output.split())
    assert path.read_bytes() == before


def test_an_action_of_a_later_part_says_what_it_closes_undone(play):
    """The turn's parts come in order (seed 003): a rally in the movement part ends the
    shooting part, and the game says who had not fired (found in play: it passed in silence)."""
    play.json("move", "marines", "--routs")
    rally = play.act("rally", "marines", "--dice", "3,4", "-q")  # 7, needs Ld 8 or less
    assert rally.exit_code == 0, rally.output
    said = " ".join(rally.output.split())
    assert "the turn is at part 6, rallying" in said
    assert (
        "the shooting part is over: marines, heavy, grenadier, lascannon-team did not fire" in said
    )

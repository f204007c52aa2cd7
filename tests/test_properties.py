"""Property tests: whatever a player types, hc resolves it or says what is wrong (exit 2);
it never shows a traceback."""

from __future__ import annotations

import json
import os

from helpers import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hc_cli.cli.app import app

runner = CliRunner()

WEAPONS = ["ingrave-ar", "40mm-plasma-cannon", "bolt-gun", "missile-launcher", "ingrav-ar", ""]
TROOPS = ["crusader", "orc", "levy", "ork", "5", "-1", "0", ""]
MODS = ["target-static", "smoke=-10", "-10", "+5", "ambushed", "target-in-cover", "x=", "=3", ""]
numbers = st.one_of(st.integers(-20, 150).map(str), st.sampled_from(["abc", "1e3", "-0", "12.5"]))
dice_lists = st.one_of(
    st.lists(st.integers(-2, 12), min_size=0, max_size=8).map(lambda v: ",".join(map(str, v))),
    st.sampled_from(["46%", "100%", "0%", "x,1", ",", "5,,5"]),
)
common = st.fixed_dictionaries(
    {}, optional={"--seed": st.integers(0, 2**40).map(str), "--dice": dice_lists}
)
flags = st.sampled_from(["--json", "--odds", "--no-color", None])

# HC_EXAMPLES=1000 for a longer hunt than CI's.
SETTINGS = settings(
    max_examples=int(os.environ.get("HC_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _invoke(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code in (0, 2), (args, result.exit_code, result.output)
    assert "Traceback" not in result.output, args
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), (args, repr(result.exception))
    if result.exit_code == 0 and "--json" in args:
        json.loads(result.stdout)
    if result.exit_code == 2:
        assert result.stderr.strip(), args


def _args(command: str, options: dict, flag: str | None) -> list[str]:
    args = [command]
    for key, value in options.items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            args += [key, v]
    return args + ([flag] if flag else [])


@SETTINGS
@given(
    options=st.fixed_dictionaries(
        {},
        optional={
            "--weapon": st.sampled_from(WEAPONS),
            "--range": numbers,
            "--target": st.lists(st.sampled_from(TROOPS), max_size=3),
            "--df": numbers,
            "--chance": numbers,
            "--penetration": numbers,
            "--shots": numbers,
            "--template": st.sampled_from(["cone", "circle", "square"]),
            "--mod": st.lists(st.sampled_from(MODS), max_size=3),
        },
    ),
    extra=common,
    flag=flags,
)
def test_fire_never_crashes(options, extra, flag):
    _invoke(_args("fire", {**options, **extra}, flag))


@SETTINGS
@given(
    options=st.fixed_dictionaries(
        {},
        optional={
            "--attacker": st.sampled_from(TROOPS),
            "--defender": st.sampled_from(TROOPS),
            "--attacker-weapon": st.sampled_from(WEAPONS),
            "--defender-weapon": st.sampled_from(WEAPONS),
            "--mod": st.lists(st.sampled_from(MODS + ["charging"]), max_size=2),
            "--defender-mod": st.lists(st.sampled_from(MODS + ["charging"]), max_size=2),
        },
    ),
    extra=common,
    flag=flags,
)
def test_melee_never_crashes(options, extra, flag):
    _invoke(_args("melee", {**options, **extra}, flag))


@SETTINGS
@given(
    options=st.fixed_dictionaries(
        {},
        optional={
            "--troop": st.sampled_from(TROOPS),
            "--strength": numbers,
            "--casualties": numbers,
            "--mod": st.lists(st.sampled_from(MODS + ["below-half", "casualties"]), max_size=2),
        },
    ),
    switches=st.lists(
        st.sampled_from(["--fired-at", "--ambushed", "--first-casualty", "--below-half"]),
        unique=True,
    ),
    extra=common,
    flag=flags,
)
def test_morale_never_crashes(options, switches, extra, flag):
    _invoke(_args("morale", {**options, **extra}, flag) + switches)


@SETTINGS
@given(
    options=st.fixed_dictionaries(
        {},
        optional={
            "--troop": st.sampled_from(TROOPS),
            "--mod": st.lists(st.sampled_from(MODS + ["casualties"]), max_size=2),
        },
    ),
    switches=st.lists(
        st.sampled_from(["--has-casualties", "--casualties-during-regroup"]), unique=True
    ),
    extra=common,
    flag=flags,
)
def test_rally_never_crashes(options, switches, extra, flag):
    _invoke(_args("rally", {**options, **extra}, flag) + switches)


@SETTINGS
@given(
    options=st.fixed_dictionaries(
        {},
        optional={
            "--side": st.lists(st.sampled_from(["Crusaders", "Orcs", "", "orcs"]), max_size=3),
            "--mod": st.lists(st.sampled_from(MODS + ["commander-present"]), max_size=2),
            "--second-mod": st.lists(st.sampled_from(MODS + ["commander-present"]), max_size=2),
        },
    ),
    extra=common,
    flag=flags,
)
def test_initiative_never_crashes(options, extra, flag):
    _invoke(_args("initiative", {**options, **extra}, flag))


@SETTINGS
@given(
    expression=st.one_of(
        st.from_regex(r"\A[0-9]{0,3}d(100|%|[0-9]{1,4})([+-][0-9]{0,3}d?[0-9]{0,3})?\Z"),
        st.text(max_size=12),
    ),
    extra=common,
    flag=flags,
)
def test_roll_never_crashes(expression, extra, flag):
    _invoke(_args("roll", extra, flag) + ["--", expression])


RT_PROFILES = ["space-marine", "ork", "gretchin", "ogryn", "sump-rat", "horse", "orc", "x", ""]
RT_WEAPONS = ["bolt-gun", "lasgun", "heavy-bolter", "lascannon", "frag-grenade", "rock", "zap", ""]


@SETTINGS
@given(
    options=st.fixed_dictionaries(
        {"--ruleset": st.just("rogue-trader")},
        optional={
            "--firer": st.sampled_from(RT_PROFILES),
            "--bs": numbers,
            "--weapon": st.sampled_from(RT_WEAPONS),
            "--range": numbers,
            "--target": st.lists(st.sampled_from(RT_PROFILES), max_size=3),
            "--strength": numbers,
            "--toughness": numbers,
            "--damage": st.sampled_from(["1", "d6", "2d6", "0", "x"]),
            "--save": numbers,
            "--save-mod": numbers,
            "--armour": st.sampled_from(["mesh", "none", "tin"]),
            "--size": st.sampled_from(["small", "large", "huge"]),
            "--target-moved": numbers,
            "--wounds-left": numbers,
            "--wounds-taken": numbers,
            "--shots": numbers,
            "--under": numbers,
            "--partly": numbers,
            "--mount": st.sampled_from(RT_PROFILES),
            "--friend": st.sampled_from(RT_PROFILES),
            "--radius": numbers,
            "--mod": st.lists(st.sampled_from(MODS + ["soft-cover"]), max_size=2),
        },
    ),
    switches=st.lists(
        st.sampled_from(
            [
                "--firer-wounded",
                "--moved",
                "--allow-7plus",
                "--moving-surface",
                "--mounted-weapon",
                "--soft-cover",
                "--hard-cover",
                "--improvised",
                "--at-mount",
                "--into-melee",
                "--placed",
                "--blasting-cover",
                "--closed-room",
            ]
        ),
        unique=True,
        max_size=4,
    ),
    extra=common,
    flag=flags,
)
def test_rogue_trader_fire_never_crashes(options, switches, extra, flag):
    _invoke(_args("fire", {**options, **extra}, flag) + switches)


@SETTINGS
@given(
    options=st.fixed_dictionaries(
        {"--ruleset": st.sampled_from(["rogue-trader", "high-crusade"])},
        optional={"--weapon": st.sampled_from(RT_WEAPONS), "--radius": numbers, "--range": numbers},
    ),
    switches=st.lists(st.just("--blasting-cover"), max_size=1),
    extra=common,
    flag=flags,
)
def test_deviate_never_crashes(options, switches, extra, flag):
    _invoke(_args("deviate", {**options, **extra}, flag) + switches)


T2K_WEAPONS = [
    "m16a2",
    "m134",
    "remington-870",
    "aa-12",
    "spas-12-flechette",
    "frag-grenade",
    "knife",
    "m1911",
    "nope",
    "",
]


@SETTINGS
@given(
    options=st.fixed_dictionaries(
        {"--ruleset": st.just("t2k")},
        optional={
            "--asset": numbers,
            "--skill": numbers,
            "--attribute": numbers,
            "--riding": numbers,
            "--weapon": st.sampled_from(T2K_WEAPONS),
            "--short-range": numbers,
            "--rof": st.sampled_from(["sa", "ss", "3", "5", "10", "50", "7", "zz"]),
            "--recoil": numbers,
            "--damage": st.sampled_from(["2d6", "3", "x"]),
            "--range": numbers,
            "--shot": st.sampled_from(["aimed", "quick", "aimed-burst", "burst", "snap"]),
            "--shots": numbers,
            "--strength": numbers,
            "--movement": st.sampled_from(
                [
                    "stationary",
                    "walking",
                    "trotting",
                    "vehicle",
                    "boat",
                    "saddle",
                    "running",
                    "flying",
                ]
            ),
            "--target-speed": numbers,
            "--target-kph": numbers,
            "--location": st.sampled_from(["head", "chest", "leg"]),
            "--damage-done": numbers,
            "--zone": st.lists(
                st.sampled_from(["A:1", "B:4", "C:9", "D", ":3", "E:-1"]), max_size=3
            ),
            "--weight": numbers,
            "--throw-range": numbers,
            "--grenade-number": numbers,
            "--ammo": st.sampled_from(["buckshot", "flechette", "slug"]),
        },
    ),
    switches=st.lists(
        st.sampled_from(
            [
                "--obscured",
                "--scope",
                "--laser-sight",
                "--braced",
                "--two-weapons",
                "--npc",
                "--riders",
                "--thrown",
            ]
        ),
        unique=True,
        max_size=3,
    ),
    extra=common,
    flag=flags,
)
def test_t2k_fire_never_crashes(options, switches, extra, flag):
    _invoke(_args("fire", {**options, **extra}, flag) + switches)


@SETTINGS
@given(
    chars=st.lists(
        st.one_of(
            st.tuples(
                st.sampled_from(["A", "B", "C", "D"]),
                st.integers(-2, 14),
                st.sampled_from(["", "none", "slight", "serious", "critical", "bad"]),
                st.integers(0, 9),
                st.integers(0, 9),
            ).map(lambda c: ":".join(map(str, c))),
            st.sampled_from(["X", "Y:z", "Z:1:2:3:4:5"]),
        ),
        max_size=4,
    ),
    notes=st.lists(st.sampled_from(["--ambush", "--surprised", "--charged"]), max_size=2),
    extra=common,
    flag=flags,
)
def test_t2k_initiative_never_crashes(chars, notes, extra, flag):
    args = ["initiative", "--ruleset", "t2k"]
    for c in chars:
        args += ["--char", c]
    for n in notes:
        args += [n, "A"]
    _invoke(_args("initiative", extra, flag) + args[1:])


@SETTINGS
@given(
    options=st.fixed_dictionaries(
        {"--ruleset": st.sampled_from(["rogue-trader", "t2k"])},
        optional={
            "--profile": st.sampled_from(RT_PROFILES),
            "--m": numbers,
            "--armour": st.sampled_from(["mesh", "none", "tin"]),
            "--turns": numbers,
            "--difficult": numbers,
            "--very-difficult": numbers,
        },
    ),
    switches=st.lists(st.sampled_from(["--charge", "--obstacle"]), unique=True),
    extra=common,
    flag=flags,
)
def test_move_never_crashes(options, switches, extra, flag):
    _invoke(_args("move", {**options, **extra}, flag) + switches)

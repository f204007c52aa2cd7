"""The bundled rule sets' declarations, made with the helpers that declare each shared option
once (`hc_cli.plugin.declare`): the flags, kinds and units the command-line contract names
(shared/CLI.md), and a bundled rule set's tables, resolvers and game found from its package."""

from __future__ import annotations

import importlib
import os

import pytest

from hc_cli.plugin import registry
from hc_cli.plugin.common_options import COMMON_NAMES, DICE_OPTIONS, ROLLS_NOTHING, common_options

# The rule texts measure High Crusade's and Rogue Trader's ranges in inches, Twilight: 2000's
# in metres.
RANGE_UNIT = {"high-crusade": "inches", "rogue-trader": "inches", "t2k": "metres"}


@pytest.mark.parametrize("name", RANGE_UNIT)
def test_a_bundled_rule_set_finds_its_tables_resolvers_and_game(name):
    declaration = registry.get(name)
    assert os.path.basename(declaration.data) == name
    assert any(f.endswith(".yaml") for f in os.listdir(declaration.data))
    impl = importlib.import_module(declaration.impl)
    assert set(impl.COMMANDS) == set(declaration.commands)
    game = importlib.import_module(declaration.game).GAME
    assert game is not None and declaration.game_rules is game


@pytest.mark.parametrize("name", RANGE_UNIT)
def test_fire_takes_the_shared_options_as_the_contract_names_them(name):
    fire = registry.get(name).commands["fire"]
    distance = fire.option("range")
    assert distance is not None and distance.flags == ("--range", "-r")
    assert (distance.kind, distance.unit) == ("number", RANGE_UNIT[name])
    weapon = fire.option("weapon")
    assert weapon is not None and weapon.flags == ("--weapon", "-w") and weapon.complete
    shots = fire.option("shots")
    assert shots is not None and shots.flags == ("--shots", "-n")
    assert (shots.kind, shots.low) == ("whole", 1)
    mod = fire.option("mod")  # repeatable: a table name or a signed number
    assert mod is not None and mod.many and mod.complete and mod.metavar == "X"


@pytest.mark.parametrize("name", ["high-crusade", "rogue-trader"])
def test_a_roll_off_names_its_two_sides(name):
    side = registry.get(name).commands["initiative"].option("side")
    assert side is not None and side.flags == ("--side",) and side.many
    assert "give it twice" in side.help


def test_a_command_that_rolls_nothing_takes_every_common_option_but_the_dice():
    rolls_nothing = []
    for name in RANGE_UNIT:
        for command in registry.get(name).commands.values():
            taken = {o.name for o in common_options(command)}
            if command.common is ROLLS_NOTHING:
                rolls_nothing.append(command.name)
                assert taken == set(COMMON_NAMES) - set(DICE_OPTIONS)
    assert sorted(rolls_nothing) == ["hide", "melee", "move", "reload"]  # melee: Rogue Trader's


def test_the_tables_are_the_modules_schemas_with_one_value_laid_over():
    from hc_cli.rulesets.t2k import commands, tables

    schemas, cross_check = commands.schemas()
    assert schemas is tables.SCHEMAS and cross_check is tables.cross_check
    over = ("--over modifiers.smoke.levels=3", "modifiers", "smoke", "levels", 3)
    plain, laid = commands.load_tables(), commands.load_tables(None, over)
    # combat.yaml's smoke is one level harder; the sweep's point makes it three
    assert plain.merged.tables["modifiers"]["smoke"]["levels"] == 1
    assert laid.merged.tables["modifiers"]["smoke"]["levels"] == 3
    assert laid.merged.house == ["--over modifiers.smoke.levels=3"]

"""The two ways into hc agree: a plain resolving command line is read by the direct path
(`hc_cli.cli.direct`, no typer) and anything else by the typer app, and a command line both
can read must print the same bytes and exit alike either way. Checked here once, over every
kind of command line (every example of every rule set's commands, with the common options,
odds, and the errors of each kind), rather than by running every test of the suite twice."""

from __future__ import annotations

import shlex

import pytest

from hc_cli.plugin import registry


def _examples() -> list[tuple[str, list[str]]]:
    lines = []
    for name in registry.names():
        if name not in registry.BUILTIN:
            continue  # a rule set a test registers: its own tests run it
        for command in registry.get(name).commands.values():
            for example in command.examples:
                words = shlex.split(example)[1:]
                lines.append((name, [words[0], "--ruleset", name, *words[1:]]))
    return lines


VARIANTS = [
    [],
    ["--seed", "7"],
    ["--seed", "7", "--json"],
    ["--seed", "7", "-q"],
    ["--seed", "7", "--no-color"],
    ["--odds"],
    ["--odds", "--json"],
    ["--nope"],  # an option no command has
    ["--seed", "x"],  # a number that is not one
    ["--seed", "7", "--dice", "3"],  # two ways to roll
]

LINES = [words + extra for _, words in _examples() for extra in VARIANTS]
LINES += [
    ["roll", "2d6+1", "--seed", "3"],
    ["roll", "4d6kh3", "--odds"],
    ["roll", "d100", "--dice", "46", "--json"],
    ["roll", "2d6+", "--seed", "1"],  # a malformed expression
    ["roll", "--seed", "3", "--", "-4d6"],  # an expression after -- (a leading minus)
    ["roll", "--odds", "--json", "--", "{d6, d8}kh1"],
    ["roll", "--seed", "3", "--", "2d6", "3"],  # two words after --: typer's to refuse
    ["fire", "-w", "ingrav-ar", "-r", "14", "-t", "orc", "--seed", "1"],  # a misspelt name
    ["fire", "-w", "ingrave-ar", "-t", "orc", "--seed", "1"],  # a required option left out
    ["fire", "-w", "ingrave-ar", "-r", "-3", "-t", "orc"],  # out of bounds
    ["fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--dice", "12,34,56"],  # too many
    ["fire", "--ruleset", "rogue-trader", "--bs", "4", "-w", "bolt-gun", "-r", "10", "-t",
     "ork:3", "-t", "ork", "--dice", "4,4,1,1"],
    ["fire", "-w", "ingrave-ar", "-r", "1e1", "-t", "orc", "--seed", "1"],  # numbers as
    ["fire", "-w", "ingrave-ar", "-r", ".5E+1", "-t", "orc", "--seed", "1"],  # scripts write
    ["fire", "-w", "ingrave-ar", "-r", "14.", "-t", "orc", "--seed", "1"],  # them
    ["fire", "--ruleset=t2k", "--asset", "12", "--strength", "5", "-w", "m16a2", "-r", "30",
     "--shot", "burst", "--seed", "2", "--json"],
]  # fmt: skip


@pytest.mark.parametrize("args", LINES, ids=lambda a: " ".join(a)[:70])
def test_the_direct_path_and_typer_print_the_same(hc, args):
    mine, typer, direct = hc.both_ways(*args)
    assert (mine.exit_code, mine.stdout, mine.stderr) == (
        typer.exit_code,
        typer.stdout,
        typer.stderr,
    ), (direct, args)
    assert "Traceback" not in mine.output


def test_the_direct_path_takes_the_plain_command_lines():
    """The cases above test something: the direct path reads most of them itself."""
    from hc_cli.cli.direct import parse

    taken = sum(parse(args, {}) is not None for args in LINES)
    assert taken >= len(LINES) // 2, taken
    assert parse(["roll", "--seed", "3", "--", "-4d6"], {}) is not None  # no typer for -4d6
    for written in ("1e1", ".5E+1", "14.", "-2.5e-1"):  # no slow way round for a number
        assert parse(["fire", "-w", "ingrave-ar", "-r", written, "-t", "orc"], {}) is not None

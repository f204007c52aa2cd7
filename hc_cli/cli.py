"""The `hc` command line: thin commands that build a request, call a resolver, and render.

Every TAB press and every command pays this module's import time, so rule sets, YAML and
rich are imported inside the commands that need them, never at the top.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from hc_cli.errors import HcError

app = typer.Typer(
    name="hc",
    help="Dice and resolution for tabletop miniatures wargames: every modifier and roll shown, "
         "exact odds, replayable seeds, house rules as data.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain click help and errors: rich-formatted help would double the start-up of --help.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

DEFAULT_RULESET = "high-crusade"


# ---------------------------------------------------------------------------------------------
# Completion of table values: reads the (cached) tables of the rule set in use.


def _table_names(ctx: typer.Context, table: str, applies_to: tuple[str, ...] = ()) -> list[str]:
    try:
        from hc_cli.rulesets import ruleset_module

        ruleset = (ctx.params.get("ruleset") or os.environ.get("HC_RULESET") or DEFAULT_RULESET)
        module = ruleset_module(ruleset)
        tables = module.load_tables(ctx.params.get("rules") or None)
        entries = getattr(tables, table)
        return sorted(k for k, v in entries.items()
                      if not applies_to or getattr(v, "applies_to", None) in applies_to)
    except HcError:
        return []


def _completer(table: str, *applies_to: str) -> Callable[[typer.Context, str], list[str]]:
    def complete(ctx: typer.Context, incomplete: str) -> list[str]:
        return [n for n in _table_names(ctx, table, applies_to) if n.startswith(incomplete.lower())]
    return complete


def _complete_rulesets(incomplete: str) -> list[str]:
    from hc_cli.tables import available_rulesets

    return [r for r in available_rulesets() if r.startswith(incomplete)]


# ---------------------------------------------------------------------------------------------
# Options every resolving command takes, declared once.

RulesetOpt = Annotated[str, typer.Option(
    "--ruleset", envvar="HC_RULESET", autocompletion=_complete_rulesets,
    help="Rule set: high-crusade (default); also from HC_RULESET.")]
SeedOpt = Annotated[int | None, typer.Option(
    "--seed", help="Replay: the same seed and inputs give the same output on any machine.")]
DiceOpt = Annotated[str | None, typer.Option(
    "--dice", metavar="LIST",
    help="Your own dice, comma-separated, in the order the breakdown lists the rolls. A D10 "
         "takes 1..10 (0 = 10); a D100 two faces 0..9, tens then units (0,0 = 100), or one "
         "read value such as 46%.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")]
OddsOpt = Annotated[bool, typer.Option(
    "--odds", help="Roll nothing: the exact probability of each outcome.")]
RulesOpt = Annotated[list[str] | None, typer.Option(
    "--rules", metavar="FILE", help="A house-rules YAML over the bundled tables (repeatable); "
                                    "also HC_RULES.")]
NoColorOpt = Annotated[bool, typer.Option(
    "--no-color", help="Plain text; NO_COLOR or output to a pipe does the same.")]


def _mod_option(help_text: str, *applies_to: str, flag: str = "--mod") -> Any:
    return typer.Option(flag, metavar="X", help=help_text,
                        autocompletion=_completer("modifiers", *applies_to))


@dataclass(frozen=True)
class Common:
    ruleset: str
    seed: int | None
    dice: str | None
    json: bool
    odds: bool
    rules: list[str] | None
    no_color: bool


def _fail(command: str, error: HcError) -> None:
    lines = str(error).splitlines()
    typer.echo(f"hc {command}: {lines[0]}", err=True)
    for line in lines[1:]:
        typer.echo(f"  {line}", err=True)
    raise typer.Exit(2)


def _run(command: str, common: Common, resolve: Callable[[Any, Any], Any],
         odds: Callable[[Any], Any], needs_tables: bool = True) -> None:
    """Load the tables, choose the dice, resolve or enumerate, render. Bad input exits 2."""
    from hc_cli.dice import ScriptedDice, SeededDice, system_seed

    try:
        if common.odds and (common.seed is not None or common.dice):
            raise HcError("--odds rolls nothing, so --seed and --dice do not go with it",
                          "leave out --seed/--dice, or leave out --odds to roll")
        if common.seed is not None and common.dice:
            raise HcError("--seed and --dice both given",
                          "give --seed N to replay a roll, or --dice LIST to use your own dice")
        tables = None
        if needs_tables:
            from hc_cli.rulesets import ruleset_module

            tables = ruleset_module(common.ruleset).load_tables(common.rules)
        if common.odds:
            res = odds(tables)
        else:
            dice = ScriptedDice(common.dice) if common.dice else SeededDice(
                common.seed if common.seed is not None else system_seed())
            res = resolve(tables, dice)
            dice.finish()
            res.seed = dice.seed
            if common.dice:
                res.inputs["dice"] = common.dice
    except HcError as error:
        _fail(command, error)
        return
    _output(res, common)


def _wants_colour(common: Common) -> bool:
    if common.no_color or os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


def _output(res: Any, common: Common) -> None:
    if common.json:
        from hc_cli.render.json_text import render as render_json

        typer.echo(render_json(res))
    elif _wants_colour(common):
        from rich.console import Console

        from hc_cli.render.rich_text import render as render_rich

        render_rich(res, Console(highlight=False))
    else:
        from hc_cli.render.plain import render as render_plain

        typer.echo(render_plain(res))


COMMON = ("ruleset", "seed", "dice", "json", "odds", "rules", "no_color")


def _dispatch(ctx: typer.Context, needs_tables: bool = True) -> None:
    """Hand the command's options to the rule set in use: it builds the request and names
    the resolver. Options the rule set does not read are an error, not silently ignored."""
    from typer._click.core import ParameterSource

    from hc_cli.rulesets import ruleset_module

    command = ctx.command.name or ""
    values = {name.rstrip("_"): value for name, value in ctx.params.items()}
    common = Common(**{k: values.get(k) for k in COMMON})  # type: ignore[arg-type]
    flags = {k: v for k, v in values.items() if k not in COMMON}
    option_names = {p.name.rstrip("_"): next((o for o in p.opts if o.startswith("--")), p.opts[0])
                    for p in ctx.command.params if p.name}
    try:
        module = ruleset_module(common.ruleset)
        spec = module.COMMANDS.get(command)
        if spec is None:
            raise HcError(f"{common.ruleset} has no '{command}' command",
                          f"{common.ruleset} resolves: " + ", ".join(module.COMMANDS))
        given = {name.rstrip("_") for name in ctx.params
                 if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)}
        foreign = sorted(given - spec.flags - set(COMMON))
        if foreign:
            raise HcError(", ".join(option_names[f] for f in foreign)
                          + f" does not apply to {common.ruleset} {command}",
                          f"{common.ruleset} {command} takes: "
                          + ", ".join(option_names[f] for f in sorted(spec.flags)))
        request = spec.build(flags)
    except HcError as error:
        _fail(command, error)
        return
    _run(command, common, lambda t, d: spec.resolve(t, request, d),
         lambda t: spec.odds(t, request), needs_tables)


# ---------------------------------------------------------------------------------------------
# Commands


@app.command()
def fire(
    ctx: typer.Context,
    weapon: Annotated[str | None, typer.Option(
        "--weapon", "-w", help="Weapon name from the tables.",
        autocompletion=_completer("weapons"))] = None,
    range_: Annotated[float | None, typer.Option(
        "--range", "-r", help="Firer-to-target distance in inches.")] = None,
    target: Annotated[list[str] | None, typer.Option(
        "--target", "-t", help="Target troop type, or a bare defence factor; repeat for every "
                               "figure under a template.",
        autocompletion=_completer("troops"))] = None,
    df: Annotated[int | None, typer.Option(
        "--df", help="Defence factor of the (one) target, instead of the table's.")] = None,
    chance: Annotated[int | None, typer.Option(
        "--chance", help="Chance to hit (D100), instead of the weapon's band.")] = None,
    penetration: Annotated[int | None, typer.Option(
        "--penetration", help="Penetration, instead of the weapon's band.")] = None,
    shots: Annotated[int, typer.Option(
        "--shots", "-n", help="Shots fired together (a Fireteam), each listed, then summed.")] = 1,
    template: Annotated[str | None, typer.Option(
        "--template", help="Heavy weapon template (cone, circle) for a weapon given by numbers.",
        autocompletion=_completer("templates"))] = None,
    mod: Annotated[list[str] | None, _mod_option(
        "Modifier by table name (target-static) or number (smoke=-10); repeatable.",
        "chance", "defence")] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET, seed: SeedOpt = None, dice: DiceOpt = None,
    json: JsonOpt = False, odds: OddsOpt = False, rules: RulesOpt = None,
    no_color: NoColorOpt = False,
) -> None:
    """Fire a weapon: range band, chance/penetration, every modifier, the D100, miss/hit/kill.

    Example: hc fire --weapon ingrave-ar --range 14 --target crusader --mod target-static
    """
    _dispatch(ctx)


@app.command()
def melee(
    ctx: typer.Context,
    attacker: Annotated[str | None, typer.Option(
        "--attacker", "-a", help="Attacker's troop type.", autocompletion=_completer("troops"))] = None,
    attacker_weapon: Annotated[str | None, typer.Option(
        "--attacker-weapon", help="Weapon the attacker carries.",
        autocompletion=_completer("weapons"))] = None,
    defender: Annotated[str | None, typer.Option(
        "--defender", "-d", help="Defender's troop type.", autocompletion=_completer("troops"))] = None,
    defender_weapon: Annotated[str | None, typer.Option(
        "--defender-weapon", help="Weapon the defender carries.",
        autocompletion=_completer("weapons"))] = None,
    mod: Annotated[list[str] | None, _mod_option(
        "Modifier to the attacker's D10 (table name or number); repeatable.", "melee")] = None,
    defender_mod: Annotated[list[str] | None, _mod_option(
        "Modifier to the defender's D10; repeatable.", "melee", flag="--defender-mod")] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET, seed: SeedOpt = None, dice: DiceOpt = None,
    json: JsonOpt = False, odds: OddsOpt = False, rules: RulesOpt = None,
    no_color: NoColorOpt = False,
) -> None:
    """Hand to hand: each side rolls D10 + troop + weapon modifiers; higher wins, equal draws.

    Example: hc melee --attacker crusader --attacker-weapon 40mm-plasma-cannon --defender orc --defender-weapon bolt-gun
    """
    _dispatch(ctx)


@app.command()
def morale(
    ctx: typer.Context,
    troop: Annotated[str | None, typer.Option(
        "--troop", help="The Fireteam's troop type.", autocompletion=_completer("troops"))] = None,
    fired_at: Annotated[bool, typer.Option("--fired-at", help="First time it is fired at.")] = False,
    ambushed: Annotated[bool, typer.Option("--ambushed", help="It was ambushed.")] = False,
    first_casualty: Annotated[bool, typer.Option(
        "--first-casualty", help="Its first casualty.")] = False,
    below_half: Annotated[bool, typer.Option(
        "--below-half", help="Its strength fell below 50%.")] = False,
    strength: Annotated[int | None, typer.Option(
        "--strength", help="Full strength in figures (with --casualties: derives below 50%).")] = None,
    casualties: Annotated[int | None, typer.Option(
        "--casualties", help="Figures lost so far (with --strength).")] = None,
    mod: Annotated[list[str] | None, _mod_option(
        "Further modifier (table name or number); repeatable.", "morale")] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET, seed: SeedOpt = None, dice: DiceOpt = None,
    json: JsonOpt = False, odds: OddsOpt = False, rules: RulesOpt = None,
    no_color: NoColorOpt = False,
) -> None:
    """Morale test for a Fireteam: D10 + modifiers, 3 or more passes, 2 or less routs.

    Example: hc morale --troop crusader --ambushed --first-casualty
    """
    _dispatch(ctx)


@app.command()
def rally(
    ctx: typer.Context,
    troop: Annotated[str | None, typer.Option(
        "--troop", help="The Fireteam's troop type.", autocompletion=_completer("troops"))] = None,
    has_casualties: Annotated[bool, typer.Option(
        "--has-casualties", help="It has suffered casualties (the Regroup example's -1).")] = False,
    casualties_during_regroup: Annotated[bool, typer.Option(
        "--casualties-during-regroup",
        help="The enemy caused casualties during the Regroup move: automatic rout.")] = False,
    mod: Annotated[list[str] | None, _mod_option(
        "Further modifier that applies now (table name or number); repeatable.", "morale")] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET, seed: SeedOpt = None, dice: DiceOpt = None,
    json: JsonOpt = False, odds: OddsOpt = False, rules: RulesOpt = None,
    no_color: NoColorOpt = False,
) -> None:
    """Regroup order: D10 + the modifiers that apply now, 5 or more rallies, less retreats.

    Example: hc rally --troop crusader --has-casualties
    """
    _dispatch(ctx)


@app.command()
def initiative(
    ctx: typer.Context,
    side: Annotated[list[str] | None, typer.Option(
        "--side", help="A side's name; give it twice (default: Side 1, Side 2).")] = None,
    mod: Annotated[list[str] | None, _mod_option(
        "Modifier to the first side's roll (table name or number); repeatable.",
        "initiative")] = None,
    second_mod: Annotated[list[str] | None, _mod_option(
        "Modifier to the second side's roll; repeatable.", "initiative",
        flag="--second-mod")] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET, seed: SeedOpt = None, dice: DiceOpt = None,
    json: JsonOpt = False, odds: OddsOpt = False, rules: RulesOpt = None,
    no_color: NoColorOpt = False,
) -> None:
    """Roll off for the Initiative; names Player A and B and prints the move's five steps.

    Example: hc initiative --side Crusaders --side Orcs
    """
    _dispatch(ctx)


@app.command()
def roll(
    expression: Annotated[str, typer.Argument(help="Dice: d100, 2d6+1, d3, 3d6-2 ...")],
    ruleset: RulesetOpt = DEFAULT_RULESET, seed: SeedOpt = None, dice: DiceOpt = None,
    json: JsonOpt = False, odds: OddsOpt = False, rules: RulesOpt = None,
    no_color: NoColorOpt = False,
) -> None:
    """Roll dice: d100 (two D10, 0-0 = 100), NdS+K and the like.

    Example: hc roll 2d6+1
    """
    from hc_cli.roll import resolve_roll, roll_odds

    common = Common(ruleset, seed, dice, json, odds, rules, no_color)
    try:
        from hc_cli.tables import available_rulesets

        if ruleset not in available_rulesets():
            from hc_cli.errors import UnknownName

            raise UnknownName("rule set", ruleset, available_rulesets())
    except HcError as error:
        _fail("roll", error)
    _run("roll", common, lambda _t, d: resolve_roll(expression, d, ruleset),
         lambda _t: roll_odds(expression, ruleset), needs_tables=False)


@app.command()
def tables(
    name: Annotated[str | None, typer.Argument(
        help="One table: weapons, troops, modifiers, templates, rules.")] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET, rules: RulesOpt = None,
    json: JsonOpt = False, no_color: NoColorOpt = False,
) -> None:
    """Show the tables in use, with each entry's source (seed, sample or house rules).

    Example: hc tables weapons
    """
    from hc_cli.listing import list_tables

    common = Common(ruleset, None, None, json, False, rules, no_color)
    try:
        from hc_cli.rulesets import ruleset_module

        loaded = ruleset_module(ruleset).load_tables(rules)
        listing = list_tables(loaded.merged, name)
    except HcError as error:
        _fail("tables", error)
        return
    if json:
        import json as json_module

        typer.echo(json_module.dumps(listing.to_dict(), indent=2, ensure_ascii=False))
    elif _wants_colour(common):
        from rich.console import Console

        from hc_cli.render.rich_text import render_listing

        render_listing(listing, Console(highlight=False))
    else:
        from hc_cli.render.plain import render_listing as plain_listing

        typer.echo(plain_listing(listing))


class _LazyCommands(dict):
    """Command name -> click command, built on first use.

    Typer builds a click command for every command at start-up by inspecting each signature;
    a run uses one, so the others are never built (a TAB press or a roll is that much faster).
    """

    def __init__(self, build: Callable[[Any], Any]) -> None:
        infos = {i.name or i.callback.__name__.replace("_", "-"): i for i in app.registered_commands}
        super().__init__(dict.fromkeys(infos))
        self._infos = infos
        self._build = build

    def __getitem__(self, name: str) -> Any:
        command = dict.__getitem__(self, name)
        if command is None:
            command = self._build(self._infos[name])
            dict.__setitem__(self, name, command)
        return command

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[name] if name in self else default

    def values(self):  # type: ignore[override]
        return [self[name] for name in self]

    def items(self):  # type: ignore[override]
        return [(name, self[name]) for name in self]


def _group() -> Any:
    from typer import main as typer_main
    from typer.core import TyperGroup

    def build(info: Any) -> Any:
        return typer_main.get_command_from_info(
            info, pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode)

    group = TyperGroup(name="hc", commands=_LazyCommands(build), no_args_is_help=True,
                       help=app.info.help, context_settings=app.info.context_settings,
                       rich_markup_mode=app.rich_markup_mode)
    group.params.extend(typer_main.get_install_completion_arguments())
    return group


def main() -> None:
    """The `hc` entry point: the same commands as `app`, built lazily, named `hc` even when
    run as `python -m hc_cli` (so completion finds `_HC_COMPLETE`)."""
    _group().main(prog_name="hc")

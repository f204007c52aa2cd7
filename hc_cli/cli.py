"""The `hc` command line: thin commands that build a request, call a resolver, and render.

Every TAB press and every command pays this module's import time, so rule sets, YAML and
rich are imported inside the commands that need them, never at the top.
"""

# No `from __future__ import annotations` here: typer would have to eval every annotation
# string of every option again, which more than doubles the time to build `hc fire`.
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


def _completer(option: str) -> Callable[[typer.Context, str], list[str]]:
    """TAB completion of an option's values from the tables of the rule set in use."""

    def complete(ctx: typer.Context, incomplete: str) -> list[str]:
        try:
            from hc_cli.rulesets import ruleset_module

            ruleset = ctx.params.get("ruleset") or os.environ.get("HC_RULESET") or DEFAULT_RULESET
            module = ruleset_module(ruleset)
            names = module.complete(
                module.load_tables(ctx.params.get("rules") or None), ctx.command.name or "", option
            )
        except HcError:
            return []
        return [n for n in names if n.startswith(incomplete.lower())]

    return complete


def _complete_rulesets(incomplete: str) -> list[str]:
    from hc_cli.paths import available_rulesets

    return [r for r in available_rulesets() if r.startswith(incomplete)]


# ---------------------------------------------------------------------------------------------
# Options every resolving command takes, declared once.

RulesetOpt = Annotated[
    str,
    typer.Option(
        "--ruleset",
        envvar="HC_RULESET",
        autocompletion=_complete_rulesets,
        help="Rule set: high-crusade (default); also from HC_RULESET.",
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed", help="Replay: the same seed and inputs give the same output on any machine."
    ),
]
DiceOpt = Annotated[
    str | None,
    typer.Option(
        "--dice",
        metavar="LIST",
        help="Your own dice, comma-separated, in the order the breakdown lists the rolls. A D10 "
        "takes 1..10 (0 = 10); a D100 two faces 0..9, tens then units (0,0 = 100), or one "
        "read value such as 46%.",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")]
OddsOpt = Annotated[
    bool, typer.Option("--odds", help="Roll nothing: the exact probability of each outcome.")
]
RulesOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--rules",
        metavar="FILE",
        help="A house-rules YAML over the bundled tables (repeatable); also HC_RULES.",
    ),
]
NoColorOpt = Annotated[
    bool, typer.Option("--no-color", help="Plain text; NO_COLOR or output to a pipe does the same.")
]
LogOpt = Annotated[
    str | None,
    typer.Option(
        "--log", metavar="FILE", help="Append this resolution to a replayable log (hc replay)."
    ),
]


def _mod_option(help_text: str, flag: str = "--mod") -> Any:
    return typer.Option(
        flag,
        metavar="X",
        help=help_text,
        autocompletion=_completer(flag.lstrip("-").replace("-", "_")),
    )


@dataclass(frozen=True)
class Common:
    ruleset: str
    seed: int | None
    dice: str | None
    json: bool
    odds: bool
    rules: list[str] | None
    no_color: bool
    log: str | None = None


def _fail(command: str, error: HcError) -> None:
    lines = str(error).splitlines()
    typer.echo(f"hc {command}: {lines[0]}", err=True)
    for line in lines[1:]:
        typer.echo(f"  {line}", err=True)
    raise typer.Exit(2)


def _wants_colour(common: Common) -> bool:
    if common.no_color or os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


def _output(res: Any, common: Common) -> None:
    if common.json:
        from hc_cli.render.json_text import render as render_json

        typer.echo(render_json(res))
        return
    from hc_cli.render.text import render

    if _wants_colour(common):
        from hc_cli.render.colour import paint

        # color=True: click would strip the escape codes whenever stdout is not a terminal,
        # and FORCE_COLOR asks for them exactly then.
        typer.echo(render(res, paint, bars=True), color=True)
    else:
        typer.echo(render(res))


COMMON = ("ruleset", "seed", "dice", "json", "odds", "rules", "no_color", "log")


def _dispatch(ctx: typer.Context) -> None:
    """Resolve the command with the options given: the rule set in use builds the request
    and names the resolver (`hc_cli.execute`); then render, and log if asked."""
    from typer._click.core import ParameterSource

    from hc_cli.execute import Call, Session, execute

    command = ctx.command.name or ""
    values = {name.rstrip("_"): value for name, value in ctx.params.items()}
    common = Common(**{k: values.get(k) for k in COMMON})  # type: ignore[arg-type]
    given = {
        name.rstrip("_")
        for name in ctx.params
        if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
    }
    flags = {k: v for k, v in values.items() if k not in COMMON and k in given}
    call = Call(
        command,
        common.ruleset,
        flags,
        common.seed,
        common.dice,
        common.odds,
        tuple(common.rules or ()),
    )
    session = Session()
    try:
        res = execute(call, session, given - set(COMMON))
        if common.log:
            from hc_cli.log import append, make_entry

            append(
                common.log,
                make_entry(call, res.to_dict(), session.digest(call.ruleset, call.rules)),
            )
    except HcError as error:
        _fail(command, error)
        return
    _output(res, common)


# ---------------------------------------------------------------------------------------------
# Commands


def _opt(*names: str, help: str, complete: str | None = None, metavar: str | None = None) -> Any:
    """An option; `complete` names the option whose table values TAB offers."""
    return typer.Option(
        *names,
        help=help,
        metavar=metavar,
        autocompletion=_completer(complete) if complete else None,
    )


Text = str | None
Number = float | None
Whole = int | None
Many = list[str] | None


@app.command()
def fire(
    ctx: typer.Context,
    weapon: Annotated[
        Text, _opt("--weapon", "-w", help="Weapon name from the tables.", complete="weapon")
    ] = None,
    range_: Annotated[
        Number, _opt("--range", "-r", help="Firer-to-target distance in inches.")
    ] = None,
    target: Annotated[
        Many,
        _opt(
            "--target",
            "-t",
            complete="target",
            help="Target: a troop type or bare DF (high-crusade; repeat for every figure under a "
            "template), a profile (rogue-trader; repeat for following fire or models under an "
            "area marker).",
        ),
    ] = None,
    shots: Annotated[
        int,
        _opt(
            "--shots",
            "-n",
            help="Shots fired together (a Fireteam, a unit): each listed, then summed.",
        ),
    ] = 1,
    mod: Annotated[
        Many,
        _mod_option("Modifier by table name (target-static) or number (smoke=-10); repeatable."),
    ] = None,
    # high-crusade
    df: Annotated[
        Whole, _opt("--df", help="(high-crusade) Defence factor of the (one) target.")
    ] = None,
    chance: Annotated[
        Whole,
        _opt("--chance", help="(high-crusade) Chance to hit (D100), instead of the weapon's band."),
    ] = None,
    penetration: Annotated[
        Whole,
        _opt("--penetration", help="(high-crusade) Penetration, instead of the weapon's band."),
    ] = None,
    template: Annotated[
        Text,
        _opt(
            "--template",
            complete="template",
            help="(high-crusade) Template (cone, circle) for a heavy weapon given by numbers.",
        ),
    ] = None,
    # rogue-trader: the firer
    firer: Annotated[
        Text, _opt("--firer", complete="firer", help="(rogue-trader) Firer's profile (its BS).")
    ] = None,
    bs: Annotated[Whole, _opt("--bs", help="(rogue-trader) Firer's ballistic skill.")] = None,
    firer_wounded: Annotated[
        bool, _opt("--firer-wounded", help="(rogue-trader) The firer has suffered wounds: -1.")
    ] = False,
    moved: Annotated[
        bool,
        _opt(
            "--moved", help="(rogue-trader) The firer moved this turn (slow weapons cannot fire)."
        ),
    ] = False,
    allow_7plus: Annotated[
        bool, _opt("--allow-7plus", help="(rogue-trader) The GM allows shots needing 7 or more.")
    ] = False,
    # rogue-trader: the weapon by numbers
    short: Annotated[
        Number, _opt("--short", help="(rogue-trader) Short range reaches (inches).")
    ] = None,
    long: Annotated[
        Number, _opt("--long", help="(rogue-trader) Long range reaches (inches).")
    ] = None,
    maximum: Annotated[Number, _opt("--maximum", help="(rogue-trader) Maximum range.")] = None,
    to_hit_short: Annotated[
        Whole,
        _opt("--to-hit-short", help="(rogue-trader) Weapon's to-hit modifier at short range."),
    ] = None,
    to_hit_long: Annotated[
        Whole, _opt("--to-hit-long", help="(rogue-trader) ... at long range.")
    ] = None,
    strength: Annotated[
        Whole,
        _opt(
            "--strength",
            help="(rogue-trader) Weapon Strength. (t2k) The "
            "firer's Strength (recoil, thrown damage).",
        ),
    ] = None,
    damage: Annotated[
        Text,
        _opt(
            "--damage",
            help="(rogue-trader) Wounds per wound: 1, d4, d6, "
            "d10, 2d6 ... (t2k) Damage dice per hit.",
        ),
    ] = None,
    save_mod: Annotated[
        Whole,
        _opt("--save-mod", help="(rogue-trader) Weapon's save modifier (-1: mesh 5 becomes 6)."),
    ] = None,
    weapon_type: Annotated[
        Many, _opt("--weapon-type", help="(rogue-trader) S (slow) or F (following fire).")
    ] = None,
    radius: Annotated[
        Number, _opt("--radius", help="(rogue-trader) Area marker radius (inches).")
    ] = None,
    # rogue-trader: the target
    toughness: Annotated[
        Whole, _opt("--toughness", help="(rogue-trader) Target Toughness.")
    ] = None,
    wounds_left: Annotated[
        Whole, _opt("--wounds-left", help="(rogue-trader) Wounds the target has left.")
    ] = None,
    wounds_taken: Annotated[
        Whole, _opt("--wounds-taken", help="(rogue-trader) Wounds the target has taken.")
    ] = None,
    save: Annotated[
        Whole, _opt("--save", help="(rogue-trader) Armour save, D6 score needed.")
    ] = None,
    armour: Annotated[
        Text,
        _opt(
            "--armour",
            complete="armour",
            help="(rogue-trader) Armour worn: flak, mesh, carapace, none ...",
        ),
    ] = None,
    size: Annotated[
        Text, _opt("--size", help="(rogue-trader) small (-1), normal or large (+1).")
    ] = None,
    # rogue-trader: the situation
    moving_surface: Annotated[
        bool,
        _opt(
            "--moving-surface",
            help="(rogue-trader) Firing from a moving vehicle or mount: -1, short range only.",
        ),
    ] = False,
    mounted_weapon: Annotated[
        bool,
        _opt(
            "--mounted-weapon",
            help="(rogue-trader) A vehicle's own mounted weapon (no moving-surface limits).",
        ),
    ] = False,
    target_moved: Annotated[
        Number,
        _opt(
            "--target-moved",
            help="(rogue-trader) Inches the target moved last turn: -1 per full 10.",
        ),
    ] = None,
    soft_cover: Annotated[
        bool, _opt("--soft-cover", help="(rogue-trader) Target in soft cover: -1.")
    ] = False,
    hard_cover: Annotated[
        bool, _opt("--hard-cover", help="(rogue-trader) Target in hard cover: -2.")
    ] = False,
    improvised: Annotated[
        bool, _opt("--improvised", help="(rogue-trader) Improvised thrown weapon: -1.")
    ] = False,
    mount: Annotated[
        Text,
        _opt(
            "--mount",
            complete="mount",
            help="(rogue-trader) The target rides this mount or vehicle "
            "(at long range a D6 picks rider or mount).",
        ),
    ] = None,
    at_mount: Annotated[
        bool, _opt("--at-mount", help="(rogue-trader) At short range, aim at the mount.")
    ] = False,
    into_melee: Annotated[
        bool,
        _opt(
            "--into-melee",
            help="(rogue-trader) Firing into hand to hand: a D6 picks enemy (1-3) or friend (4-6).",
        ),
    ] = False,
    friend: Annotated[
        Text,
        _opt(
            "--friend",
            complete="friend",
            help="(rogue-trader) The friend's profile, with --into-melee.",
        ),
    ] = None,
    placed: Annotated[
        bool, _opt("--placed", help="(rogue-trader) The area marker is placed: no deviation roll.")
    ] = False,
    under: Annotated[
        Whole, _opt("--under", help="(rogue-trader) Models of the --target under the area marker.")
    ] = None,
    partly: Annotated[
        int,
        _opt(
            "--partly",
            help="(rogue-trader) How many of those (the last) are only partly under: -1 to hit.",
        ),
    ] = 0,
    blasting_cover: Annotated[
        bool,
        _opt(
            "--blasting-cover",
            help="(rogue-trader) GM's +1 on the deviation die: blasting cover, no visible target.",
        ),
    ] = False,
    closed_room: Annotated[
        bool,
        _opt(
            "--closed-room",
            help="(rogue-trader) Area weapon into a closed room or vehicle: every occupant hit.",
        ),
    ] = False,
    # t2k
    asset: Annotated[Whole, _opt("--asset", help="(t2k) Skill + attribute.")] = None,
    skill: Annotated[Whole, _opt("--skill", help="(t2k) Skill (with --attribute).")] = None,
    attribute: Annotated[Whole, _opt("--attribute", help="(t2k) Attribute (with --skill).")] = None,
    riding: Annotated[Whole, _opt("--riding", help="(t2k) Riding asset, from the saddle.")] = None,
    short_range: Annotated[
        Number, _opt("--short-range", help="(t2k) Printed (Short) range in metres.")
    ] = None,
    rof: Annotated[
        Text,
        _opt("--rof", help="(t2k) ROF: ss, ba, la, pa, dar, sa, or a burst size (3, 5, 10, 50)."),
    ] = None,
    recoil: Annotated[Whole, _opt("--recoil", help="(t2k) Recoil of this kind of fire.")] = None,
    shot: Annotated[
        Text, _opt("--shot", complete="shot", help="(t2k) aimed, quick, aimed-burst or burst.")
    ] = None,
    movement: Annotated[
        Text,
        _opt(
            "--movement",
            complete="movement",
            help="(t2k) stationary, crawling, walking, trotting, running, vehicle, boat, saddle.",
        ),
    ] = None,
    obscured: Annotated[
        bool, _opt("--obscured", help="(t2k) Target obscured: one level harder.")
    ] = False,
    target_speed: Annotated[
        Number,
        _opt("--target-speed", help="(t2k) Target's metres per action (30, 60, 120: +1..3)."),
    ] = None,
    target_kph: Annotated[Number, _opt("--target-kph", help="(t2k) Target's speed in kph.")] = None,
    scope: Annotated[
        bool, _opt("--scope", help="(t2k) Rifle scope: aimed +15, Extreme as Long.")
    ] = False,
    laser_sight: Annotated[
        bool, _opt("--laser-sight", help="(t2k) 3 aimed shots an action at Short.")
    ] = False,
    braced: Annotated[
        bool, _opt("--braced", help="(t2k) Pistol in both hands, stationary: recoil -1.")
    ] = False,
    two_weapons: Annotated[
        bool, _opt("--two-weapons", help="(t2k) A weapon in each hand: Strength -1 for recoil.")
    ] = False,
    npc: Annotated[bool, _opt("--npc", help="(t2k) The target is an NPC (quick kill).")] = False,
    location: Annotated[
        Text, _opt("--location", help="(t2k) Hit location, for quick kill: head, chest ...")
    ] = None,
    damage_done: Annotated[
        Whole, _opt("--damage-done", help="(t2k) Damage of the hit, instead of rolling it.")
    ] = None,
    riders: Annotated[
        bool, _opt("--riders", help="(t2k) Firing at riders: a miss may hit the other.")
    ] = False,
    zone: Annotated[
        Many,
        _opt(
            "--zone",
            metavar="NAME:METRES",
            help="(t2k) A target in the danger zone, metres from the target; repeatable.",
        ),
    ] = None,
    thrown: Annotated[bool, _opt("--thrown", help="(t2k) A thrown weapon or object.")] = False,
    weight: Annotated[Number, _opt("--weight", help="(t2k) Weight thrown, kg.")] = None,
    throw_range: Annotated[
        Number, _opt("--throw-range", help="(t2k) The thrower's throw range, metres.")
    ] = None,
    grenade_number: Annotated[
        Whole,
        _opt(
            "--grenade-number",
            help="(t2k) The Nth grenade at the same target: +1 skill for each after the first.",
        ),
    ] = None,
    ammo: Annotated[
        Text, _opt("--ammo", complete="ammo", help="(t2k) Shotgun load: buckshot or flechette.")
    ] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    json: JsonOpt = False,
    odds: OddsOpt = False,
    rules: RulesOpt = None,
    no_color: NoColorOpt = False,
    log: LogOpt = None,
) -> None:
    """Fire a weapon: every modifier, every die, the result; options marked (rule set) are that
    rule set's.

    Example: hc fire --weapon ingrave-ar --range 14 --target crusader --mod target-static

    Example: hc fire --ruleset rogue-trader --firer space-marine --weapon bolt-gun --range 10 --target ork

    Example: hc fire --ruleset t2k --asset 12 --strength 5 --weapon m16a2 --range 100 --shot burst
    """
    _dispatch(ctx)


@app.command()
def melee(
    ctx: typer.Context,
    attacker: Annotated[
        Text, _opt("--attacker", "-a", help="Attacker's troop type.", complete="attacker")
    ] = None,
    attacker_weapon: Annotated[
        Text,
        _opt("--attacker-weapon", help="Weapon the attacker carries.", complete="attacker_weapon"),
    ] = None,
    defender: Annotated[
        Text, _opt("--defender", "-d", help="Defender's troop type.", complete="defender")
    ] = None,
    defender_weapon: Annotated[
        Text,
        _opt("--defender-weapon", help="Weapon the defender carries.", complete="defender_weapon"),
    ] = None,
    mod: Annotated[
        Many, _mod_option("Modifier to the attacker's D10 (table name or number); repeatable.")
    ] = None,
    defender_mod: Annotated[
        Many, _mod_option("Modifier to the defender's D10; repeatable.", flag="--defender-mod")
    ] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    json: JsonOpt = False,
    odds: OddsOpt = False,
    rules: RulesOpt = None,
    no_color: NoColorOpt = False,
    log: LogOpt = None,
) -> None:
    """Hand to hand: each side rolls D10 + troop + weapon modifiers; higher wins, equal draws.

    Example: hc melee --attacker crusader --attacker-weapon 40mm-plasma-cannon --defender orc --defender-weapon bolt-gun
    """
    _dispatch(ctx)


@app.command()
def morale(
    ctx: typer.Context,
    troop: Annotated[
        Text, _opt("--troop", help="The Fireteam's troop type.", complete="troop")
    ] = None,
    fired_at: Annotated[bool, _opt("--fired-at", help="First time it is fired at.")] = False,
    ambushed: Annotated[bool, _opt("--ambushed", help="It was ambushed.")] = False,
    first_casualty: Annotated[bool, _opt("--first-casualty", help="Its first casualty.")] = False,
    below_half: Annotated[bool, _opt("--below-half", help="Its strength fell below 50%.")] = False,
    strength: Annotated[
        Whole,
        _opt("--strength", help="Full strength in figures (with --casualties: derives below 50%)."),
    ] = None,
    casualties: Annotated[
        Whole, _opt("--casualties", help="Figures lost so far (with --strength).")
    ] = None,
    mod: Annotated[
        Many, _mod_option("Further modifier (table name or number); repeatable.")
    ] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    json: JsonOpt = False,
    odds: OddsOpt = False,
    rules: RulesOpt = None,
    no_color: NoColorOpt = False,
    log: LogOpt = None,
) -> None:
    """Morale test for a Fireteam: D10 + modifiers, 3 or more passes, 2 or less routs.

    Example: hc morale --troop crusader --ambushed --first-casualty
    """
    _dispatch(ctx)


@app.command()
def rally(
    ctx: typer.Context,
    troop: Annotated[
        Text, _opt("--troop", help="The Fireteam's troop type.", complete="troop")
    ] = None,
    has_casualties: Annotated[
        bool,
        _opt("--has-casualties", help="It has suffered casualties (the Regroup example's -1)."),
    ] = False,
    casualties_during_regroup: Annotated[
        bool,
        _opt(
            "--casualties-during-regroup",
            help="The enemy caused casualties during the Regroup move: automatic rout.",
        ),
    ] = False,
    mod: Annotated[
        Many, _mod_option("Further modifier that applies now (table name or number); repeatable.")
    ] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    json: JsonOpt = False,
    odds: OddsOpt = False,
    rules: RulesOpt = None,
    no_color: NoColorOpt = False,
    log: LogOpt = None,
) -> None:
    """Regroup order: D10 + the modifiers that apply now, 5 or more rallies, less retreats.

    Example: hc rally --troop crusader --has-casualties
    """
    _dispatch(ctx)


@app.command()
def deviate(
    ctx: typer.Context,
    weapon: Annotated[
        Text, _opt("--weapon", "-w", help="An area weapon from the tables.", complete="weapon")
    ] = None,
    radius: Annotated[
        Number, _opt("--radius", help="(rogue-trader) Marker radius in inches.")
    ] = None,
    range_: Annotated[
        Number,
        _opt("--range", "-r", help="Measured range to the aiming point (the cap is half of it)."),
    ] = None,
    blasting_cover: Annotated[
        bool, _opt("--blasting-cover", help="(rogue-trader) GM's +1 on the deviation die.")
    ] = False,
    band: Annotated[Text, _opt("--band", help="(t2k) The throw's band: effective or long.")] = None,
    throw_range: Annotated[
        Number, _opt("--throw-range", help="(t2k) Throw range (with --weight, finds the band).")
    ] = None,
    weight: Annotated[Number, _opt("--weight", help="(t2k) Weight thrown, kg.")] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    json: JsonOpt = False,
    odds: OddsOpt = False,
    rules: RulesOpt = None,
    no_color: NoColorOpt = False,
    log: LogOpt = None,
) -> None:
    """Does an area marker or a thrown grenade land on target? If not: how far, which way.

    Example: hc deviate --ruleset rogue-trader --weapon frag-grenade --range 8

    Example: hc deviate --ruleset t2k --range 30 --band long
    """
    _dispatch(ctx)


@app.command()
def move(
    ctx: typer.Context,
    profile: Annotated[
        Text, _opt("--profile", complete="profile", help="(rogue-trader) The model's profile.")
    ] = None,
    m: Annotated[Number, _opt("--m", help="(rogue-trader) Move allowance in inches.")] = None,
    armour: Annotated[
        Text, _opt("--armour", complete="armour", help="(rogue-trader) Armour worn (encumbrance).")
    ] = None,
    charge: Annotated[bool, _opt("--charge", help="(rogue-trader) A charge: double move.")] = False,
    turns: Annotated[
        int, _opt("--turns", help="(rogue-trader) Turns of up to 90 degrees; the first is free.")
    ] = 0,
    difficult: Annotated[
        float, _opt("--difficult", help="(rogue-trader) Inches of difficult ground crossed.")
    ] = 0,
    very_difficult: Annotated[
        float,
        _opt("--very-difficult", help="(rogue-trader) Inches of very difficult ground crossed."),
    ] = 0,
    obstacle: Annotated[
        bool, _opt("--obstacle", help="(rogue-trader) Crossing an obstacle: half the move.")
    ] = False,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    json: JsonOpt = False,
    odds: OddsOpt = False,
    rules: RulesOpt = None,
    no_color: NoColorOpt = False,
    log: LogOpt = None,
) -> None:
    """How far a model moves: encumbrance, turns, difficult ground, obstacles, charges.

    Example: hc move --ruleset rogue-trader --profile human --armour mesh --difficult 1
    """
    _dispatch(ctx)


@app.command()
def initiative(
    ctx: typer.Context,
    side: Annotated[
        Many, _opt("--side", help="A side's name; give it twice (default: Side 1, Side 2).")
    ] = None,
    mod: Annotated[
        Many, _mod_option("Modifier to the first side's roll (table name or number); repeatable.")
    ] = None,
    second_mod: Annotated[
        Many, _mod_option("Modifier to the second side's roll; repeatable.", flag="--second-mod")
    ] = None,
    char: Annotated[
        Many,
        _opt(
            "--char",
            metavar="NAME:INIT[:WOUNDS[:AGILITY[:BULK]]]",
            help="(t2k) A character, e.g. Kowalski:6:serious:7:3; repeatable.",
        ),
    ] = None,
    roster: Annotated[
        Text,
        _opt(
            "--roster",
            metavar="FILE",
            help="(t2k) A YAML roster: a list of {name, initiative, wounds, agility, bulk}.",
        ),
    ] = None,
    ambush: Annotated[
        Many, _opt("--ambush", metavar="NAME", help="(t2k) Acts outside the order: ambush.")
    ] = None,
    opportunity_fire: Annotated[
        Many,
        _opt(
            "--opportunity-fire",
            metavar="NAME",
            help="(t2k) Acts outside the order: opportunity fire.",
        ),
    ] = None,
    knocked_down: Annotated[
        Many, _opt("--knocked-down", metavar="NAME", help="(t2k) Panics: knocked down.")
    ] = None,
    surprised: Annotated[
        Many, _opt("--surprised", metavar="NAME", help="(t2k) Panics: surprised.")
    ] = None,
    vehicle_pierced: Annotated[
        Many, _opt("--vehicle-pierced", metavar="NAME", help="(t2k) Bails out: vehicle pierced.")
    ] = None,
    charged: Annotated[
        Many,
        _opt("--charged", metavar="NAME", help="(t2k) Panics: charged by a vehicle or animal."),
    ] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    json: JsonOpt = False,
    odds: OddsOpt = False,
    rules: RulesOpt = None,
    no_color: NoColorOpt = False,
    log: LogOpt = None,
) -> None:
    """Roll off for the Initiative; names Player A and B and prints the move's five steps.

    Example: hc initiative --side Crusaders --side Orcs

    Example: hc initiative --ruleset t2k --char Kowalski:6:serious:7:3 --char Ivanov:8::6:5
    """
    _dispatch(ctx)


@app.command()
def roll(
    ctx: typer.Context,
    expression: Annotated[str, typer.Argument(help="Dice: d100, 2d6+1, d3, 3d6-2 ...")],
    ruleset: RulesetOpt = DEFAULT_RULESET,
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    json: JsonOpt = False,
    odds: OddsOpt = False,
    rules: RulesOpt = None,
    no_color: NoColorOpt = False,
    log: LogOpt = None,
) -> None:
    """Roll dice: d100 (two D10, 0-0 = 100), NdS+K and the like.

    Example: hc roll 2d6+1
    """
    _dispatch(ctx)


@app.command()
def tables(
    name: Annotated[
        str | None, typer.Argument(help="One table: weapons, troops, modifiers, templates, rules.")
    ] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    rules: RulesOpt = None,
    json: JsonOpt = False,
    no_color: NoColorOpt = False,
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
    else:
        from hc_cli.render.text import render_listing

        if _wants_colour(common):
            from hc_cli.render.colour import paint

            typer.echo(render_listing(listing, paint), color=True)
        else:
            typer.echo(render_listing(listing))


@app.command()
def batch(
    log: LogOpt = None,
) -> None:
    """Resolve JSON Lines from stdin, one request a line; write one JSON result a line.

    A request has the fields of the command line, e.g. {"command": "fire", "weapon":
    "ingrave-ar", "range": 14, "target": "crusader", "seed": 7}. A bad line yields
    {"line": N, "error": ...} and the batch goes on; the exit code is 2 if any line failed.

    Example: hc batch < requests.jsonl > results.jsonl
    """
    from hc_cli.batch import run as run_batch

    try:
        failed = run_batch(sys.stdin, sys.stdout, log)
    except HcError as error:
        _fail("batch", error)
        return
    if failed:
        raise typer.Exit(2)


@app.command()
def replay(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A log written by --log.")],
    json: JsonOpt = False,
) -> None:
    """Resolve every entry of a log again; report each that does not reproduce (exit 1).

    Example: hc replay game.log
    """
    from hc_cli.replay import replay as replay_log

    try:
        report = replay_log(file)
    except HcError as error:
        _fail("replay", error)
        return
    if json:
        import json as json_module

        typer.echo(json_module.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        typer.echo("\n".join(report.lines()))
    if report.failed:
        raise typer.Exit(1)


rules_app = typer.Typer(name="rules", help="House-rules files.", no_args_is_help=True)
app.add_typer(rules_app)


@rules_app.command("check")
def rules_check(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A house-rules YAML file.")],
) -> None:
    """Check a house-rules file against its rule set's tables; list every problem.

    Example: hc rules check my-house-rules.yaml
    """
    from hc_cli.house_rules import check_file

    try:
        summary = check_file(file)
    except HcError as error:
        _fail("rules check", error)
        return
    typer.echo("\n".join(summary))


class _LazyCommands(dict):
    """Command name -> click command, built on first use.

    Typer builds a click command for every command at start-up by inspecting each signature;
    a run uses one, so the others are never built (a TAB press or a roll is that much faster).
    """

    def __init__(self, build: Callable[[Any], Any]) -> None:
        infos: dict[str, Any] = {
            i.name or i.callback.__name__.replace("_", "-"): i for i in app.registered_commands
        }
        infos.update({g.name or g.typer_instance.info.name: g for g in app.registered_groups})
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
        if hasattr(info, "typer_instance"):  # a sub-app such as `hc rules`
            return typer_main.get_group_from_info(
                info,
                pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
                suggest_commands=True,
            )
        return typer_main.get_command_from_info(
            info,
            pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode,
        )

    group = TyperGroup(
        name="hc",
        commands=_LazyCommands(build),
        no_args_is_help=True,
        help=app.info.help,
        context_settings=app.info.context_settings,
        rich_markup_mode=app.rich_markup_mode,
    )
    group.params.extend(typer_main.get_install_completion_arguments())
    return group


def main() -> None:
    """The `hc` entry point: the same commands as `app`, built lazily, named `hc` even when
    run as `python -m hc_cli` (so completion finds `_HC_COMPLETE`)."""
    _group().main(prog_name="hc")

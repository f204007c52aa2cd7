"""High Crusade's commands as the command line, the help and TAB completion see them."""

from hc_cli.plugin.declare import Command, Option, RuleSet

DECLARATION = RuleSet.bundled(
    "hc_cli.rulesets.high_crusade",
    "high-crusade",
    "High Crusade (Wessex Games, 2nd ed.): percentile SF skirmish",
    book="High Crusade book",
    commands=(
        Command(
            "fire",
            "Fire a weapon: range band, chance and penetration; miss, hit or kill.",
            description="A Fireteam firing together is --shots N; a Fireteam of several weapons "
            "is --volley NAME:N for each, every figure at its own weapon's band. A heavy weapon "
            "fires under its template: --under N figures of the --target under it, or every "
            "figure under it as a --target (a troop type or a bare defence factor); each is "
            "resolved on its own. Beyond the last range band there is no shot.",
            options=(
                Option.weapon(),
                Option(
                    "volley",
                    many=True,
                    complete=True,
                    metavar="NAME[:N]",
                    help="A volley of several weapons (a Fireteam whose officer carries another): "
                    "each weapon with the N figures firing it (1 if left out), repeated in the "
                    "order they fire.",
                    conflicts=("weapon", "shots", "chance", "penetration", "template"),
                ),
                Option.range("inches"),
                Option.target(
                    "Target: a troop type or a bare defence factor; repeat it for every figure "
                    "under a template."
                ),
                Option.shots("Shots fired together (a Fireteam): each listed, then summed."),
                Option(
                    "under",
                    kind="whole",
                    help="Figures of the --target under a heavy weapon's template: each is "
                    "resolved on its own.",
                    low=1,
                    high=1000,
                ),
                Option(
                    "order",
                    complete=True,
                    help="The firer's order for the move (hc tables orders): its modifier to "
                    "the chance; a game fills it in.",
                ),
                Option(
                    "target_order",
                    complete=True,
                    help="The target's order for the move: its modifier to the chance; a game "
                    "fills it in.",
                ),
                Option.mods("A modifier by its table name or as a number (smoke=-10); repeatable."),
                Option("df", kind="whole", help="Defence factor of the (one) target."),
                Option("chance", kind="whole", help="Chance to hit (D100), instead of the band's."),
                Option("penetration", kind="whole", help="Penetration, instead of the band's."),
                Option(
                    "template",
                    complete=True,
                    help="Template (cone, circle) of a heavy weapon given by numbers.",
                ),
                Option(
                    "ambush",
                    kind="flag",
                    help="The fire springs an ambush: the Fireteam fired at must test its Morale "
                    "(ambushed).",
                ),
            ),
            dice="a D100 a shot, every shot's together: one read value (46, 07; 00 or 100 is 100) "
            "or two single-digit faces, tens then units (4,6; 0,0 is 100)",
            examples=(
                "hc fire --weapon ingrave-ar --range 14 --target crusader --order advance "
                "--target-order static",
                "hc fire -w ingrave-ar -r 14 -t orc --shots 4 --odds",
                "hc fire --volley ingrave-ar:4 --volley schmitwess-mpi:1 -r 10 -t orc",
                "hc fire -w heavy-laser -r 20 -t orc --under 3",
                "hc fire --chance 65 --penetration 4 --df 5",
            ),
        ),
        Command(
            "melee",
            "Hand to hand: each side rolls D10 + troop + weapon modifiers; higher wins.",
            description="Equal totals draw. --mod changes the attacker's roll, --defender-mod "
            "the defender's.",
            options=(
                Option(
                    "attacker", "--attacker", "-a", complete=True, help="Attacker's troop type."
                ),
                Option("attacker_weapon", complete=True, help="Weapon the attacker carries."),
                Option(
                    "defender", "--defender", "-d", complete=True, help="Defender's troop type."
                ),
                Option("defender_weapon", complete=True, help="Weapon the defender carries."),
                Option.mods("Modifier to the attacker's D10 (table name or number); repeatable."),
                Option.mods("Modifier to the defender's D10; repeatable.", "defender_mod"),
            ),
            dice="a D10 each, the attacker's then the defender's (0 is 10)",
            examples=(
                "hc melee --attacker crusader --attacker-weapon 40mm-plasma-cannon "
                "--defender orc --defender-weapon bolt-gun",
            ),
        ),
        Command(
            "morale",
            "Morale test for a Fireteam: D10 + modifiers, 3 or more passes, 2 or less routs.",
            description="The triggers are flags; --strength with --casualties derives 'below 50%'. "
            "Casualties suffered before this move cost what they cost a Regroup.",
            options=(
                Option("troop", complete=True, help="The Fireteam's troop type."),
                Option("fired_at", kind="flag", help="The first time it is fired at."),
                Option("ambushed", kind="flag", help="It was ambushed."),
                Option("first_casualty", kind="flag", help="Its first casualty."),
                Option("below_half", kind="flag", help="Its strength fell below 50%."),
                Option(
                    "strength", kind="whole", help="Full strength in figures (with --casualties)."
                ),
                Option(
                    "casualties",
                    kind="whole",
                    help="Figures lost so far: the casualty modifier (-1, or -1 each with the "
                    "per-casualty reading), and with --strength 'below 50%'.",
                ),
                Option(
                    "has_casualties",
                    kind="flag",
                    help="It has suffered casualties before this move (the Regroup example's -1).",
                ),
                Option.mods("A further modifier (table name or number); repeatable."),
                Option(
                    "due",
                    kind="flag",
                    help="In a game: every Fireteam whose test is due, one after another "
                    "(--dice one D10 each, in the order hc status lists them).",
                ),
            ),
            dice="one D10 (0 is 10)",
            examples=("hc morale --troop crusader --ambushed --first-casualty",),
        ),
        Command(
            "rally",
            "Regroup order: D10 + the modifiers that apply now, 5 or more rallies.",
            description="Less than 5 retreats; casualties during the Regroup move rout it.",
            options=(
                Option("troop", complete=True, help="The Fireteam's troop type."),
                Option(
                    "has_casualties",
                    kind="flag",
                    help="It has suffered casualties (the Regroup example's -1).",
                ),
                Option(
                    "casualties",
                    kind="whole",
                    help="How many casualties it has suffered (-1 each with the per-casualty "
                    "reading; see hc tables readings).",
                ),
                Option(
                    "casualties_during_regroup",
                    kind="flag",
                    help="The enemy caused casualties during the Regroup move: a rout.",
                ),
                Option.mods("A further modifier that applies now; repeatable."),
            ),
            dice="one D10 (0 is 10); none for a rout by casualties during the Regroup move",
            examples=("hc rally --troop crusader --has-casualties",),
        ),
        Command(
            "orders",
            "Give Fireteams their orders for the move: Advance or Static; the game keeps them "
            "for every shot.",
            description="In a game, in the orders phase that opens the move: ORDER alone goes "
            "to every Fireteam of the side (named by a SIDE word, or by the UNIT=ORDER words) "
            "not given another; UNIT=ORDER to one. Orders stand from move to move until given "
            "again; a routed Fireteam's compulsory Advance and a rallied one's Static are the "
            "game's. Outside a game: what an order means.",
            options=(
                Option(
                    "given",
                    positional=True,
                    many=True,
                    required=True,
                    complete=True,
                    metavar="ORDER|SIDE|UNIT=ORDER",
                    help="An order for the side's Fireteams (advance, static: hc tables "
                    "orders), a side's name, or one Fireteam's order (fireteam-2=static).",
                ),
            ),
            common=(
                "ruleset",
                "json",
                "rules",
                "no_color",
                "quiet",
                "log",
                "game",
                "anyway",
                "rules_changed",
            ),
            dice="none: orders roll no dice",
            examples=("hc orders static", "hc orders advance fireteam-2=static"),
        ),
        Command(
            "initiative",
            "Roll off for the Initiative: names Player A and B and the move's five steps.",
            options=(
                Option.sides(),
                Option.mods("Modifier to the first side's roll; repeatable."),
                Option.mods("Modifier to the second side's roll; repeatable.", "second_mod"),
            ),
            dice="a D10 each, the first side's then the second's, again after a tie (0 is 10)",
            examples=("hc initiative --side Crusaders --side Orcs",),
        ),
    ),
)

"""Rogue Trader's commands as the command line, the help and TAB completion see them."""

from hc_cli.plugin.common_options import ROLLS_NOTHING
from hc_cli.plugin.declare import BEYOND_SHOTS, Command, Option, RuleSet

DECLARATION = RuleSet.bundled(
    "hc_cli.rulesets.rogue_trader",
    "rogue-trader",
    "Warhammer 40,000: Rogue Trader (1987): D6 to hit, to wound, save",
    book="Rogue Trader book",
    field_units=dict.fromkeys(
        (
            "radius",
            "distance",
            "rolled_distance",
            "move",
            "moved",
            "open_ground",
            "difficult_ground",
            "very_difficult_ground",
        ),
        "inches",
    ),
    commands=(
        Command(
            "fire",
            "Fire a weapon: to hit, to wound, the save, the damage.",
            description="--shots N fires a unit's shots, each at its own model of the target "
            "profile, or shared among the target unit's --models N; several --target fire "
            "following fire along the list. An area weapon rolls its deviation, then resolves "
            "every model under the marker (--under N).",
            options=(
                Option("firer", complete=True, help="The firer's profile (its BS)."),
                Option(
                    "bs", kind="whole", help="The firer's ballistic skill, instead of a profile's."
                ),
                Option(
                    "firer_wounded",
                    kind="flag",
                    help="The firer has suffered wounds: -1.",
                    conflicts=("firers_wounded",),
                ),
                Option(
                    "firers_wounded",
                    kind="whole",
                    help="Of a unit's --shots, how many come from wounded models: -1 on those "
                    "(the first shots).",
                    low=0,
                    high=10_000,
                ),
                Option(
                    "moved",
                    kind="flag",
                    help="The firer moved this turn (slow weapons cannot fire).",
                ),
                Option("allow_7plus", kind="flag", help="The GM allows shots needing 7 or more."),
                Option.weapon(),
                Option.range("inches"),
                Option.target(
                    "The target's profile; repeat it for following fire or for the models under "
                    "an area marker. The same --target twice is the same model; ork:a and ork:b "
                    "are two orks."
                ),
                Option.shots(
                    "Shots of a unit, each at its own model of the target profile (with "
                    "--one-model, all at one model)."
                ),
                Option(
                    "one_model",
                    kind="flag",
                    help="Every one of the --shots at one model: its wounds add up (as "
                    "--models 1).",
                    conflicts=("models",),
                ),
                Option(
                    "models",
                    kind="whole",
                    help="Models of the target unit still standing: the --shots are shared "
                    "among them (hc tables readings: volley-shares); default one a shot.",
                    low=1,
                    high=10_000,
                ),
                Option(
                    "wounded",
                    kind="whole",
                    many=True,
                    help="Wounds already taken by the models fired at, in order (repeatable, 0 "
                    "for none): with --models, the unit's first models; with several --target, "
                    "each model listed.",
                    low=0,
                    high=1000,
                    most=10_000,
                    conflicts=("wounds_taken", "wounds_left"),
                ),
                Option.mods("A to-hit modifier by its table name or as a number; repeatable."),
                Option(
                    "short", kind="number", unit="inches", help="The weapon's short range reaches."
                ),
                Option(
                    "long", kind="number", unit="inches", help="The weapon's long range reaches."
                ),
                Option("maximum", kind="number", unit="inches", help="The weapon's maximum range."),
                Option(
                    "to_hit_short",
                    kind="whole",
                    help="The weapon's to-hit modifier at short range.",
                ),
                Option(
                    "to_hit_long", kind="whole", help="The weapon's to-hit modifier at long range."
                ),
                Option("strength", kind="whole", help="The weapon's Strength."),
                Option("damage", help="Wounds per wound: 1, d4, d6, d10, 2d6 ..."),
                Option(
                    "save_mod",
                    kind="whole",
                    help="The weapon's save modifier (-1: mesh 5 becomes 6).",
                ),
                Option(
                    "weapon_type",
                    many=True,
                    metavar="S|F",
                    help="S (slow) or F (following fire); repeatable.",
                ),
                Option("radius", kind="number", unit="inches", help="The area marker's radius."),
                Option("toughness", kind="whole", help="The target's Toughness."),
                Option("wounds_left", kind="whole", help="Wounds the target has left."),
                Option("wounds_taken", kind="whole", help="Wounds the target has taken."),
                Option("save", kind="whole", help="The target's armour save: the D6 score needed."),
                Option(
                    "armour",
                    complete=True,
                    help="Armour the target wears: flak, mesh, carapace ...",
                ),
                Option(
                    "size",
                    metavar="small|normal|large",
                    help="The target's size: small (-1), normal or large (+1).",
                ),
                Option(
                    "moving_surface",
                    kind="flag",
                    help="Firing from a moving vehicle or mount: -1, short range only.",
                ),
                Option(
                    "mounted_weapon",
                    kind="flag",
                    help="A vehicle's own mounted weapon (no moving-surface limits).",
                ),
                Option(
                    "target_moved",
                    kind="number",
                    unit="inches",
                    help="How far the target moved last turn: -1 for each full 10.",
                ),
                Option("soft_cover", kind="flag", help="The target is in soft cover: -1."),
                Option("hard_cover", kind="flag", help="The target is in hard cover: -2."),
                Option("improvised", kind="flag", help="An improvised thrown weapon: -1."),
                Option(
                    "lying_down",
                    kind="flag",
                    help='The target threw itself to the ground: soft cover, none within 4".',
                ),
                Option(
                    "in_woods",
                    kind="flag",
                    help='Firer or target inside woods, more than 2" from the edge: ranges 2" '
                    "at most.",
                ),
                Option(
                    "in_hand_to_hand",
                    kind="flag",
                    help="The firer is in hand-to-hand combat (it may not fire).",
                ),
                Option(
                    "mount",
                    complete=True,
                    help="The target rides this mount or vehicle (at long range a D6 picks "
                    "rider or mount).",
                ),
                Option("at_mount", kind="flag", help="At short range, aim at the mount."),
                Option(
                    "into_melee",
                    kind="flag",
                    help="Firing into hand to hand: a D6 picks enemy (1-3) or friend (4-6).",
                ),
                Option("friend", complete=True, help="The friend's profile, with --into-melee."),
                Option(
                    "friend_wounded",
                    kind="whole",
                    help="Wounds the friend has taken already, with --into-melee.",
                    low=0,
                    high=1000,
                ),
                Option("placed", kind="flag", help="The area marker is placed: no deviation roll."),
                Option(
                    "under",
                    kind="whole",
                    help="Models of the --target under the area marker.",
                    low=0,
                    high=1000,
                    beyond=BEYOND_SHOTS,
                ),
                Option(
                    "partly",
                    kind="whole",
                    help="How many of those (the last) are only partly under: -1 to hit.",
                    low=0,
                    high=1000,
                ),
                Option(
                    "blasting_cover",
                    kind="flag",
                    help="The GM's +1 on the deviation die: blasting cover, no visible target.",
                ),
                Option(
                    "closed_room",
                    kind="flag",
                    help="An area weapon into a closed room or vehicle: every occupant hit.",
                ),
            ),
            dice="D6s: an area weapon's deviation die first; every shot's to-hit die, the second "
            "D6 of each 6 that needs 7+, who is hit, to wound, the saves, then each wound's "
            "damage dice together",
            examples=(
                "hc fire --firer space-marine --weapon bolt-gun --range 10 --target ork",
                "hc fire --bs 4 --weapon lasgun --range 15 --target ork --shots 5 --odds",
            ),
        ),
        Command(
            "initiative",
            "Flip a coin for the first turn: the side that wins is side A.",
            description="Sides take turns in strict rotation: A, then B, then A again.",
            options=(Option.sides(),),
            dice="the coin: 1 heads (the first side named goes first), 2 tails",
            examples=("hc initiative --side Imperials --side Orks",),
        ),
        Command(
            "deviate",
            "Does an area marker land on target? If not: how far, and which way.",
            options=(
                Option.weapon("An area weapon."),
                Option("radius", kind="number", unit="inches", help="The marker's radius."),
                Option.range(
                    "inches", "Measured range to the aiming point (the cap is half of it)."
                ),
                Option("blasting_cover", kind="flag", help="The GM's +1 on the deviation die."),
            ),
            dice="a D6 (deviates or not); if it deviates, the distance D6 and the direction D12 (a"
            " clock face)",
            examples=("hc deviate --weapon frag-grenade --range 8",),
        ),
        Command(
            "move",
            "How far a model moves: encumbrance, turns, difficult ground, obstacles, charges.",
            options=(
                Option("profile", complete=True, help="The model's profile (its M)."),
                Option(
                    "m",
                    kind="number",
                    unit="inches",
                    help="Move allowance, instead of a profile's.",
                ),
                Option("armour", complete=True, help="Armour worn (encumbrance)."),
                Option("charge", kind="flag", help="A charge: double move."),
                Option("turns", kind="whole", help="Turns of up to 90 degrees; the first is free."),
                Option("difficult", kind="number", unit="inches", help="Difficult ground crossed."),
                Option(
                    "very_difficult",
                    kind="number",
                    unit="inches",
                    help="Very difficult ground crossed.",
                ),
                Option("obstacle", kind="flag", help="Crossing an obstacle: half the move."),
                Option(
                    "distance",
                    kind="number",
                    unit="inches",
                    help="How far it did move, if less than it may (a fast moving target is -1 "
                    'to hit for every full 10").',
                ),
                Option(
                    "reserve",
                    kind="flag",
                    help="A reserve move (phase 4): uncommitted troops only.",
                ),
                Option(
                    "contact",
                    kind="flag",
                    help="With --charge: the charge made base-to-base contact (in a game, with "
                    "--at TARGET: both units are engaged in hand-to-hand combat).",
                ),
                Option(
                    "no_contact",
                    kind="flag",
                    help="With --charge: the charge failed to make contact (the charger does "
                    "nothing else this turn).",
                ),
                Option(
                    "routs",
                    kind="flag",
                    help="The unit routs: a compulsory move (it routs until rallied, hc rally).",
                ),
            ),
            common=ROLLS_NOTHING,  # it rolls no dice
            examples=("hc move --profile human --armour mesh --difficult 1",),
        ),
        Command(
            "hide",
            "Declare a model hiding behind cover: it cannot be targeted in the enemy's "
            "following turn.",
            description="Firing gives its position away; it cannot hide during or after a "
            "reserve move; enemies spot it within their Initiative in inches.",
            options=(),
            common=ROLLS_NOTHING,  # it rolls no dice
            examples=("hc hide",),
        ),
        Command(
            "melee",
            "Hand to hand (part 3 of the turn): record what the fight did, models removed or "
            "wounds; hc rolls no dice for blows (the seed gives none).",
            description="In a game: hc melee UNIT --at TARGET, two units engaged in hand-to-hand "
            "combat (a charge that made contact), either side, whatever the turn. The combat "
            "ends when one side of it is removed, or with --break.",
            options=(
                Option(
                    "removed", kind="whole", help="Models of the target removed.", low=0, high=200
                ),
                Option(
                    "wounds",
                    kind="whole",
                    help="Wounds on the target's next model (they stay until it is removed).",
                    low=0,
                    high=100,
                ),
                Option("break", kind="flag", help="The players say the combat broke off."),
            ),
            common=ROLLS_NOTHING,  # it rolls no dice
            examples=("hc melee --removed 1",),
        ),
        Command(
            "rally",
            "Rally routing troops in the rallying phase of your turn: 2D6 against their "
            "Leadership.",
            description="The excerpt names the rallying phase but not its test: the test is a "
            "reading (hc tables readings: rally-test).",
            options=(
                Option("profile", complete=True, help="The routing models' profile (its Ld)."),
                Option(
                    "ld", kind="whole", help="Leadership, instead of a profile's.", low=0, high=10
                ),
            ),
            dice="2D6, together",
            examples=("hc rally --profile ork",),
        ),
    ),
)

"""Twilight: 2000's commands as the command line, the help and TAB completion see them."""

from hc_cli.plugin.common_options import ROLLS_NOTHING
from hc_cli.plugin.declare import Command, Option, RuleSet

_NAME = "NAME"

DECLARATION = RuleSet.bundled(
    "hc_cli.rulesets.t2k",
    "t2k",
    'Twilight: 2000 2nd ed., "Combat rules v1.1": d20 tasks',
    book="Twilight: 2000 combat rules",
    field_units=dict.fromkeys(
        (
            "bands",
            "effective_range",
            "long_range",
            "danger_zone.width",
            "distance",
            "rolled_distance",
        ),
        "metres",
    ),
    commands=(
        Command(
            "fire",
            "Fire a weapon: the task's difficulty, the hit number, the dice, the hits.",
            description="Aimed and quick shots roll one d20 a shot; bursts roll a die per "
            "round left after range and recoil, then the danger zone (--zone). Thrown weapons "
            "and grenades: --thrown with --weight and --throw-range.",
            options=(
                Option(
                    "asset",
                    kind="whole",
                    conflicts=("skill", "attribute"),
                    help="The firer's asset: skill + attribute.",
                ),
                Option("skill", kind="whole", help="The firer's skill (with --attribute)."),
                Option("attribute", kind="whole", help="The firer's attribute (with --skill)."),
                Option("riding", kind="whole", help="The firer's Riding asset, from the saddle."),
                Option(
                    "strength", kind="whole", help="The firer's Strength (recoil, thrown damage)."
                ),
                Option.weapon(),
                Option.range("metres"),
                Option(
                    "shot",
                    complete=True,
                    metavar="KIND",
                    help="aimed (default), quick, aimed-burst or burst.",
                ),
                Option.shots(
                    "Single shots fired in this action; with --shot burst, bursts (up to 5).",
                    high=5,
                    beyond="an action fires at most 5; hc batch for more actions",
                ),
                Option.mods("A difficulty modifier by its table name (levels harder); repeatable."),
                Option(
                    "movement",
                    complete=True,
                    help="The firer's movement: stationary, crawling, walking, trotting, "
                    "running, vehicle, boat, saddle.",
                ),
                Option("obscured", kind="flag", help="The target is obscured: one level harder."),
                Option(
                    "gait",
                    metavar="PACE",
                    help="From the saddle: the mount's pace (walking, trotting ...), whose "
                    "limits apply as on foot.",
                ),
                Option(
                    "target_speed",
                    kind="number",
                    metavar="METRES",
                    help="The target's metres per action (30, 60, 120: +1, +2, +3 levels).",
                ),
                Option(
                    "target_kph",
                    kind="number",
                    unit="kph",
                    help="The target's speed (22, 43, 86 kph: +1, +2, +3 levels).",
                ),
                Option("scope", kind="flag", help="A rifle scope: aimed +15, Extreme as Long."),
                Option("laser_sight", kind="flag", help="A laser sight: 3 aimed shots at Short."),
                Option(
                    "braced",
                    kind="flag",
                    conflicts=("two_weapons",),
                    help="A pistol in both hands, stationary: recoil -1.",
                ),
                Option(
                    "two_weapons",
                    kind="flag",
                    help="A weapon in each hand: Strength -1 for recoil.",
                ),
                Option(
                    "short_range",
                    kind="number",
                    unit="metres",
                    help="The weapon's printed (Short) range.",
                ),
                Option(
                    "rof",
                    metavar="ROF",
                    help="The weapon's ROF: ss, ba, la, pa, dar, sa, or a burst size "
                    "(3, 5, 10, 50).",
                ),
                Option("recoil", kind="whole", help="The weapon's recoil for this kind of fire."),
                Option("damage", help="The weapon's damage dice per hit."),
                Option("ammo", complete=True, help="A shotgun's load: buckshot or flechette."),
                Option("npc", kind="flag", help="The target is an NPC (quick kill)."),
                Option(
                    "location",
                    help="Where each hit lands (head, chest, abdomen, arm, leg), instead of "
                    "rolling it.",
                ),
                Option(
                    "damage_done", kind="whole", help="Damage of each hit, instead of rolling it."
                ),
                Option("riders", kind="flag", help="Firing at riders: a miss may hit the other."),
                Option(
                    "zone",
                    many=True,
                    complete=True,
                    metavar="NAME:METRES",
                    help="A target in the danger zone and its distance from the target, "
                    "in metres; repeatable.",
                ),
                Option(
                    "zone_npc",
                    many=True,
                    complete=True,
                    metavar=_NAME,
                    help="A target of --zone who is an NPC (quick kill); repeatable.",
                ),
                Option(
                    "kept",
                    metavar="N|all",
                    help="Roll N danger zone dice a burst kept (half of what its zone left) at "
                    "a target entering the zone; in a game --kept all rolls every die "
                    "kept, and the burst's range and weapon are filled in.",
                ),
                Option("thrown", kind="flag", help="A thrown weapon or object."),
                Option("weight", kind="number", unit="kg", help="The weight thrown."),
                Option(
                    "throw_range", kind="number", unit="metres", help="The thrower's throw range."
                ),
                Option(
                    "grenade_number",
                    kind="whole",
                    help="The Nth grenade at the same target: +1 skill for each after the first.",
                ),
            ),
            dice="d20s: a die a shot or the burst's dice, then the danger zone's; a D100 for each "
            "missed shot at riders; then each hit's location d10 and its damage dice "
            "together, and a quick-kill d10 for an NPC's head or chest (the target, or one "
            "named by --zone-npc); none for the hits after a quick kill",
            examples=(
                "hc fire --asset 12 --strength 5 --weapon m16a2 --range 100 --shot burst",
                "hc fire --asset 12 --strength 5 --weapon m16a2 --range 30 --odds",
            ),
        ),
        Command(
            "initiative",
            "The Initiative order: characters by Initiative, extra actions, ties rolled off.",
            options=(
                Option(
                    "char",
                    many=True,
                    metavar="NAME:INIT[:WOUNDS[:AGILITY[:BULK]]]",
                    help="A character, e.g. Kowalski:6:serious:7:3; repeatable.",
                ),
                Option(
                    "roster",
                    metavar="FILE",
                    help="A YAML roster: a list of {name, initiative, wounds, agility, bulk}.",
                ),
                Option("ambush", many=True, metavar=_NAME, help="Acts outside the order: ambush."),
                Option(
                    "opportunity_fire",
                    many=True,
                    metavar=_NAME,
                    help="Acts outside the order: opportunity fire.",
                ),
                Option("knocked_down", many=True, metavar=_NAME, help="Panics: knocked down."),
                Option("surprised", many=True, metavar=_NAME, help="Panics: surprised."),
                Option(
                    "vehicle_pierced", many=True, metavar=_NAME, help="Bails out: vehicle pierced."
                ),
                Option(
                    "charged",
                    many=True,
                    metavar=_NAME,
                    help="Panics: charged by a vehicle or animal.",
                ),
            ),
            dice="a d10 each for characters tied after Agility (0 is 10), again after a tie",
            examples=("hc initiative --char Kowalski:6:serious:7:3 --char Ivanov:8::6:5",),
        ),
        Command(
            "reload",
            "Reload: the actions it takes, by how the weapon is fed (box, belt, revolver ...).",
            description="Bx (box magazine) 1 action; R (revolver) and I (internal magazine) 3 "
            "rounds a turn, 6 with a speed loader; B (belt) 2 actions, 1 for two persons; C 5 "
            "actions.",
            options=(
                Option.weapon("The weapon reloaded."),
                Option(
                    "feed",
                    complete=True,
                    metavar="bx|r|i|b|c",
                    help="How it is loaded, instead of the weapon's.",
                ),
                Option(
                    "magazine", kind="whole", low=1, high=100_000, help="Rounds a full load holds."
                ),
                Option("speed_loader", kind="flag", help="A revolver's speed loader: 6 rounds."),
                Option("helper", kind="flag", help="A second person feeds a belt: 1 action."),
            ),
            common=ROLLS_NOTHING,  # it rolls no dice
            examples=("hc reload --weapon m60",),
        ),
        Command(
            "deviate",
            "Does a thrown grenade land on target? If not: how far, and which way.",
            options=(
                Option.range(
                    "metres", "Distance of the throw (the deviation is capped at half of it)."
                ),
                Option("band", metavar="effective|long", help="The throw's band."),
                Option(
                    "throw_range",
                    kind="number",
                    unit="metres",
                    help="The thrower's throw range (with --weight, finds the band).",
                ),
                Option("weight", kind="number", unit="kg", help="The weight thrown."),
            ),
            dice="the distance d6, then the direction D12 (a clock face)",
            examples=("hc deviate --range 30 --band long",),
        ),
    ),
)

"""The options many commands take, declared once (`hc_cli.plugin.declare`): those every resolving
command takes, and the few that the shared commands and the rule sets say again in their own
words (-q, a file, --game, --rules)."""

from hc_cli.plugin.declare import Command, Option


def rules_files(help: str) -> Option:
    """--rules FILE, repeatable: house-rules files, in the terms of the command taking them."""
    return Option("rules", many=True, metavar="FILE", help=help)


def quiet(help: str) -> Option:
    """-q/--quiet as a command other than a resolving one takes it: what its result comes
    down to, in that command's terms (the common option says it of a resolution)."""
    return Option("quiet", "--quiet", "-q", kind="flag", help=help)


def file_argument(help: str) -> Option:
    """The FILE a command reads or writes, given first (hc replay FILE, hc roster check FILE)."""
    return Option("file", positional=True, required=True, metavar="FILE", help=help)


def entry_number(name: str, help: str, positional: bool = False) -> Option:
    """An entry of a game file, as hc history numbers them."""
    return Option(
        name,
        positional=positional,
        required=positional,
        kind="whole",
        low=1,
        high=100_000_000,
        metavar="N",
        help=help,
    )


GAME_OPTION = Option(
    "game",
    metavar="FILE",
    help="The game file (hc game new); also HC_GAME or the settings file.",
)

COMMON_OPTIONS = (
    Option(
        "ruleset",
        metavar="NAME",
        complete=True,
        help="The game: a rule set's name (hc --help lists them); also HC_RULESET or the "
        "settings file.",
    ),
    Option(
        "seed",
        kind="whole",
        low=0,
        high=2**63 - 1,
        help="Replay: the same seed and inputs give the same output.",
    ),
    Option(
        "dice",
        metavar="LIST",
        help="Your own dice, comma-separated, in the order the table rolls them (to hit, then "
        "to wound ...); or 'ask' to be asked for each phase's dice. A D10 takes 1..10 (0 = 10); "
        "a D100 one read value of two digits (46, 07; 00 or 100 = 100) or two single-digit "
        "faces, tens then units (4,6).",
    ),
    Option("json", kind="flag", help="One JSON object on stdout."),
    Option("odds", kind="flag", help="Roll nothing: the exact probability of each outcome."),
    Option(
        "exact",
        kind="flag",
        help="With --odds --json: every count's exact probabilities however long they are (a "
        "volley of thousands of shots writes megabytes); without it, those past 4,096 bits "
        "are left to the floats.",
    ),
    rules_files("A house-rules YAML over the bundled tables (repeatable); also HC_RULES."),
    Option("no_color", kind="flag", help="Plain text; NO_COLOR or output to a pipe does the same."),
    Option(
        "quiet",
        "--quiet",
        "-q",
        kind="flag",
        help="Print the result's headline alone (in a game, and what it changed).",
    ),
    Option(
        "verbose",
        "--verbose",
        "-v",
        kind="flag",
        help="Every shot of a big volley on its own line (more than 20 are summed up).",
    ),
    Option("log", metavar="FILE", help="Append this resolution to a replayable log (hc replay)."),
    Option(
        "unit",
        positional=True,
        many=True,
        complete=True,
        metavar="UNIT",
        help="A unit of the game in force: the roster and the game fill in what they know, "
        "and the result is kept (hc status). Several act one after another, each with the "
        "same options.",
    ),
    Option(
        "at",
        many=True,
        complete=True,
        metavar="UNIT",
        help="The unit acted against (a model of it: unit:N); repeatable where the command "
        "takes several targets.",
    ),
    Option(
        "game",
        metavar="FILE",
        help="The game to act in (hc game new); also HC_GAME or the settings file; none for "
        "no game.",
    ),
    Option(
        "anyway",
        kind="flag",
        help="Act although the rules say the unit may not now, or with options in place of "
        "what the game holds (a target's troop, a profile, a bare --mod); the game records "
        "the override.",
    ),
    Option(
        "sealed",
        kind="flag",
        help="In a game, for players apart: seal the roll, so that its seed comes from a "
        "secret of each player (hc seal); neither can choose or foresee it.",
    ),
    Option(
        "hidden",
        kind="flag",
        help="For a plain roll (hc roll EXPR --hidden, in a game): sealed as --sealed, its "
        "result seen by its roller alone until hc seal unseal writes it in the game file.",
    ),
    Option(
        "reroll",
        kind="flag",
        help="In a game: roll anew an action taken back and made again in the same move or "
        "turn, as both players agree (without it, it rolls the dice it rolled); recorded.",
    ),
    Option(
        "agreed",
        kind="flag",
        help="In a game: both players agree to another action in place of one taken back, "
        "whose dice stay on the table for its side until then (another range, target, unit, "
        "shot, --sealed); rolled anew, recorded with what changed.",
    ),
    Option(
        "rules_changed",
        kind="flag",
        help="In a game: play on with house rules other than those it began with (a file "
        "rewritten since, or another --rules); the game records it.",
    ),
)
COMMON_NAMES = tuple(o.name for o in COMMON_OPTIONS)
# What a command that rolls no die (a move, a reload) does not take: no dice to give, no seed
# to replay, no odds to tell, no volley to spell out shot by shot. A rule set declares such a
# command with `common=ROLLS_NOTHING`; --help, TAB and hc batch then leave them out.
DICE_OPTIONS = (
    "seed", "dice", "odds", "exact", "verbose", "reroll", "agreed", "sealed", "hidden"
)  # fmt: skip
ROLLS_NOTHING = tuple(name for name in COMMON_NAMES if name not in DICE_OPTIONS)
SEED_OPTION = next(o for o in COMMON_OPTIONS if o.name == "seed")
_COMMON_BY_NAME = {o.name: o for o in COMMON_OPTIONS}


def common_options(command: Command) -> tuple[Option, ...]:
    """The common options `command` takes, in the order it names them: all of them for a rule
    set's command (its `common` is None). The command line, its help, TAB and batch read it."""
    names = COMMON_NAMES if command.common is None else command.common
    return tuple(_COMMON_BY_NAME[name] for name in names)

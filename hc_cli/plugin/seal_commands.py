"""`hc seal`: the commands of a sealed roll between players apart, each step a code one
player's hc prints and the other's takes (`hc_cli.games.seal` runs them)."""

from hc_cli.plugin.common_options import GAME_OPTION, entry_number, file_argument, quiet
from hc_cli.plugin.declare import Command, Option

SEND_BACK = "The line to send back alone."
SEALED_BY = entry_number("seal", "The entry that sealed the roll.", positional=True)


def code(help: str) -> Option:
    """The code the other player's hc printed, given first."""
    return Option("code", positional=True, required=True, metavar="CODE", help=help)


def step(name: str, summary: str, *options: Option, common: tuple[str, ...] = ("json",)) -> Command:
    """One step of the exchange, run by `seal_NAME`."""
    return Command(name, summary, options=options, common=common, run=f"seal_{name}")


SEAL = Command(
    "seal",
    "Sealed rolls for players apart: exchange the codes hc prints, then the roll.",
    description="The roller seals an action (hc fire UNIT --at X --sealed) and sends the "
    "code hc prints; each step prints the command, with its code, for the other player "
    "to paste: hc seal join, commit, reveal, open (and unseal, for a --hidden roll). Once "
    "both players committed the roll is final: a roller who does not reveal it forfeits it "
    "(hc seal forfeit). The manual shows a whole exchange between two terminals.",
    sub=(
        step(
            "join",
            "The other player: a secret of your own for the roll, and the code to send back.",
            code("The line the roller's hc printed, its code: hc seal join CODE."),
            quiet(SEND_BACK),
        ),
        step(
            "commit",
            "The roller: the other player's commitment into the game file.",
            code("The code the other player's hc printed for hc seal commit."),
            GAME_OPTION,
            quiet(SEND_BACK),
        ),
        step(
            "reveal",
            "The other player: your own secret for the roll, into the game file in force "
            "(else a line to send back).",
            code(
                "The code the roller's hc printed for hc seal reveal: the roll's mark (their "
                "secret stays sealed until it is in the game file)."
            ),
            GAME_OPTION,
            quiet(SEND_BACK),
        ),
        step(
            "open",
            "The roller: the other player's secret checked and written; the roll.",
            code(
                "The code the other player's hc printed for hc seal open, or the roll's entry "
                "number N once their secret is in the game file."
            ),
            GAME_OPTION,
            common=("json", "quiet", "no_color"),
        ),
        step(
            "check",
            "The other player: every sealed roll of a game file you joined, against what "
            "your hc kept (exit 1 if one is not).",
            file_argument("The game file, as the roller sent it."),
            quiet("Only the rolls that are not what you joined."),
        ),
        step(
            "abandon",
            "The roller: give up a sealed roll before the other player commits (after, it is "
            "final).",
            SEALED_BY,
            GAME_OPTION,
            quiet("The game's line alone."),
        ),
        step(
            "forfeit",
            "The other player: claim a roll its roller has not revealed once your secret is "
            "in the game file; its unit's action is spent for the move or turn.",
            SEALED_BY,
            GAME_OPTION,
            quiet("The game's line alone."),
        ),
        step(
            "unseal",
            "The roller of a hidden roll: its secret and its result into the game file.",
            SEALED_BY,
            GAME_OPTION,
            common=("json", "quiet", "no_color"),
        ),
    ),
)

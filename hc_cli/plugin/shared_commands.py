"""The commands every rule set shares (roll, tables, batch, the game's ...), declared as data the
same way a rule set declares its own (`hc_cli.plugin.declare`)."""

from hc_cli.plugin.common_options import (
    GAME_OPTION,
    entry_number,
    file_argument,
    quiet,
    rules_files,
)
from hc_cli.plugin.declare import Command, Option
from hc_cli.plugin.seal_commands import SEAL

SHELLS = ("bash", "zsh", "fish")

# The game's own commands, run by hc_cli.cli.game_commands.
GAME_RUNS = (
    "game_new",
    "game_next",
    "game_export",
    "game_rules",
    "game_key",
    "game_rewind",
    "status",
    "history",
    "undo",
    "again",
    "roster_check",
    "luck",
    "seal_join",
    "seal_commit",
    "seal_reveal",
    "seal_open",
    "seal_unseal",
    "seal_abandon",
    "seal_forfeit",
    "seal_check",
    "compare",
    "sweep",
)


def file_check(
    group: str, about: str, summary: str, file: str, verdict: str, example: str
) -> Command:
    """`hc GROUP check FILE`, run by `GROUP_check`: the file checked, every problem listed; -q
    the verdict alone."""
    check = Command(
        "check",
        summary,
        options=(file_argument(file), quiet(verdict)),
        common=(),
        run=f"{group}_check",
        examples=(f"hc {group} check {example}",),
    )
    return Command(group, about, sub=(check,))


def game_file_command(
    name: str,
    summary: str,
    verdict: str,
    *,
    common: tuple[str, ...],
    run: str,
    example: str,
    description: str = "",
) -> Command:
    """A command on the game file --game names; -q says `verdict` alone."""
    return Command(
        name,
        summary,
        description=description,
        options=(GAME_OPTION, quiet(verdict)),
        common=common,
        run=run,
        examples=(example,),
    )


SHARED_COMMANDS = (
    Command(
        "roll",
        "Roll dice: 2d6+1, (d8+2)*2, 4d6kh3, 3d6r1, d6!, 10d6>=4, 4dF, d66, d100.",
        description="The common rollers' notation: numbers (1.5 is exact) and + - * / // % ^ "
        "with parentheses (/ exact, // rounds down, \\ up); comparisons (2 > 1, 3d6 >= 10: 1 or "
        "0); functions max, min, floor, ceil, round (half away from zero), trunc, fix, abs, sign, "
        "pow, and sqrt, log, exp, sin, cos, tan (floats). kh/kl keep the highest/lowest N, 1 with "
        "no N (k3 is the highest 3, as rpg-dice-roller reads it; d20's 'keep the 3s' is k=3; "
        "python-dice's h/l/v, node-roll's b/w too), a keep past the pool keeps all; dh/dl/d and "
        "d20's ph/pl drop them, k>3 and p<2 by value; chained, a die is kept when none leaves it "
        "out (3d20dhdl: the middle; kh with kl is refused: d20 keeps both ends, rpg-dice-roller "
        "neither); {4d6}kh2 and (4d6)kh2 keep of a group's one term's dice. r and rr reroll until "
        "another face (r alone: the 1s; r!=1: all but the 1s), ro once, ra once and add (rr1rr2: "
        "either point); 1d20ad (da): rolled twice, the higher (lower) kept; ! explodes on the top "
        "face or a compare point (!>=9, d20's e20, e alone the top; skizzerz's !e), each further "
        "roll a die of its own, !! (skizzerz's !c) compounds them into one, !p penetrates (at "
        "most 20 times); mi/ma (min/max) clamp each roll; >=N (also >, <=, <, =, != or <>; c>7, "
        "DiceParser's c[<2|>7], c[8-10], c[%2=0]; c alone every die; t7 is >=7; caith's tt9 "
        "counts 2) counts the dice that succeed, fN takes away those that fail, and with no count "
        "keeps the dice at its point (GNOLL's filter: 10d10f<4); u: no two dice alike; s/sa/sd "
        "sort and cs/cf mark criticals (shown only); {a, b}kh1 and (1, 2, 3)k2 keep among parts, "
        "2{a} adds two rolls of it. "
        "1d1 is 1, 0d4 is 0; d{2,4,6}, d[-1..1] and d[0-9] list the faces, z4 is 0..3, dF.1 a "
        "Fudge die of -1 and +1 one in six, dF20 -20..20; (4*6)d6 and 3d(5/2) work out a count or "
        "sides, rounded down (3d2), (2d6)d10 and d(1d10) roll their count or sides first. A "
        "compare point right after ! is the explosion's (6d10!>=8 explodes on 8 to 10; "
        "6d10!=10>=8 counts the 8s or more); right after dice it counts them (3d6>=4), after a "
        "space, a bracket or a number it compares (3d6 >= 10). ^ is always a power (4d6^3 is 4d6 "
        "cubed: keep with kh3; caith's repeats ^+ and ^# are refused). [words] label a term; #, "
        "/* */, caith's : and ! and a // that no value follows (3d6 // fire) begin a comment. "
        "d100 and d% are two D10 read as tens and units, 1..100 (d20's tens die is d10*10-10); "
        "d66 and d666 are D6 read as digits; dF is -1, 0 or +1. A leading minus is an expression: "
        "hc roll -d4+10.",
        options=(
            Option(
                "expression",
                positional=True,
                required=True,
                metavar="EXPRESSION",
                help="Dice: d100, 2d6+1, 4d6kh3, 2d20kl1, 3d6r1, 10d6>=4, d6!, 4dF, d66 ...",
            ),
        ),
        common=(
            "ruleset",
            "seed",
            "dice",
            "json",
            "odds",
            "exact",
            "no_color",
            "quiet",
            "verbose",
            "log",
            "game",
            "sealed",
            "hidden",
        ),
        run="roll",
        dice="the expression's dice, term by term (a D100 one read value or two faces, tens then "
        "units; a d66 two D6, tens then units; 0 on a D10 is 10; a die of listed faces the "
        "place of its face: 3 for the 6 of d{2,4,6})",
        examples=(
            "hc roll 2d6+1",
            "hc roll 4d6kh3 --odds",
            "hc roll '6d10!>=8' --dice 9,2,4,5,6,7,3",
        ),
    ),
    Command(
        "tables",
        "Show the tables in use, with each entry's source (the book, sample or house rules).",
        options=(
            Option(
                "name",
                positional=True,
                complete=True,
                metavar="TABLE",
                help="One table of the rule set in force (TAB lists them).",
            ),
            quiet("Each table's name and its entries' names, a line a table."),
        ),
        common=("ruleset", "rules", "json", "no_color"),
        run="tables",
        examples=("hc tables weapons",),
    ),
    Command(
        "batch",
        "Resolve JSON Lines from stdin, one request a line; write one JSON result a line.",
        description='A request has the fields of the command line, e.g. {"command": "fire", '
        '"weapon": "ingrave-ar", "range": 14, "target": "crusader", "seed": 7}. A bad line '
        'yields {"line": N, "error": ...} and the batch goes on; the exit code is 2 if any '
        "line failed.",
        options=(
            Option(
                "jobs",
                kind="whole",
                low=1,
                high=256,
                help="Processes to resolve with when lines come faster than one process "
                "answers (default: the CPUs hc may use); answers keep the order of the lines.",
            ),
            quiet(
                "Nothing to leave out: a batch writes its JSON lines and nothing else (taken, "
                "as every command takes -q)."
            ),
        ),
        common=("log",),
        run="batch",
        examples=("hc batch < examples/requests.jsonl > results.jsonl",),
    ),
    Command(
        "replay",
        "Resolve every entry of a log again; report each that does not reproduce (exit 1).",
        options=(
            file_argument("A log written by --log, or a game file (hc game new)."),
            rules_files(
                "A house-rules file the log names, moved or copied here: found by its "
                "content (repeatable)."
            ),
            Option(
                "head",
                metavar="RECEIPT",
                help="The receipt a logged command printed (12:3f9ac21e): the log must still "
                "reach it (an entry edited, or the end cut off, since it was printed fails).",
            ),
            quiet("The entries that do not reproduce and the summary, not each one that does."),
        ),
        common=("json",),
        run="replay",
        description="With HC_LOG_KEY (or HC_LOG_KEY_FILE) set, the chain is checked with the "
        "game's key, as it was written.",
        examples=("hc replay karsk.hcg",),
    ),
    file_check(
        "rules",
        "House-rules files.",
        "Check a house-rules file against its rule set's tables; list every problem.",
        "A house-rules YAML file.",
        "The verdict alone, one line: not what the file changes.",
        "examples/house.yaml",
    ),
    file_check(
        "roster",
        "Rosters: each side's units, in the rule set's own terms.",
        "Check a roster against its rule set and tables; list every problem.",
        "A roster YAML file.",
        "The verdict alone, one line: not each side's units.",
        "examples/high-crusade-roster.yaml",
    ),
    Command(
        "game",
        "Games that remember: start one from a roster, move it on, export it.",
        sub=(
            Command(
                "new",
                "Start a game from a roster: the game file keeps every action after it.",
                description="The game file is a hash-chained log (hc replay checks it): the "
                "roster first, then every action on a unit (hc fire UNIT --at UNIT ...). Play it "
                'with --game FILE, HC_GAME=FILE or game = "FILE" in the settings file.',
                options=(
                    file_argument("The new game file (never overwritten)."),
                    Option(
                        "roster",
                        metavar="FILE",
                        required=True,
                        help="The roster: each side's units (hc roster check).",
                    ),
                    rules_files("House rules the game is played with (kept with it; repeatable)."),
                    quiet("The first line alone: the game started."),
                ),
                common=(),
                run="game_new",
                examples=("hc game new karsk.hcg --roster examples/high-crusade-roster.yaml",),
            ),
            game_file_command(
                "next",
                "Move the game on: the move's next step, the next turn, or the next to act.",
                "Where the game is now and what the step changed, not what is due now.",
                common=("json", "anyway"),
                run="game_next",
                example="hc game next --game karsk.hcg",
                description="A test the rules require first (a Morale test due) holds the game "
                "where it is; --anyway moves it on all the same, and the game records it.",
            ),
            game_file_command(
                "rules",
                "The rules the game keeps: its sequence, step by step, who acts and what they "
                "may do, and the readings it plays by.",
                "The sequence alone, a line a step: who acts and what they do.",
                common=("ruleset", "json"),
                run="game_rules",
                example="hc game rules",
                description="For the game in force (or --game FILE); outside a game, for the "
                "rule set in force (--ruleset NAME).",
            ),
            Command(
                "key",
                "Make a key for a keyed game: 256 random bits, printed or written to a new file.",
                description="A game or a log written with HC_LOG_KEY=KEY (or HC_LOG_KEY_FILE="
                "FILE, a file holding it; never both) is chained under that key: only those who "
                "hold it can extend or rewrite it. A key must hold at least 128 bits (16 random "
                "bytes, 22 base64 or 32 hex characters): a shorter one writes nothing.",
                options=(
                    Option(
                        "file",
                        metavar="FILE",
                        help="Write the key to this new file, readable by you alone (mode 600), "
                        "rather than print it.",
                    ),
                    quiet("With --file, nothing printed: not how to play with it."),
                ),
                common=(),
                run="game_key",
                examples=("hc game key", "hc game key --file karsk.key"),
            ),
            Command(
                "rewind",
                "Play on from a game file that went back: entries cut off its end, recorded.",
                description="A game file behind the newest head this hc wrote or read of the "
                "game, or forked from it, is refused, naming the receipt it expected. If the "
                "players agree to play on from the file as it is, each accepts that receipt "
                "here: an entry of the game says which head was lost (hc history shows it).",
                options=(
                    Option(
                        "accept",
                        metavar="RECEIPT",
                        required=True,
                        help="The receipt the refusal expected (12:3f9ac21e): the head lost.",
                    ),
                    GAME_OPTION,
                    quiet("The receipt of the entry alone."),
                ),
                common=("json",),
                run="game_rewind",
            ),
            game_file_command(
                "export",
                "The game as the command lines that play it again (a shell script).",
                "The script without its comments.",
                common=(),
                run="game_export",
                example="hc game export --game karsk.hcg",
            ),
        ),
    ),
    game_file_command(
        "status",
        "The game as it stands: each side's units, the move or turn, and the tests due.",
        "Where the game is and what is due now, without the table of units.",
        common=("json", "no_color"),
        run="status",
        example="hc status --game karsk.hcg",
    ),
    game_file_command(
        "history",
        "What happened in the game, move by move, in plain words.",
        "A line an entry: not what each changed, nor the move or turn it was in.",
        common=("json",),
        run="history",
        example="hc history --game karsk.hcg",
    ),
    Command(
        "compare",
        "Which unit should fire at which target now? Every shot on the table, best first.",
        description="In a game: every unit that may fire now against every enemy unit, each "
        "cell the exact --odds of that very shot from the game as it stands (figures left, "
        "wounds taken, orders, morale); nothing is logged. Outside one: --over twice (the "
        "attackers, the targets) and the action after --, each pair its exact --odds.",
        options=(
            Option(
                "range",
                "--range",
                "-r",  # as hc fire takes it
                many=True,
                metavar="RANGE",
                help="The range of every shot (14), of every shot at a target (boyz=14) or of "
                "one pair (fireteam-1:boyz=14); repeatable, the more particular winning. Or a "
                "range band by name, each weapon at its own band's farthest: short, long "
                "(Rogue Trader), short to extreme (Twilight: 2000), band-1 nearest (High "
                "Crusade).",
            ),
            Option(
                "under",
                many=True,
                metavar="N",
                help="The figures under a template shot's template (High Crusade heavy "
                "weapons) or the models under an area marker (Rogue Trader grenades): of "
                "every one (3), of those at a target (boyz=3) or of one pair "
                "(support:boyz=3); without it such a shot is listed as needing it.",
            ),
            Option(
                "shot",
                many=True,
                complete=True,
                metavar="KIND",
                help="Twilight: 2000: compare this kind of shot (aimed, quick, aimed-burst, "
                "burst; repeatable); without it, every kind the weapon fires, a row each.",
            ),
            Option(
                "over",
                many=True,
                metavar="NAME=VALUES",
                help="Outside a game: an option and its values, once for the attackers "
                "(weapon=ingrave-ar,bolt-gun) and once for the targets (target=orc,crusader).",
            ),
            Option(
                "action",
                positional=True,
                many=True,
                metavar="ACTION",
                help="Outside a game, after --: the action, as typed without hc.",
            ),
            Option(
                "unit",
                many=True,
                complete=True,
                metavar="UNIT",
                help="In a game: only the shots of this unit (repeatable).",
            ),
            Option(
                "at",
                many=True,
                complete=True,
                metavar="UNIT",
                help="In a game: only the shots at this unit (repeatable).",
            ),
            Option(
                "at_least",
                kind="flag",
                help="Under each shot, the chance of at least 1, 2, ... of what it counts "
                "(always in --json).",
            ),
            GAME_OPTION,
            quiet("The best shot alone."),
        ),
        common=("ruleset", "rules", "json", "no_color"),
        run="compare",
        examples=(
            "hc compare --range 14 --game karsk.hcg",
            "hc compare --over weapon=ingrave-ar,bolt-gun --over target=orc,crusader -- fire "
            "--ruleset high-crusade -r 14",
        ),
    ),
    Command(
        "sweep",
        "What changes with one option: the exact odds of an action at every value of it.",
        description="After --, the action as it would be typed; each point is its exact "
        "--odds at one value of the option swept: the mean and the chance of at least 1, 2, "
        "... of what it counts (kills, wounds, hits), or of each outcome.",
        options=(
            Option(
                "over",
                many=True,
                metavar="NAME=VALUES",
                help="The option and its values (once): range=2..24, range=2..24:2, "
                "weapon=bolt-gun,lascannon; or a table's value, laid as a house rule point by "
                "point: modifiers.smoke.value=-30..0:10, readings.recoil-floor.choice="
                "no-hit,floor-one.",
            ),
            Option(
                "action",
                positional=True,
                many=True,
                metavar="ACTION",
                help="The action after --, as typed without hc: fire -w ingrave-ar -t orc.",
            ),
            Option("csv", kind="flag", help="A CSV table, for a spreadsheet or a script."),
            quiet("The table alone, without the chart."),
        ),
        common=("ruleset", "rules", "json", "no_color"),
        run="sweep",
        examples=(
            "hc sweep --over range=2..24:2 -- fire --ruleset high-crusade -w ingrave-ar -t orc",
        ),
    ),
    SEAL,
    Command(
        "luck",
        "Was it luck? Where each action's result fell in its own exact odds, summed by side.",
        description="Each action is rated by its own exact odds (the same code as --odds): "
        "the chance of a result no better and of one no worse, and its luck, its percentile "
        "less a half (0 on average with fair dice). A side's luck is the sum over its "
        "actions, judged by how often fair dice land as far from even. Dice entered by hand "
        "(--dice) are counted face by face and tested against fair dice.",
        options=(
            Option(
                "file",
                positional=True,
                metavar="FILE",
                help="A game file or a log written by --log; the game in force if left out.",
            ),
            GAME_OPTION,
            Option("side", complete=True, metavar="SIDE", help="Only this side's actions."),
            Option("unit", complete=True, metavar="UNIT", help="Only this unit's actions."),
            entry_number("since", "Only the actions from entry N on (hc history numbers them)."),
            quiet("Each side's luck and its verdict: not every action, nor the chart."),
        ),
        common=("ruleset", "json", "no_color"),
        run="luck",
        examples=("hc luck --game karsk.hcg", "hc luck --side Orcs --game karsk.hcg"),
    ),
    Command(
        "undo",
        "Take back the game's newest action or step (an entry that says so: the log stays).",
        description="Made again in the same move or turn, an action taken back rolls the dice it "
        "rolled (unless both players agree to --reroll).",
        options=(
            GAME_OPTION,
            entry_number(
                "to",
                "Take back every action and step after entry N (hc history numbers them), "
                "as one entry.",
            ),
            quiet("What was taken back and what that changed, not what is due now."),
        ),
        common=("json",),
        run="undo",
        examples=("hc undo --game karsk.hcg", "hc undo --to 1 --game karsk.hcg"),
    ),
    Command(
        "again",
        "The game's newest action once more, with new dice: the same unit, targets and options.",
        description="With a UNIT: that unit's newest action (or, for a model, its unit's: "
        "the same shot by the next model). The game fills it in again as it stands now, so "
        "what the game keeps (figures left, wounds, orders) is today's; a unit that may not "
        "act now is refused as the command itself would be. After an undo: the action taken "
        "back, made again as it was (its dice), or with new dice as both players agree "
        "(--reroll).",
        options=(
            Option(
                "unit",
                positional=True,
                complete=True,
                metavar="UNIT",
                help="The unit whose newest action to take again (the game's newest if left out).",
            ),
            GAME_OPTION,
        ),
        common=("seed", "dice", "json", "quiet", "no_color", "anyway", "reroll"),
        run="again",
        examples=("hc again --game karsk.hcg",),
    ),
    Command(
        "completion",
        "Print the TAB-completion script for a shell, or install it with --install.",
        options=(
            Option(
                "shell",
                positional=True,
                required=True,
                complete=True,
                metavar="SHELL",
                help="bash, zsh or fish.",
            ),
            Option("install", kind="flag", help="Write it where the shell looks for it."),
            quiet(
                "With --install, what was written and nothing more; the script itself is "
                "printed whole."
            ),
        ),
        common=(),
        run="completion",
        examples=("hc completion bash --install",),
    ),
)

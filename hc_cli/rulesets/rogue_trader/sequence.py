"""The Rogue Trader turn as data, in seed 003's own words: the six parts of a side's turn and the
commands each takes. `hc game rules` prints them; the game checks every action against them.
Pure."""

from hc_cli.plugin.game_rules import Step

FIGHT = "hc melee UNIT --at TARGET --removed N / --wounds N / --break"

SEQUENCE = (
    Step("1", "the side playing", "moves its troops (a charge: double move)", ("move",),
         "seed 003, the turn sequence"),
    Step("2", "the side playing", "shoots: once with any appropriately armed model", ("fire",),
         "seed 003"),
    Step("3", "both sides", "fight hand to hand with their troops engaged, whoever's turn: "
         "the players fight the blows and record what they did (hc rolls no dice for blows: "
         "the seed gives none)", ("melee",), "seed 003"),
    Step("4", "the side playing", "moves uncommitted troops: the reserves",
         ("move --reserve",), "seed 003"),
    Step("5", "the side playing", "uses its psionic powers", (), "seed 003"),
    Step("6", "the side playing", "may rally its routing troops", ("rally",), "seed 003"),
)  # fmt: skip
PHASE_NAMES = {1: "movement", 2: "shooting", 3: "hand-to-hand", 4: "reserves", 5: "psionics",
               6: "rallying"}  # fmt: skip
# The phase a command is taken in, read from the sequence.
PHASE_OF = {command: int(step.name) for step in SEQUENCE for command in step.commands}
# What the game keeps between the actions (hc game rules prints it).
BETWEEN = (
    "a coin for the first turn, then the sides take turns in strict rotation (seed 003)",
    "a model shoots once a turn; a unit fires its models not yet fired (hc fire UNIT), or "
    "one of them (hc fire UNIT:N) (seed 003)",
    "wounds stay on a model until it has taken its W and is removed (seed 003)",
    '-1 to hit a wounded firer; -1 a fast moving target for every full 10" it moved in '
    "its previous turn (seed 003)",
    "a charge names its target (hc move UNIT --charge --at TARGET) and whether it made "
    "contact (--contact: both units engaged in hand-to-hand combat; --no-contact: the "
    "charger may do nothing at all for the rest of that turn) (seed 003)",
    "troops engaged in hand-to-hand combat may not fire in the shooting part, nor be "
    "targets; a firer who fires into the combat (--into-melee) dices each hit: 1-3 the "
    "enemy, 4-6 the firer's friends (seed 003)",
    "hand to hand fights in part 3 of every turn, either side: the players record what it "
    f"did ({FIGHT}); hc rolls no dice for blows, the seed gives none; a combat ends when "
    "one side of it is removed, or breaks off",
    "a model declared hiding cannot be targeted in the enemy's following turn; firing gives "
    "it away; no hiding during or after a reserve move; it is spotted within the "
    "firer's Initiative in inches, and an area weapon may aim at its cover (seed 003)",
    "routing troops are subject to compulsory movement, and may be rallied in the "
    "rallying part of their own turn (seed 003)",
)

"""The Rogue Trader turn as data, in seed 003's own words: the six parts of a side's turn and the
commands each takes. `hc game rules` prints them; the game checks every action against them.
Pure."""

from hc_cli.plugin.game_rules import Step

SEQUENCE = (
    Step("1", "the side playing", "moves its troops (a charge: double move)", ("move",),
         "seed 003, the turn sequence"),
    Step("2", "the side playing", "shoots: once with any appropriately armed model", ("fire",),
         "seed 003"),
    Step("3", "both sides", "fight hand to hand with their troops engaged", (), "seed 003"),
    Step("4", "the side playing", "moves uncommitted troops: the reserves",
         ("move --reserve",), "seed 003"),
    Step("5", "the side playing", "uses its psionic powers", (), "seed 003"),
    Step("6", "the side playing", "may rally its routing troops", ("rally",), "seed 003"),
)  # fmt: skip
PHASE_NAMES = {1: "movement", 2: "shooting", 3: "hand-to-hand", 4: "reserves", 5: "psionics",
               6: "rallying"}  # fmt: skip
# The phase a command is taken in, read from the sequence.
PHASE_OF = {command: int(step.name) for step in SEQUENCE for command in step.commands}

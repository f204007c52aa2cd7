"""A third-party rule set as small as one can be: one command (`toss`), one table (`coins`).

It is registered by `../hc_toy-0.1.dist-info/entry_points.txt`, as `pip install` would
register it, and touches no file of hc's own."""

from pathlib import Path

from hc_cli.plugin.declare import Command, Option, RuleSet

DECLARATION = RuleSet(
    "toy",
    "Toy: toss a coin",
    data=Path(__file__).parent / "rules_data" / "toy",
    impl="hc_toy.impl",
    commands=(
        Command(
            "toss",
            "Toss a coin from the coins table: heads or tails.",
            options=(
                Option("coin", complete=True, help="The coin to toss."),
                Option("height", kind="number", unit="inches", help="How high it flies."),
            ),
            examples=("hc toss --coin penny",),
        ),
    ),
)

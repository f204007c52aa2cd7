"""The toy rule set's tables and resolver."""

from dataclasses import dataclass
from typing import Any

from hc_cli.declare import CommandSpec
from hc_cli.errors import UnknownName
from hc_cli.model import Odds, Resolution
from hc_cli.schema import Field
from hc_cli.tables import MergedTables, load_merged

SCHEMAS = {"coins": {"source": Field("str", required=True), "heads": Field("int", required=True)}}


@dataclass
class ToyTables:
    merged: MergedTables

    def heads(self, coin: str) -> int:
        coins = self.merged.tables["coins"]
        if coin not in coins:
            raise UnknownName("coin", coin, coins)
        return coins[coin]["heads"]


def schemas() -> tuple[dict, object]:
    return SCHEMAS, None


def load_tables(house_files: list[str] | None = None) -> ToyTables:
    return ToyTables(load_merged("toy", schemas, house_files))


def complete(tables: ToyTables, command: str, option: str) -> list[str]:
    return sorted(tables.merged.tables["coins"]) if option == "coin" else []


def resolve(tables: ToyTables, coin: str, dice: Any) -> Resolution:
    res = Resolution(command="toss", ruleset="toy", inputs={"coin": coin})
    roll = dice.roll(6, "toss")
    res.rolls.append(roll)
    res.outcome = "heads" if roll.value <= tables.heads(coin) else "tails"
    return res


def odds(tables: ToyTables, coin: str) -> Resolution:
    from hc_cli.odds import enumerate_outcomes

    res = Resolution(command="toss", ruleset="toy", inputs={"coin": coin})
    res.odds = Odds(enumerate_outcomes(lambda d: resolve(tables, coin, d), lambda r: r.outcome))
    return res


COMMANDS = {"toss": CommandSpec(lambda flags: flags.get("coin", "penny"), resolve, odds)}

"""The toy rule set's tables and resolver."""

from dataclasses import dataclass
from typing import Any

from hc_cli.core.errors import UnknownName
from hc_cli.core.model import Odds, Resolution
from hc_cli.plugin.declare import CommandSpec
from hc_cli.tables.load import MergedTables, load_merged
from hc_cli.tables.schema import Field

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
    from hc_toy import DECLARATION

    return ToyTables(load_merged(DECLARATION, schemas, house_files))


def complete(tables: ToyTables, command: str, option: str) -> list[str]:
    return sorted(tables.merged.tables["coins"]) if option == "coin" else []


def resolve(tables: ToyTables, coin: str, dice: Any) -> Resolution:
    res = Resolution(command="toss", ruleset="toy", inputs={"coin": coin})
    roll = dice.roll(6, "toss")
    res.rolls.append(roll)
    res.outcome = "heads" if roll.value <= tables.heads(coin) else "tails"
    return res


def odds(tables: ToyTables, coin: str) -> Resolution:
    from hc_cli.core.odds import enumerate_outcomes

    res = Resolution(command="toss", ruleset="toy", inputs={"coin": coin})
    res.odds = Odds(enumerate_outcomes(lambda d: resolve(tables, coin, d), lambda r: r.outcome))
    return res


COMMANDS = {"toss": CommandSpec(lambda flags: flags.get("coin", "penny"), resolve, odds)}


# A game of toy: each player's coin, and how many heads they have tossed. Its roster:
#   ruleset: toy
#   sides: {Ann: {ann: {coin: penny}}, Bob: {bob: {coin: loaded-die}}}
from hc_cli.plugin.game_rules import Fill, GameRules, known_unit  # noqa: E402


class ToyGame(GameRules):
    sides = (1, 4)
    unit_fields = {"coin": Field("str", required=True, help="the player's coin")}
    example = "coin: penny"
    unit_commands = ("toss",)

    def start(self, roster: dict) -> dict:
        units = {
            name: {"side": side, "coin": unit["coin"], "heads": 0}
            for side, members in roster["sides"].items()
            for name, unit in members.items()
        }
        return {"sides": list(roster["sides"]), "units": units}

    def fill(self, state, command, unit, at, flags, tables) -> Fill:  # type: ignore[no-untyped-def]
        me = known_unit(state, unit or "", "the player tossing")
        flags.setdefault("coin", me["coin"])
        return Fill(flags, notes=[f"coin {me['coin']}"])

    def apply(self, state: dict, entry: dict) -> list[str]:
        name = entry["game"]["unit"]
        if entry["result"]["outcome"] == "heads":
            state["units"][name]["heads"] += 1
        return [f"{name}: {state['units'][name]['heads']} heads"]

    def columns(self) -> list[tuple[str, str]]:
        return [("name", "player"), ("coin", "coin"), ("heads", "heads")]

    def row(self, state: dict, name: str, unit: dict) -> dict:
        return {"name": name, "coin": unit["coin"], "heads": unit["heads"]}


GAME = ToyGame()

"""What a rule set tells hc about a game of it: `GameRules`, exposed by its implementation
module as `GAME`. Shared code (`hc_cli.games.store`) keeps the file, the chain and the snapshot; the
rule set knows its roster, its units' state and the rules between actions.

A game's state is plain data (dicts, lists, strings, numbers) and is what folding the game's
entries gives: `start(roster)`, then `apply(state, entry)` for each action and `next(state)`
for each "what comes next" the players asked for. The fold reads only the entries (the filled
options and the logged result), never the tables: replaying a game needs nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from hc_cli.core.errors import HcError
from hc_cli.tables.schema import line_of

if TYPE_CHECKING:
    from hc_cli.core.model import Odds
    from hc_cli.tables.schema import Field, Problems

# What a sealed roll's forfeit spends (`hc_cli.games.seal_protocol`), a reading of every game.
FORFEIT_READING: dict[str, tuple[str, ...]] = {
    "sealed-roll-forfeit": ("action-spent", "unit-spent")
}

Entry = dict[str, Any]  # a unit's entry in the roster, as its YAML gives it
Flags = dict[str, Any]  # a command's option values, by name

# A rule set's game state and the state of one of its units: each rule set names its own
# `TypedDict`s (`GameRules["HcState", "HcUnit"]`), so a type checker knows every key.
State = TypeVar("State", bound=Mapping[str, Any])
Unit = TypeVar("Unit", bound=Mapping[str, Any])


@dataclass(slots=True)
class Fill:
    """A unit action made whole from the game: the command's options (what the roster and the
    state know, under what the player gave), what the fold will need to read the result
    (`meta`), why the unit may not act now (`refusal`, unless --anyway) and what was filled in
    (`notes`, printed above the result)."""

    flags: dict[str, Any]
    meta: dict[str, Any] = field(default_factory=dict)
    refusal: str | None = None
    notes: list[str] = field(default_factory=list)
    unit: str | None = None  # the unit that acts, when the game knew it and none was named


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a rule set's sequence, as `hc game rules` shows it and the game enforces it:
    its name ("2", "shooting", "action turn"), who acts in it, what they do, the commands it
    takes, and the passage it comes from."""

    name: str
    who: str
    does: str
    commands: tuple[str, ...] = ()
    source: str = ""


def count_of(odds: Odds, name: str, single: dict[str, int]) -> dict[int, Any]:
    """A shot's distribution of `name` (kills, wounds): the odds' own, or for a lone shot its
    outcomes read through `single` (outcome -> count, others 0)."""
    found = odds.distributions.get(name)
    if found is not None:
        return dict(found)
    dist: dict[int, Any] = {}
    for word, p in odds.outcomes.items():
        dist[single.get(word, 0)] = dist.get(single.get(word, 0), 0) + p
    return dist


WHAT_IS_LEFT = {"kills": "figure", "casualties": "model", "wounds": "wound"}


def mean_of(dist: dict[int, Any]) -> float:
    return float(sum(k * p for k, p in dist.items()))


class GameRules(Generic[State, Unit]):
    """The base every rule set's game rules extend; the defaults suit a game of two sides. Its
    state is plain data (what a snapshot keeps as JSON), typed for a checker by the rule set."""

    sides: tuple[int, int] = (2, 2)  # how many sides a roster may have
    unit_fields: dict[str, Field] = {}  # a unit's entry in the roster
    example: str = ""  # a unit's entry as the roster writes it, for hints
    whole_game: tuple[str, ...] = ()  # commands that act for the whole game, without a unit
    unit_commands: tuple[str, ...] = ()  # commands a unit takes
    # Commands taken when the game says they are due (a Morale test), not chosen: `hc again`
    # passes over them to the newest action a player chose.
    due_commands: tuple[str, ...] = ()
    # Whether the game knows whose action it is (Twilight: 2000's order): a unit's command
    # given in the game without a unit is that unit's (`hc reload`), not a roll outside it.
    acting_unit_known: bool = False
    # The sequence the game keeps, in the rules' own order: what `hc game rules` prints and
    # what every action is checked against. `period` names what repeats ("the move").
    period_name: str = "the game"
    noun: str = "unit"  # what the rule set's units are called: "no unit of Orks can fight on"
    sequence: tuple[Step, ...] = ()
    # Other rules kept between actions, each a sentence with its source.
    between: tuple[str, ...] = ()
    # Readings the game itself decides by (not a resolver): name -> its alternatives, as
    # readings.yaml has them, the first the one a game file that names none plays by. `hc game
    # new` keeps the choices in force with the roster, so the fold reads them from the file,
    # never from the tables; a file naming any other is refused as damaged.
    readings: dict[str, tuple[str, ...]] = {}
    # Readings every game decides by, whatever its rule set (a sealed roll's forfeit): a rule
    # set lists them with its own, and its readings.yaml says what each alternative means.
    shared_readings: dict[str, tuple[str, ...]] = FORFEIT_READING
    # A unit of the roster as `resolved_unit` keeps it, field by field, and the kind each must
    # be in a game file (str, int, bool, list, map, map:int; a "?" lets it be null): a file
    # whose roster holds anything else is refused as damaged, before the fold reads a value.
    resolved_kinds: dict[str, str] = {}
    # The shape of the state the fold makes: a snapshot of another shape (written before the
    # fold changed) is folded again, not read.
    state_version: int = 1

    # -- the roster ------------------------------------------------------------------------

    def check_unit(
        self, name: str, unit: Entry, tables: Any, path: str, key: str, problems: Problems
    ) -> None:
        """Names of the tables the unit uses (a weapon, a troop type) are in the tables."""

    def names_in_tables(
        self,
        unit: Entry,
        checks: tuple[tuple[str, Any, str], ...],
        path: str,
        key: str,
        problems: Problems,
    ) -> None:
        """Each (field, table, kind) the unit gives names an entry of that table."""
        from hc_cli.core.errors import UnknownName

        for name, table, kind in checks:
            if name in unit and str(unit[name]).lower() not in table:
                error = UnknownName(kind, str(unit[name]), table)
                problems.add(path, line_of(unit, name), f"{key}.{name}", error.message, error.hint)

    def resolved_unit(self, unit: Entry, tables: Any) -> dict[str, Any]:
        """The numbers the game keeps for the unit, from its entry and the tables."""
        return dict(unit)

    def describe_unit(self, name: str, unit: Entry) -> str:
        return name

    # -- the fold ---------------------------------------------------------------------------

    def start(self, roster: dict[str, Any]) -> State:
        """The first state: each unit of the roster (`unit_state`) with its side, the sides in
        the roster's order, and the clock before anything happened (`first_clock`)."""
        units = {
            name: {"side": side, **self.unit_state(unit)}
            for side, members in roster["sides"].items()
            for name, unit in members.items()
        }
        state = {"sides": list(roster["sides"]), **self.first_clock(), "units": units}
        return state  # type: ignore[return-value]  # the rule set's State, as it makes it

    def chosen(self, readings: dict[str, Any]) -> dict[str, str]:
        """The game's readings: those `hc game new` kept, the defaults for any it did not."""
        return {name: readings.get(name, kinds[0]) for name, kinds in self.readings.items()}

    def reading(self, state: State, name: str) -> str:
        """The game's choice for the reading `name`."""
        choice: str = state["readings"][name]
        return choice

    def unit_state(self, unit: dict[str, Any]) -> dict[str, Any]:
        """A unit's state before the game begins, from its resolved roster entry."""
        raise NotImplementedError

    def first_clock(self) -> dict[str, Any]:
        """The move, turn or order before anything happened."""
        return {}

    def apply(self, state: State, entry: dict[str, Any]) -> list[str]:
        """Take one logged action into the state (in place); return what changed, in words."""
        raise NotImplementedError

    def next(self, state: State) -> list[str]:
        """`hc game next`: the game moves on a step (in place); what now comes, in words. An
        HcError when nothing can come next yet."""
        raise HcError("this game has no steps to move on by", "act with hc COMMAND UNIT")

    def due_units(self, state: State, command: str) -> list[str]:
        """The units that must take `command` now (a test due), in the roster's order."""
        return []

    def standing(self, state: State, name: str) -> bool:
        """Whether the unit has anything left that can fight (a figure, a model, a man)."""
        return True

    def may_take(self, state: State, command: str, name: str) -> bool:
        """Whether TAB offers the unit for `command`: by default, one with something left."""
        return self.standing(state, name)

    def models(self, state: State, name: str) -> list[str]:
        """The unit's models TAB offers after `unit:` (`boyz:3`), those still standing."""
        return []

    def most(self, state: State, target: str, count: str) -> int | None:
        """The most of `count` (what `hc luck` counts: kills, wounds) an action at `target` (a
        unit, or a model `unit:N`) can make, from what it has left; None: no bound."""
        return None

    def cap_odds(self, state: State, at: list[str], odds: Odds | None) -> list[str]:
        """A game's odds of an action at one target: each count past what the target has left
        (`most`) finds nothing, so it is counted at that most, as `hc luck` and `hc compare`
        count it (E[min(X, left)]); a line for each count capped, saying so."""
        said: list[str] = []
        if odds is None or len(at) != 1:
            return said
        for name, dist in list(odds.distributions.items()):
            most = self.most(state, at[0], name)
            if most is None or not dist or not all(isinstance(k, int) for k in dist):
                continue
            if max(dist) > most:
                capped: dict[Any, Any] = {}
                for k, p in dist.items():
                    capped[min(k, most)] = capped.get(min(k, most), 0) + p
                odds.distributions[name] = capped  # type: ignore[index]
                noun = WHAT_IS_LEFT.get(name, name.rstrip("s"))
                said.append(f"{name} capped at the {most} {noun}{'s' * (most != 1)} {at[0]} "
                            "has left")  # fmt: skip
        return said

    def over(self, state: State) -> str | None:
        """Why the game is over, in words, or None: a side with nothing left that can fight
        (`standing`). That side acts no more, and the game moves on no further."""
        beaten = [
            side for side in state["sides"]
            if not any(u["side"] == side and self.standing(state, n)
                       for n, u in state["units"].items())
        ]  # fmt: skip
        if not beaten:
            return None
        if len(beaten) == len(state["sides"]):
            return "the game is over: neither side has anything left that can fight"
        rest = [side for side in state["sides"] if side not in beaten]
        return (
            f"the game is over: {' and '.join(rest)} won; no {self.noun} of {' or '.join(beaten)} "
            "can fight on"
        )

    def hold(self, state: State) -> str | None:
        """Why the game should not move on yet (a test the rules require first), or None: `hc
        game next` refuses it unless --anyway, which the game records."""
        return None

    # -- acting -----------------------------------------------------------------------------

    def fill(
        self, state: State, command: str, unit: str | None, at: list[str], flags: Flags, tables: Any
    ) -> Fill:
        """A unit's action (`command`, against `at`) made whole from the game as it stands."""
        raise NotImplementedError

    def overrides(
        self, state: State, command: str, unit: str | None, at: list[str], given: Flags, tables: Any
    ) -> list[str]:
        """The options the player `given` that put something in place of what the game holds
        (a target's troop, a profile, a weapon's numbers, a bare --mod), each in words ("--target
        orc overrides fireteam-1's troop, crusader"): in a game, refused unless --anyway."""
        return bare_mods(given)

    # -- seeing -----------------------------------------------------------------------------

    def clock(self, state: State) -> str:
        """Where the game is: "move 2, step 3: Orcs move"."""
        return ""

    def where(self, state: State) -> str:
        """The clock, where no one acts once the game is over: "move 3, step 3: the game is
        over" (the clock's part before its first ": " is where the game stood)."""
        clock = self.clock(state)
        if self.over(state) is None:
            return clock
        return f"{clock.partition(': ')[0]}: the game is over" if clock else "the game is over"

    def clock_fields(self, state: State) -> dict[str, Any]:
        """Where the game is, for scripts (`hc status --json`): {"move": 2, "step": 3, ...}."""
        return {}

    def period(self, state: State) -> str:
        """The part of the game an entry belongs to, as `hc history` heads it: "move 2"."""
        return "the game"

    def due(self, state: State) -> list[str]:
        """What the rules now require, each a sentence with the command that does it."""
        return []

    def forfeit_failed(self, state: State, action: dict[str, Any]) -> list[str] | None:
        """A sealed roll forfeit of a test the rules require (a Morale test, a rally), taken
        as failed, the roller's worst (reading `sealed-roll-forfeit`): its failing result
        applied (in place), in words; None for any other action, whose unit's action is then
        only spent."""
        return None

    def playing(self, state: State) -> str | None:
        """The one side whose step of the game it is (a sealed roll of no unit is counted as
        that side's), or None while both play or none does."""
        return None

    def columns(self) -> list[tuple[str, str]]:
        """The status table's columns: (key of a unit's row, heading)."""
        return [("name", "unit")]

    def row(self, state: State, name: str, unit: Unit) -> dict[str, Any]:
        """A unit's row for the status table (and `hc status --json`): `name` and more."""
        return {"name": name}

    def rows(self, state: State) -> dict[str, list[dict[str, Any]]]:
        """Side -> its units' rows, in the roster's order."""
        sides: dict[str, list[dict[str, Any]]] = {side: [] for side in state["sides"]}
        for name, unit in state["units"].items():
            sides[unit["side"]].append(self.row(state, name, unit))
        return sides

    # -- comparing (hc compare) --------------------------------------------------------------

    compare_count: str = ""  # what a shot counts, for compare's at-least table: "kills"
    shot_kinds: tuple[str, ...] = ()  # the kinds of shot `hc compare --shot` names

    def compare_columns(self) -> list[tuple[str, str]]:
        """The numbers `hc compare` shows for a shot, best first by the first: (key, heading)."""
        return [("p_hit", "P(a hit)")]

    def compare_cells(self, state: State, unit: str, target: str, odds: Odds) -> dict[str, Any]:
        """A shot's numbers for `hc compare`, from its exact odds and the game as it stands."""
        return {"p_hit": float(1 - odds.outcomes.get("miss", 0))}

    def compare_shots(self, tables: Any, weapon: str) -> tuple[str, ...]:
        """The kinds of shot (`--shot`) `weapon` may fire, each compared as a row of its own;
        none where the rule set has none (`shot_kinds`)."""
        return ()

    def compare_instead(
        self, state: State, unit: str, target: str
    ) -> tuple[str, str, dict[str, Any]] | None:
        """A shot at `target` the rules allow only another way (Rogue Trader: into a hand-to-
        hand combat, a model at a time): (its label, the firer as `hc fire` names it, the
        options it takes); None for a shot taken as any other."""
        return None

    def compare_marker(self, tables: Any, weapon: str) -> bool:
        """Whether `weapon` fires an area marker whose models under it the player counts, as
        `hc compare --under` gives them (a template whose fill asks for it says so itself)."""
        return False

    def band_reach(self, tables: Any, weapon: str, band: str) -> float:
        """`hc compare --range BAND`: the farthest range in `band` of `weapon` (every range in
        a band shoots alike). A rule set without named bands refuses it."""
        raise HcError(f"--range {band}: no range", "give the range as a number, e.g. --range 14")

    def compare_samples(self, tables: Any) -> list[str]:
        """The sample numbers (not the book's) `compare_cells` reads beyond the shot's own
        odds, which name theirs: each as the breakdown's "sample values" names one."""
        return []

    def sides_fill(
        self, state: State, unit: str | None, at: list[str], flags: dict[str, Any]
    ) -> list[str]:
        """A roll-off of the sides (`--side` twice) filled from the roster: the sides in its
        order; a unit or --side given is an error that says so."""
        if unit is not None or at:
            raise HcError(
                "the sides roll, not a unit", "hc initiative (the roster names the sides)"
            )
        if flags.get("side"):
            raise HcError(
                "the game's sides are its roster's: " + " and ".join(state["sides"]),
                "leave out --side, or roll outside the game: --game none",
            )
        flags["side"] = list(state["sides"])
        return [f"sides {' and '.join(state['sides'])} (the roster)"]


def side_of(state: State, unit: str) -> str:
    side: str = state["units"][unit]["side"]
    return side


def known_unit(state: State, name: str, role: str) -> Any:
    """The unit `name` of the game, or an error that names the units there are."""
    units = state["units"]
    if name not in units:
        from hc_cli.core.errors import UnknownName

        error = UnknownName("unit", name, units)
        raise HcError(f"{error.message} in this game ({role})", error.hint)
    return units[name]


def enemy_check(state: State, firer: str, target: str) -> None:
    """A unit acts against the other side's units, not its own."""
    if side_of(state, firer) == side_of(state, target):
        raise HcError(
            f"{target} is on {possessive(firer)} own side ({side_of(state, firer)})",
            "give --at a unit of the other side",
        )


def option_words(name: str, value: Any) -> str:
    """An option as the player gave it: "--target orc", "--moved", "--volley a:2, b:1"."""
    flag = "--" + name.replace("_", "-")
    if value is True:
        return flag
    values = value if isinstance(value, (list, tuple)) else [value]
    return flag + " " + ", ".join(format(v, "g") if isinstance(v, float) else str(v)
                                  for v in values)  # fmt: skip


MOD_OPTIONS = ("mod", "defender_mod", "second_mod")  # the options that take modifiers


def bare_mods(given: Flags, names: tuple[str, ...] = MOD_OPTIONS) -> list[str]:
    """Each modifier given as a number (--mod 60, --mod smoke=-10), not by a name of the tables:
    a bonus the game cannot know."""
    from hc_cli.core.mods import parse_mod

    out = []
    for name in names:
        for text in given.get(name) or ():
            try:
                bare = parse_mod(str(text)).value is not None
            except HcError:
                continue  # the resolver says what is wrong with it
            if bare:
                out.append(f"{option_words(name, text)} is a bare number, no modifier of the "
                           "tables")  # fmt: skip
    return out


def overridden(given: Flags, name: str, held: Any, what: str) -> list[str]:
    """[the override] when the player gave `name` and not what the game holds (`held`, a
    value or a list of them; names alike in any case); `what`: the game's, in words."""
    if name not in given or given[name] is None:
        return []

    def plain(value: Any) -> Any:
        values = value if isinstance(value, (list, tuple)) else [value]
        return [v.lower() if isinstance(v, str) else v for v in values]

    if held is not None and plain(given[name]) == plain(held):
        return []
    return [f"{option_words(name, given[name])} overrides {what}"]


def instead(given: Flags, names: tuple[str, ...], what: str) -> list[str]:
    """[the override] for each of `names` given at all: numbers in place of `what` the game
    holds (a bare defence factor for a troop, a chance for a weapon's band)."""
    return [f"{option_words(n, given[n])} overrides {what}" for n in names
            if given.get(n) not in (None, False)]  # fmt: skip


WEAPON_OPTIONS = ("weapon", "attacker_weapon", "defender_weapon")  # a weapon of the tables


def known_weapons(given: Flags, tables: Any) -> None:
    """The weapons a player names in a game, looked up before the game fills the action in: a
    typo is said as an unknown name, with what it may have meant, not as an override of the
    weapon the unit carries nor hidden behind a refusal."""
    for option in WEAPON_OPTIONS if hasattr(tables, "weapon") else ():
        if isinstance(given.get(option), str) and given[option]:
            tables.weapon(given[option])


def possessive(name: str) -> str:
    """Orks' turn, Kowalski's action."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"

"""A Fireteam's weapons: one name for every figure, or a mapping of weapons to the figures that
carry each ("most Crusaders carry the Ingrave assault rifle (ar), with Crusader officers
carrying the Schmitwess machine-pistol (mpi)", seed 000); its main weapon; the volley its
figures left fire; and which figures are left with which weapon as casualties fall. Pure:
plain data in, plain data out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.errors import HcError, MissingOption, UnknownName
from hc_cli.core.words import count
from hc_cli.plugin.game_rules import possessive
from hc_cli.tables.schema import line_of

if TYPE_CHECKING:
    from hc_cli.rulesets.high_crusade.state import HcUnit
    from hc_cli.tables.schema import Problems

MIXED_EXAMPLE = "weapon: {ingrave-ar: 4, schmitwess-mpi: 1}"


def check_weapons(unit: dict, tables: Any, path: str, key: str, problems: Problems) -> None:
    """The roster's `weapon`: a weapon of the tables, or a mapping of weapons of the tables to
    the figures carrying each, as many in all as the Fireteam has."""
    weapon = unit.get("weapon")
    line = line_of(unit, "weapon")
    where = f"{key}.weapon"
    if isinstance(weapon, str):
        _known(weapon, tables, path, line, where, problems)
        return
    if isinstance(weapon, list):
        problems.add(
            path,
            line,
            where,
            "a list of weapons does not say how many figures carry each",
            f"give the figures that carry each weapon: {MIXED_EXAMPLE}",
        )
        return
    if not isinstance(weapon, dict) or not weapon:
        problems.add(
            path,
            line,
            where,
            f"{weapon!r} is not a weapon",
            f"a weapon's name (weapon: ingrave-ar), or each weapon with the figures that carry "
            f"it: {MIXED_EXAMPLE}",
        )
        return
    seen: dict[str, str] = {}
    total = 0
    before = len(problems.items)
    for name, figures in weapon.items():
        at = weapon.line_of(name) if hasattr(weapon, "line_of") else line
        if not _known(str(name), tables, path, at, f"{where}.{name}", problems):
            continue
        canonical = tables.weapon(str(name)).key
        if canonical in seen:
            problems.add(path, at, f"{where}.{name}", f"{canonical} is given twice", "give it once")
        seen[canonical] = name
        if isinstance(figures, bool) or not isinstance(figures, int) or figures < 1:
            problems.add(
                path,
                at,
                f"{where}.{name}",
                f"{figures!r} is not a number of figures",
                "the figures that carry it: a whole number, 1 or more",
            )
            continue
        total += figures
    if len(problems.items) == before and total != unit["figures"]:
        problems.add(
            path,
            line,
            where,
            f"the weapons are carried by {total} figures, the Fireteam has {unit['figures']}",
            f"give each weapon the figures that carry it, {unit['figures']} in all",
        )


def _known(
    name: str, tables: Any, path: str, line: int | None, key: str, problems: Problems
) -> bool:
    if name.lower() in tables.weapons:
        return True
    error = UnknownName("weapon", name, tables.weapons)
    problems.add(path, line, key, error.message, error.hint)
    return False


def resolved_weapons(weapon: str | dict[str, int], figures: int, tables: Any) -> dict[str, int]:
    """Each weapon's table name and the figures carrying it, in the roster's order."""
    if isinstance(weapon, str):
        return {tables.weapon(weapon).key: figures}
    return {tables.weapon(name).key: count for name, count in weapon.items()}


def main_weapon(weapons: dict[str, int]) -> str:
    """The weapon most of the figures carry (the first given of those that tie): the assault
    rifles of a Fireteam whose officer carries a machine-pistol."""
    return max(weapons, key=lambda name: (weapons[name], -list(weapons).index(name)))


def weapons_text(left: dict[str, int]) -> str:
    """What the figures left carry: "ingrave-ar", or "3 ingrave-ar, 1 schmitwess-mpi"."""
    if len(left) == 1:
        return next(iter(left))
    return ", ".join(f"{n} {name}" for name, n in left.items() if n) or "-"


def falling_order(left: dict[str, int], main: str, reading: str, first: str | None) -> list[str]:
    """The weapons whose figures fall, in turn: the figure's own weapon first when it is known
    (it fought hand to hand with it), then by the casualties-fall-on reading: the main weapon
    first, or the other weapons first (in the roster's order)."""
    others = [name for name in left if name != main]
    order = [main, *others] if reading == "main-weapon" else [*others, main]
    if first in left:
        order = [first, *(name for name in order if name != first)]
    return order


def take_casualties(left: dict[str, int], count: int, order: list[str]) -> list[tuple[str, int]]:
    """Remove `count` figures (in place) from the weapons in `order`; what fell of each."""
    fell = []
    for name in order:
        lost = min(count, left[name])
        if lost:
            left[name] -= lost
            count -= lost
            fell.append((name, lost))
    return fell


def volley_flags(
    unit: str, me: dict, flags: dict[str, Any], tables: Any, reading: str
) -> list[str]:
    """The Fireteam's weapons as the fire's options: each weapon's figures left fire it
    (--weapon and --shots, or --volley NAME:N for several), a heavy weapon its template shot
    (the heavy-weapon-shots `reading`). A weapon the player names is fired by the figures that
    carry it; a volley (--volley) or numbers (--chance) as the player gives them. Returns what
    was filled in, in words."""
    for item in flags.get("volley") or ():  # a typo is said as one, not as an override
        tables.weapon(str(item).partition(":")[0])
    if "volley" in flags:
        carried: dict[str, int] = {}
    elif "weapon" in flags:
        weapon = str(flags["weapon"]).lower()
        carried = {weapon: me["weapons"].get(weapon) or me["left"]}
    elif "chance" in flags:
        carried = {"": me["left"]}  # the numbers given, fired by every figure left
    else:
        carried = {w: n for w, n in me["weapons"].items() if n}
    volley, notes = {}, []
    for weapon, left in carried.items():
        heavy = weapon in tables.weapons and tables.weapons[weapon].template
        volley[weapon] = 1 if heavy and reading == "one-per-fireteam" else left
        if heavy and left > 1:
            notes.append(
                f"{weapon}: {count(volley[weapon], 'template shot')}, {left} figures carry it "
                f"(reading: heavy-weapon-shots = {reading})"
            )
    if len(volley) > 1:
        if "shots" in flags:
            raise HcError(
                f"--shots {flags['shots']}: {unit} carries several weapons",
                "give each weapon its figures firing: "
                + " ".join(f"--volley {w}:{n}" for w, n in volley.items()),
            )
        flags["volley"] = [f"{w}:{n}" for w, n in volley.items()]
        notes.insert(0, f"volley {', '.join(flags['volley'])} (the figures left)")
    elif volley:
        ((weapon, shots),) = volley.items()
        if "weapon" not in flags and "chance" not in flags:
            flags["weapon"] = weapon
            notes.insert(0, f"weapon {weapon}")
        if "shots" not in flags and shots == carried[weapon]:  # not one template for them all
            flags["shots"] = shots
            notes.append(f"{count(shots, 'shot')} (the figures left)")
    firing = _firing(flags)
    if firing > me["left"]:
        raise HcError(
            f"{firing} figures fire: {unit} has {me['left']} figures left",
            f"give --shots 1..{me['left']}",
        )
    return notes


def _firing(flags: dict[str, Any]) -> int:
    """The figures a fire's options say fire: each weapon's of a volley, else --shots."""
    if "volley" not in flags:
        return flags.get("shots", 1)
    figures = [str(w).partition(":")[2] for w in flags["volley"]]
    return sum(int(n) if n.isdigit() and len(n) < 7 else 1 for n in figures)


def check_under(unit: str, name: str, target: HcUnit, flags: dict[str, Any], tables: Any) -> None:
    """A template shot resolves the figures of the target under it: the player counts them
    (--under N, or a --target each), at most the figures it has left."""
    weapons = [str(w).partition(":")[0].lower() for w in flags.get("volley") or ()]
    weapons.append(str(flags.get("weapon", "")).lower())
    heavy = [w for w in weapons if w in tables.weapons and tables.weapons[w].template]
    if not heavy and not flags.get("template"):
        return
    targets = flags.get("target") or ()
    if len(targets) > 1 and _firing(flags) > 1:
        raise HcError(
            f"{unit} fires {_firing(flags)} template shots: a --target each names the figures "
            "under one",
            "give --under N, the figures of the target under each template",
        )
    under = flags.get("under") or (len(targets) if len(targets) > 1 else None)
    if under is None:
        raise MissingOption(
            "--under",
            f"{unit} fires {(heavy or ['its weapon'])[0]} under its template: how many of "
            f"{possessive(name)} figures are under it?",
            f"give --under N, 1..{target['left']} (each figure under it is a target)",
        )
    if under > target["left"]:
        raise HcError(
            f"{under} figures under the template: {name} has {target['left']} left",
            f"give --under up to {target['left']}",
        )

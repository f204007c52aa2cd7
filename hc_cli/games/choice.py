"""Which game is in force, and its rule set, read cheaply: every command and every TAB press
asks (`choose`), so this module imports little beyond `os` (the settings file's TOML only
when there is one).

The game in force, like the rule set: `--game FILE`, else `HC_GAME`, else `game = "FILE"` in
the settings file (a relative path there is relative to the settings file's folder). `--game
none` (or an empty HC_GAME) means no game. The game's rule set is read from its file's first
line (the entry `hc game new` wrote), without parsing JSON.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from hc_cli.core.errors import HcError
from hc_cli.log.osfile import NONBLOCK
from hc_cli.tables.paths import config_dir

SETTINGS_FILE = "settings.toml"

NO_GAME = "none"
FIRST_LINE_MOST = 4_000_000  # the roster entry: a few kilobytes


def game_in_args(args: Sequence[str]) -> str | None:
    """The value of the last `--game FILE` / `--game=FILE` before any `--`."""
    found = None
    for i, word in enumerate(args):
        if word == "--":
            break
        if word == "--game" and i + 1 < len(args):
            found = args[i + 1]
        elif word.startswith("--game="):
            found = word.partition("=")[2]
    return found


def in_force(
    args: Sequence[str], env: Mapping[str, str], settings_game: str | None = None
) -> tuple[str, str] | None:
    """(path, where it came from) of the game in force by flag or environment; the settings
    file's game is given by the caller (who reads the settings once)."""
    given = game_in_args(args)
    if given is not None:
        return None if given in ("", NO_GAME) else (given, "--game")
    if "HC_GAME" in env:
        value = env["HC_GAME"]
        return None if value in ("", NO_GAME) else (value, "HC_GAME")
    if settings_game and settings_game != NO_GAME:
        return settings_game, "settings file"
    return None


def first_line(path: str) -> bytes | None:
    """The first line of a game file (its roster entry); None when there is no such file."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        head = os.read(fd, 65536)
        while b"\n" not in head and len(head) < FIRST_LINE_MOST:
            more = os.read(fd, 65536)
            if not more:
                break
            head += more
    except OSError:
        return None
    finally:
        os.close(fd)
    line, newline, _ = head.partition(b"\n")
    return line if newline else None


def game_file_problem(path: str) -> str | None:
    """What keeps `path` from being a game file, in words, or None: it is not there (a
    dangling link says so), it is a folder, a pipe or a device, it is empty, or its first
    line is no game's roster. Never opens what is not a regular file (a pipe would wait)."""
    import stat

    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            return "is a link to nothing (its target is gone)"
        return "does not exist"
    except OSError as exc:
        return f"cannot be read: {exc.strerror}"
    if stat.S_ISDIR(st.st_mode):
        return "is a folder, not a game file"
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file (a pipe, a device or a socket)"
    if not st.st_size:
        return "is empty: no game was started in it"
    if ruleset_of(path) is None:
        return "is no game file: its first line is no game's roster (hc game new writes it)"
    return None


def unreadable_game(
    found: tuple[str, str], problem: str, outside: bool = True, batch: bool = False
) -> Exception:
    """The one error every command gives for a game in force it cannot read (`found`: its
    path and where it came from; `problem`: `game_file_problem`'s words). `outside`: the
    command can also act outside a game (a roll, hc game rules), and the hint says how;
    `batch`: for a line of hc batch, which names its game in a 'game' field."""
    from hc_cli.core.errors import HcError
    from hc_cli.tables.files import shown_path

    path, source = found
    name_it = "in the line's 'game' field" if batch else "with --game FILE"
    no_game = '"game": "none"' if batch else "--game none"
    hint = "start it (hc game new FILE --roster ROSTER)"
    if outside:
        hint += f", name the right file {name_it}, or act outside a game: {no_game}"
    else:
        hint += f", or name the right file {name_it}"
    return HcError(f"the game in force ({source}: {shown_path(path)}) {problem}", hint)


def ruleset_of(path: str) -> str | None:
    """The rule set a game file was started for, or None when it is no game file."""
    line = first_line(path)
    if line is None or b'"command":"game"' not in line:
        return None
    _, found, rest = line.partition(b'"ruleset":"')
    if not found:
        return None
    name, quote, _ = rest.partition(b'"')
    try:
        return name.decode("ascii") if quote and 0 < len(name) <= 60 else None
    except UnicodeDecodeError:
        return None


def unit_sides(path: str) -> list[tuple[str, list[str]]]:
    """Each side of the game at `path` with its units, in the roster's order, for TAB: from
    its first line."""
    line = first_line(path)
    if line is None:
        return []
    import json

    try:
        roster = json.loads(line)["game"]["roster"]
        return [(str(side), [str(n) for n in units]) for side, units in roster["sides"].items()]
    except (ValueError, KeyError, TypeError, AttributeError):
        return []


def unit_names(path: str) -> list[str]:
    """The units of the game at `path`, for TAB, in the roster's order."""
    return [name for _, units in unit_sides(path) for name in units]


def fellow_names(path: str, acting: Sequence[str]) -> list[str]:
    """The units TAB offers as one more to act with those named (`hc fire fireteam-1 <TAB>`):
    the units of their side not named yet; with none named, every unit."""
    sides = unit_sides(path)
    names = {name.partition(":")[0] for name in acting}
    own = {side for side, units in sides if names.intersection(units)}
    return [n for side, units in sides if not own or side in own for n in units if n not in names]


def able_names(path: str, command: str, names: list[str], incomplete: str) -> list[str]:
    """Of the units TAB would offer (`names`), those the game says may (`kept_state`): a unit
    that may take `command` (a routed one for a rally; those with a test due, when any, for
    a morale test), or with no command (--at) a target with something left; after `unit:`
    its models still standing. The roster's names when no state is to be had."""
    from hc_cli.games.store import kept_state

    kept = kept_state(path)
    if kept is None:
        return names
    rules, state = kept
    unit, colon, _ = incomplete.partition(":")
    if colon and unit in state["units"]:
        return rules.models(state, unit)
    if command:
        due = set(rules.due_units(state, command))  # hc morale: the units with a test due
        may = [n for n in names if n in state["units"] and rules.may_take(state, command, n)]
        return [n for n in may if n in due] or may
    return [n for n in names if n in state["units"] and rules.standing(state, n)]


def target_names(path: str, acting: Sequence[str]) -> list[str]:
    """The units TAB offers after --at: a unit acts against the other side (each rule set's
    game refuses a target of the acting unit's own side), so the other sides' units, in the
    roster's order; never the acting units (`acting`, a model `unit:N` as its unit) nor their
    side. With no acting unit known (`hc fire --at`), every unit."""
    sides = unit_sides(path)
    names = {name.partition(":")[0] for name in acting}
    own = {side for side, units in sides if names.intersection(units)}
    if not own:
        return [name for _, units in sides for name in units if name not in names]
    return [name for side, units in sides if side not in own for name in units]


# ---------------------------------------------------------------------------------------------
# The rule set in force


def settings_path() -> str:
    return os.path.join(config_dir(), SETTINGS_FILE)


MAX_SETTINGS_BYTES = 64_000  # a settings file is a few lines


_read: tuple[tuple[object, ...], dict[str, str]] | None = (
    None  # the settings as last read, by file state
)


def _settings() -> dict[str, str]:
    """The settings file's `ruleset` and `game`, as far as it gives them: read once however
    many times a command asks (the rule set, then the game in force), again if it changed."""
    global _read
    path = settings_path()
    try:
        stat = os.stat(path)
        state: tuple[object, ...] = (path, stat.st_mtime_ns, stat.st_size, stat.st_ino)
    except OSError:
        state = (path,)
    if _read is not None and _read[0] == state:
        return _read[1]
    settings = _read_settings(path)
    _read = (state, settings)
    return settings


def _read_settings(path: str) -> dict[str, str]:
    from hc_cli.tables.files import read_text

    try:
        text = read_text(path, MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or str(exc)
        raise HcError(f"settings file '{path}' cannot be read: {reason}", _SETTINGS_HINT) from None
    import tomllib

    try:
        found = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HcError(f"{path}: not valid TOML: {exc}", _SETTINGS_HINT) from None
    except RecursionError:
        raise HcError(f"{path}: nested too deep to be settings", _SETTINGS_HINT) from None
    settings = {}
    for key in ("ruleset", "game"):
        value = found.get(key)
        if value is not None and not isinstance(value, str):
            raise HcError(f"{path}: {key}: must be text in quotes", _SETTINGS_HINT)
        if value:
            settings[key] = value
    if "game" in settings and not os.path.isabs(settings["game"]):
        settings["game"] = os.path.join(os.path.dirname(path), settings["game"])
    for key in SWITCHES:
        value = found.get(key)
        if value is not None and not isinstance(value, bool):
            raise HcError(f"{path}: {key}: must be true or false", _SETTINGS_HINT)
        if value:
            settings[key] = "yes"
    return settings


# Settings a player switches on: `turn_ends_by_itself = true` ends a side's turn once every
# unit of it has acted (Rogue Trader), without hc game next.
SWITCHES = ("turn_ends_by_itself",)


def switched_on(name: str) -> bool:
    """Whether the settings file switches `name` on (SWITCHES)."""
    return bool(_settings().get(name))


_SETTINGS_HINT = (
    'the settings file holds lines such as: ruleset = "t2k", game = "karsk.hcg" or '
    "turn_ends_by_itself = true"
)


def ruleset_in_args(args: Sequence[str]) -> str | None:
    """The value of the last `--ruleset NAME` / `--ruleset=NAME` before any `--`."""
    found = None
    for i, word in enumerate(args):
        if word == "--":
            break
        if word == "--ruleset" and i + 1 < len(args):
            found = args[i + 1]
        elif word.startswith("--ruleset="):
            found = word.partition("=")[2]
    return found


def choose(args: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """The rule set in force and where that came from: the flag, else the game in force (its
    own rule set: `--game`, `HC_GAME`), else the environment, else the settings file (its game,
    then its rule set), else the default."""
    env = os.environ if env is None else env
    given = ruleset_in_args(args)
    if given:
        return given, "--ruleset"
    settings = None
    game = in_force(args, env)
    if game is None and game_in_args(args) is None and "HC_GAME" not in env:
        if not env.get("HC_RULESET"):
            settings = _settings()
            game = in_force(args, env, settings.get("game"))
    if game is not None:
        found = ruleset_of(game[0])
        if found is not None:
            return found, f"the game {game[0]} ({game[1]})"
    if env.get("HC_RULESET"):
        return env["HC_RULESET"], "HC_RULESET"
    if settings is None:
        settings = _settings()
    if settings.get("ruleset"):
        return settings["ruleset"], f"settings file {settings_path()}"
    from hc_cli.plugin.registry import DEFAULT_RULESET

    return DEFAULT_RULESET, "default"


def game_in_force(
    flag: str | None = None, env: Mapping[str, str] | None = None
) -> tuple[str, str] | None:
    """(path, where it came from) of the game in force: `--game` (its value here), else
    HC_GAME, else the settings file's game unless HC_RULESET chose another rule set; None for
    no game (`--game none`)."""
    env = os.environ if env is None else env
    args = () if flag is None else ("--game", flag)
    found = in_force(args, env)
    if found is not None or flag is not None or "HC_GAME" in env or env.get("HC_RULESET"):
        return found
    return in_force(args, env, _settings().get("game"))

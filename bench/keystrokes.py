"""What a game costs to play at the keyboard: commands and keystrokes per move or turn, with TAB.

    python bench/keystrokes.py bench/games/high-crusade.sh [more scripts]

A script is the shell session of one game, as a player types it: `export HC_GAME=FILE`, then
`hc ...` lines; a line `# move`, `# turn` or `# fight` begins a new period of the game (the lines
before the first are setting up, counted apart); a line `# settings: KEY = VALUE` is written to
the player's settings file (typed once, never counted). Each `hc` line is run, in a scratch folder
holding `examples/`, by the `hc` on PATH, and must exit 0: the count is of a game that plays.

Keystrokes: each word is typed as a player with bash completion would (the `hc` on PATH answers
TAB exactly as in a shell): a letter at a time, pressing TAB whenever it completes two letters or
more (a single candidate completes the word and its space); then a space, and Enter at the end.
`--seed N` stands for hc rolling the dice: it is not counted. `--dice` is counted as typed.
Bookkeeping is a command that plays nothing the table decides: `hc game next`, and `hc
initiative` (a roll, but one the game asks for every move).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PERIODS = ("# move", "# turn", "# fight")
BOOKKEEPING = (("game", "next"), ("initiative",))


def _hc() -> str:
    return shutil.which("hc") or sys.exit("no hc on PATH")


@cache
def _offers(args: tuple[str, ...], incomplete: str, env_items: tuple) -> tuple[str, ...]:
    """What TAB offers after `hc ARGS INCOMPLETE`, asked as the bash script asks it."""
    words = ["hc", *args, incomplete]
    env = dict(env_items)
    env.update(
        _HC_COMPLETE="complete_bash", COMP_WORDS=" ".join(words), COMP_CWORD=str(len(words) - 1)
    )
    done = subprocess.run([_hc()], env=env, capture_output=True, text=True, cwd=env["PWD"])
    return tuple(line for line in done.stdout.splitlines() if line)


def _common(values: tuple[str, ...]) -> str:
    return os.path.commonprefix(list(values)) if values else ""


def word_keys(args: list[str], word: str, env: dict[str, str]) -> tuple[int, bool]:
    """Keys to type `word` after `hc ARGS`, its space included; whether TAB gave the space."""
    typed, keys = "", 0
    items = tuple(sorted(env.items()))
    while typed != word:
        offers = tuple(v for v in _offers(tuple(args), typed, items) if v.startswith(typed))
        reach = _common(offers)
        if word.startswith(reach) and len(reach) - len(typed) >= 2:
            typed, keys = reach, keys + 1
            if offers == (word,):
                return keys, True  # the single candidate: bash adds the space
            continue
        typed, keys = typed + word[len(typed)], keys + 1
    return keys + 1, False


def line_keys(words: list[str], env: dict[str, str]) -> int:
    """Keys to type one `hc` line, Enter included, `--seed N` left out."""
    keys = len("hc ")
    kept: list[str] = []
    skip, spaced = False, False
    for word in words[1:]:
        if skip:
            skip = False
            continue
        if word == "--seed":
            skip = True
            continue
        typed, spaced = word_keys(kept, word, env)
        keys += typed
        kept.append(word)
    return keys + spaced  # the last word's space is the Enter, unless TAB typed it


def play(script: Path) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(ROOT / "examples", Path(scratch) / "examples")
        env = {
            k: v for k, v in os.environ.items() if k not in ("HC_GAME", "HC_RULESET", "HC_RULES")
        }
        env.update(PWD=scratch, XDG_CONFIG_HOME=scratch, XDG_CACHE_HOME=f"{scratch}/cache")
        env["COLUMNS"] = "80"
        periods: list[dict] = []
        setup = {"commands": 0, "keys": 0, "bookkeeping": 0}
        for line in script.read_text().splitlines():
            line = line.strip()
            if line.startswith(PERIODS):
                periods.append({"commands": 0, "keys": 0, "bookkeeping": 0})
                continue
            if line.startswith("# settings:"):
                settings = Path(scratch) / "hc" / "settings.toml"
                settings.parent.mkdir(exist_ok=True)
                with settings.open("a") as f:
                    f.write(line.removeprefix("# settings:").strip() + "\n")
                continue
            if not line or line.startswith("#"):
                continue
            words = shlex.split(line)
            if words[0] == "export":
                name, _, value = words[1].partition("=")
                env[name] = value
                continue
            done = subprocess.run(
                [_hc(), *words[1:]], env=env, cwd=scratch, capture_output=True, text=True
            )
            if done.returncode != 0:
                sys.exit(f"{script}: `{line}` exited {done.returncode}:\n{done.stderr}")
            into = periods[-1] if periods else setup
            into["commands"] += 1
            into["keys"] += line_keys(words, env)
            into["bookkeeping"] += any(tuple(words[1 : 1 + len(b)]) == b for b in BOOKKEEPING)
        return {"setup": setup, "periods": periods}


def main() -> None:
    for name in sys.argv[1:]:
        counted = play(Path(name))
        periods = counted["periods"]
        n = len(periods) or 1
        print(f"{name}: {len(periods)} periods")
        for i, p in enumerate(periods, 1):
            print(f"  {i}: {p['commands']} commands, {p['keys']} keys, {p['bookkeeping']} kept")
        total = {k: sum(p[k] for p in periods) for k in ("commands", "keys", "bookkeeping")}
        print(
            f"  per period: {total['commands'] / n:.1f} commands, {total['keys'] / n:.0f} keys, "
            f"{total['bookkeeping'] / n:.1f} bookkeeping"
        )


if __name__ == "__main__":
    main()

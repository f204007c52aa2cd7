"""TAB completion in real shells: each script installed as the README says (`hc completion
SHELL --install` into a fresh home), then a weapon completed by bash and zsh at a terminal
(driven through tmux) and by fish (`complete -C`). A shell that is not installed is skipped,
saying so; `.ci/run` installs zsh, fish, tmux and bash-completion where it can."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

BIN = str(Path(sys.executable).parent)  # where the installed `hc` is


def _needs(*programs: str) -> None:
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed here: cannot drive that shell")
    if shutil.which("hc", path=BIN) is None:
        pytest.skip(f"no hc script in {BIN} (install the package to test completion)")


def _home(tmp_path: Path, shell: str) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        "HOME": str(home),
        "PATH": f"{BIN}:/usr/bin:/bin",
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "TERM": "xterm",
        "LANG": "C.UTF-8",
    }
    install = subprocess.run(
        [f"{BIN}/hc", "completion", shell, "--install"], env=env, capture_output=True, text=True
    )
    assert install.returncode == 0, install.stderr
    return env


class Terminal:
    """A shell in a tmux session of its own: type, press TAB, read the screen."""

    def __init__(
        self, tmp_path: Path, command: list[str], env: dict[str, str], columns: int = 120
    ) -> None:
        self.socket = str(tmp_path / "tmux.sock")
        self.env = env
        setting = [f"{k}={v}" for k, v in env.items()]
        size = ["-x", str(columns), "-y", "30"]
        self._tmux("new-session", "-d", *size, "env", "-i", *setting, *command)
        self._tmux("set-option", "-g", "remain-on-exit", "on")  # a program's last screen stays

    def _tmux(self, *args: str) -> str:
        run = subprocess.run(
            ["tmux", "-S", self.socket, *args], capture_output=True, text=True, timeout=30
        )
        return run.stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p")

    def wait_for(self, text: str, seconds: float = 20) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        return self.screen()

    def complete(self, line: str, expected: str) -> str:
        self._tmux("send-keys", "C-u")
        self._tmux("send-keys", "-l", line)
        self._tmux("send-keys", "Tab", "Tab")
        return self.wait_for(expected)

    def tab_once(self, line: str, expected: str, seconds: float = 10) -> str:
        """Type a line and press TAB once, as a player does; the screen's line with it."""
        self._tmux("send-keys", "C-u")
        self._tmux("send-keys", "-l", line)
        self._tmux("send-keys", "Tab")
        screen = self.wait_for(expected, seconds=seconds)
        rows = [row for row in screen.splitlines() if line.split()[0] in row]
        return rows[-1] if rows else ""  # the newest: what the prompt holds now

    def close(self) -> None:
        self._tmux("kill-server")


@pytest.fixture
def terminal(tmp_path):
    made: list[Terminal] = []

    def start(command: list[str], env: dict[str, str], columns: int = 120) -> Terminal:
        made.append(Terminal(tmp_path, command, env, columns))
        return made[-1]

    yield start
    for t in made:
        t.close()


def test_bash_completes_a_weapon_and_reads_ruleset_with_an_equals(tmp_path, terminal):
    """bash-completion loads ~/.local/share/bash-completion/completions/hc on first use; bash
    splits --ruleset=t2k at the '=', and hc reads the words back as they were typed."""
    _needs("bash", "tmux")
    loader = Path("/usr/share/bash-completion/bash_completion")
    if not loader.exists():
        pytest.skip(
            "the bash-completion package is not installed here (apt install bash-completion)"
        )
    env = _home(tmp_path, "bash")
    rc = tmp_path / "bashrc"
    rc.write_text(f". {loader}\nPS1='$ '\n")
    shell = terminal(["bash", "--rcfile", str(rc), "-i"], env)
    shell.wait_for("$")
    assert "ingrave-ar" in shell.complete("hc fire --weapon ing", "ingrave-ar")
    assert "m16a2" in shell.complete("hc fire --ruleset=t2k --weapon m1", "m16a2")
    screen = shell.complete("hc fire --ruleset=high-crusade -w ingr", "ingrave-ar")
    assert "hc fire --ruleset=high-crusade -w ingrave-ar" in screen


def test_zsh_loads_the_installed_file_and_completes(tmp_path, terminal):
    """The installed ~/.zfunc/_hc starts with its #compdef line, so compinit loads it."""
    _needs("zsh", "tmux")
    env = _home(tmp_path, "zsh")
    assert (Path(env["HOME"]) / ".zfunc" / "_hc").read_text().startswith("#compdef hc\n")
    shell = terminal(["zsh", "-i"], env)
    time.sleep(0.5)
    assert "hc fire --weapon ingrave-ar" in shell.complete("hc fire --weapon ingr", "ingrave-ar")
    assert "m16a2" in shell.complete("hc fire --ruleset=t2k --weapon m1", "m16a2")


@pytest.mark.parametrize("how", ["installed", "sourced"])
def test_zsh_completes_at_every_tab_of_a_new_shell(tmp_path, terminal, how):
    """One TAB a line, in a new shell: the first TAB autoloads ~/.zfunc/_hc and completes;
    the second and every later one complete too (the autoloaded file defines _hc anew rather
    than registering another function for a later TAB). Sourced from ~/.zshrc, the same."""
    _needs("zsh", "tmux")
    env = _home(tmp_path, "zsh")
    if how == "sourced":
        home = Path(env["HOME"])
        (home / ".zfunc" / "_hc").unlink()
        (home / ".zshrc").write_text(
            "autoload -Uz compinit && compinit\nsource <(hc completion zsh)\n"
        )
    shell = terminal(["zsh", "-i"], env)
    shell.wait_for("#" if os.geteuid() == 0 else "%")  # its prompt: the start-up file is read
    time.sleep(0.5)
    for line, expected in (
        ("hc fire --weapon ingr", "hc fire --weapon ingrave-ar"),
        ("hc fire --weapon bolt", "hc fire --weapon bolt-gun"),
        ("hc tables weap", "hc tables weapons"),
        ("hc fire --ruleset t2k --weapon m6", "hc fire --ruleset t2k --weapon m60"),
    ):
        assert expected in shell.tab_once(line, expected), (how, line, shell.screen())


def test_fish_completes_a_weapon(tmp_path):
    _needs("fish")
    env = _home(tmp_path, "fish")
    run = subprocess.run(
        ["env", "-i", *[f"{k}={v}" for k, v in env.items()], "fish", "-c",
         'complete -C "hc fire --weapon ing"; complete -C "hc fire --ruleset=t2k --weapon m1"'],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "ingrave-ar" in run.stdout.split() and "m16a2" in run.stdout.split()


def test_the_shipped_scripts_are_the_installed_ones():
    """completions/ holds each script as `hc completion SHELL` prints it (to regenerate:
    hc completion SHELL > completions/FILE)."""
    from hc_cli.cli.completion import FILES, script

    root = Path(__file__).resolve().parent.parent / "completions"
    for shell, name in FILES.items():
        assert (root / name).read_text() == script(shell), shell
    assert script("zsh").startswith("#compdef hc\n")


def test_plain_bash_completes_with_the_file_sourced(tmp_path, terminal):
    """Without the bash-completion package: ~/.bashrc sources the installed file itself, and
    TAB completes (the script needs nothing but bash's own complete and COMPREPLY)."""
    _needs("bash", "tmux")
    env = _home(tmp_path, "bash")
    rc = tmp_path / "bashrc"
    rc.write_text(". ~/.local/share/bash-completion/completions/hc\nPS1='$ '\n")
    shell = terminal(["bash", "--noprofile", "--rcfile", str(rc), "-i"], env)
    shell.wait_for("$")
    assert "hc fire --weapon ingrave-ar" in shell.tab_once("hc fire --weapon ingr", "ingrave-ar")
    assert "m16a2" in shell.complete("hc fire --ruleset=t2k --weapon m1", "m16a2")


def test_the_dice_prompt_edits_a_line_at_a_terminal(tmp_path, terminal):
    """At a --dice ask prompt in a terminal, the arrow keys move along the line (the standard
    line editor), rather than typing escape codes into the entry."""
    _needs("tmux")
    env = _home(tmp_path, "bash")
    shell = terminal(
        [f"{BIN}/hc", "fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--shots", "2",
         "--dice", "ask", "--no-color"],
        {**env, "COLUMNS": "100"},
    )  # fmt: skip
    shell.wait_for("roll 2 D100")
    shell._tmux("send-keys", "-l", "99")
    shell._tmux("send-keys", "Left", "Left")
    shell._tmux("send-keys", "-l", "11 ")
    shell._tmux("send-keys", "Enter")
    screen = shell.wait_for("of 2 shots")
    assert "1 kill of 2 shots" in screen  # 11 kills, 99 misses: "11 99", not "99^[[D..."
    assert "[D" not in screen


def test_the_dice_prompt_wraps_between_words_on_a_narrow_screen_with_stdout_piped(
    tmp_path, terminal
):
    """hc ... --dice ask | tee: COLUMNS is not exported and stdout is a pipe, so the screen
    the prompt's words are shown on is stderr's: they wrap to its 60 columns between words
    (the words of a D10, not of a D100)."""
    _needs("tmux")
    env = _home(tmp_path, "bash")
    hc = f"{BIN}/hc morale --troop crusader --fired-at --dice ask --no-color | cat"
    shell = terminal(["sh", "-c", hc], env, columns=60)
    shell.wait_for("roll a D10")
    shell._tmux("send-keys", "-l", "x")
    shell._tmux("send-keys", "Enter")
    screen = shell.wait_for("e.g.")
    said = [line for line in screen.splitlines() if line.startswith("  ")]
    assert said and all(len(line) <= 60 for line in said), screen
    assert " ".join(line.strip() for line in said) == (
        "'x' is not a whole number: a D10 takes 1..10 (0 is 10); enter the face rolled, e.g. 6"
    ), screen


def test_a_root_shell_on_debian_completes_once_its_bashrc_sources_the_file(tmp_path, terminal):
    """Debian's root ~/.bashrc (base-files' dot.bashrc) loads no bash-completion, so TAB
    completes nothing after the install; `hc completion bash --install` says what line to add
    (the README's), and once it is added a new `bash -i` completes."""
    _needs("bash", "tmux")
    shipped = Path("/usr/share/base-files/dot.bashrc")
    if not shipped.exists() or os.geteuid() != 0:
        pytest.skip("not Debian's root: nothing to check here")
    if any("bash_completion" in line.partition("#")[0]
           for line in Path("/etc/bash.bashrc").read_text().splitlines()):  # fmt: skip
        pytest.skip("this machine's /etc/bash.bashrc loads bash-completion for every shell")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text(shipped.read_text())
    env = {"HOME": str(home), "PATH": f"{BIN}:/usr/bin:/bin", "TERM": "xterm",
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "LANG": "C.UTF-8"}  # fmt: skip
    install = subprocess.run(
        [f"{BIN}/hc", "completion", "bash", "--install"], env=env, capture_output=True, text=True
    )
    assert install.returncode == 0, install.stderr
    advice = " ".join(install.stdout.split())  # wrapped to the terminal
    line = ". ~/.local/share/bash-completion/completions/hc"
    assert advice.endswith(f"add this line to it: {line}"), advice
    shell = terminal(["bash", "-i"], env)
    time.sleep(1)
    screen = shell.tab_once("hc fire --weapon ingr", "ingrave-ar", seconds=3)
    assert "ingrave-ar" not in screen  # nothing loads hc's completion yet
    shell.close()
    assert subprocess.run(["sh", "-c", f"echo '{line}' >> ~/.bashrc"], env=env).returncode == 0
    again = subprocess.run(
        [f"{BIN}/hc", "completion", "bash", "--install"], env=env, capture_output=True, text=True
    )
    assert "add this line" not in again.stdout
    shell = terminal(["bash", "-i"], env)
    time.sleep(1)
    assert "hc fire --weapon ingrave-ar" in shell.tab_once("hc fire --weapon ingr", "ingrave-ar")

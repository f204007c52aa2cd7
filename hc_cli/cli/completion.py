"""TAB completion: typer's (click's) shell completion for bash, zsh and fish, answered by the
commands built from the declarations (their callbacks offer units, weapons, targets and the
game's values); the script each shell loads, and its installation.

Each script asks `hc` itself, with `_HC_COMPLETE` set (`complete_bash` ...). typer's classes
are adapted: bash splits `--ruleset=t2k` at the '=', and hc joins the words back; zsh's script
completes the very first TAB when it is autoloaded from the fpath; zsh and fish write an
option's help as it is, not through rich. `completions/` in the repository holds the scripts as
`hc completion SHELL` prints them (a test keeps them in step).
"""

from __future__ import annotations

import os
from pathlib import Path

from typer._click.shell_completion import (
    CompletionItem,
    add_completion_class,
    get_completion_class,
)
from typer._completion_classes import BashComplete, FishComplete, ZshComplete
from typer.completion import completion_init
from typer.core import TyperCommand

from hc_cli.core.errors import HcError
from hc_cli.plugin.shared_commands import SHELLS

FILES = {"bash": "hc.bash", "zsh": "_hc", "fish": "hc.fish"}


def joined(words: list[str]) -> list[str]:
    """`--ruleset`, `=`, `t2k` (as bash splits them) back into `--ruleset=t2k`."""
    out: list[str] = []
    glue = False
    for word in words:
        if glue:
            out[-1] += word
            glue = False
        elif word == "=" and out and out[-1].startswith("-") and "=" not in out[-1]:
            out[-1] += word
            glue = True
        else:
            out.append(word)
    return out


class Bash(BashComplete):
    def complete(self) -> str:
        try:
            return super().complete()
        except ValueError:  # COMP_CWORD not a number: nothing to complete
            return ""

    def get_completion_args(self) -> tuple[list[str], str]:
        args, incomplete = super().get_completion_args()
        words = joined([*args, incomplete])
        return words[:-1], words[-1]

    def format_completion(self, item: CompletionItem) -> str:
        # bash puts in a value as it is: one with a space ('Free Companies', a side) is
        # quoted, as the shell reads it back as one word (zsh and fish quote it themselves).
        if any(c in _BASH_SPECIAL for c in item.value):
            import shlex

            return shlex.quote(item.value)
        return item.value


_BASH_SPECIAL = set(" \t'\"\\$`!&;|<>()*?[]{}#~")


def _zsh_quoted(text: str) -> str:
    return (
        text.replace('"', '""')
        .replace("'", "''")
        .replace("$", "\\$")
        .replace("`", "\\`")
        .replace(":", r"\\:")
    )


class Zsh(ZshComplete):
    def format_completion(self, item: CompletionItem) -> str:
        # As typer writes it, less the pass of the help through rich for its markup: hc's
        # help has none, and importing rich would more than double a TAB press.
        if item.help:
            return f'"{_zsh_quoted(item.value)}":"{_zsh_quoted(item.help)}"'
        return f'"{_zsh_quoted(item.value)}"'

    # compinit reads a completion file's first line for its #compdef tag: nothing before it.
    # Autoloaded from the fpath, the file is the body of the function _hc, run at the first
    # TAB: it defines _hc anew (so every later TAB runs the definition, not the file again)
    # and completes that TAB with it. Sourced, it defines _hc and registers it.
    source_template = """\
#compdef %(prog_name)s

_%(prog_name)s() {
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" %(autocomplete_var)s=complete_zsh \
%(prog_name)s)
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _%(prog_name)s "$@"  # autoloaded from the fpath: complete this first TAB too
else
  compdef _%(prog_name)s %(prog_name)s  # sourced: register it
fi
"""


class Fish(FishComplete):
    def format_completion(self, item: CompletionItem) -> str:
        if item.help:  # (as zsh's: no pass through rich)
            return f"{item.value}\t" + "".join(" " if c.isspace() else c for c in item.help)
        return f"{item.value}"


def register() -> None:
    """typer's shell classes, with hc's own bash, zsh and fish in their place."""
    completion_init()
    for shell, completes in (("bash", Bash), ("zsh", Zsh), ("fish", Fish)):
        add_completion_class(completes, shell)


def script(shell: str) -> str:
    """The script `shell` loads to ask hc for completions (it names the program and its
    variable, not its commands)."""
    register()
    found = get_completion_class(shell) if shell in SHELLS else None
    if found is None:
        raise HcError(f"no completion for the shell '{shell}'", "shells: " + ", ".join(SHELLS))
    text = found(TyperCommand("hc"), {}, "hc", "_HC_COMPLETE").source()
    return text.strip("\n") + "\n"


def _home() -> Path:
    return Path(os.path.expanduser("~"))


def install_path(shell: str) -> Path:
    """Where each shell looks for completions without further set-up (zsh: a folder that
    must be on its fpath)."""
    if shell == "bash":
        data = os.environ.get("XDG_DATA_HOME") or str(_home() / ".local" / "share")
        return Path(data) / "bash-completion" / "completions" / "hc"
    if shell == "zsh":
        return _home() / ".zfunc" / "_hc"
    config = os.environ.get("XDG_CONFIG_HOME") or str(_home() / ".config")
    return Path(config) / "fish" / "completions" / "hc.fish"


ZSHRC_LINES = "fpath+=~/.zfunc\nautoload -Uz compinit && compinit\n"


def _read(path: Path) -> str:
    """A shell's start-up file, read as far as one goes; "" when there is none."""
    from hc_cli.tables.files import read_bounded

    try:
        return read_bounded(str(path), 10_000_000).decode("utf-8", "replace")
    except FileNotFoundError:
        return ""


def _bash_note(path: Path) -> str:
    """What else bash needs: the bash-completion package loads the file where a start-up
    file loads the package (Debian's root ~/.bashrc does not); without it, ~/.bashrc sources
    the file itself, which needs nothing else."""
    rc = _home() / ".bashrc"
    home = str(_home())
    shown = "~" + str(path)[len(home) :] if str(path).startswith(home + os.sep) else str(path)
    for startup in (rc, Path("/etc/bash.bashrc")):
        try:
            lines = [line.partition("#")[0] for line in _read(startup).splitlines()]
        except OSError:
            continue
        if any(word in line for line in lines for word in ("bash_completion", shown, str(path))):
            return ""
    return (
        f"{rc} loads no bash-completion: for TAB in every new shell, add this line to it: . {shown}"
    )


def _write(shell: str, path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and not path.is_file():  # a pipe would wait for a reader forever
        raise HcError(
            f"cannot install the {shell} completion: {path} is not a regular file (a "
            "folder, a pipe or a device)",
            f"move it away, or write the script yourself: hc completion {shell} > FILE",
        )
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def install(shell: str, quiet: bool = False) -> str:
    """Write the script where the shell finds it; say where, and what else was done (and,
    unless `quiet`, what to do next)."""
    text = script(shell)
    path = install_path(shell)
    try:
        _write(shell, path, text)
        said = [f"wrote {path}"]
        if shell == "zsh":
            zshrc = _home() / ".zshrc"
            current = _read(zshrc)
            if "fpath+=~/.zfunc" not in current:
                with zshrc.open("a", encoding="utf-8") as f:
                    f.write(("\n" if current and not current.endswith("\n") else "") + ZSHRC_LINES)
                said.append(f"added ~/.zfunc to the fpath in {zshrc}")
        note = _bash_note(path) if shell == "bash" and not quiet else ""
    except OSError as exc:
        refused = getattr(exc, "reason", None)  # hc_cli.tables.files.FileRefused
        what = f"{getattr(exc, 'path', '')} {refused}" if refused else str(exc)
        raise HcError(
            f"cannot install the {shell} completion: {what}", f"hc completion {shell} > FILE"
        ) from None
    text = "; ".join(said) + ("" if quiet else ". Open a new shell for TAB to complete hc.")
    return text + (f"\n{note}" if note else "")

"""The TAB-completion scripts for bash, zsh and fish, and their installation.

Each script asks `hc` itself (with `_HC_COMPLETE` set), which `hc_cli.cli.complete` answers
without starting the full command line. `completions/` in the repository holds the same
scripts, kept in step by a test; `python -m hc_cli.cli.completion_scripts` rewrites them.
"""

from __future__ import annotations

import os
from pathlib import Path

from hc_cli.core.errors import HcError
from hc_cli.plugin.shared_commands import SHELLS

FILES = {"bash": "hc.bash", "zsh": "_hc", "fish": "hc.fish"}

_FISH_ASK = (
    "env _HC_COMPLETE=complete_fish _TYPER_COMPLETE_FISH_ACTION={} "
    "_TYPER_COMPLETE_ARGS=(commandline -cp) hc"
)
SCRIPTS = {
    "bash": """\

_hc_completion() {
    local IFS=$'
'
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \\
                   COMP_CWORD=$COMP_CWORD \\
                   _HC_COMPLETE=complete_bash $1 ) )
    return 0
}

complete -o default -F _hc_completion hc

""",
    # compinit reads a completion file's first line for its #compdef tag: nothing before it.
    # Autoloaded from the fpath, the file is the body of the function _hc, run at the first
    # TAB: it defines _hc anew (so every later TAB runs the definition, not the file again)
    # and completes that TAB with it. Sourced, it defines _hc and registers it.
    "zsh": """\
#compdef hc

_hc() {
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" _HC_COMPLETE=complete_zsh hc)
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _hc "$@"  # autoloaded from the fpath: complete this first TAB too
else
  compdef _hc hc  # sourced: register it
fi
""",
    "fish": (
        f'complete --command hc --no-files --arguments "({_FISH_ASK.format("get-args")})"'
        f' --condition "{_FISH_ASK.format("is-args")}"\n'
    ),
}


def script(shell: str) -> str:
    if shell not in SCRIPTS:
        raise HcError(f"no completion for the shell '{shell}'", "shells: " + ", ".join(SHELLS))
    return SCRIPTS[shell]


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


BASH_LOADER = "/usr/share/bash-completion/bash_completion"


def _loads_bash_completion(path: Path) -> bool:
    """Whether a start-up file has a line (not a comment) that names bash_completion."""
    from hc_cli.tables.files import read_bounded

    try:
        text = read_bounded(str(path), 10_000_000).decode("utf-8", "replace")
    except OSError:
        return False
    return any("bash_completion" in line.partition("#")[0] for line in text.splitlines())


def _bash_loader_note() -> str:
    """What else bash needs, where it is missing: the bash-completion package loads the file,
    a login shell loads the package (Debian's /etc/profile.d), and any other shell only where
    ~/.bashrc or /etc/bash.bashrc says so: Debian's root ~/.bashrc does not."""
    if not os.path.exists(BASH_LOADER):
        if os.path.exists("/etc/debian_version"):
            return "bash loads it through the bash-completion package: apt install bash-completion"
        return ""
    rc = _home() / ".bashrc"
    if any(_loads_bash_completion(p) for p in (rc, Path("/etc/bash.bashrc"))):
        return ""
    return (
        f"{rc} does not load bash-completion (a login shell does): for every shell, add this "
        f"line to it: . {BASH_LOADER}"
    )


def install(shell: str, quiet: bool = False) -> str:
    """Write the script where the shell finds it; say where, and what else was done (and,
    unless `quiet`, what to do next)."""
    text = script(shell)
    path = install_path(shell)
    try:
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
        said = [f"wrote {path}"]
        if shell == "zsh":
            from hc_cli.tables.files import read_bounded

            zshrc = _home() / ".zshrc"
            try:  # only a regular file, read as far as a shell's start-up file goes
                current = read_bounded(str(zshrc), 10_000_000).decode("utf-8", "replace")
            except FileNotFoundError:
                current = ""
            if "fpath+=~/.zfunc" not in current:
                with zshrc.open("a", encoding="utf-8") as f:
                    f.write(("\n" if current and not current.endswith("\n") else "") + ZSHRC_LINES)
                said.append(f"added ~/.zfunc to the fpath in {zshrc}")
    except OSError as exc:
        refused = getattr(exc, "reason", None)  # hc_cli.tables.files.FileRefused
        what = f"{getattr(exc, 'path', '')} {refused}" if refused else str(exc)
        raise HcError(
            f"cannot install the {shell} completion: {what}", f"hc completion {shell} > FILE"
        ) from None
    note = _bash_loader_note() if shell == "bash" and not quiet else ""
    text = "; ".join(said) + ("" if quiet else ". Open a new shell for TAB to complete hc.")
    return text + (f"\n{note}" if note else "")


def write_all(folder: Path) -> None:
    for shell, name in FILES.items():
        (folder / name).write_text(SCRIPTS[shell], encoding="utf-8")


if __name__ == "__main__":
    write_all(Path(__file__).resolve().parents[2] / "completions")

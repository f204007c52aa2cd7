"""The errors `hc` reports to a user: each carries the facts, the CLI turns it into exit 2.

Every error a player can cause by what they type or by a house-rules file is an `HcError`.
Anything else escaping the resolver is a bug in `hc`, not bad input.
"""

from __future__ import annotations

from collections.abc import Iterable


class HcError(Exception):
    """Bad input: the message says what is wrong and what would be right."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n{self.hint}"


class OutOfRange(HcError):
    """A shot or a throw past the last band: no shot, no roll (a sweep or a compare lists it
    as no shot and goes on with the others)."""


class MissingOption(HcError):
    """An action that needs an option only the player can give (`--under`: the figures under
    a template): `hc compare` says the shot needs it rather than that it is refused."""

    def __init__(self, option: str, message: str, hint: str | None = None) -> None:
        super().__init__(message, hint)
        self.option = option


def close_names(name: str, known: Iterable[str]) -> list[str]:
    """The names of `known` close to a misspelt `name`, closest first (up to 3)."""
    import difflib  # only on an error: a TAB press never pays for it

    return difflib.get_close_matches(name.strip().lower(), list(known), n=3, cutoff=0.6)


def did_you_mean(name: str, choices: Iterable[str], listed: str) -> str:
    """The hint for a value that is none of `choices`: hc's "did you mean 'x'?" when one is
    close, else `listed` (the choices, in the error's own words)."""
    close = close_names(name, choices)
    return _meant(close) if close else listed


def _meant(close: list[str]) -> str:
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


class UnknownName(HcError):
    """A name that is not in the table it was looked up in."""

    def __init__(self, kind: str, name: str, known: Iterable[str]) -> None:
        known = sorted(known)
        listed = f"known {kind}s: " + ", ".join(known) if known else f"no {kind}s are defined"
        close = close_names(name, known)
        hint = _meant(close) if close else listed
        quoted = name if len(name) <= 40 else name[:37] + "..."
        super().__init__(f"unknown {kind} '{quoted}'", hint)
        self.kind = kind
        self.name = name
        self.suggestions = close


class DiceError(HcError):
    """`--dice` does not fit the rolls this resolution makes."""


class RulesFileError(HcError):
    """A rules file (bundled or house rules) that cannot be used, pinned to file, line and key."""

    def __init__(
        self, path: str, line: int | None, key: str | None, problem: str, hint: str | None = None
    ) -> None:
        where = path if line is None else f"{path}:{line}"
        what = f"{where}: {key}: {problem}" if key else f"{where}: {problem}"
        super().__init__(what, hint)
        self.path = path
        self.line = line
        self.key = key
        self.problem = problem

"""A batch line's request: its fields checked against the command's options, and the call it
makes; parsed once for every line of the same shape (the same fields and values but the seed).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from typing import Any

from hc_cli.core.errors import HcError
from hc_cli.games import choice
from hc_cli.plugin import registry
from hc_cli.plugin.execute import Call, command_of

_DICE_FIELDS = ("seed", "dice", "odds", "exact")  # what a command that rolls nothing lacks
BATCH_COMMON = ("ruleset", "seed", "dice", "odds", "rules", "exact")  # the call's own fields
_WANTED = {"whole": "a whole number", "number": "a number", "flag": "true or false", "text": "text"}


def spell_field(name: str) -> str:
    return f"field '{name}'"


# The fields of a line that acts in a game: the unit acting (one a line), the game, the
# overrides and the units acted against; each as its common option declares it, checked in
# this order.
GAME_FIELDS = ("unit", "game", "anyway", "rules_changed", "reroll", "agreed", "at")


def field_names(request: dict[Any, Any]) -> dict[str, Any]:
    """A request's fields by their options' names: "--rules-changed" is rules_changed."""
    return {str(k).lstrip("-").replace("-", "_"): v for k, v in request.items()}


def game_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields of a game taken out of `fields` (named as `field_names` names them), each
    checked as its option declares it."""
    from hc_cli.plugin.common_options import COMMON_OPTIONS

    declared = {o.name: o for o in COMMON_OPTIONS}
    own = {}
    for name in GAME_FIELDS:
        value = fields.pop(name, None)
        if value is not None:
            check = _scalar if name == "unit" else _value
            own[name] = check(declared[name], value)
    return own


def _value(option: Any, value: Any) -> Any:
    if option.many:
        items = value if isinstance(value, list) else [value]
        return [_scalar(option, item) for item in items]
    return _scalar(option, value)


def _scalar(option: Any, value: Any) -> Any:
    kind = option.kind
    if kind == "text":
        ok = isinstance(value, str)
    elif kind == "flag":
        ok = isinstance(value, bool)
    elif kind == "whole":
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    if not ok:
        shown = json.dumps(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise HcError(
            f"field '{option.name}' is {shown}: not {_WANTED[kind]}",
            f"give '{option.name}' as {_WANTED[kind]}",
        )
    return value


class Fields:
    """Each (rule set, command)'s fields, worked out once per batch rather than once a line."""

    def __init__(self, args: Sequence[str] = ()) -> None:
        from hc_cli.games.choice import game_in_args
        from hc_cli.plugin.common_options import COMMON_OPTIONS
        from hc_cli.plugin.shared_commands import SHARED_COMMANDS

        # `hc --ruleset NAME --game FILE batch`: the rule set and game of the lines that
        # name none of their own (else the environment's and the settings file's).
        self._args = tuple(args)
        self.game = game_in_args(self._args)

        self._common = {o.name: o for o in COMMON_OPTIONS if o.name in BATCH_COMMON}
        roll = next(c for c in SHARED_COMMANDS if c.name == "roll")
        self._roll = {o.name: o for o in roll.options}
        self._roll_command = roll
        self._by_command: dict[tuple[str, str], dict[str, Any]] = {}
        self._default: str | None = None
        self._calls: dict[tuple, tuple[Call, set[str]]] = {}
        # A game in force for the whole batch (HC_GAME, the settings file): a line of a command
        # the game takes for all its sides (its initiative) acts in it.
        self.game_for_all = choice.game_in_force(self.game) is not None

    def default_ruleset(self) -> str:
        """A request without `ruleset` is for the rule set in force (environment, settings)."""
        if self._default is None:
            self._default = choice.choose(self._args)[0]
        return self._default

    def shaped(self, request: Any) -> tuple[Any, tuple[Call, set[str]]]:
        """The request's shape (its fields and values but the seed) and its call without the
        seed, parsed once per shape; or None and the whole request's call, for a request
        that has no shape, or past the 1024th shape."""
        key = _shape(request)
        if key is None:
            return None, parse_request(request, self)
        found = self._calls.get(key)
        if found is None:
            try:
                found = parse_request({k: v for k, v in request.items() if k != "seed"}, self)
            except HcError:
                return None, parse_request(request, self)  # the error the whole request gives
            if len(self._calls) >= 1024:
                call, given = found
                return None, (with_seed(call, request.get("seed")), given)
            self._calls[key] = found
        if request.get("seed") is not None and "seed" not in self.of(
            found[0].ruleset, found[0].command
        ):
            parse_request(request, self)  # a command that rolls nothing: the seed's error
        return key, found

    def of(self, ruleset: str, command: str) -> dict[str, Any]:
        key = (ruleset, command)
        if key not in self._by_command:
            from hc_cli.plugin.common_options import common_options

            if command == "roll":
                own, declared = self._roll, self._roll_command
            else:
                declared = command_of(registry.get(ruleset), command)
                own = {o.name: o for o in declared.options}
            takes = {o.name for o in common_options(declared)}  # a move: no seed, no dice
            common = {k: o for k, o in self._common.items() if k in takes}
            self._by_command[key] = {**own, **common}
        return self._by_command[key]


_PLAIN = (str, int, float, bool, type(None))


def with_seed(call: Call, seed: int | None) -> Call:
    if seed is None:
        return call
    return Call(
        call.command, call.ruleset, call.flags, seed, call.dice, call.odds, call.rules, call.exact
    )


def _shape(request: Any) -> tuple | None:
    """A request's fields and values but its seed, as a key (with each value's type, so 1 and
    true differ); None when it cannot be one, or its seed is not a plain whole number."""
    if request.__class__ is not dict:
        return None
    names = tuple(request)
    at = _SEED_AT.get(names)
    if at is None:
        at = _seed_at(names)
        if len(_SEED_AT) < 1024:
            _SEED_AT[names] = at
    if at is False:
        return None
    values = tuple(request.values())
    kinds = tuple(map(type, values))
    if at >= 0:
        if kinds[at] is not int and kinds[at] is not _NONE:
            return None
        values = values[:at] + values[at + 1 :]
        kinds = kinds[:at] + kinds[at + 1 :]
    if not _PLAIN_KINDS.issuperset(kinds):
        if list not in kinds or not _PLAIN_KINDS.union((list,)).issuperset(kinds):
            return None
        pairs = list(zip(kinds, values, strict=True))
        if not all(v.__class__ is str for kind, value in pairs if kind is list for v in value):
            return None  # a list of texts (several --target) is part of a key; no other
        values = tuple(tuple(value) if kind is list else value for kind, value in pairs)
    return names, kinds, values


_NONE = type(None)
_PLAIN_KINDS = frozenset(_PLAIN)
_SEED_AT: dict[tuple, int | bool] = {}  # the field names seen: where their seed is


def _seed_at(names: tuple) -> int | bool:
    """Where among a request's field names its seed is (-1: none); False when a name ends
    in "seed" ("--seed"): the slow path decides which seed counts."""
    for name in names:
        if name.__class__ is not str or name != "seed" and name.endswith("seed"):
            return False
    return names.index("seed") if "seed" in names else -1


def parse_request(request: Any, fields_of: Fields | None = None) -> tuple[Call, set[str]]:
    if not isinstance(request, dict):
        raise HcError(
            "a request is a JSON object", 'e.g. {"command": "roll", "expression": "d100"}'
        )
    fields = field_names(request)
    command = fields.pop("command", None)
    fields_of = fields_of or Fields()
    ruleset = fields.get("ruleset") or fields_of.default_ruleset()
    if not isinstance(ruleset, str):
        raise HcError(f"field 'ruleset' is {json.dumps(ruleset)}: not text", "give a name")
    known = [*registry.get(ruleset).commands, "roll"]
    if command not in known:
        close = difflib.get_close_matches(str(command), known, n=1)
        raise HcError(
            f"command {json.dumps(command)} cannot be resolved in a batch of {ruleset}",
            f"did you mean '{close[0]}'?" if close else "commands: " + ", ".join(known),
        )
    options = fields_of.of(ruleset, command)
    common: dict[str, Any] = {}
    flags: dict[str, Any] = {}
    for name, value in fields.items():
        option = options.get(name)
        if option is None and name in _DICE_FIELDS:
            raise HcError(
                f"field '{name}' does not apply to {ruleset} {command}: it rolls no dice",
                f"leave out '{name}'",
            )
        if option is None:
            close = difflib.get_close_matches(name, list(options), n=1)
            raise HcError(
                f"field '{name}' is not an option of {ruleset} {command}",
                f"did you mean '{close[0]}'?" if close else "fields: " + ", ".join(sorted(options)),
            )
        if value is None:
            continue
        value = _value(option, value)
        if name in BATCH_COMMON:
            common[name] = value
        else:
            flags[name] = value
    call = Call(
        command=command,
        ruleset=ruleset,
        flags=flags,
        seed=common.get("seed"),
        dice=common.get("dice"),
        odds=bool(common.get("odds")),
        rules=tuple(common.get("rules") or ()),
        exact=bool(common.get("exact")),
    )
    return call, set(flags)

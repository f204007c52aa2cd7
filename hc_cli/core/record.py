"""Records: the part of `dataclasses` hc uses, at a fraction of its start-up cost.

`dataclasses` imports `inspect` (and with it `ast`, `dis`, `tokenize`) and compiles every
generated method of every class on its own; the ~26 classes a resolving command declares cost
more start-up than the rules themselves. A record gets the same methods from one compiled
source per class: `__init__` (fields in order, base classes' first; defaults; `field(
default_factory=...)`), `__repr__`, `__eq__` (same class, fields equal), and with `frozen=True`
a `__hash__` of the fields and no assignment after `__init__`; a mutable record is unhashable,
as a dataclass is. `replace(record, **changes)` is `dataclasses.replace`.
"""

from __future__ import annotations

_MISSING = object()

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType
    from typing import TypeVar

    _F = TypeVar("_F")


def _compiled(source: str) -> CodeType:
    return compile(source, "<record>", "exec")


class FrozenInstanceError(AttributeError):
    """A field of a frozen record was assigned or deleted."""


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: object) -> None:
        self.make = make


def field(*, default_factory: Callable[[], _F]) -> _F:
    """A field whose default is made afresh for every record (a list, a dict)."""
    return _Factory(default_factory)  # type: ignore[return-value]


def _shared_methods(cls: type, names: tuple[str, ...], frozen: bool) -> dict:
    """`__repr__`, `__eq__` and (frozen) `__hash__`, `__setattr__`, `__delattr__`: plain
    closures over the field names, compiled once with this module. Only `__init__` is compiled
    for each class (its arguments are the fields'): compiling every method of every class
    cost a command 12 ms."""
    from operator import attrgetter

    values: Callable[[object], tuple] = (
        attrgetter(*names)
        if len(names) > 1
        else (lambda obj: (getattr(obj, names[0]),))
        if names
        else (lambda obj: ())
    )

    def __repr__(self: object) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{self.__class__.__qualname__}({shown})"

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    made: dict[str, object] = {"__repr__": __repr__, "__eq__": __eq__}
    if not frozen:
        made["__hash__"] = None
        return made
    fields = frozenset(names)

    def __hash__(self: object) -> int:
        return hash(values(self))

    def __setattr__(self: object, name: str, value: object) -> None:
        if type(self) is cls or name in fields:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in fields:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    made.update(__hash__=__hash__, __setattr__=__setattr__, __delattr__=__delattr__)
    return made


def _methods(cls: type, names: list[str], frozen: bool, defaults: dict[str, object]) -> dict:
    params: list[str] = []
    body: list[str] = []
    scope: dict[str, Any] = {"_set": object.__setattr__, "_cls": cls}
    for name in names:
        default = defaults.get(name, _MISSING)
        if isinstance(default, _Factory):
            scope[f"_make_{name}"] = default.make
            scope["_FACTORY"] = _Factory
            params.append(f"{name}=_FACTORY")
            value = f"_make_{name}() if {name} is _FACTORY else {name}"
        elif default is not _MISSING:
            scope[f"_default_{name}"] = default
            params.append(f"{name}=_default_{name}")
            value = name
        else:
            params.append(name)
            value = name
        body.append(f"_set(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
    lines = [
        f"def __init__(self, {', '.join(params)}):" if params else "def __init__(self):",
        *(f"    {line}" for line in body or ["pass"]),
    ]

    def __init__(self: object, *args: object, **kwargs: object) -> None:
        """The record's own `__init__`, compiled when the first record of the class is made:
        most record classes a command imports it never makes (compiling each at import cost
        a command 4 ms), then put in place of this one."""
        exec(_compiled("\n".join(lines)), scope)  # noqa: S102 - source built from field names
        real = scope["__init__"]
        real.__qualname__ = f"{cls.__qualname__}.__init__"
        cls.__init__ = real  # type: ignore[misc]
        real(self, *args, **kwargs)

    return {"__init__": __init__, **_shared_methods(cls, tuple(names), frozen)}


if TYPE_CHECKING:
    from typing import Any, dataclass_transform, overload

    _T = TypeVar("_T")

    @overload
    def record(cls: type[_T], *, frozen: bool = False) -> type[_T]: ...
    @overload
    def record(cls: None = None, *, frozen: bool = False) -> Any: ...
    @dataclass_transform(field_specifiers=(field,))
    def record(cls: Any = None, *, frozen: bool = False) -> Any: ...


def record(cls: type | None = None, *, frozen: bool = False):  # type: ignore[no-redef]
    """Make `cls` a record of its annotated fields (see the module's text). A type checker
    reads it as a dataclass (`dataclass_transform`)."""

    def make(cls: type) -> type:
        inherited: dict[str, object] = dict(getattr(cls, "__record_fields__", {}))
        for name in cls.__dict__.get("__annotations__", {}):
            inherited[name] = cls.__dict__.get(name, _MISSING)
            if isinstance(inherited[name], _Factory):
                delattr(cls, name)
        names = list(inherited)
        defaults = {n: d for n, d in inherited.items() if d is not _MISSING}
        for key, method in _methods(cls, names, frozen, defaults).items():
            if key in cls.__dict__ and key != "__hash__":
                continue  # the class's own method stays, as with a dataclass
            if method is not None:
                method.__qualname__ = f"{cls.__qualname__}.{key}"
            setattr(cls, key, method)
        cls.__record_fields__ = inherited  # type: ignore[attr-defined]
        return cls

    return make if cls is None else make(cls)


def replace(obj: _F, **changes: object) -> _F:
    """A copy of a record with some fields changed."""
    values = {name: getattr(obj, name) for name in obj.__record_fields__}  # type: ignore[attr-defined]
    values.update(changes)
    return obj.__class__(**values)

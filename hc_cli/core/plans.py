"""Plans kept between rolls: a request's lookups and checks (its plan) worked out once for as
long as the same tables serve it. `hc batch` resolves thousands of lines alike but for their
seed; each would otherwise plan anew. Plans hold a `Resolution` to fill: callers take a
`fresh()` copy of it, never the kept one."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

Tables = TypeVar("Tables")
Request = TypeVar("Request", bound=Hashable)
Plan = TypeVar("Plan")

_PLANS: dict[tuple[int, object, object], tuple[object, object]] = {}
MOST = 256  # plans kept at once: a batch of many shapes plans again, bounded in memory


def planned(tables: Tables, request: Request, plan: Callable[[Tables, Request], Plan]) -> Plan:
    """`plan(tables, request)`, once for each request, plan and tables (matched by identity:
    house rules read anew are other tables)."""
    key = (id(tables), plan, request)
    found = _PLANS.get(key)
    if found is None or found[0] is not tables:
        if len(_PLANS) >= MOST:
            _PLANS.clear()
        found = _PLANS[key] = (tables, plan(tables, request))
    return found[1]  # type: ignore[return-value]  # kept under `plan` itself: its own result

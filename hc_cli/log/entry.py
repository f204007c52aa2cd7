"""The entry a log or a game file stores of a resolution, and what `--json` and `hc batch`
print of it: its headline (the result in one line), then everything `Resolution.to_dict`
says. The game file hashes each entry's bytes, so what is written here is the file's format:
renderers read it, they do not build it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hc_cli.core.model import Resolution
from hc_cli.core.words import count
from hc_cli.plugin.declare import with_unit

if TYPE_CHECKING:  # fractions are imported where odds are shown, not for a plain roll
    from fractions import Fraction


def as_dict(res: Resolution) -> dict[str, Any]:
    """What `--json`, `hc batch` and the log say of a resolution: its headline, then all."""
    return res.to_dict(headline(res))


def percent(p: Fraction | float) -> str:
    """A probability as a percentage in 7 columns; an impossible one is a plain 0."""
    return f"{float(p) * 100:6.2f}%" if p else f"{'0':>7}"


def value_text(v: Any, units: dict[str, str] | None = None, key: str = "") -> str:
    """A value as printed; a number whose name carries a unit gets the unit's mark."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)):
        return with_unit(v, (units or {}).get(key))
    if isinstance(v, list):
        return ", ".join(value_text(x, units, key) for x in v) or "none"
    if isinstance(v, dict):
        within = units or {}
        said = (f"{k} {value_text(x, units, f'{key}.{k}' if f'{key}.{k}' in within else key)}"
                for k, x in v.items())  # fmt: skip
        return ", ".join(said) or "none"
    return str(v)


def headline(res: Resolution) -> str:
    """The result in one line, the first thing the eye finds: what happened, with the number
    that decided it."""
    if res.headline:
        return res.headline
    if res.odds is not None:
        return odds_headline(res)
    f, outcome = res.fields, res.outcome
    summary = res.summary or {}
    if "kills" in summary:
        hits_only = summary["hits_no_kill"]
        return f"{count(summary['kills'], 'kill')} of {count(summary['shots'], 'shot')}" + (
            f"; {count(hits_only, 'hit')} that cannot kill" if hits_only else ""
        )
    if "casualties" in summary:
        wounds = summary.get("wounds_taken", summary["wounds"])  # those that took
        line = (
            f"{count(summary['casualties'], 'casualty')} of "
            f"{count(summary['shots'], 'shot')}; "
            + (count(wounds, "wound") + " caused" if wounds else "no wounds caused")
        )
        if "targets_reached" in summary:
            line += f"; following fire reached {count(summary['targets_reached'], 'target')}"
        return line
    if res.command == "roll" and "total" in f:
        return f"total {f['total']}"
    if f.get("order"):
        first = f["order"][0]
        role = first.get("role", "Player")
        return f"{first['name']} acts first" + (
            f" ({role} A); {f['order'][1]['name']} is {role} B" if first.get("player") else ""
        )
    if outcome == "deviated" and "distance" in f:
        distance = value_text(f["distance"], res.units, "distance")
        return f"deviates {distance} toward {f['direction']}"
    if outcome == "on-target":
        return "on target: no deviation"
    if "attacker_total" in f:
        totals = f"attacker {f['attacker_total']}, defender {f['defender_total']}"
        return ("a draw" if outcome == "draw" else f"the {outcome} wins") + f": {totals}"
    if "hits" in f and isinstance(f.get("dice"), int):
        line = f"{count(f['hits'], 'hit')} of {count(f['dice'], 'die')}"
        if f.get("zone_hits"):
            line += "; zone: " + ", ".join(f"{n} {h}" for n, h in f["zone_hits"].items())
        return line
    if outcome and res.rolls:
        first = res.rolls[0]
        need = next(
            (
                f", needs {f[k]}" + (" or less" if k in ("chance", "hit_number") else "")
                for k in ("chance", "needed_to_hit", "hit_number", "needed")
                if f.get(k) is not None
            ),
            "",
        )
        if "total" in f and "needed" in f:
            return f"{outcome}: total {f['total']}, needs {f['needed']}"
        landed = "; ".join(
            e["location"] + (f" {e['damage']} damage" if e["damage"] is not None else "")
            for e in f.get("hit_effects", [])
        )
        said = outcome
        if outcome == "hit" and f.get("penetration") is not None and f.get("defence") is not None:
            said = "hit, cannot kill"  # penetration short of the DF (High Crusade)
        return f"{said}: {first.die} {first.value}{need}" + (f"; {landed}" if landed else "")
    if outcome:
        return outcome
    if res.command == "move" and "move" in f:
        return f"moves {value_text(f['move'], res.units, 'move')}"
    return f"hc {res.command}"


SINGULAR = {"casualties": "casualty", "kills": "kill", "hits": "hit", "wounds": "wound"}


def odds_headline(res: Resolution) -> str:
    """The likeliest outcomes; for a volley (its outcomes a shot's), first the chance of at
    least one of what it counts, and the mean."""
    from hc_cli.core.odds import mean

    assert res.odds is not None
    ranked = sorted(((k, p) for k, p in res.odds.outcomes.items() if p), key=lambda kv: -kv[1])
    parts = [f"{k} {percent(p).strip()}" for k, p in ranked[:3]]
    for name, dist in list(res.odds.distributions.items())[:1]:
        if all(isinstance(k, int) for k in dist):
            average = f"mean {name} {float(mean(dist)):.2f}"
            if res.fields.get("odds_per") == "shot" and name in SINGULAR and 0 in dist:
                some = f"at least one {SINGULAR[name]} {percent(1 - dist[0]).strip()}"
                return f"odds: {some}, {average}; a shot: {parts[0]}"
            parts.append(average)
    return "odds: " + ", ".join(parts)

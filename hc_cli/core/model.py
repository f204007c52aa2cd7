"""What a resolver returns: one `Resolution`, the only thing renderers read.

Resolvers fill it; the rich breakdown, the plain text and the JSON are all drawn from it, so
the three can never tell different stories.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from hc_cli.core.dice import Roll

if TYPE_CHECKING:
    from fractions import Fraction

    class Sourced(Protocol):
        """A table's entry, as `hc_cli.tables.entries.Entry` tells where its figures are from."""

        def source_of(self, name: str) -> str: ...
        def house_file(self, name: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Modifier:
    """One signed adjustment, with what it adjusts and where its number came from."""

    name: str
    value: int
    applies_to: str
    source: str
    side: str | None = None  # in contests (melee, initiative): whose total it changes

    def to_dict(self) -> dict[str, str | int]:
        d: dict[str, str | int] = {
            "name": self.name,
            "value": self.value,
            "applies_to": self.applies_to,
            "source": self.source,
        }
        if self.side:
            d["side"] = self.side
        return d


@dataclass(slots=True)
class Odds:
    """Exact probabilities: per outcome, and optionally whole distributions (kills of N shots)."""

    outcomes: dict[str, Fraction]
    distributions: Mapping[str, Mapping[Any, Fraction]] = field(default_factory=dict)
    every_exact: bool = False  # --exact: write every count's exact values, however long
    # What a rule set reads beside the odds (Twilight: 2000: the mean damage, and the damage
    # where no hit killed outright, for hc compare); not written out.
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The odds as JSON: floats, and the exact fractions as text. A count's exact values
        over a denominator past 4,096 bits (thousands of shots) are written only with
        --exact: N values of N digits each grow with the square of N."""
        from hc_cli.core.odds import (
            as_floats,
            as_fractions,
            at_least,
            at_least_floats,
            exact_is_long,
            mean,
        )

        d: dict[str, Any] = {
            "odds": as_floats(self.outcomes),
            "odds_exact": as_fractions(self.outcomes),
        }
        if self.distributions:
            written = {
                k: v
                for k, v in self.distributions.items()
                if self.every_exact or not exact_is_long(v)
            }
            d["distributions"] = {k: as_floats(v) for k, v in self.distributions.items()}
            d["distributions_exact"] = {k: as_fractions(v) for k, v in written.items()}
            numeric = {
                k: v for k, v in self.distributions.items() if all(isinstance(n, int) for n in v)
            }
            d["at_least"] = {
                k: {str(n): p for n, p in at_least_floats(v).items()} for k, v in numeric.items()
            }
            d["at_least_exact"] = {
                k: as_fractions(at_least(v)) for k, v in numeric.items() if k in written
            }
            d["means"] = {k: float(mean(v)) for k, v in numeric.items()}
            if len(written) < len(self.distributions):
                d["exact_omitted"] = [k for k in self.distributions if k not in written]
        return d


@dataclass(slots=True)
class Resolution:
    command: str
    ruleset: str
    inputs: dict[str, Any]
    modifiers: list[Modifier] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    outcome: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)  # chance, penetration, total, needed...
    explanation: list[str] = field(default_factory=list)  # plain sentences: why this outcome
    sample_values: list[str] = field(default_factory=list)  # figures not from the book
    shots: list[Resolution] = field(default_factory=list)
    summary: dict[str, Any] | None = None
    odds: Odds | None = None
    seed: int | None = None
    label: str = ""  # a shot's or a target's name within a larger resolution
    units: dict[str, str] = field(default_factory=dict)  # input or field name -> unit
    headline: str = ""  # the result in one line, where the resolver words it itself
    book: str = ""  # what the rule set's source tags ("seed 003") are called in words
    readings: list[str] = field(default_factory=list)  # readings of unclear text that decided it
    house_values: list[str] = field(default_factory=list)  # figures a house-rules file set
    house_rules: list[str] = field(default_factory=list)  # the house-rules files in force

    def absorb(self, step: Resolution, outcome: bool = True) -> None:
        """Take in what a dice step (a shot, a deviation roll) rolled, found and said."""
        self.rolls.extend(step.rolls)
        if outcome:
            self.outcome = step.outcome
            self.headline = step.headline or self.headline
        self.fields.update(step.fields)
        self.explanation.extend(step.explanation)
        self.readings.extend(r for r in step.readings if r not in self.readings)

    def fresh(self) -> Resolution:
        """A copy to fill: the same planned inputs and findings in containers of its own, so a
        plan worked out once can serve many rolls."""
        return Resolution(
            self.command,
            self.ruleset,
            dict(self.inputs),
            list(self.modifiers),
            list(self.rolls),
            self.outcome,
            dict(self.fields),
            list(self.explanation),
            list(self.sample_values),
            list(self.shots),
            None if self.summary is None else dict(self.summary),
            self.odds,
            self.seed,
            self.label,
            dict(self.units),
            self.headline,
            self.book,
            list(self.readings),
            list(self.house_values),
            list(self.house_rules),
        )

    def all_readings(self) -> list[str]:
        """The readings that decided this resolution or any shot of it, each once."""
        found = list(self.readings)
        for shot in self.shots:
            found += [r for r in shot.all_readings() if r not in found]
        return found

    def mark_sample(self, what: str) -> None:
        if what not in self.sample_values:
            self.sample_values.append(what)

    def note_source(self, entry: Sourced, field: str, what: str) -> None:
        """Say where a table's figure that decides the result came from, where it is not the
        book: a sample number (not the book's), or a house-rules file's ("house.yaml: ...")."""
        source = entry.source_of(field)
        if source == "sample":
            self.mark_sample(what)
        elif entry.house_file(field):
            note = f"{what} ({entry.house_file(field)})"
            if note not in self.house_values:
                self.house_values.append(note)

    def to_dict(self, headline: str | None = None) -> dict[str, Any]:
        """The resolution as JSON sees it; `headline` (worded by the renderer) goes first."""
        d: dict[str, Any] = {} if headline is None else {"headline": headline}
        d["command"], d["ruleset"], d["seed"] = self.command, self.ruleset, self.seed
        if self.label:
            d["label"] = self.label
        d["inputs"] = self.inputs
        d["modifiers"] = [m.to_dict() for m in self.modifiers]
        d["rolls"] = [r.to_dict() for r in self.rolls]
        if self.outcome is not None:
            d["outcome"] = self.outcome
        d.update(self.fields)
        if self.shots:
            d["shots"] = [_shot_dict(s) for s in self.shots]
        if self.summary is not None:
            d["summary"] = self.summary
        if self.odds is not None:
            d.update(self.odds.to_dict())
        d["explanation"] = self.explanation
        d["sample_values"] = self.sample_values
        if self.house_rules:
            d["house_rules"] = self.house_rules
            d["house_values"] = self.house_values
        readings = self.all_readings()
        if readings:
            d["readings"] = readings
        if self.units:
            d["units"] = self.units
        return d


def _shot_dict(shot: Resolution) -> dict[str, Any]:
    d = shot.to_dict()
    for repeated in ("command", "ruleset", "seed", "inputs", "sample_values", "units"):
        d.pop(repeated, None)
    return d

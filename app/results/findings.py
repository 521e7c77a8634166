"""What an experiment derives from its results, as a typed value (docs/architecture.md, "The one
currency"): each experiment module declares a frozen dataclass of its findings (a knee, a cache
exhaustion point...) that its tables, figures and sentences read by attribute, and whose
``to_json`` is the experiment's entry ``findings`` in run.json's summary."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class Findings(Protocol):
    """Anything an experiment's ``findings`` returns: it only has to say its run.json form."""

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class NoFindings:
    """An experiment that derives nothing beyond its workload rows (run.json: ``{}``)."""

    def to_json(self) -> dict[str, Any]:
        return {}


NO_FINDINGS = NoFindings()


@dataclass(frozen=True)
class Headline:
    """The one result of an experiment a grader looks for first, for the report's summary
    table (docs/report.md): what it is, its value already formatted with ± (app/units.py),
    and the repetitions it rests on."""

    what: str           # "4 KiB random read, mean latency (µs, total)"
    value: str          # "71.7 ± 3.6 µs"
    n: int | None = None

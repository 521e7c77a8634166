"""Which interpretation belongs under which experiment's section: one prose path, the
experiment's id to the mechanism readers of this package."""
from __future__ import annotations

from collections.abc import Callable

from app.report.interpretation.asymmetry import asymmetry_reading
from app.report.interpretation.cache import cache_reading
from app.report.interpretation.knee import knee_reading
from app.report.interpretation.tails import tail_reading
from app.report.interpretation.throughput import block_size_reading
from app.results.run_results import RunResults

READERS: dict[str, Callable[[RunResults], list[str]]] = {
    "zero-queue": lambda r: asymmetry_reading(r, "zero-queue"),
    "block-size": block_size_reading,
    "rw-mix": lambda r: asymmetry_reading(r, "rw-mix"),
    "queue-depth": knee_reading,
    "tail-latency": tail_reading,
    "slc-cache": cache_reading,
}


def interpretation(eid: str, results: RunResults) -> list[str]:
    """The mechanism-level sentences of one experiment ([] for one without a reader)."""
    reader = READERS.get(eid)
    return reader(results) if reader else []

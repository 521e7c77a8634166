"""The steady rate of one of the app's own fio trials, from its status documents
(docs/precision.md, "Counting after the ramp").

Why not fio's final numbers: fio's runtime runs from the ramp's end (``reset_all_stats``
zeroes the counters and the clock with a queue in flight) to the end of ``do_io()``, which
first waits for the I/Os still in flight (the drain) and ``end_fsync``. Its ``iops`` counts the
I/Os *issued* in that time, its bytes the ones *completed*; at QD 256 on a slow device the two
differ by a queue, and the drain's length (its last I/Os no longer keep the device busy)
decides which is nearer the device's rate (app/engines/fio/completed.py).

The status documents (``--status-interval``, cumulative since the ramp's end) give the rate
without the drain: fio takes a document's clock and its byte counts at the same moment (its
completion counts later, once the job thread answers, up to one I/O's time later on a slow
device: so bytes, not counts). The rate is a direction's bytes between two documents over the
runtime between them: the first after the ramp's end and the last before the drain, the last
interim one (the final document is the whole job) whose runtime is within the configured one
(later ones are the drain's). Not from the ramp's end itself: fio restarts its counters at the
first completion after ``ramp_time``, so a throttle's batch that completes then (12 I/Os of a
100-ms slice at 120 IOPS) would count in a window that began inside it. A document is after
the ramp's end when its origin (its wall time less its runtime: when fio's clock started)
lies past the job's first origin by half the ramp or more. IOPS is that rate over the mean
I/O size (the final document's bytes over its completions), so IOPS x block size = MB/s, both
counting the same I/Os over the same time. Without two such documents at least
:data:`MIN_SHARE` of the runtime apart, fio's bandwidth stands and IOPS is its completions
over its runtime, which count the same I/Os too.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engines.fio.completed import completed_count
from app.engines.fio.last_document import last_document
from app.engines.fio.live import DocumentStream
from app.engines.fio.result import split_documents
from app.engines.fio.status_count import DIRECTIONS, StatusCount
from app.units import UnitError, bytes_per_s_to_MBps, bytes_per_s_to_MiBps, parse_duration

#: The two status documents must lie at least this share of the runtime apart.
MIN_SHARE = 0.5


def _option_ms(final: dict[str, Any], name: str) -> float | None:
    jobs = final.get("jobs") or []
    options = {**(final.get("global options") or {}), **((jobs[0].get("job options") or {}) if jobs else {})}
    value = options.get(name)
    try:
        return parse_duration(str(value)) * 1000.0 if value is not None else None
    except UnitError:
        return None


def _after_ramp(interim: Sequence[StatusCount], ramp_ms: float | None) -> Sequence[StatusCount]:
    """The interim documents whose clock started at the ramp's end (all of them without a
    ramp, or without fio's wall time to tell)."""
    if not ramp_ms:
        return interim
    if any(c.timestamp_ms is None for c in interim):
        return []
    origins = [(c.timestamp_ms or 0.0) - c.runtime_ms for c in interim]
    first = min(origins, default=0.0)
    after = [c for c, origin in zip(interim, origins, strict=True) if origin >= first + ramp_ms / 2]
    return after or interim   # none past it: every document came after the ramp's end


def steady_span(final: dict[str, Any], counts: Sequence[StatusCount]) -> tuple[float, dict[str, float]] | None:
    """(runtime ms, {direction: bytes}) between the first document after the ramp's end and
    the last one before the drain, or None (too few, or too close together). ``counts``: every
    document's, the final one's last."""
    if len(counts) < 3:
        return None
    limit = _option_ms(final, "runtime")
    within = [c for c in _after_ramp(counts[:-1], _option_ms(final, "ramp_time"))
              if c.runtime_ms > 0 and (limit is None or c.runtime_ms <= limit)]
    if len(within) < 2:
        return None
    first, last = within[0], within[-1]
    if last.runtime_ms - first.runtime_ms < MIN_SHARE * (limit or counts[-1].runtime_ms) \
            or any(last.done[d] < first.done[d] for d in DIRECTIONS):
        return None
    return last.runtime_ms - first.runtime_ms, {d: last.done[d] - first.done[d] for d in DIRECTIONS}


def steady_direction(side: dict[str, Any], final_d: dict[str, Any], span: tuple[float, float] | None) -> None:
    """Replace one parsed direction's rates by the steady ones (``span``: runtime ms and bytes
    between the two documents; None: fio's bandwidth and completions)."""
    completed = completed_count(final_d)
    if not completed or not side.get("io_bytes"):
        return
    size = side["io_bytes"] / completed
    if span is not None:
        bytes_per_s, side["steady_ms"] = span[1] * 1000.0 / span[0], span[0]
    else:
        bytes_per_s = side["MBps"] * 1e6
    side["MBps"], side["MiBps"] = bytes_per_s_to_MBps(bytes_per_s), bytes_per_s_to_MiBps(bytes_per_s)
    side["iops"] = bytes_per_s / size


def with_runtime_rates(measurement: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    """``measurement`` (parsed from fio's final entry ``job``) with fio's bandwidth and its
    completions over its runtime: what a remote trial counts, whose client holds its status
    entries back without the wall time that tells the ramp's end (the same I/Os over the
    same time, its drain included)."""
    return _replaced(measurement, job, None)


def with_steady_rates(measurement: dict[str, Any], text: str,
                      seen: Sequence[StatusCount] | None = None) -> dict[str, Any]:
    """``measurement`` (one job of the app's own trial, parsed from ``text``) with its IOPS and
    MB/s the steady rate; latencies, bytes and runtime stay fio's. ``seen``: the counts of the
    documents the live stream parsed; used when they are those of ``text`` (as many documents,
    the last one the final document's), else the documents are parsed from ``text`` again."""
    if measurement.get("status") == "failed":
        return measurement
    final, counts = _seen_counts(text, seen) if seen else (None, None)
    if final is None or counts is None:
        docs = [d for d in DocumentStream().feed(text) or split_documents(text)
                if "jobs" in d or "client_stats" in d]   # (the stream wants fio's line breaks)
        if not docs:
            return measurement
        final, counts = docs[-1], [StatusCount.of(d) for d in docs]
    jobs = final.get("jobs") or final.get("client_stats") or []
    if len(jobs) != 1:
        return measurement
    return _replaced(measurement, jobs[0], steady_span(final, counts))


def _seen_counts(text: str, seen: Sequence[StatusCount]) -> tuple[dict[str, Any] | None,
                                                                    Sequence[StatusCount] | None]:
    """(the final document, ``seen``) when ``seen`` counts every document of ``text`` (each one
    ends with fio's closing line, a "}" at a line start: fio indents every inner one), else
    (None, None)."""
    final = last_document(text, ("jobs", "client_stats"))
    if final is None or text.count("\n}") != len(seen):
        return None, None
    try:
        same = StatusCount.of(final) == seen[-1]
    except (TypeError, ValueError):
        return None, None
    return (final, seen) if same else (None, None)


def _replaced(measurement: dict[str, Any], job: dict[str, Any],
              found: tuple[float, dict[str, float]] | None) -> dict[str, Any]:
    if measurement.get("status") == "failed":
        return measurement
    parts = []
    for direction in DIRECTIONS:
        side = measurement.get(direction)
        if side is None:
            continue
        span = (found[0], found[1][direction]) if found and found[1][direction] > 0 else None
        steady_direction(side, job.get(direction) or {}, span)
        side.pop("issued_completed", None)   # the rates now count the same I/Os
        parts.append(side)
    if parts and measurement.get("total") is not None:
        measurement["total"] = {"iops": sum(s["iops"] for s in parts),
                                "MBps": sum(s["MBps"] for s in parts)}
    return measurement

"""Live fio output: concatenated cumulative JSON documents -> per-interval values.

fio's ``--status-interval`` documents are cumulative since the job started (HOWTO: "does *not*
provide per-period measurements"), so an interval's values are differences of two documents:
throughput = Δio_bytes / Δruntime, IOPS = ΔN / Δruntime, mean latency =
(b.mean·b.N − a.mean·a.N) / (b.N − a.N), where N is the latency's sample count: the I/Os
*completed*, as the bytes are. Not ``total_ios``: fio counts those when *issued*, and while it
completes its queue at the end (or after a graceful stop) it issues none, so a 256-deep queue
at 120 IOPS read 0 IOPS for two intervals beside 0.49 MB/s (app/engines/fio/completed.py and
steady.py say the same of the final numbers). Any counter going down is a reset (end of
``ramp_time``, a new group) and starts a new baseline. The final document can follow the last interim one by a
few ms; an interval under 100 ms is treated as that duplicate and dropped.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import ge
from typing import Any

import orjson

from app.engines.fio.status_count import StatusCount
from app.model.interval import Interval
from app.stats.histogram import PLAT_NR, enough_ios, idx_to_val, val_to_idx
from app.units import MB

MIN_INTERVAL_S = 0.1
#: The most status documents a trial's live stream counts for its steady rate: more than the
#: 1 MiB of output a trial keeps can hold (jobs/engine/process.py), so past it the final parse
#: reads what was kept, as it would anyway.
MOST_COUNTS = 4096


class DocumentStream:
    """Feed stdout text in chunks; get complete JSON documents back, skipping fio's text notes."""

    def __init__(self) -> None:
        self._decoder = json.JSONDecoder(strict=False)  # fio copies a newline in a path raw
        self._buffer = ""

    def feed(self, chunk: str) -> list[dict[str, Any]]:
        self._buffer += chunk
        docs: list[dict[str, Any]] = []
        while (start := self._buffer.find("{")) >= 0:
            close = self._buffer.find("\n}", start)   # fio's closing line, if it came yet
            if self._at_line_start(start) and close < 0:
                self._buffer = self._buffer[start:]  # no closing line yet: decoding would fail
                return docs
            try:
                doc, end = self._decode(start, close)
            except json.JSONDecodeError:
                if self._complete_but_broken(start):
                    self._buffer = self._buffer[start + 1:]
                    continue
                self._buffer = self._buffer[start:]  # incomplete: wait for more text
                return docs
            if isinstance(doc, dict):
                docs.append(doc)
            self._buffer = self._buffer[end:]
        self._buffer = ""
        return docs

    def _decode(self, start: int, close: int) -> tuple[object, int]:
        """The document at ``start`` and the index after it: orjson over the text up to fio's
        closing line (fio indents every other closing brace), a few times faster than the
        stdlib at ten documents a second; else the stdlib decoder, which also takes a raw
        newline inside a string (fio copies one from a path) and says where a document ends."""
        if close >= 0:
            try:
                return orjson.loads(self._buffer[start:close + 2]), close + 2
            except orjson.JSONDecodeError:
                pass
        return self._decoder.raw_decode(self._buffer, start)

    def _complete_but_broken(self, start: int) -> bool:
        """A '{' inside a text line (not a document start) would stall the stream forever.
        Documents start at a line start and fio indents its closing brace, so a '{' that is not
        at a line start, or a buffer holding a closing '}' line that still fails, is skipped."""
        return not self._at_line_start(start) or self._buffer.find("\n}", start) >= 0

    def _at_line_start(self, start: int) -> bool:
        return start == 0 or self._buffer[start - 1] == "\n"


@dataclass(frozen=True)
class _Totals:
    runtime_ms: float
    # direction -> (io_bytes, total_ios, lat_sum_ns, lat_n)
    counters: dict[str, tuple[float, float, float, float]]
    # direction -> cumulative json+ bins {key: count}
    hists: dict[str, dict[str, int]] = field(default_factory=dict)


def _lat_object(d: dict[str, Any]) -> dict[str, Any]:
    return d.get("lat_ns") or d.get("clat_ns") or {}


_BUCKET_OF: dict[str, int] = {}   # fio's bin key (its bucket's midpoint, ns) -> bucket index
_KEYS_KEPT = 4 * PLAT_NR           # fio has PLAT_NR keys; a damaged stream does not grow this


def _bucket_of(key: str) -> int:
    """The bucket fio's bin ``key`` is counted in (fio's own rule, :func:`val_to_idx`, as
    :meth:`Histogram.from_bins` counts it); ValueError, one line, for a key that is not a
    latency. A dict look-up for a key seen before: the keys repeat in every document."""
    i = _BUCKET_OF.get(key)
    if i is None:
        try:
            value = int(key)
        except (TypeError, ValueError):
            raise ValueError(f"a latency histogram (hist_ns) is damaged: bin {key!r:.40}") from None
        if value < 0:
            raise ValueError("a latency histogram (hist_ns) is damaged: a negative latency")
        i = val_to_idx(value)
        if len(_BUCKET_OF) < _KEYS_KEPT:
            _BUCKET_OF[key] = i
    return i


def _bins_total(lists: list[dict[str, int]]) -> dict[str, int]:
    """A direction's cumulative json+ bins by fio's key (its bucket's midpoint, ns): one job's
    dict as fio wrote it, or the jobs' counts added key by key; each new key checked to be a
    latency (ValueError, one line) and given its bucket once (:func:`_bucket_of`).

    Why not counted into buckets: at a 0.1 s interval that is ten documents a second with ~500
    bins per direction, and a Python step per bin was most of a document's cost; fio's keys are
    its buckets' midpoints, one key per bucket, so they order and difference as buckets do."""
    if not lists:
        return {}
    total = lists[0]
    if len(lists) > 1:
        total = dict(total)
        for bins in lists[1:]:
            for key, count in bins.items():
                total[key] = total.get(key, 0) + count
    for key in total.keys() - _BUCKET_OF.keys():
        _bucket_of(key)
    return total


def _totals(doc: dict[str, Any]) -> _Totals:
    jobs = doc.get("jobs") or doc.get("client_stats") or []
    runtime_ms = 0.0
    counters: dict[str, tuple[float, float, float, float]] = {}
    hists: dict[str, dict[str, int]] = {}
    for direction in ("read", "write"):
        io = ios = lat_sum = lat_n = 0.0
        bins: list[dict[str, int]] = []
        for job in jobs:
            d = job.get(direction) or {}
            io += d.get("io_bytes", 0)
            ios += d.get("total_ios", 0)
            lat = _lat_object(d)
            n = lat.get("N", d.get("total_ios", 0)) or 0
            lat_sum += lat.get("mean", 0.0) * n
            lat_n += n
            runtime_ms = max(runtime_ms, d.get("runtime", 0) or 0)
            if lat.get("bins"):
                bins.append(lat["bins"])
        counters[direction] = (io, ios, lat_sum, lat_n)
        hists[direction] = _bins_total(bins)
    return _Totals(runtime_ms, counters, hists)


_ORDERS: dict[frozenset[str], list[str]] = {}   # a histogram's keys -> its buckets, slowest first
_ORDERS_KEPT = 64


def _slowest_first(bins: dict[str, int], bucket: Callable[[str], int]) -> list[str]:
    """``bins``' keys, slowest bucket first. Sorted once per set of keys: a trial's documents
    mostly repeat the last one's (a new bucket now and then), and sorting ~500 keys by a Python
    key function was half of what splitting a document cost."""
    keys = frozenset(bins)
    order = _ORDERS.get(keys)
    if order is None:
        if len(_ORDERS) >= _ORDERS_KEPT:
            _ORDERS.clear()
        order = _ORDERS[keys] = sorted(keys, key=bucket, reverse=True)
    return order


def _interval_p99(now: _Totals, prev: _Totals, direction: str) -> float | None:
    """p99 (µs) of the I/Os completed in this interval: the difference of two cumulative
    histograms (fio's percentile rule, :meth:`Histogram.percentile`); None without json+ bins,
    when a bucket's count went down (fio restarted the job) or with too few I/Os to claim a
    p99. Why walked from the slowest bucket down: the p99 lies in the last 1 % of the I/Os, so
    a few buckets are read instead of every one of ~500 per direction, ten times a second."""
    later, earlier = now.hists.get(direction), prev.hists.get(direction, {})
    if not later or not earlier.keys() <= later.keys():
        return None
    if not all(map(ge, map(later.__getitem__, earlier), earlier.values())):
        return None
    total = sum(later.values()) - sum(earlier.values())
    if not enough_ios(total, 99.0):
        return None
    bucket = _BUCKET_OF.__getitem__ if len(_BUCKET_OF) < _KEYS_KEPT else _bucket_of
    rank, above, found = 0.99 * total, 0, None   # rank: p / 100 x N, as Histogram.percentile
    for key in _slowest_first(later, bucket):
        count = later[key] - earlier.get(key, 0)
        if count <= 0:
            continue
        if total - above < rank:   # the running count from the fastest I/O, up to this bucket
            break
        found, above = key, above + count
    return idx_to_val(bucket(found)) / 1000.0 if found is not None else None


class IntervalSplitter:
    """Turns the cumulative documents of one fio process into :class:`Interval` values."""

    def __init__(self) -> None:
        self._last: _Totals | None = None

    def update(self, doc: dict[str, Any]) -> Interval | None:
        """The interval since the last document, or None (the first, a reset, a duplicate).
        A document whose values are not numbers where fio writes numbers is one ValueError line
        (a remote fio server's output is read as it comes)."""
        try:
            return self._update(doc)
        except (TypeError, AttributeError) as exc:
            raise ValueError(f"a live fio status document is damaged: {exc}"[:200]) from None

    def _update(self, doc: dict[str, Any]) -> Interval | None:
        now = _totals(doc)
        prev = self._last or _Totals(0.0, {k: (0.0, 0.0, 0.0, 0.0) for k in now.counters})
        if self._is_reset(prev, now):
            self._last = now
            return None
        dt = (now.runtime_ms - prev.runtime_ms) / 1000.0
        if dt < MIN_INTERVAL_S:
            return None  # the final document right after the last interim one
        self._last = now
        values: dict[str, tuple[float, float, float | None]] = {}  # MB/s, IOPS, mean lat µs
        for direction, (io, _issued, lat_sum, lat_n) in now.counters.items():
            p_io, _, p_sum, p_n = prev.counters[direction]
            d_n = lat_n - p_n
            values[direction] = (
                max(0.0, io - p_io) / dt / MB,
                max(0.0, d_n) / dt,
                (lat_sum - p_sum) / d_n / 1000.0 if d_n > 0 and lat_sum > p_sum else None,
            )
        stamp = doc.get("timestamp_ms")
        (r_mbps, r_iops, r_lat), (w_mbps, w_iops, w_lat) = values["read"], values["write"]
        return Interval(end_epoch_s=stamp / 1000.0 if stamp else None, duration_s=dt,
                        read_MBps=r_mbps, read_iops=r_iops, read_lat_us=r_lat,
                        write_MBps=w_mbps, write_iops=w_iops, write_lat_us=w_lat,
                        read_p99_us=_interval_p99(now, prev, "read"),
                        write_p99_us=_interval_p99(now, prev, "write"))

    @staticmethod
    def _is_reset(prev: _Totals, now: _Totals) -> bool:
        if now.runtime_ms < prev.runtime_ms:
            return True
        return any(now.counters[k][i] < prev.counters[k][i] for k in now.counters for i in (0, 1))


class FioLive:
    """Live adapter for one trial (:class:`app.engines.base.LiveAdapter`): stdout text in,
    per-interval values out."""

    replaces_live_series = False  # fio's live series is its own status output: nothing better
    feed_every_s: float | None = None   # its status documents are the clock

    def __init__(self) -> None:
        self._docs = DocumentStream()
        self._splitter = IntervalSplitter()
        #: what the trial's steady rate needs of each document parsed (app/engines/fio/steady.py);
        #: None once one could not be counted (the final parse then reads them all again)
        self.counts: list[StatusCount] | None = []

    def feed(self, text: str) -> list[Interval]:
        out = []
        for doc in self._docs.feed(text):
            self._count(doc)
            interval = self._splitter.update(doc)
            if interval is not None:
                out.append(interval)
        return out

    def final_intervals(self, text: str) -> list[Interval] | None:
        return None

    def _count(self, doc: dict[str, Any]) -> None:
        if self.counts is None or not ("jobs" in doc or "client_stats" in doc):
            return
        if len(self.counts) >= MOST_COUNTS:   # a long trial: memory stays flat, and the output's
            self.counts = None                # kept tail no longer holds every document anyway
            return
        try:
            self.counts.append(StatusCount.of(doc))
        except (TypeError, ValueError):
            self.counts = None

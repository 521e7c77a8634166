"""Growing sample buffers for the live charts (pure numpy, no Qt).

Why not Python lists: a multi-hour run at 1 s intervals holds ~10^4..10^5 samples per series, and
every redraw hands whole arrays to pyqtgraph. A preallocated 2-D float array that doubles when
full appends in O(1) amortized and gives contiguous column views without copying.

Directions a trial does not exercise are stored as NaN, not 0, so a write trial does not draw a
flat "0 MB/s read" line; a NaN "break" row at each trial boundary keeps the lines of two trials
from being joined (the curves use ``connect='finite'``).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from app.model.percentiles import too_few

if TYPE_CHECKING:
    from jobs.events import Sample

COLUMNS = ("t_s", "read_MBps", "write_MBps", "read_iops", "write_iops",
           "read_lat_us", "write_lat_us", "read_p99_us", "write_p99_us", "temperature_c")
_INDEX = {name: i for i, name in enumerate(COLUMNS)}
NAN = math.nan


def _f(value: float | str | None) -> float:
    return NAN if value is None else float(value)


def sample_row(sample: Sample | Mapping[str, Any], reads: bool = True, writes: bool = True) -> tuple[float, ...]:
    """One chart row from a Sample (or a samples.csv dict): directions not run become NaN."""
    get: Callable[[str], Any] = sample.get if isinstance(sample, dict) else (lambda k: getattr(sample, k))
    r: Callable[[str], float] = (lambda k: _f(get(k))) if reads else (lambda k: NAN)
    w: Callable[[str], float] = (lambda k: _f(get(k))) if writes else (lambda k: NAN)
    return (float(get("t_s")), r("read_MBps"), w("write_MBps"), r("read_iops"), w("write_iops"),
            r("read_lat_us"), w("write_lat_us"), r("read_p99_us"), w("write_p99_us"),
            _f(get("temperature_c")))


def result_rows(measurement: Any, start_s: float, samples: int, runtime_s: float | None,
                reads: bool = True, writes: bool = True) -> list[tuple[float, ...]]:
    """Rows that draw a trial's final result when it gave fewer than two interval samples (a
    trial shorter than the status interval): a line needs two points, so such a trial showed
    nothing. Its result is drawn flat to its end, from its start (no sample) or its one sample;
    like a sample, only in the directions the trial runs (``reads``, ``writes``)."""
    if samples >= 2 or measurement is None:
        return []
    sides = {d: measurement.side(d) for d in ("read", "write")}
    seconds = max((s.runtime_ms or 0.0) for s in sides.values() if s) / 1000 if any(
        sides.values()) else 0.0
    seconds = seconds or runtime_s or 0.0
    if seconds <= 0:
        return []
    values: dict[str, Any] = {}
    for d, side in sides.items():
        # a p99 on fewer than 10 I/Os beyond it is not drawn (app/model/percentiles.py)
        ios = round(side.iops * seconds) if side and side.iops else None
        values.update({f"{d}_MBps": side and side.MBps, f"{d}_iops": side and side.iops,
                       f"{d}_lat_us": side and side.lat("mean"),
                       f"{d}_p99_us": None if too_few("p99", ios) else side and side.lat("p99")})
    ends = [start_s] * (samples == 0) + [start_s + seconds]
    return [sample_row({**values, "t_s": t}, reads, writes) for t in ends]


def break_row(t_s: float) -> tuple[float, ...]:
    return (float(t_s),) + (NAN,) * (len(COLUMNS) - 1)


class SampleSeries:
    """Columns of chart data; ``samples`` counts real samples (break rows excluded), ``results``
    the rows drawn from trials' final results (:func:`result_rows`), which are not samples."""

    def __init__(self, capacity: int = 4096):
        self._data = np.full((len(COLUMNS), max(16, capacity)), NAN)
        self._n = 0
        self.samples = 0
        self.results = 0
        self.has_temperature = False
        self.trial_row = 0            # the current trial's first row (after its break row)
        self._samples_before = 0      # real samples before the current trial's

    def __len__(self) -> int:
        return self._n

    def clear(self) -> None:
        self._data[:, :self._n] = NAN
        self._n = 0
        self.samples = 0
        self.results = 0
        self.has_temperature = False
        self.trial_row = self._samples_before = 0

    def _reserve(self, extra: int) -> None:
        need = self._n + extra
        if need <= self._data.shape[1]:
            return
        capacity = self._data.shape[1]
        while capacity < need:
            capacity *= 2
        grown = np.full((len(COLUMNS), capacity), NAN)
        grown[:, :self._n] = self._data[:, :self._n]
        self._data = grown

    def append(self, row: tuple[float, ...], real: bool = True) -> None:
        self._reserve(1)
        self._data[:, self._n] = row
        self._n += 1
        if real:
            self.samples += 1
            if not math.isnan(row[-1]):
                self.has_temperature = True

    def begin_trial(self, t_s: float) -> None:
        """A trial starts: a break row, and its rows begin after it. Kept as a row index, not
        found by time: rows come in arrival order, and a held start (jobs/run/held_starts.py)
        begins a trial under the last one's end, before that one's last sample."""
        self.append(break_row(t_s), real=False)
        self.trial_row, self._samples_before = self._n, self.samples

    @property
    def trial_samples(self) -> int:
        """Real samples of the current trial so far."""
        return self.samples - self._samples_before

    def append_result(self, row: tuple[float, ...]) -> None:
        """A row of a trial's final result: drawn like a sample, counted apart from them."""
        self.append(row, real=False)
        self.results += 1

    def extend(self, block: np.ndarray, samples: int) -> None:
        """Append a (len(COLUMNS), m) block holding ``samples`` real rows."""
        m = block.shape[1]
        self._reserve(m)
        self._data[:, self._n:self._n + m] = block
        self._n += m
        self.samples += samples
        if m and np.isfinite(block[-1]).any():
            self.has_temperature = True

    def column(self, name: str) -> np.ndarray:
        """A read-only view of the first ``len(self)`` values (no copy)."""
        view = self._data[_INDEX[name], :self._n]
        view.flags.writeable = False
        return view

"""Latency histograms as fio keeps them, and the percentiles that are true for the I/Os measured.

fio records every completion latency in a log-linear histogram (stat.h: FIO_IO_U_PLAT_BITS = 6,
FIO_IO_U_PLAT_VAL = 64, 29 groups, 1,856 buckets): values below 128 ns are exact, and each
further power of two is split into 64 equal buckets, so a bucket is at most 1/64 (1.6 %) of its
value wide. ``--output-format=json+`` prints the non-empty buckets as ``bins``: the key is
``plat_idx_to_val(i)``, the bucket's midpoint in ns, the value is the count. fio's own
percentile is the midpoint of the first bucket where the running count reaches p/100 x N
(stat.c ``calc_clat_percentiles``); :meth:`Histogram.percentile` is that rule exactly, so a
histogram reproduces the percentiles fio printed for the same job.

Repetitions are pooled by adding their counts: the p99 of the merged histogram is the p99 of all
the I/Os measured, which the mean of each repetition's p99 is not. Its uncertainty is the
distribution-free 95 % interval of an order statistic: the rank of the p-quantile in N I/Os is
Binomial(N, p), so ranks Np ± 1.96 sqrt(Np(1-p)) bound it; the interval reported runs from the
lower edge of the bucket holding the low rank to the upper edge of the bucket holding the high
one (conservative by at most one bucket on each side). A percentile is only claimed when it
rests on at least 10 I/Os beyond it, i.e. N >= 10 / (1 - p): p99.99 needs 100,000 I/Os.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING

from app.model.percentiles import MIN_BEYOND, percentile_key, too_few
from app.model.percentiles import ios_needed as ios_needed_for

if TYPE_CHECKING:  # numpy itself is imported where it is used (see counts_of)
    import numpy as np
    import numpy.typing as npt

#: (latency ns, count) pairs as fio's json+ ``bins`` and run.json hold them (a midpoint key is text)
BinPairs = Iterable[tuple[int | str, int]]

PLAT_BITS = 6
PLAT_VAL = 1 << PLAT_BITS
PLAT_GROUPS = 29
PLAT_NR = PLAT_GROUPS * PLAT_VAL
Z95 = 1.959963984540054
MIN_TAIL_IOS = MIN_BEYOND


def idx_to_val(idx: int) -> int:
    """fio's ``plat_idx_to_val``: the bucket's representative value (its midpoint) in ns."""
    if idx < (PLAT_VAL << 1):
        return idx
    error_bits = (idx >> PLAT_BITS) - 1
    base = 1 << (error_bits + PLAT_BITS)
    return base + int((idx % PLAT_VAL + 0.5) * (1 << error_bits))


def val_to_idx(val: int) -> int:
    """fio's ``plat_val_to_idx``: the bucket a latency of ``val`` ns is counted in."""
    msb = val.bit_length() - 1 if val > 0 else 0
    if msb <= PLAT_BITS:
        return val
    error_bits = msb - PLAT_BITS
    base = (error_bits + 1) << PLAT_BITS
    return min(base + ((PLAT_VAL - 1) & (val >> error_bits)), PLAT_NR - 1)


def bucket_bounds(idx: int) -> tuple[int, int]:
    """[low, high) in ns of bucket ``idx``."""
    if idx < (PLAT_VAL << 1):
        return idx, idx + 1
    error_bits = (idx >> PLAT_BITS) - 1
    low = (1 << (error_bits + PLAT_BITS)) + (idx % PLAT_VAL) * (1 << error_bits)
    return low, low + (1 << error_bits)


MAX_COUNT = 2**40   # I/Os in one bucket of one list: 10^12, more than a year at 30,000 IOPS


def counts_of(bin_lists: Sequence[BinPairs], decoded: Sequence[Iterable[tuple[int, int]]] = ()
              ) -> tuple[tuple[int, int], ...]:
    """The summed (bucket index, count) pairs of lists of (latency ns, count) pairs, counts of 0
    or less left out, and of already decoded ``counts``. One numpy pass over all the lists:
    fio's midpoints and any other latency fall in the bucket holding them (``val_to_idx``).
    ValueError, one line, for anything that is not such a list (run.json is someone's file).
    numpy is imported here, not with the module: the model (and the window's first screen)
    imports this module for the Histogram type alone (docs/architecture.md)."""
    import numpy as np
    try:
        columns = [_columns(pairs) for pairs in bin_lists if pairs]
        n = sum(len(v) for v, _ in columns)
        values = np.fromiter(chain.from_iterable(v for v, _ in columns), dtype=np.int64, count=n)
        counts = np.fromiter(chain.from_iterable(c for _, c in columns), dtype=np.int64, count=n)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"a latency histogram (hist_ns) is damaged: {exc}".splitlines()[0]) from None
    keep = counts > 0
    values, counts = values[keep], counts[keep]
    if len(values) and (values.min() < 0 or counts.max() > MAX_COUNT
                        or counts.sum(dtype=np.float64) > 2.0**62):   # int64 sums stay exact
        raise ValueError("a latency histogram (hist_ns) is damaged: a negative latency, or "
                         f"a count above {MAX_COUNT:,}")
    total = np.zeros(PLAT_NR, dtype=np.int64)
    np.add.at(total, np.searchsorted(_bucket_lows(), values, side="right") - 1, counts)
    out = {int(i): int(total[i]) for i in np.flatnonzero(total)}
    for pairs in decoded:
        for i, c in pairs:
            out[i] = out.get(i, 0) + c
    return tuple(sorted(out.items()))


@cache
def _bucket_lows() -> npt.NDArray[np.int64]:
    """The lower edge of every bucket, in ns, as the sorted array ``counts_of`` searches."""
    import numpy as np
    return np.array([bucket_bounds(i)[0] for i in range(PLAT_NR)], dtype=np.int64)


def _columns(pairs: BinPairs) -> tuple[tuple[int | str, ...], tuple[int, ...]]:
    """(latencies, counts) of one list of pairs, transposed in C: each pair is checked to hold
    two items without a Python step per pair (a reopened run has two million of them)."""
    try:
        values, counts = zip(*pairs, strict=True)
    except ValueError:   # pairs of unequal lengths, or all of one length other than two
        raise ValueError("a pair is not [latency ns, count]") from None
    return values, counts


def enough_ios(ios: int, p: float) -> bool:
    """True when percentile ``p`` (0-100) of ``ios`` I/Os rests on >= 10 I/Os beyond it
    (the one rule: app/model/percentiles.py ``too_few``)."""
    return not too_few(percentile_key(p), ios)


def ios_needed(p: float) -> int:
    """The fewest I/Os for which percentile ``p`` is claimed: 10 / (1 - p)."""
    return ios_needed_for(percentile_key(p))


class Histogram:
    """Counts per fio bucket index (sparse, sorted by index); latencies in ns. Immutable.

    Why decoded on first use: a reopened run of 10,000 trials holds 10,000 of run.json's bin
    lists (two million pairs); decoding each alone cost seconds, while the pooled percentiles
    need them only as a sum per workload, which :meth:`merged` takes over all of a workload's
    undecoded lists at once with numpy (:func:`counts_of`). A bin list that is not a histogram
    raises ValueError where it is first read, never another exception."""

    __slots__ = ("_counts", "_bins", "_ios")
    _counts: tuple[tuple[int, int], ...] | None   # None until decoded
    _bins: tuple[tuple[int | str, int], ...] | None  # run.json's pairs, kept (read by threads)
    _ios: int | None                             # None until first asked (tables ask often)

    def __init__(self, counts: Iterable[tuple[int, int]] = ()):
        object.__setattr__(self, "_counts", tuple(counts))
        object.__setattr__(self, "_bins", None)
        object.__setattr__(self, "_ios", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Histogram is immutable ({name})")

    @classmethod
    def from_bins(cls, bins: Mapping[str, int] | BinPairs) -> Histogram:
        """From fio's json+ ``bins`` ({"<midpoint ns>": count}) or (value ns, count) pairs:
        fio's midpoints, or any latency in ns, counted in the bucket holding it."""
        if isinstance(bins, Mapping):
            return cls(counts_of([list(bins.items())]))
        hist = cls.__new__(cls)
        object.__setattr__(hist, "_counts", None)
        object.__setattr__(hist, "_bins", tuple(bins))  # decoded by ``counts`` when first read
        object.__setattr__(hist, "_ios", None)
        return hist

    @property
    def counts(self) -> tuple[tuple[int, int], ...]:
        counts = self._counts
        if counts is None:
            counts = counts_of([self._bins or ()])
            object.__setattr__(self, "_counts", counts)
        return counts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Histogram) and self.counts == other.counts

    def __hash__(self) -> int:
        return hash(self.counts)

    def __repr__(self) -> str:
        return f"Histogram({self.counts!r})"

    def to_bins(self) -> list[list[int]]:
        """[[midpoint ns, count], ...]: fio's bins, as run.json keeps them."""
        return [[idx_to_val(i), c] for i, c in self.counts]

    @property
    def ios(self) -> int:
        ios = self._ios
        if ios is None:
            ios = sum(map(itemgetter(1), self.counts))
            object.__setattr__(self, "_ios", ios)
        return ios

    @classmethod
    def merged(cls, histograms: Iterable[Histogram]) -> Histogram:
        """All their I/Os in one histogram, the undecoded ones summed in one numpy pass (a
        workload's 10,000 repetitions pooled)."""
        raw: list[tuple[tuple[int | str, int], ...]] = []
        decoded: list[tuple[tuple[int, int], ...]] = []
        for h in histograms:
            counts = h._counts   # read once: another thread may decode it meanwhile
            if counts is None:
                raw.append(h._bins or ())
            else:
                decoded.append(counts)
        return cls(counts_of(raw, decoded))

    def __add__(self, other: Histogram) -> Histogram:
        return Histogram.merged((self, other))

    def __sub__(self, earlier: Histogram) -> Histogram:
        """The I/Os counted since ``earlier`` (cumulative status documents -> one interval);
        None-like (empty) when a counter went backwards (fio restarted the job)."""
        before = dict(earlier.counts)
        if not before.keys() <= dict(self.counts).keys():
            return Histogram()
        out = tuple((i, c - before.get(i, 0)) for i, c in self.counts if c != before.get(i, 0))
        return Histogram() if any(c < 0 for _, c in out) else Histogram(out)

    def _index_at_rank(self, rank: float) -> int:
        """The bucket where the running count reaches ``rank``; the last one past the total.
        Only called with counts (callers check ``counts`` or ``ios`` first)."""
        total = 0
        for i, c in self.counts:
            total += c
            if total >= rank:
                return i
        return self.counts[-1][0]

    def at_rank(self, rank: float) -> float | None:
        """The midpoint (ns) of the first bucket where the running count reaches ``rank``."""
        if not self.counts:
            return None
        return float(idx_to_val(self._index_at_rank(rank)))

    def percentile(self, p: float) -> float | None:
        """fio's rule: the midpoint (ns) of the first bucket where the count reaches p/100 x N."""
        return self.at_rank(p / 100 * self.ios)

    def ci95(self, p: float) -> tuple[float, float] | None:
        """Distribution-free 95 % interval (ns) of percentile ``p`` (see the module docstring)."""
        n = self.ios
        if not n:
            return None
        q = p / 100
        half = Z95 * math.sqrt(n * q * (1 - q))
        low_rank = max(1.0, math.floor(n * q - half))
        high_rank = min(float(n), math.ceil(n * q + half) + 1)
        return (float(bucket_bounds(self._index_at_rank(low_rank))[0]),
                float(bucket_bounds(self._index_at_rank(high_rank))[1]))

    def max_ns(self) -> float | None:
        """The upper edge of the highest bucket (fio's exact max is in the measurement)."""
        return float(bucket_bounds(self.counts[-1][0])[1]) if self.counts else None

    def exceedance(self) -> list[tuple[float, float]]:
        """(latency ns, fraction of I/Os slower than it) at each bucket's upper edge: the curve
        storage engineers read on log-log axes; the last point has fraction 0 (a log axis draws
        it at its bottom: the curve drops there, through the slowest percentiles). After
        a run of empty buckets the fraction holds until the next bucket's lower edge, so the
        curve runs flat to the slowest I/Os rather than ending (or sloping) before them: a
        percentile lying out there is drawn on it."""
        n, slower = self.ios, self.ios
        out: list[tuple[float, float]] = []
        for i, c in self.counts:
            low, high = bucket_bounds(i)
            if out and slower > 0 and low > out[-1][0]:
                out.append((float(low), slower / n))
            slower -= c
            out.append((float(high), slower / n))
        return out

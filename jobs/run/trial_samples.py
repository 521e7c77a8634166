"""The live samples of one trial, kept in bounded memory however long the trial runs.

A 24 h trial at a 0.1 s interval makes 864,000 samples; holding them all would cost hundreds of
MB. Rows go to ``samples.csv`` as they arrive (in small batches), and only about one sample per
``keep_every_s`` stays in memory for the trial's throttle verdict, which compares throughput and
temperature over minutes, not tenths of a second. An engine whose own series replaces the live
one after the trial (DiskSpd: OS counters while it runs, its XML series afterwards) is held until
the trial ends, which is bounded by that engine's one-second minimum interval.
"""
from __future__ import annotations

from app.model.interval import Sample
from app.store.run_folder import RunStore

BATCH_ROWS = 64


class TrialSamples:
    def __init__(self, store: RunStore, replaceable: bool, keep_every_s: float = 1.0):
        self.store, self.replaceable, self.keep_every_s = store, replaceable, keep_every_s
        self._pending: list[Sample] = []
        self._kept: list[Sample] = []
        self._next_keep = float("-inf")

    def add(self, sample: Sample) -> None:
        self._pending.append(sample)
        if sample.t_s >= self._next_keep:
            self._kept.append(sample)
            self._next_keep = sample.t_s + self.keep_every_s
        if not self.replaceable and len(self._pending) >= BATCH_ROWS:
            self._flush()

    def replace(self, samples: list[Sample]) -> None:
        """The engine's own series instead of the live one (only before anything was written)."""
        assert self.replaceable
        self._pending, self._kept, self._next_keep = [], [], float("-inf")
        for sample in samples:
            self.add(sample)

    def finish(self) -> list[Sample]:
        """Write what is left; the samples kept for the throttle verdict."""
        self._flush()
        return self._kept

    def _flush(self) -> None:
        if self._pending:
            self.store.append_samples(s.row() for s in self._pending)
            self._pending = []

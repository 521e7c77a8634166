"""When a view acts on a sample so that the window is painted about once a second, in one pass.

Why: each wake-up of the GUI thread beside fio costs more than the work it does (a thread that
slept a second runs on cold caches: the same chart redraw took 1.0 ms back to back and 2.2 ms a
second apart here), so the live charts and the progress strip act in the wake-up a sample
brings rather than on timers of their own, not more than about once a second, and both in the
same one. With samples a second apart each one is the moment; with faster ones (which the
worker sends in batches, jobs/worker.py), the first a second after the last beat (half a gap
early, so jitter does not skip one). Where the charts' drawings cost more than their share of a
core, the charts lengthen the beat (``wait_s``, ui/window/run/chart_budget.py), and the progress
strip follows, so the window still paints once a beat, never a strip alone in between.
"""
from __future__ import annotations

import time

PERIOD_S = 1.0


class SampleRhythm:
    """The window's beat, one per run model: ``on_samples()`` with every delivery of samples;
    ``beat`` then says whether the views act on this one (all of them on the same one: two
    views on two beats of their own, a batch apart, painted the window twice a second)."""

    def __init__(self, period_s: float = PERIOD_S) -> None:
        self.period_s = period_s
        self.wait_s = period_s   # the least time between two beats: the period or the charts'
        self.beat = False
        self.beat_at = float("-inf")
        self._sample_at = float("-inf")
        self.gap_s = period_s   # the last gap between deliveries, at most a period

    def on_samples(self) -> bool:
        now = time.monotonic()
        self.gap_s, self._sample_at = min(self.period_s, now - self._sample_at), now
        self.beat = now - self.beat_at >= max(self.period_s, self.wait_s) - self.gap_s / 2
        if self.beat:
            self.beat_at = now
        return self.beat

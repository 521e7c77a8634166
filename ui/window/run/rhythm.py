"""When a view acts on a sample so that the window is painted about once a second, in one pass.

Why: each wake-up of the GUI thread beside fio costs more than the work it does (a thread that
slept a second runs on cold caches: the same chart redraw took 1.0 ms back to back and 2.2 ms a
second apart here), so the live charts and the progress strip act in the wake-up a sample
brings rather than on timers of their own, and not more than about once a second. With samples
a second apart each one is the moment; with faster ones, the first a second after the last
action (half a gap early, so jitter does not skip one).
"""
from __future__ import annotations

import time

PERIOD_S = 1.0


class SampleRhythm:
    """``due(acted_at)`` on every sample: True when the view should act on this one."""

    def __init__(self, period_s: float = PERIOD_S) -> None:
        self.period_s = period_s
        self._sample_at = float("-inf")
        self.gap_s = period_s   # the last gap between samples, at most a period

    def due(self, acted_at: float) -> bool:
        now = time.monotonic()
        self.gap_s, self._sample_at = min(self.period_s, now - self._sample_at), now
        return now - acted_at >= self.period_s - self.gap_s / 2

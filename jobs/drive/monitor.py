"""Watching the drive during a run: live temperature, per-trial throttle flags, SMART after.

The runner owns one DriveMonitor. With a temperature source it samples at the run's interval
beside the engine (same clock), so every engine sample carries the drive temperature of its
moment; without one it does nothing and run.json says why. The SMART snapshot taken before the
run (in ``drive``) is compared with one taken after: the host-writes delta is put beside the
bytes the engine wrote, and a rising warning-temperature-time counter flags the run.
"""
from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Any

from app.drive import smart
from app.drive.throttle import throttle_flags
from app.model.interval import Sample
from app.model.trial import TrialResult
from jobs.drive.sampler import Source, TemperatureSampler

log = logging.getLogger(__name__)


class DriveMonitor:
    def __init__(self, drive: dict[str, Any] | None, source: Source | None = None,
                 interval_s: float = 1.0):
        self.drive = drive or {}
        self.sampler = TemperatureSampler(source, interval_s) if source is not None else None

    def start(self, t0_epoch: float) -> None:
        if self.sampler is not None:
            self.sampler.start(t0_epoch)

    def stop(self) -> None:
        if self.sampler is not None and not self.sampler.stop():
            log.warning("the temperature sampler did not stop within its bound")

    def temperature_at(self, t_s: float) -> float | None:
        return self.sampler.temperature_at(t_s) if self.sampler is not None else None

    def trial_flags(self, samples: list[Sample], t_from: float, t_to: float) -> dict[str, Any]:
        """Throttle verdict of one trial from its samples and the temperatures around it."""
        temps = self.sampler.readings(t_from, t_to) if self.sampler is not None else []
        return throttle_flags(samples, self.drive.get("warning_temp_c"), temperatures=temps)

    def after_run(self, trials: Sequence[TrialResult], prepared_bytes: int) -> dict[str, Any]:
        """SMART after the run, the host-writes delta beside the engine's writes, run throttling."""
        before = self.drive.get("smart")
        after, reason = self.snapshot_after()
        engine_written = prepared_bytes + sum(
            (t.measurement.write.io_bytes if t.measurement and t.measurement.write else None) or 0
            for t in trials)
        b, a = (before or {}).get("host_writes_bytes"), (after or {}).get("host_writes_bytes")
        delta = a - b if isinstance(a, (int, float)) and isinstance(b, (int, float)) else None
        counters = throttle_flags([], self.drive.get("warning_temp_c"), before, after)
        return {
            "smart_after": after, "smart_after_reason": "" if after else reason,
            "writes": {"engine_written_bytes": engine_written, "host_writes_delta_bytes": delta,
                       "host_writes_source": (after or {}).get("host_writes_source"),
                       "note": None if delta is not None else "host writes not known before and after"},
            "throttle": {"warning_time_rising": counters["warning_time_rising"],
                         "warning_temp_time_delta_min": counters["warning_temp_time_delta_min"],
                         "critical_temp_time_delta_min": counters["critical_temp_time_delta_min"],
                         "throttled_trials": [t.index for t in trials if t.throttled]},
            "temperature_samples": len(self.sampler.readings()) if self.sampler else 0,
            "max_temperature_c": _max_temp(self.sampler),
        }

    def snapshot_after(self) -> tuple[dict[str, Any] | None, str]:
        """The SMART snapshot after the run (a remote run reads it through ssh: jobs/remote_smart)."""
        device = self.drive.get("smart_device")
        if not device:
            return None, "no device to ask smartctl about"
        return smart.snapshot(device, device_type=self.drive.get("smart_type"))


def _max_temp(sampler: TemperatureSampler | None) -> float | None:
    if sampler is None:
        return None
    values = [v for _, v in sampler.readings() if v is not None and math.isfinite(v)]
    return max(values) if values else None

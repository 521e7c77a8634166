"""Thermal throttling signals for one trial (pure functions, no I/O).

Three signals; any one flags the trial:
1. ``above_warning``: a temperature sample at or above the drive's warning threshold (NVMe
   WCTEMP; ATA SCT recommended maximum), passed in or taken from the SMART snapshots.
2. ``warning_time_rising``: the NVMe Warning (or Critical) Composite Temperature Time counter,
   in minutes, grew between the snapshots before and after. It counts whole minutes, so a short
   run can throttle without it moving; with run-level snapshots the delta covers the whole run.
3. ``drop_with_temp_rise``: smoothed throughput fell 30 % or more below its peak so far while
   the temperature rose since that peak. An SLC-cache cliff on a long write also drops
   throughput while the drive warms, so this signal alone means "suspected": the slc-cache
   analysis should read it together with signals 1 and 2.
NVMe critical-warning bit 1 (temperature out of range) in the after-snapshot is reported too.
Controllers can throttle below WCTEMP, so "not throttled" means "no signal seen", no more.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from statistics import median
from typing import Any

DROP_FRACTION = 0.30
MIN_RISE_C = 1.0


def _get(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)


def _throughput(sample: Any) -> float | None:
    """MB/s of a sample: read + write (engine Sample or samples.csv row), or ``MBps``."""
    read, write = _get(sample, "read_MBps"), _get(sample, "write_MBps")
    if read is None and write is None:
        total = _get(sample, "MBps")
        return None if total is None else float(total)
    return float(read or 0.0) + float(write or 0.0)


def _temperature_at(t_s: float, temperatures: list[tuple[float, float | None]],
                    max_gap_s: float) -> float | None:
    """Latest sampler reading at or before ``t_s`` (at most ``max_gap_s`` old)."""
    best: float | None = None
    for when, value in temperatures:
        if when <= t_s + 1e-6 and t_s - when <= max_gap_s and value is not None:
            best = value
    return best


def _series(samples: list[Any], temperatures: list[tuple[float, float | None]],
            max_gap_s: float) -> tuple[list[tuple[float, float, float | None]], list[float]]:
    points: list[tuple[float, float, float | None]] = []
    for s in samples:
        t, thr = _get(s, "t_s"), _throughput(s)
        if t is None or thr is None:
            continue
        temp = _get(s, "temperature_c")
        if temp is None and temperatures:
            temp = _temperature_at(float(t), temperatures, max_gap_s)
        points.append((float(t), float(thr), None if temp is None else float(temp)))
    points.sort()
    if len(points) >= 5:
        points = points[1:-1]  # first and last engine intervals are usually partial
    smooth = [median(p[1] for p in points[max(0, i - 1):i + 2]) for i in range(len(points))]
    return points, smooth


def throughput_drop(samples: Iterable[Any], temperatures: Iterable[tuple[float, float | None]] | None = None,
                    drop_fraction: float = DROP_FRACTION, min_rise_c: float = MIN_RISE_C,
                    max_gap_s: float = 2.0) -> dict[str, float] | None:
    """The worst fall of smoothed throughput (median of 3) by ``drop_fraction`` or more below its
    peak so far while the temperature rose by ``min_rise_c`` or more since that peak; None if
    there is no such fall. Samples need ``t_s`` and MB/s; temperature from each sample's
    ``temperature_c`` or from ``temperatures`` [(t_s, °C)] of the sampler."""
    points, smooth = _series(list(samples), sorted(temperatures or []), max_gap_s)
    worst: dict[str, float] | None = None
    peak: int | None = None
    for j, (t, _, temp) in enumerate(points):
        if peak is None or smooth[j] > smooth[peak]:
            peak = j
            continue
        top, peak_temp = smooth[peak], points[peak][2]
        if top <= 0 or temp is None or peak_temp is None:
            continue
        drop = 1.0 - smooth[j] / top
        if drop >= drop_fraction and temp - peak_temp >= min_rise_c and (worst is None or drop > worst["drop_pct"] / 100):
            worst = {"drop_pct": round(drop * 100, 1), "from_MBps": round(top, 3),
                     "to_MBps": round(smooth[j], 3), "from_t_s": points[peak][0], "to_t_s": t,
                     "temp_from_c": peak_temp, "temp_to_c": temp}
    return worst


def _delta(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None, key: str) -> float | None:
    a, b = (before or {}).get(key), (after or {}).get(key)
    return b - a if isinstance(a, (int, float)) and isinstance(b, (int, float)) else None


def throttle_flags(samples_for_trial: Iterable[Any], warning_temp_c: float | None = None,
                   smart_before: Mapping[str, Any] | None = None,
                   smart_after: Mapping[str, Any] | None = None,
                   temperatures: Iterable[tuple[float, float | None]] | None = None,
                   drop_fraction: float = DROP_FRACTION, min_rise_c: float = MIN_RISE_C) -> dict[str, Any]:
    """The trial's throttle verdict for run.json. ``samples_for_trial``: engine samples (objects or
    dicts with ``t_s``, ``read_MBps``/``write_MBps`` or ``MBps``, optional ``temperature_c``);
    ``temperatures``: sampler readings [(t_s, °C or None)] on the same clock; the snapshots are
    ``app.drive.smart`` dicts (or None). ``throttled`` is True if any signal fired, False if at least
    one could be checked and none fired, None if none could be checked (``notes`` say why)."""
    samples = list(samples_for_trial)
    temps = [(float(t), v) for t, v in (temperatures or [])]
    seen = [float(v) for v in (_get(s, "temperature_c") for s in samples) if v is not None]
    seen += [float(v) for _, v in temps if v is not None]
    warning = warning_temp_c
    for snap in (smart_before, smart_after):
        warning = warning if warning is not None else (snap or {}).get("warning_temp_c")
    notes: list[str] = []
    above: bool | None = None
    if warning is None:
        notes.append("no warning threshold known")
    elif not seen:
        notes.append("no temperature samples")
    else:
        above = max(seen) >= warning
    warn_delta = _delta(smart_before, smart_after, "warning_temp_time_min")
    crit_delta = _delta(smart_before, smart_after, "critical_temp_time_min")
    rising = None if warn_delta is None and crit_delta is None else bool(
        (warn_delta or 0) > 0 or (crit_delta or 0) > 0)
    if rising is None:
        notes.append("no temperature-time counters before and after")
    drop = throughput_drop(samples, temps, drop_fraction, min_rise_c) if seen else None
    drop_flag = (drop is not None) if seen and samples else None
    bits = (smart_after or {}).get("critical_warning")
    crit_bit = bool(bits & 0x02) if isinstance(bits, int) else None
    checks = {"above_warning": above, "warning_time_rising": rising,
              "drop_with_temp_rise": drop_flag, "critical_warning_temperature": crit_bit}
    fired = [name for name, value in checks.items() if value]
    known = [value for value in checks.values() if value is not None]
    return {"throttled": bool(fired) if known else None, "signals": fired, **checks,
            "warning_temp_c": warning, "max_temp_c": max(seen) if seen else None,
            "warning_temp_time_delta_min": warn_delta, "critical_temp_time_delta_min": crit_delta,
            "throughput_drop": drop, "notes": notes}

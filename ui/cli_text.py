"""Plain-text views for the terminal: catalog, volumes, measurements, run progress."""
from __future__ import annotations

import time

from app.units import human_bytes
from jobs.events import LogMessage, RunFinished, RunStarted, Sample, TrialFailed, TrialFinished, TrialStarted


def _num(value, fmt: str = "{:,.1f}") -> str:
    return "-" if value is None else fmt.format(value)


def catalog_text(catalog: list[dict]) -> str:
    lines = []
    for exp in catalog:
        lines.append(f"{exp['id']:<14} {exp['title']}: {exp['summary']}")
        for p in exp["parameters"]:
            choices = f" [{'|'.join(p['choices'])}]" if p["choices"] else ""
            lines.append(f"    {p['name']:<14} = {p['default_text']:<22} {p['help']}{choices}")
        lines.append("")
    lines.append("Set values with --set NAME=VALUE (or EXPERIMENT.NAME=VALUE); `all` runs all but quick.")
    return "\n".join(lines)


def volumes_text(volumes: list[dict]) -> str:
    lines = [f"{'MOUNT POINT':<24} {'DEVICE':<16} {'FS':<6} {'SIZE':>10} {'FREE':>10} "
             f"{'BUS':<7} {'MODEL':<24} TEMPERATURE"]
    for v in volumes:
        temp = (f"{v['temperature_c']:.0f} °C ({v['temperature_source']})"
                if v.get("temperature_c") is not None else v.get("temperature_reason") or "-")
        lines.append(f"{v['mountpoint']:<24} {v['device']:<16} {v['fstype']:<6} "
                     f"{human_bytes(v['total_bytes']):>10} {human_bytes(v['free_bytes']):>10} "
                     f"{str(v.get('bus') or '-'):<7} {str(v.get('model') or '-')[:24]:<24} {temp}")
    return "\n".join(lines)


def measurements_text(results: list[dict]) -> str:
    lines = [f"{'JOB':<24} {'RW':<10} {'BS':>8} {'QD':>4} {'DIR':<5} {'IOPS':>12} {'MB/s':>10} "
             f"{'LAT MEAN µs':>12} {'P99 µs':>10} KIND"]
    for m in results:
        w = m["workload"]
        if m.get("status") == "failed":
            lines.append(f"{m['job'][:24]:<24} FAILED: {m.get('error')}")
            continue
        for direction in ("read", "write"):
            side = m.get(direction)
            if not side:
                continue
            lat = side.get("lat_us") or {}
            lines.append(
                f"{str(m['job'])[:24]:<24} {str(w.get('rw') or '-'):<10} {_num(w.get('bs_bytes'), '{:d}'):>8} "
                f"{_num(w.get('iodepth'), '{:d}'):>4} {direction:<5} {_num(side['iops']):>12} "
                f"{_num(side['MBps'], '{:,.2f}'):>10} {_num(lat.get('mean')):>12} "
                f"{_num(lat.get('p99')):>10} {side.get('lat_kind') or '-'}")
    return "\n".join(lines)


class Progress:
    """Run progress on stderr: one line per trial, the last sample while it runs (on a tty)."""

    def __init__(self, stream):
        self.out = stream
        self.tty = stream.isatty()
        self.total = 0
        self.done = 0
        self.estimated_s = 0.0
        self.started = time.monotonic()

    def _write(self, text: str) -> None:
        """A closed terminal (SIGHUP, a dropped ssh session) must not stop the run's clean end."""
        if self.out is None:
            return
        try:
            self.out.write(text)
            self.out.flush()
        except (OSError, ValueError):
            self.out = None

    def show(self, event) -> None:
        if isinstance(event, RunStarted):
            self.total, self.estimated_s = event.trial_count, event.estimated_s
            self._write(f"run: {', '.join(event.experiments)}: {event.trial_count} trials, about "
                        f"{event.estimated_s / 60:.1f} min with {event.engine_version} "
                        f"(seed {event.seed})\nrun folder: {event.run_dir}\n")
        elif isinstance(event, TrialStarted):
            kind = "warm-up" if event.warmup else f"rep {event.repetition}"
            self._write(f"[{event.index + 1}/{self.total}] {event.experiment} {event.label} ({kind}) ...")
            self._write("\n" if not self.tty else "")
        elif isinstance(event, Sample) and self.tty:
            self._write(f"\r    {event.read_MBps + event.write_MBps:10.1f} MB/s "
                        f"{event.read_iops + event.write_iops:12.0f} IOPS  ")
        elif isinstance(event, TrialFinished):
            total = (event.record["measurement"] or {}).get("total") or {}
            self._write(f"{chr(13) if self.tty else ''}    done: {_num(total.get('iops'), '{:,.0f}')} IOPS, "
                        f"{_num(total.get('MBps'), '{:,.1f}')} MB/s{self._eta(event.index)}\n")
        elif isinstance(event, TrialFailed):
            what = "cancelled" if event.cancelled else "FAILED"
            self._write(f"\n    {what}: {event.error}\n")
            if event.stderr_tail and not event.cancelled:
                self._write("    engine stderr: " + event.stderr_tail.replace("\n", "\n    ") + "\n")
        elif isinstance(event, LogMessage) and event.level in ("warning", "error"):
            self._write(f"{event.level}: {event.text}\n")
        elif isinstance(event, RunFinished):
            self._write(f"run {event.status}{': ' + event.error if event.error else ''} "
                        f"after {time.monotonic() - self.started:.0f} s\n")

    def _eta(self, index: int) -> str:
        self.done = index + 1
        if self.done >= self.total:
            return ""
        per_trial = (time.monotonic() - self.started) / self.done
        return f"; about {per_trial * (self.total - self.done) / 60:.1f} min left"

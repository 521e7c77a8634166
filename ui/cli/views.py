"""Plain-text views for the terminal: catalog, volumes, measurements, run progress."""
from __future__ import annotations

import shlex
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TextIO

from app.experiments.plan import trial_kind
from app.experiments.registry import left_out_of_all
from app.model.percentiles import too_few_text
from app.model.status import JobStatus
from app.model.trial import TrialResult
from app.stats.io_counts import trial_mark
from app.units import duration_text, human_bytes
from jobs.events import (
    Event,
    LogMessage,
    RunFinished,
    RunStarted,
    Sample,
    TrialFailed,
    TrialFinished,
    TrialStarted,
)
from ui.cli.eta import PlanEta
from ui.cli.terminal import terminal_text


def _num(value: float | None, fmt: str = "{:,.1f}") -> str:
    return "-" if value is None else fmt.format(value)


def catalog_text(catalog: Sequence[Mapping[str, Any]]) -> str:
    lines = []
    for exp in catalog:
        lines.append(f"{exp['id']:<14} {exp['title']}: {exp['summary']}")
        for p in exp["parameters"]:
            choices = f" [{'|'.join(p['choices'])}]" if p["choices"] else ""
            lines.append(f"    {p['name']:<14} = {p['default_text']:<22} {p['help']}{choices}")
        lines.append("")
    lines.append("Set values with --set NAME=VALUE (or EXPERIMENT.NAME=VALUE); "
                 f"`all` runs all but {left_out_of_all()}.")
    return "\n".join(lines)


def volumes_text(volumes: Sequence[Mapping[str, Any]]) -> str:
    lines = [f"{'MOUNT POINT':<24} {'DEVICE':<16} {'FS':<6} {'SIZE':>10} {'FREE':>10} "
             f"{'BUS':<7} {'MODEL':<24} TEMPERATURE"]
    for v in volumes:
        temp = (f"{v['temperature_c']:.0f} °C ({v['temperature_source']})"
                if v.get("temperature_c") is not None else v.get("temperature_reason") or "-")
        lines.append(f"{v['mountpoint']:<24} {v['device']:<16} {v['fstype']:<6} "
                     f"{human_bytes(v['total_bytes']):>10} {human_bytes(v['free_bytes']):>10} "
                     f"{str(v.get('bus') or '-'):<7} {str(v.get('model') or '-')[:24]:<24} {temp}")
    return "\n".join(lines)


def measurements_text(results: Sequence[Mapping[str, Any]]) -> str:
    lines = [f"{'JOB':<24} {'RW':<10} {'BS':>8} {'QD':>4} {'DIR':<5} {'IOPS':>12} {'MB/s':>10} "
             f"{'LAT MEAN µs':>12} {'P99 µs':>10} KIND"]
    for m in results:
        w = m["workload"]
        if m.get("status") == JobStatus.FAILED:
            lines.append(f"{terminal_text(m['job'])[:24]:<24} FAILED: {terminal_text(m.get('error'))}")
            continue
        for direction in ("read", "write"):
            side = m.get(direction)
            if not side:
                continue
            lat = side.get("lat_us") or {}
            thin = (side.get("too_few") or {}).get("p99")   # app/results/summarize.py with_pooled
            lines.append(
                f"{terminal_text(m['job'])[:24]:<24} {terminal_text(w.get('rw') or '-'):<10} {_num(w.get('bs_bytes'), '{:d}'):>8} "
                f"{_num(w.get('iodepth'), '{:d}'):>4} {direction:<5} {_num(side['iops']):>12} "
                f"{_num(side['MBps'], '{:,.2f}'):>10} {_num(lat.get('mean')):>12} "
                f"{too_few_text(thin) if thin is not None else _num(lat.get('p99')):>10} "
                f"{side.get('lat_kind') or '-'}")
    return "\n".join(lines)


def about(event: RunStarted) -> str:
    """'about', or 'up to' when the run may end early (steady state decides)."""
    return "up to" if event.open_ended else "about"


def trial_line(event: TrialStarted, total: int) -> str:
    kind = trial_kind(event.warmup, event.repetition, event.precondition)
    return f"[{event.index + 1}/{total}] {event.experiment} {event.label} ({kind})"


def live_text(event: Sample) -> str:
    return (f"{event.read_MBps + event.write_MBps:,.1f} MB/s "
            f"{event.read_iops + event.write_iops:,.0f} IOPS")


def result_text(result: TrialResult) -> str:
    """'12,345 IOPS, 50.6 MB/s, p99 123 µs (total latency)' of a finished trial."""
    m = result.measurement
    side = (m.read or m.write) if m else None
    p99 = side.lat("p99") if side else None
    # the trial's own p99 on too few of its I/Os is marked, never printed (app/model/percentiles.py)
    mark = trial_mark(result, "read" if m and m.read else "write", "p99")
    kind = f" ({side.lat_kind} latency)" if side and side.lat_kind else ""
    known = result.precision  # a precision target: the workload's ± so far
    known_text = "" if not known else (
        f"; workload ±{known.achieved * 100:.1f} %" if known.achieved is not None
        else "; workload ± not yet known") + (
        f" ({known.method})" if known.method else "") + (
        f" (target ±{known.target * 100:g} %{', reached' if known.reached else ''}"
        f"{', out of reach by max_time' if known.out_of_reach else ''})")
    return (f"{_num(m.total_iops if m else None, '{:,.0f}')} IOPS, "
            f"{_num(m.total_MBps if m else None, '{:,.1f}')} MB/s, "
            f"p99 {mark or _num(p99, '{:,.0f}') + ' µs'}{kind}{known_text}")


def run_end_line(event: RunFinished, elapsed_s: float) -> str:
    return (f"run {event.status}{': ' + event.error if event.error else ''} "
            f"after {duration_text(elapsed_s)}")


#: The run's messages shown by default (ui/cli/verbosity.py: -v adds info, -vv commands).
EVENT_LEVELS = frozenset({"warning", "error"})


def command_line(argv: Iterable[str]) -> str:
    """An engine command as a shell would take it back (-vv)."""
    return "$ " + shlex.join(argv)


def message_line(event: LogMessage) -> str:
    """'warning: ...'; an engine command line as '$ fio ...'."""
    return f"$ {event.text}" if event.level == "command" else f"{event.level}: {event.text}"


class Progress:
    """Run progress as plain lines on stderr (a log file, a pipe, a CI job): one line when a
    trial starts and one when it ends, with the time left from the plan. With ``lines=False``
    (-q) only the run's messages of ``levels`` are printed."""

    def __init__(self, stream: TextIO | None, levels: frozenset[str] = EVENT_LEVELS,
                 lines: bool = True) -> None:
        self.out = stream
        self.levels, self.lines = levels, lines
        self.total = 0
        self.eta = PlanEta(0.0)
        self.about = "about"
        self.started = time.monotonic()

    def _write(self, text: str) -> None:
        """A closed terminal (SIGHUP, a dropped ssh session) must not stop the run's clean end."""
        if self.out is None:
            return
        try:
            self.out.write(terminal_text(text))  # engine and file text: never a terminal command
            self.out.flush()
        except (OSError, ValueError):
            self.out = None

    def show(self, event: Event) -> None:
        if isinstance(event, LogMessage):
            if event.level in self.levels:
                self._write(message_line(event) + "\n")
        elif self.lines:
            self._show(event, time.monotonic())

    def _show(self, event: Event, now: float) -> None:
        if isinstance(event, RunStarted):
            self.total, self.eta = event.trial_count, PlanEta(event.estimated_s)
            self.about = about(event)
            self._write(f"run: {', '.join(event.experiments)}: {event.trial_count} trials, "
                        f"{self.about} {duration_text(event.estimated_s)} with {event.engine_version} "
                        f"(seed {event.seed})\nrun folder: {event.run_dir}\n")
        elif isinstance(event, TrialStarted):
            self.eta.trial_started(now, event.expected_s)
            self._write(trial_line(event, self.total) + "\n")
            if "command" in self.levels:
                self._write(command_line(event.argv) + "\n")
        elif isinstance(event, TrialFinished | TrialFailed):
            self.eta.trial_ended(now)
            self._write(self.ended_text(event, now) + "\n")
        elif isinstance(event, RunFinished):
            self._write(run_end_line(event, now - self.started) + "\n")

    def ended_text(self, event: TrialFinished | TrialFailed, now: float) -> str:
        if isinstance(event, TrialFailed):
            what = "cancelled" if event.cancelled else "FAILED"
            text = f"    {what}: {event.error}"
            if event.stderr_tail and not event.cancelled:
                text += "\n    engine stderr: " + event.stderr_tail.replace("\n", "\n    ")
            return text
        left = self.eta.seconds_left(now)
        eta = f"; {self.about} {duration_text(left)} left" if event.index + 1 < self.total else ""
        return f"    done: {result_text(event.record)}{eta}"

"""One experiment's steps inside a run: filling its test file, then running one trial from its
start to its kept result. Kept beside jobs/run/runner.py, which decides what runs when, and
jobs/run/engine_starts.py, which starts and stops the processes.

A trial: argv from the engine adapter (or an engine started ahead and held, jobs/run/held_starts.py),
the process under bounded control, live output split into samples, the final output parsed into a
typed :class:`app.model.trial.TrialResult`, which the run folder keeps before the next one starts.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterable, Iterator
from functools import partial
from pathlib import Path

from app.engines.base import LiveAdapter
from app.experiments.base import Experiment
from app.experiments.plan import Trial
from app.model.interval import Interval, Sample
from app.model.status import TrialStatus
from app.model.trial import TrialResult
from app.store.run_folder import utc_now
from jobs.drive.monitor import DriveMonitor
from jobs.engine.process import EngineProcess
from jobs.events import Event, LogMessage, TrialFailed, TrialFinished, TrialStarted
from jobs.run.cancel import waking
from jobs.run.engine_starts import EngineStarts, _Cancelled
from jobs.run.held_starts import Held, HeldStarts
from jobs.run.precision_stop import PrecisionWatch
from jobs.run.trial_record import CANCELLED, trial_result, with_checks
from jobs.run.trial_samples import TrialSamples

POLL_S = 1.0   # the longest wait for output: output, exit and a cancel wake it (jobs/run/cancel.py)
PREPARE_MIN_MBPS = 5.0        # slowest drive we wait for while writing the test file


class TrialSteps(EngineStarts):
    """Mixed into :class:`jobs.run.runner.TrialRunner`: uses its ``monitor``, ``grace_s``, ``t0``,
    ``_held``, ``_watch``, ``_prepared_bytes`` and ``results`` besides what
    :class:`EngineStarts` uses."""

    monitor: DriveMonitor
    grace_s: float
    t0: float
    _held: HeldStarts
    _watch: PrecisionWatch
    _prepared_bytes: int
    results: list[TrialResult]

    # -- the test file ---------------------------------------------------------------------
    def _prepare(self, exp: Experiment, test_file: Path) -> Iterator[Event]:
        """Fill the test file as often as the experiment needs (never for write-only ones:
        the engine lays the file out itself)."""
        for _ in range(exp.prefill_passes()):
            yield from self._prepare_pass(exp, test_file)

    def _prepare_pass(self, exp: Experiment, test_file: Path) -> Iterator[Event]:
        argv = self.engine.prepare_argv(self._engine_file(test_file)[0], exp.size,
                                        self._trigger(test_file), exp.direct)
        if argv is None:
            return  # the engine fills the file itself
        self.store.log_command(argv, f"prepare {exp.id}")
        yield LogMessage(" ".join(argv), "command")
        yield LogMessage(f"writing the {exp.size >> 20} MiB test file for {exp.id} once")
        limit_s = 60.0 + exp.size / (PREPARE_MIN_MBPS * 1e6)
        self.owner.verify(test_file)
        proc = self._start(argv, self._trigger(test_file), test_file=test_file)
        with waking(self.cancel, proc.wake):
            while proc.poll() is None:
                proc.read_text(POLL_S)
                self._check_stop(proc, limit_s)
        proc.finish()
        self._proc = None
        self._prepared_bytes += exp.size
        rc = proc.proc.returncode
        if rc != 0:
            raise RuntimeError(f"writing the test file failed (rc {rc}): "
                               f"{proc.stderr_tail(300) or 'no message'}")

    # -- one trial -------------------------------------------------------------------------
    def _run_trial(self, trial: Trial, test_file: Path, upcoming: list[Trial],
                   overlap: bool = False) -> Iterator[Event]:
        """One trial; with ``overlap``, the next one is let go as soon as this one's I/O is
        over (jobs/run/held_starts.py), and this one's engine ends under it."""
        verify = partial(self.owner.verify, test_file)   # the last look before I/O
        held = self._held.take(trial, upcoming, test_file)
        if held is not None and held.started is None and not self._held.let_go(held, verify):
            held = None
        argv = held.argv if held else self._trial_argv(trial, test_file)
        started_at, t_start = (held.started if held else None) or (utc_now(), time.time())
        t_start -= self.t0
        self.store.log_command(argv, trial.name)
        yield TrialStarted(trial.index, trial.experiment, trial.workload.label, trial.repetition,
                           trial.warmup, tuple(argv), t_start, trial.runtime_s + trial.ramp_s,
                           precondition=trial.precondition)
        live = self.engine.live(trial, test_file)
        proc = self._trial_process(trial, test_file, argv, held)
        # An engine without live output (DiskSpd) is charted from OS disk counters while it
        # runs; its own per-second series replaces them once the trial is over.
        samples = TrialSamples(self.store, replaceable=live.replaces_live_series)
        self._watch.begin(trial)
        following = upcoming[1] if overlap and len(upcoming) > 1 else None
        problem = yield from self._follow(trial, proc, live, samples, following, verify)
        rc = proc.finish()
        yield from self._keep_samples(trial, live.feed(proc.read_text(0.0)), samples)
        self._proc = None
        replacement = live.final_intervals(proc.stdout_bytes.decode("utf-8", errors="replace"))
        if replacement:
            samples.replace([self._sample(trial, interval) for interval in replacement])
        kept = samples.finish()
        raw = self.store.raw_paths(trial.name)[2]
        result = trial_result(self.engine, trial, argv, proc, rc, started_at, problem, raw, live)
        throttle = self.monitor.trial_flags(kept, t_start, time.time() - self.t0)
        result = with_checks(result, throttle, self._watch.finish(trial, result))
        self.store.add_trial(result)
        self.results.append(result)
        yield self._ended(trial, result, proc)
        if problem == CANCELLED:
            raise _Cancelled

    def _trial_process(self, trial: Trial, test_file: Path, argv: list[str],
                       held: Held | None) -> EngineProcess:
        """The trial's engine: the held one let go, or one started now."""
        if held is not None:
            self._proc = held.proc
            return held.proc
        stdout_path, stderr_path, _ = self.store.raw_paths(trial.name)
        return self._start(argv, self._trigger(test_file, trial), stdout_path, stderr_path,
                           test_file)

    def _follow(self, trial: Trial, proc: EngineProcess, live: LiveAdapter, samples: TrialSamples,
                following: Trial | None, verify: Callable[[], None]
                ) -> Generator[Event, None, str | None]:
        """The trial's live output until its engine exits; returns what stopped it early (a
        cancel, the watchdog) or None. The next trial is let go once this one's I/O is done."""
        wait_s = min(POLL_S, live.feed_every_s or POLL_S)   # a clock-sampling adapter's pace
        with waking(self.cancel, proc.wake):   # a Stop ends the wait for output at once
            try:
                while True:
                    exited = proc.poll() is not None
                    for interval in live.feed(proc.read_text(0.0 if exited else wait_s)):
                        sample = self._sample(trial, interval)
                        samples.add(sample)
                        yield sample
                        yield from self._watch.after(trial, interval, proc, exited)
                    if exited:
                        return None
                    if following is not None and proc.io_done.is_set():
                        self._held.let_go_next(following, verify)
                        following = None
                    self._check_stop(proc, self._limit_s(trial))
            except _Cancelled:
                return CANCELLED
            except TimeoutError as exc:
                return str(exc)

    def _keep_samples(self, trial: Trial, intervals: Iterable[Interval],
                      samples: TrialSamples) -> Iterator[Event]:
        for interval in intervals:
            sample = self._sample(trial, interval)
            samples.add(sample)
            yield sample

    def _ended(self, trial: Trial, result: TrialResult, proc: EngineProcess) -> Event:
        label = trial.workload.label
        if result.status is TrialStatus.DONE:
            return TrialFinished(trial.index, label, result)
        return TrialFailed(trial.index, label, result.error or "", proc.stderr_tail(),
                           result.status is TrialStatus.CANCELLED, result)

    def _limit_s(self, trial: Trial) -> float:
        """How long the trial's engine may run before the watchdog stops it."""
        return trial.runtime_s + trial.ramp_s + self.grace_s

    def _sample(self, trial: Trial, interval: Interval) -> Sample:
        t_s = round((interval.end_epoch_s or time.time()) - self.t0, 3)
        return interval.at(trial.index, t_s, self.monitor.temperature_at(t_s))

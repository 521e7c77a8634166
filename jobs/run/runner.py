"""The trial runner: a plain generator of events.

For each experiment it prepares one test file (fully written once when any trial reads it), then
runs the trials one by one: argv from the engine adapter, the process under bounded control, live
output split into samples, the final output parsed into a measurement. Each finished trial is
written to the run folder before the next one starts. Test files are removed at the end, on
cancel, on failure, and when the consumer stops iterating (generator close).

Every file in the target goes through :class:`app.paths.OwnedFolder` (created exclusively, checked
before each trial and each delete, under the folder's lock); the engine's stop trigger lives in a
private temporary folder, never in the user's.
"""
from __future__ import annotations

import copy
import logging
import threading
import time
from collections.abc import Generator, Iterator
from pathlib import Path

from app.engines.base import Engine
from app.experiments.plan import RunPlan, Trial
from app.model.interval import Interval
from app.model.status import RunStatus, TrialStatus
from app.paths import FileSwapped, OwnedFolder
from app.results.load import stored_summary, with_samples
from app.store.run_folder import RunStore, utc_now
from jobs.drive.monitor import DriveMonitor
from jobs.engine.process import KILL_ON_APP_DEATH, EngineProcess
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
from jobs.run.cancel import Cancel, waking
from jobs.run.engine_starts import EngineStarts, _Cancelled
from jobs.run.follow import follow_earlier
from jobs.run.held_starts import HeldStarts
from jobs.run.precision import PrecisionWatch
from jobs.run.precondition import PreconditionRounds
from jobs.run.trial_record import CANCELLED, trial_record
from jobs.run.trial_samples import TrialSamples
from jobs.run.workdir import make_workdir, remove_dead_workdirs, remove_workdir

log = logging.getLogger(__name__)

POLL_S = 1.0   # the longest wait for output: output, exit and a cancel wake it (jobs/run/cancel.py)
PREPARE_MIN_MBPS = 5.0        # slowest drive we wait for while writing the test file


class TrialRunner(EngineStarts):
    """Runs a :class:`RunPlan`; iterate :meth:`events`. ``cancel`` may be set from any thread."""

    #: what the engine gets if the app dies (a remote fio client overrides it: jobs/remote_session)
    on_app_death = KILL_ON_APP_DEATH

    def __init__(self, plan: RunPlan, owner: OwnedFolder, engine: Engine, store: RunStore,
                 cancel: threading.Event | None = None, watchdog_grace_s: float = 30.0,
                 monitor: DriveMonitor | None = None):
        """``owner`` holds the target's data folder (locked); the runner releases it at its end."""
        self.plan, self.owner, self.engine, self.store = plan, owner, engine, store
        self.target = owner.target
        self.monitor = monitor or DriveMonitor(None)
        self._prepared_bytes = 0
        self.cancel = cancel or Cancel()
        self.grace_s = watchdog_grace_s
        self.t0 = time.time()
        self._proc: EngineProcess | None = None
        self._closed = False
        # The engine's cwd and stop trigger: private (0700), never the user's target (nothing
        # planted or unlinked there); removed at the end, or by a later run (jobs/run/workdir.py)
        remove_dead_workdirs()
        self._workdir, self._workdir_lock = make_workdir()
        self._watch = PrecisionWatch()
        self._held = HeldStarts(engine, self._start_held, self._trial_argv,
                                lambda trial: store.raw_paths(trial.name)[:2], self.cancel)

    # -- public -----------------------------------------------------------------------------
    def events(self) -> Generator[Event, None, None]:
        plan = self.plan
        status, error = RunStatus.DONE, None
        self.monitor.start(self.t0)
        try:
            yield RunStarted(str(self.store.dir), tuple(e.id for e in plan.experiments),
                             len(plan.trials), plan.estimated_s, self.engine.name,
                             self.engine.version, plan.seed, open_ended=plan.open_ended)
            for exp in plan.experiments:
                trials = [t for t in plan.trials if t.experiment == exp.id]
                if self.cancel.is_set():
                    raise _Cancelled
                exp, trials, followed = follow_earlier(exp, trials, self.store)
                yield from followed
                test_file = self.owner.new_test_file(exp.id, exp.size)
                self._held.begin(trials, test_file)  # their start-up overlaps the fill below
                yield from self._prepare(exp, trials, test_file)
                rounds = PreconditionRounds(exp, self.store.record)
                self._watch = PrecisionWatch.for_trials(exp.precision_tail, trials)
                overlap = not exp.decides_between_trials()  # the next may start under an end
                for position, trial in enumerate(trials):
                    if self.cancel.is_set() and not self._held.is_ahead(trial):
                        raise _Cancelled  # (a trial let go already runs: it ends as cancelled)
                    if rounds.skip(trial) or self._watch.skip(trial):
                        continue
                    self.owner.verify(test_file)
                    yield from self._run_trial(trial, test_file, trials[position:], overlap)
                    ended = rounds.after(trial, self.store.record["trials"][-1])
                    if ended:
                        self.store.save()
                        yield LogMessage(ended)
                    reason = None if trial.warmup else exp.stop_early(self._iops_so_far(exp.id))
                    if reason:
                        yield LogMessage(f"{exp.id}: {reason}; its remaining trials are not needed")
                        break
                self._held.dismiss_all()
                self.owner.verify(test_file)
                self.owner.remove(test_file)
        except _Cancelled:
            status = RunStatus.CANCELLED
        except FileSwapped as exc:  # someone else's file now: stop, delete nothing
            status, error = RunStatus.FAILED, str(exc)
            yield LogMessage(f"run stopped: {error}", "error")
        except GeneratorExit:
            self.monitor.stop()
            self.close("the run was closed")
            try:
                self.store.finish(RunStatus.CANCELLED, stored_summary(self.store.run(), self.store.dir))
            except OSError:
                log.info("run.json could not be updated", exc_info=True)
            raise
        except Exception as exc:  # an engine we cannot start, a full disk: end the run cleanly
            # a runs folder full or gone read-only is the system's answer, said as such; any
            # other exception is a bug, and its traceback goes to the log
            (log.info if isinstance(exc, OSError) else log.exception)("run failed", exc_info=True)
            status, error = RunStatus.FAILED, failure_text(exc)
            yield LogMessage(f"run failed: {error}", "error")
        finally:
            self.monitor.stop()
            kept = self.close("cleanup")
        for line in kept:
            yield LogMessage(line, "warning")
        self.store.record.update(self.monitor.after_run(self.store.record["trials"],
                                                        self._prepared_bytes))
        if status is RunStatus.DONE:
            failed = [t for t in self.store.record["trials"] if t["status"] != TrialStatus.DONE]
            if failed:
                status = RunStatus.FAILED
                error = f"{len(failed)} of {len(self.store.record['trials'])} trials failed"
        results = with_samples(self.store.run(), self.store.dir).results
        try:
            self.store.finish(status, results.summary_json(), error)
        except OSError as exc:
            status, error = RunStatus.FAILED, error or failure_text(exc)
            yield LogMessage(f"{self.store.dir / 'run.json'} could not be updated "
                             f"({failure_text(exc)}): it still says the run is going on", "error")
        yield RunFinished(status, str(self.store.dir), results, error)

    # -- steps ------------------------------------------------------------------------------
    def _iops_so_far(self, eid: str) -> list[float | None]:
        """Total IOPS of the experiment's measured trials so far, in run order (None: failed)."""
        return [((t.get("measurement") or {}).get("total") or {}).get("iops")
                for t in self.store.record["trials"] if t["experiment"] == eid and not t["warmup"]]

    def _prepare(self, exp, trials: list[Trial], test_file: Path) -> Iterator[Event]:
        for _ in range(exp.prefill_passes()):  # none for write-only: fio lays the file out
            yield from self._prepare_pass(exp, test_file)

    def _prepare_pass(self, exp, test_file: Path) -> Iterator[Event]:
        argv = self.engine.prepare_argv(self._engine_file(test_file)[0], exp.size,
                                        self._trigger(test_file), exp.direct)
        if argv is None:
            return  # the engine fills the file itself
        self.store.log_command(argv, f"prepare {exp.id}")
        yield LogMessage(" ".join(argv), "command")
        yield LogMessage(f"writing the {exp.size >> 20} MiB test file for {exp.id} once")
        limit = 60.0 + exp.size / (PREPARE_MIN_MBPS * 1e6)
        self.owner.verify(test_file)
        proc = self._start(argv, self._trigger(test_file), test_file=test_file)
        with waking(self.cancel, proc.wake):
            while proc.poll() is None:
                proc.read_text(POLL_S)
                self._check_stop(proc, limit)
        proc.finish()
        self._proc = None
        self._prepared_bytes += exp.size
        if proc.proc.returncode != 0:
            raise RuntimeError(f"writing the test file failed (rc {proc.proc.returncode}): "
                               f"{proc.stderr_tail(300) or 'no message'}")

    def _run_trial(self, trial: Trial, test_file: Path, upcoming: list[Trial],
                   overlap: bool = False) -> Iterator[Event]:
        """One trial; with ``overlap``, the next one is let go as soon as this one's I/O is
        over (jobs/run/held_starts.py), and this one's engine ends under it."""
        verify = lambda: self.owner.verify(test_file)  # noqa: E731 - the last look before I/O
        held = self._held.take(trial, upcoming, test_file)
        if held is not None and held.started is None and not self._held.let_go(held, verify):
            held = None
        argv = held.argv if held else self._trial_argv(trial, test_file)
        started_at, t_start = (held.started if held else None) or (utc_now(), time.time())
        t_start -= self.t0
        following = upcoming[1] if overlap and len(upcoming) > 1 else None
        self.store.log_command(argv, trial.name)
        yield TrialStarted(trial.index, trial.experiment, trial.workload.label, trial.repetition,
                           trial.warmup, tuple(argv), t_start, trial.runtime_s + trial.ramp_s,
                           precondition=trial.precondition)
        limit = trial.runtime_s + trial.ramp_s + self.grace_s
        live = self.engine.live(trial, test_file)
        stdout_path, stderr_path, raw = self.store.raw_paths(trial.name)
        if held is None:
            proc = self._start(argv, self._trigger(test_file, trial), stdout_path, stderr_path,
                               test_file)
        else:
            self._proc = proc = held.proc
        # An engine without live output (DiskSpd) is charted from OS disk counters while it
        # runs; its own per-second series replaces them once the trial is over.
        samples, problem = TrialSamples(self.store, replaceable=live.replaces_live_series), None
        self._watch.begin(trial)
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
                        break
                    if following is not None and proc.io_done.is_set():
                        self._held.let_go_next(following, verify)
                        following = None
                    self._check_stop(proc, limit)
            except _Cancelled:
                problem = CANCELLED
            except TimeoutError as exc:
                problem = str(exc)
        rc = proc.finish()
        for interval in live.feed(proc.read_text(0.0)):
            sample = self._sample(trial, interval)
            samples.add(sample)
            yield sample
        self._proc = None
        replacement = live.final_intervals(proc.stdout_bytes.decode("utf-8", errors="replace"))
        if replacement:
            samples.replace([self._sample(trial, interval) for interval in replacement])
        kept = samples.finish()
        record = trial_record(self.engine, trial, argv, proc, rc, started_at, problem, raw)
        record["throttle"] = self.monitor.trial_flags(kept, t_start, time.time() - self.t0)
        record["throttled"] = record["throttle"]["throttled"]
        if (precision := self._watch.finish(trial, record)) is not None:
            record["precision"] = precision
        self.store.add_trial(record)
        frozen = copy.deepcopy(record)
        if record["status"] == TrialStatus.DONE:
            yield TrialFinished(trial.index, trial.workload.label, frozen)
        else:
            yield TrialFailed(trial.index, trial.workload.label, record["error"],
                              record["stderr_tail"], record["status"] == TrialStatus.CANCELLED, frozen)
        if problem == CANCELLED:
            raise _Cancelled

    # -- helpers ----------------------------------------------------------------------------
    def _sample(self, trial: Trial, interval: Interval) -> Sample:
        t_s = round((interval.end_epoch_s or time.time()) - self.t0, 3)
        return interval.at(trial.index, t_s, self.monitor.temperature_at(t_s))

    def close(self, reason: str = "closed") -> list[str]:
        """Stop the engine, remove the test files that are still ours, unlock the target and
        remove the private folder; idempotent. Every step is tried whatever failed before it
        (a runs folder gone read-only must not leave the test file behind); returns one line
        per thing kept (not ours) or that could not be removed."""
        if self._closed:
            return []
        self._closed = True
        kept = []
        for step in (lambda: self._abort(reason), self._held.dismiss_all):
            try:
                step()
            except OSError as exc:
                log.info("stopping the engine: %s", exc, exc_info=True)
        try:
            kept += self.owner.release()
        except OSError as exc:
            kept.append(f"the test folder {self.target.data_dir} could not be cleaned up "
                        f"({failure_text(exc)}); remove what the run left there by hand")
        return kept + remove_workdir(self._workdir, self._workdir_lock)


def failure_text(exc: BaseException) -> str:
    """One line for what ended a run: an OSError in the system's words with its file (a full
    runs folder is not a bug), anything else with its type."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    return f"{type(exc).__name__}: {exc}"

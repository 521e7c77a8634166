"""The trial runner: a plain generator of events.

For each experiment it prepares one test file (fully written once when any trial reads it), then
runs the trials one by one (jobs/run/trial_steps.py): each finished trial is kept in the run
folder before the next one starts. Test files are removed at the end, on cancel, on failure, and
when the consumer stops iterating (generator close).

Every file in the target goes through :class:`app.paths.OwnedFolder` (created exclusively, checked
before each trial and each delete, under the folder's lock); the engine's stop trigger lives in a
private temporary folder, never in the user's.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Generator, Iterator

from app.engines.base import Engine
from app.experiments.base import Experiment
from app.experiments.plan import RunPlan, Trial
from app.model.status import RunStatus, TrialStatus
from app.model.trial import TrialResult
from app.paths import FileSwapped, OwnedFolder
from app.results.load import stored_summary, with_samples
from app.store.run_folder import RunStore
from jobs.drive.monitor import DriveMonitor
from jobs.engine.child_start import KILL_ON_APP_DEATH
from jobs.engine.process import EngineProcess
from jobs.events import Event, LogMessage, RunFinished, RunStarted
from jobs.run.cancel import Cancel
from jobs.run.engine_starts import _Cancelled
from jobs.run.follow import follow_earlier
from jobs.run.held_starts import HeldStarts
from jobs.run.precision_stop import PrecisionWatch
from jobs.run.precondition import PreconditionRounds
from jobs.run.trial_steps import TrialSteps
from jobs.run.workdir import make_workdir, remove_dead_workdirs, remove_workdir

log = logging.getLogger(__name__)


class TrialRunner(TrialSteps):
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
        self.results: list[TrialResult] = []   # the trials that ended, in run order
        self._held = HeldStarts(engine, self._start_held, self._trial_argv,
                                lambda trial: store.raw_paths(trial.name)[:2], self.cancel)

    # -- public -----------------------------------------------------------------------------
    def events(self) -> Generator[Event, None, None]:
        """The run's events, from RunStarted to RunFinished; a cancel, a file swapped under
        the run or an error ends the run cleanly (its RunFinished says how)."""
        status, error = RunStatus.DONE, None
        self.monitor.start(self.t0)
        try:
            plan = self.plan
            yield RunStarted(str(self.store.dir), tuple(e.id for e in plan.experiments),
                             len(plan.trials), plan.estimated_s, self.engine.name,
                             self.engine.version, plan.seed, open_ended=plan.open_ended)
            for exp in plan.experiments:
                if self.cancel.is_set():
                    raise _Cancelled
                yield from self._run_experiment(exp, [t for t in plan.trials if t.experiment == exp.id])
        except _Cancelled:
            status = RunStatus.CANCELLED
        except FileSwapped as exc:  # someone else's file now: stop, delete nothing
            status, error = RunStatus.FAILED, str(exc)
            yield LogMessage(f"run stopped: {error}", "error")
        except GeneratorExit:
            self._closed_early()
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
        yield from self._finish(status, error)

    # -- one experiment ----------------------------------------------------------------------
    def _run_experiment(self, exp: Experiment, trials: list[Trial]) -> Iterator[Event]:
        """The experiment's trials on its own test file, removed at its end. Its plan may
        follow what ran before it (jobs/run/follow.py); preconditioning rounds, a precision
        target or the experiment's own stop rule may leave trials out."""
        exp, trials, followed = follow_earlier(exp, trials, self.store)
        yield from followed
        test_file = self.owner.new_test_file(exp.id, exp.size)
        self._held.begin(trials, test_file)  # their start-up overlaps the fill below
        yield from self._prepare(exp, test_file)
        rounds = PreconditionRounds(exp)
        self._watch = PrecisionWatch.for_trials(exp.precision_tail, trials)
        overlap = not exp.decides_between_trials()  # the next may start under an end
        for position, trial in enumerate(trials):
            if self.cancel.is_set() and not self._held.is_ahead(trial):
                raise _Cancelled  # (a trial let go already runs: it ends as cancelled)
            if rounds.skip(trial) or self._watch.skip(trial):
                continue
            self.owner.verify(test_file)
            yield from self._run_trial(trial, test_file, trials[position:], overlap)
            ended = rounds.after(trial, self.results[-1])
            if ended:
                self.store.note_experiment(exp.id, precondition_result=rounds.outcome)
                self.store.save()
                yield LogMessage(ended)
            reason = None if trial.warmup else exp.stop_early(self._iops_so_far(exp.id))
            if reason:
                yield LogMessage(f"{exp.id}: {reason}; its remaining trials are not needed")
                break
        self._held.dismiss_all()
        self.owner.verify(test_file)
        self.owner.remove(test_file)

    def _iops_so_far(self, eid: str) -> list[float | None]:
        """Total IOPS of the experiment's measured trials so far, in run order (None: failed)."""
        return [t.measurement.total_iops if t.measurement else None
                for t in self.results if t.experiment == eid and not t.warmup]

    # -- the end -----------------------------------------------------------------------------
    def _finish(self, status: RunStatus, error: str | None) -> Iterator[Event]:
        """run.json's end: SMART after the run, the status (failed when a trial failed) and the
        summary; RunFinished with the results."""
        self.store.record.update(self.monitor.after_run(self.results, self._prepared_bytes))
        failed = [t for t in self.results if t.status is not TrialStatus.DONE]
        if status is RunStatus.DONE and failed:
            status = RunStatus.FAILED
            error = f"{len(failed)} of {len(self.results)} trials failed"
        results = with_samples(self.store.run(), self.store.dir).results
        try:
            self.store.finish(status, results.summary_json(), error)
        except OSError as exc:
            status, error = RunStatus.FAILED, error or failure_text(exc)
            yield LogMessage(f"{self.store.dir / 'run.json'} could not be updated "
                             f"({failure_text(exc)}): it still says the run is going on", "error")
        yield RunFinished(status, str(self.store.dir), results, error)

    def _closed_early(self) -> None:
        """The consumer stopped iterating: clean up and mark the run cancelled, as far as the
        runs folder lets us (nothing more can be said: no one reads the events any more)."""
        self.monitor.stop()
        self.close("the run was closed")
        try:
            self.store.finish(RunStatus.CANCELLED, stored_summary(self.store.run(), self.store.dir))
        except OSError:
            log.info("run.json could not be updated", exc_info=True)

    def close(self, reason: str = "closed") -> list[str]:
        """Stop the engine, remove the test files that are still ours, unlock the target and
        remove the private folder; idempotent. Every step is tried whatever failed before it
        (a runs folder gone read-only must not leave the test file behind); returns one line
        per thing kept (not ours) or that could not be removed."""
        if self._closed:
            return []
        self._closed = True
        kept: list[str] = []
        steps: tuple[Callable[[], None], ...] = (lambda: self._abort(reason), self._held.dismiss_all)
        for step in steps:
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

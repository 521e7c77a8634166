"""The state of the run on screen, live or reopened: the one model every run view takes.

Why one model: the charts, the progress bars, the results table and the log all show the same run.
Feeding them from one object means a reopened run (run.json + samples.csv) and a live run (events
from the worker) go through the same code paths, so what you see after a run is what you saw
during it. It lives on the GUI thread and is fed only with frozen values.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.engines.shell_quote import command_line
from app.experiments.registry import experiment_of, results_for
from app.model.experiment_entry import ExperimentEntry
from app.model.info import Remote
from app.model.run import ExperimentSummary, Run
from app.model.status import RunStatus
from app.model.summary import WorkloadSummary
from app.model.trial import TrialResult
from app.params import values_json
from app.results.build import build_results
from app.results.run_results import RunResults
from jobs.events import (
    Event,
    LogMessage,
    PlanFollowed,
    PrecisionUpdate,
    RunFinished,
    RunStarted,
    Sample,
    TrialFailed,
    TrialFinished,
    TrialStarted,
)
from ui.window.messages import plain_error, plain_refusal
from ui.window.run.past_runs import PastRun
from ui.window.run.planned import PlannedTrial
from ui.window.run.rhythm import SampleRhythm
from ui.window.run.run_state import RunState
from ui.window.run.run_text import CANCELLED_EARLY, run_end_text
from ui.window.run.series import SampleSeries, result_rows, sample_row

if TYPE_CHECKING:  # the worker (and the run session behind it) loads with the first run
    from jobs.worker import RunPrepared, RunRefused

log = logging.getLogger(__name__)
class RunModel(QObject):
    reset = Signal()                 # a new run is shown: views rebuild from the model
    trial_started = Signal(object)   # PlannedTrial
    samples_added = Signal()
    trial_ended = Signal(object)     # the TrialResult of the trial
    summary_changed = Signal()
    state_changed = Signal()
    log_line = Signal(str, str)      # text, level (info | warning | error | command)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.series = SampleSeries()
        self.rhythm = SampleRhythm()   # the views act on new samples together, about once a second
        self._clear()

    def _clear(self) -> None:
        self.series.clear()
        self.status = RunState.IDLE
        self.live = False
        self.run_dir: str | None = None
        self.error: str | None = None
        self.engine_version = ""
        self.temperature_note = ""
        self.remote: Remote | None = None  # run.json's target.remote: which live series it lacks
        self.open_ended = False        # steady state may end the run early: ETA "up to"
        self.round_experiments: set[str] = set()   # experiments whose trials are rounds
        self._sampled: set[str] = set()
        self.planned: dict[int, PlannedTrial] = {}
        self.experiments: list[ExperimentEntry] = []   # run.json's entries, as the run goes
        self.trials: list[TrialResult] = []     # the trials that ended, typed (charts, tables)
        self.summary: dict[str, tuple[WorkloadSummary, ...]] = {}   # the rows shown, per experiment
        self.results: RunResults | None = None   # the shown run's results (app/results/)
        self.kept_samples: list[Sample] = []     # of experiments whose results read them
        self._shown: tuple[RunState, str | None] = (RunState.IDLE, None)   # state, error before a Run
        self.boundaries: list[tuple[float, PlannedTrial]] = []
        self.current: PlannedTrial | None = None
        self.precision: dict[str, str] = {}  # workload label -> its ± now (a precision target)
        self.current_started = 0.0       # monotonic, when the current trial started
        self.run_started = 0.0
        self.done_expected_s = 0.0
        self.done_actual_s = 0.0

    # -- progress ------------------------------------------------------------------------------
    @property
    def trial_count(self) -> int:
        return len(self.planned)

    @property
    def finished(self) -> bool:
        return self.status.final

    def current_elapsed_s(self) -> float:
        return time.monotonic() - self.current_started if self.current else 0.0

    def total_expected_s(self) -> float:
        return sum(t.expected_s for t in self.planned.values())

    def eta_s(self) -> float | None:
        """Planned time left, scaled by how much longer than planned the trials so far took
        (process start, the final JSON, the test file preparation)."""
        if not self.live or self.finished or self.current is None:
            return None
        left = sum(t.expected_s for i, t in self.planned.items() if i > self.current.index)
        left += max(0.0, self.current.expected_s - self.current_elapsed_s())
        ratio = self.done_actual_s / self.done_expected_s if self.done_expected_s > 0 else 1.0
        return left * min(max(ratio, 1.0), 3.0)

    # -- feeding -------------------------------------------------------------------------------
    def begin(self, note: str = "") -> None:
        """A run is being prepared (checks, run folder). What is shown stays until the run is
        under way (RunPrepared): a run refused by its checks must not cost the shown results."""
        self._shown = (self.status, self.error)
        self.status, self.live = RunState.PREPARING, True
        self.run_started = time.monotonic()
        self.state_changed.emit()
        if note:
            self.log_line.emit(note, "info")

    def apply(self, event: Event | RunPrepared | RunRefused) -> None:
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is not None:
            handler(event)

    def apply_live(self, events: Iterable[Sample | PrecisionUpdate]) -> None:
        """Live events that came together (samples and precision updates, jobs/worker.py
        LiveBatch), in order; the views hear of the new samples once, after the last."""
        for event in events:
            if isinstance(event, Sample):
                self._add_sample(event)
            else:
                self.apply(event)
        self.rhythm.on_samples()
        self.samples_added.emit()

    def _on_RunPrepared(self, e: RunPrepared) -> None:
        started = self.run_started
        self._clear()
        self.run_started, self.live = started, True
        self.run_dir, self.engine_version, self.status = e.run_dir, e.engine_version or "", RunState.RUNNING
        self.temperature_note = e.temperature_note
        self.remote = Remote.from_json(e.remote, "target.remote")
        self.open_ended = e.plan.open_ended
        self.round_experiments = {x.id for x in e.plan.experiments if x.rounds_measured}
        self._sampled = {x.id for x in e.plan.experiments if results_for(x.id).needs_samples}
        self.precision = {}
        self.planned = {t.index: PlannedTrial(t.index, t.experiment, t.workload.label, t.repetition,
                                              t.warmup, t.runtime_s + t.ramp_s, t.workload.reads,
                                              t.workload.writes, t.precondition)
                        for t in e.plan.trials}
        self.experiments = [ExperimentEntry.of({"id": x.id, "title": x.title,
                                                "params": values_json(x),   # figures and findings read them
                                                "workload_keys": [w.key for w in x.workloads()]})
                            for x in e.plan.experiments]
        self.reset.emit()   # the views rebuild for the new run, now that it is under way
        self.state_changed.emit()

    def _on_RunRefused(self, e: RunRefused) -> None:
        reason = plain_refusal(e.message)
        self.status, self.error, self.live = RunState.REFUSED, reason, False
        if self.run_dir:  # a run is shown: it stays shown, the refusal goes to the log
            self.status, self.error = self._shown
        self.log_line.emit(f"not started: {reason}", "error")
        self.state_changed.emit()

    def cancelled_before_start(self) -> None:
        """Cancelled while the run was being prepared: no run folder was made."""
        self.status, self.error, self.live = RunState.CANCELLED, None, False
        if self.run_dir:
            self.status, self.error = self._shown
        self.log_line.emit(CANCELLED_EARLY, "warning")
        self.state_changed.emit()

    def _on_RunStarted(self, e: RunStarted) -> None:
        self.log_line.emit(f"run of {', '.join(e.experiments)}: {e.trial_count} trials with "
                           f"{e.engine_version} (seed {e.seed}); folder {e.run_dir}", "info")

    def _on_LogMessage(self, e: LogMessage) -> None:
        self.log_line.emit(e.text, e.level)

    def _on_PlanFollowed(self, e: PlanFollowed) -> None:
        """Tail-latency at the measured knee: its params and planned labels follow, live."""
        self.experiments = [ExperimentEntry.of({**x.to_json(), **e.entry}) if x.id == e.experiment else x
                            for x in self.experiments]
        self.planned.update({i: replace(self.planned[i], label=label)
                             for i, label in e.labels.items() if i in self.planned})

    def _on_TrialStarted(self, e: TrialStarted) -> None:
        trial = self.planned.get(e.index) or PlannedTrial(
            e.index, e.experiment, e.label, e.repetition, e.warmup, e.expected_s, True, True,
            e.precondition)
        self.current, self.current_started = trial, time.monotonic()
        self.boundaries.append((e.t_s, trial))
        self.series.begin_trial(e.t_s)
        self.log_line.emit(command_line(e.argv), "command")  # as commands.log writes it
        self.trial_started.emit(trial)

    def _on_Sample(self, e: Sample) -> None:
        self._add_sample(e)
        self.rhythm.on_samples()
        self.samples_added.emit()

    def _add_sample(self, e: Sample) -> None:
        trial = self.planned.get(e.trial)
        self.series.append(sample_row(e, trial.reads if trial else True,
                                      trial.writes if trial else True))
        if trial is not None and trial.experiment in self._sampled:   # the SLC curve, live
            self.kept_samples.append(e)

    def _on_PrecisionUpdate(self, e: PrecisionUpdate) -> None:
        trial = self.planned.get(e.trial)
        if trial is not None:
            self.precision[f"{trial.experiment} {trial.label}"] = e.text()

    def _on_TrialFinished(self, e: TrialFinished) -> None:
        self._trial_ended(e.record)

    def _on_TrialFailed(self, e: TrialFailed) -> None:
        level = "warning" if e.cancelled else "error"
        self.log_line.emit(f"{e.label}: {plain_error(e.error, e.stderr_tail)}", level)
        self._trial_ended(e.record)

    def _trial_ended(self, trial: TrialResult) -> None:
        self.trials.append(trial)
        if self.current is not None and trial.index == self.current.index:
            rows = result_rows(trial.measurement, self.boundaries[-1][0],
                               self.series.trial_samples, trial.runtime_s,
                               self.current.reads, self.current.writes)
            for row in rows:   # a trial shorter than the sample interval: its result, drawn
                self.series.append_result(row)
            if rows:
                self.rhythm.on_samples()
                self.samples_added.emit()
            self.done_expected_s += self.current.expected_s
            self.done_actual_s += self.current_elapsed_s()
        self.trial_ended.emit(trial)
        self._update_live_summary()

    def _update_live_summary(self) -> None:
        """Workloads whose repetitions have all finished get their mean ± std row now."""
        run = Run(RunStatus.RUNNING, tuple(self.experiments), tuple(self.trials), {})
        self.results = build_results(run, self.kept_samples, earlier=self.results)
        # rounds (steady-state) stop once steady: their row shows from the first round on
        reps = {x.id: 1 if exp is None or exp.rounds_measured else exp.repetitions
                for x in self.experiments for exp in (experiment_of(x),)}
        self.summary = {p.id: tuple(r for r in p.workloads if r.n >= reps.get(p.id, 1))
                        for p in self.results.parts}
        self.summary_changed.emit()

    def _on_RunFinished(self, e: RunFinished) -> None:
        self.status, self.error, self.current = RunState.of(e.status), e.error, None
        self.run_dir = e.run_dir
        self.summary = ({p.id: p.workloads for p in e.results.parts} if e.results is not None else
                        {eid: ExperimentSummary.from_json(s).workloads for eid, s in e.summary.items()})
        self.results = e.results
        self.log_line.emit(run_end_text(e.status, self, e.run_dir),
                           "info" if e.status == RunStatus.DONE else "warning")
        self.summary_changed.emit()
        self.state_changed.emit()

    # -- reopening -----------------------------------------------------------------------------
    def load_past(self, past: PastRun) -> None:
        """Show a run from its folder: charts from samples.csv, table from run.json."""
        self._clear()
        run = past.results.run
        info = run.info
        self.run_dir = str(past.results.folder) if past.results.folder else None
        self.status, self.error = RunState.of(run.status), info.error
        self.engine_version = info.engine.version or "" if info.engine else ""
        self.temperature_note = info.temperature.reason or "" if info.temperature else ""
        self.remote = info.target.remote if info.target else None
        self.experiments = list(run.experiments)
        self.trials = list(run.trials)
        self.planned = dict(past.planned)   # made and checked off the GUI thread
        self.boundaries = [(at, self.planned[i]) for at, i in past.boundaries if i in self.planned]
        self.series.extend(past.block, past.samples)
        # the rows the export shows, rebuilt from the trials (a run.json of an earlier version
        # lacks flags the tables rest on: a percentile on too few I/Os); as written when none
        self.summary = ({p.id: p.workloads for p in past.results.parts}
                        or {eid: s.workloads for eid, s in run.summary.items()})
        self.results = past.results
        if self.status is RunState.RUNNING:
            self.error = ("run.json still says running: the run goes on in another window or "
                          "terminal, or it was interrupted")
        self.reset.emit()  # the views rebuild everything, the summary too: no summary_changed,
        self.state_changed.emit()  # which made them word a 10,000-trial run's findings twice
        self.log_line.emit(f"reopened {self.run_dir} ({self.status}, {len(self.trials)} trials, "
                           f"{past.samples} samples)", "info")

"""The trial runner: a plain generator of events (DESIGN §2, §7.2).

For each experiment it prepares one test file (fully written once when any trial reads it), then
runs the trials one by one: argv from the engine adapter, the process under bounded control, live
output split into samples, the final output parsed into a measurement. Each finished trial is
written to the run folder before the next one starts. Test files are removed at the end, on
cancel, on failure, and when the consumer stops iterating (generator close).
"""
from __future__ import annotations

import copy
import logging
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator

from app.plan import RunPlan, Trial
from app.safety import CheckedTarget
from app.store import RunStore, utc_now
from app.summary import summarize_run
from jobs.events import (Event, LogMessage, RunFinished, RunStarted, Sample, TrialFailed,
                         TrialFinished, TrialStarted)
from jobs.monitor import DriveMonitor
from jobs.process import EngineProcess

log = logging.getLogger(__name__)

POLL_S = 0.2
PREPARE_MIN_MBPS = 5.0        # slowest drive we wait for while writing the test file


class _Cancelled(Exception):
    pass


class TrialRunner:
    """Runs a :class:`RunPlan`; iterate :meth:`events`. ``cancel`` may be set from any thread."""

    def __init__(self, plan: RunPlan, target: CheckedTarget, engine, store: RunStore,
                 cancel: threading.Event | None = None, watchdog_grace_s: float = 30.0,
                 monitor: DriveMonitor | None = None):
        self.plan, self.target, self.engine, self.store = plan, target, engine, store
        self.monitor = monitor or DriveMonitor(None)
        self._prepared_bytes = 0
        self.cancel = cancel or threading.Event()
        self.grace_s = watchdog_grace_s
        self.t0 = time.time()
        self._files: list[Path] = []
        self._proc: EngineProcess | None = None
        self._created_folder = False
        # fio writes *-verify.state files into its working folder when a trigger file stops it:
        # give it a private scratch folder, removed at the end, instead of the user's target.
        self._workdir = Path(tempfile.mkdtemp(prefix="ssd-profiler-engine-"))

    # -- public -----------------------------------------------------------------------------
    def events(self) -> Iterator[Event]:
        plan = self.plan
        yield RunStarted(str(self.store.dir), tuple(e.id for e in plan.experiments),
                         len(plan.trials), plan.estimated_s, self.engine.name,
                         self.engine.version, plan.seed)
        status, error = "done", None
        self.monitor.start(self.t0)
        try:
            for exp in plan.experiments:
                trials = [t for t in plan.trials if t.experiment == exp.id]
                test_file = self.target.test_file(f"{self.store.dir.name.split('_')[0]}-{exp.id}")
                self._files.append(test_file)
                yield from self._prepare(exp, trials, test_file)
                for trial in trials:
                    if self.cancel.is_set():
                        raise _Cancelled
                    yield from self._run_trial(trial, test_file)
                self._remove(test_file)
        except _Cancelled:
            status = "cancelled"
        except GeneratorExit:
            self.monitor.stop()
            self._abort("the run was closed")
            self.store.finish("cancelled", summarize_run(self.store.record, self.store.dir))
            raise
        except Exception as exc:  # an engine we cannot start, a full disk: end the run cleanly
            log.exception("run failed")
            status, error = "failed", f"{type(exc).__name__}: {exc}"
            yield LogMessage(f"run failed: {error}", "error")
        finally:
            self.monitor.stop()
            self._cleanup()
        self.store.record.update(self.monitor.after_run(self.store.record["trials"],
                                                        self._prepared_bytes))
        if status == "done":
            failed = [t for t in self.store.record["trials"] if t["status"] != "done"]
            if failed:
                status = "failed"
                error = f"{len(failed)} of {len(self.store.record['trials'])} trials failed"
        summary = summarize_run(self.store.record, self.store.dir)
        self.store.finish(status, summary, error)
        yield RunFinished(status, str(self.store.dir), copy.deepcopy(summary), error)

    # -- steps ------------------------------------------------------------------------------
    def _prepare(self, exp, trials: list[Trial], test_file: Path) -> Iterator[Event]:
        if not self.target.folder.exists():
            self.target.folder.mkdir()  # its parent exists (checked); removed again if left empty
            self._created_folder = True
        test_file.parent.mkdir(exist_ok=True)
        if not any(t.workload.reads for t in trials):
            return  # write-only: fio creates the file; a pre-fill would skew e.g. the SLC test
        argv = self.engine.prepare_argv(test_file, exp.size, self._trigger(test_file), exp.direct)
        if argv is None:
            return  # the engine fills the file itself
        self.store.log_command(argv, f"prepare {exp.id}")
        yield LogMessage(" ".join(argv), "command")
        yield LogMessage(f"writing the {exp.size >> 20} MiB test file for {exp.id} once")
        limit = 60.0 + exp.size / (PREPARE_MIN_MBPS * 1e6)
        proc = self._start(argv, test_file)
        while proc.poll() is None:
            proc.read_text(POLL_S)
            self._check_stop(proc, limit)
        proc.finish()
        self._proc = None
        self._prepared_bytes += exp.size
        if proc.proc.returncode != 0:
            raise RuntimeError(f"writing the test file failed (rc {proc.proc.returncode}): "
                               f"{proc.stderr_tail(300) or 'no message'}")

    def _run_trial(self, trial: Trial, test_file: Path) -> Iterator[Event]:
        argv = self.engine.trial_argv(trial, test_file, self._trigger(test_file))
        started_at, t_start = utc_now(), time.time() - self.t0
        self.store.log_command(argv, trial.name)
        yield TrialStarted(trial.index, trial.experiment, trial.workload.label, trial.repetition,
                           trial.warmup, tuple(argv), t_start, trial.runtime_s + trial.ramp_s)
        limit = trial.runtime_s + trial.ramp_s + self.grace_s
        if not test_file.exists():  # the engine creates (DiskSpd: writes) the file first
            limit += trial.size_bytes / (PREPARE_MIN_MBPS * 1e6)
        live = self.engine.live(trial, test_file)
        proc = self._start(argv, test_file)
        problem, samples = None, []
        try:
            while True:
                exited = proc.poll() is not None
                for interval in live.feed(proc.read_text(0.0 if exited else POLL_S)):
                    samples.append(self._sample(trial, interval))
                    yield samples[-1]
                if exited:
                    break
                self._check_stop(proc, limit)
        except _Cancelled:
            problem = "cancelled by user"
        except TimeoutError as exc:
            problem = str(exc)
        rc = proc.finish()
        for interval in live.feed(proc.read_text(0.0)):
            samples.append(self._sample(trial, interval))
            yield samples[-1]
        self._proc = None
        # An engine without live output (DiskSpd) is charted from OS disk counters while it
        # runs; its own per-second series replaces them once the trial is over.
        final = getattr(live, "final_intervals", None)
        replacement = final(proc.stdout_bytes.decode("utf-8", errors="replace")) if final else None
        if replacement:
            samples = [self._sample(trial, interval) for interval in replacement]
        self.store.append_samples(s.row() for s in samples)
        record = self._record(trial, argv, proc, rc, started_at, problem)
        record["throttle"] = self.monitor.trial_flags(samples, t_start, time.time() - self.t0)
        record["throttled"] = record["throttle"]["throttled"]
        self.store.add_trial(record)
        frozen = copy.deepcopy(record)
        if record["status"] == "done":
            yield TrialFinished(trial.index, trial.workload.label, frozen)
        else:
            yield TrialFailed(trial.index, trial.workload.label, record["error"],
                              record["stderr_tail"], record["status"] == "cancelled", frozen)
        if problem == "cancelled by user":
            raise _Cancelled

    # -- helpers ----------------------------------------------------------------------------
    def _record(self, trial: Trial, argv, proc: EngineProcess, rc, started_at, problem) -> dict:
        raw = self.store.write_raw(trial.name, proc.stdout_bytes, proc.stderr_bytes)
        measurement, error = None, problem
        if error is None:
            measurement, error = self._measurement(trial, proc, rc)
        status = "done" if error is None else ("cancelled" if problem == "cancelled by user" else "failed")
        return {**trial.to_json(), "argv": list(argv), "status": status, "error": error,
                "stderr_tail": proc.stderr_tail() if status != "done" else "",
                "returncode": rc, "stopped_by": proc.stop_reason, "started_at": started_at,
                "ended_at": utc_now(), "elapsed_s": round(proc.elapsed_s(), 3), "raw": raw,
                "measurement": measurement}

    def _measurement(self, trial: Trial, proc: EngineProcess, rc) -> tuple[dict | None, str | None]:
        text = proc.stdout_bytes.decode("utf-8", errors="replace")
        try:
            results = self.engine.parse_final(text, None)
        except ValueError as exc:
            tail = proc.stderr_tail(300)
            return None, f"engine exited with rc {rc} and no readable result" + (f": {tail}" if tail else f" ({exc})")
        if rc != 0:
            return None, f"engine exited with rc {rc}: {proc.stderr_tail(300) or 'no message'}"
        if len(results) != 1:
            return None, f"expected one job result, got {len(results)}"
        measurement = results[0]
        if measurement.get("status") == "failed":
            return None, measurement.get("error") or "the engine reported a failed job"
        measurement["workload"] = {**trial.workload.to_json(), "runtime_s": trial.runtime_s}
        return measurement, None

    def _sample(self, trial: Trial, interval) -> Sample:
        t_s = round((interval.end_epoch_s or time.time()) - self.t0, 3)
        return Sample(trial.index, t_s, interval.read_MBps, interval.read_iops,
                      interval.read_lat_us, interval.write_MBps, interval.write_iops,
                      interval.write_lat_us, self.monitor.temperature_at(t_s))

    def _start(self, argv: list[str], test_file: Path) -> EngineProcess:
        trigger = self._trigger(test_file)
        trigger.unlink(missing_ok=True)
        self._proc = EngineProcess(argv, self.engine.graceful_stop(trigger), cwd=self._workdir)
        return self._proc

    def _check_stop(self, proc: EngineProcess, limit_s: float) -> None:
        if self.cancel.is_set():
            proc.stop("cancel")
            raise _Cancelled
        if proc.elapsed_s() > limit_s:
            how = proc.stop("watchdog")
            raise TimeoutError(f"engine ran past its time limit of {limit_s:.0f} s and was "
                               f"stopped ({how})")

    @staticmethod
    def _trigger(test_file: Path) -> Path:
        return test_file.with_suffix(".stop")

    def _abort(self, reason: str) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.stop(reason)
            self._proc.finish(timeout=2.0)

    def _remove(self, path: Path) -> None:
        for p in (path, self._trigger(path)):
            try:
                p.unlink(missing_ok=True)
            except OSError as exc:
                log.warning("cannot remove %s: %s", p, exc)

    def _cleanup(self) -> None:
        self._abort("cleanup")
        for path in self._files:
            self._remove(path)
        shutil.rmtree(self._workdir, ignore_errors=True)
        folders = [self.target.data_dir] + ([self.target.folder] if self._created_folder else [])
        for folder in folders:
            try:
                folder.rmdir()  # only when empty: never remove what we did not write
            except OSError:
                pass

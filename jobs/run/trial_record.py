"""One trial's result, from its engine process once it has ended.

The result says what ran (argv), how it ended (status, error, return code, who stopped it) and
what it measured; a trial whose engine printed no readable result, or not exactly one job, is a
failed trial with the reason, never a guessed measurement. It is a typed
:class:`app.model.trial.TrialResult`: the run folder (app/store/run_folder.py) turns it into
run.json's trial record, nothing before it handles that JSON.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.engines.base import Engine, LiveAdapter
from app.experiments.plan import Trial
from app.model.measurement import Measurement, frozen
from app.model.status import TrialStatus
from app.model.trial import TrialResult
from app.store.run_folder import utc_now
from jobs.engine.process import EngineProcess

CANCELLED = "cancelled by user"


def trial_result(engine: Engine, trial: Trial, argv: Sequence[str], proc: EngineProcess,
                 rc: int | None, started_at: str, problem: str | None,
                 raw: Mapping[str, str], live: LiveAdapter | None = None) -> TrialResult:
    """The ended trial: ``problem`` (a cancel, a timeout) ends it without a measurement.
    ``live``: the adapter that read the trial's output as it came."""
    measurement, error = None, problem
    if error is None:
        measurement, error = _measurement(engine, trial, proc, rc, live)
    status = (TrialStatus.DONE if error is None else TrialStatus.CANCELLED
              if problem == CANCELLED else TrialStatus.FAILED)
    planned = trial.to_json()   # what was planned beyond the model's fields: ramp, size, ...
    extra = {**{k: v for k, v in planned.items() if k not in TrialResult.KEYS},
             "argv": list(argv), "stderr_tail": proc.stderr_tail() if status != TrialStatus.DONE else "",
             "returncode": rc, "stopped_by": proc.stop_reason, "started_at": started_at,
             "ended_at": utc_now(), "elapsed_s": round(proc.elapsed_s(), 3), "raw": dict(raw),
             "app_cpu_s": proc.app_cpu_s}
    return TrialResult(index=trial.index, experiment=trial.experiment, workload=frozen(planned["workload"]),
                       label=trial.workload.label, repetition=trial.repetition, warmup=trial.warmup,
                       status=status, runtime_s=trial.runtime_s, error=error,
                       measurement=measurement, extra=frozen(extra))


def with_checks(result: TrialResult, throttle: Mapping[str, Any],
                precision: Mapping[str, Any] | None) -> TrialResult:
    """The result with the checks made once it ended: thermal throttling (app/drive/throttle.py)
    and, for a trial measured to a precision target, its ``precision`` block."""
    checks: dict[str, Any] = {"throttle": dict(throttle), "throttled": throttle["throttled"]}
    if precision is not None:
        checks["precision"] = dict(precision)
    return replace(result, extra=frozen({**result.extra, **checks}))


def _measurement(engine: Engine, trial: Trial, proc: EngineProcess, rc: int | None,
                 live: LiveAdapter | None) -> tuple[Measurement | None, str | None]:
    text = proc.stdout_bytes.decode("utf-8", errors="replace")
    try:
        results = engine.parse_final(text, None, live)
    except ValueError as exc:
        tail = proc.stderr_tail(300)
        why = f": {tail}" if tail else f" ({exc})"
        return None, f"engine exited with rc {rc} and no readable result{why}"
    if rc != 0:
        return None, f"engine exited with rc {rc}: {proc.stderr_tail(300) or 'no message'}"
    if len(results) != 1:
        return None, f"expected one job result, got {len(results)}"
    measurement = Measurement.from_json(
        {**results[0], "workload": {**trial.workload.to_json(), "runtime_s": trial.runtime_s}})
    if measurement.failed:
        return None, measurement.error or "the engine reported a failed job"
    return measurement, None

"""One trial's entry in run.json, from its engine process once it has ended.

The record says what ran (argv), how it ended (status, error, return code, who stopped it) and
what it measured; a trial whose engine printed no readable result, or not exactly one job,
is a failed trial with the reason, never a guessed measurement.
"""
from __future__ import annotations

from app.engines.base import Engine
from app.experiments.plan import Trial
from app.model.status import JobStatus, TrialStatus
from app.store.run_folder import utc_now
from jobs.engine.process import EngineProcess

CANCELLED = "cancelled by user"


def trial_record(engine: Engine, trial: Trial, argv, proc: EngineProcess, rc, started_at,
                 problem: str | None, raw) -> dict:
    measurement, error = None, problem
    if error is None:
        measurement, error = _measurement(engine, trial, proc, rc)
    status = (TrialStatus.DONE if error is None else TrialStatus.CANCELLED
              if problem == CANCELLED else TrialStatus.FAILED)
    return {**trial.to_json(), "argv": list(argv), "status": status, "error": error,
            "stderr_tail": proc.stderr_tail() if status != TrialStatus.DONE else "",
            "returncode": rc, "stopped_by": proc.stop_reason, "started_at": started_at,
            "ended_at": utc_now(), "elapsed_s": round(proc.elapsed_s(), 3), "raw": raw,
            "app_cpu_s": proc.app_cpu_s,
            "measurement": measurement}


def _measurement(engine: Engine, trial: Trial, proc: EngineProcess, rc) -> tuple[dict | None, str | None]:
    text = proc.stdout_bytes.decode("utf-8", errors="replace")
    try:
        results = engine.parse_final(text, None)
    except ValueError as exc:
        tail = proc.stderr_tail(300)
        return None, f"engine exited with rc {rc} and no readable result" + (f": {tail}" if tail else f" ({exc})")
    if rc != 0:
        return None, f"engine exited with rc {rc}: {proc.stderr_tail(300) or 'no message'}"
    if len(results) != 1:
        return None, f"expected one job result, got {len(results)}"
    measurement = results[0]
    if measurement.get("status") == JobStatus.FAILED:
        return None, measurement.get("error") or "the engine reported a failed job"
    measurement["workload"] = {**trial.workload.to_json(), "runtime_s": trial.runtime_s}
    return measurement, None

"""``run --dry-run``: the plan of a run, checked like a real one, with nothing written.

The same checks as :func:`jobs.run.session.prepare_run` (parameters, target, engine) answer the same
way, but no lock, no run folder and no test file is made: the target is only looked at, and the
engine commands name the test file the run *would* create (``<random>`` stands for the part of
its name drawn when the run starts). What a run writes is known only in part before it runs:
the test file a read workload needs is filled once (known bytes), while write trials are
time-based, so their bytes depend on the drive (shown as seconds of writing, with an example).
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.experiments.plan import RunPlan, Trial, experiments_from_settings, plan_run
from app.paths import CheckedTarget, check_target
from app.paths.owned import TEST_FILE_PREFIX, TEST_FILE_SUFFIX
from jobs.engine.factory import locate_engine

EXAMPLE_WRITE_MBPS = 2000.0  # a typical NVMe SSD's sequential write, for the bytes example only


@dataclass(frozen=True)
class PlannedRun:
    plan: RunPlan
    target: CheckedTarget
    engine_name: str
    engine_version: str | None
    commands: tuple[tuple[Trial, tuple[str, ...]], ...]
    test_file_bytes: int          # largest test file on the target at any time
    prefill_bytes: int            # written once to fill the test files of read workloads
    write_seconds: float          # trial time spent writing (time-based: bytes depend on the drive)
    volume_bytes: int = 0         # written by volume-bound trials (write-saturation): known

    def to_json(self) -> dict[str, Any]:
        return {"experiments": [e.id for e in self.plan.experiments], "seed": self.plan.seed,
                "target": str(self.target.folder), "engine": self.engine_name,
                "engine_version": self.engine_version, "trials": len(self.plan.trials),
                "estimated_s": self.plan.estimated_s, "test_file_bytes": self.test_file_bytes,
                "prefill_bytes": self.prefill_bytes, "write_seconds": self.write_seconds,
                "volume_bytes": self.volume_bytes,
                "commands": [{**t.to_json(), "argv": list(argv)} for t, argv in self.commands]}


def plan_only(names: list[str], settings: dict[str, str], target: str, seed: int | None = None,
              engine: str | None = None, engine_path: str | None = None,
              allow_media: tuple[str, ...] = ()) -> PlannedRun:
    """Raises ParamError, TargetRefused or EngineNotFound like a real run; writes nothing."""
    experiments = experiments_from_settings(names, settings)
    checked = check_target(target, max(e.size for e in experiments), allow_media)
    found = locate_engine(engine, engine_path)
    plan = plan_run(experiments, seed)
    stop = Path(tempfile.gettempdir()) / "ssd-profiler-engine-<random>" / "stop"
    commands, prefill = [], 0
    for exp in plan.experiments:
        test_file = checked.data_dir / f"{TEST_FILE_PREFIX}<run id>-{exp.id}-<random>{TEST_FILE_SUFFIX}"
        trials = [t for t in plan.trials if t.experiment == exp.id]
        prefill += exp.prefill_passes() * exp.size
        commands += [(t, tuple(found.trial_argv(t, test_file, stop))) for t in trials]
    writes = sum(t.runtime_s + t.ramp_s for t in plan.trials if t.workload.writes and not t.io_bytes)
    volume = sum(t.io_bytes or 0 for t in plan.trials)
    return PlannedRun(plan, checked, found.name, found.version, tuple(commands),
                      max(e.size for e in experiments), prefill, writes, volume)

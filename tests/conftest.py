"""Shared test helpers: fixture files, the CLI as a real subprocess, fake engines on PATH."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]
# genuine engine outputs, copied byte for byte (tests/fixtures/PROVENANCE.md says from where)
FIXTURES = REPO / "tests" / "fixtures"
FAKES = REPO / "tests" / "fakes"
TINY = ["--set", "runtime=1s", "--set", "size=32MiB"]

#: The test files that take a worker longest (a build, throttled devices, whole runs), started
#: first so the workers end together: run last, the build alone kept one worker busy for a
#: minute and a half after the others had finished (setup.sh passes --no-loadscope-reorder, or
#: xdist would order files by their number of tests and start these last).
LONG_POLES = ("tests/ui/test_packaging.py", "tests/jobs/test_throttled_rates.py",
              "tests/ui/test_export.py", "tests/ui/cli/test_cli_run.py",
              "tests/app/experiments/test_catalog_grows.py", "tests/packaging/test_deb_package.py",
              "tests/jobs/test_remote_hosts.py", "tests/ui/window/test_window_export.py",
              "tests/app/test_run_folder_properties.py", "tests/ui/test_too_few_everywhere.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long poles first, everything else in its collected order."""
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONG_POLES.index(path) if path in LONG_POLES else len(LONG_POLES)
    items.sort(key=rank)   # stable: the rest keeps its order


def run_cli(*args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """``ssd-profiler ARGS`` as a user runs it: a separate process, text output captured."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "ui.main", *args], cwd=REPO, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


def run_json(run_dir: str | Path) -> dict:
    return json.loads((Path(run_dir) / "run.json").read_text())


@pytest.fixture
def fake_fio_env(tmp_path) -> dict:
    """PATH with the fake fio first; pick its behaviour with FAKE_FIO_MODE."""
    return {"PATH": f"{FAKES}{os.pathsep}{os.environ['PATH']}", "SSD_PROFILER_FIO": str(FAKES / "fio")}


def tree(folder: Path) -> list[str]:
    """Every path under ``folder`` (to prove that nothing was written)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []
ARTIFACTS = REPO / "tests" / "artifacts"  # screenshots and figures the tests save, to look at

# shared markers: the real engine, and root for loop devices, bind mounts and mknod
needs_fio = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")
needs_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                reason="needs root (loop devices, bind mounts, mknod)")

# Property tests explore new examples on a developer's machine; on CI (CI=true) they are
# derandomized, so a submission's result does not depend on the luck of one run.
settings.register_profile("ci", derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@contextmanager
def mounted(args: list[str], where: Path):
    """``mount ARGS where`` for the test's duration (root tests), skipped with mount's reason
    where the machine cannot mount it; unmounted lazily, so a test's open file cannot keep it."""
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", *args, str(where)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def results_of(record: dict, run_dir: str | Path | None = None):
    """The typed results of a run record (as run.json holds it), with its folder's samples."""
    from app.model.run import Run
    from app.results.build import build_results
    from app.store.samples import read_sample_table
    samples = read_sample_table(run_dir).samples() if run_dir else []
    return build_results(Run.from_json({"status": "done", **record}), samples,
                         Path(run_dir) if run_dir else None)


def parts_of(summary: dict):
    """Experiment results from run.json-shaped summary rows (vendor and plausibility tests)."""
    from app.model.experiment_entry import ExperimentEntry
    from app.model.summary import WorkloadSummary
    from app.results.run_results import ExperimentResults
    return tuple(ExperimentResults(eid, ExperimentEntry.of({"id": eid}), tuple(
        WorkloadSummary.from_json({"key": w["label"], **w}) for w in part.get("workloads", [])), ())
        for eid, part in summary.items())


def info_of(record: dict | None):
    """The typed descriptive blocks of a run.json-shaped record."""
    from app.model.info import RunInfo
    from app.model.run import Run
    return RunInfo.read({k: v for k, v in (record or {}).items() if k not in Run.KEYS})

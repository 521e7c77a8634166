"""The PyInstaller one-folder build, made once per test run and shared by every test that needs it.

Building takes a minute or more on the 2-core CI machine, and two test files need it (the folder
itself, and the .deb made from it). Under pytest-xdist each worker has its own session, so a
session fixture alone would build twice, and two builds into the same dist/ at once would break
each other: the first worker to ask builds under a file lock, and the run's id in a stamp file
tells the others that the folder is this run's (a folder left by an earlier run is rebuilt).
A build that fails is recorded too, so the second test reports the same failure at once.
SSD_PROFILER_TEST_REUSE_BUILD=1 takes whatever dist/ssd-profiler/ holds (to iterate on a test).
"""
from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from conftest import REPO

FOLDER = REPO / "dist" / "ssd-profiler"
EXE = FOLDER / "ssd-profiler"
_RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex  # one per `pytest`
_LOCK, _STAMP = REPO / "build" / "frozen.lock", REPO / "build" / "frozen.stamp"
#: What the tests that use the build allow for it (pyproject's 300 s is for one test's own work):
#: ~70 s on an idle 2-core machine, 4-5 min when others share it.
BUILD_TIMEOUT_S = 900


def build_env() -> dict:
    return {**os.environ, "PYTHON": sys.executable, "QT_QPA_PLATFORM": "offscreen"}


def _build_once() -> tuple[bool, str]:
    _LOCK.parent.mkdir(parents=True, exist_ok=True)
    with _LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        status, _, text = (_STAMP.read_text() if _STAMP.exists() else "").partition("\n")
        if EXE.is_file() and (status == f"ok {_RUN_ID}" or os.environ.get("SSD_PROFILER_TEST_REUSE_BUILD")):
            return True, text
        if status == f"failed {_RUN_ID}":
            return False, text
        started = time.monotonic()
        build = subprocess.run(["bash", "packaging/build.sh"], cwd=REPO, env=build_env(),
                               capture_output=True, text=True, timeout=BUILD_TIMEOUT_S - 60)
        ok = build.returncode == 0 and EXE.is_file()
        text = (f"built in {time.monotonic() - started:.0f} s" if ok
                else build.stdout[-2000:] + build.stderr[-4000:])
        _STAMP.write_text(f"{'ok' if ok else 'failed'} {_RUN_ID}\n{text}")
        return ok, text


@pytest.fixture(scope="session")
def frozen_folder() -> Path:
    """dist/ssd-profiler/, built by packaging/build.sh once in this test run."""
    ok, text = _build_once()
    assert ok, text
    return FOLDER

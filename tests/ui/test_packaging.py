"""The Linux one-folder executable builds, and serves --version and --self-test offscreen."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from frozen_support import BUILD_TIMEOUT_S, EXE, build_env, frozen_folder  # noqa: F401 - the shared build

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux build only")


@pytest.mark.usefixtures("frozen_folder")
@pytest.mark.timeout(BUILD_TIMEOUT_S + 300)  # the shared build is its set-up
def test_build_and_smoke_the_executable():
    env, exe = build_env(), EXE
    version = subprocess.run([str(exe), "--version"], env=env, capture_output=True, text=True,
                             timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("ssd-profiler "), version.stderr
    selftest = subprocess.run([str(exe), "--self-test"], env=env, capture_output=True, text=True,
                              timeout=300)
    assert selftest.returncode == 0, selftest.stdout + selftest.stderr
    assert "self-test: passed" in selftest.stdout
    size = sum(p.stat().st_size for p in exe.parent.rglob("*") if p.is_file() and not p.is_symlink())
    # issue 21: 260 MB before packaging/lean.py, 199 MB after; the target of 150 MB is out of reach
    # while ICU (38 MB), OpenBLAS (25 MB), pandas and numpy are needed: this bound catches growth
    assert size < 215e6, f"the folder holds {size / 1e6:.0f} MB"
    # the licences travel with the program (issue 14)
    folder = exe.parent
    notices = list(folder.rglob("THIRD_PARTY_NOTICES.md"))
    assert (folder / "_internal" / "LICENSE").is_file() or list(folder.rglob("LICENSE"))
    assert notices and "LGPL-3.0" in notices[0].read_text()
    # the frozen terminal: a real tiny run with rich progress and the results table
    if shutil.which("fio"):
        target = Path(tempfile.mkdtemp(prefix="frozen-run-"))
        try:
            done = subprocess.run([str(exe), "run", "zero-queue", "--target", str(target),
                                   "--set", "runtime=1s", "--set", "size=16MiB",
                                   "--set", "repetitions=1", "--set", "warmup=false",
                                   "--out", str(target / "runs")],
                                  env=env, capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr[-3000:]
            assert "mean ± sample std" in done.stdout and "[4/4]" in done.stderr
        finally:
            shutil.rmtree(target, ignore_errors=True)

"""The Linux one-folder executable builds, and serves --version and --self-test offscreen."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux build only")


def test_build_and_smoke_the_executable():
    env = {**os.environ, "PYTHON": sys.executable, "QT_QPA_PLATFORM": "offscreen"}
    build = subprocess.run(["bash", "packaging/build.sh"], cwd=REPO, env=env, capture_output=True,
                           text=True, timeout=900)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-4000:]
    exe = REPO / "dist" / "ssd-profiler" / "ssd-profiler"
    version = subprocess.run([str(exe), "--version"], env=env, capture_output=True, text=True,
                             timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("ssd-profiler "), version.stderr
    selftest = subprocess.run([str(exe), "--self-test"], env=env, capture_output=True, text=True,
                              timeout=300)
    assert selftest.returncode == 0, selftest.stdout + selftest.stderr
    assert "self-test: passed" in selftest.stdout
    size = sum(p.stat().st_size for p in exe.parent.rglob("*") if p.is_file() and not p.is_symlink())
    assert size < 300e6, f"the folder holds {size / 1e6:.0f} MB"

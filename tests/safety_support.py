"""Helpers for the hostile tests: fingerprints of the user's bytes, the CLI in the background,
and the engine processes a run may have left."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil

from conftest import REPO, needs_fio, needs_root  # noqa: F401 (re-exported)

DATA_DIR = "ssd-profiler-data"
# one 1 s trial of 4 KiB random reads: the smallest real run (prefill + trial)
ONE_TRIAL = ["queue-depth", "--set", "queue_depths=1", "--set", "repetitions=1",
             "--set", "warmup=false", "--set", "runtime=1s", "--set", "size=16MiB"]


def fingerprint(folder: Path, skip: str = DATA_DIR) -> dict[str, str]:
    """Every path under ``folder`` (not following links) with a hash of its bytes or link
    target, leaving out the app's own data folder: what must be the same after a run."""
    out = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != skip]
        for name in dirs + files:
            path = Path(root) / name
            rel = str(path.relative_to(folder))
            if path.is_symlink():
                out[rel] = "link:" + os.readlink(path)
            elif path.is_file():
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                out[rel] = "dir"
    return out


def start_cli(*args: str, env: dict | None = None) -> subprocess.Popen:
    """``ssd-profiler ARGS`` in the background, as a user's terminal would start it."""
    return subprocess.Popen([sys.executable, "-m", "ui.main", *args], cwd=REPO,
                            env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def engines_on(folder: Path) -> list[psutil.Process]:
    """Processes (fio, a fake engine) whose command line names ``folder``."""
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        try:
            if proc.pid != os.getpid() and str(folder) in " ".join(proc.info["cmdline"] or []) \
                    and "ui.main" not in " ".join(proc.info["cmdline"] or []):
                found.append(proc)
        except psutil.Error:
            continue
    return found


def wait_for(predicate, timeout: float, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


def data_files(target: Path) -> list[Path]:
    data = target / DATA_DIR
    return sorted(data.glob("ssd-profiler-test-*.dat")) if data.is_dir() else []

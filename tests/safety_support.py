"""Helpers for the hostile tests: fingerprints of the user's bytes, the CLI in the background,
and the engine processes a run may have left."""
from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

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


class _Cli(subprocess.Popen):
    """A Popen that closes its pipes when it is collected: a test that kills the app and never
    reads them must not leave them to the garbage collector (a ResourceWarning, an error)."""

    def __del__(self) -> None:
        for pipe in (self.stdout, self.stderr):
            if pipe is not None:
                pipe.close()
        super().__del__()


def start_cli(*args: str, env: dict | None = None) -> subprocess.Popen:
    """``ssd-profiler ARGS`` in the background, as a user's terminal would start it."""
    return _Cli([sys.executable, "-m", "ui.main", *args], cwd=REPO,
                            env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def engines_on(folder: Path) -> list[psutil.Process]:
    """Processes (fio, a fake engine) whose command line names ``folder``, or that hold a file
    under it open: on Linux fio names the test file by the app's descriptor it inherits
    (``--filename=/proc/self/fd/N``), so its command line alone no longer names the folder."""
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        try:
            line = " ".join(proc.info["cmdline"] or [])
            if proc.pid == os.getpid() or "ui.main" in line:
                continue
            if str(folder) in line or (sys.platform.startswith("linux") and "fio" in line and any(
                    f.path.startswith(str(folder)) for f in proc.open_files())):
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


# the contract of every hostile-input test: exit 2, one line, nothing around it changed
posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, sockets and /dev are POSIX")


def snapshot(root: Path) -> dict:
    """Every entry under ``root`` (links not followed): its kind and content hash or target."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            info = os.lstat(path)
            rel = str(path.relative_to(root))
            if stat.S_ISLNK(info.st_mode):
                out[rel] = ("link", os.readlink(path))
            elif stat.S_ISREG(info.st_mode):
                out[rel] = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
            else:
                out[rel] = ("dir" if stat.S_ISDIR(info.st_mode) else "special", None)
    return out


def assert_one_error(done, name: str | None = None) -> str:
    lines = done.stderr.splitlines()
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert len(lines) == 1 and lines[0].startswith("ssd-profiler: error: "), done.stderr
    if name is not None:
        assert lines[0].startswith(f"ssd-profiler: error: {name}: "), lines[0]
    return lines[0]

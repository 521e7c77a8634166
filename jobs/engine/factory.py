"""Finding an engine on this machine and building the engine object the runner drives.

Locating means looking at the file system and PATH and *running* the candidate (``fio
--version``, ``diskspd -?``) to be sure it is the tool we think: both are process work, so they
live here and app/engines stays pure (the "engine adapters are pure" import contract). The
DiskSpd engine is given its OS side here too: live OS counters and the Win32 stop event
(jobs/engine/diskspd_live.py).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from app.engines import ENGINES, EngineNotFound, install_hint
from app.engines.base import Engine
from app.engines.diskspd import EXECUTABLES, DiskSpdEngine
from app.engines.diskspd import parse_version as diskspd_version
from app.engines.diskspd import version_argv as diskspd_version_argv
from app.engines.fio import FioEngine, cpu_clock_argv, cpu_clock_passes
from app.engines.fio import parse_version as fio_version
from app.engines.fio import version_argv as fio_version_argv
from jobs.engine.process import NO_WINDOW

PROBE_TIMEOUT_S = 15
CLOCK_TEST_TIMEOUT_S = 3  # the test takes 0.2 s; a fio that hangs in it must not delay the run


def _probe(argv: list[str], engine: str) -> subprocess.CompletedProcess[str]:
    """Run a version probe, bounded; a candidate that does not start is "not found"."""
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S,
                              stdin=subprocess.DEVNULL, creationflags=NO_WINDOW)
    except (OSError, subprocess.TimeoutExpired) as exc:
        label = "fio" if engine == "fio" else "DiskSpd"
        raise EngineNotFound(f"{label} at {argv[0]} does not run ({exc}); "
                             f"{install_hint(engine)}") from None


def _exists(candidate: str) -> bool:
    return bool(shutil.which(candidate) or Path(candidate).is_file())


def locate_fio(override: str | None = None) -> FioEngine:
    """fio from ``override`` (a path set in settings), ``$SSD_PROFILER_FIO`` or PATH."""
    candidate = override or os.environ.get("SSD_PROFILER_FIO") or shutil.which("fio")
    if not candidate or not _exists(candidate):
        raise EngineNotFound(f"fio was not found; {install_hint('fio')}")
    done = _probe(fio_version_argv(candidate), "fio")
    version = fio_version(done.stdout or done.stderr or "")
    if done.returncode != 0 or not version:
        raise EngineNotFound(f"{candidate} does not answer like fio to --version; "
                             f"{install_hint('fio')}")
    return FioEngine(candidate, version)


def cpu_clock_test(engine: Engine) -> Callable[[], bool]:
    """Start fio's own CPU-clock test (0.2 s) for a run, beside the run's other checks; the
    returned call waits for it (bounded) and says whether it passed. When it passes, every
    trial can name the clock fio would choose after it and skip the test itself.
    Any doubt (not fio, no answer, a failure, a timeout) leaves fio to choose on every start."""
    if not isinstance(engine, FioEngine):
        return lambda: False
    try:
        proc = subprocess.Popen(cpu_clock_argv(engine.path), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
                                creationflags=NO_WINDOW)
    except OSError:
        return lambda: False

    def passed() -> bool:
        try:
            out, _ = proc.communicate(timeout=CLOCK_TEST_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return False
        return proc.returncode == 0 and cpu_clock_passes(out)
    return passed


def diskspd_candidates(override: str | None = None) -> list[str]:
    """Where DiskSpd may be. A path the user set (``override`` from settings, else
    $SSD_PROFILER_DISKSPD) is the only candidate, so a wrong one is reported, not bypassed;
    otherwise PATH (diskspd, diskspd64) and the copy bundled with the Windows build."""
    chosen = override or os.environ.get("SSD_PROFILER_DISKSPD")
    if chosen:
        return [chosen]
    found = [shutil.which(name) for name in EXECUTABLES]
    bundle = getattr(sys, "_MEIPASS", None)  # packaging/ssd-profiler.spec puts it in bin/
    if bundle:
        found.append(str(Path(bundle) / "bin" / "diskspd.exe"))
    return [c for c in found if c]


def locate_diskspd(override: str | None = None) -> DiskSpdEngine:
    """DiskSpd that answers ``-?`` with its usage (version, ``-R<text|xml>``), with its OS side:
    live charts from disk counters and the named-event stop."""
    chosen = next((c for c in diskspd_candidates(override) if _exists(c)), None)
    if chosen is None:
        where = override or os.environ.get("SSD_PROFILER_DISKSPD")
        raise EngineNotFound(f"DiskSpd was not found{f' at {where}' if where else ''}; "
                             f"{install_hint('diskspd')}")
    done = _probe(diskspd_version_argv(chosen), "diskspd")
    usage = (done.stdout or "") + (done.stderr or "")
    if "usage" not in usage.lower():
        raise EngineNotFound(f"{chosen} does not answer like DiskSpd to -?; {install_hint('diskspd')}")
    if "xml" not in usage.lower():
        raise EngineNotFound(f"{chosen} has no XML output (-Rxml); it looks like the Linux port "
                             "of DiskSpd, which SSD Profiler does not use: use fio on Linux")
    version = diskspd_version(usage)
    from jobs.engine.diskspd_live import CounterLive, event_stop  # psutil: only with DiskSpd, not at start

    return DiskSpdEngine(chosen, f"DiskSpd {version}" if version else "DiskSpd",
                         live=CounterLive(), stop=event_stop)


def default_engine(platform: str = sys.platform) -> str:
    """DiskSpd by default on Windows when it is installed (on PATH, set by the user, or bundled
    with the Windows build), fio elsewhere."""
    if platform.startswith("win") and any(_exists(c) for c in diskspd_candidates()):
        return "diskspd"
    return "fio"


def locate_engine(name: str | None = None, override: str | None = None) -> Engine:
    """The engine object for ``name`` (default per OS), found at ``override`` or on PATH."""
    name = name or default_engine()
    if name == "fio":
        return locate_fio(override)
    if name == "diskspd":
        return locate_diskspd(override)
    raise EngineNotFound(f"unknown engine {name!r}; choose one of {', '.join(ENGINES)}")

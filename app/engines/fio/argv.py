"""fio command lines: a pure function from a trial to an argv list.

Choices, with reasons:
- JSON on stdout with ``--status-interval`` gives live cumulative documents; never ``--output``
  (errors would land inside the JSON file).
- ``--time_based --runtime`` so a fast drive cannot finish early; ``--ramp_time`` when asked.
- Incompressible, non-repeating data: ``--refill_buffers --randrepeat=0`` (SSD controllers that
  compress or dedupe would otherwise flatter the result).
- ``--lat_percentiles=1`` so percentiles are of *total* latency, the same kind as the mean.
- ``--trigger-file`` is the portable graceful stop: fio ends jobs, prints the final JSON, rc 0.
- A trial may be started ahead and held before its first I/O (``held_argv``): fio's own start-up
  (about 0.23 s: clock calibration, a fixed 100 ms wait for its job to initialise) then happens
  while nothing is measured, not between two trials.
"""
from __future__ import annotations

import re
import sys
from pathlib import PurePath

from app.experiments.plan import Trial
from app.model.percentiles import PERCENTILES
from app.units import MiB

PERCENTILE_LIST = ":".join(f"{p:g}" for p in PERCENTILES)


def ioengine_for(platform: str = sys.platform) -> str:
    """libaio on Linux (queues with O_DIRECT), posixaio on macOS, windowsaio on Windows."""
    if platform.startswith("linux"):
        return "libaio"
    if platform == "darwin":
        return "posixaio"
    if platform.startswith(("win", "cygwin", "msys")):
        return "windowsaio"
    return "posixaio"


def fio_path_arg(path: PurePath | str, platform: str = sys.platform) -> str:
    """fio splits ``--filename`` at ':' into a list of files, on every
    OS: a folder named ``Thesis:draft`` would make fio write a file ``Thesis`` beside it. Every
    ':' is escaped (``\\:``), which fio undoes, on every OS (Windows drive letters included).
    A backslash before a ':' stays as it is: fio removes exactly one backslash before a ':'."""
    return str(path).replace(":", "\\:")


def _platform_args(platform: str) -> list[str]:
    # Jobs as threads of one process: fork() is a stub in fio's Windows build, and elsewhere a
    # forked job process would outlive fio's main process when the app's kill -9 takes that
    # down with SIGKILL (jobs/engine/process.py), writing on to the end of its runtime.
    return [f"--ioengine={ioengine_for(platform)}", "--thread"]


def _ms(seconds: float) -> str:
    return f"{max(1, round(seconds * 1000))}ms"


def trial_argv(fio: str, trial: Trial, test_file: PurePath, trigger_file: PurePath,
               platform: str = sys.platform, cpu_clock: bool = False) -> list[str]:
    """The argv that runs one trial, JSON documents on stdout every ``interval``.

    ``cpu_clock``: this machine's fio passed its own CPU-clock test once for the run
    (jobs/engines.cpu_clock_test), so each trial names the clock fio would pick after
    that test anyway, and skips repeating the test (about 70 ms of CPU on every core)."""
    w = trial.workload
    argv = [
        fio, f"--name={trial.experiment}-{w.key}",
        f"--filename={fio_path_arg(test_file, platform)}", f"--size={trial.size_bytes}",
        f"--rw={w.rw}", f"--bs={w.bs_bytes}", f"--iodepth={w.iodepth}", f"--numjobs={w.numjobs}",
    ]
    if w.rwmixread is not None:
        argv.append(f"--rwmixread={w.rwmixread}")
    argv += _platform_args(platform)
    # time-based, unless the trial is a volume (write-saturation): then that volume, with the
    # runtime as the bound, whichever comes first
    bound = f"--io_size={trial.io_bytes}" if trial.io_bytes else "--time_based"
    argv += [f"--direct={int(trial.direct)}", bound, f"--runtime={_ms(trial.runtime_s)}"]
    if trial.ramp_s > 0:
        argv.append(f"--ramp_time={_ms(trial.ramp_s)}")
    argv += ["--refill_buffers", "--randrepeat=0", "--norandommap", "--lat_percentiles=1",
             f"--percentile_list={PERCENTILE_LIST}"]
    if w.numjobs > 1:
        argv.append("--group_reporting")
    if cpu_clock:
        argv.append("--clocksource=cpu")
    argv += ["--output-format=json+", f"--status-interval={_ms(trial.interval_s)}",
             f"--trigger-file={trigger_file}",  # a plain string option: never split
             "--verify_state_save=0"]  # else a trigger stop leaves *-verify.state files behind
    return argv


#: fio prints this line just before it runs ``exec_prerun``: the held job is set up, files
#: checked, buffers allocated, and waits for the gate; no I/O has been issued.
HELD_MARKER = b"Saving output of prerun"
#: ... and this one when a job's I/O is over (its statistics are final): what is left is fio's
#: tear-down (closing the files, libaio's ``io_destroy``, the JSON dump), some 55 ms, under
#: which the next held trial may start (jobs/run/held_starts.py).
IO_DONE_MARKER = b"Saving output of postrun"
_SHELL_SAFE = re.compile(r"[A-Za-z0-9._+-]+\Z")


def held_argv(argv: list[str], gate_fd: int, platform: str = sys.platform) -> list[str] | None:
    """``argv`` with its job held after set-up until a line arrives on the inherited pipe
    ``gate_fd`` (one line per job); a closed pipe instead makes the job fail before any I/O
    (and fio then exits 0 with an empty result: the caller must know it let the job go).
    ``/dev/fd/N``, not ``<&N``: dash, Debian's sh, reads only one-digit fds there.

    fio runs ``exec_prerun`` through ``sh -c "<cmd> > <job name>.prerun.txt"`` in its working
    folder (the run's private folder): the command is ours alone, and the job name, which fio
    pastes into that shell line, must be plain, else None (the trial starts the usual way).
    ``exec_postrun`` is the shell's no-op: only for the line fio prints before it runs it.
    None on Windows too (no inherited pipe for cmd.exe)."""
    name = next((a.partition("=")[2] for a in argv if a.startswith("--name=")), "")
    if platform.startswith("win") or not _SHELL_SAFE.match(name):
        return None
    return [*argv, f"--exec_prerun=read go < /dev/fd/{int(gate_fd)}", "--exec_postrun=:"]


def prepare_argv(fio: str, test_file: PurePath, size_bytes: int, trigger_file: PurePath,
                 direct: bool = True, platform: str = sys.platform) -> list[str]:
    """Write the whole test file once with incompressible data before any trial reads it,
    so reads never hit never-written (zero, or sparse) blocks."""
    return [
        fio, "--name=prepare", f"--filename={fio_path_arg(test_file, platform)}",
        f"--size={size_bytes}", "--rw=write", f"--bs={MiB}", "--iodepth=8", "--numjobs=1",
        *_platform_args(platform), f"--direct={int(direct)}", "--refill_buffers",
        "--output-format=json", f"--trigger-file={trigger_file}",
        "--verify_state_save=0",
    ]


def cpu_clock_argv(fio: str) -> list[str]:
    return [fio, "--cpuclock-test"]


def cpu_clock_passes(text: str) -> bool:
    """fio's ``--cpuclock-test`` said the TSC is reliable and the cross-CPU test passed: the
    two conditions under which fio itself chooses ``clocksource=cpu``."""
    return "reliable_tsc: yes" in text and "cs: Pass!" in text


def version_argv(fio: str) -> list[str]:
    return [fio, "--version"]


def parse_version(text: str) -> str | None:
    """'fio-3.33' from fio's answer to ``--version`` (its first line), None if it is not fio."""
    first = text.strip().splitlines()[:1]
    return first[0].strip() if first and first[0].startswith("fio") else None

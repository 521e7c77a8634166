"""The held start of a fio trial (app/engines/fio/argv.held_argv): the command fio's shell runs
is ours alone; a job name fio would paste into that shell line must be plain, else no hold."""
from __future__ import annotations

from pathlib import Path

from app.engines.fio import FioEngine, held_argv, trial_argv
from app.experiments.plan import Trial
from app.model.workload import Workload


def _argv(experiment: str = "queue-depth") -> list[str]:
    trial = Trial(3, experiment, Workload("randread", 4096, 4), 1, False, 1.0, 0.0, 16 << 20,
                  True, 1.0)
    return trial_argv("fio", trial, Path("/t/a:b c/f.dat"), Path("/private/f-3.stop"), "linux")


def test_the_hold_reads_one_line_from_the_inherited_pipe():
    argv = _argv()
    assert held_argv(argv, 7, "linux") == [*argv, "--exec_prerun=read go < /dev/fd/7", "--exec_postrun=:"]
    hold = FioEngine("fio", "fio-3.33").held_argv(argv, 9, 2)
    assert "--exec_prerun=read go < /dev/fd/9" in hold.argv and hold.jobs == 2
    # the lines fio prints before each command: set up and waiting; I/O over, result fixed
    assert (hold.ready_marker, hold.io_done_marker) == (b"Saving output of prerun", b"Saving output of postrun")


def test_no_hold_for_a_job_name_a_shell_would_read_or_on_windows():
    for name in ("a b", "x;rm -rf ~", "q$(id)", "n\nl", "'"):
        assert held_argv(["fio", f"--name={name}", "--rw=read"], 7, "linux") is None
    assert held_argv(_argv(), 7, "win32") is None


def test_the_cpu_clock_is_named_only_when_fios_own_test_passed():
    from app.engines.fio import cpu_clock_passes
    assert "--clocksource=cpu" not in _argv()
    trial = Trial(3, "zero-queue", Workload("randread", 4096, 1), 1, False, 1.0, 0.0, 16 << 20, True, 1.0)
    assert "--clocksource=cpu" in trial_argv("fio", trial, Path("/t/f"), Path("/p/s"), "linux", cpu_clock=True)
    assert cpu_clock_passes("cs: reliable_tsc: yes\ncs: Testing 2 CPUs\ncs: Pass!\n")
    assert not cpu_clock_passes("cs: reliable_tsc: no\ncs: Pass!\n")
    assert not cpu_clock_passes("cs: reliable_tsc: yes\ncs: Failed: 1 CPU went backwards\n")

"""Other machines' answers are bounded: a fio server that hangs mid-run stops the run at the
watchdog like one that died, and an ssh that answers with an endless stream costs a few MiB.

The server is a real ``fio --server`` on loopback (tests/remote_support.py), stopped with
SIGSTOP during the second of three trials (every process it started, the job's included): the
client then waits for it without end. The ssh is a fake one (``$SSD_PROFILER_SSH``) that
prints zeros as fast as a pipe takes them.
"""
from __future__ import annotations

import os
import resource
import signal
import time

import psutil
import pytest
import remote_support
from test_remote_ssh import fake_ssh

from app.remote.ssh_smart import SSH_ENV
from jobs.events import RunFinished, TrialFinished
from jobs.remote.ssh_smartctl import read_remote_smart
from jobs.run.session import prepare_run

from safety_support import needs_fio

server = remote_support.server
folder = remote_support.folder
GRACE_S = 3.0
SETTINGS = {"queue_depths": "1,2,4", "repetitions": "1", "warmup": "false", "runtime": "2s",
            "size": "16MiB", "randomize": "false"}


def _family(srv) -> list[psutil.Process]:
    procs = [psutil.Process(srv.proc.pid), *psutil.Process(srv.proc.pid).children(recursive=True)]
    return procs + [p for p in psutil.process_iter(["cmdline"]) if p not in procs and
                    f"--server=ip:127.0.0.1,{srv.port}" in " ".join(p.info["cmdline"] or [])]


@needs_fio
@pytest.mark.timeout(120)
def test_a_hung_server_ends_the_trial_at_the_watchdog_and_stops_the_run(tmp_path, server, folder):
    session = prepare_run(["queue-depth"], SETTINGS, str(folder), runs_root=tmp_path / "runs",
                          remote=server.address, watchdog_grace_s=GRACE_S)
    stopped, events = [], []
    try:
        for event in session.runner.events():
            events.append(event)
            if isinstance(event, TrialFinished) and not stopped:
                time.sleep(1.0)  # into the second trial
                stopped = []
                for proc in _family(server):
                    try:  # a job process may end between being listed and being stopped
                        proc.send_signal(signal.SIGSTOP)
                        stopped.append(proc)
                    except psutil.NoSuchProcess:
                        pass
                assert stopped and stopped[0].pid == server.proc.pid  # the server itself hangs
                hung_at = time.monotonic()
    finally:
        session.close()
        for proc in stopped:
            try:
                proc.send_signal(signal.SIGCONT)
            except psutil.Error:
                pass
    ended = time.monotonic() - hung_at
    final = events[-1]
    assert isinstance(final, RunFinished) and final.status == "failed"
    trials = session.store.record["trials"]
    assert [t["status"] for t in trials] == ["done", "failed"]  # the third never started
    assert "time limit" in trials[1]["error"]
    assert "stopped answering" in final.error and "finished trials are kept" in final.error
    # the watchdog (runtime + grace) and the engine's bounded stop, not a wait per trial
    assert ended < 2.0 + GRACE_S + 3 * 3.5 + 5, f"the run took {ended:.1f} s after the hang"
    warnings = [e.text for e in events if getattr(e, "level", "") == "warning"]
    assert any("could not be removed" in w and "stopped answering" in w for w in warnings)


def test_an_endless_ssh_answer_is_dropped_at_its_cap(tmp_path, monkeypatch):
    monkeypatch.setenv(SSH_ENV, str(fake_ssh(tmp_path, "exec cat /dev/zero")))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    parsed, reason = read_remote_smart("you@labserver", "/dev/nvme0n1", timeout_s=10.0)
    assert parsed is None and "printed more than" in reason and "\n" not in reason
    assert time.monotonic() - started < 8
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mib < 100, f"memory grew by {grown_mib:.0f} MiB"
    assert not [p for p in psutil.process_iter(["cmdline"])
                if "/dev/zero" in " ".join(p.info["cmdline"] or []) and p.ppid() == os.getpid()]

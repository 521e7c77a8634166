"""The app's threads below fio's priority, fio at the app's own (jobs/engine/quiet.py), and
fio's status documents at QD1 no more often than the live view acts on them
(docs/performance.md, "Measuring without disturbing"). Real fio on a small file."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")   # the worker test's Qt, run on its own

import shutil  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402

from app.engines.fio.argv import trial_argv  # noqa: E402
from app.experiments import CATALOG  # noqa: E402
from app.experiments.plan import Trial  # noqa: E402
from app.model.workload import Workload  # noqa: E402
from jobs.engine import process, quiet  # noqa: E402
from jobs.engine.process import EngineProcess  # noqa: E402

linux_fio = pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("fio") is None,
                               reason="per-thread nice is Linux's; needs fio")
restorable = pytest.mark.skipif(not quiet.can_restore(),
                                reason="this user cannot raise a lowered thread back")


def _stat(pid: int, tid: int | None = None) -> tuple[int, int]:
    """(nice, scheduling policy) of a task, from /proc/<pid>[/task/<tid>]/stat."""
    path = f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat"
    with open(path) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return int(fields[16]), int(fields[38])


def _qd1_argv(tmp_path, runtime_s: float, interval_s: float) -> list[str]:
    trial = Trial(0, "queue-depth", Workload("randread", 4096, 1), 1, False, runtime_s, 0.0,
                  8 << 20, False, interval_s)
    return trial_argv(shutil.which("fio"), trial, tmp_path / "qd1.dat", tmp_path / "stop")


def _drain(proc: EngineProcess) -> str:
    text = []
    while proc.poll() is None:
        text.append(proc.read_text(0.1))
    proc.finish()
    return "".join(text) + proc.read_text(0.0)


@linux_fio
@restorable
def test_fio_runs_at_the_apps_priority_though_the_thread_that_started_it_was_lowered(tmp_path):
    """Its readers are not lowered further: they run at their starting thread's priority, which
    the threads that start engines keep (a precision stop waits on what the readers read)."""
    seen: dict = {}
    mine = quiet.thread_nice()

    def start_from_a_lowered_thread() -> None:
        seen["before"] = quiet.lower_this_thread(only_if_restorable=True)
        seen["starter"] = quiet.thread_nice()
        proc = EngineProcess(_qd1_argv(tmp_path, 1.5, 1.0))
        deadline = time.monotonic() + 10
        while len(proc.reader_ids) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)   # fio is running its job now
        seen["fio"] = _stat(proc.pid)
        seen["fio_threads"] = [_stat(proc.pid, int(t.name)) for t in _tasks(proc.pid)]
        seen["readers"] = [quiet.thread_nice(t) for t in proc.reader_ids]
        seen["text"] = _drain(proc)
        seen["app_cpu_s"] = proc.app_cpu_s

    worker = threading.Thread(target=start_from_a_lowered_thread)
    worker.start()
    worker.join(30)
    assert seen["before"] is not None and seen["starter"] == quiet.QUIET_NICE
    assert seen["fio"] == (quiet.BASE_NICE, 0)           # SCHED_OTHER at the app's own nice
    assert seen["fio_threads"] and all(s == (quiet.BASE_NICE, 0) for s in seen["fio_threads"])
    assert seen["readers"] == [seen["starter"], seen["starter"]]
    assert '"jobs"' in seen["text"]
    assert 0 <= seen["app_cpu_s"] < 1.5   # the app's own CPU while the trial ran, recorded
    assert quiet.thread_nice() == mine                   # this thread was never touched


def _tasks(pid: int):
    from pathlib import Path
    return list(Path(f"/proc/{pid}/task").iterdir())


@linux_fio
def test_status_documents_at_qd1_come_at_the_views_rate_in_a_few_reads_each(tmp_path, monkeypatch):
    """The default sample interval is the live view's beat (one paint a second); fio writes each
    json+ document line by line (~100 writes at QD1), and the reader takes each in a few reads,
    not one wake-up per line."""
    from ui.window.run.rhythm import PERIOD_S
    interval = CATALOG["queue-depth"]().interval
    assert interval == PERIOD_S == 1.0
    reads: dict[int, int] = {}
    real_read = process.os.read

    def counting_read(fd, n):
        reads[fd] = reads.get(fd, 0) + 1
        return real_read(fd, n)
    monkeypatch.setattr(process.os, "read", counting_read)
    proc = EngineProcess(_qd1_argv(tmp_path, 3.0, interval))
    stdout_fd = proc.proc.stdout.fileno()
    text = _drain(proc)
    documents = text.count('"fio version"')
    assert 3 <= documents <= 5            # about one a second over 3 s, and the final one
    assert reads[stdout_fd] <= 6 * documents, (reads, documents)


@restorable
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux's")
def test_a_lowered_thread_goes_back_and_a_child_of_it_does_not_inherit_it():
    import subprocess
    before = quiet.lower_this_thread()
    try:
        assert quiet.thread_nice() == quiet.QUIET_NICE
        child = subprocess.run([sys.executable, "-c", "import os; print(os.nice(0))"],
                               capture_output=True, text=True, preexec_fn=quiet.reset_in_child)
        assert int(child.stdout) == quiet.BASE_NICE
    finally:
        quiet.restore_this_thread(before)
    assert quiet.thread_nice() == quiet.BASE_NICE


@restorable
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux's")
def test_the_worker_thread_keeps_the_apps_priority(qtbot):
    """The worker decides when a trial stops (its precision target) and starts the next: lowered,
    its decisions came late on a busy machine (jobs/engine/quiet.py)."""
    from app.params import ParamError
    from jobs.worker import RunRefused, RunWorker
    seen: list = []

    def prepare():
        seen.append(quiet.thread_nice())
        raise ParamError("runtime", "not a duration")
    worker = RunWorker(prepare)
    events: list = []
    worker.event.connect(events.append)
    worker.start()
    qtbot.waitUntil(worker.isFinished, timeout=5000)
    qtbot.wait(50)
    assert seen == [quiet.BASE_NICE] and isinstance(events[0], RunRefused)


@linux_fio
def test_the_run_records_and_the_report_says_that_the_app_shared_the_cpu_with_its_run(tmp_path):
    """run.json's host block: the app's own CPU seconds while its trials ran, over their wall
    time; the Methodology says it beside the number of cores."""
    from app.report.methodology import shared_cpu_line
    from app.store.read_run import open_run
    from tests.conftest import run_cli, run_json
    from tests.safety_support import ONE_TRIAL
    done = run_cli("run", *ONE_TRIAL, "--target", str(tmp_path / "t"), "--out", str(tmp_path / "runs"),
                   timeout=120)
    assert done.returncode == 0, done.stderr
    run_dir = done.stdout.strip().splitlines()[-1]
    record = run_json(run_dir)
    (trial,) = record["trials"]
    host = record["host"]
    assert 0 <= trial["app_cpu_s"] < trial["elapsed_s"] and host["app_cpu_s"] == trial["app_cpu_s"]
    assert host["app_trials_s"] == trial["elapsed_s"] >= 1.0
    info = open_run(run_dir).info
    assert info.host.app_cpu_s == host["app_cpu_s"]
    line = shared_cpu_line(info)
    assert f"same {host['cpu_cores_logical']} logical cores" in line
    assert host["app_below_engine"] is quiet.can_restore() and info.host.app_below_engine is quiet.can_restore()
    assert ("below the engine's scheduling priority" in line) is quiet.can_restore() and f"{host['app_cpu_s']:.2f} s of CPU" in line


@linux_fio
@restorable
@pytest.mark.skipif(len(getattr(__import__("os"), "sched_getaffinity", lambda _: [])(0)) < 2,
                    reason="pinning needs two CPUs")
def test_pinned_engines_run_on_the_last_cpu_and_the_apps_threads_on_the_others(tmp_path):
    import os
    cpus = sorted(os.sched_getaffinity(0))
    seen: dict = {}

    def start() -> None:
        before = quiet.lower_this_thread(only_if_restorable=True)
        seen["starter"] = os.sched_getaffinity(0)
        proc = EngineProcess(_qd1_argv(tmp_path, 1.0, 1.0))
        time.sleep(0.4)
        seen["fio"] = os.sched_getaffinity(proc.pid)
        seen["readers"] = [os.sched_getaffinity(t) for t in proc.reader_ids]
        _drain(proc)
        quiet.restore_this_thread(before)
        seen["after"] = os.sched_getaffinity(0)

    assert quiet.pin_engines(True) == frozenset(cpus[-1:])
    try:
        assert quiet.host_fields()["engine_cpu"] == cpus[-1]
        worker = threading.Thread(target=start)
        worker.start()
        worker.join(30)
    finally:
        quiet.pin_engines(False)
    assert seen["fio"] == {cpus[-1]} and seen["starter"] == set(cpus[:-1])
    assert seen["readers"] == [set(cpus[:-1])] * 2 and seen["after"] == set(cpus)
    assert "engine_cpu" not in quiet.host_fields()   # off: nothing recorded, nothing pinned


def _child(pid: int, marker: str) -> int | None:
    """A child of process ``pid`` whose command line holds ``marker`` (None: none yet)."""
    from pathlib import Path
    try:
        children = [int(c) for tid in os.listdir(f"/proc/{pid}/task")
                    for c in Path(f"/proc/{pid}/task/{tid}/children").read_text().split()]
        return next((c for c in children
                     if marker in Path(f"/proc/{c}/cmdline").read_bytes().decode(errors="replace")), None)
    except OSError:   # a thread or child gone meanwhile: look again
        return None


two_cpus = pytest.mark.skipif(len(getattr(__import__("os"), "sched_getaffinity", lambda _: [])(0)) < 2,
                              reason="pinning needs two CPUs")


@two_cpus
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="affinity is Linux's here")
def test_a_thread_that_decides_leaves_a_pinned_engines_cpu_and_keeps_its_priority():
    import os
    cpus = sorted(os.sched_getaffinity(0))
    seen: dict = {}

    def decide() -> None:
        moved = quiet.off_engine_cpus()
        seen["during"], seen["nice"] = os.sched_getaffinity(0), quiet.thread_nice()
        quiet.back_on_all_cpus(moved)
        seen["after"] = os.sched_getaffinity(0)

    assert quiet.off_engine_cpus() is False   # not pinned: nothing moves
    quiet.pin_engines(True)
    try:
        thread = threading.Thread(target=decide)
        thread.start()
        thread.join(10)
    finally:
        quiet.pin_engines(False)
    assert seen == {"during": set(cpus[:-1]), "nice": quiet.BASE_NICE, "after": set(cpus)}


@linux_fio
@two_cpus
def test_a_pinned_command_line_run_leaves_fio_its_cpu_alone(tmp_path):
    """Read from outside while the trial runs (/proc): fio on the last CPU, and every thread of
    the command line's process, its main thread (which parses fio's documents and decides) too,
    on the others."""
    import subprocess

    from tests.conftest import REPO
    from tests.safety_support import ONE_TRIAL
    cpus = sorted(os.sched_getaffinity(0))
    argv = [sys.executable, "-m", "ui.main", "run", *ONE_TRIAL, "--set", "runtime=3s",
            "--target", str(tmp_path / "t"), "--out", str(tmp_path / "runs"), "--pin-engine"]
    app = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: dict[str, set[int]] = {}
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (fio := _child(app.pid, "--name=queue-depth")) is None:
            time.sleep(0.05)
        assert fio is not None, "the trial's fio never started"
        time.sleep(1.0)   # its trial under way (past the held start)
        seen["fio"] = os.sched_getaffinity(fio)
        seen.update({f"app {t}": os.sched_getaffinity(int(t)) for t in os.listdir(f"/proc/{app.pid}/task")})
    finally:
        out, err = app.communicate(timeout=120)
    assert app.returncode == 0, err
    assert seen.pop("fio") == {cpus[-1]}
    assert seen and all(mask == set(cpus[:-1]) for mask in seen.values()), seen
    assert f"app {app.pid}" in seen   # the main thread among them


LINE_BY_LINE = ("import os, time\n"
                "for doc in range(3):\n"
                "    for line in range(120):\n"
                "        os.write(1, b'  \"key%03d\" : 0,\\n' % line)\n"
                "        time.sleep(0.0005)\n"
                "    time.sleep(0.2)\n")


def test_a_document_written_line_by_line_is_read_in_a_few_reads(monkeypatch):
    """fio's way of writing a status document (one write per line, strace), made known: 3
    documents of 120 lines, a line every 0.5 ms. A reader woken for each write read ~120 times
    per document; pausing after each read it takes each in a few."""
    reads: dict[int, int] = {}
    real_read = process.os.read

    def counting_read(fd, n):
        reads[fd] = reads.get(fd, 0) + 1
        return real_read(fd, n)
    monkeypatch.setattr(process.os, "read", counting_read)
    proc = EngineProcess([sys.executable, "-c", LINE_BY_LINE])
    stdout_fd = proc.proc.stdout.fileno()
    assert _drain(proc).count('"key119"') == 3
    assert reads[stdout_fd] <= 3 * 25, reads[stdout_fd]

"""Engine process control (jobs/engine/process.py): output streamed byte for byte with a bounded tail in
memory, and a stop that escalates graceful -> terminate -> kill within bounded waits."""
from __future__ import annotations

import sys
import time

import pytest

from app.engines import EngineNotFound
from jobs.engine import process
from jobs.engine.process import EngineProcess
from jobs.run.trial_samples import TrialSamples

PRINT_3MB = "import sys\nfor i in range(30000): sys.stdout.write(f'{i:099d}\\n')\nsys.stderr.write('bye')"
IGNORE_TERM = ("import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
               "print('ready', flush=True)\ntime.sleep(60)")


def test_output_goes_to_the_raw_files_whole_and_memory_keeps_only_a_tail(tmp_path, monkeypatch):
    monkeypatch.setattr(process, "STDOUT_TAIL_BYTES", 64 << 10)
    out, err = tmp_path / "out.json", tmp_path / "err.txt"
    proc = EngineProcess([sys.executable, "-c", PRINT_3MB], stdout_path=out, stderr_path=err)
    text = []
    while proc.poll() is None:
        text.append(proc.read_text(0.1))
    assert proc.finish() == 0
    text.append(proc.read_text(0.0))
    expected = "".join(f"{i:099d}\n" for i in range(30000))
    assert out.read_text() == expected and "".join(text) == expected  # live text: all of it
    assert err.read_bytes() == b"bye" and proc.stderr_tail() == "bye"
    tail = proc.stdout_bytes
    assert 64 << 10 <= len(tail) <= 128 << 10 and expected.encode().endswith(tail)


def test_stop_asks_gracefully_then_terminates_then_kills(monkeypatch):
    monkeypatch.setattr(process, "STOP_WAITS_S", (0.3, 0.3, 2.0))
    asked = []
    proc = EngineProcess([sys.executable, "-c", IGNORE_TERM], graceful_stop=lambda: asked.append(1))
    assert "ready" in proc.read_text(10.0)
    started = time.monotonic()
    assert proc.stop("test") == "kill"
    assert asked == [1] and proc.poll() is not None and proc.stop_reason == "test"
    assert time.monotonic() - started < 3.0


def test_a_missing_engine_is_engine_not_found(tmp_path):
    with pytest.raises(EngineNotFound, match="not found"):
        EngineProcess([str(tmp_path / "no-such-fio")], stdout_path=tmp_path / "o")


class _Store:
    def __init__(self):
        self.batches = []

    def append_samples(self, rows):
        self.batches.append(list(rows))


class _Sample:
    def __init__(self, t_s):
        self.t_s = t_s

    def row(self):
        return {"t_s": self.t_s}


def test_trial_samples_are_written_in_batches_and_kept_once_a_second():
    store = _Store()
    samples = TrialSamples(store, replaceable=False, keep_every_s=1.0)
    for i in range(1000):  # 100 s at 0.1 s
        samples.add(_Sample(i / 10))
    kept = samples.finish()
    assert sum(len(b) for b in store.batches) == 1000 and max(len(b) for b in store.batches) == 64
    assert [s.t_s for s in kept] == [float(i) for i in range(100)]


def test_a_replaceable_series_is_held_until_the_engines_own_replaces_it():
    store = _Store()
    samples = TrialSamples(store, replaceable=True)
    for i in range(100):
        samples.add(_Sample(i / 10))
    assert store.batches == []
    samples.replace([_Sample(1.0), _Sample(2.0)])
    assert [s.t_s for s in samples.finish()] == [1.0, 2.0]
    assert store.batches == [[{"t_s": 1.0}, {"t_s": 2.0}]]


def test_windows_engines_and_probes_start_without_a_console_window(monkeypatch):
    """The windowed build has no console: every engine start and version probe asks Windows
    for none (CREATE_NO_WINDOW), or a black window flashes up per trial. Checked here by the
    flags handed to subprocess, as on Windows (this test runs anywhere)."""
    import subprocess

    from jobs.engine import factory as engines
    seen = []

    class Stop(Exception):
        pass

    def fake(argv, **kwargs):
        seen.append(kwargs.get("creationflags"))
        raise Stop

    monkeypatch.setattr(process, "NO_WINDOW", 0x08000000)
    monkeypatch.setattr(engines, "NO_WINDOW", 0x08000000)
    monkeypatch.setattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200, raising=False)
    monkeypatch.setattr(process.sys, "platform", "win32")
    monkeypatch.setattr(subprocess, "Popen", fake)
    monkeypatch.setattr(subprocess, "run", fake)
    with pytest.raises(Stop):
        EngineProcess(["fio", "--version"])
    with pytest.raises(Stop):
        engines._probe(["fio", "--version"], "fio")
    assert seen == [0x200 | 0x08000000, 0x08000000]


def test_a_local_engine_is_killed_with_the_app_a_remote_client_is_told_to_stop():
    """SIGKILL for local fio (a SIGTERM could be lost in its start-up and leave an orphan);
    SIGTERM for fio's client, which then stops its servers' jobs."""
    import signal

    from jobs.remote.remote_session import RemoteTrialRunner
    from jobs.run.runner import TrialRunner
    assert TrialRunner.on_app_death == signal.SIGKILL
    assert RemoteTrialRunner.on_app_death == signal.SIGTERM


def test_a_marker_is_counted_across_chunk_boundaries_and_only_in_new_bytes():
    import threading

    from jobs.engine.process import _Watch
    seen = threading.Event()
    watch = _Watch(b"Saving output of postrun", 2, seen)
    for chunk in (b"{...} job1 : Saving out", b"put of postrun in j1.txt\njob2 : Saving output of p", b"os"):
        watch.feed(chunk)
    assert not seen.is_set()  # one and a half so far
    watch.feed(b"trun in j2.txt\n")
    assert seen.is_set()


WRITE_3_DOCUMENTS = ("import sys, time\n"
                     "for d in range(3):\n"
                     "    for i in range(100):\n"            # fio writes a document line by line
                     "        sys.stdout.write(f'  \"line {i:03d}\" : {d},\\n'); sys.stdout.flush()\n"
                     "    time.sleep(0.3)\n")


@pytest.mark.skipif(sys.platform == "win32", reason="pipes are polled where the OS can")
def test_a_document_written_line_by_line_is_read_once(monkeypatch):
    """The reader waits until output comes, then a pause, then reads: a status document fio
    writes in a hundred short writes is one read and one hand-over to the parsing thread (it
    was two of each, and the parser woke twice per document beside the trial)."""
    reads = []
    real_read = process.os.read

    def counted(fd: int, n: int) -> bytes:
        chunk = real_read(fd, n)
        reads.append(len(chunk))
        return chunk
    monkeypatch.setattr(process.os, "read", counted)
    proc = EngineProcess([sys.executable, "-c", WRITE_3_DOCUMENTS])
    pieces = []
    while proc.poll() is None:
        piece = proc.read_text(1.0)
        if piece:
            pieces.append(piece)
    assert proc.finish() == 0
    text = "".join(pieces) + proc.read_text(0.0)
    assert text.count("line 099") == 3
    stdout_reads = [n for n in reads if n > 100]
    assert len(stdout_reads) == 3 and len(pieces) == 3

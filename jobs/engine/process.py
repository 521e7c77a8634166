"""Engine process control: argv only, output streamed, cancellation bounded.

The engine runs in its own session / process group so a Ctrl+C typed in the terminal reaches the
app, not fio: the app then stops fio the graceful way (its trigger file: final JSON, rc 0), and
only if that fails terminates, then kills, each step with a bounded wait. Nothing ever waits
without a limit, and nothing goes through a shell.

Memory stays bounded however long a trial runs: output goes byte for byte to the raw files in
the run folder as it arrives, and only the last ``STDOUT_TAIL_BYTES`` (which hold the final
result document) stay in memory. On Linux the engine gets SIGKILL when the thread that started
it dies (PR_SET_PDEATHSIG), so even ``kill -9`` of the app stops fio's writes at once (fio runs
its jobs as threads, ``--thread``, so no forked job process outlives it); on Windows a job object
does the same (jobs/engine/job_object.py).
"""
from __future__ import annotations

import codecs
import logging
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from app.engines import EngineNotFound
from app.engines.base import Hold
from jobs.engine import job_object
from jobs.engine.child_start import KILL_ON_APP_DEATH, preexec_for

log = logging.getLogger(__name__)

STOP_WAITS_S = (1.5, 1.0, 1.0)  # after trigger file, after terminate, after kill
STDOUT_TAIL_BYTES = 1 << 20     # the final fio JSON document, json+ bins included, fits 5x over
STDERR_TAIL_BYTES = 256 << 10
#: Once the engine's output starts to come, its readers wait this long before they read: fio
#: writes a status document line by line (a QD1 json+ document: ~100 writes of ~25 bytes), and
#: a reader that woke for every write woke ~100 times a second beside the trial. Waiting before
#: the read (where the OS tells when a pipe is readable: poll), not after it, takes a document
#: in one read, one hand-over to the thread that parses it and one wake-up of that thread; read
#: first, it came in two of each (at a 0.1 s interval 400 reads in 20 s for 200 documents).
#: The pipe holds what comes meanwhile (1 MiB on Linux).
READ_PAUSE_S = 0.01
_F_SETPIPE_SZ = 1031   # Linux fcntl


def _readable(fd: int) -> select.poll | None:
    """A poller that waits until ``fd`` can be read (data, or the writer closed it), or None
    where the OS cannot poll a pipe."""
    if not hasattr(select, "poll"):
        return None
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    return poller


def _own_cpu_s() -> float:
    """The app's own CPU seconds so far (all its threads; its children's not counted), to the
    nanosecond where the OS keeps it so (``os.times`` counts 10 ms ticks)."""
    return time.process_time()


def _widen(stream: IO[bytes] | None) -> None:
    """Room for a whole burst of status documents in the pipe while its reader pauses (None: the
    engine has no pipe, nothing to widen)."""
    if stream is not None and sys.platform.startswith("linux"):
        try:
            import fcntl
            fcntl.fcntl(stream.fileno(), _F_SETPIPE_SZ, 1 << 20)
        except OSError:
            pass   # over /proc/sys/fs/pipe-max-size: the default 64 KiB still works


def _closed(sink: IO[bytes] | None) -> None:
    """Close a raw output file; a flush the full or read-only disk refuses loses its end only."""
    try:
        if sink is not None:
            sink.close()
    except OSError:
        pass


#: Windows: start a console program (fio, DiskSpd, smartctl) without opening a console window.
NO_WINDOW = getattr(subprocess, "CREATE_NO_WINDOW", 0)


class _Watch:
    """Sets ``event`` once ``marker`` went by ``count`` times in a byte stream fed chunk by
    chunk: only the new chunk is searched (a marker may straddle two chunks), never the whole
    tail, so a long trial's status documents cost nothing extra."""

    def __init__(self, marker: bytes, count: int, event: threading.Event):
        self.marker, self.left, self.event = marker, count, event
        self._carry = b""

    def feed(self, chunk: bytes) -> None:
        if self.event.is_set():
            return
        data = self._carry + chunk
        self.left -= data.count(self.marker)
        self._carry = data[len(data) - len(self.marker) + 1:]
        if self.left <= 0:
            self.event.set()


class EngineProcess:
    def __init__(self, argv: list[str], graceful_stop: Callable[[], None] | None = None,
                 cwd: Path | None = None, stdout_path: Path | None = None,
                 stderr_path: Path | None = None, on_app_death: int = KILL_ON_APP_DEATH,
                 pass_fds: tuple[int, ...] = (), held: Hold | None = None) -> None:
        """``graceful_stop`` asks the engine to end and print its result (fio: create the
        trigger file; DiskSpd: set its -yp event); None skips straight to terminate.
        ``stdout_path``/``stderr_path`` receive the whole output, byte for byte.
        ``on_app_death``: the signal the engine gets if the app dies (Linux).
        ``held``: an engine started ahead and held before its first I/O (jobs/run/held_starts.py):
        :attr:`ready` is set once it waits at its hold, :attr:`io_done` once its I/O is over."""
        self.argv = list(argv)
        self.graceful_stop = graceful_stop
        self.started = time.monotonic()
        self.stop_reason: str | None = None
        self._stdout = bytearray()
        self._stderr = bytearray()
        self._text: queue.SimpleQueue[str] = queue.SimpleQueue()   # put() is reentrant: wake()
        self._eof = threading.Event()   # stdout closed: the engine is exiting, wait on it instead
        self.ready = threading.Event()  # a held engine reached its hold (or was never held)
        self.io_done = threading.Event()  # a held engine's I/O is over (never set otherwise)
        self._watches = []
        if held is None:
            self.ready.set()
        else:
            self._watches.append(_Watch(held.ready_marker, held.jobs, self.ready))
            if held.io_done_marker:
                self._watches.append(_Watch(held.io_done_marker, held.jobs, self.io_done))
        kwargs: dict[str, Any] = {}
        if sys.platform.startswith("win"):
            # its own group (Ctrl+Break reaches it alone) and no console window flashing up
            # from the windowed build, which has no console for it to share
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | NO_WINDOW
        else:
            kwargs["start_new_session"] = True
            kwargs["preexec_fn"] = preexec_for(on_app_death)
        sinks = [open(p, "wb") if p is not None else None for p in (stdout_path, stderr_path)]
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=cwd, pass_fds=pass_fds,
                                         **kwargs)
            job_object.adopt(getattr(self.proc, "_handle", 0))  # Windows only; no-op elsewhere
        except FileNotFoundError:
            for sink in filter(None, sinks):
                sink.close()
            raise EngineNotFound(f"cannot run {self.argv[0]}: not found") from None
        _widen(self.proc.stdout)
        self.app_cpu_s: float | None = None   # the app's CPU time while the trial ran (own only)
        self._cpu_at_start = _own_cpu_s()
        self.reader_ids: list[int] = []   # the output readers' native thread ids
        self._readers = [
            threading.Thread(target=self._pump, daemon=True,
                             args=(self.proc.stdout, sinks[0], self._stdout, STDOUT_TAIL_BYTES, True)),
            threading.Thread(target=self._pump, daemon=True,
                             args=(self.proc.stderr, sinks[1], self._stderr, STDERR_TAIL_BYTES, False)),
        ]
        for reader in self._readers:
            reader.start()

    def _pump(self, stream: IO[bytes], sink: IO[bytes] | None, tail: bytearray, cap: int, to_queue: bool) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        fd = stream.fileno()
        self.reader_ids.append(threading.get_native_id())
        ready = _readable(fd)   # None where pipes cannot be polled (Windows): pause after reads
        # at the app's priority: the decisions that stop a trial wait on what it reads
        #   (jobs/engine/quiet.py)
        try:
            while True:
                try:
                    if ready is not None and not self.io_done.is_set():
                        ready.poll()   # until the engine writes, or closes its end
                        if not self.io_done.is_set():   # its I/O is over: its result, at once
                            time.sleep(READ_PAUSE_S)   # the rest of what it writes comes meanwhile
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                if sink is not None:
                    try:
                        sink.write(chunk)
                    except OSError as exc:  # the runs folder filled up or went read-only:
                        log.info("engine output is no longer saved: %s", exc)  # the tail
                        _closed(sink)  # in memory still holds the result
                        sink = None
                tail.extend(chunk)
                if to_queue:
                    for watch in self._watches:
                        watch.feed(chunk)
                if len(tail) > 2 * cap:  # trim in steps, not per chunk
                    del tail[:len(tail) - cap]
                if to_queue:
                    self._text.put(decoder.decode(chunk))
                if ready is None and not self.io_done.is_set():   # its I/O is over: at once
                    time.sleep(READ_PAUSE_S)   # what fio writes meanwhile comes in the next read
        finally:
            if to_queue:
                self.app_cpu_s = round(_own_cpu_s() - self._cpu_at_start, 3)
                self._text.put(decoder.decode(b"", final=True))
                self._eof.set()
            _closed(sink)
            stream.close()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def elapsed_s(self) -> float:
        return time.monotonic() - self.started

    def restart_clock(self) -> None:
        """A held engine was let go: its trial, and its time limit, start now."""
        self.started = time.monotonic()
        self._cpu_at_start = _own_cpu_s()

    def wake(self) -> None:
        """End a ``read_text`` that is waiting, now (a cancel; safe from a signal handler)."""
        self._text.put("")

    def read_text(self, timeout: float) -> str:
        """Stdout text that arrived, waiting at most ``timeout`` for the first piece. Once
        stdout has closed, the wait is on the process itself, so its exit is seen at once and
        not a poll interval later (a trial's cost beyond its runtime)."""
        parts = []
        if self._eof.is_set() and self._text.empty():
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
            return ""
        try:
            parts.append(self._text.get(timeout=timeout))
            while True:
                parts.append(self._text.get_nowait())
        except queue.Empty:
            pass
        return "".join(parts)

    def poll(self) -> int | None:
        return self.proc.poll()

    def finish(self, timeout: float = 5.0) -> int | None:
        """Wait (bounded) for the process and its output readers after it exited."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        for reader in self._readers:
            reader.join(timeout=timeout)
        return self.proc.returncode

    def stop(self, reason: str, graceful_s: float | None = None) -> str:
        """Graceful, then firm, then forced; returns how the process ended. ``graceful_s``: a
        longer wait after the graceful request, for an engine that must first complete the I/Os
        it has in flight (a deep queue on a slow device)."""
        self.stop_reason = reason
        if self.proc.poll() is not None:
            return "exited"
        waits = (max(STOP_WAITS_S[0], graceful_s or 0.0), *STOP_WAITS_S[1:])
        if self.graceful_stop is not None:
            try:
                self.graceful_stop()
            except OSError as exc:
                log.warning("graceful stop of %s failed: %s", self.argv[0], exc)
            if self._wait(waits[0]):
                return "graceful"
        self._signal(terminate=True)
        if self._wait(waits[1]):
            return "terminate"
        self._signal(terminate=False)
        self._wait(waits[2])
        return "kill"

    def _wait(self, seconds: float) -> bool:
        try:
            self.proc.wait(timeout=seconds)
            return True
        except subprocess.TimeoutExpired:
            return False

    def _signal(self, terminate: bool) -> None:
        try:
            if sys.platform.startswith("win"):
                self.proc.terminate() if terminate else self.proc.kill()
            else:
                os.killpg(self.proc.pid, signal.SIGTERM if terminate else signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass

    @property
    def stdout_bytes(self) -> bytes:
        """The last STDOUT_TAIL_BYTES of stdout (all of it for any ordinary trial)."""
        return bytes(self._stdout)

    @property
    def stderr_bytes(self) -> bytes:
        return bytes(self._stderr)

    def stderr_tail(self, limit: int = 2000) -> str:
        return bytes(self._stderr[-limit:]).decode("utf-8", errors="replace").strip()


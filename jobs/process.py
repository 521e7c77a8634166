"""Engine process control: argv only, output captured, cancellation bounded (DESIGN §7.4).

The engine runs in its own session / process group so a Ctrl+C typed in the terminal reaches the
app, not fio: the app then stops fio the graceful way (its trigger file: final JSON, rc 0), and
only if that fails terminates, then kills, each step with a bounded wait. Nothing ever waits
without a limit, and nothing goes through a shell.
"""
from __future__ import annotations

import codecs
import logging
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

from app.engines import EngineNotFound

log = logging.getLogger(__name__)

STOP_WAITS_S = (1.5, 1.0, 1.0)  # after trigger file, after terminate, after kill


class EngineProcess:
    def __init__(self, argv: list[str], graceful_stop: Callable[[], None] | None = None,
                 cwd: Path | None = None) -> None:
        """``graceful_stop`` asks the engine to end and print its result (fio: create the
        trigger file; DiskSpd: set its -yp event); None skips straight to terminate."""
        self.argv = list(argv)
        self.graceful_stop = graceful_stop
        self.started = time.monotonic()
        self.stop_reason: str | None = None
        self._stdout = bytearray()
        self._stderr = bytearray()
        self._text: queue.Queue[str] = queue.Queue()
        kwargs: dict = {}
        if sys.platform.startswith("win"):
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
        else:
            kwargs["start_new_session"] = True
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=cwd, **kwargs)
        except FileNotFoundError:
            raise EngineNotFound(f"cannot run {self.argv[0]}: not found") from None
        self._readers = [
            threading.Thread(target=self._pump, args=(self.proc.stdout, self._stdout, True), daemon=True),
            threading.Thread(target=self._pump, args=(self.proc.stderr, self._stderr, False), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _pump(self, stream, sink: bytearray, to_queue: bool) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            sink.extend(chunk)
            if to_queue:
                self._text.put(decoder.decode(chunk))
        if to_queue:
            self._text.put(decoder.decode(b"", final=True))
        stream.close()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def elapsed_s(self) -> float:
        return time.monotonic() - self.started

    def read_text(self, timeout: float) -> str:
        """Stdout text that arrived, waiting at most ``timeout`` for the first piece."""
        parts = []
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

    def stop(self, reason: str) -> str:
        """Graceful, then firm, then forced; returns how the process ended."""
        self.stop_reason = reason
        if self.proc.poll() is not None:
            return "exited"
        waits = STOP_WAITS_S
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
        return bytes(self._stdout)

    @property
    def stderr_bytes(self) -> bytes:
        return bytes(self._stderr)

    def stderr_tail(self, limit: int = 2000) -> str:
        return bytes(self._stderr[-limit:]).decode("utf-8", errors="replace").strip()


def run_quick(argv: list[str], timeout: float = 10.0) -> tuple[int, str, str]:
    """A short helper command (``fio --version``): rc, stdout, stderr; bounded by ``timeout``."""
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout)
    except FileNotFoundError:
        raise EngineNotFound(f"cannot run {argv[0]}: not found") from None
    except subprocess.TimeoutExpired:
        return -1, "", f"{argv[0]} did not answer within {timeout:g} s"
    return done.returncode, done.stdout, done.stderr

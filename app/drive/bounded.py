"""Running a helper tool (smartctl, ssh smartctl, lsblk) with both time and output bounded.

Why: a timeout alone does not bound memory. ``subprocess.run(capture_output=True)`` keeps all
a program prints, and a helper on another machine (``ssh HOST smartctl``) or a broken one here
can print a stream of zeros at memory speed: 5.9 GB within the 15 s timeout was seen. Here each
stream is read in chunks on its own thread into at most its cap; past the cap, or past the
timeout, the helper's whole session is killed (ssh and what it started) and its pipes dropped,
and the result says why in one line. No shell, no console window on Windows.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from typing import IO, Any

MAX_STDOUT = 8 << 20   # smartctl -j -a of an NVMe drive is ~10 KiB, lsblk -J some KiB
MAX_STDERR = 64 << 10
_CHUNK = 1 << 16


def _drain(pipe: IO[bytes], sink: bytearray, cap: int, over: threading.Event,
           proc: subprocess.Popen[bytes]) -> None:
    """Read ``pipe`` into ``sink`` up to ``cap`` bytes; past it, mark ``over`` and end the
    helper at once (its session), so the waiting caller returns without polling."""
    try:
        while True:
            chunk = os.read(pipe.fileno(), _CHUNK)
            if not chunk:
                return
            room = cap - len(sink)
            sink += chunk[:max(room, 0)]
            if len(chunk) > room:
                over.set()
                kill_session(proc)
                return
    except (OSError, ValueError):  # the pipe was closed under us: the helper was killed
        return


def kill_session(proc: subprocess.Popen[bytes]) -> None:
    """The helper and everything it started (its own session on POSIX); bounded wait."""
    try:
        if sys.platform == "win32":
            proc.kill()
        else:
            os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        proc.wait(timeout=2.0)
    except subprocess.TimeoutExpired:
        pass


def run_bounded(argv: list[str], timeout: float, env: Mapping[str, str] | None = None,
                max_stdout: int = MAX_STDOUT,
                max_stderr: int = MAX_STDERR) -> tuple[int | None, bytes, str]:
    """(rc, stdout, stderr text) of ``argv``; (None, b"", one line) when it could not run,
    ran past ``timeout`` s, or printed more than its caps."""
    kwargs: dict[str, Any] = ({"creationflags": getattr(subprocess, "CREATE_NO_WINDOW", 0)}
                    if os.name == "nt" else {"start_new_session": True})
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, **kwargs)
    except FileNotFoundError:
        return None, b"", f"{argv[0]} not found"
    except OSError as exc:
        return None, b"", f"cannot run {argv[0]}: {exc.strerror or exc}"
    out, err, over = bytearray(), bytearray(), threading.Event()
    readers = [threading.Thread(target=_drain, args=(pipe, sink, cap, over, proc), daemon=True)
               for pipe, sink, cap in ((proc.stdout, out, max_stdout), (proc.stderr, err, max_stderr))]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + timeout
    problem = ""
    try:
        proc.wait(timeout=timeout)
        for reader in readers:  # the rest of its output (a helper it left may hold a pipe)
            reader.join(max(0.0, deadline - time.monotonic()))
        if any(reader.is_alive() for reader in readers):
            problem = f"no answer within {timeout:g} s"
    except subprocess.TimeoutExpired:
        problem = f"no answer within {timeout:g} s"
    if over.is_set():
        problem = (f"{os.path.basename(argv[0])} printed more than the app reads from it "
                   f"({max_stdout >> 20} MiB, {max_stderr >> 10} KiB of messages); its answer "
                   "was dropped")
    if problem:
        kill_session(proc)
    for reader in readers:  # at end of file once the session is gone
        reader.join(1.0)
    for pipe in (proc.stdout, proc.stderr):
        if pipe is None:
            continue
        try:
            pipe.close()
        except OSError:
            pass
    if problem:
        return None, b"", problem
    return proc.returncode, bytes(out), err.decode("utf-8", "replace").strip()

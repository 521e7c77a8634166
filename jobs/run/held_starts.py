"""Trials started ahead of their turn and held before their first I/O.

fio spends about 0.23 s of every start on itself (exec, clock calibration, a fixed 100 ms wait
for its job to initialise) and some 0.05 s on its end. Started one trial at a time, all of it is
dead time between trials (bench-fio pays it too). Here the next trials of an experiment, a
batch, are started together while no trial runs, and each waits after its set-up (files
checked, buffers allocated, no I/O issued) on a pipe of its own. When its turn comes the runner
verifies the test file and writes one line per job: the trial starts within milliseconds.

Why a batch and not one trial ahead: a start that overlaps a running trial would put its CPU
work (fio's clock calibration spins a core for ~70 ms) inside that trial's measurement. The
batch is bounded by count and by memory, since each held fio holds its I/O buffers.

A trial whose result decides nothing about the next (most experiments: not steady-state rounds,
not an early stop) lets the next held trial go as soon as its own I/O is over (fio's
``exec_postrun`` line): its statistics are final, and what remains (closing files, libaio's
``io_destroy``, the JSON dump; ~55 ms) issues no I/O and runs under the next trial's start.

Safety: a held fio has not opened the test file (it does so after the hold), and the runner
verifies the file before letting each one go. If the app dies, its pipe ends close, every held
``read`` sees end of file, the hold fails and fio ends before any I/O (and PR_SET_PDEATHSIG
kills it anyway). A held trial that is not needed (a skipped precondition round, an early
stop, a cancel) is dismissed the same way, and its raw output files are removed.
"""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app.engines.base import Engine, Hold
from app.experiments.plan import Trial
from app.store.run_folder import utc_now
from jobs.engine.process import EngineProcess

MAX_HELD = 16                 # engines held at once
MEMORY_SHARE = 0.25           # of the memory available when the batch starts
ENGINE_BASE_BYTES = 48 << 20  # one fio's own resident memory, besides its I/O buffers
TAKE_TIMEOUT_S = 2.0          # for a held job to read its line once let go
READY_TIMEOUT_S = 5.0        # a batch of 16 is ready in ~1.5 s on 2 slow cores

Spawn = Callable[[Trial, Path, list[str], tuple[int, ...], Hold], EngineProcess]


@dataclass
class Held:
    trial: Trial
    argv: list[str]
    proc: EngineProcess
    gate: int   # the write end of the pipe the job waits on
    jobs: int
    started: tuple[str, float] | None = None  # (ISO time, epoch s) once let go


def _available_bytes() -> int:
    try:
        import psutil
        return int(psutil.virtual_memory().available)
    except (ImportError, OSError):
        return 1 << 30


def _engine_bytes(trial: Trial) -> int:
    w = trial.workload
    return ENGINE_BASE_BYTES + w.bs_bytes * w.iodepth * w.numjobs


class HeldStarts:
    """The held engines of one experiment, in run order. ``spawn`` starts an engine with the
    extra argv, inherited fds and ready marker it is given; ``argv_for`` is a trial's argv."""

    def __init__(self, engine: Engine, spawn: Spawn, argv_for: Callable[[Trial, Path], list[str]],
                 raw_paths: Callable[[Trial], tuple[Path, Path]], cancel: threading.Event):
        # optional on an engine (app.engines.base.Engine): None starts each trial the usual way
        self._hold: Callable[[list[str], int, int], Hold | None] | None = getattr(engine, "held_argv", None)
        self._spawn, self._argv_for, self._raw_paths = spawn, argv_for, raw_paths
        self._cancel = cancel
        self._queue: list[Held] = []
        self._ahead: Held | None = None  # let go under the end of the trial before it

    def take(self, trial: Trial, upcoming: list[Trial], test_file: Path) -> Held | None:
        """The held engine of ``trial`` (upcoming[0]), ready to be let go; held engines of
        trials passed over are dismissed. None: start it the usual way. Already running (its
        ``started`` set) if it was let go under the end of the trial before."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            if ahead.trial.index == trial.index:
                return ahead
            self._dismiss(ahead)
        while self._queue and self._queue[0].trial.index != trial.index:
            self._dismiss(self._queue.pop(0))
        self.begin(upcoming, test_file)
        self._await_ready()
        return self._queue.pop(0) if self._queue else None

    def begin(self, upcoming: list[Trial], test_file: Path) -> None:
        """Start the next batch now, if none is held, without waiting for it: before the test
        file is filled, so the engines' start-up overlaps that fill, which is not measured."""
        if not self._queue and upcoming:
            self._start_batch(upcoming, test_file)

    def let_go(self, held: Held, check: Callable[[], None]) -> bool:
        """Start the held trial now, right after ``check`` (which raises to refuse: then the
        held engine is dismissed). False if its hold had already failed (fio then ends with no
        I/O and rc 0, so its output must not count): the caller starts the trial the usual way,
        and no more trials are held in this run."""
        try:
            check()
        except BaseException:
            self._dismiss(held)
            raise
        held.started = (utc_now(), time.time())
        try:
            os.write(held.gate, b"\n" * held.jobs)
            alive = _taken(held)
        except OSError:  # EPIPE: nobody is left to read the line
            alive = False
        finally:
            os.close(held.gate)
            held.gate = -1
        if not alive:
            self._hold = None
            if held.proc.finish(timeout=2.0) is None:
                held.proc.stop("its hold failed")
            return False
        held.proc.restart_clock()
        return True

    def is_ahead(self, trial: Trial) -> bool:
        """Whether ``trial`` was let go under the end of the one before (it runs already)."""
        return self._ahead is not None and self._ahead.trial.index == trial.index

    def let_go_next(self, next_trial: Trial, check: Callable[[], None]) -> None:
        """Let ``next_trial`` go now, while the current trial's engine tears down after its
        I/O: only when its engine is the next one held and waits at its hold. A refused
        ``check`` only means no early start (the runner checks again before the next trial)."""
        if (self._ahead is not None or not self._queue or self._cancel.is_set()
                or self._queue[0].trial.index != next_trial.index
                or not self._queue[0].proc.ready.is_set()):
            return
        held = self._queue.pop(0)
        try:
            if self.let_go(held, check):
                self._ahead = held
        except Exception:  # noqa: BLE001 - see the docstring: the runner's own check says why
            pass

    def dismiss_all(self) -> None:
        if self._ahead is not None:
            self._dismiss(self._ahead)
            self._ahead = None
        for held in self._queue:  # all gates first: the engines end side by side
            os.close(held.gate)
            held.gate = -1
        while self._queue:
            self._dismiss(self._queue.pop(0))

    # -- inside ---------------------------------------------------------------------------
    def _start_batch(self, upcoming: list[Trial], test_file: Path) -> None:
        if self._hold is None or not _laid_out(test_file, upcoming[0]):
            # a file shorter than the trial's size would be laid out again by fio's set-up,
            # which runs before the hold, in every held engine at once: start them plainly
            return
        budget = MEMORY_SHARE * _available_bytes()
        for trial in upcoming[:MAX_HELD]:
            budget -= _engine_bytes(trial)
            if budget < 0 and self._queue:
                break
            held = self._start_one(trial, test_file)
            if held is None:
                break
            self._queue.append(held)

    def _start_one(self, trial: Trial, test_file: Path) -> Held | None:
        if self._hold is None:
            return None
        argv, jobs = self._argv_for(trial, test_file), trial.workload.numjobs
        read_end, write_end = os.pipe()
        try:
            plan = self._hold(argv, read_end, jobs)
            if plan is None:
                os.close(write_end)
                return None
            proc = self._spawn(trial, test_file, plan.argv, (read_end,), plan)
        except BaseException:
            os.close(write_end)
            raise
        finally:
            os.close(read_end)
        return Held(trial, plan.argv, proc, write_end, jobs)

    def _await_ready(self) -> None:
        """Until every engine of the batch waits at its hold (bounded); one that ended or did
        not get there, and every one after it, is dismissed, and no more are held in this run
        (an engine that cannot be held starts each trial the usual way)."""
        deadline = time.monotonic() + READY_TIMEOUT_S
        for position, held in enumerate(self._queue):
            while not held.proc.ready.wait(0.02):
                if (held.proc.poll() is not None or self._cancel.is_set()
                        or time.monotonic() > deadline):
                    for late in self._queue[position:]:
                        self._dismiss(late)
                    del self._queue[position:]
                    self._hold = None
                    return

    def _dismiss(self, held: Held) -> None:
        if held.gate >= 0:
            os.close(held.gate)  # end of file for the hold: the job fails before any I/O
            held.gate = -1
        elif held.started is not None:  # let go (under the end of the last trial): stop it now
            held.proc.stop("not needed")
        if held.proc.finish(timeout=2.0) is None:
            held.proc.stop("not needed")
            held.proc.finish(timeout=2.0)
        for path in self._raw_paths(held.trial):
            try:
                path.unlink(missing_ok=True)
            except OSError:  # the runs folder went read-only: the empty files stay, harmless
                pass


def _taken(held: Held) -> bool:
    """Whether the held jobs read their lines: the hold worked and the trial runs. A line left
    unread while fio ends means its hold had failed (its shell could not run the command)."""
    import fcntl
    import struct
    import termios
    deadline = time.monotonic() + TAKE_TIMEOUT_S
    while struct.unpack("i", fcntl.ioctl(held.gate, termios.FIONREAD, b"\0" * 4))[0] > 0:
        if held.proc.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.0005)
    return True


def _laid_out(test_file: Path, trial: Trial) -> bool:
    try:
        return test_file.stat().st_size >= trial.size_bytes
    except OSError:
        return False

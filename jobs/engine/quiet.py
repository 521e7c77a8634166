"""Keep the app's own threads out of the engine's way while it measures (docs/performance.md,
"Measuring without disturbing").

A QD1 trial's latency includes every moment fio's job thread waits for a CPU after its I/O
completes; on a machine with few cores the app's threads (the output readers, the worker that
parses fio's documents, the window's GUI thread) compete for the same CPUs. On Linux each
thread has its own nice value, so those threads run at :data:`QUIET_NICE` while fio keeps the
priority the app started with: the scheduler then lets fio's wake-up preempt them at once.

Which threads: only those that show (the window's GUI thread, the largest share beside a trial).
The threads that decide (the worker, the command line's main thread, which stop a trial on its
precision target and start the next) and the output readers that carry them fio's documents keep
the app's priority: lowered, on a busy machine their decisions came late (a precision stop due at
3.0 s came at 4.0 s at load average 7 with nice 19, and still late with nice 5 and 10).

Why nice 10 and not 19 or SCHED_IDLE: an idle-class thread gets no CPU at all while anything
else is runnable, and nice 19 gets about 1.5 % of a core beside one busy program: a window that
stops answering on a busy laptop. Nice 10 still yields to fio at once and keeps about 10 %.

The rule that keeps fio at full priority: a child inherits the nice of the *thread* that starts
it, and an unprivileged process cannot raise a nice value it lowered (RLIMIT_NICE is usually 0).
So a thread that starts engines (the worker, the command line's main thread) or outlives the run
(the GUI thread) is lowered only when it can be raised back (:func:`can_restore`); the engine's
pre-exec hook (:func:`reset_in_child`) then puts the child back at the app's own nice. The output
readers keep the priority of the thread that starts them (a decision waits on what they read).
Elsewhere than Linux every function here does nothing.

Pinning (opt-in, :func:`pin_engines`; off by default: on 2 cores it leaves the engine one core
that everything else on the machine still shares): engines started afterwards run on the last
CPU only, and every thread of the app that runs beside them on the others: the GUI thread
whether or not it could be lowered, and the threads that decide (:func:`off_engine_cpus`), which
keep their priority but not the engine's CPU. Priority and CPU are separate questions: a thread
at the engine's priority left on the engine's CPU still shares it with the I/O being measured
(measured with the command line in docs/performance.md, "Measuring without disturbing").
"""
from __future__ import annotations

import os
import sys
import threading
from typing import Any

QUIET_NICE = 10
_LINUX = sys.platform.startswith("linux")
#: The nice value the app started with (its main thread's at import): what an engine runs at.
BASE_NICE = os.getpriority(os.PRIO_PROCESS, 0) if _LINUX else 0


_engine_cpus: frozenset[int] | None = None
_all_cpus: frozenset[int] = frozenset()


def pin_engines(on: bool) -> frozenset[int] | None:
    """Opt in (or out): engines on the last CPU the app may use, its lowered threads on the
    rest. Returns the engines' CPUs (None: not pinned: off, not Linux, or a single CPU)."""
    global _engine_cpus, _all_cpus
    _engine_cpus = None
    if on and _LINUX:
        _all_cpus = frozenset(os.sched_getaffinity(0))
        if len(_all_cpus) > 1:
            _engine_cpus = frozenset(sorted(_all_cpus)[-1:])
    return _engine_cpus


def _set_affinity(cpus: frozenset[int]) -> None:
    try:
        os.sched_setaffinity(0, cpus)   # 0: the calling thread on Linux
    except OSError:
        pass


def _set_nice(value: int, tid: int | None = None) -> bool:
    try:
        os.setpriority(os.PRIO_PROCESS, tid if tid is not None else threading.get_native_id(), value)
        return True
    except (OSError, AttributeError):
        return False


def thread_nice(tid: int | None = None) -> int | None:
    """The calling thread's nice value (or thread ``tid``'s), None where not known."""
    if not _LINUX:
        return None
    try:
        return os.getpriority(os.PRIO_PROCESS, tid if tid is not None else threading.get_native_id())
    except OSError:
        return None


def can_restore() -> bool:
    """Whether a lowered thread may go back to :data:`BASE_NICE`: root, or an RLIMIT_NICE that
    allows it (the lowest nice an unprivileged thread may set is ``20 - rlim_cur``)."""
    if not _LINUX:
        return False
    if os.geteuid() == 0:
        return True
    import resource
    soft = resource.getrlimit(resource.RLIMIT_NICE)[0]
    return soft == resource.RLIM_INFINITY or 20 - soft <= BASE_NICE


def lower_this_thread(only_if_restorable: bool = False) -> int | None:
    """Run the calling thread at :data:`QUIET_NICE`; returns the nice it had (None: unchanged).
    ``only_if_restorable``: for a thread that starts engines or outlives the run."""
    if not _LINUX:
        return None
    off_engine_cpus()   # whether or not its nice can go back: an affinity can always widen again
    if only_if_restorable and not can_restore():
        return None
    before = thread_nice()
    if before is None or before >= QUIET_NICE or not _set_nice(QUIET_NICE):
        return None
    return before


def off_engine_cpus() -> bool:
    """When engines are pinned: the calling thread on the other CPUs, its priority unchanged;
    returns whether it moved (for :func:`back_on_all_cpus`)."""
    if not _engine_cpus:
        return False
    _set_affinity(_all_cpus - _engine_cpus)
    return True


def back_on_all_cpus(moved: bool) -> None:
    """Undo :func:`off_engine_cpus` (``moved`` is what it returned)."""
    if moved:
        _set_affinity(_all_cpus)


def restore_this_thread(before: int | None) -> None:
    """Undo :func:`lower_this_thread` (``before`` is what it returned)."""
    if before is not None:
        _set_nice(before)
    back_on_all_cpus(bool(_engine_cpus))


def reset_in_child() -> None:
    """In a just-forked engine (a pre-exec hook): back to the app's own nice, whatever the
    thread that started it runs at, and onto the engines' CPU when pinned. Failing quietly:
    then the starting thread was never lowered."""
    if not _LINUX:
        return
    try:
        if os.getpriority(os.PRIO_PROCESS, 0) != BASE_NICE:
            os.setpriority(os.PRIO_PROCESS, 0, BASE_NICE)
    except OSError:
        pass
    if _engine_cpus:
        _set_affinity(_engine_cpus)


def host_fields() -> dict[str, Any]:
    """run.json's host block: whether all the app's threads that run beside the engine (the
    worker, the window's or command line's, the readers) run below its priority, and the CPU the
    engines were pinned to, when they were."""
    fields: dict[str, Any] = {"app_below_engine": can_restore()} if _LINUX else {}
    return {**fields, "engine_cpu": min(_engine_cpus)} if _engine_cpus else fields

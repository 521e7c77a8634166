"""The one Qt object in jobs/: a thin QThread that pumps the trial runner.

Why a pump and nothing more: the runner is a plain generator that the command line iterates too,
so every decision (what to run, when to stop, what to write) stays in code that never imports Qt.
This thread only calls :func:`jobs.run.session.prepare_run` (so even the ``fio --version`` check and
the run folder creation stay off the GUI thread), iterates ``session.runner.events()`` and emits
each frozen event through ONE signal (live samples that come less than ``HOLD_S`` apart
travel together, :class:`LiveBatch`). Cancellation is cooperative: :meth:`RunWorker.cancel` sets
``session.cancel`` (a ``threading.Event``) and the runner stops fio the bounded way; the thread is
never terminated and nobody waits on it without a limit.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from app.engines import EngineNotFound
from app.experiments.plan import RunPlan
from app.model.status import RunStatus
from app.params import ParamError
from app.paths import TargetRefused
from jobs.engine import quiet
from jobs.events import Event, PrecisionUpdate, RunFinished, Sample
from jobs.run.session import RunCancelledEarly, RunSession

log = logging.getLogger(__name__)

HOLD_S = 0.9   # live events closer than this to the last ones sent wait to travel with the next


@dataclass(frozen=True)
class LiveBatch:
    """Live events (samples, and the precision each one brings) sent together, in order.

    Why: each signal that crosses to the GUI thread wakes it, and a thread woken from sleep runs
    on cold caches: at fio's 0.1 s interval, ten wake-ups a second cost the window more than the
    samples' own handling (docs/performance.md). The window redraws about once a second
    anyway, so samples less than ``HOLD_S`` after the last ones sent wait for the next; a sample
    that comes later than that (at a 1 s interval, every one: fio's documents come a second
    apart, a few ms either way) goes at once, with those held, and any other event (a trial's
    end, a message) first sends what is held. Less than a second, not half of one: at 0.1 s the
    window's beat takes every delivery then, where every other delivery woke the GUI thread
    for samples it would not draw until the next."""

    events: tuple[Sample | PrecisionUpdate, ...]


class _Hold:
    """Holds live events for :class:`LiveBatch`; ``send`` for every event, ``flush`` at the end."""

    def __init__(self, emit: Callable[[object], None], clock: Callable[[], float] = time.monotonic):
        self._emit, self._clock = emit, clock
        self._held: list[Sample | PrecisionUpdate] = []
        self._sent_at = float("-inf")

    def send(self, event: object) -> None:
        if isinstance(event, PrecisionUpdate) and not self._held:
            self._emit(event)   # its sample went at once: it follows, not with the next one
            return
        if isinstance(event, Sample | PrecisionUpdate):
            self._held.append(event)
            now = self._clock()
            if now - self._sent_at < HOLD_S:
                return
            self._sent_at = now
            self.flush()
            return
        self.flush()
        self._emit(event)

    def flush(self) -> None:
        if self._held:
            held, self._held = tuple(self._held), []
            self._emit(held[0] if len(held) == 1 else LiveBatch(held))


@dataclass(frozen=True)
class RunPrepared:
    """Every check passed and the run folder exists; the plan (frozen) tells what will run."""

    run_dir: str
    plan: RunPlan
    engine_version: str | None
    temperature_note: str = ""     # why no temperature is recorded ("" when one is)
    remote: dict[str, Any] | None = None     # run.json's target.remote: host, port, live series


@dataclass(frozen=True)
class RunRefused:
    """prepare_run refused before writing anything; ``message`` is one plain sentence."""

    message: str
    kind: str           # parameters | target | engine | cancelled | error


_REFUSALS = ((ParamError, "parameters"), (TargetRefused, "target"), (EngineNotFound, "engine"),
             (RunCancelledEarly, "cancelled"))  # a cancel before the run folder: not an error

#: What :attr:`RunWorker.event` carries: the preparation's outcome, then the run's events, the
#: live ones in batches.
WorkerEvent = RunPrepared | RunRefused | Event | LiveBatch


class RunWorker(QThread):
    """Prepares a run and pumps its events; ``event`` carries RunPrepared, RunRefused and every
    event of jobs/events.py, in order, to whoever listens (on their own thread)."""

    # the signal's name shadows QObject.event(): PySide calls a Python override of that virtual
    # only when it is a method, so Qt's own event handling is untouched; listeners use this name
    event = Signal(object)  # type: ignore[assignment]

    def __init__(self, prepare: Callable[[], RunSession], parent: QObject | None = None):
        super().__init__(parent)
        self._prepare = prepare
        self._cancel_requested = threading.Event()
        self._session: RunSession | None = None

    def cancel(self) -> None:
        """Ask the run to stop (any thread). Set the flag first, then look for a session; run()
        stores the session first, then looks at the flag: either way the cancel is not lost."""
        self._cancel_requested.set()
        session = self._session
        if session is not None:
            session.cancel.set()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel_requested.is_set()

    def run(self) -> None:  # the thread body
        # keeps the app's priority: it decides when trials stop (jobs/engine/quiet.py); a pinned
        # engine's CPU is left to the engine
        moved = quiet.off_engine_cpus()
        try:
            self._run()
        finally:
            quiet.back_on_all_cpus(moved)

    def _run(self) -> None:
        try:
            session = self._prepare()
        except Exception as exc:  # noqa: BLE001 - every refusal is shown, none crashes the app
            kind = next((k for cls, k in _REFUSALS if isinstance(exc, cls)), "error")
            if kind == "error":
                log.exception("preparing the run failed")
            self.event.emit(RunRefused(str(exc) if kind != "error" else f"{type(exc).__name__}: {exc}",
                                       kind))
            return
        self._session = session
        if self._cancel_requested.is_set():
            session.cancel.set()
        temperature = session.store.record.get("temperature") or {}
        remote = (session.store.record.get("target") or {}).get("remote")
        self.event.emit(RunPrepared(str(session.store.dir), session.plan,
                                    session.runner.engine.version,
                                    str(temperature.get("reason") or ""),
                                    dict(remote) if remote else None))
        events = session.runner.events()
        hold = _Hold(self.event.emit)
        try:
            for event in events:
                hold.send(event)
            hold.flush()
        except Exception as exc:  # noqa: BLE001 - the runner ends cleanly itself; this is a last guard
            log.exception("the runner stopped unexpectedly")
            hold.flush()
            error = f"{type(exc).__name__}: {exc}"
            try:
                session.store.finish(RunStatus.FAILED, error=error)
            except OSError:
                log.exception("cannot mark the run failed")
            self.event.emit(RunFinished(RunStatus.FAILED, str(session.store.dir), None, error))
        finally:
            events.close()

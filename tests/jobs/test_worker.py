"""The one QThread (jobs/worker.py): refusals become one event, a run's events arrive in order on
the GUI thread, a cancel asked before the session exists is not lost, a crash is a failed run."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import threading  # noqa: E402
from types import SimpleNamespace  # noqa: E402

from app.engines import EngineNotFound  # noqa: E402
from app.params import ParamError  # noqa: E402
from jobs.events import LogMessage, RunFinished  # noqa: E402
from jobs.worker import RunPrepared, RunRefused, RunWorker  # noqa: E402


def _session(events, store_finish=None):
    cancel = threading.Event()
    store = SimpleNamespace(record={"temperature": {"reason": "no sensor"}}, dir="/runs/x",
                            finish=store_finish or (lambda *a, **k: None))
    return SimpleNamespace(cancel=cancel, store=store, plan="the plan",
                           runner=SimpleNamespace(engine=SimpleNamespace(version="fio-3.33"),
                                                  events=events))


def _run(qtbot, worker) -> list:
    seen = []
    worker.event.connect(seen.append)
    worker.start()
    qtbot.waitUntil(worker.isFinished, timeout=5000)
    qtbot.wait(50)  # queued signals reach this thread
    return seen


def _raise(exc):
    raise exc


def test_each_refusal_is_one_event_with_its_kind(qtbot):
    for exc, kind in ((ParamError("runtime", "not a duration"), "parameters"),
                      (EngineNotFound("fio was not found"), "engine"),
                      (RuntimeError("boom"), "error")):
        seen = _run(qtbot, RunWorker(lambda exc=exc: _raise(exc)))
        assert len(seen) == 1 and isinstance(seen[0], RunRefused) and seen[0].kind == kind
        assert "boom" in seen[0].message if kind == "error" else str(exc) == seen[0].message


def test_events_arrive_in_order_after_run_prepared(qtbot):
    def events():
        yield LogMessage("one")
        yield RunFinished("done", "/runs/x", None, None)
    seen = _run(qtbot, RunWorker(lambda: _session(events)))
    assert [type(e) for e in seen] == [RunPrepared, LogMessage, RunFinished]
    assert seen[0].engine_version == "fio-3.33" and seen[0].temperature_note == "no sensor"


def test_a_cancel_before_the_session_exists_reaches_it(qtbot):
    gate, made = threading.Event(), []

    def prepare():
        gate.wait(5)
        made.append(_session(lambda: (e for e in ())))  # a generator, as the runner's is
        return made[0]
    worker = RunWorker(prepare)
    worker.start()
    worker.cancel()
    gate.set()
    qtbot.waitUntil(worker.isFinished, timeout=5000)
    assert worker.cancel_requested and made[0].cancel.is_set()


def test_a_runner_that_crashes_ends_as_a_failed_run(qtbot):
    finished = []

    def events():
        yield LogMessage("starting")
        raise ValueError("unexpected")
    seen = _run(qtbot, RunWorker(lambda: _session(events, lambda status, **k: finished.append(status))))
    assert finished == ["failed"] and isinstance(seen[-1], RunFinished)
    assert seen[-1].status == "failed" and "unexpected" in seen[-1].error

"""The one QThread (jobs/worker.py): refusals become one event, a run's events arrive in order on
the GUI thread, a cancel asked before the session exists is not lost, a crash is a failed run."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import threading  # noqa: E402
from types import SimpleNamespace  # noqa: E402

from app.engines import EngineNotFound  # noqa: E402
from app.params import ParamError  # noqa: E402
from jobs.events import LogMessage, PrecisionUpdate, RunFinished, Sample  # noqa: E402
from jobs.worker import LiveBatch, RunPrepared, RunRefused, RunWorker, _Hold  # noqa: E402


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


def _sample(t_s: float) -> Sample:
    return Sample(trial=0, t_s=t_s, read_MBps=1.0, read_iops=1.0, read_lat_us=1.0,
                  write_MBps=0.0, write_iops=0.0, write_lat_us=None)


def test_live_events_less_than_the_hold_apart_travel_together_in_order():
    """At fio's 0.1 s interval the GUI thread is woken about once a second, not ten times; at
    1 s every sample goes at once; anything else first sends what is held (jobs/worker.py)."""
    now, sent = [0.0], []
    hold = _Hold(sent.append, clock=lambda: now[0])
    for i in range(12):                      # ten a second
        now[0] = round(i * 0.1, 1)
        hold.send(_sample(now[0]))
        hold.send(PrecisionUpdate(0, None, 5.0))
    hold.send(LogMessage("trial over"))
    batches = [e for e in sent if isinstance(e, LiveBatch)]
    assert isinstance(sent[0], Sample) and sent[0].t_s == 0.0    # the first one at once
    assert isinstance(sent[-1], LogMessage) and len(batches) == 2   # at 0.9 s and at the end
    flat = [x for e in sent[:-1] for x in (e.events if isinstance(e, LiveBatch) else (e,))]
    assert [x.t_s for x in flat if isinstance(x, Sample)] == [round(i * 0.1, 1) for i in range(12)]
    assert len(flat) == 24                   # every event once, in order
    now[0], sent[:] = 10.0, []
    for _ in range(3):                       # a 1 s interval: each at once, with its precision
        now[0] += 1.0
        hold.send(_sample(now[0]))
        hold.send(PrecisionUpdate(0, 0.03, 0.02))
    assert [type(e) for e in sent] == [Sample, PrecisionUpdate] * 3


def test_held_samples_reach_the_window_before_the_runs_end_and_a_crash(qtbot):
    def events():
        for i in range(5):
            yield _sample(i * 0.01)
        yield RunFinished("done", "/runs/x", None, None)
    seen = _run(qtbot, RunWorker(lambda: _session(events)))
    assert [type(e) for e in seen] == [RunPrepared, Sample, LiveBatch, RunFinished]
    assert len(seen[2].events) == 4

    def crashing():
        yield _sample(0.0)
        yield _sample(0.01)
        raise ValueError("unexpected")
    seen = _run(qtbot, RunWorker(lambda: _session(crashing)))
    assert [type(e) for e in seen] == [RunPrepared, Sample, Sample, RunFinished]

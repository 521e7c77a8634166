"""The live charts draw on the window's beat, less often where a drawing costs more than their
share of a core (ui/window/run/chart_budget.py), and never leave new samples undrawn."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import time  # noqa: E402

import pytest  # noqa: E402

from ui.window.run.chart_budget import MOST_S, SHARE, ChartBudget  # noqa: E402
from ui.window.run.live_charts import LiveCharts  # noqa: E402
from ui.window.run.series import break_row, sample_row  # noqa: E402

import gui_support  # noqa: E402


class _View:
    paint_s = 0.0


def _drawing(budget: ChartBudget, view: _View, redraw_s: float, paint_s: float) -> None:
    started = budget.started()
    budget.ended(started - redraw_s)   # as if the redraw took redraw_s of the thread
    view.paint_s += paint_s


def test_the_wait_is_the_cost_over_the_share_within_the_beat_and_the_cap():
    view = _View()
    budget = ChartBudget(view, share=SHARE)  # type: ignore[arg-type]  # only paint_s is read
    assert budget.wait_s(1.0) == 1.0              # nothing drawn yet: every beat
    _drawing(budget, view, 0.0004, 0.0006)        # 1 ms a drawing: within 0.15 % at 1 s
    budget.started()
    assert budget.cost_s == pytest.approx(0.001, rel=0.05)
    assert budget.wait_s(1.0) == 1.0
    for _ in range(20):                           # 4 ms a drawing: every 2.7 s
        _drawing(budget, view, 0.0015, 0.0025)
    budget.started()
    assert budget.wait_s(1.0) == pytest.approx(0.004 / SHARE, rel=0.05)
    for _ in range(20):                           # 40 ms: capped, the chart stays live
        _drawing(budget, view, 0.01, 0.03)
    budget.started()
    assert budget.wait_s(1.0) == MOST_S


def test_one_costly_drawing_does_not_set_the_rule():
    view = _View()
    budget = ChartBudget(view)  # type: ignore[arg-type]
    for _ in range(10):
        _drawing(budget, view, 0.0004, 0.0006)
    _drawing(budget, view, 0.004, 0.012)          # a trial's first drawing: axes and all
    budget.started()
    assert budget.wait_s(1.0) < 5.0 / 1.5 * 1.0   # smoothed: 5.5 ms, not 16 ms a drawing


live_charts = gui_support.live_charts


@pytest.fixture
def charts(live_charts):
    live_charts.model.series.append(break_row(0.0), real=False)
    return live_charts


def _sample(charts: LiveCharts, t: float, after_s: float | None = None) -> None:
    """A sample at ``t``, delivered as RunModel does; ``after_s``: as if the last beat was that
    long ago."""
    rhythm = charts.model.rhythm
    if after_s is not None:
        rhythm.beat_at = time.monotonic() - after_s
    charts.model.series.append(sample_row({"t_s": t, "read_MBps": 100.0 + t, "read_lat_us": 80.0}))
    rhythm.on_samples()
    charts._on_samples()


def test_a_costly_chart_lengthens_the_beat_and_draws_later_what_came(charts):
    charts.budget.share = 1e-6         # whatever a drawing costs here: one in MOST_S
    _sample(charts, 1.0)
    drawn = charts.redraws
    assert charts.model.rhythm.wait_s == MOST_S
    _sample(charts, 2.0, after_s=1.0)  # a second after the last beat: no beat, not drawn
    assert charts.redraws == drawn and charts.points("read_tp") == 1
    _sample(charts, 3.0, after_s=MOST_S)
    assert charts.redraws == drawn + 1 and charts.points("read_tp") == 3


def test_a_cheap_chart_draws_on_every_beat(charts):
    charts.budget.share = 1.0          # whatever a drawing costs here: every beat
    for t in (1.0, 2.0, 3.0):
        _sample(charts, t, after_s=1.0)
    assert charts.points("read_tp") == 3 and charts.model.rhythm.wait_s == 1.0


def test_hidden_charts_leave_the_beat_to_the_period(charts):
    charts.budget.share = 1e-6
    _sample(charts, 1.0)
    charts.hide()
    _sample(charts, 2.0, after_s=MOST_S)
    assert charts.model.rhythm.wait_s == charts.model.rhythm.period_s


def test_without_another_sample_the_timer_draws_what_waited(charts, qtbot):
    charts.budget.most_s = 2.0         # a 2 s wait, whatever a drawing costs here
    charts.budget.share = 1e-6
    _sample(charts, 1.0)
    drawn = charts.redraws
    _sample(charts, 2.0, after_s=1.0)
    assert charts.redraws == drawn
    qtbot.waitUntil(lambda: charts.redraws == drawn + 1, timeout=4000)
    assert charts.points("read_tp") == 2


def test_the_beat_waits_as_long_as_the_charts_ask(monkeypatch):
    from ui.window.run import rhythm as rhythm_module
    clock = [100.0]
    monkeypatch.setattr(rhythm_module.time, "monotonic", lambda: clock[0])
    rhythm = rhythm_module.SampleRhythm()
    rhythm.wait_s = 2.7
    beats = []
    for second in range(10):           # a sample a second
        clock[0] = 100.0 + second
        beats.append(rhythm.on_samples())
    assert [s for s, b in enumerate(beats) if b] == [0, 3, 6, 9]   # the sample nearest 2.7 s

"""The live charts read like a report's: throughput from 0, short ticks (µs becomes ms
above 10,000 µs, never a six-digit tick running into the title), readable log ticks, and one
line instead of an empty temperature chart. Fed with samples directly (no engine needed).
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import math  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QFontMetrics  # noqa: E402

from app.model.trial import TrialResult  # noqa: E402
from ui.window.run.chart_axes import log_ticks, nice_top  # noqa: E402
from ui.window.run.run_state import RunState
from ui.window.run.series import break_row, sample_row  # noqa: E402

import gui_support  # noqa: E402

NAN = math.nan


charts = gui_support.live_charts


def feed(charts, rows, p99_factor: float | None = None) -> None:
    series = charts.model.series
    series.append(break_row(0.0), real=False)
    for t, (mbps, lat_us, temp) in enumerate(rows, start=1):
        series.append(sample_row({"t_s": t, "read_MBps": mbps, "read_iops": mbps * 250,
                                  "read_lat_us": lat_us, "temperature_c": temp,
                                  "read_p99_us": lat_us * p99_factor if p99_factor else None}))
    charts.redraw()


def y_range(plot):
    return plot.getViewBox().viewRange()[1]


def test_throughput_starts_at_zero_and_latency_switches_to_ms(charts, qtbot):
    feed(charts, [(3400.0, 120.0, NAN), (3500.0, 130.0, NAN)])
    low, high = y_range(charts.tp_plot)
    assert low == 0 and 3500 < high <= 5000           # from 0, not from 3,400
    assert y_range(charts.lat_plot)[0] == 0
    lat_axis = charts.lat_plot.getAxis("left")
    assert lat_axis.labelText == "latency (µs)"
    feed(charts, [(900.0, 25_000.0, NAN), (950.0, 180_000.0, NAN)])
    assert lat_axis.labelText == "latency (ms)"
    ticks = lat_axis.tickStrings([0, 50_000, 100_000, 150_000], 1.0, 50_000)
    assert ticks == ["0", "50", "100", "150"]
    assert all(len(t) <= 5 for t in lat_axis.tickStrings([100_000, 200_000], 1.0, 100_000))
    # the longest tick and the title side by side fit in the axis (its width is from the font)
    metrics = QFontMetrics(lat_axis.font())
    assert lat_axis.width() >= metrics.horizontalAdvance("10,000") + metrics.height()


def test_log_latency_ticks_are_few_and_plain(charts):
    feed(charts, [(100.0, 80.0, NAN), (100.0, 4000.0, NAN)])
    charts.log_box.setChecked(True)
    axis = charts.lat_plot.getAxis("left")
    levels = log_ticks(math.log10(80), math.log10(4000))
    labelled = [v for spacing, values in levels if spacing is not None for v in values]
    assert [round(10 ** v) for v in labelled] == [100, 300, 1000, 3000]
    assert axis.tickStrings(labelled, 1.0, 1.0) == ["100", "300", "1,000", "3,000"]
    minors = [v for spacing, values in levels if spacing is None for v in values]
    assert axis.tickStrings(minors, 1.0, None) == [""] * len(minors)   # unlabelled
    assert nice_top(3500) == 4000 and nice_top(95) == 100


def test_log_latency_keeps_the_time_axis_where_it_was(charts, qtbot):
    """pyqtgraph's log mode sets both axes of the plot to range themselves: the time axis (all
    three charts share it) jumped to the samples' extent and then moved with every sample."""
    feed(charts, [(100.0, 80.0, NAN), (100.0, 4000.0, NAN), (100.0, 90.0, NAN)])
    charts.tp_plot.setXRange(0.0, 60.0, padding=0.0)
    qtbot.wait(50)
    for on in (True, False):
        charts.log_box.setChecked(on)
        qtbot.wait(50)
        assert charts.lat_plot.viewRange()[0] == pytest.approx([0.0, 60.0])
        assert not charts.lat_plot.getViewBox().autoRangeEnabled()[0]


def test_no_temperature_is_one_line_and_a_reading_brings_the_chart(charts, qtbot):
    charts.model.temperature_note = "temperature unavailable: virtual disk, no sensor to read"
    feed(charts, [(100.0, 100.0, NAN)] * 3)
    qtbot.wait(20)
    assert not charts.temp_shown and set(charts.chart_heights()) == {"throughput", "latency"}
    assert charts.temp_note.isVisible()
    assert charts.temp_note.text() == "Temperature not charted: virtual disk, no sensor to read"
    assert charts.temp_plot.geometry().height() <= 1
    feed(charts, [(100.0, 100.0, 41.0)] * 3)
    qtbot.wait(20)
    assert charts.temp_shown and not charts.temp_note.isVisible()
    assert charts.chart_heights()["temperature"] > 50


def test_the_tail_of_each_interval_is_drawn_dashed_beside_the_mean(charts):
    """per-interval p99 (from the interval's own histogram) next to the mean; the
    y range holds it, and an interval without enough I/Os leaves a gap, not a zero."""
    feed(charts, [(100.0, 100.0, NAN), (100.0, 120.0, NAN), (100.0, 110.0, NAN)], p99_factor=4.0)
    assert charts.points("read_p99_us") == 3 and charts.points("read_lat_us") == 3
    assert y_range(charts.lat_plot)[1] >= 480.0
    assert charts.curves["read_p99_us"].now.opts["pen"].style() == Qt.PenStyle.DashLine
    feed(charts, [(100.0, 100.0, NAN)])            # too few I/Os in that interval: no p99
    assert charts.points("read_p99_us") == 3


def _short_trial(model, index: int, t_s: float, samples: list[float]) -> None:
    """A 1 s trial at a 1 s sample interval: its samples (maybe none) and its result."""
    from jobs.events import TrialFinished, TrialStarted
    model.apply(TrialStarted(index, "zero-queue", "RND4K Q1T1 read", 1, False, ("fio",), t_s, 1.0))
    for mbps in samples:
        model.series.append(sample_row({"t_s": t_s + 1.0, "read_MBps": mbps}))
    record = {"index": index, "experiment": "zero-queue", "status": "done", "runtime_s": 1.0,
              "label": "RND4K Q1T1 read", "workload": {"rw": "randread", "bs_bytes": 4096},
              "measurement": {"read": {"iops": 13_800.0, "MBps": 56.6, "runtime_ms": 1000,
                                       "lat_us": {"mean": 71.7, "p99": 156.0}}}}
    model.apply(TrialFinished(index, "RND4K Q1T1 read", TrialResult.from_json(record)))


def test_a_trial_shorter_than_the_sample_interval_shows_its_result(charts):
    """With no interval sample (or one: a line needs two points) the chart drew nothing for
    the trial; its final result is drawn over the trial's time instead."""
    model = charts.model
    _short_trial(model, 0, 0.0, [])
    charts.redraw()
    assert charts.points("read_tp") == 2 and charts.points("read_lat_us") == 2
    t, mbps = charts.curves["read_tp"].dataset()
    finite = [(x, y) for x, y in zip(t, mbps) if y == y]
    assert finite == [(0.0, 56.6), (1.0, 56.6)]     # flat at the result, start to end
    assert not charts.empty_note.isVisible()
    assert model.series.samples == 0 and model.series.results == 2   # not counted as samples
    _short_trial(model, 1, 1.5, [60.0])              # one sample: joined to the result at the end
    charts.redraw()
    assert charts.points("read_tp") == 4
    _short_trial(model, 2, 3.0, [60.0, 61.0])        # two samples draw a line: nothing added
    charts.redraw()
    assert charts.points("read_tp") == 6


def test_only_the_current_trials_part_of_a_curve_gets_new_data(charts):
    """A curve given new data repaints its whole extent: the samples before the current trial
    stay in the "past" curve, handed over once a trial; each redraw hands the current trial's
    newest rows to the "tail" (ui/window/run/split_curve.py). Together they hold every sample,
    in order."""
    from ui.window.run.planned import PlannedTrial
    model, curve = charts.model, charts.curves["read_tp"]
    model.live = True
    handed = {"past": 0, "now": 0, "tail": 0}
    for name in handed:
        part = getattr(curve, name)
        def counting(*args, _set=part.setData, _name=name, **kwargs):
            handed[_name] += 1
            return _set(*args, **kwargs)
        part.setData = counting
    t_s, sampled = 0.0, []
    for trial in range(3):
        model.boundaries.append((t_s, PlannedTrial(trial, "zero-queue", "RND4K Q1T1 read", 1,
                                                   False, 5.0, True, False)))
        model.series.begin_trial(t_s)
        for _ in range(5):
            t_s += 1.0
            sampled.append(t_s)
            model.series.append(sample_row({"t_s": t_s, "read_MBps": 100.0 + t_s, "read_iops": 1.0,
                                            "read_lat_us": 80.0}))
            charts.redraw()
        t_s -= 0.05   # a held start: the next trial began under this one's last sample
    # past: once per later trial; tail: every redraw; now: not needed (trials of 5 rows)
    assert handed == {"past": 2, "now": 0, "tail": 15}
    assert len(curve.tail.getData()[0]) == 5     # the last trial's samples only
    t, y = curve.dataset()
    assert [(x, v) for x, v in zip(t, y) if v == v] == [(x, 100.0 + x) for x in sampled]
    model.status = RunState.DONE   # the run ended: all of it is past
    charts.redraw()
    for part in (curve.now.getOriginalDataset()[0], curve.tail.getData()[0]):
        assert part is None or len(part) == 0
    assert charts.points("read_tp") == 15


@pytest.mark.parametrize("log", [False, True])
def test_a_long_trials_rows_go_from_the_tail_to_now_and_none_is_lost(charts, log):
    """The tail holds at most TAIL_ROWS rows, then hands them to "now" (which thins a long
    trial to its pixels); on a log axis it holds the logarithms, as "now" works them out."""
    from ui.window.run.planned import PlannedTrial
    from ui.window.run.split_curve import TAIL_ROWS
    model, curve = charts.model, charts.curves["read_lat_us"]
    model.live = True
    charts.log_box.setChecked(log)
    model.boundaries.append((0.0, PlannedTrial(0, "zero-queue", "RND4K Q1T1 read", 1, False,
                                               100.0, True, False)))
    model.series.begin_trial(0.0)
    handed_now = 0
    for i in range(1, 101):
        model.series.append(sample_row({"t_s": float(i), "read_MBps": 1.0, "read_iops": 1.0,
                                        "read_lat_us": 50.0 + i}))
        before = curve.now.getOriginalDataset()[0]
        charts.redraw()
        handed_now += curve.now.getOriginalDataset()[0] is not before
        tail_t, tail_y = curve.tail.getData()
        assert len(tail_t) <= TAIL_ROWS
        if len(tail_t):   # the newest row, as the axis wants it
            assert tail_y[-1] == pytest.approx(math.log10(50.0 + i) if log else 50.0 + i)
    assert handed_now == 100 // TAIL_ROWS
    charts.lat_plot.setDownsampling(ds=2, auto=False, mode="peak")   # the plot's menu does this
    t, y = curve.dataset()
    assert list(t) == [float(i) for i in range(1, 101)]
    assert list(y) == [50.0 + i for i in range(1, 101)]


def test_a_new_run_shows_none_of_the_last_ones_curves(charts):
    """A run, then a new one (or a reopened one) with none of its series yet: no curve still
    shows the last run. The curves hold views of the model's buffers; once the buffer has grown,
    emptying it no longer empties a curve handed a view of the old one."""
    from ui.window.run.planned import PlannedTrial
    from ui.window.run.series import SampleSeries
    model = charts.model
    model.series, model.live = SampleSeries(capacity=16), True
    t_s = 0.0
    for trial in range(2):
        model.boundaries.append((t_s, PlannedTrial(trial, "zero-queue", "RND4K Q1T1 write", 1,
                                                   False, 5.0, False, True)))
        model.series.append(break_row(t_s), real=False)
        for _ in range(4 if trial == 0 else 40):   # the second trial outgrows the buffer
            t_s += 1.0
            model.series.append(sample_row({"t_s": t_s, "write_MBps": 90.0, "write_iops": 1.0,
                                            "write_lat_us": 80.0}))
            charts.redraw()
    assert charts.points("write_tp") == 44
    model.series.clear()
    model.reset.emit()
    assert charts.points("write_tp") == 0 and charts.points("write_lat_us") == 0

"""The window's Results tab follows the one rule for percentiles on too few I/Os
(app/model/percentiles.py): the run folder of tests/fixtures/runs (the real fio, 1 s trials) has
a queue-depth QD1 repetition of 180 I/Os, whose p99 rests on 1 I/O. Its per-repetition p99 and
that trial's own p99 are shown as 'too few I/Os (1)', never as a number, and the findings say
what runtime would make it known."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import math  # noqa: E402

import pytest  # noqa: E402

from app.model.measurement import Measurement  # noqa: E402
from ui.window.run.series import COLUMNS, result_rows  # noqa: E402

import gui_support  # noqa: E402
from conftest import FIXTURES  # noqa: E402

make_window = gui_support.make_window
(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]


def test_the_results_tab_marks_a_percentile_on_too_few_ios(qtbot, make_window):
    window = make_window()
    window.open_run(str(RUN))
    results = window.results
    qtbot.waitUntil(lambda: results.workloads.rowCount() == 16, timeout=30000)
    rows = {(results.workloads.item(r, 0).text(), results.workloads.item(r, 1).text()): r
            for r in range(results.workloads.rowCount())}
    qd1 = rows[("queue-depth", "RND4K Q1T1 read")]
    assert results.workloads.item(qd1, 6).text() == "too few I/Os (1)"     # p99 per repetition
    assert results.workloads.item(qd1, 3).text().startswith("2,140")       # IOPS still a number
    # the trial of 180 I/Os: its own p99 marked; the other repetition's p99 is a number
    trials = results.trials.model()
    p99 = [trials.index(r, 8).data() for r in range(trials.rowCount())
           if trials.index(r, 1).data() == "queue-depth" and trials.index(r, 2).data() == "RND4K Q1T1 read"]
    assert "too few I/Os (1)" in p99 and any(t[:1].isdigit() for t in p99)
    text = results.findings.toPlainText()
    assert "p99 needs about 1,000 I/Os per trial: a runtime of about 5.6 s at this IOPS (180)" in text


@pytest.mark.parametrize(("iops", "drawn"), [(999.0, False), (1_000.0, True)])
def test_a_short_trials_result_on_the_live_chart_draws_its_p99_only_on_enough_ios(iops, drawn):
    m = Measurement.from_json({"read": {"iops": iops, "MBps": 1.0, "runtime_ms": 1000,
                                        "lat_us": {"mean": 50.0, "p99": 400.0}}})
    rows = result_rows(m, 0.0, 0, 1.0, writes=False)
    p99 = [row[COLUMNS.index("read_p99_us")] for row in rows]
    assert all((v == 400.0) if drawn else math.isnan(v) for v in p99)

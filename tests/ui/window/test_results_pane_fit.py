"""The "Results so far" pane at 1280x720 (about 297 x 540 px beside the time series) gives the
figure at least two thirds of its height, every experiment's every figure: the findings under
it had 40 % and a legend of five wrapped lines left the data 25-60 px. A legend taller than a
third of the plot becomes a line over it; no axis title is cut."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from ui.window.report import results_so_far  # noqa: E402
from ui.window.report.results_so_far import ResultsSoFar  # noqa: E402
from ui.window.run.run_model import RunModel  # noqa: E402

from conftest import FIXTURES  # noqa: E402

RUN = FIXTURES / "runs" / "full-lab-20261126" / "run"
EXPERIMENTS = ("zero-queue", "block-size", "rw-mix", "queue-depth", "tail-latency", "slc-cache",
               "steady-state")   # the run's write-saturation and quick check draw no figure


@pytest.fixture(scope="module")
def past():
    from ui.window.run.past_runs import load_past_run
    return load_past_run(str(RUN))


@pytest.mark.parametrize("eid", EXPERIMENTS)
def test_the_figure_has_two_thirds_of_the_pane_and_whole_axis_titles(qtbot, monkeypatch, past, eid):
    monkeypatch.setattr(results_so_far, "MIN_GAP_S", 0.0)
    monkeypatch.setattr(results_so_far, "MAX_GAP_S", 0.0)
    model = RunModel()
    view = ResultsSoFar(model)
    qtbot.addWidget(view)
    view.resize(297, 540)
    view.show()
    model.load_past(past)
    view.show_experiment(eid)
    for index in range(max(1, view.selector.count())):
        view.selector.setCurrentIndex(index)
        qtbot.waitUntil(lambda: view.plot is not None and view.plot.getPlotItem().height() > 0)
        qtbot.wait(400)   # the labels are placed once the resizes settle
        name = view.figure_ids()[index]
        drawn = view.plot._ssd
        legend_line = view.legend_line.height() if view.legend_line.isVisible() else 0
        assert view.plot.height() + legend_line >= view.height() * 2 / 3, name
        if drawn.legend.isVisible():
            assert drawn.legend.boundingRect().height() <= view.plot.height() / 3 + 1, name
        for panel in drawn.panels:
            for where, axis in panel.axes.items():
                if not axis.isVisible() or not axis.labelText:
                    continue
                room = axis.geometry().height() if where in ("left", "right") else axis.geometry().width()
                # the text's own width: its box has Qt's blank document margin on each side
                ink = axis.label.boundingRect().width() - 2 * axis.label.document().documentMargin()
                assert ink <= room + 1, (name, where, axis.labelText)

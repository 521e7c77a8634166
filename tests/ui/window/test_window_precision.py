"""A precision target in the window: the choice sits beside runtime in every experiment's form,
the plan gives the time as a range, and the live trial line shows the workload's ± narrowing.
Fed with the model's events as the worker sends them (no engine needed)."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.experiments import CATALOG  # noqa: E402
from app.experiments.plan import experiments_from_settings, plan_run  # noqa: E402
from jobs.events import PrecisionUpdate, Sample, TrialStarted  # noqa: E402
from jobs.worker import RunPrepared  # noqa: E402
from ui.window.run.run_model import RunModel  # noqa: E402
from ui.window.run.run_progress import RunProgress  # noqa: E402
from ui.window.setup.param_form import ParamForm  # noqa: E402
from ui.window.setup.plan_text import plan_message  # noqa: E402


def test_precision_is_a_choice_beside_runtime(qtbot):
    form = ParamForm(CATALOG["zero-queue"])
    qtbot.addWidget(form)
    names = list(form.editors)
    at = names.index("runtime")
    assert names[at + 1:at + 4] == ["precision", "min_time", "max_time"]
    assert form.editors["precision"].count() >= 3  # off, and the targets


def test_the_plan_shows_the_time_range():
    exps = experiments_from_settings(["zero-queue"], {"precision": "2%"})
    # 4 warm-ups of 5 s; 2 repetitions of 1 s ramp + 5 s .. 3 of 1 s + 30 s per workload
    assert "between 1:08 and 6:32" in plan_message(["zero-queue"], exps, plan_run(exps, seed=1))


def test_a_precision_chosen_in_a_form_that_keeps_its_own_rule_is_named():
    """steady-state's and slc-cache's forms offer the choice too; ±2 % chosen there did nothing
    and the plan said nothing."""
    ids = ["zero-queue", "steady-state", "slc-cache"]
    exps = experiments_from_settings(ids, {"zero-queue.precision": "2%",
                                           "steady-state.precision": "2%",
                                           "slc-cache.precision": "1%"})
    text = plan_message(ids, exps, plan_run(exps, seed=1))
    assert "steady-state and slc-cache are not measured to a precision target" in text
    alone = experiments_from_settings(["zero-queue"], {"precision": "2%"})
    assert "not measured" not in plan_message(["zero-queue"], alone, plan_run(alone, seed=1))


def test_the_live_line_shows_the_workloads_achieved_precision(qtbot):
    exps = experiments_from_settings(["zero-queue"], {"precision": "2%", "warmup": "false"})
    plan = plan_run(exps, seed=1)
    model = RunModel()
    model.apply(RunPrepared("/tmp/run", plan, "fio-3.33"))
    progress = RunProgress(model)
    qtbot.addWidget(progress)
    first = plan.trials[0]
    model.apply(TrialStarted(first.index, first.experiment, first.workload.label, 1, False,
                             ("fio",), 0.0, first.runtime_s))
    for achieved in (None, 0.051, 0.018):
        model.apply(PrecisionUpdate(first.index, achieved, 0.02))
        progress.refresh()
        shown = progress.trial_label.toolTip() + progress.trial_label.text()
        assert ("± known once a second repetition" if achieved is None else f"±{achieved * 100:.1f} %") in shown
    assert "target ±2 %" in progress.trial_label.toolTip()


def test_live_events_that_travelled_together_are_applied_in_order_and_announced_once(qtbot):
    """jobs/worker.py sends samples less than 0.9 s apart together (LiveBatch): the
    model takes each, the precision after its sample, and the views redraw once."""
    exps = experiments_from_settings(["zero-queue"], {"precision": "2%", "warmup": "false"})
    plan = plan_run(exps, seed=1)
    model = RunModel()
    model.apply(RunPrepared("/tmp/run", plan, "fio-3.33"))
    first = plan.trials[0]
    model.apply(TrialStarted(first.index, first.experiment, first.workload.label, 1, False,
                             ("fio",), 0.0, first.runtime_s))
    heard = []
    model.samples_added.connect(lambda: heard.append(model.series.samples))
    def sample(t):
        return Sample(trial=first.index, t_s=t, read_MBps=1.0, read_iops=250.0, read_lat_us=90.0,
                      write_MBps=0.0, write_iops=0.0, write_lat_us=None)
    model.apply_live((sample(0.1), PrecisionUpdate(first.index, 0.051, 0.02), sample(0.2),
                      PrecisionUpdate(first.index, 0.018, 0.02)))
    assert heard == [2]
    assert list(model.precision.values()) == ["±1.8 % (target ±2 %)"]

"""While a run goes on, tail-latency's depths taken from the measured knee (jobs/run/follow.py)
reach the window's live model: the planned trials' labels and the experiment's parameters and
``followed`` sentence, so "Results so far" says where the depths came from. Fed with the events
of a real course run (tests/fixtures), no engine needed."""
import json
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.experiments import CATALOG  # noqa: E402
from app.model.experiment_entry import ExperimentEntry  # noqa: E402
from app.model.info import PlannedEntry  # noqa: E402
from app.model.trial import TrialResult  # noqa: E402
from jobs.events import PlanFollowed, TrialFinished, TrialStarted  # noqa: E402
from ui.window.run.planned import planned_from_entry  # noqa: E402
from ui.window.run.run_model import RunModel  # noqa: E402
from ui.window.run.run_state import RunState

RUN = next((Path(__file__).parents[2] / "fixtures" / "runs").glob("*_zero-queue+*")) / "run.json"
NOTE = "Depths from the queue-depth sweep of this run (...): the knee, QD16, and saturation ..."


def test_the_live_model_follows_the_plan_change(qtbot):
    record = json.loads(RUN.read_text())
    model = RunModel()
    model.experiments = [ExperimentEntry.of(x) for x in record["experiments"]]
    model.planned = {t.index: t for t in (planned_from_entry(PlannedEntry.from_json(t, "planned_trials[]"))
                                       for t in record["planned_trials"])}
    model.status, model.live, model.run_dir = RunState.RUNNING, True, "/tmp/run"
    tail = [t for t in record["trials"] if t["experiment"] == "tail-latency"]
    labels = {t["index"]: t["label"].replace("Q8T1", "Q16T1").replace("Q32T1", "Q64T1")
              for t in tail}
    entry = {"params": {**next(x["params"] for x in record["experiments"]
                               if x["id"] == "tail-latency"), "queue_depths": [16, 64]},
             "followed": NOTE}
    model.apply(PlanFollowed("tail-latency", entry, labels))
    assert {model.planned[i].label for i in labels} == {"RND4K Q16T1 read", "RND4K Q64T1 read"}
    for trial in tail:
        model.apply(TrialStarted(trial["index"], trial["experiment"], trial["label"],
                                 trial["repetition"], trial["warmup"], ("fio",), 0.0, 1.0))
        model.apply(TrialFinished(trial["index"], trial["label"], TrialResult.from_json(trial)))
    part = model.results.part("tail-latency")
    assert part.entry.followed == NOTE
    assert NOTE in CATALOG["tail-latency"].sentences(part, model.results)

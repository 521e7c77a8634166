"""The window rebuilds a run's results at each trial's end from the results before it
(app/results/build.py ``earlier``): what it keeps must be exactly what a build from nothing
gives, at every trial of a real full-lab run, and an experiment with no new trial is kept whole."""
import json
from pathlib import Path

from app.model.run import Run
from app.results.build import build_results
from app.store.samples import read_sample_table

RUN = Path(__file__).resolve().parents[1] / "fixtures" / "runs" / "full-lab-20261126" / "run"


def test_results_built_trial_by_trial_from_the_earlier_ones_equal_those_built_anew():
    record = json.loads((RUN / "run.json").read_text())
    samples = read_sample_table(RUN).samples()
    trials = record["trials"]
    earlier, kept_parts, kept_rows = None, 0, 0
    for ended in range(1, len(trials) + 1):
        run = Run.from_json({**record, "status": "running", "trials": trials[:ended]})
        now = build_results(run, samples, earlier=earlier)
        anew = build_results(run, samples)
        assert now.summary_json() == anew.summary_json(), f"after trial {ended}"
        if earlier is not None:
            before = {p.id: p for p in earlier.parts}
            kept_parts += sum(p is before[p.id] for p in now.parts)
            kept_rows += sum(row is old for p in now.parts if p is not before[p.id]
                             for row, old in zip(p.workloads, before[p.id].workloads))
        earlier = now
    assert kept_parts > 6 * (len(trials) - 1)   # 9 experiments, one of them changed per trial
    assert kept_rows > 0

"""What the window's results cost at a trial's end, late in a run. Prints figures.

At each trial's end the window rebuilds the run's results (tables, "Results so far"), and it
used to summarise every experiment and workload again: the cost grew with the run. Now it keeps
what did not change (app/results/build.py ``earlier``). The run is the full-lab fixture (every
experiment, 90 trials, tests/fixtures/runs/full-lab-20261126); for each of its last ``--last``
trials, the median over ``--rounds`` of a build from nothing and of one from the results before
that trial ended.

Run: ``.venv/bin/python benchmarks/live_results.py [--last 10] [--rounds 20]``
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.model.run import Run  # noqa: E402
from app.results.build import build_results  # noqa: E402
from app.store.samples import read_sample_table  # noqa: E402

RUN = REPO / "tests" / "fixtures" / "runs" / "full-lab-20261126" / "run"


def _median_ms(run: Run, samples, rounds: int, earlier=None) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        build_results(run, samples, earlier=earlier)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--last", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    record = json.loads((RUN / "run.json").read_text())
    samples = read_sample_table(RUN).samples()
    trials = record["trials"]
    anew, kept = [], []
    for ended in range(len(trials) - args.last + 1, len(trials) + 1):
        run, before = (Run.from_json({**record, "status": "running", "trials": trials[:n]})
                       for n in (ended, ended - 1))
        earlier = build_results(before, samples)
        anew.append(_median_ms(run, samples, args.rounds))
        kept.append(_median_ms(run, samples, args.rounds, earlier))
    print(f"Results at a trial's end, trials {len(trials) - args.last + 1}-{len(trials)} of the "
          f"full-lab run ({len(trials)} trials, {len(record['experiments'])} experiments): "
          f"built anew median {statistics.median(anew):.1f} ms (range {min(anew):.1f}-"
          f"{max(anew):.1f}); from the results before it {statistics.median(kept):.1f} ms "
          f"({min(kept):.1f}-{max(kept):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What keeping run.json current costs per trial, at trial 100 and at trial 10,000. Prints figures.

The runner keeps each trial in the run folder as it ends (``RunStore.add_trial``). It used to
rewrite all of run.json after every trial: serialising every trial again and writing and
fsyncing the whole file, so the cost per trial grew with the trials kept (a 10,000-trial
run.json is 45-60 MiB: about 220 GB written over such a run). Now each trial's line is made once
and the file is written at most every few seconds and 2 MB/s on average (app/store/run_folder.py).

For each size, a run folder holds that many trials (the committed real run's records, repeated),
then ``--trials`` more are added with a clock that moves 1 s per trial (a trial of 1 s), and the
real time each addition took is measured: the mean per trial, the most one took, and the bytes of
run.json written per trial. "before" is the old way, measured on the same folder: every trial
serialised and written whole (one save each, its median).

Run: ``.venv/bin/python benchmarks/run_json_saves.py [--trials 200]``.
"""
from __future__ import annotations

import argparse
import copy
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.model.trial import TrialResult
from app.store.run_folder import RunStore, write_json_atomic  # noqa: E402

RUN = REPO / "tests" / "fixtures" / "runs" / "full-lab-20261126" / "run" / "run.json"


class TrialClock:
    """The real clock plus 1 s per trial added: the store sees trials of 1 s go by."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset


def one_size(work: Path, kept: int, added: int) -> tuple[float, float, float, float]:
    """(before: s per trial, now: mean s per trial, now: the most one trial took, MB written
    per trial) with ``kept`` trials in run.json already."""
    record = json.loads(RUN.read_text())
    trials = record.pop("trials")
    for key in ("summary", "status"):
        record.pop(key, None)
    clock = TrialClock()
    store = RunStore.create(work, ["sizes"], record, clock)
    store.record["trials"] = [_trial(trials, i) for i in range(kept)]
    before = []
    for _ in range(3):
        start = time.perf_counter()
        write_json_atomic(store.dir / "run.json", store.record)
        before.append(time.perf_counter() - start)
    store.save()   # as the run has gone so far: every kept trial's line made once
    costs, written = [], 0
    for i in range(kept, kept + added):
        clock.offset += 1.0
        mark = store._written_at
        start = time.perf_counter()
        store.add_trial(TrialResult.from_json(_trial(trials, i)))
        costs.append(time.perf_counter() - start)
        written += store._size if store._written_at != mark else 0
    shutil.rmtree(store.dir)
    return statistics.median(before), statistics.fmean(costs), max(costs), written / added / 1e6


def _trial(trials: list[dict], i: int) -> dict:
    t = copy.deepcopy(trials[i % len(trials)])
    t["index"] = i
    return t


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200, help="trials added at each size")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ssd-run-json-"))
    try:
        for kept in (100, 10_000):
            before, mean, most, mb = one_size(work, kept, args.trials)
            print(f"run.json with {kept:,} trials: before {before * 1000:.0f} ms per trial "
                  f"(all serialised and written); now {mean * 1000:.1f} ms per trial on average "
                  f"(most {most * 1000:.0f} ms, {mb:.2f} MB of run.json written per trial, "
                  f"n={args.trials} trials of 1 s)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Reopening a run (ui/window/run/past_runs.py): samples.csv parsed in numpy's C reader gives
the very chart block the row-by-row reader gives (directions a trial does not run blanked, a
break row at each trial boundary), and a file cut short mid-line still opens."""
from __future__ import annotations

import shutil

import numpy as np

from app.store.run_folder import load_run
from ui.window.run import past_runs

from conftest import FIXTURES

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name != "expected-tables"]


def _row_by_row(run_dir):
    record = load_run(run_dir)
    trials = {t["index"]: t for t in record.get("planned_trials") or []}
    trials.update({t["index"]: t for t in record.get("trials") or []})
    return past_runs._load_rows(record, trials, run_dir)


def _same(a, b) -> bool:
    return (a.block.shape == b.block.shape and np.array_equal(a.block, b.block, equal_nan=True)
            and a.samples == b.samples and a.boundaries == b.boundaries)


def test_the_fast_reader_gives_the_row_by_row_readers_block():
    past = past_runs.load_past_run(RUN)
    assert past.samples > 100 and np.isnan(past.block[1:]).any()  # blanked directions, breaks
    assert _same(past, _row_by_row(RUN))


def test_a_samples_file_cut_short_mid_line_still_opens(tmp_path):
    run_dir = shutil.copytree(RUN, tmp_path / RUN.name)
    samples = run_dir / "samples.csv"
    samples.write_bytes(samples.read_bytes()[:-7])  # the app was killed while writing a row
    past = past_runs.load_past_run(run_dir)
    assert _same(past, _row_by_row(run_dir)) and past.samples > 100

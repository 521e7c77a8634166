"""Reopening a run (ui/window/run/past_runs.py): samples.csv parsed by numpy's C reader
(app/store/samples.py) gives the table the row-by-row reader gives, and a file cut short
mid-line still opens, without its last row."""
from __future__ import annotations

import shutil

import numpy as np

from app.store import samples as samples_store
from app.store.samples import read_sample_table
from ui.window.run import past_runs

from conftest import FIXTURES

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]


def test_the_fast_reader_gives_the_row_by_row_readers_table():
    past = past_runs.load_past_run(RUN)
    assert past.samples > 100 and np.isnan(past.block[1:]).any()  # blanked directions, breaks
    table = read_sample_table(RUN)
    body = (RUN / "samples.csv").read_text().split("\n", 1)[1]
    assert np.array_equal(table.values, samples_store._forgiving(body, table.names, RUN), equal_nan=True)
    assert past.samples == len(table)


def test_a_samples_file_cut_short_mid_line_still_opens(tmp_path):
    run_dir = shutil.copytree(RUN, tmp_path / RUN.name)
    whole = past_runs.load_past_run(run_dir)
    samples = run_dir / "samples.csv"
    samples.write_bytes(samples.read_bytes()[:-7])  # the app was killed while writing a row
    past = past_runs.load_past_run(run_dir)
    assert past.samples == whole.samples - 1 and past.boundaries == whole.boundaries

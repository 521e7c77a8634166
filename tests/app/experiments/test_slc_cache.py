"""slc-cache's findings from the run's samples: data written from each interval's own duration
(the engine's clock, not the report's late stamp), the cliff located inside its interval, and
the sentence, table and figure stating where it is and to what resolution."""
from __future__ import annotations

import itertools

import pytest

from app.experiments.slc_cache import SlcCache
from app.experiments.write_series import durations, trial_series
from app.model.experiment_entry import ExperimentEntry
from app.model.interval import Sample
from app.model.run import Run
from app.model.summary import Stat, WorkloadSummary
from app.model.trial import TrialResult
from app.results.run_results import ExperimentResults, RunResults

TRIAL = TrialResult.from_json({"index": 0, "experiment": "slc-cache", "repetition": 1, "status": "done",
                               "workload": {"rw": "write", "bs_bytes": 1048576, "iodepth": 32}})
# fio's intervals as an slc-cache run on this machine gave them: the first one short (fio's
# report timer starts before the job), the stamps late by up to 0.2 s on a busy host while the
# intervals themselves are 1 s of fio's clock; 100 MB/s until 0.4 GB, then 20 MB/s
LENGTHS = [0.77, 1.003, 1.0, 1.003, 1.0, 1.0, 0.999, 1.0, 1.0, 1.001, 0.999]
LATE = [0.0, 0.0, 0.0, 0.2, 0.0, 0.05, 0.0, 0.0, 0.0, 0.0, 0.0]
RATES = [100.0, 100.0, 100.0, 100.0, (0.23 * 100 + 0.77 * 20), 20.0, 20.0, 20.0, 20.0, 20.0, 20.0]


def _samples(with_durations: bool = True) -> tuple[Sample, ...]:
    ends = list(itertools.accumulate(LENGTHS))
    return tuple(Sample(trial=0, t_s=10.0 + end + late, read_MBps=0.0, read_iops=0.0, read_lat_us=None,
                        write_MBps=rate, write_iops=rate / 1.048576, write_lat_us=None,
                        duration_s=length if with_durations else None)
                 for end, late, rate, length in zip(ends, LATE, RATES, LENGTHS))


def test_data_written_adds_each_interval_over_its_own_duration():
    pts = trial_series(_samples(), 0)
    assert [p[0] for p in pts] == pytest.approx(list(itertools.accumulate(LENGTHS)))
    assert pts[-1][1] == pytest.approx(sum(r * d for r, d in zip(RATES, LENGTHS)) / 1000)
    # without durations (older run folders) the stamps' gaps stand in, the first as the second
    old = _samples(with_durations=False)
    assert durations(list(old))[:2] == pytest.approx([1.003, 1.003])


def test_the_cliff_is_located_inside_its_interval_with_its_resolution():
    (t,) = SlcCache.findings((), (TRIAL,), _samples()).per_trial
    f = t.found
    start = sum(LENGTHS[:4])                                # the interval 3.776-4.776 s
    assert f.drop_observed and f.transitional_intervals == 1
    assert f.t_drop_s == pytest.approx(start + 0.23)
    assert f.gb_before_drop == pytest.approx((start + 0.23) * 0.1)   # 0.401 GB
    assert f.MBps_before == pytest.approx(100.0) and f.MBps_after == pytest.approx(20.0)
    assert f.gb_resolution == pytest.approx(100 * 0.05 / 1000)
    # the stamps alone put it 0.039 GB (10 %) late: the short first interval counted as a full
    # one (0.023 GB) and the late stamp as 0.2 s more at 100 MB/s
    (old,) = SlcCache.findings((), (TRIAL,), _samples(with_durations=False)).per_trial
    assert old.found.gb_before_drop - f.gb_before_drop == pytest.approx(0.0387, abs=1e-3)


def test_sentence_table_and_figure_state_the_resolution():
    samples = _samples()
    found = SlcCache.findings((), (TRIAL,), samples)
    row = WorkloadSummary("k", "SEQ1M Q32T1 write", dict(TRIAL.workload), 1, Stat(None, None, 0),
                          Stat(None, None, 0), None, None)
    part = ExperimentResults("slc-cache", ExperimentEntry(id="slc-cache"), (row,), (TRIAL,), found)
    run = RunResults(Run.from_json({"status": "done"}), (part,), samples)
    (sentence,) = SlcCache.sentences(part, run)
    assert sentence.startswith("The write speed dropped (the SLC cache ran out) in 1 of 1 "
                               "repetitions, after 0.401 GB (n = 1) written, 4.01 s (n = 1) into")
    # the resolution to the marker's digits (it said ± 0.01 GB, rounding 0.005 away)
    assert sentence.endswith("located within its sample interval from that interval's mean and "
                             "its neighbours' rates, to ± 0.005 GB (± 0.05 s) at worst (as the "
                             "figure's marker says it); the intervals it spread over count in "
                             "neither rate.")
    table = SlcCache.tables(part, run)[1]
    cols = [c.key for c in table.columns]
    row0 = dict(zip(cols, table.rows[0]))
    assert row0["gb_resolution"] == pytest.approx(0.005) and row0["transitional_intervals"] == 1
    gb_fig = next(f for f in SlcCache.figures(part, run) if f.id == "slc-cache-gb")
    (marker,) = gb_fig.markers
    assert marker.x == pytest.approx(0.4006, abs=1e-4)
    assert marker.text == "cache exhausted at 0.401 ± 0.005 GB"

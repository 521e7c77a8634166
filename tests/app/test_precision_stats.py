"""The precision statistics (app/stats/precision.py) on known series: batch means must not be
fooled by autocorrelation, repetitions that disagree must widen the interval."""
import math
import random

from app.stats.precision import (
    MeanInterval,
    batch_means,
    combined,
    naive_interval,
    series_interval,
    t975,
    within,
)


def test_t_quantiles_match_the_table_and_approach_z():
    assert t975(1) == 12.706 and t975(10) == 2.228
    assert abs(t975(60) - 2.000) < 0.002 and abs(t975(1e6) - 1.96) < 0.001
    assert math.isinf(t975(0))


def test_a_steady_series_is_known_at_once():
    got = series_interval([1000.0, 1001.0, 999.0, 1000.0, 1000.5, 999.5, 1000.0, 1000.0])
    assert got is not None and got.relative < 0.002


def test_too_few_samples_give_no_interval():
    assert series_interval([1000.0, 1000.0, 1000.0]) is None


def test_an_autocorrelated_series_is_not_stopped_by_a_naive_interval():
    """Blocks of 8 intervals at ±4 % (a drive's GC bursts): the textbook interval over the raw
    samples claims ±2 %, batch means do not."""
    series = [1000.0 * (1.04 if (i // 8) % 2 else 0.96) + (i % 3) for i in range(40)]
    assert within(naive_interval(series), 0.02)
    assert not within(series_interval(series), 0.02)


def test_an_ar1_series_widens_its_batches():
    rng = random.Random(7)
    x, series = 0.0, []
    for _ in range(400):
        x = 0.9 * x + rng.gauss(0, 10)
        series.append(1000 + x)
    means = batch_means(series)
    assert means is not None and len(means) < 400  # the batches grew


def test_repetitions_that_disagree_widen_the_interval():
    a, b = MeanInterval(1000.0, 5.0, 20), MeanInterval(1040.0, 5.0, 20)
    got = combined([a, b])
    assert got is not None and got.dof == 1 and got.relative > 0.1  # t(1) over two means
    same = combined([a, MeanInterval(1000.5, 5.0, 20)])
    assert same is not None and same.relative < 0.01


def test_fio_means_replace_the_live_ones():
    got = combined([MeanInterval(990.0, 5.0, 20), MeanInterval(1010.0, 5.0, 20)], [1000.0, 1000.0])
    assert got is not None and got.mean == 1000.0 and got.relative < 0.01
    assert combined([None, MeanInterval(1.0, 0.1, 5)]) is None


def test_a_sliced_series_is_batched_not_left_too_wide():
    """A throttle's time slices against the sample clock: a slice that lands in one interval is
    missing from the next (lag-1 near -1). The mean is known far better than the spread says:
    pairs are batched; with too few samples to batch, the wider interval stays."""
    sliced = [120.0 + (12.0 if i % 2 else -12.0) for i in range(20)]
    assert not within(naive_interval(sliced), 0.02)
    assert within(series_interval(sliced), 0.02)
    few = series_interval(sliced[:6])  # pairs would leave 3 batches: kept as they are
    assert few is not None and few.relative > 0.05

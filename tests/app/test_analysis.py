"""Hand-checked numbers for app.stats.analysis (knee, Little's Law, crossover, cache, tails)."""
import json
import math
import subprocess
import sys

import pytest

from app.stats import analysis as an

from conftest import REPO as _REPO  # noqa: E402

# --- summarize / relative_spread -----------------------------------------------------------


def test_summarize_sample_std():
    s = an.summarize([1, 2, 3, 4])
    assert s["n"] == 4 and s["mean"] == 2.5
    # sum of squared deviations = 2.25 + 0.25 + 0.25 + 2.25 = 5; 5 / (4 - 1) = 5/3
    assert s["std"] == pytest.approx(math.sqrt(5 / 3)) == pytest.approx(1.2909944)


def test_summarize_ignores_none_and_small_n():
    s = an.summarize([None, 3.0, None, 5.0])
    assert s == {"mean": 4.0, "std": pytest.approx(math.sqrt(2)), "n": 2}
    assert an.summarize([7.0, None]) == {"mean": 7.0, "std": None, "n": 1}
    assert an.summarize([]) == {"mean": None, "std": None, "n": 0}
    assert an.summarize([None, float("nan")]) == {"mean": None, "std": None, "n": 0}


def test_relative_spread():
    assert an.relative_spread({"mean": 200.0, "std": 10.0, "n": 3}) == pytest.approx(0.05)
    assert an.relative_spread(an.summarize([5.0])) is None
    assert an.relative_spread({"mean": 0.0, "std": 1.0}) is None
    assert an.relative_spread(an.summarize([])) is None


# --- queue depth: knee and Little's Law -----------------------------------------------------

# level, IOPS, mean latency (µs); IOPS gained by each doubling:
#  1 -> 2: +100 %   2 -> 4: +90 %   4 -> 8: +68 %   8 -> 16: +25 %   16 -> 32: +5 % (< 10 %)
# so the knee is QD16 (80000 IOPS at 200 µs; power 400 IOPS/µs), where the eye sees the curve
# flatten; the maximum of IOPS / latency (QD8, 512) is not it.
# peak IOPS 85000, first at level 64; 90 % of it = 76500, first reached at level 16 (80000).
QD_SWEEP = [(1, 10000, 100), (2, 20000, 100), (4, 38000, 105), (8, 64000, 125),
            (16, 80000, 200), (32, 84000, 380), (64, 85000, 750), (128, 85000, 1500),
            (256, 84000, 3050)]


def _j(found):
    """A finding (or a list of them) as run.json stores it."""
    if isinstance(found, list):
        return [f.to_json() for f in found]
    return None if found is None else found.to_json()


def _qd_points(rows):
    return [{"level": lv, "iops": float(i), "lat_us": float(lat)} for lv, i, lat in rows]


def test_knee_of_synthetic_sweep():
    k = _j(an.knee(_qd_points(QD_SWEEP)))
    assert k == {"knee_level": 16, "knee_iops": 80000.0, "knee_lat_us": 200.0, "power": 400.0,
                 "peak_iops": 85000.0, "peak_level": 64, "p90_level": 16, "p90_iops": 80000.0,
                 "rule": "the knee is the smallest queue depth from which every further "
                         "doubling of the outstanding I/O adds less than 10 % more IOPS",
                 "reached": True,
                 "peak_lat_us": 750.0, "p90_lat_us": 200.0}
    json.dumps(k, allow_nan=False)


def test_knee_unsorted_and_skips_bad_latency():
    pts = _qd_points(reversed(QD_SWEEP))
    pts.append({"level": 512, "iops": 99999.0, "lat_us": 0.0})  # zero latency: skipped
    pts.append({"level": 3, "iops": 99999.0, "lat_us": None})  # missing latency: skipped
    k = _j(an.knee(pts))
    assert (k["knee_level"], k["peak_level"], k["p90_level"]) == (16, 64, 16)
    assert k["peak_iops"] == 85000.0


@pytest.mark.parametrize(("sweep", "knee", "reached"), [
    # the student's case: power peaks at QD4 and 90 % of the peak waits until QD128, while the
    # curve flattens at QD16-32: the one knee is where a doubling stops buying 10 %
    ([(1, 13e3, 75), (2, 25e3, 78), (4, 47e3, 83), (8, 80e3, 99), (16, 110e3, 145),
      (32, 125e3, 255), (64, 132e3, 485), (128, 140e3, 915), (256, 150e3, 1700)], 32, True),
    # uneven steps read per doubling: 1 -> 4 is +60 % per doubling, 4 -> 16 +4 %
    ([(1, 10e3, 100), (4, 25.6e3, 156), (16, 27.7e3, 577)], 4, True),
    # a noisy flat step (QD8 -> QD16, +7 %) before a climb is not the knee: every later
    # doubling must add under 10 % (a real virtual-disk run)
    ([(1, 17e3, 59), (2, 30e3, 66), (4, 30e3, 133), (8, 30064, 266), (16, 32239, 494),
      (32, 54567, 588), (64, 62188, 1097), (128, 51914, 2718)], 64, True),
    # still climbing at the deepest level: no knee inside the sweep, said so
    ([(1, 10e3, 100), (2, 19e3, 105), (4, 36e3, 111)], 4, False),
    ([(8, 5e3, 1600)], 8, True),
])
def test_the_knee_rule_on_known_series(sweep, knee, reached):
    k = an.knee(_qd_points(sweep))
    assert (k.knee_level, k.reached) == (knee, reached)
    assert k.rule.startswith("the knee is the smallest queue depth from which every further")


def test_knee_empty():
    assert _j(an.knee([])) is None
    assert _j(an.knee([{"level": 1, "iops": 5.0, "lat_us": 0}])) is None


def test_littles_law_full_queue():
    # IOPS = level x 1e6 / lat exactly, so L = level and ratio = 1
    pts = [{"level": 1, "iops": 10000.0, "lat_us": 100.0},
           {"level": 8, "iops": 64000.0, "lat_us": 125.0},
           {"level": 32, "iops": 80000.0, "lat_us": 400.0}]
    rows = _j(an.littles_law(pts))
    assert [r["L"] for r in rows] == [pytest.approx(1.0), pytest.approx(8.0), pytest.approx(32.0)]
    assert all(r["ratio"] == pytest.approx(1.0) for r in rows)
    assert [r["outstanding"] for r in rows] == [1, 8, 32]


def test_littles_law_with_host_overhead_and_explicit_outstanding():
    rows = _j(an.littles_law([
        {"level": 32, "iops": 80000.0, "lat_us": 200.0},  # L = 16 of 32 asked: ratio 0.5
        {"level": 4, "outstanding": 16, "iops": 40000.0, "lat_us": 300.0},  # L = 12 / 16
        {"level": 2, "iops": None, "lat_us": 100.0},
    ]))
    assert rows[0]["L"] == pytest.approx(16.0) and rows[0]["ratio"] == pytest.approx(0.5)
    assert rows[1]["outstanding"] == 16 and rows[1]["L"] == pytest.approx(12.0)
    assert rows[1]["ratio"] == pytest.approx(0.75)
    assert rows[2]["L"] is None and rows[2]["ratio"] is None
    json.dumps(rows, allow_nan=False)


# --- block size crossover -------------------------------------------------------------------

def _bs_points(rows):  # MB/s consistent with IOPS: IOPS x size / 1e6
    return [{"bs_bytes": bs, "iops": float(i), "MBps": i * bs / 1e6} for bs, i in rows]


def test_crossover_exactly_at_a_measured_size():
    # normalised IOPS 1, 1, .8, .5, .25, .125; MB/s 409.6 .. 1638.4 -> .25, .5, .8, 1, 1, 1
    pts = _bs_points([(4096, 100000), (8192, 100000), (16384, 80000), (32768, 50000),
                      (65536, 25000), (131072, 12500)])
    c = _j(an.crossover(pts))
    assert c["crossover_bs_bytes"] == 16384.0
    assert c["below_bs_bytes"] == c["above_bs_bytes"] == 16384
    assert c["peak_iops"] == 100000.0 and c["peak_MBps"] == pytest.approx(1638.4)
    assert c["bw_saturation_bs_bytes"] == 32768  # 90 % of 1638.4 = 1474.56
    assert c["note"] is None
    json.dumps(c, allow_nan=False)


def test_crossover_interpolated_in_log2_size():
    # peak MB/s 1966.08 (60000 x 32 KiB). Normalised IOPS .9 / .6 and MB/s .75 / 1 at 16 / 32 KiB:
    # d = +0.15 then -0.4 -> fraction 0.15 / 0.55 = 3/11 of the way from log2 14 to log2 15.
    pts = _bs_points([(65536, 30000), (4096, 100000), (16384, 90000), (8192, 100000),
                      (32768, 60000)])  # unsorted on purpose
    c = _j(an.crossover(pts))
    assert c["below_bs_bytes"] == 16384 and c["above_bs_bytes"] == 32768
    assert c["crossover_bs_bytes"] == pytest.approx(16384 * 2 ** (3 / 11))  # ~19794 bytes
    assert c["bw_saturation_bs_bytes"] == 32768  # 1474.56 < 0.9 x 1966.08 = 1769.47


def test_crossover_never_crosses_iops_limited():
    c = _j(an.crossover(_bs_points([(4096, 100000), (8192, 100000), (16384, 100000)])))
    assert c["crossover_bs_bytes"] is None and c["below_bs_bytes"] is None
    assert "above the largest block size measured" in c["note"]
    assert c["bw_saturation_bs_bytes"] == 16384


def test_crossover_never_crosses_bandwidth_limited():
    # flat 3000 MB/s from 128 KiB upward: already bandwidth-bound at the smallest size
    pts = [{"bs_bytes": bs, "iops": 3e9 / bs, "MBps": 3000.0} for bs in (131072, 262144, 524288)]
    c = _j(an.crossover(pts))
    assert c["crossover_bs_bytes"] is None
    assert "below the smallest block size measured" in c["note"]
    assert c["bw_saturation_bs_bytes"] == 131072


def test_crossover_degenerate():
    assert _j(an.crossover([])) is None
    c = _j(an.crossover(_bs_points([(4096, 1000)])))
    assert c["crossover_bs_bytes"] is None and c["note"]


# --- cache exhaustion -----------------------------------------------------------------------

def test_cache_clean_step_at_60s():
    samples = [(float(t), 7500.0 if t <= 60 else 2500.0) for t in range(1, 241)]
    r = _j(an.cache_exhaustion(samples))
    assert r["drop_observed"] is True
    assert r["t_drop_s"] == 60.0
    assert r["gb_before_drop"] == pytest.approx(450.0)  # 7500 MB/s x 60 s
    assert r["MBps_before"] == pytest.approx(7500.0)
    assert r["MBps_after"] == pytest.approx(2500.0)
    assert r["baseline_MBps"] == 7500.0
    assert r["total_gb"] == pytest.approx(450.0 + 2.5 * 180)
    json.dumps(r, allow_nan=False)


def test_cache_ramp_up_noise_and_half_second_samples():
    # 0.5 s samples; ramp-up first sample; single dips before and after the drop at 30 s
    samples = []
    for k in range(1, 201):
        t = k * 0.5
        samples.append((t, 7500.0 if t <= 30 else 2500.0))
    samples[0] = (0.5, 1200.0)
    samples[20] = (10.5, 900.0)
    samples[120] = (60.5, 6000.0)
    r = _j(an.cache_exhaustion(samples))
    assert r["drop_observed"] and r["t_drop_s"] == 30.0
    # 59 samples of 0.5 s at 7500 plus the 1200 ramp and the 900 dip, in GB
    assert r["gb_before_drop"] == pytest.approx((58 * 7500 + 1200 + 900) * 0.5 / 1000)
    assert r["baseline_MBps"] == 7500.0


def test_cache_gradual_decline():
    # 7500 until t=30, -250 MB/s per second to 2500 at t=50, then flat; threshold 0.7 x 7500 = 5250
    # is first crossed in the interval 39-40 s, but a decline has no one point: it is placed as
    # the one step from 7500 to 2500 writing the same bytes. The intervals ending at 31 (7250)
    # and 49 (2750) are within 5 % of the drop (250 MB/s) of a level, so the step spreads over
    # the 17 intervals from 31 to 48 s, at 7500 for sum(1 - j/20, j = 2..18) = 8.5 s of them.
    samples = [(float(t), 7500.0 if t <= 30 else max(2500.0, 7500.0 - 250 * (t - 30)))
               for t in range(1, 241)]
    r = _j(an.cache_exhaustion(samples))
    assert r["t_drop_s"] == pytest.approx(39.5)
    assert r["gb_before_drop"] == pytest.approx((30 * 7500 + 7250 + 8.5 * 7500) / 1000)  # 296.0
    assert r["transitional_intervals"] == 17
    assert r["MBps_after"] == pytest.approx((2750 + 191 * 2500) / 192)  # from 48 s on


def test_cache_flat_with_single_sample_dips_is_no_drop():
    samples = [(float(t), 3000.0) for t in range(1, 121)]
    samples[0] = (1.0, 800.0)  # ramp-up
    for i in (20, 50, 51, 90, 119):  # isolated dips, one pair, one at the very end
        samples[i] = (samples[i][0], 400.0)
    r = _j(an.cache_exhaustion(samples))
    assert r["drop_observed"] is False
    assert r["note"] == "no drop observed"
    assert r["t_drop_s"] is None and r["gb_before_drop"] is None and r["MBps_after"] is None
    assert r["MBps_before"] == pytest.approx((114 * 3000 + 800 + 5 * 400) / 120)  # 2873.33
    assert r["baseline_MBps"] == 3000.0


def test_cache_short_dip_needs_min_duration():
    samples = [(float(t), 400.0 if 100 <= t <= 102 else 3000.0) for t in range(1, 241)]
    assert _j(an.cache_exhaustion(samples))["drop_observed"] is False  # 3 s < 12 s (5 % of 240)
    r = _j(an.cache_exhaustion(samples, min_duration_s=3))
    assert r["drop_observed"] and r["t_drop_s"] == 99.0


def test_cache_absolute_timestamps_use_median_interval():
    samples = [(1000.0 + t, 7500.0 if t <= 20 else 2500.0) for t in range(1, 101)]
    r = _j(an.cache_exhaustion(samples))
    assert r["t_drop_s"] == 1020.0
    assert r["gb_before_drop"] == pytest.approx(150.0)  # 20 one-second intervals at 7500


def test_cache_too_few_samples():
    five = [(1.0, 7500.0), (2.0, 7500.0), (3.0, 2500.0), (4.0, 2500.0), (5.0, 2500.0)]
    r = _j(an.cache_exhaustion(five))
    assert r["drop_observed"] is False and r["note"] == "too few samples to judge"
    assert r["t_drop_s"] is None and r["MBps_after"] is None
    assert r["total_gb"] == pytest.approx((2 * 7500 + 3 * 2500) / 1000)
    assert _j(an.cache_exhaustion([]))["note"] == "too few samples to judge"


# --- tails -----------------------------------------------------------------

def test_tail_spread():
    r = _j(an.tail_spread({"p50": 100.0, "p95": 250.0, "p99": 400.0, "p99.9": 1000.0, "max": 5000}))
    assert r["p99_over_p50"] == 4.0 and r["p99.9_over_p50"] == 10.0
    assert r["p95_over_p50"] == 2.5 and r["p99.99_over_p50"] is None
    assert all(v is None for v in _j(an.tail_spread({"p50": 0, "p99": 5.0})).values())


def test_analysis_does_not_import_qt():
    code = ("import sys, app.stats.analysis; "
            "print([m for m in sys.modules if m.split('.')[0].lower() in "
            "('pyside6', 'pyqt5', 'pyqt6', 'shiboken6', 'pyqtgraph', 'qtpy')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=_REPO)
    assert out.stdout.strip() == "[]"

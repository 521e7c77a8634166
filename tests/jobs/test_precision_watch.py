"""The stopping rule on its own (jobs/run/precision_stop.py), fed known intervals and records: a tail
workload stops only once its pooled p99.9 is known to the target, then skips what is left."""
from app.experiments.plan import Trial
from app.model.interval import Interval
from app.model.trial import TrialResult
from app.model.workload import Workload
from app.stats.histogram import Histogram
from jobs.run.precision_stop import PrecisionWatch

W = Workload("randread", 4096, 8)


def _trial(rep: int) -> Trial:
    return Trial(rep, "tail-latency", W, rep, False, 20.0, 0.0, 1 << 24, True, 1.0,
                 precision=0.02, min_s=5.0)


def _interval(iops: float = 10_000.0) -> Interval:
    return Interval(read_MBps=iops * 4096 / 1e6, read_iops=iops, read_lat_us=100.0, write_MBps=0.0,
                    write_iops=0.0, write_lat_us=None, end_epoch_s=None, duration_s=1.0)


def _record(trial: Trial, hist: Histogram) -> dict:
    side = {"iops": 10_000.0, "MBps": 40.96, "runtime_ms": 20_000, "lat_kind": "total",
            "lat_us": {"mean": 100.0}, "hist_ns": hist.to_bins()}
    return {"index": trial.index, "experiment": trial.experiment, "workload": W.to_json(),
            "label": W.label, "repetition": trial.repetition, "warmup": False, "status": "done",
            "measurement": {"read": side, "total": {"iops": 10_000.0, "MBps": 40.96}}}


def _narrow(ios: int) -> Histogram:
    """Latencies spread over many buckets, so the p99.9's interval narrows with the I/O count."""
    return Histogram.from_bins([(100_000 + 50 * k, ios // 4000) for k in range(4000)])


def test_a_tail_workload_runs_its_first_repetition_whole():
    watch = PrecisionWatch(tail_percentile=99.9)
    first = _trial(1)
    watch.begin(first)
    assert not any(watch.add(first, _interval()) for _ in range(20))  # steady, yet no stop


def test_the_pooled_tail_decides_and_the_rest_is_skipped():
    watch = PrecisionWatch(tail_percentile=99.9)
    outcomes = []
    for rep in (1, 2):
        trial = _trial(rep)
        watch.begin(trial)
        for _ in range(20):
            watch.add(trial, _interval())
        outcomes.append(watch.finish(trial, TrialResult.from_json(_record(trial, _narrow(200_000)))))
    assert outcomes[1]["tail"] == "p99.9" and outcomes[1]["tail_rel"] < 0.02
    assert outcomes[1]["reached"] and watch.skip(_trial(3))


def test_the_ramp_is_not_in_the_statistics():
    """fio reports intervals during its ramp_time too (a throttle's start burst here): they are
    not in fio's numbers, so they must not count towards the minimum or the interval."""
    watch = PrecisionWatch()
    trial = Trial(1, "zero-queue", W, 1, False, 20.0, 1.0, 1 << 24, True, 1.0,
                  precision=0.02, min_s=5.0)
    watch.begin(trial)
    assert not watch.add(trial, _interval(50_000.0))  # the ramp: five times the steady rate
    stops = [watch.add(trial, _interval()) for _ in range(5)]
    assert stops == [False] * 4 + [True]  # stopped at its 5 s, the burst left out


def test_a_deep_queue_gets_time_to_drain_when_stopped():
    """fio ends on its trigger file only after the I/Os in flight complete: 256 of them at
    120 IOPS take 2.1 s, past the usual graceful wait, and a signal then fails the trial."""
    watch = PrecisionWatch()
    trial = Trial(1, "queue-depth", Workload("randread", 4096, 256), 1, False, 20.0, 1.0,
                  1 << 24, True, 1.0, precision=0.02, min_s=5.0)
    watch.begin(trial)
    for _ in range(3):
        watch.add(trial, _interval(120.0))
    assert watch._drain_s(trial) > 2 * 256 / 120


def _steady(rep: int, runtime_s: float = 10.0) -> Trial:
    return Trial(rep, "queue-depth", Workload("randread", 4096, 256), rep, False, runtime_s, 1.0,
                 1 << 24, True, 1.0, precision=0.02, min_s=5.0)


def _fio_record(trial: Trial, iops: float) -> dict:
    side = {"iops": iops, "MBps": iops * 4096 / 1e6, "runtime_ms": 10_000, "lat_kind": "total",
            "lat_us": {"mean": 2e6}}
    return {"index": trial.index, "experiment": trial.experiment, "workload": trial.workload.to_json(),
            "label": trial.workload.label, "repetition": trial.repetition, "warmup": False,
            "status": "done", "measurement": {"read": side, "total": {"iops": iops, "MBps": side["MBps"]}}}


def test_the_drain_after_the_runtime_is_not_in_the_statistics():
    """After its runtime fio completes its queue (256 I/Os at 120 IOPS: 2 s) and its status
    documents' clock stands still while the counters move: 256 then 0 'IOPS'. Those are not
    samples of the device, and a run that kept them claimed ±20 % beside a fio mean within 0.1 %."""
    watch = PrecisionWatch()
    trial = _steady(1)
    watch.begin(trial)
    for value in [0.0] + [119.0, 121.0] * 5 + [256.0, 0.0]:   # ramp, 10 s, then the drain
        watch.add(trial, _interval(value))
    block = watch.finish(trial, TrialResult.from_json(_fio_record(trial, 120.0)))
    assert block["own_iops"] is not None and block["own_iops"] < 0.02


def test_the_stop_rests_on_fios_means_of_the_finished_repetitions():
    """The workload's interval counts fio's mean of each finished repetition (finish), so the
    stop does too: a first repetition whose live samples averaged 118 while fio counted 120
    (samples cut at document times) must not keep the second from stopping on 120."""
    watch = PrecisionWatch()
    first = _steady(1, runtime_s=20.0)
    watch.begin(first)
    for value in [0.0] + [117.0, 119.0] * 5:
        watch.add(first, _interval(value))
    watch.finish(first, TrialResult.from_json(_fio_record(first, 120.0)))
    second = _steady(2, runtime_s=20.0)
    watch.begin(second)
    stops = [watch.add(second, _interval(v)) for v in [0.0] + [119.0, 121.0] * 5]
    assert True in stops and stops.index(True) <= 6   # at its 5 s minimum (ramp + 5 samples)


def test_two_repetitions_too_short_for_batch_means_still_give_a_numeric_interval():
    """Four samples a run (5 needed for batch means): the run means' spread bounds the mean
    (t with 1 df), the target is not claimed, and the block says why."""
    watch = PrecisionWatch(repetitions=2)
    blocks = []
    for rep, level in ((1, 120.0), (2, 121.0)):
        trial = _steady(rep, runtime_s=4.0)
        watch.begin(trial)
        for value in [0.0, level, level, level, level]:
            watch.add(trial, _interval(value))
        blocks.append(watch.finish(trial, TrialResult.from_json(_fio_record(trial, level))))
    assert blocks[0]["iops"] is None
    assert blocks[1]["iops"] is not None and abs(blocks[1]["iops"] - 12.706 * 0.5 / 120.5) < 1e-6
    assert blocks[1]["method"] == "between runs, t with 1 df" and not blocks[1]["reached"]
    assert blocks[1]["unbatched"] == "few samples"

"""Several fio servers in one trial, the pure parts: how hosts are combined (on a
genuine two-host client_stats document, fio 3.7, tests/fixtures/PROVENANCE.md), the live sum of
their steady-state lines (lines as fio 3.33 prints them), what a lost host is, the remote time
estimate and the spelling of several hosts."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.engines.fio.host_sum import combine_hosts
from app.engines.fio.multi_host import MultiHostLive, lost_hosts, parse_multi_final
from app.engines.fio.remote_result import ServerLost
from app.engines.fio.result import ALL_CLIENTS, parse_fio_document, split_documents
from app.experiments.plan import experiments_from_settings, plan_run
from app.paths import TargetRefused
from app.remote.extra_time import REMOTE_JOB_S, remote_cost, remote_estimate_s
from app.remote.target import parse_remotes
from app.stats.histogram import Histogram

FIXTURE = Path(__file__).parents[2] / "fixtures" / "fio" / \
    "fio-3.7-linux-client-server-2hosts-client_stats-json-with-preamble.txt"


def _two_hosts() -> tuple[dict, list[dict]]:
    """The fixture's document and the first job entry of each of its two hosts."""
    doc = split_documents(FIXTURE.read_text())[-1]
    entries = [e for e in doc["client_stats"] if e["jobname"] != ALL_CLIENTS]
    firsts = {}
    for e in entries:
        firsts.setdefault(e["hostname"], e)
    return doc, list(firsts.values())


def test_hosts_are_summed_and_latency_is_over_every_io():
    doc, (a, b) = _two_hosts()
    ma, mb = (parse_fio_document({**doc, "client_stats": [e]})[0] for e in (a, b))
    m = combine_hosts([("perf36:8765", ma), ("perf84:8765", mb)])
    assert m["total"]["iops"] == pytest.approx(ma["total"]["iops"] + mb["total"]["iops"])
    assert m["read"]["MBps"] == pytest.approx(ma["read"]["MBps"] + mb["read"]["MBps"])
    assert m["read"]["io_bytes"] == ma["read"]["io_bytes"] + mb["read"]["io_bytes"]
    wa, wb = ma["read"]["io_bytes"], mb["read"]["io_bytes"]   # same block size: bytes ∝ I/Os
    mean = (ma["read"]["lat_us"]["mean"] * wa + mb["read"]["lat_us"]["mean"] * wb) / (wa + wb)
    assert m["read"]["lat_us"]["mean"] == pytest.approx(mean)
    assert m["read"]["lat_us"]["p99"] is None   # no histograms in this file: no pooled percentile
    assert m["read"]["lat_us"]["max"] == max(ma["read"]["lat_us"]["max"], mb["read"]["lat_us"]["max"])
    assert [h["address"] for h in m["hosts"]] == ["perf36:8765", "perf84:8765"] and m["host"] is None
    assert m["hosts"][1]["total"] == mb["total"]


def _side(bins: dict[int, int], mean: float) -> dict:
    ios = sum(bins.values())
    return {"io_bytes": ios * 4096, "iops": ios / 1.0, "MBps": ios * 4096 / 1e6, "MiBps": 0.0,
            "runtime_ms": 1000, "lat_kind": "total", "lat_us": {"min": 1.0, "mean": mean, "max": 900.0},
            "hist_ns": Histogram.from_bins([(v, c) for v, c in bins.items()]).to_bins()}


def test_percentiles_come_from_the_merged_histograms_never_from_averaging():
    fast = _side({10_000: 990, 20_000: 10}, 10.1)       # 1,000 I/Os at ~10 µs
    slow = _side({500_000: 1000}, 500.0)               # 1,000 I/Os at ~500 µs
    m = combine_hosts([("a:1", {"host": "a", "read": fast, "write": None, "total": None}),
                       ("b:2", {"host": "b", "read": slow, "write": None, "total": None})])
    merged = Histogram.from_bins(fast["hist_ns"]) + Histogram.from_bins(slow["hist_ns"])
    assert m["read"]["lat_us"]["p50"] == pytest.approx(merged.percentile(50) / 1000)
    assert m["read"]["lat_us"]["p99"] == pytest.approx(merged.percentile(99) / 1000)
    assert m["read"]["lat_us"]["p99"] > 400   # the slow host's I/Os, not (10 + 500) / 2
    assert m["read"]["lat_us"]["mean"] == pytest.approx((10.1 + 500.0) / 2)  # equal I/O counts
    assert Histogram.from_bins(m["read"]["hist_ns"]).ios == 2000


def _line(pid: int, iops: int, bw: int) -> str:
    return (f"<vm> steadystate {pid} steadystate_check() thread: 0, groupid: 0, rate_msec: 999, "
            f"iops: {iops}, bw: {bw}, head: 0, tail: 1\n")


def test_live_values_are_one_point_once_every_host_has_sent_its_second():
    live = MultiHostLive("read", ["127.0.0.1:1", "127.0.0.1:2"])
    assert live.feed(_line(100, 1000, 4_096_000)) == []        # one host only: wait
    (point,) = live.feed(_line(200, 3000, 12_288_000))          # same host name, other PID
    assert point.read_iops == 4000 and point.read_MBps == pytest.approx(16.384)
    assert point.write_iops == 0 and point.read_lat_us is None
    assert MultiHostLive(None, ["a:1", "b:2"]).feed(_line(1, 1, 1) + _line(2, 1, 1)) == []  # mixed


def test_the_lost_host_is_the_one_whose_entries_stop_early():
    entry = {"jobname": "t", "error": 0, "read": {"runtime": 900}}
    text = ("client: host=127.0.0.1 disconnected\n" + '{"fio version": "fio-3.33", "client_stats": ['
            + ", ".join(f'{{"jobname": "t", "hostname": "127.0.0.1", "port": {p}, "error": 0}}'
                        for p in (1, 2, 1, 1)) + "]}\n")
    with pytest.raises(ServerLost) as lost:
        parse_multi_final(text, ["127.0.0.1:1", "127.0.0.1:2"])
    assert lost.value.hosts == "127.0.0.1:2" and "fio server at 127.0.0.1:2 was lost" in str(lost.value)
    assert lost_hosts({"a": [entry], "b": [entry]}) == ["a", "b"]   # cannot tell: both named


def test_the_remote_estimate_counts_every_job_on_the_server():
    plan = plan_run(experiments_from_settings(["queue-depth"], {
        "queue_depths": "1,2", "repetitions": "1", "warmup": "false", "runtime": "1s"}), seed=1)
    cost = remote_cost(plan, folder_depth=3)
    assert (cost.probes, cost.prefill, cost.trials, cost.removals, cost.end) == (3, 1, 2, 1, 2)
    assert remote_estimate_s(plan, 3) == pytest.approx(2.0 + 9 * REMOTE_JOB_S)


def test_several_hosts_parse_in_order_and_twice_is_refused():
    hosts = parse_remotes(["a:1,b:2", "[::1]:3"])
    assert [str(h) for h in hosts] == ["a:1", "b:2", "[::1]:3"]
    assert [str(h) for h in parse_remotes("a")] == ["a:8765"]
    for bad in (["a:1", "A:1"], ["a", "a:8765"], ["a:1,"], [""]):
        with pytest.raises(TargetRefused):
            parse_remotes(bad)


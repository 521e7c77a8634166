"""fio JSON parsing against genuine fio outputs (tests/fixtures/fio) and small synthetic cases.

Expected numbers are copied literally from the fixture files and converted here by hand with the
documented units (fio's output documentation), so a test fails if the parser's unit rules drift.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.engines.fio.last_document import last_document
from app.engines.fio.result import (
    parse_fio_document,
    parse_fio_text,
    split_documents,
)
from app.model.measurement import Measurement

from conftest import FIXTURES

MEASUREMENT_KEYS = {"engine", "engine_version", "source", "job", "status", "error",
                    "workload", "read", "write", "total"}
WORKLOAD_KEYS = {"rw", "bs_bytes", "iodepth", "numjobs", "rwmixread", "runtime_s"}
DIRECTION_KEYS = {"io_bytes", "iops", "MBps", "MiBps", "runtime_ms", "lat_kind", "lat_us"}
LAT_KEYS = {"min", "mean", "p50", "p95", "p99", "p99.9", "p99.99", "max"}


FIO_DIR = FIXTURES / "fio"
FIO_FILES = sorted(p for p in FIO_DIR.glob("*") if p.suffix in (".json", ".txt"))


def load(name: str) -> list[dict]:
    path = FIO_DIR / name
    return parse_fio_text(path.read_text(encoding="utf-8"), source=str(path))


def approx(value: float) -> object:
    return pytest.approx(value, rel=1e-12)


def kib_s(bw: int) -> tuple[float, float]:
    """fio ``bw`` (KiB/s) -> (MB/s, MiB/s)."""
    return bw * 1024 / 1e6, bw / 1024


def assert_lat(lat_us: dict, scale: float, **expected: float | None) -> None:
    """Compare latency fields (fio units * scale = µs); keys use p99_9 for "p99.9"."""
    for key, raw in expected.items():
        name = key.replace("_", ".")
        assert lat_us[name] == (None if raw is None else approx(raw * scale)), name


# --- every fixture -------------------------------------------------------------------------------

def test_fixture_folder_found():
    assert len(FIO_FILES) >= 13


@pytest.mark.parametrize("path", FIO_FILES, ids=lambda p: p.name)
def test_every_fixture_parses(path: Path):
    measurements = parse_fio_text(path.read_text(encoding="utf-8"), source=str(path))
    assert len(measurements) >= 1
    for m in measurements:
        assert set(m) - {"host"} == MEASUREMENT_KEYS
        assert m["engine"] == "fio" and m["source"] == str(path)
        assert m["engine_version"].startswith("fio-")
        assert set(m["workload"]) == WORKLOAD_KEYS
        for name in ("read", "write"):
            if m[name] is not None:
                assert set(m[name]) == DIRECTION_KEYS
                assert set(m[name]["lat_us"]) == LAT_KEYS
                assert m[name]["io_bytes"] > 0 and m[name]["iops"] > 0
        if m["status"] == "ok":
            assert m["total"] is not None
        json.dumps(m, allow_nan=False)  # JSON-safe: no NaN, only plain types


# --- per fio version -----------------------------------------------------------------------------

def test_fio_2_1_4_multijob_usec_and_padding_keys():
    ms = load("fio-2.1.4-linux-multijob-seq-rand-json.json")
    assert [m["job"] for m in ms] == ["sequential_write", "sequential_read", "random_write_test",
                                      "random_read_test", "random_read_test_parallel"]
    m = ms[0]
    assert m["engine_version"] == "fio-2.1.4" and m["status"] == "ok" and m["error"] is None
    assert m["workload"] == dict.fromkeys(WORKLOAD_KEYS)  # no "job options" in 2.1.4: nothing stated
    assert m["read"] is None
    w = m["write"]
    assert w["io_bytes"] == 361984 * 1024  # KiB before fio 2.21
    assert (w["MBps"], w["MiBps"]) == tuple(map(approx, kib_s(68118)))
    assert w["iops"] == 133.0 and isinstance(w["iops"], float)
    assert w["runtime_ms"] == 5314 and w["lat_kind"] == "completion"
    # fio 2.x latencies are µs already; the "0.00" padding keys must not leak in as zeros
    assert_lat(w["lat_us"], 1, min=189263, mean=477734.84, max=869891, p50=444416, p95=724992,
               p99=823296, p99_9=872448, p99_99=872448)
    assert m["total"] == {"iops": 133.0, "MBps": approx(68118 * 1024 / 1e6)}
    r = ms[1]["read"]
    assert r["io_bytes"] == 361984 * 1024 and r["MBps"] == approx(129836 * 1024 / 1e6)
    assert_lat(r["lat_us"], 1, mean=250667.06, p99=473088)
    assert ms[1]["write"] is None


def test_fio_2_2_5_single_job():
    (m,) = load("fio-2.2.5-linux-single-job-json.json")
    r = m["read"]
    assert m["job"] == "job1" and m["write"] is None
    assert r["io_bytes"] == 21067712 * 1024
    assert (r["MBps"], r["MiBps"]) == tuple(map(approx, kib_s(703100)))
    assert r["iops"] == approx(10984.92) and r["runtime_ms"] == 29964
    assert_lat(r["lat_us"], 1, min=301, mean=2889.34, max=9787, p50=2928, p95=4384, p99=5088,
               p99_9=5984, p99_99=7328)


def test_fio_2_17_group_reporting_global_options():
    ms = load("fio-2.17-linux-histlog-json.json")
    assert len(ms) == 2
    read_job, write_job = ms
    assert read_job["workload"] == {"rw": "randread", "bs_bytes": 16384, "iodepth": 1, "numjobs": 2,
                                    "rwmixread": None, "runtime_s": 10.0}
    r = read_job["read"]
    assert r["io_bytes"] == 1294256 * 1024 and r["MBps"] == approx(129386 * 1024 / 1e6)
    assert r["iops"] == approx(8086.673998)
    assert_lat(r["lat_us"], 1, mean=238.357679, p99_9=1896)
    assert read_job["write"] is None
    w = write_job["write"]
    assert write_job["workload"]["rw"] == "randwrite" and write_job["read"] is None
    assert w["io_bytes"] == 393280 * 1024 and w["iops"] == approx(2457.017193)
    assert_lat(w["lat_us"], 1, mean=800.193694, p99_99=40704)


def test_fio_2_18_leading_zero_options_and_usec():
    (m,) = load("fio-2.18-linux-libaio-randread-qd1-json.json")
    assert m["engine_version"] == "fio-2.18-59-g618e"
    assert m["workload"] == {"rw": "randread", "bs_bytes": 4096, "iodepth": 1, "numjobs": 1,
                             "rwmixread": None, "runtime_s": 10.0}  # "01" in the file
    r = m["read"]
    assert r["io_bytes"] == 2932 * 1024 and r["MBps"] == approx(292 * 1024 / 1e6)
    assert r["iops"] == approx(73.182907) and r["runtime_ms"] == 10016
    assert_lat(r["lat_us"], 1, mean=13643.395634, p99=23168)


def test_fio_3_1_ns_bytes_and_bw_without_bw_bytes():
    (m,) = load("fio-3.1-linux-libaio-randwrite-qd32-nj4-group_reporting-json.json")
    assert m["workload"]["numjobs"] == 4 and m["workload"]["iodepth"] == 32
    assert m["workload"]["rw"] == "randwrite" and m["workload"]["runtime_s"] == 60.0
    w = m["write"]
    assert w["io_bytes"] == 15396376576  # bytes: io_kbytes present
    assert (w["MBps"], w["MiBps"]) == tuple(map(approx, kib_s(250579)))  # no bw_bytes before 3.2
    assert w["iops"] == approx(62644.884422)
    assert_lat(w["lat_us"], 1e-3, mean=2035552.935423, p50=501760, p99_9=181403648)
    assert m["read"] is None


def test_fio_3_14_bw_bytes():
    (m,) = load("fio-3.14-linux-libaio-randread-qd64-nj1-rawdev-json.json")
    r = m["read"]
    assert r["io_bytes"] == 12978262016
    assert r["MBps"] == approx(216297157 / 1e6) and r["MiBps"] == approx(216297157 / 2**20)
    assert r["iops"] == approx(52806.923103) and r["runtime_ms"] == 60002
    assert_lat(r["lat_us"], 1e-3, min=219401, mean=1203471.904646, max=7800961, p99_99=5668864)
    assert m["workload"]["iodepth"] == 64


def test_fio_3_16_randrw_both_directions_and_total():
    (m,) = load("fio-3.16-linux-libaio-randrw-qd1-nj1-json.json")
    assert m["workload"]["rw"] == "randrw" and m["workload"]["rwmixread"] is None  # not stated
    r, w = m["read"], m["write"]
    assert r["io_bytes"] == 6225920 and w["io_bytes"] == 6520832
    assert r["MBps"] == approx(103408 / 1e6) and w["MBps"] == approx(108306 / 1e6)
    assert r["iops"] == approx(25.246234) and w["iops"] == approx(26.442108)
    assert_lat(r["lat_us"], 1e-3, mean=15451145.305263, p50=11206656)
    assert_lat(w["lat_us"], 1e-3, mean=22974854.369975, p95=53215232)
    assert m["total"] == {"iops": approx(25.246234 + 26.442108),
                          "MBps": approx((103408 + 108306) / 1e6)}


def test_fio_3_16_randrw_nj16_group_reporting():
    (m,) = load("fio-3.16-linux-libaio-randrw-qd1-nj16-group_reporting-json.json")
    assert m["workload"]["numjobs"] == 16
    assert m["read"]["iops"] == approx(108.374629) and m["write"]["iops"] == approx(110.363459)
    assert m["total"]["MBps"] == approx((443902 + 452048) / 1e6)


def test_fio_3_19_eight_entries_without_group_reporting():
    ms = load("fio-3.19-linux-libaio-nvme-rw-8jobs-no-group_reporting-json.json")
    assert len(ms) == 8 and {m["job"] for m in ms} == {"job-/dev/nvme8n1"}  # same name: key by index
    assert ms[0]["workload"] == {"rw": "rw", "bs_bytes": 4096, "iodepth": 64, "numjobs": 8,
                                 "rwmixread": None, "runtime_s": 86400.0}
    first, second, last = ms[0], ms[1], ms[7]
    # ramp_time=5 at iodepth 64: fio's "iops" counts the 8,361,769 I/Os issued after the ramp
    # (8,361,805 completed): an import keeps fio's numbers as printed
    assert first["read"]["io_bytes"] == 34249953280
    assert first["read"]["iops"] == approx(96.77941)
    assert first["total"]["MBps"] == approx((396410 + 396206) / 1e6)
    assert second["read"]["iops"] == approx(17.782051)
    assert last["write"]["MBps"] == approx(75817 / 1e6)
    assert last["write"]["iops"] == approx(18.509815)
    assert_lat(last["write"]["lat_us"], 1e-3, mean=1701840370.542308, p99_99=5536481280)


def test_fio_3_30_psync_ramp_duration_suffix():
    (m,) = load("fio-3.30-linux-gcsfuse-read-40jobs-group_reporting-json.json")
    assert m["job"] == "1_thread"
    assert m["workload"] == {"rw": "read", "bs_bytes": 1048576, "iodepth": 64, "numjobs": 40,
                             "rwmixread": None, "runtime_s": 60.0}  # "60s", "1M" from global
    r = m["read"]
    assert r["MBps"] == approx(99888324 / 1e6) and r["iops"] == approx(95.26093)
    assert r["io_bytes"] == 6040846336 and r["runtime_ms"] == 60476
    assert r["lat_kind"] == "completion"
    assert_lat(r["lat_us"], 1e-3, mean=417753956.415726, p99_9=1635778560)
    assert m["write"] is None


def test_after_a_ramp_iops_is_fios_and_the_disagreeing_counts_are_kept():
    """fio's "iops" after ramp_time counts the I/Os issued after its counters restarted, its bytes
    the ones completed (the queue in flight then included): on a device throttled to 120 IOPS
    at iodepth 64, 360 issued and 423 completed in 3,504 ms. An import keeps fio's numbers
    and keeps both counts, the flag its caveat states (app/engines/fio/completed.py)."""
    path = FIXTURES / "fio-local" / "fio-3.33-linux-libaio-randread-qd64-ramp-throttled-jsonplus.json"
    (m,) = parse_fio_text(path.read_text(encoding="utf-8"))
    read = m["read"]
    assert read["io_bytes"] == 423 * 4096 and read["runtime_ms"] == 3504
    assert read["iops"] == approx(102.739726) and read["MBps"] == approx(494465 / 1e6)
    assert read["issued_completed"] == [360, 423]
    (line,) = Measurement.from_json(m).caveats()
    assert "360" in line and "423" in line and "ramp" in line and "\n" not in line


def test_a_bandwidth_bound_queue_after_a_ramp_imports_as_fio_printed_it_with_the_caveat():
    """Generated on a bps-throttled loop device (PROVENANCE.md): 8 MiB writes at QD 256 with a
    2 s ramp; fio counted 56 issued and 311 completed over a runtime that ran 10.7 s past the
    6 s (its drain). IOPS and MB/s stay fio's, within 0.1 %; the counts are flagged."""
    path = FIXTURES / "fio-local" / "fio-3.33-linux-io_uring-seqwrite-8m-qd256-ramp-bps-throttled-json.json"
    (m,) = parse_fio_text(path.read_text(encoding="utf-8"))
    write = m["write"]
    assert write["iops"] == pytest.approx(3.350886, rel=1e-3)
    assert write["MBps"] == pytest.approx(156106814 / 1e6, rel=1e-3)
    assert write["issued_completed"] == [56, 311] and m["read"] is None
    typed = Measurement.from_json(m)
    assert typed.counts_disagree and "56 I/Os issued but 311 completed" in typed.caveats()[0]
    assert Measurement.from_json(typed.to_json()) == typed


def test_counts_within_one_percent_are_not_flagged():
    """The 8-job NVMe output: ramp_time=5 at iodepth 64, 8,361,769 issued and 8,361,805
    completed (0.0004 %): no flag, no caveat."""
    ms = load("fio-3.19-linux-libaio-nvme-rw-8jobs-no-group_reporting-json.json")
    assert not any(Measurement.from_json(m).counts_disagree for m in ms)
    assert all("issued_completed" not in (m[d] or {}) for m in ms for d in ("read", "write"))


def test_fio_3_33_failed_job_after_stderr_preamble():
    (m,) = load("fio-3.33-macos-sync-job-error22-stderr-preamble-json.txt")
    assert m["engine_version"] == "fio-3.33" and m["job"] == "1m"
    assert m["status"] == "failed"
    assert "22" in m["error"] and "\n" not in m["error"]
    assert m["read"] is None and m["write"] is None and m["total"] is None
    assert m["workload"] == {"rw": "write", "bs_bytes": 1048576, "iodepth": 64, "numjobs": 1,
                             "rwmixread": None, "runtime_s": None}


def test_fio_3_34_sigint_preamble():
    (m,) = load("fio-3.34-macos-sync-randread-sigint-preamble-json.txt")
    assert m["status"] == "ok" and m["job"] == "FIOJOB"
    r = m["read"]
    assert r["MBps"] == approx(41380254 / 1e6) and r["iops"] == approx(10102.601156)
    assert r["runtime_ms"] == 2768
    assert_lat(r["lat_us"], 1e-3, mean=95948.612502, p99_9=236544)
    assert m["workload"]["runtime_s"] == 10.0


def test_fio_3_6_ceph():
    (m,) = load("fio-3.6-linux-libaio-ceph-randread-qd1-json.json")
    assert m["engine_version"] == "fio-3.6-31-g4386"
    r = m["read"]
    assert r["MBps"] == approx(5858274 / 1e6) and r["iops"] == approx(1430.242829)
    assert_lat(r["lat_us"], 1e-3, mean=644742.954682, p99_99=1810432)


def test_fio_3_7_client_server():
    ms = load("fio-3.7-linux-client-server-2hosts-client_stats-json-with-preamble.txt")
    assert len(ms) == 11
    assert [m["host"] for m in ms] == ["perf36"] * 5 + ["perf84"] * 5 + [None]
    assert list(ms[0])[:5] == ["engine", "engine_version", "source", "job", "host"]
    first, host2, agg = ms[0], ms[7], ms[10]
    assert first["read"]["iops"] == approx(7951.016328)
    assert first["read"]["MBps"] == approx(32576098 / 1e6)
    assert_lat(host2["read"]["lat_us"], 1e-3, p99_99=977272832)
    assert agg["job"] == "All clients"
    assert agg["read"]["iops"] == approx(93198.150858) and agg["read"]["MBps"] == approx(381824630 / 1e6)
    # the aggregate's percentile object is empty: percentiles null, mean/min/max still there
    assert_lat(agg["read"]["lat_us"], 1e-3, min=864000, mean=3413511.909894, p50=None, p99_9=None)
    assert agg["workload"] == {"rw": None, "bs_bytes": 4096, "iodepth": 32, "numjobs": None,
                               "rwmixread": None, "runtime_s": 15.0}  # global options only


def test_the_final_document_is_decoded_alone_but_read_as_a_scan_would():
    """A status run's stdout: the last document is the result, decoded without the earlier
    ones; with text after it, or cut off (fio killed), the scan from the start decides."""
    status = FIXTURES / "fio-local" / "fio-3.33-linux-libaio-randrw70-qd4-jsonplus-status.json"
    text = status.read_text()
    docs = split_documents(text)
    assert len(docs) > 2 and last_document(text, ("jobs",)) == docs[-1]
    assert last_document(text + "\nfio: {stray brace}\n", ("jobs",)) is None
    cut = text[:text.rfind("\n{") + 200]
    assert last_document(cut, ("jobs",)) is None
    assert parse_fio_text(cut) == parse_fio_document(split_documents(cut)[-1])
    assert parse_fio_text(text) == parse_fio_document(docs[-1])

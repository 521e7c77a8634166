"""The DiskSpd engine (issue 6): parsers against every fixture, golden argv for every catalog
workload, the fio <-> DiskSpd mapping, OS-counter live samples, and full runs driven by a fake
``diskspd`` (tests/fakes/diskspd) through the CLI and the runner: done, failed, hung, cancelled.

The ``real_diskspd`` tests at the end run the real DiskSpd on Windows (the windows-diskspd
workflow); elsewhere they are skipped, and with SSD_PROFILER_REQUIRE_DISKSPD=1 a missing
DiskSpd is a failure instead of a skip.
"""
from __future__ import annotations

import csv
import json
import math
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections import namedtuple
from pathlib import Path

import psutil
import pytest

from app.engines import EngineNotFound
from app.engines import diskspd as ds
from app.engines.diskspd import DiskSpdEngine, DiskSpdLive, disk_key_for, parse_diskspd_output
from app.engines.diskspd_text import parse_text_output
from app.engines.diskspd_xml import DiskSpdParseError, parse_xml_text, xml_intervals
from app.experiments import CATALOG
from app.params import build
from app.plan import Trial
from app.units import GiB, MiB
from app.workloads import Workload
from conftest import FAKES, FIXTURES, run_cli, run_json, tree
from jobs.events import RunFinished, TrialFailed, TrialStarted
from jobs.session import prepare_run

DISKSPD_DIR = FIXTURES / "diskspd"
XML_RANDRW = DISKSPD_DIR / "diskspd-2.0.21a-win-randrw70-30-4k-1thread-latency-iopsstddev.xml"
XML_SEQ = DISKSPD_DIR / "diskspd-2.0.21a-win-seqread-64k-4threads-nolatency.xml"
TXT_MIX = DISKSPD_DIR / "diskspd-2.0.x-win-randrw70-30-4k-1thread-latency-text-tabs-expanded.txt"
TXT_5T = DISKSPD_DIR / "diskspd-2.0.x-win-randwrite-8k-5targets-115threads-latency-text-bom.txt"
TXT_22 = DISKSPD_DIR / "diskspd-2.2.0-win-randwrite-4k-4threads-latency-text.txt"
ALL_FIXTURES = (XML_RANDRW, XML_SEQ, TXT_MIX, TXT_5T, TXT_22)

needs_fixtures = pytest.mark.skipif(not XML_RANDRW.is_file(), reason=f"no DiskSpd fixtures at {DISKSPD_DIR}")
posix_only = pytest.mark.skipif(sys.platform.startswith("win"),
                                reason="the fake diskspd is a Python script run through its #! line")
RUN = ["--set", "runtime=1s", "--set", "size=32MiB", "--set", "repetitions=1", "--set", "warmup=false"]


def _import(*paths: Path) -> list[dict]:
    done = run_cli("import", *map(str, paths), "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# -- import: every fixture, numbers as printed in the files --------------------------------------
@needs_fixtures
def test_every_diskspd_fixture_imports_through_the_cli():
    results = _import(*ALL_FIXTURES)
    assert [r["source"] for r in results].count(str(TXT_5T)) == 5
    assert {r["source"] for r in results} == {str(p) for p in ALL_FIXTURES}
    for r in results:
        assert r["engine"] == "diskspd" and r["status"] == "ok" and r["total"]["iops"] > 0
        for side in (r["read"], r["write"]):
            if side and side["lat_us"]:
                assert side["lat_kind"] == "total"
                assert side["lat_us"]["min"] <= side["lat_us"]["p50"] <= side["lat_us"]["p99"] <= side["lat_us"]["max"]


def _xml_pct(root, percentile: str, tag: str) -> float:
    bucket = next(b for b in root.findall("TimeSpan/Latency/Bucket") if b.findtext("Percentile") == percentile)
    return float(bucket.findtext(f"{tag}Milliseconds"))


@needs_fixtures
def test_xml_randrw_matches_the_file():
    root = ET.parse(XML_RANDRW).getroot()
    seconds = float(root.findtext("TimeSpan/TestTimeSeconds"))
    (m,) = _import(XML_RANDRW)
    assert m["engine_version"] == root.findtext("System/Tool/Version") == "2.0.21a"
    assert m["job"] == "diskspd.test"
    assert m["workload"] == {"rw": "randrw", "bs_bytes": 4096, "iodepth": 1, "numjobs": 1,
                             "rwmixread": 70, "runtime_s": 120.0}
    thread = root.find("TimeSpan/Thread/Target")
    for side, tag in ((m["read"], "Read"), (m["write"], "Write")):
        io_bytes, count = int(thread.findtext(f"{tag}Bytes")), int(thread.findtext(f"{tag}Count"))
        assert side["io_bytes"] == io_bytes
        assert side["iops"] == pytest.approx(count / seconds)
        assert side["MBps"] == pytest.approx(io_bytes / seconds / 1e6)
        assert side["MiBps"] == pytest.approx(io_bytes / seconds / 2**20)
        assert side["lat_us"]["mean"] == pytest.approx(float(root.findtext(f"TimeSpan/Latency/Average{tag}Milliseconds")) * 1000)
        for key, pct in (("min", "0"), ("p50", "50"), ("p95", "95"), ("p99", "99"), ("p99.9", "99.9"),
                         ("p99.99", "99.99"), ("max", "100")):
            assert side["lat_us"][key] == pytest.approx(_xml_pct(root, pct, tag) * 1000)
    assert m["read"]["lat_us"]["p99"] == 21897.0 and m["write"]["lat_us"]["p99.9"] == 6649.0
    assert m["read"]["io_bytes"] == 152215552 and m["write"]["lat_us"]["max"] == 10958.0
    assert m["total"]["iops"] == pytest.approx((37162 + 15753) / 120.01)


@needs_fixtures
def test_xml_without_latency_sums_the_four_threads():
    root = ET.parse(XML_SEQ).getroot()
    (m,) = _import(XML_SEQ)
    threads = root.findall("TimeSpan/Thread/Target")
    assert len(threads) == 4
    io_bytes = sum(int(t.findtext("ReadBytes")) for t in threads)
    count = sum(int(t.findtext("ReadCount")) for t in threads)
    assert m["read"]["io_bytes"] == io_bytes == 5961809920
    assert m["read"]["iops"] == pytest.approx(count / 30.02)
    assert m["read"]["MBps"] == pytest.approx(io_bytes / 30.02 / 1e6)
    assert m["read"]["lat_kind"] is None and m["read"]["lat_us"] is None
    assert m["write"] is None and m["job"] == r"C:\scratch\testfile.dat"
    assert m["workload"] == {"rw": "read", "bs_bytes": 65536, "iodepth": 2, "numjobs": 4,
                             "rwmixread": 100, "runtime_s": 30.0}


@needs_fixtures
def test_text_mixed_matches_the_file():
    (m,) = _import(TXT_MIX)
    assert m["engine_version"] is None and m["job"] == "diskspd.dat"
    assert m["workload"] == {"rw": "randrw", "bs_bytes": 4096, "iodepth": 1, "numjobs": 1,
                             "rwmixread": 70, "runtime_s": 30.0}
    r, w = m["read"], m["write"]
    assert (r["io_bytes"], w["io_bytes"]) == (102645760, 43524096)
    assert r["iops"] == pytest.approx(834.98, abs=0.006) and w["iops"] == pytest.approx(354.05, abs=0.006)
    assert r["MiBps"] == pytest.approx(3.26, abs=0.006) and w["MiBps"] == pytest.approx(1.38, abs=0.006)
    assert m["total"]["iops"] == pytest.approx(1189.03, abs=0.01)
    assert r["lat_us"] == {"min": 36.0, "mean": 272.0, "p50": 232.0, "p95": 588.0, "p99": 877.0,
                           "p99.9": 1608.0, "p99.99": 4753.0, "max": 7990.0}
    assert w["lat_us"]["mean"] == 2179.0 and w["lat_us"]["max"] == 35257.0 and w["lat_us"]["p99"] == 6107.0


@needs_fixtures
def test_text_22_with_tabs_matches_the_file():
    (m,) = _import(TXT_22)
    assert m["job"] == r"C:\diskspd-test.dat" and m["read"] is None
    assert m["workload"] == {"rw": "randwrite", "bs_bytes": 4096, "iodepth": 16, "numjobs": 4,
                             "rwmixread": 0, "runtime_s": 10.0}
    w = m["write"]
    assert w["io_bytes"] == 20819968
    assert w["iops"] == pytest.approx(508.09, abs=0.006)  # not 5083 / 10.00 s = 508.3
    assert w["MiBps"] == pytest.approx(1.98, abs=0.006)
    assert w["lat_us"] == {"min": 86700.0, "mean": 125800.0, "p50": 140008.0, "p95": 158480.0,
                           "p99": 161752.0, "p99.9": 163759.0, "p99.99": 164312.0, "max": 164312.0}


def _rows_by_target(text: str) -> dict[str, list[tuple[int, int, float]]]:
    """(bytes, I/Os, AvgLat) per thread row of the Write IO table, by target path."""
    section = text.split("\nWrite IO", 1)[1].split("\n\n", 1)[0]
    rows: dict[str, list] = {}
    for match in re.finditer(r"^\s*\d+\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|[^|]*\|[^|]*\|\s*([\d.]+)\s*\|.*\|\s*(\S+) \(", section, re.M):
        rows.setdefault(match.group(4), []).append((int(match.group(1)), int(match.group(2)), float(match.group(3))))
    return rows


@needs_fixtures
def test_text_five_targets_one_measurement_each():
    text = TXT_5T.read_text(encoding="utf-8-sig")
    results = _import(TXT_5T)
    rows = _rows_by_target(text)
    assert [m["job"] for m in results] == [f"{d}:\\diskspd-test.dat" for d in "EFGHI"]
    assert all(len(r) == 23 for r in rows.values())
    for m in results:
        mine = rows[m["job"]]
        assert m["read"] is None
        assert m["write"]["io_bytes"] == sum(b for b, _, _ in mine)
        assert m["write"]["lat_us"]["mean"] == pytest.approx(sum(n * lat for _, n, lat in mine) / sum(n for _, n, _ in mine) * 1000)
        assert m["workload"] == {"rw": "randwrite", "bs_bytes": 8192, "iodepth": 22, "numjobs": 23,
                                 "rwmixread": 0, "runtime_s": 60.0}
    # the file's "total:" row: 162301329408 bytes, 19812174 I/Os, 2579.05 MiB/s, 330118.77 I/O per s
    assert sum(m["write"]["io_bytes"] for m in results) == 162301329408
    assert sum(m["total"]["iops"] for m in results) == pytest.approx(330118.77, abs=0.01)
    assert sum(m["write"]["MiBps"] for m in results) == pytest.approx(2579.05, abs=0.006)
    ios = [m["write"]["iops"] for m in results]
    mean_ms = sum(i * m["write"]["lat_us"]["mean"] for i, m in zip(ios, results)) / sum(ios) / 1000
    assert mean_ms == pytest.approx(7.681, abs=0.002)
    by = {m["job"][0]: m["write"]["lat_us"] for m in results}  # each target's own percentile table
    assert by["E"]["p50"] == 1003.0 and by["E"]["min"] == 15.0
    assert by["F"]["max"] == 1747875.0 and by["F"]["p99"] == 440829.0
    assert by["G"]["p99.9"] == 406134.0 and by["H"]["p95"] == 32755.0 and by["I"]["p99.99"] == 408037.0


# -- parser edge cases --------------------------------------------------------------------------------
@needs_fixtures
def test_xml_text_around_results_is_ignored_and_errors_are_reported():
    xml = XML_SEQ.read_text()
    noisy = "WARNING: Could not set privileges\r\n" + xml.replace("\n", "\r\n") + "\r\n"
    assert parse_diskspd_output(noisy)[0]["read"]["io_bytes"] == 5961809920
    interrupted = ("<Results><System><Tool><Version>2.2</Version></Tool></System><TimeSpan><Error>The test "
                   "was interrupted before the measurements began. No results are displayed.</Error></TimeSpan></Results>")
    with pytest.raises(DiskSpdParseError, match="interrupted"):
        parse_xml_text(interrupted)
    with pytest.raises(DiskSpdParseError, match="not well-formed"):
        parse_xml_text(xml[: len(xml) // 2] + "</Results>")
    with pytest.raises(DiskSpdParseError):
        parse_diskspd_output("fio-3.33\n")
    assert isinstance(DiskSpdParseError("x"), ValueError)  # the runner's "no readable result" path


@needs_fixtures
def test_xml_series_becomes_intervals_ending_now():
    text = XML_RANDRW.read_text()
    series = xml_intervals(text, end_epoch_s=1000.0)
    assert len(series) == 120 and series[-1].end_epoch_s == 1000.0 and series[0].end_epoch_s == 881.0
    first = series[0]
    assert (first.read_iops, first.write_iops, first.duration_s) == (332.0, 119.0, 1.0)
    assert first.read_MBps == pytest.approx(332 * 4096 / 1e6)
    assert (first.read_lat_us, first.write_lat_us) == (2378.0, 1761.0)
    assert xml_intervals(XML_SEQ.read_text(), 0.0) is None  # no -D series: keep the live samples


# -- argv: golden for every catalog workload ----------------------------------------------------------
T = "-W0 -C0 -Sh -L -D1000 -Z1M -ypEV -Rxml"
T2 = "-W0 -C0 -Sh -L -D1000 -Z2M -ypEV -Rxml"  # 1 MiB blocks: a 2 MiB random source
GOLDEN = {
    "randread-4096-q1-t1": f"-b4K -o1 -t1 -r -w0 -d30 {T}",
    "randwrite-4096-q1-t1": f"-b4K -o1 -t1 -r -w100 -d30 {T}",
    "read-131072-q1-t1": f"-b128K -o1 -t1 -s -w0 -d30 {T}",
    "write-131072-q1-t1": f"-b128K -o1 -t1 -s -w100 -d30 {T}",
    "randread-4096-q8-t1": f"-b4K -o8 -t1 -r -w0 -d30 {T}",
    "randread-8192-q8-t1": f"-b8K -o8 -t1 -r -w0 -d30 {T}",
    "randread-16384-q8-t1": f"-b16K -o8 -t1 -r -w0 -d30 {T}",
    "randread-32768-q8-t1": f"-b32K -o8 -t1 -r -w0 -d30 {T}",
    "randread-65536-q8-t1": f"-b64K -o8 -t1 -r -w0 -d30 {T}",
    "randread-131072-q8-t1": f"-b128K -o8 -t1 -r -w0 -d30 {T}",
    "randread-262144-q8-t1": f"-b256K -o8 -t1 -r -w0 -d30 {T}",
    "randread-524288-q8-t1": f"-b512K -o8 -t1 -r -w0 -d30 {T}",
    "randread-1048576-q8-t1": f"-b1M -o8 -t1 -r -w0 -d30 {T2}",
    "read-4096-q8-t1": f"-b4K -o8 -t1 -s -w0 -d30 {T}",
    "read-8192-q8-t1": f"-b8K -o8 -t1 -s -w0 -d30 {T}",
    "read-16384-q8-t1": f"-b16K -o8 -t1 -s -w0 -d30 {T}",
    "read-32768-q8-t1": f"-b32K -o8 -t1 -s -w0 -d30 {T}",
    "read-65536-q8-t1": f"-b64K -o8 -t1 -s -w0 -d30 {T}",
    "read-131072-q8-t1": f"-b128K -o8 -t1 -s -w0 -d30 {T}",
    "read-262144-q8-t1": f"-b256K -o8 -t1 -s -w0 -d30 {T}",
    "read-524288-q8-t1": f"-b512K -o8 -t1 -s -w0 -d30 {T}",
    "read-1048576-q8-t1": f"-b1M -o8 -t1 -s -w0 -d30 {T2}",
    "randrw-4096-q8-t1-m100": f"-b4K -o8 -t1 -r -w0 -d30 {T}",
    "randrw-4096-q8-t1-m70": f"-b4K -o8 -t1 -r -w30 -d30 {T}",
    "randrw-4096-q8-t1-m50": f"-b4K -o8 -t1 -r -w50 -d30 {T}",
    "randrw-4096-q8-t1-m0": f"-b4K -o8 -t1 -r -w100 -d30 {T}",
    "randread-4096-q2-t1": f"-b4K -o2 -t1 -r -w0 -d30 {T}",
    "randread-4096-q4-t1": f"-b4K -o4 -t1 -r -w0 -d30 {T}",
    "randread-4096-q16-t1": f"-b4K -o16 -t1 -r -w0 -d30 {T}",
    "randread-4096-q32-t1": f"-b4K -o32 -t1 -r -w0 -d30 {T}",
    "randread-4096-q64-t1": f"-b4K -o64 -t1 -r -w0 -d30 {T}",
    "randread-4096-q128-t1": f"-b4K -o128 -t1 -r -w0 -d30 {T}",
    "randread-4096-q256-t1": f"-b4K -o256 -t1 -r -w0 -d30 {T}",
    "write-1048576-q32-t1": f"-b1M -o32 -t1 -s -w100 -d30 {T2}",
    "write-1048576-q8-t1": f"-b1M -o8 -t1 -s -w100 -d30 {T2}",
    "read-131072-q32-t1": f"-b128K -o32 -t1 -s -w0 -d30 {T}",
    "write-131072-q32-t1": f"-b128K -o32 -t1 -s -w100 -d30 {T}",
    "randread-4096-q32-t16": f"-b4K -o32 -t16 -r -w0 -d30 {T}",
    "randwrite-4096-q32-t16": f"-b4K -o32 -t16 -r -w100 -d30 {T}",
    "read-1048576-q1-t1": f"-b1M -o1 -t1 -s -w0 -d30 {T2}",
    "write-1048576-q1-t1": f"-b1M -o1 -t1 -s -w100 -d30 {T2}",
    "randwrite-4096-q32-t1": f"-b4K -o32 -t1 -r -w100 -d30 {T}",
    # queue-depth with sweep=numjobs: threads instead of depth; sequential threads share one offset
    **{f"randread-4096-q1-t{n}": f"-b4K -o1 -t{n} -r -w0 -d30 {T}" for n in (1, 2, 4, 8, 16, 32, 64, 128, 256)},
    "read-4096-q1-t1": f"-b4K -o1 -t1 -s -w0 -d30 {T}",
    **{f"read-4096-q1-t{n}": f"-b4K -o1 -t{n} -si -w0 -d30 {T}" for n in (2, 4, 8, 16, 32, 64, 128, 256)},
}
VARIANTS = [(cls, {}) for cls in CATALOG.values()] + [
    (CATALOG["quick"], {"profile": "default"}),
    (CATALOG["queue-depth"], {"sweep": "numjobs"}),
    (CATALOG["queue-depth"], {"sweep": "numjobs", "rw": "read"}),
]


def _catalog_workloads() -> dict[str, Workload]:
    out = {}
    for cls, settings in VARIANTS:
        for w in build(cls, settings).workloads():
            out[w.key] = w
    return out


def _trial(w: Workload, runtime=30.0, ramp=0.0, size=GiB, direct=True, interval=1.0) -> Trial:
    return Trial(0, "x", w, 1, False, runtime, ramp, size, direct, interval)


def test_golden_argv_for_every_catalog_workload():
    workloads = _catalog_workloads()
    assert set(workloads) == set(GOLDEN), "a catalog workload without a golden DiskSpd argv (or a stale one)"
    for key, w in workloads.items():
        argv = ds.trial_argv("diskspd.exe", _trial(w), r"C:\t\f.dat", "EV")
        assert argv[0] == "diskspd.exe" and argv[-1] == r"C:\t\f.dat"
        assert " ".join(argv[1:-1]) == GOLDEN[key], key


def test_trial_options_follow_runtime_ramp_direct_interval_and_create():
    w = Workload("randread", 4096)
    argv = ds.trial_argv("d", _trial(w, runtime=1.5, ramp=2.5, direct=False, interval=0.5, size=32 * MiB),
                         "f", "EV", create=True)
    assert "-d2" in argv and "-W3" in argv and "-D500" in argv  # whole seconds, rounded up
    assert "-Sh" not in argv and not any(a.startswith("-S") for a in argv)
    assert argv[-2:] == ["-c32M", "f"]
    assert not any(a.startswith("-c") for a in ds.trial_argv("d", _trial(w), "f", "EV"))


def _fio_from_diskspd(argv: list[str]) -> dict:
    """Read a DiskSpd argv back into fio terms: the mapping of the diskspd module docstring."""
    opt = {a[1]: a[2:] for a in argv[1:-1] if a.startswith("-")}
    write = int(opt["w"])
    random = "r" in opt
    base = "read" if write == 0 else "write" if write == 100 else "rw"
    return {"iodepth": int(opt["o"]), "numjobs": int(opt["t"]), "random": random,
            "rw": ("rand" if random else "") + base, "rwmixread": 100 - write,
            "interlocked": opt.get("s") == "i"}


@pytest.mark.parametrize("w", [
    Workload("randread", 4096, 32, 1), Workload("randread", 4096, 1, 16), Workload("randread", 4096, 32, 16),
    Workload("read", 131072, 8, 4), Workload("write", MiB, 32, 1), Workload("randwrite", 4096, 4, 8),
    Workload("randrw", 4096, 8, 2, rwmixread=70), Workload("rw", 65536, 4, 1, rwmixread=50),
], ids=lambda w: w.key)
def test_fio_iodepth_x_numjobs_equals_diskspd_o_x_t(w):
    back = _fio_from_diskspd(ds.trial_argv("d", _trial(w), "f", "EV"))
    assert back["iodepth"] * back["numjobs"] == w.iodepth * w.numjobs == w.outstanding
    assert (back["iodepth"], back["numjobs"], back["random"]) == (w.iodepth, w.numjobs, w.random)
    assert back["interlocked"] == (not w.random and w.numjobs > 1)
    expect_mix = w.rwmixread if w.rwmixread is not None else (100 if w.direction == "read" else 0)
    assert back["rwmixread"] == expect_mix
    fio_rw = w.rw if w.rw not in ("randrw", "rw") or 0 < w.rwmixread < 100 else back["rw"]
    assert back["rw"] == fio_rw


@needs_fixtures
def test_mapping_back_from_the_xml_profile():
    """What DiskSpd writes into its profile (-o RequestCount, -t ThreadsPerFile) maps back to fio names."""
    root = ET.parse(XML_SEQ).getroot()
    target = root.find("Profile/TimeSpans/TimeSpan/Targets/Target")
    (m,) = parse_xml_text(XML_SEQ.read_text())
    assert m["workload"]["iodepth"] == int(target.findtext("RequestCount")) == 2
    assert m["workload"]["numjobs"] == int(target.findtext("ThreadsPerFile")) == 4


def test_prepare_writes_the_file_once_at_a_throttled_rate():
    size = 32 * MiB
    argv = ds.prepare_argv("d", "f", size, "EV")
    opt = {a[1]: a[2:] for a in argv[1:-1]}
    assert opt["c"] == "32M" and opt["w"] == "100" and opt["s"] == "" and opt["t"] == "1"
    assert "-Sh" in argv and argv[-1] == "f" and "-ypEV" in argv and "-Rxml" in argv
    rate_per_s = int(opt["g"]) * 1000
    seconds = int(opt["d"])
    assert seconds == math.ceil(size / (ds.PREPARE_RATE_MiBps * MiB)) + 1
    assert size <= rate_per_s * seconds < size + 2 * rate_per_s  # one pass, not many
    assert "-Sh" not in ds.prepare_argv("d", "f", size, "EV", direct=False)


def test_engine_adds_create_only_when_the_file_is_missing_and_names_a_fresh_event(tmp_path):
    engine = DiskSpdEngine("diskspd", "DiskSpd 2.2")
    test_file, token = tmp_path / "t.dat", tmp_path / "t.stop"
    w = Workload("write", MiB, 32)
    first = engine.trial_argv(_trial(w, size=32 * MiB), test_file, token)
    assert "-c32M" in first
    stop = engine.graceful_stop(token)
    assert callable(stop) and stop() is None  # Linux/macOS: nothing to set, terminate follows
    test_file.write_bytes(b"x")
    second = engine.trial_argv(_trial(w), test_file, token)
    assert not any(a.startswith("-c") for a in second)
    events = [a for a in first + second if a.startswith("-yp")]
    assert len(set(events)) == 2  # a set event must never stop the next trial


def test_windows_graceful_stop_sets_the_event_named_in_the_argv(tmp_path, monkeypatch):
    engine = DiskSpdEngine("diskspd", "DiskSpd 2.2")
    argv = engine.trial_argv(_trial(Workload("randread", 4096)), tmp_path / "t.dat", tmp_path / "t.stop")
    monkeypatch.setattr(sys, "platform", "win32")
    stop = engine.graceful_stop(tmp_path / "t.stop")
    assert isinstance(stop, ds.NamedEventStop)
    assert f"-yp{stop.name}" in argv and re.fullmatch(r"[\w.-]+", stop.name)  # no "\" namespace


# -- live: psutil counters of the test file's disk ----------------------------------------------------
Counters = namedtuple("Counters", "read_count write_count read_bytes write_bytes read_time write_time")


def test_live_samples_disk_counter_deltas_at_the_interval():
    clock = iter([100.0, 100.2, 100.5, 101.0, 101.1]).__next__
    snaps = iter([Counters(10, 5, 4096 * 10, 0, 20, 10), Counters(1010, 505, 4096 * 1010, 2 * MiB, 520, 1010)])
    calls = []

    def counters(perdisk):
        calls.append(perdisk)
        return {"nvme0n1": next(snaps)}

    live = DiskSpdLive("nvme0n1", 1.0, counters=counters, clock=clock)
    assert live.feed("") == [] and live.feed("") == [] and live.feed("") == []  # baseline, 0.2 s, 0.5 s
    (iv,) = live.feed("")
    assert (iv.end_epoch_s, iv.duration_s) == (101.0, 1.0)
    assert iv.read_iops == 1000 and iv.read_MBps == pytest.approx(4096 * 1000 / 1e6)
    assert iv.read_lat_us == pytest.approx(500.0)  # 500 ms busy / 1000 reads
    assert iv.write_iops == 500 and iv.write_lat_us == pytest.approx(2000.0)
    assert live.feed("") == [] and calls == [True, True]


def test_live_falls_back_to_system_wide_counters():
    seen = []
    live = DiskSpdLive(None, 1.0, counters=lambda perdisk: seen.append(perdisk) or Counters(0, 0, 0, 0, 0, 0),
                       clock=iter([0.0, 1.0]).__next__)
    live.feed("")
    assert live.feed("")[0].read_iops == 0 and seen == [False, False]


@pytest.mark.parametrize("device, key", [
    ("/dev/nvme0n1p2", "nvme0n1"), ("/dev/sda1", "sda"), ("/dev/vda", "vda"), ("/dev/disk3s1", "disk3"),
    ("/dev/mmcblk0p1", "mmcblk0"), ("/dev/mapper/nothing-here", None), ("C:\\", None)])
def test_disk_key_for_partition_devices(device, key):
    keys = {"nvme0n1", "nvme0n1p2", "sda", "sda1", "vda", "disk3", "mmcblk0"}
    assert disk_key_for(device, keys) == key


def test_resolve_disk_of_a_real_folder(tmp_path):
    key, note = ds.resolve_disk(tmp_path / "not-yet.dat")
    assert key is None or key in (psutil.disk_io_counters(perdisk=True) or {})
    assert note and (key is not None or "system-wide" in note)


@needs_fixtures
def test_live_final_intervals_replace_with_the_xml_series():
    live = DiskSpdLive(None, 1.0, counters=lambda perdisk: None, clock=lambda: 50.0)
    series = live.final_intervals(XML_RANDRW.read_text())
    assert len(series) == 120 and series[-1].end_epoch_s == 50.0


# -- locate ---------------------------------------------------------------------------------------------
def _script(path: Path, body: str) -> Path:
    path.write_text(f"#!{sys.executable}\n{body}\n")
    path.chmod(0o755)
    return path


@posix_only
def test_locate_finds_the_fake_and_refuses_imposters(tmp_path, monkeypatch):
    monkeypatch.setenv("SSD_PROFILER_DISKSPD", str(FAKES / "diskspd"))
    engine = DiskSpdEngine.locate()
    assert engine.path == str(FAKES / "diskspd") and engine.version == "DiskSpd 2.2"
    linux_port = _script(tmp_path / "diskspd-linux", "print('Usage: diskspd [options] target\\nversion 2.0.17')")
    with pytest.raises(EngineNotFound, match="Linux port"):
        DiskSpdEngine.locate(str(linux_port))
    other = _script(tmp_path / "other", "print('hello')")
    with pytest.raises(EngineNotFound, match="does not answer like DiskSpd"):
        DiskSpdEngine.locate(str(other))
    with pytest.raises(EngineNotFound, match="not found at .*missing"):
        DiskSpdEngine.locate(str(tmp_path / "missing"))  # a set path is used, not bypassed
    monkeypatch.delenv("SSD_PROFILER_DISKSPD")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(EngineNotFound, match="github.com/microsoft/diskspd"):
        DiskSpdEngine.locate()


# -- full runs with the fake diskspd --------------------------------------------------------------------
@pytest.fixture
def fake_env() -> dict:
    return {"PATH": f"{FAKES}{os.pathsep}{os.environ['PATH']}", "SSD_PROFILER_DISKSPD": str(FAKES / "diskspd")}


def _rows(path: Path) -> list[dict]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


@posix_only
@needs_fixtures
def test_cli_run_with_the_fake_diskspd_completes_and_exports(tmp_path, fake_env, monkeypatch):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "zero-queue", "--engine", "diskspd", "--target", str(target), *RUN,
                   "--out", str(tmp_path / "runs"), env={**fake_env, "FAKE_DISKSPD_MODE": "ok"}, timeout=120)
    assert done.returncode == 0, done.stderr
    run_dir = Path(done.stdout.strip().splitlines()[-1])
    record = run_json(run_dir)
    assert record["status"] == "done" and record["engine"]["name"] == "diskspd"
    assert record["engine"]["version"] == "DiskSpd 2.2"
    assert len(record["trials"]) == 4 and all(t["status"] == "done" for t in record["trials"])
    for t in record["trials"]:
        m = t["measurement"]
        assert m["engine"] == "diskspd" and m["engine_version"] == "2.0.21a"
        assert m["workload"]["rw"] == t["workload"]["rw"]  # the trial's workload, not the XML's
        assert m["read"]["lat_us"]["p99.9"] == 23166.0 and m["total"]["iops"] > 0
        assert m["job"] == t["argv"][-1]  # the fake wrote the requested path into the XML
    log = (run_dir / "commands.log").read_text()
    assert "prepare zero-queue" in log and " -g" in log and log.count("-Rxml") == 5
    trial_lines = [line for line in log.splitlines() if "prepare" not in line]
    assert not any(" -c" in line for line in trial_lines)  # the pre-filled file is never recreated
    samples = _rows(run_dir / "samples.csv")
    assert len(samples) == 4 and {s["read_iops"] for s in samples} == {"332"}  # XML series, 1 s each
    assert len(list((run_dir / "raw").iterdir())) == 8
    assert tree(target) == []
    assert record["summary"]["zero-queue"]["workloads"]

    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    from app.report import export_run
    from ui.figure_render import ensure_app, render_figure
    ensure_app()
    out = export_run(run_dir, tmp_path / "export", render_figure)
    report = (out / "report.md").read_text()
    assert "DiskSpd 2.2" in report
    assert list((out / "tables").glob("*.csv")) and list((out / "figures").glob("*.png"))


@posix_only
def test_write_only_experiment_creates_its_file_in_the_first_trial(tmp_path, fake_env, monkeypatch):
    for key, value in {**fake_env, "FAKE_DISKSPD_MODE": "ok"}.items():
        monkeypatch.setenv(key, value)
    target = tmp_path / "target"
    target.mkdir()
    session = prepare_run(["slc-cache"], {"runtime": "1s", "size": "32MiB"}, str(target),
                          runs_root=tmp_path / "runs", engine="diskspd")
    events = list(session.runner.events())
    assert events[-1].status == "done", events[-1]
    (trial,) = session.store.record["trials"]
    assert "-c32M" in trial["argv"] and "-w100" in trial["argv"]
    assert "prepare" not in (session.store.dir / "commands.log").read_text()
    assert tree(target) == []


@posix_only
def test_failing_diskspd_marks_every_trial_failed(tmp_path, fake_env):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "zero-queue", "--engine", "diskspd", "--target", str(target), *RUN,
                   "--out", str(tmp_path / "runs"), env={**fake_env, "FAKE_DISKSPD_MODE": "fail"}, timeout=120)
    assert done.returncode == 1, done.stderr
    record = run_json(Path(done.stdout.strip().splitlines()[-1]))
    assert record["status"] == "failed" and len(record["trials"]) == 4
    for t in record["trials"]:
        assert t["status"] == "failed" and t["returncode"] == 1
        assert "no readable result" in t["error"] and "Error generating I/O requests" in t["error"]
        assert "Error generating I/O requests" in t["stderr_tail"]
    assert tree(target) == []  # the fill pass created the file; the app removed it


def _no_fake_left(folder: Path) -> bool:
    return not [p for p in psutil.process_iter(["cmdline"])
                if str(folder) in " ".join(p.info["cmdline"] or []) and "diskspd" in " ".join(p.info["cmdline"] or [])]


@posix_only
def test_hanging_diskspd_is_stopped_by_the_watchdog(tmp_path, fake_env, monkeypatch):
    for key, value in {**fake_env, "FAKE_DISKSPD_MODE": "hang"}.items():
        monkeypatch.setenv(key, value)
    target = tmp_path / "target"
    target.mkdir()
    session = prepare_run(["zero-queue"], {"runtime": "1s", "size": "32MiB", "repetitions": "1",
                                           "warmup": "false"},
                          str(target), runs_root=tmp_path / "runs", watchdog_grace_s=1.0, engine="diskspd")
    started = time.monotonic()
    events = list(session.runner.events())
    assert time.monotonic() - started < 4 * 8  # each trial: 2 s limit + no-op stop, terminate, kill
    failures = [e for e in events if isinstance(e, TrialFailed)]
    assert len(failures) == 4 and all("time limit" in f.error and "(kill)" in f.error for f in failures)
    assert isinstance(events[-1], RunFinished) and events[-1].status == "failed"
    record = run_json(session.store.dir)
    assert all("hanging" in t["stderr_tail"] and t["stopped_by"] == "watchdog" for t in record["trials"])
    assert tree(target) == [] and _no_fake_left(target)


@posix_only
def test_cancel_during_a_diskspd_trial(tmp_path, fake_env, monkeypatch):
    for key, value in {**fake_env, "FAKE_DISKSPD_MODE": "hang"}.items():
        monkeypatch.setenv(key, value)
    target = tmp_path / "target"
    target.mkdir()
    session = prepare_run(["zero-queue"], {"runtime": "30s", "size": "32MiB", "repetitions": "1",
                                           "warmup": "false"},
                          str(target), runs_root=tmp_path / "runs", engine="diskspd")
    events = []
    for event in session.runner.events():
        events.append(event)
        if isinstance(event, TrialStarted):
            session.cancel.set()
    assert events[-1].status == "cancelled"
    (trial,) = run_json(session.store.dir)["trials"]
    assert trial["status"] == "cancelled" and trial["stopped_by"] == "cancel"
    assert tree(target) == [] and _no_fake_left(target)


# -- the real DiskSpd (Windows; the windows-diskspd workflow) ------------------------------------------------
@pytest.fixture
def real_diskspd() -> DiskSpdEngine:
    required = os.environ.get("SSD_PROFILER_REQUIRE_DISKSPD") == "1"
    if not sys.platform.startswith("win"):
        if required:
            pytest.fail("SSD_PROFILER_REQUIRE_DISKSPD=1 but this is not Windows")
        pytest.skip("the real DiskSpd runs on Windows only")
    try:
        return DiskSpdEngine.locate()
    except EngineNotFound as exc:
        if required:
            pytest.fail(f"DiskSpd is required here: {exc}")
        pytest.skip(str(exc))


def _run(argv: list[str], timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def test_real_diskspd_version(real_diskspd):
    assert re.match(r"DiskSpd \d", real_diskspd.version)


def test_real_diskspd_prepare_trial_and_parse(real_diskspd, tmp_path):
    test_file, token = tmp_path / "t.dat", tmp_path / "t.stop"
    prep = _run(real_diskspd.prepare_argv(test_file, 64 * MiB, token))
    assert prep.returncode == 0, prep.stderr
    assert test_file.stat().st_size == 64 * MiB
    filled = parse_diskspd_output(prep.stdout)[0]["write"]
    assert filled["io_bytes"] >= 64 * MiB  # one full pass of the file
    trial = _trial(Workload("randread", 4096, 4), runtime=2.0, size=64 * MiB)
    argv = real_diskspd.trial_argv(trial, test_file, token)
    assert not any(a.startswith("-c") for a in argv)
    done = _run(argv)
    assert done.returncode == 0, done.stderr
    (m,) = real_diskspd.parse_final(done.stdout)
    assert m["read"]["iops"] > 0 and m["write"] is None and m["read"]["lat_us"]["p99"] > 0
    assert m["workload"] == {"rw": "randread", "bs_bytes": 4096, "iodepth": 4, "numjobs": 1,
                             "rwmixread": 100, "runtime_s": 2.0}
    assert len(real_diskspd.live(trial, test_file).final_intervals(done.stdout)) >= 1
    text_run = _run([a if a != "-Rxml" else "-Rtext" for a in argv])
    assert text_run.returncode == 0, text_run.stderr
    (t,) = parse_text_output(text_run.stdout)
    assert t["read"]["iops"] > 0 and t["workload"]["iodepth"] == 4 and t["read"]["lat_us"]["p99"] > 0


def test_real_diskspd_cancel_through_the_named_event(real_diskspd, tmp_path):
    from jobs.process import EngineProcess
    test_file, token = tmp_path / "t.dat", tmp_path / "t.stop"
    argv = real_diskspd.trial_argv(_trial(Workload("randwrite", 4096, 4), runtime=60.0, size=64 * MiB),
                                   test_file, token)
    assert "-c64M" in argv
    proc = EngineProcess(argv, real_diskspd.graceful_stop(token), cwd=tmp_path)
    time.sleep(5)
    assert proc.stop("cancel") == "graceful"
    assert proc.finish() == 0
    (m,) = real_diskspd.parse_final(proc.stdout_bytes.decode("utf-8", "replace"))
    assert 0 < m["write"]["runtime_ms"] < 60000 and m["write"]["iops"] > 0


def test_real_diskspd_cli_run(real_diskspd, tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    done = run_cli("run", "zero-queue", "--engine", "diskspd", "--target", str(target),
                   "--set", "runtime=2s", "--set", "size=64MiB", "--set", "repetitions=1",
                   "--set", "warmup=false", "--out", str(tmp_path / "runs"), timeout=600)
    assert done.returncode == 0, done.stderr
    record = run_json(Path(done.stdout.strip().splitlines()[-1]))
    assert record["status"] == "done" and len(record["trials"]) == 4
    assert all(t["measurement"]["total"]["iops"] > 0 for t in record["trials"])
    assert tree(target) == []

"""The DiskSpd engine, parsers: every DiskSpd fixture imported through the CLI with the
numbers as printed in the files (-Rxml and -Rtext), and the parsers' edge cases.

Argv, mapping and live counters are in test_diskspd_argv.py; runs in test_diskspd_run.py.
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from app.engines.diskspd import parse_diskspd_output
from app.engines.diskspd.xml import DiskSpdParseError, parse_xml_text, xml_intervals

from conftest import run_cli
from diskspd_support import DISKSPD_DIR, XML_RANDRW, XML_SEQ

TXT_MIX = DISKSPD_DIR / "diskspd-2.0.x-win-randrw70-30-4k-1thread-latency-text-tabs-expanded.txt"
TXT_5T = DISKSPD_DIR / "diskspd-2.0.x-win-randwrite-8k-5targets-115threads-latency-text-bom.txt"
TXT_22 = DISKSPD_DIR / "diskspd-2.2.0-win-randwrite-4k-4threads-latency-text.txt"
ALL_FIXTURES = (XML_RANDRW, XML_SEQ, TXT_MIX, TXT_5T, TXT_22)


def _import(*paths: Path) -> list[dict]:
    done = run_cli("import", *map(str, paths), "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# -- import: every fixture, numbers as printed in the files --------------------------------------
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


def test_xml_series_becomes_intervals_ending_now():
    text = XML_RANDRW.read_text()
    series = xml_intervals(text, end_epoch_s=1000.0)
    assert len(series) == 120 and series[-1].end_epoch_s == 1000.0 and series[0].end_epoch_s == 881.0
    first = series[0]
    assert (first.read_iops, first.write_iops, first.duration_s) == (332.0, 119.0, 1.0)
    assert first.read_MBps == pytest.approx(332 * 4096 / 1e6)
    assert (first.read_lat_us, first.write_lat_us) == (2378.0, 1761.0)
    assert xml_intervals(XML_SEQ.read_text(), 0.0) is None  # no -D series: keep the live samples

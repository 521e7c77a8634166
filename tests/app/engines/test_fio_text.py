"""fio's normal and terse text outputs import with the numbers fio printed.

Each fixture run printed normal, terse and JSON output at once (fio ``--output-format=
normal,terse,json``), so every field read from the text is compared with the same run's JSON,
within what fio's printing loses: normal output keeps 3 to 4 significant digits of rates and
amounts (fio's ``num2str`` rounds the last one up), latency means to 2 decimals of the printed
unit, min/max and percentiles as whole units; terse keeps whole KiB, KiB/s, IOPS and µs (fio 3.x
drops the nanoseconds) and means to 6 decimals.
"""
from __future__ import annotations

import pytest

from app.engines.fio.normal import parse_normal_output
from app.engines.fio.result import parse_fio_text
from app.engines.fio.terse import parse_terse_output
from app.engines.fio.text_common import FioTextError
from app.engines.fio.text_output import parse_fio_text_output
from app.model.measurement import Measurement

from conftest import FIXTURES

TEXT = FIXTURES / "fio-text"
RUNS = sorted(p.name[: -len("-json.json")] for p in TEXT.glob("*-json.json"))
FORMATS = [(run, kind) for run in RUNS for kind in ("normal", "terse")]
LAT_KEYS = ("mean", "min", "max", "p50", "p95", "p99", "p99.9", "p99.99")


def _text(run: str, kind: str) -> str:
    return next(TEXT.glob(f"{run}-{kind}*.txt")).read_text()


def _close(got: float, want: float, rel: float = 0.0, abs_: float = 0.0) -> bool:
    return abs(got - want) <= max(rel * abs(want), abs_) + 1e-9


def test_the_fixtures_cover_both_versions_and_formats():
    versions = {run.split("-")[1] for run in RUNS}
    assert {"2.21", "3.33"} <= versions
    assert any(TEXT.glob("*-terse-v3.txt")) and any(TEXT.glob("*-terse-v4.txt"))
    assert len(FORMATS) >= 10


@pytest.mark.parametrize("run, kind", FORMATS, ids=[f"{r}-{k}" for r, k in FORMATS])
def test_text_output_has_the_json_numbers_of_the_same_run(run, kind):
    want = parse_fio_text((TEXT / f"{run}-json.json").read_text())
    got = parse_fio_text_output(_text(run, kind), source=run)
    assert len(got) == len(want)
    normal = kind == "normal"
    for g, w in zip(got, want):
        Measurement.from_json(g)  # the typed shape reads it back
        assert (g["engine"], g["job"], g["engine_version"], g["status"]) == (
            "fio", w["job"], w["engine_version"], "ok")
        if normal:
            for key in ("rw", "bs_bytes", "iodepth"):
                assert g["workload"][key] == w["workload"][key], key
        else:  # a terse line states no workload: nothing is guessed
            assert set(g["workload"].values()) == {None}
        for direction in ("read", "write"):
            gs, ws = g[direction], w[direction]
            assert (gs is None) == (ws is None), direction
            if ws is None:
                continue
            _compare_direction(gs, ws, normal, run)
        assert _close(g["total"]["iops"], w["total"]["iops"], 1e-2 if normal else 0, 0 if normal else 2)


def _compare_direction(gs: dict, ws: dict, normal: bool, run: str) -> None:
    new_layout = normal and not run.startswith("fio-2.2-")
    rate_rel = 1e-2 if new_layout else 1e-4
    assert gs["runtime_ms"] == ws["runtime_ms"]
    if normal:
        assert _close(gs["iops"], ws["iops"], rel=rate_rel)
        assert _close(gs["MBps"], ws["MBps"], rel=rate_rel)
        assert _close(gs["MiBps"], ws["MiBps"], rel=rate_rel)
        assert _close(gs["io_bytes"], ws["io_bytes"], rel=rate_rel)
    else:
        assert _close(gs["iops"], ws["iops"], abs_=1)
        assert _close(gs["io_bytes"], ws["io_bytes"], abs_=1024)
        assert _close(gs["MBps"], ws["MBps"], abs_=1024 / 1e6)
    if "latpct" in run and not normal:
        # fio put total-latency percentiles into the terse fields, which the line cannot say:
        # reported as completion, with completion's mean (the module's documented limit)
        assert ws["lat_kind"] == "total" and gs["lat_kind"] == "completion"
        return
    assert gs["lat_kind"] == ws["lat_kind"]
    for key in LAT_KEYS:
        g, w = gs["lat_us"][key], ws["lat_us"][key]
        assert (g is None) == (w is None), key
        if w is None:
            continue
        if key == "mean":
            assert _close(g, w, abs_=0.0051 if normal else 1e-6), (key, g, w)
        else:  # whole µs (or a k-suffixed ns figure), truncated or rounded
            assert _close(g, w, rel=1e-3, abs_=1.0), (key, g, w)


def test_normal_output_reads_total_latency_when_fio_printed_its_percentiles():
    got = parse_normal_output(_text("fio-3.33-linux-libaio-randwrite-4k-qd2-nj2-latpct", "normal"))
    assert [m["write"]["lat_kind"] for m in got] == ["total", "total"]
    assert [m["workload"]["numjobs"] for m in got] == [1, 1]  # two blocks, one job each
    assert got[0]["write"]["lat_us"]["p99"] == 7898.0       # "99.00th=[ 7898]" of lat percentiles


def test_normal_output_units_as_printed():
    """``clat (nsec): min=518, max=17298k, avg=370908.27`` and ``IOPS=5775`` are read exactly."""
    m = parse_normal_output(_text("fio-3.33-linux-libaio-randrw70-4k-qd8", "normal"))[0]
    assert (m["read"]["lat_us"]["min"], m["read"]["lat_us"]["max"]) == (0.518, 17298.0)
    assert m["read"]["lat_us"]["mean"] == pytest.approx(370.90827)
    assert (m["read"]["iops"], m["read"]["MBps"], m["read"]["MiBps"]) == (13500.0, 55.2, 52.7)
    assert m["write"]["iops"] == 5775.0 and m["write"]["io_bytes"] == round(45.1 * 2**20)


@pytest.mark.parametrize("text, expected", [
    ("", "no fio result block"),
    ("rr: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
     "ioengine=libaio, iodepth=4\nfio-3.33\nStarting 1 process\n", "no fio result block"),
    ("rr: (groupid=0, jobs=1): err= 0: pid=1: Thu Nov 26 01:15:56 2026\n  read: IOPS=3",
     "has no read or write line"),
    ("rr: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=36.7k, BW=143MiB/s (150MB/s)"
     "(287MiB/2001msec)\n", "is cut off"),
    ("rr: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=36.7k, BW=143XiB/s (150MB/s)"
     "(287MiB/2001msec)\n", "unit fio does not print"),
])
def test_unreadable_normal_output_is_one_line(text, expected):
    with pytest.raises(FioTextError) as caught:
        parse_normal_output(text, source="x.txt")
    assert expected in str(caught.value) and "\n" not in str(caught.value)


def test_unreadable_terse_output_is_one_line():
    line = _text("fio-3.33-linux-libaio-randread-4k-qd4", "terse").splitlines()[0]
    for text, expected in [(line[:200], "fewer than"), ("2;job;0;0;1;2;3", "no fio terse line"),
                           ("5;fio-3.33;j;0;0;" + ";".join(["x"] * 200), "not a number"),
                           ("6;fio-3.33;j;0;0;1", "terse version 6")]:
        with pytest.raises(FioTextError) as caught:
            parse_terse_output(text, source="t.txt")
        assert expected in str(caught.value) and "\n" not in str(caught.value), text[:20]


def test_a_failed_job_has_no_directions_as_in_json():
    line = _text("fio-3.33-linux-libaio-randread-4k-qd4", "terse").splitlines()[0].split(";")
    line[4] = "5"
    m = parse_terse_output(";".join(line))[0]
    assert (m["status"], m["read"], m["write"], m["total"]) == ("failed", None, None, None)
    assert m["error"].startswith("fio job error 5 (")


OLD_LAYOUT = sorted(TEXT.glob("fio-2.2.10-*-normal-append-terse-*.txt"))


@pytest.mark.parametrize("path", OLD_LAYOUT, ids=lambda p: p.name)
def test_old_normal_layout_has_the_terse_numbers_of_the_same_run(path):
    """fio before 2.19 (``read : io=207120KB, bw=103250KB/s, iops=25812, runt=  2006msec``,
    KB = KiB) cannot print JSON beside text (2.2.10 aborts on ``--output-format=json
    --append-terse``), so its normal output is checked against the terse line of the same run
    (``--append-terse``), whose reading is checked against JSON above."""
    text = path.read_text()
    assert parse_fio_text_output(text) == parse_terse_output(text)  # terse wins in such a file
    got, want = parse_normal_output(text), parse_terse_output(text)
    assert len(got) == len(want) == 1 and got[0]["engine_version"] == "fio-2.2.10"
    assert got[0]["workload"]["bs_bytes"] == 4096 and got[0]["workload"]["iodepth"] in (4, 8)
    for direction in ("read", "write"):
        gs, ws = got[0][direction], want[0][direction]
        assert (gs is None) == (ws is None)
        if ws is None:
            continue
        for key in ("io_bytes", "iops", "runtime_ms", "lat_kind"):
            assert gs[key] == pytest.approx(ws[key]), key
        # normal rounds bytes/s to KiB/s, terse truncates: one KiB/s apart at most
        assert gs["MBps"] == pytest.approx(ws["MBps"], abs=1.001 * 1024 / 1e6)
        assert gs["MiBps"] == pytest.approx(ws["MiBps"], abs=1.001 / 1024)
        for key in LAT_KEYS:
            assert gs["lat_us"][key] == pytest.approx(ws["lat_us"][key], abs=0.0051), key


@pytest.mark.parametrize("path", sorted(TEXT.glob("*.txt")), ids=lambda p: p.name)
@pytest.mark.parametrize("ending", ["\r", "\r\n"])
def test_an_output_saved_with_other_line_ends_reads_the_same(path, ending):
    """CR-only line ends (an old Mac editor) were read as one line and misread; CRLF too."""
    text = path.read_text()
    assert parse_fio_text_output(text.replace("\n", ending)) == parse_fio_text_output(text)

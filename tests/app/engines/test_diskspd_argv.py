"""The DiskSpd engine, argv and live: golden argv for every catalog workload, the
fio <-> DiskSpd mapping, the prepare (fill) pass, -c create and the -yp stop event, OS-counter live
samples, and locating the executable.

Parsers are in test_diskspd_parse.py; runs in test_diskspd_run.py.
"""
from __future__ import annotations

import math
import re
import sys
import xml.etree.ElementTree as ET
from collections import namedtuple
from pathlib import Path

import psutil
import pytest

from app.engines import EngineNotFound
from app.engines import diskspd as ds
from app.engines.diskspd import DiskSpdEngine
from app.engines.diskspd.xml import parse_xml_text
from app.experiments import CATALOG
from app.model.workload import Workload
from app.params import build
from app.units import MiB
from jobs.engine import diskspd_live
from jobs.engine.diskspd_live import DiskSpdLive, disk_key_for
from jobs.engine.factory import locate_diskspd

from conftest import FAKES
from diskspd_support import XML_RANDRW, XML_SEQ, make_trial, posix_only

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


def test_golden_argv_for_every_catalog_workload():
    workloads = _catalog_workloads()
    assert set(workloads) == set(GOLDEN), "a catalog workload without a golden DiskSpd argv (or a stale one)"
    for key, w in workloads.items():
        argv = ds.trial_argv("diskspd.exe", make_trial(w), r"C:\t\f.dat", "EV")
        assert argv[0] == "diskspd.exe" and argv[-1] == r"C:\t\f.dat"
        assert " ".join(argv[1:-1]) == GOLDEN[key], key


def test_trial_options_follow_runtime_ramp_direct_interval_and_create():
    w = Workload("randread", 4096)
    argv = ds.trial_argv("d", make_trial(w, runtime=1.5, ramp=2.5, direct=False, interval=0.5, size=32 * MiB),
                         "f", "EV", create=True)
    assert "-d2" in argv and "-W3" in argv and "-D500" in argv  # whole seconds, rounded up
    assert "-Sh" not in argv and not any(a.startswith("-S") for a in argv)
    assert argv[-2:] == ["-c32M", "f"]
    assert not any(a.startswith("-c") for a in ds.trial_argv("d", make_trial(w), "f", "EV"))


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
    back = _fio_from_diskspd(ds.trial_argv("d", make_trial(w), "f", "EV"))
    assert back["iodepth"] * back["numjobs"] == w.iodepth * w.numjobs == w.outstanding
    assert (back["iodepth"], back["numjobs"], back["random"]) == (w.iodepth, w.numjobs, w.random)
    assert back["interlocked"] == (not w.random and w.numjobs > 1)
    expect_mix = w.rwmixread if w.rwmixread is not None else (100 if w.direction == "read" else 0)
    assert back["rwmixread"] == expect_mix
    fio_rw = w.rw if w.rw not in ("randrw", "rw") or 0 < w.rwmixread < 100 else back["rw"]
    assert back["rw"] == fio_rw


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


def test_engine_adds_create_only_when_the_file_is_not_yet_written_and_names_a_fresh_event(tmp_path):
    engine = DiskSpdEngine("diskspd", "DiskSpd 2.2")
    test_file, token = tmp_path / "t.dat", tmp_path / "t.stop"
    w = Workload("write", MiB, 32)
    first = engine.trial_argv(make_trial(w, size=32 * MiB), test_file, token)
    assert "-c32M" in first
    stop = engine.graceful_stop(token)
    assert callable(stop) and stop() is None  # Linux/macOS: nothing to set, terminate follows
    test_file.write_bytes(b"")  # the app creates the test file empty: still to be written
    assert "-c32M" in engine.trial_argv(make_trial(w, size=32 * MiB), test_file, token)
    with open(test_file, "wb") as handle:
        handle.truncate(32 * MiB)
    second = engine.trial_argv(make_trial(w, size=32 * MiB), test_file, token)
    assert not any(a.startswith("-c") for a in second)
    events = [a for a in first + second if a.startswith("-yp")]
    assert len(set(events)) == len(events)  # a set event must never stop the next trial


def test_windows_graceful_stop_sets_the_event_named_in_the_argv(tmp_path, monkeypatch):
    engine = DiskSpdEngine("diskspd", "DiskSpd 2.2", stop=diskspd_live.event_stop)
    argv = engine.trial_argv(make_trial(Workload("randread", 4096)), tmp_path / "t.dat", tmp_path / "t.stop")
    monkeypatch.setattr(sys, "platform", "win32")
    stop = engine.graceful_stop(tmp_path / "t.stop")
    assert isinstance(stop, diskspd_live.NamedEventStop)
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
    key, note = diskspd_live.resolve_disk(tmp_path / "not-yet.dat")
    assert key is None or key in (psutil.disk_io_counters(perdisk=True) or {})
    assert note and (key is not None or "system-wide" in note)


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
    engine = locate_diskspd()
    assert engine.path == str(FAKES / "diskspd") and engine.version == "DiskSpd 2.2"
    linux_port = _script(tmp_path / "diskspd-linux", "print('Usage: diskspd [options] target\\nversion 2.0.17')")
    with pytest.raises(EngineNotFound, match="Linux port"):
        locate_diskspd(str(linux_port))
    other = _script(tmp_path / "other", "print('hello')")
    with pytest.raises(EngineNotFound, match="does not answer like DiskSpd"):
        locate_diskspd(str(other))
    with pytest.raises(EngineNotFound, match="not found at .*missing"):
        locate_diskspd(str(tmp_path / "missing"))  # a set path is used, not bypassed
    monkeypatch.delenv("SSD_PROFILER_DISKSPD")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(EngineNotFound, match="github.com/microsoft/diskspd"):
        locate_diskspd()


def test_both_engines_answer_the_runners_protocol_and_diskspd_is_pure_without_os_hooks(tmp_path):
    """app.engines.base.Engine is what the runner asks; without jobs/' OS side DiskSpd still runs:
    no live values, the XML series at the end, a stop that leaves terminate/kill to do it."""
    from app.engines.base import Engine, LiveAdapter
    from app.engines.diskspd import XmlSeriesLive
    from app.engines.fio import FioEngine
    pure = DiskSpdEngine("diskspd", "DiskSpd 2.2")
    assert isinstance(pure, Engine) and isinstance(FioEngine("fio", "fio-3.33"), Engine)
    live = pure.live(make_trial(Workload("randread", 4096)), tmp_path / "t.dat")
    assert isinstance(live, XmlSeriesLive) and isinstance(live, LiveAdapter) and live.feed("") == []
    assert pure.graceful_stop(tmp_path / "t.stop")() is None

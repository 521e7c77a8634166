"""The pure parts of remote targets: the remote address and folder, the job file made
from a local argv, and what ``fio --client`` prints (lines copied from fio 3.33 client/server
runs on loopback)."""
from __future__ import annotations

import json
from pathlib import PurePosixPath

import pytest

from app.engines.fio import trial_argv
from app.engines.fio.jobfile import client_address, job_text, live_options, split_argv
from app.engines.fio.remote_result import (
    RemoteFioLive,
    ServerLost,
    parse_banner,
    parse_remote_final,
)
from app.experiments.plan import Trial
from app.model.workload import Workload
from app.paths import TargetRefused
from app.remote.target import ancestors, check_remote_folder, parse_remote

STEADY = ("<vm> steadystate 27317 steadystate_check() thread: 0, groupid: 0, rate_msec: 998, "
          "iops: 43205, bw: 176969362, head: 0, tail: 2\n")
BANNER = "hostname=vm, be=0, 64-bit, os=Linux, arch=x86-64, fio=fio-3.33, flags=1\n"


def _trial(rw="randread", mix=None) -> Trial:
    return Trial(0, "zero-queue", Workload(rw, 4096, rwmixread=mix), 1, False, 2.0, 0.0, 1 << 25, True, 1.0)


@pytest.mark.parametrize("text, host, port, v6", [
    ("labserver", "labserver", 8765, False), ("127.0.0.1:18765", "127.0.0.1", 18765, False),
    ("[::1]", "::1", 8765, True), ("[::1]:9000", "::1", 9000, True)])
def test_remote_addresses(text, host, port, v6):
    address = parse_remote(text)
    assert (address.host, address.port, address.ipv6) == (host, port, v6)
    assert client_address(host, port, v6) == f"{'ip6' if v6 else 'ip'}:{host},{port}"


@pytest.mark.parametrize("text", ["", "host:", "host:0", "host:70000", "a b", "::1", "sock:/x", "h,1"])
def test_bad_remote_addresses_are_refused(text):
    with pytest.raises(TargetRefused):
        parse_remote(text)


def test_remote_folder_is_normalized_and_its_ancestors_listed():
    folder = check_remote_folder("//home//you/ssd test ü/")
    assert folder == PurePosixPath("/home/you/ssd test ü")
    assert [str(a) for a in ancestors(folder)] == ["/home", "/home/you", "/home/you/ssd test ü"]


@pytest.mark.parametrize("text", ["/", "rel", "~/x", "/a/./b", "/a/../dev", "/dev", "//sys/x",
                                  "/a:b", "/a;b", "/a#b", "/a/${HOME}", "/a\tb", "/a\nb"])
def test_remote_folders_fio_would_misread_are_refused(text):
    with pytest.raises(TargetRefused):
        check_remote_folder(text)


def test_the_job_file_carries_the_local_options_and_the_client_keeps_its_flags(tmp_path):
    trial = _trial()
    argv = trial_argv("fio", trial, PurePosixPath("/srv/t/ssd-profiler-data/x.dat"),
                      tmp_path / "x.stop", platform="linux")
    client, job = split_argv(argv)
    assert [a.split("=")[0] for a in client] == ["--output-format", "--status-interval", "--trigger-file"]
    text = job_text(job, live_options(trial))
    lines = text.splitlines()
    assert lines[0] == "[zero-queue-randread-4096-q1-t1]"
    assert "filename=/srv/t/ssd-profiler-data/x.dat" in lines and "time_based" in lines
    assert "ioengine=libaio" in lines and "steadystate_duration=62s" in lines
    assert len(lines) == len(job) + 2  # every option kept, one line each


@pytest.mark.parametrize("bad", ["--filename=/a;b", "--filename=/a#b", "--filename=/${X}", "--filename=/a\nb"])
def test_a_value_the_job_file_would_change_is_never_written(bad):
    with pytest.raises(ValueError):
        job_text(["--name=x", bad])


def test_live_lines_give_total_rates_of_one_direction_workloads_only():
    live = RemoteFioLive("read")
    assert live.feed(STEADY[:40]) == []  # a line in pieces waits for its end
    (interval,) = live.feed(STEADY[40:] + "<vm> fio: other text\n")
    assert interval.read_iops == 43205 and round(interval.read_MBps, 1) == 177.0
    assert interval.write_MBps == 0 and interval.read_lat_us is None and interval.duration_s == 0.998
    assert RemoteFioLive(None).feed(STEADY) == []  # a mix cannot be split without guessing


def _entry(runtime_ms: int, ios: int) -> dict:
    lat = {"N": ios, "mean": 50_000.0, "min": 1, "max": 2, "stddev": 0.0}
    return {"jobname": "t", "error": 0, "hostname": "127.0.0.1", "port": 8765, "job options": {},
            "read": {"io_bytes": ios * 4096, "io_kbytes": ios * 4, "total_ios": ios, "runtime": runtime_ms, "iops": 1.0,
                     "bw_bytes": 1, "lat_ns": lat, "clat_ns": lat, "slat_ns": lat},
            "write": {"io_bytes": 0, "total_ios": 0, "runtime": 0}}


def test_the_final_document_gives_the_result_and_the_series_per_interval():
    doc = {"fio version": "fio-3.33", "client_stats": [_entry(893, 1000), _entry(1893, 3000),
                                                        _entry(2001, 3200)]}
    text = BANNER + "<vm> \n" + json.dumps(doc, indent=1) + "\n"
    (result,) = parse_remote_final(text)
    assert result["host"] == "127.0.0.1" and result["read"]["io_bytes"] == 3200 * 4096
    series = RemoteFioLive("read", clock=lambda: 100.0).final_intervals(text)
    assert [round(s.end_epoch_s, 3) for s in series] == [98.892, 99.892, 100.0]
    assert [round(s.read_iops) for s in series] == [1120, 2000, 1852]
    assert parse_banner(text)["fio"] == "fio-3.33"


def test_a_lost_server_is_no_result_even_with_interim_entries():
    doc = {"client_stats": [_entry(893, 1000)]}
    with pytest.raises(ServerLost, match="disconnected"):
        parse_remote_final("client: host=127.0.0.1 disconnected\n" + json.dumps(doc))

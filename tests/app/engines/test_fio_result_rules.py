"""fio JSON parsing on small synthetic documents: the rules one at a time (document splitting,
total vs completion latency, empty directions, mixed-only reporting, workload option forms,
failed jobs). Genuine fio outputs are in test_fio_result.py."""
from __future__ import annotations

import json
import os

import pytest

from app.engines.fio.result import (
    FioParseError,
    parse_fio_document,
    parse_fio_text,
    split_documents,
)


def approx(value: float) -> object:
    return pytest.approx(value, rel=1e-12)


# --- synthetic cases -----------------------------------------------------------------------------

def _direction(io_bytes: int, iops: float, **lat: dict) -> dict:
    return {"io_bytes": io_bytes, "io_kbytes": io_bytes >> 10, "bw_bytes": io_bytes, "bw": io_bytes >> 10,
            "iops": iops, "runtime": 1000, "total_ios": int(iops), **lat}


def _doc(job: dict) -> dict:
    return {"fio version": "fio-3.33", "jobs": [{"jobname": "j", "error": 0, **job}]}


def test_split_documents_skips_text_and_takes_last():
    interim = _doc({"read": _direction(4096, 1.0)})
    final = _doc({"read": _direction(8192, 2.0)})
    text = ("note: both iodepth >= 1 and synchronous I/O engine {odd} \n" + json.dumps(interim, indent=2)
            + "\n" + json.dumps({"not": "fio"}) + "\nfio: terminating on signal 2\n"
            + json.dumps(final, indent=1) + "\n{\"fio version\": \"fio-3.33\", \"jobs\": [")
    docs = split_documents(text)
    assert docs == [interim, final]  # non-fio object and truncated tail are dropped
    (m,) = parse_fio_text(text)
    assert m["read"]["io_bytes"] == 8192 and m["source"] is None


@pytest.mark.parametrize("text", ["", "fio: option <bs> outside of range\n", '{"a": 1}', "{{{"])
def test_no_fio_document_raises(text: str):
    with pytest.raises(FioParseError) as info:
        parse_fio_text(text, source="x.json")
    assert "\n" not in str(info.value) and "x.json" in str(info.value)


def test_document_without_jobs_raises():
    with pytest.raises(FioParseError):
        parse_fio_document({"fio version": "fio-3.33", "jobs": []})


def test_total_latency_when_lat_ns_has_percentiles():
    lat = {"min": 1000, "max": 9000, "mean": 5000.0, "N": 3,
           "percentile": {"50.000000": 4000, "99.900000": 8000, "0.00": 0}}
    clat = {"min": 10, "max": 90, "mean": 50.0, "N": 3, "percentile": {"50.000000": 40}}
    (m,) = parse_fio_document(_doc({"read": _direction(4096, 3.0, lat_ns=lat, clat_ns=clat)}))
    assert m["read"]["lat_kind"] == "total"
    assert m["read"]["lat_us"] == {"min": 1.0, "mean": 5.0, "p50": 4.0, "p95": None, "p99": None,
                                   "p99.9": 8.0, "p99.99": None, "max": 9.0}


def test_no_samples_gives_null_latency():
    clat = {"min": 0, "max": 0, "mean": 0.0, "N": 0}
    (m,) = parse_fio_document(_doc({"read": _direction(4096, 1.0, clat_ns=clat)}))
    assert m["read"]["lat_kind"] == "completion" and m["read"]["lat_us"] is None


def test_mixed_only_reporting():
    (m,) = parse_fio_document(_doc({"mixed": _direction(2_000_000, 10.0)}))
    assert m["read"] is None and m["write"] is None
    assert m["mixed"]["io_bytes"] == 2_000_000
    assert m["total"] == {"iops": 10.0, "MBps": approx(2.0)}
    assert list(m)[-2:] == ["mixed", "total"]


def test_mixed_ignored_when_read_write_present():
    d = _direction(1_000_000, 5.0)
    (m,) = parse_fio_document(_doc({"read": d, "write": d, "mixed": _direction(2_000_000, 10.0)}))
    assert "mixed" not in m and m["total"]["iops"] == 10.0


@pytest.mark.parametrize(("options", "expected"), [
    ({"bs": "4k,64k", "runtime": "2m"}, {"bs_bytes": 4096, "runtime_s": 120.0}),
    ({"bs": "4k-8k", "runtime": "30s"}, {"bs_bytes": 4096, "runtime_s": 30.0}),
    ({"bs": ",8k"}, {"bs_bytes": 8192, "runtime_s": None}),
    ({"bs": "nonsense", "runtime": "1 week"}, {"bs_bytes": None, "runtime_s": None}),
    ({"rwmixread": "70"}, {"rwmixread": 70}),
    ({"rwmixwrite": "30"}, {"rwmixread": 70}),
])
def test_workload_option_forms(options: dict, expected: dict):
    doc = _doc({"job options": options, "read": _direction(4096, 1.0)})
    doc["global options"] = {"bs": "1m", "iodepth": "8"}
    (m,) = parse_fio_document(doc)
    assert {k: m["workload"][k] for k in expected} == expected
    assert m["workload"]["iodepth"] == 8


def test_failed_job_error_text():
    (m,) = parse_fio_document(_doc({"error": 5, "read": _direction(4096, 1.0)}))
    assert m["status"] == "failed" and m["error"] == f"fio job error 5 ({os.strerror(5)})"
    assert m["read"] is None and m["total"] is None

"""The steady rate of the app's own fio trials, from the status documents (app/engines/fio/steady.py;
docs/precision.md, "Counting after the ramp"), on fio outputs made on this project's machine."""
from __future__ import annotations

import json

import pytest

from app.engines.fio import FioEngine
from app.engines.fio.last_document import last_document
from app.engines.fio.result import parse_fio_text
from app.engines.fio.steady import with_runtime_rates
from app.model.measurement import Measurement

from conftest import FIXTURES

LOCAL = FIXTURES / "fio-local"
QD256 = LOCAL / "fio-3.33-linux-libaio-randread-qd256-ramp-iops-throttled-status.json"
NO_RAMP = LOCAL / "fio-3.33-linux-libaio-randrw70-qd4-jsonplus-status.json"


def _own(path) -> dict:
    (m,) = FioEngine("fio", "fio-3.33").parse_final(path.read_text(encoding="utf-8"))
    return m


def test_a_deep_queue_after_a_ramp_is_read_between_the_ramps_end_and_the_drain():
    """120 IOPS, QD 256, 1 s ramp, 3 s: the documents after the ramp's end at 499 ms (59 I/Os
    done) and 2,999 ms (359) give 300 I/Os in 2.5 s; the one taken in the drain (3,499 ms, past
    the 3 s) and the final one (5,103 ms, drain included) are not used. fio's own iops counts
    the 360 issued over the drain's runtime (70.5); its completions over it read 120.5."""
    text = QD256.read_text(encoding="utf-8")
    (imported,) = parse_fio_text(text)
    assert imported["read"]["iops"] == pytest.approx(70.546737, rel=1e-6)
    assert imported["read"]["issued_completed"] == [360, 615]
    read = _own(QD256)["read"]
    assert read["steady_ms"] == 2500.0
    assert read["iops"] == pytest.approx((1470464 - 241664) / 4096 / 2.5)   # 120.0
    assert read["iops"] * 4096 / 1e6 == pytest.approx(read["MBps"], rel=1e-9)
    assert "issued_completed" not in read   # the rates count the same I/Os now
    assert read["runtime_ms"] == 5103 and read["lat_us"] == imported["read"]["lat_us"]


def test_without_status_documents_iops_is_fios_completions_over_its_runtime():
    """Only the final document: fio's bandwidth stands and IOPS counts the same completed I/Os
    over the same runtime (615 in 5,103 ms)."""
    final = last_document(QD256.read_text(encoding="utf-8"), ("jobs",))
    read = FioEngine("fio", "fio-3.33").parse_final(json.dumps(final))[0]["read"]
    assert "steady_ms" not in read
    assert read["iops"] == pytest.approx(615 * 1000 / 5103, rel=1e-3)
    assert read["iops"] * 4096 / 1e6 == pytest.approx(read["MBps"], rel=1e-9)


def test_a_mixed_job_without_a_ramp_counts_both_directions_over_the_same_documents():
    """No ramp: the first and last interim documents (262 and 1,763 ms); each direction's IOPS
    is its bytes over its block size, the total their sum."""
    m = _own(NO_RAMP)
    for direction, first, last in (("read", 13705216, 93016064), ("write", 6135808, 39723008)):
        side = m[direction]
        assert side["steady_ms"] == 1501.0
        assert side["MBps"] == pytest.approx((last - first) / 1.501 / 1e6)
        assert side["iops"] * 4096 / 1e6 == pytest.approx(side["MBps"], rel=1e-9)
    assert m["total"]["iops"] == pytest.approx(m["read"]["iops"] + m["write"]["iops"])


def test_the_span_and_the_rates_survive_run_json():
    m = _own(QD256)
    typed = Measurement.from_json(m)
    assert typed.read.steady_ms == 2500.0 and not typed.counts_disagree
    assert typed.to_json() == m


def test_a_remote_trial_counts_fios_completions_over_its_runtime():
    """A fio client holds its status entries back without the wall time that tells the ramp's
    end: a remote trial's IOPS is the completions over fio's runtime, as its bandwidth is."""
    final = last_document(QD256.read_text(encoding="utf-8"), ("jobs",))
    (m,) = parse_fio_text(json.dumps(final))
    read = with_runtime_rates(m, final["jobs"][0])["read"]
    assert read["iops"] == pytest.approx(615 * 1000 / 5103, rel=1e-3)
    assert "issued_completed" not in read and m["total"]["iops"] == read["iops"]


@pytest.mark.parametrize("path", sorted(LOCAL.glob("*.json")), ids=lambda p: p.name)
def test_the_counts_the_live_stream_kept_give_the_same_rates_without_parsing_again(path, monkeypatch):
    """A trial's end takes the status documents' counts from its live stream (FioLive, fed as
    fio's output came, in pieces) instead of parsing every document again: the same result to
    the last digit; only the final document is decoded again."""
    from app.engines.fio import FioLive, steady
    text = path.read_text(encoding="utf-8")
    engine = FioEngine("fio", "fio-3.33")
    live = FioLive()
    for at in range(0, len(text), 4093):       # pieces that cut documents anywhere
        try:
            live.feed(text[at:at + 4093])
        except ValueError:
            pass                               # (a stream the splitter refuses: counted still)
    expected = engine.parse_final(text)
    class Refused:
        def feed(self, _text):
            raise AssertionError("the status documents were parsed again")
    if live.counts and len(live.counts) >= 3:
        monkeypatch.setattr(steady, "DocumentStream", Refused)
    assert engine.parse_final(text, None, live) == expected


def test_counts_of_another_output_are_not_taken_for_this_one():
    """Counts that are not those of the text (a capped stdout, another trial's stream) are
    left aside: the documents are parsed from the text, as without them."""
    from app.engines.fio import FioLive
    text = QD256.read_text(encoding="utf-8")
    other = FioLive()
    other.feed(NO_RAMP.read_text(encoding="utf-8"))
    engine = FioEngine("fio", "fio-3.33")
    assert engine.parse_final(text, None, other) == engine.parse_final(text)
    cut = FioLive()
    cut.feed(text[len(text) // 2:])            # the first documents never seen
    assert engine.parse_final(text, None, cut) == engine.parse_final(text)


def test_a_long_trial_stops_counting_and_its_memory_stays_flat(monkeypatch):
    """Past MOST_COUNTS documents (a day at 0.1 s would be 864,000) the live stream keeps no
    counts, and the final parse reads the output as without them."""
    from app.engines.fio import FioLive, live
    monkeypatch.setattr(live, "MOST_COUNTS", 3)
    text = QD256.read_text(encoding="utf-8")
    stream = FioLive()
    stream.feed(text)
    assert stream.counts is None
    engine = FioEngine("fio", "fio-3.33")
    assert engine.parse_final(text, None, stream) == engine.parse_final(text)

"""Spec records find their drive without running a regular expression: model_match patterns,
older records' simple model_regex translated by reading it, hostile ones ignored with a note;
figures that are not finite positive numbers refused; the user's specs file read as an input
(a named pipe or a link to /dev/zero is one line, never a hang)."""
from __future__ import annotations

import json
import logging
import os
import re
import threading
import time

import pytest

from app.specs import catalog as vendor
from app.specs.model_match import ModelPattern, normalize, patterns_from_regex
from app.specs.record import VendorSpec

EVIL = "^(a+)+$"
EVIL_MODEL = "a" * 34 + "!"


@pytest.fixture(autouse=True)
def _no_user_specs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "config"))


def _spec(**fields) -> dict:
    return {"id": "x", "source_url": "u", "source_kind": "user", "seq_read_mbps": 1000, **fields}


def _bounded(call, seconds: float = 10.0):
    """``call()`` in a thread: its result, failing (not hanging the suite) past ``seconds``."""
    out: list = []

    def work():
        try:
            out.append(call())
        except BaseException as exc:  # noqa: BLE001 (raised again in the test's thread)
            out.append(exc)
    worker = threading.Thread(target=work, daemon=True)
    started = time.monotonic()
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still running after {seconds} s"
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0], time.monotonic() - started


def test_a_backtracking_regex_of_a_record_is_never_run():
    spec = VendorSpec.from_json(_spec(model_regex=EVIL))
    found, elapsed = _bounded(lambda: spec.describes_model(EVIL_MODEL))
    assert found is False and elapsed < 1.0
    assert spec.patterns == () and "never run" in spec.pattern_note and "\n" not in spec.pattern_note
    assert vendor.validate_spec(_spec(model_regex=EVIL)) == []   # usable: the figures still hold


def test_bundled_patterns_are_linear_in_a_model_repeating_their_prefix():
    """'PM9A1.*512' took 3.5 s on 100 k characters of 'PM9A1' with re; every bundled pattern's
    first piece repeated to 100 k characters now takes well under a second, all of them."""
    specs = vendor.load_specs()
    models = []
    for spec in specs:
        for pattern in VendorSpec.from_json(spec).patterns:
            piece = pattern.pieces[0]
            models.append((piece * (100_000 // len(piece) + 1))[:100_000] + "!")
    started = time.monotonic()
    for model in models:
        vendor.match_spec(model, specs)
    assert time.monotonic() - started < 10.0
    assert len(models) > 60


@pytest.mark.parametrize("pattern, model, found", [
    ("PM9A1*512", "SAMSUNG PM9A1 NVMe 512GB", True),
    ("PM9A1*512", "512 PM9A1", False),
    ("^Samsung SSD 990 PRO 1TB$", "  samsung ssd  990 pro 1tb ", True),
    ("^Samsung SSD 990 PRO 1TB$", "Samsung SSD 990 PRO 1TB x", False),
    ("^Samsung*1TB$", "Samsung SSD 990 PRO 1TB", True),
    ("^Samsung*1TB$", "Samsung 1TB SSD", False),
    ("WD_BLACK SN850X", "WDBLACK-SN850X 1000GB", True),
    ("a*a*a", "aa", False),
    ("^ab*b$", "ab", False),
])
def test_model_patterns(pattern, model, found):
    assert ModelPattern.parse(pattern).matches(normalize(model)) is found


@pytest.mark.parametrize("regex", [
    "^" + re.escape("ACME FooDrive 1TB (rev. 2)") + "$",   # what user_spec wrote
    re.escape("990 PRO"), "MZVL2512HCJQ|PM9A1.*512", r"WD_?BLACK\s*SN750\s*SE.*1\s*TB",
    r"D7-?P5600.*1\.6\s*TB", r"Micron[ _]2300\b.*\b256\s*GB", "^Samsung SSD 990 PRO 1TB$",
])
def test_simple_regexes_of_older_records_are_translated(regex):
    """Each finds what re finds, on models with and without the text."""
    texts = patterns_from_regex(regex)
    assert texts is not None
    spec = VendorSpec.from_json(_spec(model_regex=regex))
    for model in ("ACME FooDrive 1TB (rev. 2)", "Samsung SSD 990 PRO 1TB", "SAMSUNG PM9A1 512GB",
                  "WD_BLACK SN750 SE 1TB", "INTEL D7-P5600 1.6TB", "Micron 2300 NVMe 256GB",
                  "Micron 2300 NVMe 512GB", "ACME 1TB", "MZVL2512HCJQ-00BL7"):
        expected = bool(re.search(regex, model, re.IGNORECASE))
        assert spec.pattern_finds(normalize(model)) is expected, (regex, model)


@pytest.mark.parametrize("regex", [EVIL, r"MTFDK\w{2}512QFM", r"CT\d+P2SSD8", "PM9A1.512",
                                   "Micron[ _]2200[SV]?", "(x)", "a{3}", "\\", "x\\*", ".*"])
def test_other_regexes_are_not_translated(regex):
    assert patterns_from_regex(regex) is None


def test_records_the_app_writes_store_plain_text():
    spec = vendor.user_spec("ACME FooDrive 1TB", seq_read_mbps=3000)
    assert spec["model_match"] == ["^ACME FooDrive 1TB$"] and "model_regex" not in spec
    assert vendor.match_spec("acme foodrive 1tb", [spec]) is spec
    assert all("model_regex" not in s and s["model_match"] for s in vendor.load_specs())
    assert vendor.validate_spec(_spec(model_match=["*"])) and vendor.validate_spec(_spec(model_match="x"))


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e400", "-5", "0", '"fast"'])
def test_figures_must_be_finite_and_positive(text):
    record = json.loads('{"id": "x", "source_url": "u", "source_kind": "user", '
                        f'"seq_read_mbps": {text}, "test_conditions": {{"seq_qd": {text}}}}}')
    assert vendor.validate_spec(record) == [f"seq_read_mbps must be a finite positive number or "
                                             f"null, not {record['seq_read_mbps']}"]
    spec = VendorSpec.from_json(record)    # a run's own record is never validated: dropped
    assert spec.figures == {} and spec.conditions.seq_qd is None


def _hostile_config(tmp_path, kind: str):
    folder = tmp_path / "config" / "ssd-profiler"
    folder.mkdir(parents=True)
    path = folder / "vendor_specs.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_text("[" * 100_000 + "]" * 100_000)
    return path


@pytest.mark.parametrize("kind, says", [("fifo", "named pipe"), ("zero", "device"),
                                        ("deep", "nested too deeply")])
def test_a_hostile_user_specs_file_is_one_line_never_a_hang(tmp_path, caplog, kind, says):
    path = _hostile_config(tmp_path, kind)
    with pytest.raises(vendor.UserSpecsUnreadable, match=says) as caught:
        _bounded(vendor.read_user_specs)
    assert "\n" not in str(caught.value)
    with caplog.at_level(logging.WARNING):
        specs, _ = _bounded(vendor.load_user_specs)
        _bounded(vendor.load_user_specs)
    assert specs == []
    assert [r.getMessage() for r in caplog.records if says in r.getMessage()] == \
        [f"vendor specs not used: {caught.value}"]   # once, not once per look-up
    with pytest.raises(vendor.UserSpecsUnreadable):   # and a save leaves it as it is
        vendor.save_user_spec(vendor.user_spec("ACME X", seq_read_mbps=1))
    assert path.is_symlink() if kind == "zero" else path.exists()


def test_a_records_texts_are_cut_visibly():
    """A shared run's spec can carry megabytes in a name; the report lays out what it gets."""
    spec = VendorSpec.from_json(_spec(family="F" * 1_000_000, notes="n" * 1_000_000,
                                      test_conditions={"seq_bs": "1" * 1_000_000}))
    assert len(spec.name) < 300 and spec.name.endswith("(cut at 200 characters)")
    assert len(spec.notes) < 2100 and len(spec.conditions.seq_bs) < 300


def test_a_hand_edited_record_that_does_not_validate_is_left_out(tmp_path, caplog):
    """A NaN figure in the user's file went into run.json at the start of a run, whose writer
    refuses NaN: the run failed. The record is left out (said once), the others are used."""
    path = vendor.user_specs_path()
    path.parent.mkdir(parents=True)
    good = vendor.user_spec("ACME Good", seq_read_mbps=1000)
    bad = {**vendor.user_spec("ACME Bad"), "seq_read_mbps": "NaN-to-be"}
    path.write_text(json.dumps({"specs": [bad, good]}).replace('"NaN-to-be"', "NaN"))
    with caplog.at_level(logging.WARNING):
        assert vendor.load_user_specs() == [good]
        assert vendor.spec_at_run_start({"model": "ACME Bad"}) is None
        assert vendor.spec_at_run_start({"model": "ACME Good"}) == good
    (line,) = [r.getMessage() for r in caplog.records]
    assert "'user-acme-bad'" in line and "finite positive" in line
    assert len(vendor.read_user_specs()) == 2   # the file itself is the user's: kept whole

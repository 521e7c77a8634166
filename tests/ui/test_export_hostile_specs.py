"""Vendor specs from places the app does not control: a shared run folder's own spec with a
backtracking regular expression, a config folder whose vendor_specs.json is a named pipe or a
link to /dev/zero, and ``--vendor-spec`` naming deep JSON, a pipe, a link, or figures of NaN or
1e400. Export ends quickly; a refusal is exit 2 with one line saying what is wrong.

The run is a copy of a real run (tests/fixtures/runs) with its run.json changed.
"""
from __future__ import annotations

import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from spec_support import EVIL_MODEL, EVIL_SPEC, RUN, hostile_config, hostile_run  # noqa: E402

from app.report.export import export_run  # noqa: E402

from conftest import run_cli  # noqa: E402


@pytest.fixture(autouse=True)
def _isolated_user_specs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


@pytest.mark.timeout(120)
def test_a_shared_runs_backtracking_regex_is_never_run(tmp_path):
    """It ran for hours (its time doubles with each 'a'); now it is ignored, and said so."""
    run_dir = hostile_run(tmp_path / "run", EVIL_MODEL, EVIL_SPEC)
    started = time.monotonic()
    out = export_run(run_dir, tmp_path / "out")
    assert time.monotonic() - started < 10.0
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "model_regex is not plain text and was ignored" in report
    assert "Drive mismatch" in report   # the spec cannot be known to describe this drive


@pytest.mark.timeout(120)
def test_bundled_patterns_against_a_model_repeating_their_prefix(tmp_path):
    """'PM9A1.*512' was quadratic: 100 k characters of 'PM9A1' took 3.5 s in the matching alone."""
    run_dir = hostile_run(tmp_path / "run", ("PM9A1" * 20_000) + "!", None)
    started = time.monotonic()
    out = export_run(run_dir, tmp_path / "out")
    assert time.monotonic() - started < 10.0 and (out / "report.md").exists()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("kind, says", [("fifo", "named pipe"), ("zero", "a device")])
def test_a_hostile_config_file_is_one_warning_line(tmp_path, kind, says):
    """A FIFO hung the export; a link to /dev/zero read 3.4 GB into a MemoryError."""
    hostile_config(tmp_path / "config", kind)
    run_dir = hostile_run(tmp_path / "run", "ACME FooDrive 1TB", None)
    done = run_cli("export", str(run_dir), "--out", str(tmp_path / "out"), timeout=240,
                   env={"XDG_CONFIG_HOME": str(tmp_path / "config")})
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "vendor_specs.json" in line]
    assert len(warnings) == 1 and says in warnings[0] and "left as it is" in warnings[0]
    assert "No vendor spec for ACME FooDrive 1TB" in (tmp_path / "out" / "report.md").read_text()


def _refused(tmp_path, name: str) -> str:
    out = tmp_path / "out"
    done = run_cli("export", str(RUN), "--out", str(out), "--vendor-spec", name, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not out.exists() and "Traceback" not in done.stderr
    return done.stderr


def test_deep_json_is_refused_in_one_line(tmp_path):
    spec = tmp_path / "deep.json"
    spec.write_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in _refused(tmp_path, str(spec))


@pytest.mark.parametrize("kind, says", [
    ("fifo", "is a named pipe (FIFO), not a regular file"),
    ("zero", "is a symbolic link to /dev/zero, which is a device, not a regular file"),
    ("dangling", "is a symbolic link to"),
    ("folder", "is a folder, not a file")])
def test_a_spec_name_that_is_not_a_file_says_what_it_is(tmp_path, kind, says):
    """It said "no such file" for a pipe and a link, sending users looking for a typo."""
    path = tmp_path / "spec.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "dangling":
        path.symlink_to(tmp_path / "gone.json")
    else:
        path.mkdir()
    message = _refused(tmp_path, str(path))
    assert says in message and "no such file" not in message
    if kind == "dangling":
        assert "which does not exist" in message


@pytest.mark.parametrize("figure", ["NaN", "Infinity", "1e400", "-1"])
def test_spec_figures_must_be_finite_and_positive(tmp_path, figure):
    spec = tmp_path / "spec.json"
    spec.write_text('{"id": "mine", "source_url": "datasheet", "source_kind": "user", '
                    f'"model_match": ["ACME"], "seq_read_mbps": {figure}}}')
    assert "seq_read_mbps must be a finite positive number" in _refused(tmp_path, str(spec))

"""`ssd-profiler import` is bounded: whatever FILE names, one line and exit 2.

Every hostile case runs the real CLI as a subprocess and checks the contract: exit 2, exactly
one stderr line ``ssd-profiler: error: FILE: reason``, no traceback, nothing printed as a
result, and every byte of every file around it unchanged. ``--save RUN_DIR`` never writes
over, into or through what is not the app's own, and never leaves a temp file behind.
"""
from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from conftest import FIXTURES, run_cli
from safety_support import assert_one_error, posix_only, snapshot

FIO = FIXTURES / "fio" / "fio-3.16-linux-libaio-randrw-qd1-nj1-json.json"
DISKSPD_XML = FIXTURES / "diskspd" / "diskspd-2.0.21a-win-seqread-64k-4threads-nolatency.xml"
def _fio_doc() -> dict:
    return json.loads(FIO.read_text())


def _fio_with(change) -> str:
    doc = _fio_doc()
    change(doc["jobs"][0])
    return json.dumps(doc)


def _set(path: list[str], value):
    def change(job):
        node = job
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def _diskspd(old: str, new: str) -> str:
    text = DISKSPD_XML.read_text()
    assert old in text
    return text.replace(old, new, 1)


# name -> (file content as bytes or str, a word the reason must contain)
CONTENT_CASES = {
    "empty": (b"", "empty"),
    "blank": (b"  \n\n\t\n", "white space"),
    "binary": (bytes(range(256)) * 64, "binary"),
    "utf16-bom": (FIO.read_text().encode("utf-16"), "UTF-16"),
    "utf16-no-bom": (FIO.read_text().encode("utf-16-le"), "UTF-16"),
    "deep-array": ("[" * 100000, "no fio JSON result"),
    "deep-in-doc": ('{"jobs": ' + "[" * 100000, "nested too deeply"),
    "deep-object": ('{"jobs": [' + '{"a":' * 100000, "nested too deeply"),
    "huge-brace-line": ("x" + "{" * (8 * 2**20), "no fio JSON result"),
    "huge-line": ("y" * (8 * 2**20), "no fio JSON result"),
    "nan-iops": (_fio_with(_set(["read", "iops"], float("nan"))), "not a finite number"),
    "inf-bw": (_fio_with(_set(["read", "bw_bytes"], float("inf"))), "not a finite number"),
    "negative-iops": (_fio_with(_set(["read", "iops"], -5)), "read.iops is -5"),
    "absurd-iops": (_fio_with(_set(["read", "iops"], 5e9)), "plausible"),
    "negative-bytes": (_fio_with(_set(["write", "io_bytes"], -4096)), "write.io_bytes"),
    "hour-latency": (_fio_with(_set(["read", "clat_ns", "mean"], 4e12)), "lat_us.mean"),
    "negative-iodepth": (_fio_with(_set(["job options", "iodepth"], "-4")), "iodepth"),
    "wrong-type": (_fio_with(_set(["read", "io_bytes"], {"a": 1})), "wrong kind of value"),
    "nested-job-name": (_fio_with(_set(["jobname"], json.loads("[" * 900 + "]" * 900))),
                        "job is a list, not text"),
    "jobs-not-objects": (json.dumps({"fio version": "fio-3.1", "jobs": [1, 2]}), "wrong kind"),
    "overflow": (_fio_with(_set(["read", "runtime"], 1e308 * 10)), "OverflowError"),
    "diskspd-overflow": (_diskspd("<ReadBytes>1484062720", "<ReadBytes>1e999"), "wrong kind"),
    "diskspd-absurd": (_diskspd("<TestTimeSeconds>30.02", "<TestTimeSeconds>0.000000001"),
                       "plausible"),
    "diskspd-negative": (_diskspd("<TestTimeSeconds>30.02", "<TestTimeSeconds>-30.02"),
                         "plausible"),
}


@pytest.fixture
def area(tmp_path) -> Path:
    """A folder of the user's own files next to the input, checked after every case."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.md").write_text("my own words\n")
    (mine / "data.bin").write_bytes(os.urandom(4096))
    return tmp_path


def _write_cases(area: Path) -> list[Path]:
    paths = []
    for case in sorted(CONTENT_CASES):
        content = CONTENT_CASES[case][0]
        path = area / f"{case}.json"
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        paths.append(path)
    return paths


@pytest.mark.parametrize("case", ["empty", "utf16-bom", "deep-in-doc", "nan-iops"])
def test_hostile_content_is_one_line_and_exit_2(area, case):
    content, word = CONTENT_CASES[case]
    path = area / f"{case}.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    before = snapshot(area)
    done = run_cli("import", str(path), timeout=60)
    assert word in assert_one_error(done, str(path))
    assert done.stdout == ""
    assert snapshot(area) == before


def test_every_hostile_content_gets_its_own_line(area):
    """All cases in one process (fast): one line each, in order, with its reason."""
    paths = _write_cases(area)
    before = snapshot(area)
    done = run_cli("import", *map(str, paths), "--json", timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr + done.stdout
    assert json.loads(done.stdout) == []
    lines = done.stderr.splitlines()
    assert len(lines) == len(paths), done.stderr
    for path, line in zip(paths, lines):
        assert line.startswith(f"ssd-profiler: error: {path}: "), line
        assert CONTENT_CASES[path.stem][1] in line, line
    assert snapshot(area) == before


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "folder", "socket", "/dev/null", "/dev/zero",
                                  "missing", "too-big"])
def test_files_that_are_not_small_regular_files_are_refused_unopened(area, kind):
    path = area / kind.replace("/", "_")
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "socket":
        path = Path("/tmp") / f"ssd-import-{os.getpid()}.sock"  # AF_UNIX paths are short
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
    elif kind.startswith("/dev"):
        path = Path(kind)
    elif kind == "too-big":
        with open(path, "wb") as handle:
            handle.truncate(64 * 2**20 + 1)  # sparse: costs no disk
    before = snapshot(area)
    try:
        done = run_cli("import", str(path), timeout=30)  # a FIFO that is opened hangs here
    finally:
        if kind == "socket":
            sock.close()
            path.unlink()
    line = assert_one_error(done, str(path))
    expect = {"fifo": "named pipe", "folder": "folder", "socket": "socket", "/dev/null": "device",
              "/dev/zero": "device", "missing": "No such file", "too-big": "64 MiB"}[kind]
    assert expect in line
    assert snapshot(area) == before


@posix_only
def test_pathological_diskspd_text_is_cut_off_by_the_parse_deadline(area):
    """The DiskSpd text parser is quadratic in latency-table headers; the deadline bounds it."""
    path = area / "tables.txt"
    path.write_text("Total IO\n" + "%-ile |  1 | 2 | 3\n" * 400_000)
    done = run_cli("import", str(path), env={"SSD_PROFILER_PARSE_SECONDS": "1"}, timeout=30)
    assert "took over 1 s to parse" in assert_one_error(done, str(path))


def test_good_files_are_still_printed_beside_one_line_per_bad_file(area):
    bad = area / "bad.json"
    bad.write_text(_fio_with(_set(["read", "iops"], float("nan"))))
    done = run_cli("import", str(FIO), str(bad), str(area / "none.json"), "--json")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith("ssd-profiler: error: ") for line in lines)
    assert [m["source"] for m in json.loads(done.stdout)] == [str(FIO)]


def test_a_newline_in_a_file_name_stays_on_one_line(area):
    path = area / "two\nlines.json"
    path.write_text("not json")
    line = assert_one_error(run_cli("import", str(path)))
    assert "two\\nlines.json" in line


# -- --save RUN_DIR ------------------------------------------------------------------------------
def test_save_writes_only_run_json_into_a_new_folder(area):
    done = run_cli("import", str(FIO), "--save", str(area / "runs" / "new"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == str(area / "runs" / "new")
    assert sorted(os.listdir(area / "runs" / "new")) == ["run.json"]
    done = run_cli("export", str(area / "runs" / "new"))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("kind", ["file", "non-empty", "link-to-folder", "dangling-link",
                                  "under-a-file"])
def test_save_refuses_what_is_not_a_new_folder_before_reading_anything(area, kind):
    target = area / "target"
    mine = area / "mine"
    if kind == "file":
        target.write_text("my file\n")
    elif kind == "non-empty":
        target = mine
    elif kind == "link-to-folder":
        empty = area / "empty"
        empty.mkdir()
        target.symlink_to(empty, target_is_directory=True)
    elif kind == "dangling-link":
        target.symlink_to(area / "nowhere")
    elif kind == "under-a-file":
        target = mine / "thesis.md" / "run"
    before = snapshot(area)
    done = run_cli("import", str(FIO), "--save", str(target))
    line = assert_one_error(done)
    assert line.startswith(f"ssd-profiler: error: --save {target}")
    assert done.stdout == ""
    assert snapshot(area) == before


def test_save_writes_nothing_when_any_file_is_refused(area):
    bad = area / "bad.json"
    bad.write_text("")
    before = snapshot(area)
    done = run_cli("import", str(FIO), str(bad), "--save", str(area / "run"))
    assert_one_error(done, str(bad))
    assert not (area / "run").exists() and snapshot(area) == before


def test_a_failed_save_leaves_no_temp_file_and_no_folder(tmp_path, monkeypatch):
    from app.results.imported import run_from_measurements
    from app.store.new_folder import write_run_folder
    from app.store.run_folder import write_json_atomic
    record = run_from_measurements(json.loads(run_cli("import", str(FIO), "--json").stdout))

    def refuse(*_args, **_kw):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        write_run_folder(record, tmp_path / "run")
    assert os.listdir(tmp_path) == []
    monkeypatch.undo()
    with pytest.raises(ValueError):  # NaN: refused before any file exists
        write_json_atomic(tmp_path / "x.json", {"iops": float("nan")})
    assert os.listdir(tmp_path) == []
    (tmp_path / "mine.json").symlink_to(tmp_path / "precious")
    (tmp_path / "precious").write_text("keep")
    write_json_atomic(tmp_path / "mine.json", {"a": 1})   # replaces the link, never follows it
    assert (tmp_path / "precious").read_text() == "keep"
    assert sorted(os.listdir(tmp_path)) == ["mine.json", "precious"]

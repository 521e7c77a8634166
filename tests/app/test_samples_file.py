"""A shared run folder's samples.csv is read with bounds by every reader.

What a hostile folder puts at samples.csv: a FIFO (an open() that never returns), a link to
/dev/zero (endless), a link to someone's file, a 300 MiB file, a header of 200,000 columns.
Each reader (summary and export, ``load_runs`` and ``compare``, the window's reopen) refuses it
with one line naming the file, at once, and reads nothing else; the CLI's export goes on
without the live figures, ``compare`` exits 2.
"""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from app.runs import load_runs
from app.store.samples import read_sample_table
from app.store.samples_file import MAX_SAMPLES_BYTES, SamplesRefused, open_samples
from ui.window.run.past_runs import load_past_run

from conftest import FIXTURES, run_cli
from safety_support import assert_one_error

(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _elsewhere(path: Path) -> None:
    other = path.parent.parent / "someone-elses.csv"
    shutil.copy(RUN / "samples.csv", other)
    path.symlink_to(other)


def _huge(path: Path) -> None:
    with open(path, "wb") as handle:
        handle.write(b"trial,t_s\n")
        handle.truncate(MAX_SAMPLES_BYTES + (44 << 20))  # sparse: nothing is written


def _wide(path: Path) -> None:
    path.write_text(",".join(f"c{i}" for i in range(200_000)) + "\n" + "1," * 199_999 + "1\n")


HOSTILE = {"fifo": (_fifo, "named pipe"), "dev-zero": (_zero, "link"),
           "link-out": (_elsewhere, "link"), "huge": (_huge, "MiB"), "wide": (_wide, "header")}


def _hostile_run(tmp_path: Path, kind: str) -> tuple[Path, str]:
    run_dir = shutil.copytree(RUN, tmp_path / "runs" / RUN.name)
    (run_dir / "samples.csv").unlink()
    make, words = HOSTILE[kind]
    make(run_dir / "samples.csv")
    return run_dir, words


@pytest.fixture(params=list(HOSTILE))
def hostile(request, tmp_path) -> tuple[Path, str]:
    return _hostile_run(tmp_path, request.param)


def _refused(call, words: str) -> str:
    started = time.monotonic()
    with pytest.raises(ValueError) as caught:
        call()
    assert time.monotonic() - started < 5
    message = str(caught.value)
    assert "\n" not in message and "samples.csv" in message and words in message, message
    return message


def test_every_reader_refuses_it_at_once(hostile):
    run_dir, words = hostile
    _refused(lambda: read_sample_table(run_dir), words)
    _refused(lambda: load_runs([run_dir]), words)
    _refused(lambda: load_past_run(run_dir), words)


@pytest.mark.parametrize("kind", ["fifo", "wide"])  # the readers above take every kind
def test_the_cli_export_goes_on_without_it_and_compare_refuses(tmp_path, kind):
    run_dir, words = _hostile_run(tmp_path, kind)
    done = run_cli("export", str(run_dir), "--out", str(tmp_path / "exp"), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "samples.csv" in done.stderr and words in done.stderr and "Traceback" not in done.stderr
    other = shutil.copytree(RUN, tmp_path / "other")
    line = assert_one_error(run_cli("compare", str(other), str(run_dir), timeout=60))
    assert "samples.csv" in line and words in line


def test_a_file_that_grows_past_the_cap_while_read_is_refused(tmp_path):
    path = shutil.copy(RUN / "samples.csv", tmp_path / "samples.csv")
    names, handle = open_samples(tmp_path, limit=path.stat().st_size + 100)
    with open(path, "a") as more:  # another program appends after the checks
        more.write("0,1.0\n" * 1000)
    with handle, pytest.raises(SamplesRefused, match="grew past"):
        handle.read()
    assert names[:2] == ["trial", "t_s"]

"""Text from shared files reaches the terminal as text: no escape sequence from a run.json's
drive model (``compare``) or a fio job name (``import``) is passed on.

Both commands run as a user runs them, once into a pipe and once onto a real terminal (a pty,
where rich draws its own colours): the planted sequences (window title, clear screen, a
hyperlink) never come out, and the text around them does.
"""
from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli.terminal import terminal_text

from conftest import FIXTURES, REPO, run_cli

EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b]8;;http://x.invalid\x1b\\Evil\x1b]8;;\x1b\\\x9b31m Drive\x08"
(RUN,) = [p for p in (FIXTURES / "runs").iterdir() if p.is_dir() and p.name.startswith("2026")]
FIO = FIXTURES / "fio" / "fio-3.16-linux-libaio-randrw-qd1-nj1-json.json"


def _on_a_terminal(*args: str) -> str:
    """``ssd-profiler ARGS`` with stdout and stderr on a pseudo-terminal; what it printed."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "ui.main", *args], cwd=REPO,
                            stdout=follower, stderr=follower, stdin=subprocess.DEVNULL,
                            env={**os.environ, "COLUMNS": "200", "TERM": "xterm"})
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the program ended and closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    proc.wait(60)
    return out.decode("utf-8", "replace")


def _clean(text: str) -> None:
    for planted in ("\x1b]", "\x1b[2J", "pwned", "x.invalid", "\x9b", "\x08", "\x07"):
        assert planted not in text, (planted, text[-2000:])


@pytest.fixture
def two_runs(tmp_path) -> list[Path]:
    dirs = [shutil.copytree(RUN, tmp_path / "a"), shutil.copytree(RUN, tmp_path / "b")]
    record = json.loads((dirs[1] / "run.json").read_text())
    record["drive"] = {**(record.get("drive") or {}), "model": EVIL}
    (dirs[1] / "run.json").write_text(json.dumps(record))
    return dirs


def test_a_drive_model_from_a_shared_run_is_printed_as_text(two_runs):
    done = run_cli("compare", *map(str, two_runs))
    assert done.returncode == 0, done.stderr
    _clean(done.stdout + done.stderr)
    assert "Evil" in done.stdout
    shown = _on_a_terminal("compare", *map(str, two_runs))
    _clean(shown)
    assert "Evil" in shown


def test_a_fio_job_name_from_an_imported_file_is_printed_as_text(tmp_path):
    doc = json.loads(FIO.read_text())
    doc["jobs"][0]["jobname"] = EVIL
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc))
    done = run_cli("import", str(forged))
    assert done.returncode == 0, done.stderr
    _clean(done.stdout + done.stderr)
    assert "Evil" in done.stdout
    shown = _on_a_terminal("import", str(forged))
    _clean(shown)
    assert "Evil" in shown
    as_json = run_cli("import", str(forged), "--json")
    assert "\x1b" not in as_json.stdout and json.loads(as_json.stdout)[0]["job"] == EVIL


def test_terminal_text_keeps_text_and_line_breaks():
    # sequences go; a lone control character (a backspace, a carriage return that would
    # overwrite the line) or a bidirectional override is shown as its escape, as in the reports
    assert terminal_text(EVIL) == "Evil Drive\\u0008"
    assert terminal_text("a\tb\nc µs ±\r\n") == "a\tb\nc µs ±\n"
    assert terminal_text("\x1b[1;31mred\x1b[0m \x1bPdcs\x1b\\ok\r") == "red ok\\u000d"
    assert terminal_text("exe.\u202etxt") == "exe.\\u202etxt"

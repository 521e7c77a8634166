"""`run --dry-run` prints the plan and writes nothing; `presets` and `--preset` name what the
window offers."""
from __future__ import annotations

import json
import os

import pytest

from conftest import needs_fio, run_cli, tree


def _everything(*folders) -> dict:
    """Every path and its size and mtime under the folders: the proof that nothing was written."""
    out = {}
    for folder in folders:
        for root, dirs, files in os.walk(folder):
            for name in dirs + files:
                path = os.path.join(root, name)
                st = os.lstat(path)
                out[path] = (st.st_size, st.st_mtime_ns)
    return out


@needs_fio
def test_dry_run_prints_the_plan_and_writes_nothing(tmp_path):
    target, runs, data = tmp_path / "my target: 'quoted'", tmp_path / "runs", tmp_path / "xdg"
    target.mkdir()
    (target / "thesis.txt").write_text("keep me")
    before = _everything(tmp_path)
    done = run_cli("run", "zero-queue", "queue-depth", "--target", str(target), "--dry-run",
                   "--preset", "quick", "--set", "queue-depth.queue_depths=1,4", "--seed", "7",
                   "--out", str(runs), env={"XDG_DATA_HOME": str(data)})
    assert done.returncode == 0, done.stderr
    assert _everything(tmp_path) == before and not runs.exists() and not data.exists()
    out = done.stdout
    assert "Plan: 6 trials, about 0:30 of measuring" in out and "(seed 7)" in out
    assert "Nothing was written: this was a dry run." in out
    commands = [line for line in out.splitlines() if line[:2] in ("1:", "6:")]
    assert len(commands) == 2 and all("--runtime=5000ms" in c for c in commands)
    # one quoting for commands: the ':' and quotes of the folder name survive a POSIX shell
    assert "'\"'\"'quoted'\"'\"'" in out
    assert "Writes: 512 MiB to fill test files once" in out  # 256 MiB per experiment


@needs_fio
def test_dry_run_json_is_one_document(tmp_path):
    done = run_cli("run", "zero-queue", "--target", str(tmp_path), "--dry-run", "--json",
                   "--set", "runtime=2s", "--set", "repetitions=2")
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert plan["trials"] == len(plan["commands"]) == 12  # 4 warm-ups + 4 x 2 repetitions
    assert plan["estimated_s"] == pytest.approx(12 * 2.0)
    assert all(c["argv"][0].endswith("fio") for c in plan["commands"])
    assert tree(tmp_path) == []


def test_bad_input_in_a_dry_run_is_one_line_and_exit_2(tmp_path):
    done = run_cli("run", "zero-queue", "--target", str(tmp_path), "--dry-run",
                   "--set", "queue_depths=0")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
    done = run_cli("run", "zero-queue", "--target", str(tmp_path), "--preset", "fastest")
    assert done.returncode == 2 and "invalid choice" in done.stderr


def test_presets_lists_what_the_window_offers():
    done = run_cli("presets")
    assert done.returncode == 0
    assert "quick    Quick (5 s trials, 1 repetition): runtime=5s, repetitions=1" in done.stdout
    assert done.stdout.startswith("course")


def test_preset_values_go_only_to_experiments_that_have_them():
    from app.experiments.plan import settings_with_preset
    got = settings_with_preset(["zero-queue"], "quick", {"runtime": "2s"})
    assert got["runtime"] == "2s" and got["repetitions"] == "1"  # --set wins over the preset
    assert settings_with_preset(["zero-queue"], None, {"a": "b"}) == {"a": "b"}


def test_a_command_line_mistake_is_one_line_with_where_the_help_is():
    for args in (["run", "zero-queue"], ["bogus"], ["run", "zero-queue", "--target", "x", "--seed", "q"]):
        done = run_cli(*args)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "error:" in done.stderr and "--help`" in done.stderr and "usage:" not in done.stderr

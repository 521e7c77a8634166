"""Direct I/O honesty (app/paths/direct_io.py): the probe on this machine's own file system, a
real file system that accepts O_DIRECT and buffers it anyway (a loop-mounted ext4 with
data=journal, root only) refused with one line and exit 2 before anything is written outside the
app's folder, a tmpfs (refused before Linux 6.6, accepted since), and the mode in effect recorded
per trial."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from app.paths import OwnedFolder, check_target, new_run_id
from app.paths.direct_io import DirectIORefused, direct_in_effect, method_text, probe_direct_io

from conftest import mounted, needs_fio, needs_root, run_cli

TINY = ["--set", "runtime=1s", "--set", "size=16MiB", "--set", "repetitions=1",
        "--set", "warmup=false"]


class _Exp:
    def __init__(self, eid: str, direct: bool):
        self.id, self.direct = eid, direct


def _probe(folder: Path, experiments, sys_root: str = "/sys") -> dict:
    checked = check_target(folder, 1 << 20, ("ram",))
    owner = OwnedFolder(checked, new_run_id())
    owner.acquire()
    try:
        return probe_direct_io(owner, experiments, checked.fs_type, sys_root)
    finally:
        owner.release()


def test_this_file_system_does_direct_io_and_the_probe_leaves_nothing(tmp_path):
    folder = tmp_path / "bench"
    found = _probe(folder, [_Exp("zero-queue", True)])
    if not hasattr(os, "O_DIRECT"):
        assert found["in_effect"] is None and "not probed" in found["how"]
        return
    assert found["requested"] is True and found["in_effect"] in (True, None), found
    if found["in_effect"]:
        assert found["how"].startswith("bypasses the page cache")
    assert not folder.exists() or os.listdir(folder) == []   # probe file and data folder gone
    # nobody asked for direct I/O: nothing is probed, nothing written
    assert _probe(folder, [_Exp("zero-queue", False)])["in_effect"] is False


def test_zfs_before_2_3_is_refused_by_its_version(tmp_path):
    sys_root = tmp_path / "sys"
    (sys_root / "module" / "zfs").mkdir(parents=True)
    (sys_root / "module" / "zfs" / "version").write_text("2.1.5-1ubuntu6\n")
    checked = check_target(tmp_path / "bench", 1 << 20)
    checked = type(checked)(**{**checked.__dict__, "fs_type": "zfs"})
    owner = OwnedFolder(checked, new_run_id())
    owner.acquire()
    try:
        with pytest.raises(DirectIORefused) as caught:
            probe_direct_io(owner, [_Exp("quick", True)], "zfs", str(sys_root))
        assert "ZFS 2.1.5-1ubuntu6, which before 2.3 accepts O_DIRECT but buffers it" in str(caught.value)
        assert "`--set direct=false`" in str(caught.value) and "\n" not in str(caught.value)
        (sys_root / "module" / "zfs" / "version").write_text("2.3.0-1\n")
        assert probe_direct_io(owner, [_Exp("quick", True)], "zfs", str(sys_root))["requested"]
    finally:
        owner.release()


def test_mode_in_effect_per_trial():
    probed = {"requested": True, "in_effect": True, "how": "bypasses the page cache: ..."}
    assert direct_in_effect({"direct": True}, probed) is True
    assert direct_in_effect({"direct": False}, probed) is False
    assert direct_in_effect({"direct": True}, {**probed, "in_effect": None}) is None
    assert direct_in_effect({"direct": True}, None) is None           # a run made before
    assert method_text(None) is None
    assert method_text(probed) == "Direct I/O in effect: yes (bypasses the page cache: ...)."


@pytest.fixture
def journalled_ext4(tmp_path):
    """ext4 mounted with data=journal: it accepts O_DIRECT and serves it from the page cache."""
    image = tmp_path / "journal.img"
    with open(image, "wb") as handle:
        handle.truncate(2 << 30)   # sparse: room for the free-space margin (1 GiB)
    if subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], capture_output=True).returncode != 0:
        pytest.skip("mkfs.ext4 is not available")
    with mounted(["-o", "loop,data=journal", str(image)], tmp_path / "mnt") as mnt:
        yield mnt


@needs_root
def test_a_file_system_that_buffers_direct_io_stops_the_run_with_one_line(journalled_ext4, tmp_path):
    before = sorted(os.listdir(journalled_ext4))
    runs = tmp_path / "runs"
    done = run_cli("run", "zero-queue", "--target", str(journalled_ext4 / "bench"), *TINY,
                   "--out", str(runs))
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert len(line.splitlines()) == 1, line
    assert "accepts direct I/O but buffers it anyway" in line and "ext4" in line
    assert "`--set direct=false`" in line and "page cache" in line and "Traceback" not in line
    # nothing outside the app's folder: no runs folder, the target as it was (the app's own
    # empty folders are removed again)
    assert not runs.exists() and sorted(os.listdir(journalled_ext4)) == before


@needs_root
@needs_fio
def test_the_choice_direct_false_runs_and_records_the_mode(journalled_ext4, tmp_path):
    done = run_cli("run", "zero-queue", "--target", str(journalled_ext4 / "bench"), *TINY,
                   "--set", "direct=false", "--out", str(tmp_path / "runs"), "--json")
    assert done.returncode == 0, done.stderr
    record = json.loads((Path(json.loads(done.stdout)["run_dir"]) / "run.json").read_text())
    assert record["direct_io"]["in_effect"] is False
    assert [t["direct_in_effect"] for t in record["trials"]] == [False] * len(record["trials"])


@needs_root
@needs_fio
def test_a_tmpfs_allowed_as_ram_is_refused_or_measured_as_memory(tmp_path):
    with mounted(["-t", "tmpfs", "-o", "size=2g", "tmpfs"], tmp_path / "ram") as ram:
        refuses = _kernel_refuses_o_direct(ram)
        done = run_cli("run", "zero-queue", "--target", str(ram), *TINY, "--allow-medium", "ram",
                       "--out", str(tmp_path / "runs"), "--json")
        if refuses:   # tmpfs before Linux 6.6
            assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
            assert "refuses direct I/O (tmpfs" in done.stderr and os.listdir(ram) == []
            return
        assert done.returncode == 0, done.stderr
        record = json.loads((Path(json.loads(done.stdout)["run_dir"]) / "run.json").read_text())
        assert record["direct_io"]["in_effect"] is None       # memory: no cache to bypass
        assert "the medium is memory" in record["direct_io"]["how"]
        assert all(t["direct_in_effect"] is None for t in record["trials"])
        assert record["plausibility"]["link"] is None and "ram medium" in record["plausibility"]["link_reason"]


def _kernel_refuses_o_direct(folder: Path) -> bool:
    try:
        os.close(os.open(folder / ".o_direct_check", os.O_CREAT | os.O_RDWR | os.O_DIRECT, 0o600))
    except OSError:
        return True
    finally:
        try:
            os.unlink(folder / ".o_direct_check")
        except OSError:
            pass
    return False

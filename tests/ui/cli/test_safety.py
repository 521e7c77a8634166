"""Bad targets are refused with exit 2, one line naming the problem, and nothing written."""
from __future__ import annotations

from conftest import run_cli, tree


def _refused(target: str, runs, *extra: str) -> str:
    done = run_cli("run", "zero-queue", "--target", target, "--set", "size=32MiB",
                   "--out", str(runs), *extra)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ssd-profiler: error: "), done.stderr
    assert done.stdout == ""
    assert not runs.exists()  # no run folder either
    return lines[0]


def test_device_node_is_refused(tmp_path):
    for device in ("/dev/null", "/dev/sda", "/dev/vda"):
        assert "device node" in _refused(device, tmp_path / "runs")


def test_existing_file_is_refused_and_untouched(tmp_path):
    user_file = tmp_path / "thesis.docx"
    user_file.write_bytes(b"precious")
    assert "existing file" in _refused(str(user_file), tmp_path / "runs")
    assert user_file.read_bytes() == b"precious"


def test_symlinked_directory_is_refused(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    assert "symbolic link" in _refused(str(tmp_path / "link"), tmp_path / "runs")
    assert tree(real) == []


def test_missing_parent_is_refused(tmp_path):
    message = _refused(str(tmp_path / "no" / "such" / "dir"), tmp_path / "runs")
    assert "parent folder" in message and "does not exist" in message
    assert not (tmp_path / "no").exists()


def test_read_only_folder_is_refused(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert "read-only" in _refused(str(folder), tmp_path / "runs")
        assert tree(folder) == []
    finally:
        folder.chmod(0o755)


def test_too_little_free_space_is_refused(tmp_path):
    folder = tmp_path / "small"
    folder.mkdir()
    message = _refused(str(folder), tmp_path / "runs", "--set", "size=16TiB")
    assert "not enough free space" in message and "16 TiB" in message
    assert tree(folder) == []


def test_bad_parameter_and_unknown_experiment_exit_2(tmp_path):
    assert "runtime" in _refused(str(tmp_path), tmp_path / "runs", "--set", "runtime=soon")
    done = run_cli("run", "warp-speed", "--target", str(tmp_path), "--out", str(tmp_path / "runs"))
    assert done.returncode == 2 and "unknown experiment" in done.stderr

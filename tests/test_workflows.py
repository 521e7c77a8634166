"""The GitHub workflows are valid and hardened, checked offline: the GitHub-workflow JSON schema
(check-jsonschema's copy), zizmor's security audit (nothing of medium severity or above), and
what a release needs that neither checks: actions pinned by commit, current runner labels, least
permissions, tests before builds, DiskSpd pinned by version and SHA-256."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
BIN = Path(sys.executable).parent
# GitHub-hosted labels current in 2026 (ubuntu-22.04 is being retired, macos-13 is gone)
CURRENT_RUNNERS = {"ubuntu-24.04", "windows-2025", "macos-15", "macos-15-intel", "macos-14"}


def _tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return str(path)


def test_workflows_match_the_github_workflow_schema():
    assert WORKFLOWS
    done = subprocess.run([_tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows",
                           *map(str, WORKFLOWS)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_zizmor_finds_nothing_of_medium_severity_or_above():
    done = subprocess.run([_tool("zizmor"), "--offline", "--min-severity", "medium", "--no-progress",
                           str(REPO / ".github" / "workflows")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_actions_runners_and_permissions(workflow):
    text = workflow.read_text()
    uses = re.findall(r"uses:\s*(\S+)", text)
    assert uses and all(re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", u) for u in uses), uses
    labels = set(re.findall(r"\bos:\s*([\w.-]+)", text)) | set(re.findall(r"runs-on:\s*([\w.-]+)", text))
    assert labels - {"$"} <= CURRENT_RUNNERS, labels
    assert re.search(r"^permissions:\n  contents: read$", text, re.M), "read-only by default"
    writes = re.findall(r"^(\s+)\w+: write", text, re.M)
    assert len(writes) <= 1 and all(len(indent) > 2 for indent in writes)   # one job, not all
    assert "releases/latest" not in text and "@v" not in text


def test_the_release_tests_before_it_builds_and_publishes_with_checksums():
    text = (REPO / ".github" / "workflows" / "release.yml").read_text()
    build = text[text.index("\n  build:"):text.index("\n  release:")]
    release = text[text.index("\n  release:"):]
    assert "needs: test" in build and "needs: build" in release
    assert "build.sh --smoke --locked" in build and "build.ps1 -Smoke -Locked" in build
    assert "contents: write" in release and "contents: write" not in text[:text.index("\n  release:")]
    assert "SHA256SUMS" in release and "gh release create" in release
    # the Linux .deb is built from the locked folder, checksummed, uploaded and released
    assert "packaging/build_deb.py" in build and "ssd-profiler_*.deb" in build and "./*.deb" in release


def test_the_build_lock_and_the_diskspd_pin():
    lock = (REPO / "packaging" / "requirements-build.txt").read_text()
    pins = re.findall(r"^([a-z0-9][\w.-]*)==([\w.]+)", lock, re.M)
    names = {name for name, _ in pins}
    assert {"pyinstaller", "pyside6-essentials", "numpy", "pandas", "pysmart", "pillow"} <= names
    assert {"shtab", "argparse-manpage", "orjson"} <= names   # the .deb's completion and man page
    blocks = re.split(r"\n(?=[a-z0-9])", lock.split("\n", 2)[-1])
    assert all("--hash=sha256:" in b for b in blocks if re.match(r"[a-z0-9]", b)), "a pin without hashes"
    pin = dict(re.findall(r"^(\w+)=(.+)$", (REPO / "packaging" / "diskspd.txt").read_text(), re.M))
    assert re.fullmatch(r"[0-9a-f]{64}", pin["sha256"]) and pin["version"] in pin["url"]
    assert f"/v{pin['version']}/" in pin["url"] and f"/v{pin['version']}/" in pin["license_url"]

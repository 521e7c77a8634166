"""Cloud-synced folders are named before a run: under a sync client's root (its
environment variable or its usual folder in the home), the medium is 'cloud' with the client's
name, the run is allowed and the reason travels with it."""
from __future__ import annotations

from app.paths import check_target
from app.paths.cloud import cloud_folder
from app.paths.medium import classify


def test_known_roots_and_their_suffixed_forms(tmp_path):
    home = tmp_path / "home"
    (home / "OneDrive - Uni" / "Documents").mkdir(parents=True)
    (home / "Dropbox").mkdir()
    (home / "bench").mkdir()
    assert cloud_folder(home / "OneDrive - Uni" / "Documents", home, {}).startswith("OneDrive (")
    assert cloud_folder(home / "Dropbox", home, {}).startswith("Dropbox (")
    assert cloud_folder(home / "bench", home, {}) is None
    assert cloud_folder(home / "bench", home, {"OneDrive": str(home)}).startswith("OneDrive (")


def test_a_synced_target_is_allowed_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    target = tmp_path / "Dropbox" / "ssd"
    target.mkdir(parents=True)
    medium = classify(target)
    assert medium.kind == "cloud" and "Dropbox" in medium.note and medium.extra["under"] != "cloud"
    assert medium.stack and medium.to_json()["line"]          # what it is on is still named
    checked = check_target(target / "run", 1 << 20)
    assert checked.medium.kind == "cloud"

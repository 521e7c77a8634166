"""run and trial statuses are enums, and run.json / trials.csv do not notice.

A StrEnum member must serialize exactly as the plain word did, and a run.json written by an
earlier version (plain strings) must compare equal without any conversion on load.
"""
from __future__ import annotations

import csv
import io
import json

from app.model.status import FINAL_RUN_STATUSES, RunStatus, TrialStatus
from app.store.run_folder import STATUSES


def test_statuses_serialize_as_their_words():
    new = {"status": RunStatus.CANCELLED, "trials": [{"status": TrialStatus.DONE}]}
    old = {"status": "cancelled", "trials": [{"status": "done"}]}
    assert json.dumps(new, indent=2) == json.dumps(old, indent=2)
    out = io.StringIO()
    csv.writer(out).writerow([TrialStatus.FAILED, RunStatus.RUNNING])
    assert out.getvalue().strip() == "failed,running"
    assert f"{RunStatus.DONE}" == str(RunStatus.DONE) == "done"


def test_plain_words_from_an_old_run_json_compare_equal():
    loaded = json.loads('{"status": "done", "trials": [{"status": "failed"}]}')
    assert loaded["status"] == RunStatus.DONE and loaded["trials"][0]["status"] == TrialStatus.FAILED
    assert loaded["status"] in FINAL_RUN_STATUSES and RunStatus(loaded["status"]).final
    assert {RunStatus.RUNNING: 1}.get("running") == 1  # same hash as the word
    assert STATUSES == ("running", "done", "failed", "cancelled")

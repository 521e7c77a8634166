"""The runs browser shows the listing asked for last, even when an older one finishes later.

Listings run on a pool of threads. In CI a listing begun while a run was going (status
"running") finished after the one asked for when the run ended, and the browser went on saying
"running or interrupted" about a cancelled run.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import threading  # noqa: E402

from ui.window.background import Background  # noqa: E402
from ui.window.report import runs_browser  # noqa: E402
from ui.window.run.past_runs import RunListing  # noqa: E402


def _listing(status: str) -> tuple[RunListing, ...]:
    return (RunListing("/runs/a", "2026-11-29 09:00", "zero-queue", status, 1, 4, "/t", None),)


def test_an_older_listing_that_finishes_last_is_not_shown(qtbot, monkeypatch, tmp_path):
    gate = threading.Event()
    calls: list[int] = []

    def scan(_root: str) -> tuple[RunListing, ...]:
        calls.append(1)
        if len(calls) == 2:            # the listing begun while the run was going: slow
            gate.wait(10)
            return _listing("running")
        return _listing("cancelled")

    monkeypatch.setattr(runs_browser, "scan_runs", scan)
    background = Background()
    browser = runs_browser.RunsBrowser(background, str(tmp_path))   # first listing
    qtbot.addWidget(browser)
    qtbot.waitUntil(lambda: browser.table.rowCount() == 1)
    browser.refresh()                  # second: blocks
    qtbot.waitUntil(lambda: len(calls) == 2)
    browser.refresh()                  # third: the run has ended
    qtbot.waitUntil(lambda: len(calls) == 3)
    qtbot.wait(200)
    gate.set()                         # the second finishes last
    qtbot.wait(300)
    assert browser.table.item(0, 2).text() == "cancelled"
    assert browser.status.text().startswith("1 run(s)")
    background.shutdown()

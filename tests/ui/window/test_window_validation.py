"""Bad parameter values in the window (point 6): the reason beside the field, Run
disabled with the reason as its tooltip and hint, and Run enabled again once the value is fixed.

The same checks as the command line (app.params and the experiment dataclasses), so the window
refuses exactly what ``ssd-profiler run --set`` refuses; nothing here starts a run.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

import gui_support  # noqa: E402
from conftest import (
    ARTIFACTS,  # noqa: E402
    needs_fio,  # noqa: E402
)

make_window = gui_support.make_window  # the shared window factory fixture

# experiment, field, bad text, words of the reason, a good text for the same field
BAD = [
    ("queue-depth", "queue_depths", "0", "below the minimum 1", "1,4"),
    ("queue-depth", "queue_depths", "", "needs at least one value", "1,4"),
    ("queue-depth", "queue_depths", "1" + "0" * 30, "above the maximum 1024", "8"),
    ("queue-depth", "queue_depths", "-4", "below the minimum 1", "4"),
    ("rw-mix", "mixes", "101", "above the maximum 100", "100,0"),
    ("block-size", "block_sizes", "1000", "not a multiple of 512 bytes", "4k,1MiB"),
    ("zero-queue", "random_bs", "1000", "not a multiple of 512 bytes", "4k"),
    ("block-size", "block_sizes", "4k,64MiB", "larger than the test file", "4k,16MiB"),
    ("zero-queue", "runtime", "1s\nx", "not a duration", "1s"),
    ("tail-latency", "bs", "4k\x00", "not a size", "8k"),
]


def settle(qtbot, window) -> None:
    """Wait until the engine is found and the target checked, so only parameters block Run."""
    qtbot.waitUntil(lambda: not (window.run_blocker() or "").startswith(("looking", "checking")),
                    timeout=15000)


def show_bad(qtbot, window, target: Path, eid: str, field: str, text: str):
    panel = window.experiment_panel
    window.drive_panel.set_target(str(target))
    panel.set_checked([eid])
    panel.select(eid)
    panel.set_values(eid, {"size": "32MiB", "runtime": "1s", field: text})
    settle(qtbot, window)
    return panel.forms[eid]._notes[field]


@needs_fio
@pytest.mark.parametrize("eid, field, bad, reason, good", BAD,
                         ids=[f"{b[1]}={b[2]!r}"[:30] for b in BAD])
def test_bad_value_shows_beside_its_field_and_disables_run(qtbot, make_window, tmp_path,
                                                           eid, field, bad, reason, good):
    window = make_window()
    note = show_bad(qtbot, window, tmp_path / "target", eid, field, bad)
    assert note.isVisible() and reason in note.text(), note.text()
    assert note.text().startswith("\u2716") and "\n" not in note.text()
    blocker = window.run_blocker()
    assert blocker and reason in blocker
    assert not window.run_button.isEnabled() and not window.run_action.isEnabled()
    assert reason in window.run_button.toolTip() and reason in window.run_hint.text()
    window.run_action.trigger()      # Ctrl+R does nothing either: no run starts
    assert not window.control.running

    window.experiment_panel.set_values(eid, {field: good})
    qtbot.waitUntil(lambda: window.run_blocker() is None, timeout=10000)
    assert window.run_button.isEnabled()
    assert "\u2716" not in note.text() and reason not in window.run_button.toolTip()


@needs_fio
def test_each_invalid_field_of_a_form_has_its_own_reason(qtbot, make_window, tmp_path):
    window = make_window()
    show_bad(qtbot, window, tmp_path / "target", "rw-mix", "mixes", "101")
    window.experiment_panel.set_values("rw-mix", {"bs": "1000", "iodepth": "0"})
    notes = window.experiment_panel.forms["rw-mix"]._notes
    assert "above the maximum 100" in notes["mixes"].text()
    assert "multiple of 512" in notes["bs"].text()
    assert "below the minimum 1" in notes["iodepth"].text()
    assert "(and 2 more)" in window.run_blocker() and not window.run_button.isEnabled()


@needs_fio
def test_screenshot_of_an_invalid_value_at_1280x720(qtbot, make_window, tmp_path):
    window = make_window()
    window.resize(1280, 720)
    note = show_bad(qtbot, window, tmp_path / "target", "block-size", "block_sizes", "4k,1000")
    window.experiment_panel.form_scroll.ensureWidgetVisible(note)
    qtbot.wait(100)
    assert not window.run_button.isEnabled() and "multiple of 512" in note.text()
    assert note.width() >= 200 and note.heightForWidth(note.width()) <= note.height()
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "window_invalid_input.png"
    assert window.grab().save(str(shot))
    assert shot.stat().st_size > 10000

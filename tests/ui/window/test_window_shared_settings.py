"""Settings a run shares, set once above the experiment list, and presets that say what they
change, at 1280x720 (the student laptop). No run is started: the plan is what a run would do.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.experiments import CATALOG, PRESETS  # noqa: E402
from app.experiments.plan import experiments_from_settings  # noqa: E402
from app.units import GiB, MiB  # noqa: E402

import gui_support  # noqa: E402

make_window = gui_support.make_window
LAPTOP = (1280, 720)


def laptop_window(make_window):
    """A window at 1280x720 with its experiments page in front (the set-up is tabbed there)."""
    window = make_window(size=LAPTOP)
    window.show_setup_page("experiments")
    return window


@pytest.fixture
def panel(make_window):
    return laptop_window(make_window).experiment_panel


def planned(panel) -> dict:
    return {e.id: e for e in experiments_from_settings(panel.selected_ids(), panel.settings())}


def test_settings_set_once_plan_every_ticked_experiment_and_slc_keeps_its_own(panel):
    ids = [eid for eid in CATALOG if CATALOG[eid].in_all]
    panel.set_checked(ids)
    before = panel.plan.estimated_s
    panel.shared.set_value("runtime", "3s")
    panel.shared.set_value("size", "256MiB")
    panel.shared.set_value("repetitions", "2")
    assert panel.plan.ok and panel.plan.estimated_s < before / 5   # the plan line follows
    assert panel.plan.size_bytes == 8 * GiB    # the SLC test's own volume is still the largest
    runs = planned(panel)
    for eid, exp in runs.items():
        if "runtime" in CATALOG[eid].keeps_own:
            default = CATALOG[eid]()
            assert (exp.runtime, exp.size, exp.repetitions) == \
                (default.runtime, default.size, default.repetitions), eid
        else:
            assert (exp.runtime, exp.size, exp.repetitions) == (3.0, 256 * MiB, 2), eid
    assert runs["slc-cache"].runtime == 120.0 and runs["slc-cache"].size == 8 * GiB
    # the same experiments as the command line's `run all --set runtime=3s ...`
    cli = experiments_from_settings(ids, {"runtime": "3s", "size": "256MiB", "repetitions": "2"})
    assert list(runs.values()) == cli
    # and the window says who keeps its own, and why, above the list and in the form
    assert panel.shared.kept.isVisible()
    assert "slc-cache keeps its own runtime" in panel.shared.kept.text()
    assert "result rests on" in panel.shared.kept.text()
    assert "Kept for this experiment" in panel.forms["slc-cache"]._notes["runtime"].text()
    assert "Follows the setting above" in panel.forms["block-size"]._notes["runtime"].text()


def test_an_override_in_a_form_is_shown_as_such_and_can_be_reset(panel, qtbot):
    panel.set_checked(["zero-queue", "block-size"])
    panel.shared.set_value("runtime", "3s")
    panel.select("block-size")
    form = panel.forms["block-size"]
    editor = form.editors["runtime"]
    assert editor.text() == "3s" and not form.resets["runtime"].isVisible()
    editor.clear()
    qtbot.keyClicks(editor, "7s")     # typed, as a student would
    assert form.resets["runtime"].isVisible()
    assert "Changed for this experiment only (above: 3s)" in form._notes["runtime"].text()
    panel.shared.set_value("runtime", "4s")    # the shared value moves on; the override stays
    assert planned(panel)["block-size"].runtime == 7.0
    assert planned(panel)["zero-queue"].runtime == 4.0
    form.resets["runtime"].click()
    assert editor.text() == "4s" and not form.resets["runtime"].isVisible()
    assert planned(panel)["block-size"].runtime == 4.0


def test_shared_settings_and_overrides_are_remembered(make_window):
    window = laptop_window(make_window)
    panel = window.experiment_panel
    panel.set_checked(["zero-queue", "queue-depth"])
    panel.shared.set_value("size", "128MiB")
    panel.set_values("queue-depth", {"repetitions": "5"})
    window.close()
    again = laptop_window(make_window).experiment_panel
    assert again.shared.texts()["size"] == "128MiB"
    assert again.form("queue-depth").overridden == {"repetitions"}
    runs = planned(again)
    assert runs["queue-depth"].repetitions == 5 and runs["zero-queue"].repetitions == 3
    assert runs["queue-depth"].size == runs["zero-queue"].size == 128 * MiB


def test_a_bad_shared_value_blocks_the_run_and_says_where(make_window, qtbot):
    window = laptop_window(make_window)
    panel = window.experiment_panel
    panel.shared.size_edit.clear()
    qtbot.keyClicks(panel.shared.size_edit, "lots")
    assert not panel.plan.ok and "above the list" in panel.plan.message
    assert panel.shared.error.isVisible() and "size" in panel.shared.error.text().lower()
    assert not window.run_button.isEnabled()
    panel.shared.size_edit.clear()
    qtbot.keyClicks(panel.shared.size_edit, "64MiB")
    assert panel.plan.ok and not panel.shared.error.isVisible()


def test_a_preset_sets_exactly_what_it_lists_and_says_so(panel):
    """`ssd-profiler presets`: course-precision sets precision=2% and nothing else."""
    panel.set_checked(["zero-queue", "block-size"])
    panel.shared.set_value("size", "256MiB")
    panel.shared.set_value("runtime", "3s")
    message = panel.apply_preset("course-precision")
    assert PRESETS["course-precision"] == {"precision": "2%"}
    texts = panel.shared.texts()
    assert (texts["size"], texts["runtime"], texts["precision"]) == ("256MiB", "3s", "2%")
    assert all(e.precision == "2%" and e.size == 256 * MiB for e in planned(panel).values())
    assert panel.preset_note.isVisible() and panel.preset_note.text() == message
    assert "set precision 2%" in message and "runtime, size, repetitions, warm-up unchanged" in message
    message = panel.apply_preset("quick")
    assert panel.shared.texts() == {"runtime": "5s", "precision": "2%", "size": "256MiB",
                                    "repetitions": "1", "warmup": "false"}
    assert "warm-up off" in message and "precision unchanged" in message
    message = panel.apply_preset("course")   # "each experiment's defaults"
    assert panel.settings() == {} and "back to each experiment's default" in message
    assert panel.preset.currentData() == "course"
    panel.shared.set_value("repetitions", "2")   # a change by hand: the preset is no longer it
    assert panel.preset.currentData() == "custom"

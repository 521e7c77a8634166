"""A vendor spec entered in the window for a drive that reports no model (a virtual disk, a
drive behind a VM) attaches to that drive by serial, and by volume without one: the next window
offers it for the same drive without typing it again. User settings live in tmp_path."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402

import pytest  # noqa: E402

import app.drive.identity  # noqa: E402
from app.specs import catalog as vendor  # noqa: E402

import gui_support  # noqa: E402

make_window = gui_support.make_window  # the shared window factory fixture
DRIVE = {"mountpoint": "/", "device": "/dev/vdz", "fstype": "ext4", "bus": "virtual",
         "model": None, "identity_note": "", "smart": None, "smart_reason": "virtual disk"}


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "config"))


@pytest.mark.parametrize("serial", ["ov******lk", None])
def test_a_spec_for_an_unknown_drive_is_entered_once(qtbot, make_window, tmp_path, monkeypatch,
                                                     serial):
    monkeypatch.setattr(app.drive.identity, "describe_drive",
                        lambda folder, *a, **k: {**DRIVE, "serial": serial})
    (tmp_path / "target").mkdir()
    window = make_window()
    bar = window.report_bar
    window.drive_panel.set_target(str(tmp_path / "target"))
    qtbot.waitUntil(lambda: "Drive model unknown" in bar.vendor_status.text(), timeout=15000)
    bar.spec_button.click()
    dialog = bar.spec_dialog
    assert dialog.model_edit.text() == ""   # nothing to prefill: the drive has no model
    dialog.model_edit.setText("PM9A1")       # what the student knows the drive to be
    dialog.numbers["rand_write_iops"].setValue(800000)
    dialog.conditions["rand_qd"].setValue(32)
    dialog.conditions["rand_threads"].setValue(4)
    dialog.source_edit.setText("course handout")
    dialog.save()
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: "saved the vendor spec" in window.log_pane.plain_text(), timeout=15000)
    saved = json.loads(vendor.user_specs_path().read_text())["specs"]
    assert len(saved) == 1 and saved[0]["model_match"] == ["PM9A1"]
    assert saved[0]["attached_to"] == ({"serial": serial, "volume": "/dev/vdz"} if serial
                                       else {"volume": "/dev/vdz"})
    qtbot.waitUntil(lambda: "Vendor spec: PM9A1" in bar.vendor_status.text(), timeout=15000)
    window.close()

    again = make_window()   # next time: the same drive, nothing typed
    again.drive_panel.set_target(str(tmp_path / "target"))
    qtbot.waitUntil(lambda: "Vendor spec: PM9A1" in again.report_bar.vendor_status.text(),
                    timeout=15000)
    assert "your specs file" in again.report_bar.vendor_status.text()
    again.report_bar.spec_button.click()
    offered = again.report_bar.spec_dialog
    assert offered.model_edit.text() == "PM9A1"
    assert offered.numbers["rand_write_iops"].value() == 800000
    assert offered.conditions["rand_threads"].value() == 4
    offered.reject()

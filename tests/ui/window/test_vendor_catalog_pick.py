"""The vendor-spec dialog finds a record of the bundled catalog by what a student knows: typing
"PM9A1" lists the PM9A1 records and fills the form from the first; another can be picked. For
a drive that reports no model the dialog says so and points at the catalog. Real Qt widgets,
user settings in tmp_path."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtWidgets import QLabel  # noqa: E402

from app.specs import catalog as vendor  # noqa: E402
from app.specs import catalog_search  # noqa: E402
from ui.window.report.run_figures import VendorStatus  # noqa: E402
from ui.window.report.vendor_spec_dialog import VendorSpecDialog  # noqa: E402


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "config"))


def test_typing_pm9a1_fills_a_bundled_record(qtbot):
    dialog = VendorSpecDialog(None)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.catalog_edit, "PM9A1")
    labels = [dialog.catalog_pick.itemText(i) for i in range(dialog.catalog_pick.count())]
    assert labels[0] == "Samsung PM9A1, 512 GB (MZVL2512HCJQ-00BL7)" and len(labels) == 3
    assert dialog.model_edit.text() == "MZVL2512HCJQ-00BL7"
    assert dialog.numbers["seq_read_mbps"].value() == 6900
    assert dialog.numbers["seq_write_mbps"].value() == 5000
    assert dialog.numbers["rand_read_iops"].value() == 800000
    assert dialog.interface.currentText() == "PCIe 4.0 x4"
    assert "bundled record samsung-pm9a1-512gb" in dialog.source_edit.text()
    one_tb = labels.index("Samsung PM9A1, 1,000 GB (MZVL21T0HCLR)")
    dialog.catalog_pick.activated.emit(one_tb)
    assert dialog.numbers["rand_write_iops"].value() == 850000
    dialog.save()
    assert dialog.result_spec is not None and dialog.result_spec["model_match"] == ["MZVL21T0HCLR"]
    assert not vendor.validate_spec(dialog.result_spec)


def test_a_drive_without_a_model_is_told_to_pick_from_the_catalog(qtbot):
    status = VendorStatus(None, "virtual disk", None, None, "", None, ())
    dialog = VendorSpecDialog(status)
    qtbot.addWidget(dialog)
    said = " ".join(w.text() for w in dialog.findChildren(QLabel))
    assert "did not report a model" in said and "pick its record from the catalog" in said
    qtbot.keyClicks(dialog.catalog_edit, "pm")   # too short: nothing listed, nothing filled
    assert dialog.catalog_pick.count() == 0 and dialog.model_edit.text() == ""


def test_search_by_vendor_family_or_part_number():
    records = catalog_search.typed(vendor.load_specs())
    assert [r.id for r in catalog_search.search("990 pro", records)][:1] == ["samsung-990pro-1tb"]
    assert [r.id for r in catalog_search.search("MZVL2256", records)] == ["samsung-pm9a1-256gb"]
    assert catalog_search.search("samsung pm9a1", records, capacity_gb=1000)[0].id == \
        "samsung-pm9a1-1tb"
    assert catalog_search.search("no such drive", records) == []

"""The "Enter/edit vendor spec" dialog: a drive's 'up to' figures with their test conditions.

Why the conditions and the source are asked for next to the numbers: a vendor's 3,500 MB/s is
measured at QD32 on a fresh drive inside the SLC cache; without the conditions the comparison
reads as "the drive is slow", and without the source nobody can check the number. The record is
built by ``app.specs.catalog.entered_spec`` (no Qt) and validated by ``app.specs.catalog.validate_spec``; the
dialog only collects and shows problems. It is opened non-blocking (``open()``), so tests fill
the fields and call :meth:`save` as the Save button does.
"""
from __future__ import annotations

import html
import json
from collections.abc import Mapping
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.specs import catalog as vendor
from app.specs import catalog_search
from app.specs import match as vendor_compare
from app.specs.record import VendorSpec
from ui.window import theme
from ui.window.report.run_figures import VendorStatus

NUMBERS = (("seq_read_mbps", "Sequential read", "MB/s"),
           ("seq_write_mbps", "Sequential write", "MB/s"),
           ("rand_read_iops", "4 KiB random read", "IOPS"),
           ("rand_write_iops", "4 KiB random write", "IOPS"))
# each row's own conditions: a vendor quotes sequential at QD32 T1 and random at QD32 T16, say
CONDITIONS = (("seq_qd", "Queue depth", "QD "), ("seq_threads", "Threads (workers)", " threads"),
              ("rand_qd", "Queue depth", "QD "), ("rand_threads", "Threads (workers)", " threads"))
SIDES = (("Sequential", ("seq_read_mbps", "seq_write_mbps"), ("seq_qd", "seq_threads")),
         ("4 KiB random", ("rand_read_iops", "rand_write_iops"), ("rand_qd", "rand_threads")))
NOT_STATED = "not stated"


def condition_values(boxes: Mapping[str, QSpinBox]) -> dict[str, int | None]:
    """The test conditions as stored: each side's threads, and the one ``threads`` older
    readers know when both sides state the same number (else none: each side has its own)."""
    values: dict[str, int | None] = {k: b.value() for k, b in boxes.items()}
    seq, rand = values.get("seq_threads"), values.get("rand_threads")
    values["threads"] = seq if seq and seq == rand else None
    return values


def _spin(maximum: int, unit: str) -> QSpinBox:
    """0 shows as 'not stated'; a unit ending in a space is a prefix ("QD 32"), else a suffix."""
    box = QSpinBox()
    box.setRange(0, maximum)
    box.setSpecialValueText(NOT_STATED)   # 0 = the vendor does not state it
    if unit.endswith(" "):
        box.setPrefix(unit)
    else:
        box.setSuffix(unit if unit.startswith(" ") else f" {unit}")
    box.setGroupSeparatorShown(True)
    box.setMinimumWidth(box.fontMetrics().horizontalAdvance("100,000,000 IOPS") + 40)
    return box


def _plain_match(spec: VendorSpec) -> str | None:
    """The text a user typed for their own record (one pattern, maybe anchored to the whole
    model); None for several patterns or one with a wildcard, which the form cannot show."""
    if len(spec.patterns) != 1:
        return None
    text = spec.patterns[0].text.strip().removeprefix("^").removesuffix("$")
    return text if "*" not in text else None


class VendorSpecDialog(QDialog):
    def __init__(self, status: VendorStatus | None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Vendor spec of the drive")
        self.result_spec: dict[str, Any] | None = None   # the spec record saved (JSON)
        self.drive = status.drive if status else None   # a spec entered attaches to it
        model = (status.model if status else None) or ""
        spec = VendorSpec.from_json(json.loads(status.spec_json)) if status and status.spec_json \
            else VendorSpec("", (), "", "")
        user_made = spec.source_kind == "user"

        self.model_edit = QLineEdit((_plain_match(spec) if user_made else None) or model)
        self.model_edit.setPlaceholderText("e.g. Samsung SSD 990 PRO 2TB, or a part of it")
        self.name_edit = QLineEdit((spec.family or "") if user_made else "")
        self.name_edit.setPlaceholderText("shown in the figure title; default: the model text")
        self.numbers = {key: _spin(100_000_000, unit) for key, _label, unit in NUMBERS}
        self.conditions = {key: _spin(65536, unit) for key, _label, unit in CONDITIONS}
        for key, box in self.numbers.items():
            box.setValue(int(spec.figures.get(key) or 0))
        tc = spec.conditions
        stated = {"seq_qd": tc.seq_qd, "seq_threads": tc.seq_threads, "rand_qd": tc.rand_qd,
                  "rand_threads": tc.rand_threads}
        for key, box in self.conditions.items():
            box.setValue(stated[key] or 0)
        self.interface = QComboBox()
        self.interface.setEditable(True)
        self.interface.addItems(["", *vendor_compare.INTERFACE_CEILINGS_MBPS])
        self.interface.setCurrentText(spec.interface or "")
        self.source_edit = QLineEdit("" if spec.source_url == "entered by the user"
                                     else spec.source_url)
        self.source_edit.setPlaceholderText("datasheet URL, or a note such as 'box label'")
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        theme.set_tone(self.problem, "error")

        self.catalog_edit = QLineEdit()
        self.catalog_edit.setPlaceholderText("vendor, family or part number, e.g. PM9A1, 990 PRO")
        self.catalog_pick = QComboBox()
        self.catalog_pick.setMinimumContentsLength(28)
        self.catalog_pick.setEnabled(False)
        self._records = catalog_search.typed(vendor.load_specs())
        self._found: list[VendorSpec] = []
        self.catalog_edit.textEdited.connect(self._search)
        self.catalog_pick.activated.connect(lambda i: self._fill(self._found[i]))
        pick = QHBoxLayout()
        pick.addWidget(self.catalog_edit, 1)
        pick.addWidget(self.catalog_pick, 1)

        drive = QFormLayout()
        drive.addRow("From the catalog:", pick)
        drive.addRow("Model contains:", self.model_edit)
        before = status is None or status.before_run
        whose = "The target's drive" if before else "This run's drive"
        seen = QLabel(f"{whose} reports: <b>{html.escape(model)}</b>" if model else
                      "No drive model is known yet (choose a target folder first, or type the "
                      "model): the spec is saved for drives whose model contains this text."
                      if before else
                      "This run's drive did not report a model (virtual disk or no identity), so "
                      "no spec can be matched to it: pick its record from the catalog above by "
                      "vendor, family or part number, or type the vendor's figures. The "
                      "comparison then says it is against the model you chose; the spec is "
                      "written into this run.")
        seen.setWordWrap(True)
        drive.addRow("", seen)
        drive.addRow("Name:", self.name_edit)
        labels = {key: label for key, label, _unit in NUMBERS + CONDITIONS}
        columns = QHBoxLayout()
        for title, numbers, conditions in SIDES:
            side = QFormLayout()
            for key in numbers:
                side.addRow(f"{labels[key]}:", self.numbers[key])
            for key in conditions:
                side.addRow(f"at {labels[key].lower()}:", self.conditions[key])
            columns.addWidget(_box(f"{title}: the vendor's 'up to' figures", side))
        source = QFormLayout()
        source.addRow("Interface:", self.interface)
        source.addRow("Source:", self.source_edit)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        where = QLabel(f"Saved in your settings ({vendor.user_specs_path()}) for every run on a "
                       "drive whose model contains the text above (and for this very drive, by "
                       "its serial or volume, when its model does not contain it), and written "
                       "into the shown run's run.json when that run has ended, so its export "
                       "uses it anywhere.")
        where.setWordWrap(True)
        theme.set_tone(where, "muted")
        layout = QVBoxLayout(self)
        layout.addLayout(drive)
        layout.addLayout(columns)
        layout.addLayout(source)
        layout.addWidget(where)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.setMinimumWidth(min(52 * self.fontMetrics().height(), 1200))
        for box in (*self.numbers.values(), *self.conditions.values()):
            box.valueChanged.connect(self.problem.clear)
        for edit in (self.model_edit, self.name_edit, self.source_edit):
            edit.textChanged.connect(self.problem.clear)

    def _search(self, text: str) -> None:
        """List the catalog's records matching what is typed and fill the form from the first
        in catalog order); another can be picked."""
        self._found = catalog_search.search(text, self._records)[:30]
        self.catalog_pick.clear()
        self.catalog_pick.addItems([catalog_search.label(r) for r in self._found])
        self.catalog_pick.setEnabled(bool(self._found))
        if self._found:
            self._fill(self._found[0])

    def _fill(self, spec: VendorSpec) -> None:
        """The form from a catalog record: its part number (else family) as the model text, its
        figures, the conditions it states, its interface and its source."""
        self.model_edit.setText(spec.part_numbers[0] if spec.part_numbers else spec.family or "")
        self.name_edit.setText(catalog_search.label(spec))
        for key, box in self.numbers.items():
            box.setValue(int(spec.figures.get(key) or 0))
        tc = spec.conditions
        for key, value in (("seq_qd", tc.seq_qd), ("seq_threads", tc.seq_threads),
                           ("rand_qd", tc.rand_qd), ("rand_threads", tc.rand_threads)):
            self.conditions[key].setValue(value or 0)
        self.interface.setCurrentText(spec.interface or "")
        self.source_edit.setText(f"{spec.source_url} ({spec.source_kind} source, bundled "
                                 f"record {spec.id})")

    def spec(self) -> dict[str, Any]:
        """The record the fields describe (not yet validated)."""
        return vendor.entered_spec(
            self.model_edit.text(), {k: b.value() for k, b in self.numbers.items()},
            condition_values(self.conditions),
            self.interface.currentText().strip() or None, self.source_edit.text(),
            self.name_edit.text(), self.drive)

    def save(self) -> None:
        """Accept when the record is usable, else say what is missing and stay open."""
        if not self.model_edit.text().strip():
            self.problem.setText("Enter the model text to match (the drive's model, or a part).")
            return
        if not any(b.value() for b in self.numbers.values()):
            self.problem.setText("Enter at least one 'up to' figure from the vendor.")
            return
        spec = self.spec()
        problems = vendor.validate_spec(spec)
        if problems:
            self.problem.setText("; ".join(problems))
            return
        self.result_spec = spec
        self.accept()


def _box(title: str, form: QFormLayout) -> QGroupBox:
    box = QGroupBox(title)
    box.setLayout(form)
    return box

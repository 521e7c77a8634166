"""The report's title block and mode in the export bar: title, author and course fields and
an "Interpretation" check (off: the export leaves the generated interpretation and discussion
out, for courses that want the analysis in the student's words; docs/report.md). The window
remembers them between launches (ui/window/settings.py, ``report``)."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLineEdit, QWidget

from app.report.options import ReportOptions


class ReportDetails(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.title_edit = QLineEdit()
        self.title_edit.setPlaceholderText("Title")
        self.title_edit.setToolTip("The report's title (empty: 'SSD performance profiling: "
                                   "<drive>')")
        self.author_edit = QLineEdit()
        self.author_edit.setPlaceholderText("Author")
        self.course_edit = QLineEdit()
        self.course_edit.setPlaceholderText("Course")
        self.interpretation = QCheckBox("Interpretation")
        self.interpretation.setChecked(True)
        self.interpretation.setToolTip(
            "On: each experiment's mechanism and a Discussion checking the experiments against "
            "each other are written from the run's numbers. Off: data, figures, method and "
            "checks only, for the analysis in your own words.")
        for edit, ems in ((self.title_edit, 5), (self.author_edit, 4), (self.course_edit, 4)):
            edit.setMinimumWidth(ems * edit.fontMetrics().averageCharWidth() * 2)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.title_edit, 3)
        row.addWidget(self.author_edit, 2)
        row.addWidget(self.course_edit, 2)
        row.addWidget(self.interpretation)

    def options(self) -> ReportOptions:
        return ReportOptions(self.title_edit.text(), self.author_edit.text(),
                             self.course_edit.text(), "",
                             self.interpretation.isChecked()).cleaned()

    def state(self) -> dict[str, Any]:
        """What the settings keep."""
        o = self.options()
        return {"title": o.title, "author": o.author, "course": o.course,
                "interpretation": o.interpretation}

    def restore(self, state: dict[str, Any]) -> None:
        """From the settings; a value of the wrong type is left at its default."""
        for key, edit in (("title", self.title_edit), ("author", self.author_edit),
                          ("course", self.course_edit)):
            if isinstance(state.get(key), str):
                edit.setText(state[key])
        if isinstance(state.get("interpretation"), bool):
            self.interpretation.setChecked(state["interpretation"])

    def fields(self) -> list[QWidget]:
        return [self.title_edit, self.author_edit, self.course_edit, self.interpretation]

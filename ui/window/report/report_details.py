"""The report's title block and mode, in the export bar's "Report details" menu: title, author
and course fields and an "Interpretation" check (off: the export leaves the generated
interpretation and discussion out, for courses that want the analysis in the student's words;
docs/report.md). The window
remembers them between launches (ui/window/settings.py, ``report``)."""
from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QFormLayout, QLineEdit, QWidget

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
        for edit in (self.title_edit, self.author_edit, self.course_edit):
            edit.setMinimumWidth(24 * edit.fontMetrics().averageCharWidth())
        form = QFormLayout(self)   # shown in the export bar's "Report details" menu
        form.addRow("Title:", self.title_edit)
        form.addRow("Author:", self.author_edit)
        form.addRow("Course:", self.course_edit)
        form.addRow("", self.interpretation)

    def options(self) -> ReportOptions:
        return ReportOptions(self.title_edit.text(), self.author_edit.text(),
                             self.course_edit.text(), "",
                             self.interpretation.isChecked()).cleaned()

    def restore(self, options: ReportOptions) -> None:
        """From the settings (ui/window/panel_state.py read them)."""
        self.title_edit.setText(options.title)
        self.author_edit.setText(options.author)
        self.course_edit.setText(options.course)
        self.interpretation.setChecked(options.interpretation)

    def fields(self) -> list[QWidget]:
        return [self.title_edit, self.author_edit, self.course_edit, self.interpretation]

"""One scrolled parameter form per experiment, in catalog order, one in view at a time.

A form is made when it is first needed (``form``), not with the stack: the nine forms together
hold ~140 fields, which took longer than the rest of the set-up column, and the window's first
paint needs only the form in view and those of the ticked experiments (their values make the
plan). ``build_all`` makes the others right after.
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QStackedWidget, QWidget

from app.experiments import CATALOG
from ui.window.setup.param_form import ParamForm


class FormStack(QStackedWidget):
    """Page i is the form of the i-th experiment of CATALOG (a plain widget until it is made).
    ``made(eid, form)`` is called for each form made, after its restored values are set."""

    def __init__(self, made: Callable[[str, ParamForm], None], parent: QWidget | None = None):
        super().__init__(parent)
        self.made = made
        self.forms: dict[str, ParamForm] = {}   # those made so far
        self.scrolls: dict[str, QScrollArea] = {}
        self.restored: dict[str, dict[str, str]] = {}   # values for forms not made yet
        for _eid in CATALOG:
            self.addWidget(QWidget())

    def form(self, eid: str) -> ParamForm:
        """Experiment ``eid``'s form, made now if it was not (with its restored values)."""
        if eid not in self.forms:
            form = ParamForm(CATALOG[eid])
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # wraps
            # always there: a bar that comes and goes changes the width the notes wrap to after
            # their height was computed, and the notes would overlap the next field
            scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
            scroll.setWidget(form)
            self.forms[eid], self.scrolls[eid] = form, scroll
            row = list(CATALOG).index(eid)
            place = self.widget(row)
            assert place is not None   # one page per experiment, from the constructor
            self.insertWidget(row, scroll)
            self.removeWidget(place)
            place.deleteLater()
            if eid in self.restored:
                form.set_texts(self.restored.pop(eid))
            self.made(eid, form)
        return self.forms[eid]

    def build_all(self) -> None:
        for eid in CATALOG:
            self.form(eid)

    def made_in_order(self) -> list[ParamForm]:
        """The forms made so far, in catalog order."""
        return [self.forms[eid] for eid in CATALOG if eid in self.forms]

    def restore(self, values: dict[str, dict[str, str]]) -> None:
        """Each form's values (missing: its defaults); forms not made yet take them when made."""
        for eid in CATALOG:
            if eid in self.forms:
                self.forms[eid].set_texts(values.get(eid) or {})
            else:
                self.restored[eid] = values.get(eid) or {}

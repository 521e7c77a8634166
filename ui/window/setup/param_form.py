"""A parameter form generated from an experiment's field metadata.

One declaration in the experiment's module (app/experiments/) gives the widget kind, the default,
the label, the help text and the validation here, so a new parameter needs no UI code. Values are kept as the text people type (``4k,64k``, ``30s``) and checked
with ``app.params.coerce``; the message appears right under the field instead of in a dialog, so
typing is never interrupted.

The experiment's own parameters come first (what a student came to change: queue depths, block
size); the parameters every experiment has follow under "Common to every experiment". Those set
once above the list (shared_settings.SHARED) follow that setting (``follow``) until the user types
another value here: the field then says it overrides the shared value and offers Reset
(``reset_requested``). An experiment that keeps its own (``Experiment.keeps_own``) says so.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QWidget,
)

from app.experiments.base import Experiment
from app.params import ParamError, build, coerce, describe, fields_of, label_of
from ui.window import theme
from ui.window.setup.editors import help_text, make_editor
from ui.window.setup.shared_settings import followed, kept_names
from ui.window.widgets import em

__all__ = ["COMMON", "ParamForm"]

_SMALL = "font-size:small"   # help and errors under a field; their colour is the theme's
_COMMON_FIELDS = {f.name: f for f in fields_of(Experiment)}
COMMON = tuple(_COMMON_FIELDS)   # runtime, ramp, size, repetitions, ...


class ParamForm(QWidget):
    """Edits one experiment's parameters; ``changed`` fires on every user edit (an override of
    a shared setting included), ``reset_requested(name)`` when the user asks to follow the shared
    value of ``name`` again."""

    changed = Signal()
    reset_requested = Signal(str)

    def __init__(self, cls: type[Experiment], parent: QWidget | None = None):
        super().__init__(parent)
        self.cls = cls
        self.fields = {f.name: f for f in fields_of(cls)}
        self.meta = {d["name"]: d for d in describe(cls)}
        self.editors: dict[str, QWidget] = {}
        self._getters: dict[str, Callable[[], str]] = {}
        self._setters: dict[str, Callable[[str], None]] = {}
        self._notes: dict[str, QLabel] = {}
        self.following = followed(cls.id, set(self.fields)) if cls.id else []
        self.kept = kept_names(cls.id) if cls.id else []
        self.overridden: set[str] = set()   # shared settings given another value here
        self.shared_texts: dict[str, str] = {}   # what those follow (for the notes)
        self.resets: dict[str, QToolButton] = {}
        self._name_of: dict[QWidget, str] = {}
        self._quiet = False   # values set by the window, not typed
        self.form_error = QLabel()
        theme.set_tone(self.form_error, "error", _SMALL)
        self.form_error.setWordWrap(True)
        self.form_error.setTextFormat(Qt.TextFormat.PlainText)  # it quotes what the user typed
        self.form_error.hide()

        muted = theme.css("muted")
        # the title line: the experiment's title, or the panel's "Run ..." box in its place
        self.title_label = QLabel(f"<b>{cls.title}</b>")
        self.title_row = QWidget()
        title_layout = QHBoxLayout(self.title_row)
        title_layout.setContentsMargins(0, 0, 0, 0)
        title_layout.addWidget(self.title_label)
        header = QLabel(f"<span style='color:{muted}; {_SMALL}'>{cls.summary}</span>")
        header.setWordWrap(True)
        # one flat form layout (no nested cells): a nested layout kept a stale height after a
        # note changed from one line to two, and the notes then overlapped the next field
        self.form = form = QFormLayout(self)
        form.setContentsMargins(4, 0, 4, 4)
        form.setVerticalSpacing(2)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.title_row)
        form.addRow(header)
        form.addRow(self.form_error)
        own = [n for n in self.meta if n not in COMMON]
        common = [n for n in self.meta if n in COMMON]
        for name in own:
            self._add_row(form, name)
        if common:
            title = QLabel("<b>Common to every experiment</b> (runtime, size, repetitions and "
                           "warm-up follow the settings above the list unless changed here)")
            title.setWordWrap(True)
            title.setContentsMargins(0, em(self) // 2, 0, 0)
            form.addRow(title)
        for name in common:
            self._add_row(form, name)

    def _add_row(self, form: QFormLayout, name: str) -> None:
        d = self.meta[name]
        editor = self._editor(name, d)
        self.editors[name] = editor
        note = QLabel(help_text(d))
        theme.set_tone(note, "muted", _SMALL)
        note.setWordWrap(True)
        note.setTextFormat(Qt.TextFormat.PlainText)
        note.setContentsMargins(0, 0, 0, em(self) // 2)   # air before the next field
        note.setVisible(bool(note.text()))
        self._notes[name] = note
        label = QLabel(d["label"] + ":")
        label.setToolTip(d["help"])
        label.setBuddy(editor)
        field: QWidget = editor
        if name in self.following:
            reset = QToolButton()
            reset.setText("Reset")
            reset.setToolTip("Use the value set above the list for every experiment again")
            reset.clicked.connect(lambda _c=False, n=name: self.reset_requested.emit(n))
            reset.hide()
            self.resets[name] = reset
            field = QWidget()
            row = QHBoxLayout(field)
            row.setContentsMargins(0, 0, 0, 0)
            row.addWidget(editor, 1)
            row.addWidget(reset)
        form.addRow(label, field)
        form.addRow(QLabel(), note)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        """Lay the rows out again for the new size: in a scroll area the form is resized to
        its new height before its layout has dropped the row heights of the old note texts,
        and a note that grew to two lines would then overlap the next field."""
        super().resizeEvent(event)
        self.form.invalidate()
        self.form.activate()

    def _editor(self, name: str, d: Mapping[str, Any]) -> QWidget:
        editor = make_editor(d, self._edited)
        self._getters[name], self._setters[name] = editor.get, editor.set
        for part in editor.parts:
            self._name_of[part] = name
        return editor.widget

    def hold(self, box: QWidget) -> None:
        """``box`` (the panel's "Run this experiment" check box) in place of the title line."""
        layout = self.title_row.layout()
        if layout is not None and layout.indexOf(box) < 0:
            layout.addWidget(box)
        box.show()
        self.title_label.hide()

    def title_of(self, name: str) -> str:
        """What the form calls field ``name`` (a common one it does not show: what others do)."""
        return label_of(self.fields[name] if name in self.fields else _COMMON_FIELDS[name])

    # -- values ---------------------------------------------------------------------------------
    def texts(self) -> dict[str, str]:
        return {name: get().strip() for name, get in self._getters.items()}

    def set_texts(self, values: dict[str, str]) -> None:
        """Every field to its default, then ``values`` on top (unknown names ignored); no
        ``changed`` and no override: the window set them, the user did not type them."""
        self._set({name: values.get(name, d["default_text"]) for name, d in self.meta.items()})

    def follow(self, shared: dict[str, str]) -> None:
        """The shared settings this form follows and the user did not override, to ``shared``'s
        values (no ``changed``)."""
        self.shared_texts = dict(shared)
        self._set({n: t for n, t in shared.items() if n in self.following and n not in self.overridden})

    def set_overridden(self, names: Iterable[str]) -> None:
        self.overridden = {n for n in names if n in self.following}
        for name, reset in self.resets.items():
            reset.setVisible(name in self.overridden)
        self.validate()

    def _set(self, values: dict[str, str]) -> None:
        self.blockSignals(True)
        self._quiet = True
        try:
            for name, text in values.items():
                self._setters[name](text)
        finally:
            self._quiet = False
            self.blockSignals(False)
        self.validate()

    def changed_texts(self) -> dict[str, str]:
        """Only values that differ from the defaults (what a --set would need)."""
        out = {}
        for name, text in self.texts().items():
            if not self.is_default(name, text):
                out[name] = text
        return out

    def is_default(self, name: str, text: str) -> bool:
        try:
            return bool(coerce(self.fields[name], text) == self.fields[name].default)
        except ParamError:
            return False

    def validate(self) -> dict[str, str]:
        """Show and return the message of every invalid field, beside that field.

        Each field is checked alone first (app.params.coerce); when all pass, the experiment is
        built from them (app.params.build), which adds the checks across fields (a block size
        larger than the test file), so the form refuses exactly what a run would refuse."""
        errors: dict[str, str] = {}
        texts = self.texts()
        for name, text in texts.items():
            try:
                coerce(self.fields[name], text)
            except ParamError as exc:
                errors[name] = exc.message
        if not errors:
            try:
                build(self.cls, texts)
            except ParamError as exc:
                errors[exc.name if exc.name in self.fields else ""] = exc.message
        for name, note in self._notes.items():
            if name in errors:
                note.setText(f"\u2716 {errors[name]}")
                theme.set_tone(note, "error", _SMALL)
            else:
                note.setText(help_text(self.meta[name]) + self._shared_note(name))
                theme.set_tone(note, "muted", _SMALL)
            note.setVisible(bool(note.text()))
        self.show_form_error(errors.get(""))
        return errors

    def show_form_error(self, message: str | None) -> None:
        self.form_error.setText(f"\u2716 {message}" if message else "")
        self.form_error.setVisible(bool(message))

    def _shared_note(self, name: str) -> str:
        """Where the value of a shared setting comes from, after its help."""
        if name in self.kept:
            return ". Kept for this experiment, not set from above: its result rests on it."
        if name not in self.following:
            return ""
        if name in self.overridden:
            above = self.shared_texts.get(name)
            return (f". \u270e Changed for this experiment only (above: {above}); Reset follows the "
                    "setting above again." if above else ". \u270e Changed for this experiment only.")
        return ". Follows the setting above the list."

    def _edited(self, *_args: object) -> None:
        if self._quiet:
            return
        sender = self.sender()
        name = self._name_of.get(sender) if isinstance(sender, QWidget) else None
        if name in self.following and name not in self.overridden:
            self.set_overridden(self.overridden | {name})   # typed here: this experiment's own
        self.validate()
        self.changed.emit()

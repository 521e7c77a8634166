"""A parameter form generated from an experiment's field metadata (DESIGN §7.1).

One declaration in the experiment's module (app/experiments/) gives the widget kind, the default,
the help text and the validation here, so a new parameter needs no UI code. Values are kept as the text people type
(``4k,64k``, ``30s``) and checked with ``app.params.coerce``; the message appears right under the
field instead of in a dialog, so typing is never interrupted.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.params import ParamError, build, coerce, describe, fields_of, parse_bool

_HELP_STYLE = "color:#666; font-size:small"
_ERROR_STYLE = "color:#b01e1e; font-size:small"


def field_title(name: str) -> str:
    return name.replace("_", " ").capitalize()


class ParamForm(QWidget):
    """Edits one experiment's parameters; ``changed`` fires on every user edit."""

    changed = Signal()

    def __init__(self, cls, parent: QWidget | None = None):
        super().__init__(parent)
        self.cls = cls
        self.fields = {f.name: f for f in fields_of(cls)}
        self.meta = {d["name"]: d for d in describe(cls)}
        self._getters: dict = {}
        self._setters: dict = {}
        self._notes: dict[str, QLabel] = {}
        self.form_error = QLabel()
        self.form_error.setStyleSheet(_ERROR_STYLE)
        self.form_error.setWordWrap(True)
        self.form_error.setTextFormat(Qt.TextFormat.PlainText)  # it quotes what the user typed
        self.form_error.hide()

        header = QLabel(f"<b>{cls.title}</b><br><span style='{_HELP_STYLE}'>{cls.summary}</span>")
        header.setWordWrap(True)
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        for name, d in self.meta.items():
            editor = self._editor(name, d)
            note = QLabel(self._help_text(name))
            note.setStyleSheet(_HELP_STYLE)
            note.setWordWrap(True)
            note.setTextFormat(Qt.TextFormat.PlainText)
            self._notes[name] = note
            cell = QVBoxLayout()
            cell.setSpacing(1)
            cell.addWidget(editor)
            cell.addWidget(note)
            label = QLabel(field_title(name) + ":")
            label.setToolTip(d["help"])
            form.addRow(label, cell)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(header)
        layout.addWidget(self.form_error)
        layout.addLayout(form)
        layout.addStretch(1)

    def _editor(self, name: str, d: dict) -> QWidget:
        kind = d["kind"]
        if kind == "bool":
            box = QCheckBox("yes")
            box.setChecked(bool(d["default"]))
            box.toggled.connect(self._edited)
            self._getters[name] = lambda: "true" if box.isChecked() else "false"
            self._setters[name] = lambda text: box.setChecked(_as_bool(text))
            return box
        if kind == "choice":
            combo = QComboBox()
            combo.addItems(d["choices"])
            combo.setCurrentText(d["default"])
            combo.currentTextChanged.connect(self._edited)
            self._getters[name] = combo.currentText
            self._setters[name] = combo.setCurrentText
            return combo
        if kind == "choice_list":
            holder = QWidget()
            row = QHBoxLayout(holder)
            row.setContentsMargins(0, 0, 0, 0)
            boxes = {c: QCheckBox(c) for c in d["choices"]}
            for choice, box in boxes.items():
                box.setChecked(choice in d["default"])
                box.toggled.connect(self._edited)
                row.addWidget(box)
            row.addStretch(1)
            self._getters[name] = lambda: ",".join(c for c, b in boxes.items() if b.isChecked())
            self._setters[name] = lambda text: [b.setChecked(c in str(text).split(","))
                                                for c, b in boxes.items()]
            return holder
        edit = QLineEdit(d["default_text"])
        edit.setPlaceholderText(d["default_text"])
        edit.setToolTip(d["help"])
        edit.textChanged.connect(self._edited)
        self._getters[name] = edit.text
        self._setters[name] = edit.setText
        return edit

    # -- values ---------------------------------------------------------------------------------
    def texts(self) -> dict[str, str]:
        return {name: get().strip() for name, get in self._getters.items()}

    def set_texts(self, values: dict[str, str]) -> None:
        """Every field to its default, then ``values`` on top (unknown names ignored)."""
        self.blockSignals(True)
        try:
            for name, d in self.meta.items():
                self._setters[name](values.get(name, d["default_text"]))
        finally:
            self.blockSignals(False)
        self.validate()

    def changed_texts(self) -> dict[str, str]:
        """Only values that differ from the defaults (what a --set would need)."""
        out = {}
        for name, text in self.texts().items():
            try:
                if coerce(self.fields[name], text) == self.fields[name].default:
                    continue
            except ParamError:
                pass
            out[name] = text
        return out

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
                note.setStyleSheet(_ERROR_STYLE)
            else:
                note.setText(self._help_text(name))
                note.setStyleSheet(_HELP_STYLE)
        self.show_form_error(errors.get(""))
        return errors

    def _help_text(self, name: str) -> str:
        d = self.meta[name]
        return d["help"] + (f" (default {d['default_text']})" if d["kind"] != "bool" else "")

    def show_form_error(self, message: str | None) -> None:
        self.form_error.setText(f"\u2716 {message}" if message else "")
        self.form_error.setVisible(bool(message))

    def _edited(self, *_args) -> None:
        self.validate()
        self.changed.emit()


def _as_bool(text) -> bool:
    """A saved yes/no value; one that no longer parses shows as unticked rather than failing."""
    try:
        return parse_bool(text)
    except ValueError:
        return False

"""A parameter form generated from an experiment's field metadata.

One declaration in the experiment's module (app/experiments/) gives the widget kind, the default,
the label, the help text and the validation here, so a new parameter needs no UI code. Values are kept as the text people type (``4k,64k``, ``30s``) and checked
with ``app.params.coerce``; the message appears right under the field instead of in a dialog, so
typing is never interrupted.

The experiment's own parameters come first (what a student came to change: queue depths, block
size); the parameters every experiment has follow under "Common to every experiment", with a
button that asks the panel to apply them to every ticked experiment (``apply_common``).
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
    QPushButton,
    QWidget,
)

from app.experiments.base import Experiment
from app.params import ParamError, build, coerce, describe, fields_of, label_of, parse_bool
from ui.window import theme
from ui.window.widgets import em

__all__ = ["COMMON", "ParamForm", "common_values"]

_SMALL = "font-size:small"   # help and errors under a field; their colour is the theme's
_COMMON_FIELDS = {f.name: f for f in fields_of(Experiment)}
COMMON = tuple(_COMMON_FIELDS)   # runtime, ramp, size, repetitions, ...


def choice_text(meta: dict, value: str) -> str:
    """'random read (randread)': the declared words, then the value the command line takes."""
    words = meta["choice_words"] or {}
    return f"{words[value]} ({value})" if value in words else value


def help_text(meta: dict) -> str:
    """The grey line under a field: what it is, how to write it, its default."""
    if meta["kind"] == "bool":
        return meta["help"]
    default = meta["default_text"].replace(",", ", ")   # a long list wraps at its commas
    return meta["help"] + (f"; {meta['hint']}" if meta["hint"] else "") + f" (default {default})"


class ParamForm(QWidget):
    """Edits one experiment's parameters; ``changed`` fires on every user edit,
    ``apply_common`` when the user asks for the common values in every ticked experiment."""

    changed = Signal()
    apply_common = Signal()

    def __init__(self, cls, parent: QWidget | None = None):
        super().__init__(parent)
        self.cls = cls
        self.fields = {f.name: f for f in fields_of(cls)}
        self.meta = {d["name"]: d for d in describe(cls)}
        self.editors: dict[str, QWidget] = {}
        self._getters: dict = {}
        self._setters: dict = {}
        self._notes: dict[str, QLabel] = {}
        self.form_error = QLabel()
        theme.set_tone(self.form_error, "error", _SMALL)
        self.form_error.setWordWrap(True)
        self.form_error.setTextFormat(Qt.TextFormat.PlainText)  # it quotes what the user typed
        self.form_error.hide()

        muted = theme.css("muted")
        header = QLabel(f"<b>{cls.title}</b><br><span style='color:{muted}; {_SMALL}'>{cls.summary}</span>")
        header.setWordWrap(True)
        # one flat form layout (no nested cells): a nested layout kept a stale height after a
        # note changed from one line to two, and the notes then overlapped the next field
        self.form = form = QFormLayout(self)
        form.setContentsMargins(4, 4, 4, 4)
        form.setVerticalSpacing(2)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(header)
        form.addRow(self.form_error)
        own = [n for n in self.meta if n not in COMMON]
        common = [n for n in self.meta if n in COMMON]
        for name in own:
            self._add_row(form, name)
        self.apply_button = QPushButton("Apply to all ticked experiments")
        self.apply_button.setToolTip(
            "Set these common values (runtime, size, repetitions, warm-up...) in every ticked "
            "experiment. A value you left at this experiment's default is not copied where "
            "another experiment's own default differs (the SLC test keeps its 2 min, no warm-up).")
        self.apply_button.clicked.connect(self.apply_common.emit)
        self.applied_note = QLabel()
        theme.set_tone(self.applied_note, "muted", _SMALL)
        self.applied_note.setWordWrap(True)
        self.applied_note.hide()
        if common:
            title = QLabel("<b>Common to every experiment</b> (runtime, size, repetitions, "
                           "warm-up...)")
            title.setWordWrap(True)
            title.setContentsMargins(0, em(self) // 2, 0, 0)
            form.addRow(title)
            form.addRow(self.apply_button)
            form.addRow(self.applied_note)
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
        form.addRow(label, editor)
        form.addRow(QLabel(), note)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Lay the rows out again for the new size: in a scroll area the form is resized to
        its new height before its layout has dropped the row heights of the old note texts,
        and a note that grew to two lines would then overlap the next field."""
        super().resizeEvent(event)
        self.form.invalidate()
        self.form.activate()

    def _editor(self, name: str, d: dict) -> QWidget:
        kind = d["kind"]
        if kind == "bool":
            box = QCheckBox("yes")   # the help is the line under it (a long box text cannot wrap)
            box.setChecked(bool(d["default"]))
            box.toggled.connect(self._edited)
            self._getters[name] = lambda: "true" if box.isChecked() else "false"
            self._setters[name] = lambda text: box.setChecked(_as_bool(text))
            return box
        if kind == "choice":
            combo = QComboBox()
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)   # never wider than the column
            for choice in d["choices"]:
                combo.addItem(choice_text(d, choice), choice)
            combo.setCurrentIndex(max(0, combo.findData(d["default"])))
            combo.currentIndexChanged.connect(self._edited)
            self._getters[name] = lambda: str(combo.currentData())
            self._setters[name] = lambda text: combo.setCurrentIndex(
                max(0, combo.findData(str(text).strip())))
            return combo
        if kind == "choice_list":
            holder = QWidget()
            row = QHBoxLayout(holder)
            row.setContentsMargins(0, 0, 0, 0)
            boxes = {c: QCheckBox(choice_text(d, c)) for c in d["choices"]}
            for choice, box in boxes.items():
                box.setChecked(choice in d["default"])
                box.toggled.connect(self._edited)
                row.addWidget(box)
            row.addStretch(1)
            self._getters[name] = lambda: ",".join(c for c, b in boxes.items() if b.isChecked())
            def check(text: object, boxes: dict[str, QCheckBox] = boxes) -> None:
                for c, b in boxes.items():
                    b.setChecked(c in str(text).split(","))
            self._setters[name] = check
            return holder
        edit = QLineEdit(d["default_text"])
        edit.setPlaceholderText(d["default_text"])
        edit.setToolTip(d["help"])
        edit.textChanged.connect(self._edited)
        self._getters[name] = edit.text
        self._setters[name] = edit.setText
        return edit

    def title_of(self, name: str) -> str:
        """What the form calls field ``name`` (a common one it does not show: what others do)."""
        return label_of(self.fields[name] if name in self.fields else _COMMON_FIELDS[name])

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
            if not self.is_default(name, text):
                out[name] = text
        return out

    def is_default(self, name: str, text: str) -> bool:
        try:
            return coerce(self.fields[name], text) == self.fields[name].default
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
                note.setText(help_text(self.meta[name]))
                theme.set_tone(note, "muted", _SMALL)
            note.setVisible(bool(note.text()))
        self.show_form_error(errors.get(""))
        return errors

    def show_form_error(self, message: str | None) -> None:
        self.form_error.setText(f"\u2716 {message}" if message else "")
        self.form_error.setVisible(bool(message))

    def show_applied(self, text: str) -> None:
        """What the last "Apply to all" did (cleared by the next edit)."""
        self.applied_note.setText(text)
        self.applied_note.setVisible(bool(text))

    def _edited(self, *_args) -> None:
        self.validate()
        self.show_applied("")
        self.changed.emit()


def common_values(source: ParamForm, other: ParamForm) -> tuple[dict[str, str], list[str]]:
    """The common parameters of ``source`` to set in ``other``, and those left as they are.

    A value the user left at ``source``'s default is copied only where that default is
    ``other``'s default too: "I never touched warm-up" must not switch the SLC test's warm-up
    on, nor set its 2 min runtime to 30 s. A value the user changed is always copied."""
    texts, values, kept = source.texts(), {}, []
    for name in COMMON:
        if name not in other.fields or name not in texts:
            continue
        if source.is_default(name, texts[name]) and \
                other.fields[name].default != source.fields[name].default:
            kept.append(name)
        else:
            values[name] = texts[name]
    return values, kept


def _as_bool(text) -> bool:
    """A saved yes/no value; one that no longer parses shows as unticked rather than failing."""
    try:
        return parse_bool(text)
    except ValueError:
        return False

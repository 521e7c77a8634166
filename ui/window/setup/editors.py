"""One field's editor, made from its declared metadata (app.params.describe): a check box, a
list to choose from, check boxes for a list of choices, or a line for text; with the line of help
under it. The form keeps the text people type; the editor reads and sets it as text.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLineEdit, QWidget

from app.params import parse_bool


@dataclass(frozen=True)
class Editor:
    widget: QWidget                  # what the form shows
    get: Callable[[], str]
    set: Callable[[str], None]
    parts: tuple[QWidget, ...]       # the widgets whose signals report an edit


def choice_text(meta: Mapping[str, Any], value: str) -> str:
    """'random read (randread)': the declared words, then the value the command line takes."""
    words = meta["choice_words"] or {}
    return f"{words[value]} ({value})" if value in words else value


def help_text(meta: Mapping[str, Any]) -> str:
    """The grey line under a field: what it is, how to write it, its default."""
    if meta["kind"] == "bool":
        return str(meta["help"])
    default = meta["default_text"].replace(",", ", ")   # a long list wraps at its commas
    return str(meta["help"]) + (f"; {meta['hint']}" if meta["hint"] else "") + f" (default {default})"


def make_editor(d: Mapping[str, Any], edited: Callable[..., None]) -> Editor:
    """The editor of field ``d``; ``edited`` is called on every change."""
    kind = d["kind"]
    if kind == "bool":
        box = QCheckBox("yes")   # the help is the line under it (a long box text cannot wrap)
        box.setChecked(bool(d["default"]))
        box.toggled.connect(edited)
        return Editor(box, lambda: "true" if box.isChecked() else "false",
                      lambda text: box.setChecked(_as_bool(text)), (box,))
    if kind == "choice":
        combo = QComboBox()
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(12)   # never wider than the column
        for choice in d["choices"]:
            combo.addItem(choice_text(d, choice), choice)
        combo.setCurrentIndex(max(0, combo.findData(d["default"])))
        combo.currentIndexChanged.connect(edited)
        return Editor(combo, lambda: str(combo.currentData()),
                      lambda text: combo.setCurrentIndex(max(0, combo.findData(str(text).strip()))),
                      (combo,))
    if kind == "choice_list":
        holder = QWidget()
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        boxes = {c: QCheckBox(choice_text(d, c)) for c in d["choices"]}
        for choice, box in boxes.items():
            box.setChecked(choice in d["default"])
            box.toggled.connect(edited)
            row.addWidget(box)
        row.addStretch(1)

        def check(text: object) -> None:
            for c, b in boxes.items():
                b.setChecked(c in str(text).split(","))
        return Editor(holder, lambda: ",".join(c for c, b in boxes.items() if b.isChecked()), check,
                      (holder, *boxes.values()))
    edit = QLineEdit(d["default_text"])
    edit.setPlaceholderText(d["default_text"])
    edit.setToolTip(d["help"])
    edit.textChanged.connect(edited)
    return Editor(edit, edit.text, edit.setText, (edit,))


def _as_bool(text: str) -> bool:
    """A saved yes/no value; one that no longer parses shows as unticked rather than failing."""
    try:
        return parse_bool(text)
    except ValueError:
        return False

"""The settings a run shares, set once above the experiment list: runtime or precision, size,
repetitions, warm-up.

Every ticked experiment follows them, except where the user overrode a value in that
experiment's form (shown there, with Reset) and where the experiment keeps its own because its
result rests on it (``Experiment.keeps_own``: the SLC test's duration and volume). A shared value
left at the common default forces nothing: an experiment whose own default differs (the quick
check's 5 s) keeps it, as ``--set`` given nothing would. The window passes the result to the
run as the CLI's scoped settings (``zero-queue.runtime=3s``), through each form's values.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QGridLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from app.experiments import CATALOG
from app.experiments.base import PRECISIONS, Experiment
from app.params import ParamError, coerce, describe, fields_of, label_of, parse_bool
from ui.window import theme
from ui.window.widgets import em

#: The shared settings, in the order they are shown.
SHARED = ("runtime", "precision", "size", "repetitions", "warmup")
_BASE = {f.name: f for f in fields_of(Experiment)}
_META = {d["name"]: d for d in describe(Experiment)}
_SHORT = {"runtime": "Runtime", "precision": "Precision", "size": "File size",
          "repetitions": "Repetitions"}
_WORDS = {"runtime": "runtime", "precision": "precision", "size": "size",
          "repetitions": "repetitions", "warmup": "warm-up"}


def default_text(name: str) -> str:
    """The common default as a form writes it (30s, 1GiB, 3, true, off)."""
    return str(_META[name]["default_text"])


def kept_names(eid: str) -> list[str]:
    """The shared settings experiment ``eid`` keeps its own value of."""
    return [n for n in SHARED if n in CATALOG[eid].keeps_own]


def followed(eid: str, fields: set[str]) -> list[str]:
    """The shared settings experiment ``eid`` follows (those it has and does not keep)."""
    return [n for n in SHARED if n in fields and n not in CATALOG[eid].keeps_own]


class SharedSettings(QFrame):
    """Emits ``changed`` on every edit; ``texts()`` are the values as typed."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.editors: dict[str, QWidget] = {}
        self.runtime = QLineEdit()
        self.precision = QComboBox()
        self.precision.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.precision.setMinimumContentsLength(6)   # never wider than the column
        for choice in PRECISIONS:
            self.precision.addItem("off" if choice == "off" else f"\u00b1 {choice}", choice)
        self.size_edit = QLineEdit()
        self.repetitions = QLineEdit()
        self.warmup = QCheckBox("Warm-up")
        self.editors = {"runtime": self.runtime, "precision": self.precision, "size": self.size_edit,
                        "repetitions": self.repetitions, "warmup": self.warmup}
        for name, editor in self.editors.items():
            editor.setToolTip(f"{label_of(_BASE[name])}: {_META[name]['help']}")
        for edit in (self.runtime, self.size_edit, self.repetitions):
            edit.textChanged.connect(self._edited)
            edit.setMinimumWidth(4 * em(self))   # "500ms", "256MiB" whole
        self.precision.currentIndexChanged.connect(self._edited)
        self.warmup.toggled.connect(self._edited)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setTextFormat(Qt.TextFormat.PlainText)   # it quotes what the user typed
        self.error.hide()
        self.kept = QLabel()
        self.kept.setWordWrap(True)
        theme.set_tone(self.kept, "muted", "font-size:small")
        self.kept.hide()

        # two rows, titled on their left: the set-up column's height is scarce at 1280x720
        self.title = QLabel("<b>Every ticked<br>experiment:</b>")
        self.title.setToolTip("These settings apply to every ticked experiment; a value changed "
                              "in one experiment's form applies to that one only")
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 2, 4, 2)
        grid.setVerticalSpacing(1)
        grid.addWidget(self.title, 0, 0, 2, 1)
        cells = [("runtime", 0, 1), ("precision", 0, 3), ("size", 1, 1), ("repetitions", 1, 3)]
        for name, row, col in cells:
            label = QLabel(_SHORT[name] + ":")
            label.setBuddy(self.editors[name])
            label.setToolTip(f"{label_of(_BASE[name])}: {_META[name]['help']}")
            grid.addWidget(label, row, col)
            grid.addWidget(self.editors[name], row, col + 1)
        grid.addWidget(self.warmup, 1, 5)
        grid.addWidget(self.error, 2, 0, 1, 6)
        grid.addWidget(self.kept, 3, 0, 1, 6)
        grid.setColumnStretch(2, 1)
        grid.setColumnStretch(4, 1)
        self.set_texts({})

    # -- values ---------------------------------------------------------------------------------
    def texts(self) -> dict[str, str]:
        return {"runtime": self.runtime.text().strip(), "precision": str(self.precision.currentData()),
                "size": self.size_edit.text().strip(), "repetitions": self.repetitions.text().strip(),
                "warmup": "true" if self.warmup.isChecked() else "false"}

    def set_texts(self, values: dict[str, str]) -> None:
        """Every setting to the common default, then ``values`` on top (no ``changed``)."""
        values = {n: values.get(n, default_text(n)) for n in SHARED}
        self.blockSignals(True)
        try:
            self.runtime.setText(values["runtime"])
            self.size_edit.setText(values["size"])
            self.repetitions.setText(values["repetitions"])
            self.precision.setCurrentIndex(max(0, self.precision.findData(values["precision"])))
            self.warmup.setChecked(_as_bool(values["warmup"]))
        finally:
            self.blockSignals(False)
        self.validate()

    def set_value(self, name: str, text: str) -> None:
        """One setting, as if typed (``changed`` fires)."""
        self.set_texts({**self.texts(), name: text})
        self.changed.emit()

    def is_set(self, name: str) -> bool:
        """True when ``name`` differs from the common default: only then does it override an
        experiment's own default (the quick check's 5 s)."""
        try:
            return bool(coerce(_BASE[name], self.texts()[name]) != _BASE[name].default)
        except ParamError:
            return True

    def changed_texts(self) -> dict[str, str]:
        return {n: t for n, t in self.texts().items() if self.is_set(n)}

    def validate(self) -> dict[str, str]:
        errors = {}
        for name, text in self.texts().items():
            try:
                coerce(_BASE[name], text)
            except ParamError as exc:
                errors[name] = exc.message
        for name, editor in self.editors.items():
            editor.setStyleSheet(f"border: 1px solid {theme.css('error')}" if name in errors else "")
        message = "; ".join(f"{label_of(_BASE[n])}: {m}" for n, m in errors.items())
        self.error.setText(f"\u2716 {message}" if message else "")
        theme.set_tone(self.error, "error", "font-size:small")
        self.error.setVisible(bool(message))
        return errors

    def show_kept(self, ids: list[str]) -> None:
        """Which ticked experiments keep their own values of these settings, and why."""
        groups: dict[tuple[str, ...], list[str]] = {}
        for eid in ids:
            names = tuple(_WORDS[n] for n in kept_names(eid))
            if names:
                groups.setdefault(names, []).append(eid)
        parts = [f"{_and(eids)} {'keeps its' if len(eids) == 1 else 'keep their'} own {_and(list(names))}"
                 for names, eids in groups.items()]
        text = "; ".join(parts) + ": the result rests on them (change them in its form)." if parts else ""
        self.kept.setText(text)
        self.kept.setVisible(bool(text))

    def focus_chain(self) -> list[QWidget]:
        return [self.editors[n] for n in SHARED]

    def _edited(self, *_args: object) -> None:
        self.validate()
        self.changed.emit()


def _as_bool(text: str) -> bool:
    try:
        return parse_bool(text)
    except ValueError:
        return False


def _and(words: list[str]) -> str:
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)

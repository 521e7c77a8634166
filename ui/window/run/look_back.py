"""Looking back at a finished experiment during a run: a temporary view with a way back.

Why: a click on a finished experiment (or a zoom) stops the charts following the run, and a
chart that stays on an old experiment while the run goes on makes the run look stalled. So
while the charts do not follow, "Back to live" (and, during a run, "pin") float over the top
right corner of the charts (over them, so the chart bar never gets wider), and the charts return to the running experiment by themselves when that experiment ends or
after RETURN_S, unless the user ticked "pin" (then they stay until "Back to live").
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QPushButton, QWidget

from ui.window.run.run_model import RunModel

RETURN_S = 30.0   # a look back at a live run lasts this long unless pinned


class LookBack(QObject):
    """Shows and hides ``back_button`` and ``pin_box`` over ``view`` and brings the charts back."""

    def __init__(self, view: QWidget, follow_box: QCheckBox, model: RunModel):
        super().__init__(view)
        self.view, self.follow_box, self.model = view, follow_box, model
        self.overlay = QWidget(view)
        self.overlay.setAutoFillBackground(True)
        self.back_button = QPushButton("Back to live")
        self.pin_box = QCheckBox("pin")
        self.pin_box.setToolTip("Keep this view: do not return to the running experiment by itself")
        row = QHBoxLayout(self.overlay)
        row.setContentsMargins(4, 2, 4, 2)
        row.addWidget(self.back_button)
        row.addWidget(self.pin_box)
        view.installEventFilter(self)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._expired)
        self._running: str | None = None   # the experiment running when the look back began
        self.back_button.clicked.connect(self.back_to_live)
        self.pin_box.toggled.connect(lambda _on: self._update())
        follow_box.toggled.connect(lambda _on: self._update())
        model.state_changed.connect(self._on_state)
        model.trial_started.connect(lambda _trial: self._on_state())
        model.reset.connect(self._update)
        self._update()

    def live(self) -> bool:
        model = self.model
        return bool(model.live and not model.finished)

    def running_experiment(self) -> str | None:
        model = self.model
        return model.current.experiment if model.current is not None and not model.finished else None

    def looking_back(self) -> bool:
        return not self.follow_box.isChecked()

    def back_to_live(self) -> None:
        self.pin_box.setChecked(False)
        self.follow_box.setChecked(True)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.view and event.type() == QEvent.Type.Resize:
            self._place()
        return False

    def _place(self) -> None:
        self.overlay.adjustSize()
        self.overlay.move(max(0, self.view.width() - self.overlay.width() - 8), 4)
        self.overlay.raise_()

    def _update(self) -> None:
        back = self.looking_back()
        self.pin_box.setVisible(back and self.live())
        self.overlay.setVisible(back)
        if back:
            self._place()
        if not back:
            self.pin_box.setChecked(False)
        if back and self.live() and not self.pin_box.isChecked():
            if not self.timer.isActive():
                self._running = self.running_experiment()
                self.timer.start(int(RETURN_S * 1000))
            seconds = round(self.timer.remainingTime() / 1000)
            self.back_button.setToolTip(
                f"Show the running experiment again (it returns by itself in about {seconds} s, "
                "or when the running experiment ends; tick pin to stay)")
        else:
            self.timer.stop()
            self.back_button.setToolTip("Follow the running experiment again")

    def _on_state(self) -> None:
        """The experiment that was running when the look back began has ended: back to live."""
        if self.looking_back() and self.live() and not self.pin_box.isChecked() \
                and self._running is not None and self.running_experiment() != self._running:
            self.back_to_live()
        else:
            self._update()

    def _expired(self) -> None:
        if self.looking_back() and self.live() and not self.pin_box.isChecked():
            self.back_to_live()

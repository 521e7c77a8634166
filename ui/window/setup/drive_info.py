"""The drive behind the target folder: identity, medium (what the folder really sits on),
interface and link, health, temperature now.

Why it matters before Run: a result means little without knowing what was measured (a PCIe 3.0
link on a 4.0 drive, a worn drive, a virtual disk whose numbers are the host's cache). All of it
is read in the background (``describe_drive`` runs smartctl); this widget only shows the frozen
:class:`DriveSummary` that comes back, drops answers to older questions, and re-reads the
temperature every few seconds while idle. During a run it stops polling: the run's own sampler
reads the sensor (two readers of one NVMe log page would only add load) and feeds the chart.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

from ui.window import theme
from ui.window.background import Background
from ui.window.plain import plain_tip
from ui.window.setup.drive_text import (
    DriveSummary,
    TemperaturePoller,
    TemperatureReading,
    describe_target,
    temperature_line,
)

POLL_MS = 5000
_TONES = {"pass": "ok", "fail": "error", "unknown": "muted"}
_NOTE_TONES = {"ram": "error", "zram": "error"}   # refused unless allowed; others: amber


def medium_html(summary: DriveSummary) -> str:
    """The stack on one line, and under it what the medium means for the numbers, in colour:
    a network share, a virtual disk or a loop image is measured too, and the user should know
    before pressing Run."""
    text = html.escape(summary.medium or "not known")
    if summary.medium_note:
        tone = _NOTE_TONES.get(summary.medium_kind, "warning")
        text += "<br>" + theme.span(tone, html.escape(summary.medium_note))
    return text


def _label() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class DriveInfo(QWidget):
    """``show_for(path)`` when the target changes; ``set_running`` pauses the temperature poll.
    ``described`` carries the DriveSummary shown (None: no drive), for the vendor spec."""

    described = Signal(object)

    def __init__(self, background: Background, parent: QWidget | None = None):
        super().__init__(parent)
        self.background = background
        self.summary: DriveSummary | None = None
        self.last_reading: TemperatureReading | None = None
        self.describes = 0               # describe jobs started (tests count them)
        self.polls = 0                   # temperature reads delivered
        self._asked: str | None = None   # the path of the newest describe question
        self._poller: TemperaturePoller | None = None
        self._poll_in_flight = False
        self._running = False
        self.identity, self.interface, self.health, self.temperature = (_label() for _ in range(4))
        self.medium = _label()
        form = QFormLayout(self)
        form.setContentsMargins(0, 2, 0, 2)
        form.setVerticalSpacing(2)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for name, label in (("Drive:", self.identity), ("Medium:", self.medium),
                            ("Interface:", self.interface), ("Health:", self.health),
                            ("Temperature:", self.temperature)):
            form.addRow(name, label)
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self._poll)
        self._clear("Choose a target folder to see its drive.")

    # -- public ---------------------------------------------------------------------------------
    def show_for(self, path: str) -> None:
        path = path.strip()
        if path == self._asked:
            return
        self._asked = path
        if not path:
            self._clear("Choose a target folder to see its drive.")
            return
        if self.summary is None:
            self._clear("reading the drive...")
        known = self.summary
        self.describes += 1
        self.background.submit(lambda: describe_target(path, known), self._show,
                               lambda exc: self._failed(path, exc))

    def show_remote(self, where: str) -> None:
        """A folder on a fio server's machine: a fio job cannot read the drive's
        identity, SMART or temperature, so every row says so; this machine's drives are never
        offered as a guess. Answers still coming for a local path are dropped (``_asked``)."""
        if self._asked == f"remote {where}":
            return
        self._asked = f"remote {where}"
        self._clear("")
        self.identity.setText(f"<span>not available remotely (the drive under the folder on "
                              f"{html.escape(where)}: a fio job cannot read its identity)</span>")
        for label in (self.medium, self.interface, self.health, self.temperature):
            label.setText(theme.span("muted", "not available remotely"))
        self._relayout()

    def set_running(self, running: bool) -> None:
        self._running = running
        self._update_timer()

    @property
    def polling(self) -> bool:
        return self.timer.isActive()

    # -- internals ------------------------------------------------------------------------------
    def _clear(self, note: str) -> None:
        if self.summary is not None:
            self.described.emit(None)
        self.summary, self._poller = None, None
        self.identity.setText(note)
        for label in (self.medium, self.interface, self.health, self.temperature):
            label.setText("-")
            label.setToolTip("")
        self._relayout()
        self._update_timer()

    def _failed(self, path: str, exc: BaseException) -> None:
        if path == self._asked:
            self._clear(f"cannot read the drive: {exc}")

    def _show(self, summary: DriveSummary) -> None:
        if summary.path != self._asked:
            return  # an answer to an older question
        same_drive = self.summary is not None and self.summary.probe == summary.probe
        self.summary = summary
        drive, _, volume = summary.identity.partition("\n")   # the volume line in grey
        self.identity.setText(html.escape(drive) + (
            "<br>" + theme.span("muted", html.escape(volume)) if volume else ""))
        self.medium.setText(medium_html(summary))
        self.interface.setText(summary.interface)
        self.health.setText(theme.span(_TONES[summary.health_state], html.escape(summary.health)))
        if not same_drive:
            self.last_reading = None
            self._set_temperature(summary.temperature, summary.temperature_source is not None)
            self._poller = TemperaturePoller(summary.probe) if summary.temperature_source else None
        self.temperature.setToolTip(plain_tip(summary.temperature_tip))
        self._relayout()
        self._update_timer()
        self.described.emit(summary)

    def _relayout(self) -> None:
        """QFormLayout keeps the row heights it computed for the old texts (a wrapped medium
        note came out one line short, cut off, at 1280x720); recompute them for the new ones."""
        layout = self.layout()
        if layout is None:
            return
        layout.invalidate()
        QTimer.singleShot(0, self, layout.invalidate)   # and once the widths have settled

    def _set_temperature(self, text: str, known: bool) -> None:
        self.temperature.setText(theme.span("text" if known else "muted", html.escape(text)))

    def _update_timer(self) -> None:
        if self._poller is not None and not self._running:
            if not self.timer.isActive():
                self.timer.start()
        else:
            self.timer.stop()

    def _poll(self) -> None:
        if self._poll_in_flight or self._poller is None or self._running:
            return
        self._poll_in_flight = True
        poller = self._poller
        self.background.submit(poller.poll, lambda reading: self._show_reading(poller, reading),
                               lambda exc: self._show_reading(poller, TemperatureReading(
                                   None, None, f"temperature unavailable: {exc}")))

    def _show_reading(self, poller: TemperaturePoller, reading: TemperatureReading) -> None:
        self._poll_in_flight = False
        if poller is not self._poller or self._running:
            return  # another drive now, or a run started: its sampler owns the sensor
        self.polls += 1
        self.last_reading = reading
        warning = self.summary.warning_c if self.summary is not None else None
        self._set_temperature(temperature_line(reading.celsius, reading.source, reading.detail,
                                               warning), reading.celsius is not None)


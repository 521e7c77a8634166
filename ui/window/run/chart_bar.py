"""The line above the live charts: the legend and the chart options (IOPS, log latency, follow).

Why its own widget: it must never widen the window (the old line held a long sentence and three
long check boxes, about 1,000 px at the smallest); here the sentence elides and the options
are short, with their explanation as tooltips.
"""
from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QWidget

from ui.window.widgets import ElidedLabel, em

LEGEND = ("<span style='color:#1f77b4'>━━ read</span>&nbsp;&nbsp;"
          "<span style='color:#e67814'>━━ write</span>&nbsp;&nbsp;"
          "<span style='color:#969696'>│ trial start</span>")


class ChartBar(QWidget):
    """``iops_box``, ``log_box`` and ``follow_box``; the charts connect to their toggles."""

    def __init__(self, show_iops: bool, parent: QWidget | None = None):
        super().__init__(parent)
        self.iops_box = QCheckBox("IOPS instead of MB/s")
        self.iops_box.setChecked(show_iops)
        self.log_box = QCheckBox("log latency axis")
        self.log_box.setToolTip("Latency on a logarithmic scale: spikes and the usual level both "
                                "readable")
        self.follow_box = QCheckBox("follow the run")
        self.follow_box.setChecked(True)
        self.follow_box.setToolTip("Keep the whole run in view; zooming or panning turns this off")
        note = ElidedLabel("Per-interval values (not running averages), one time axis for the run.")
        note.setStyleSheet("color:#555")
        bar = QHBoxLayout(self)
        bar.setContentsMargins(4, 0, 4, 0)
        bar.addWidget(QLabel(LEGEND))
        bar.addSpacing(em(self))
        bar.addWidget(note, 1)
        for box in (self.iops_box, self.log_box, self.follow_box):
            bar.addWidget(box)

"""The line above the live charts: the legend (and the pens it names) and the chart options.

Why its own widget: it must never widen the window (the old line held a long sentence and three
long check boxes, about 1,000 px at the smallest); here the sentence elides and the options
are short, with their explanation as tooltips.
"""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QWidget

from ui.window.widgets import ElidedLabel, em

# the curves' pens, beside the legend that names them
_DASH = Qt.PenStyle.DashLine
PENS = {"read": pg.mkPen((31, 119, 180), width=1), "write": pg.mkPen((230, 120, 20), width=1),
        "read_p99": pg.mkPen((31, 119, 180), width=1, style=_DASH),
        "write_p99": pg.mkPen((230, 120, 20), width=1, style=_DASH),
        "temperature": pg.mkPen((200, 40, 40), width=1),
        "boundary": pg.mkPen((175, 175, 175), width=1)}  # solid: dashes cost more to draw
LEGEND = ("<span style='color:#1f77b4'>━━ read</span>&nbsp;&nbsp;"
          "<span style='color:#e67814'>━━ write</span>&nbsp;&nbsp;"
          "<span style='color:#555'>╌╌ p99</span>&nbsp;&nbsp;"
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
        note.setToolTip("Latency: the mean of each interval (solid) and its p99 (dashed), read "
                        "from the interval's own histogram when it holds at least 1,000 I/Os.")
        note.setStyleSheet("color:#555")
        bar = QHBoxLayout(self)
        bar.setContentsMargins(4, 0, 4, 0)
        bar.addWidget(QLabel(LEGEND))
        bar.addSpacing(em(self))
        bar.addWidget(note, 1)
        for box in (self.iops_box, self.log_box, self.follow_box):
            bar.addWidget(box)

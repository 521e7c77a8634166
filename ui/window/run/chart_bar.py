"""The line above the live charts: the legend (coloured by chart_colors) and the chart options.

Why its own widget: it must never widen the window (the old line held a long sentence and three
long check boxes, about 1,000 px at the smallest); here the sentence elides and the options
are short, with their explanation as tooltips; the sentence has shorter wordings, never cut.
"""
from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QWidget

from ui.window import theme
from ui.window.widgets import ElidedLabel, em


class ChartBar(QWidget):
    """``iops_box``, ``log_box`` and ``follow_box``; the charts connect to their toggles."""

    def __init__(self, show_iops: bool, parent: QWidget | None = None):
        super().__init__(parent)
        self.iops_box = QCheckBox("IOPS")
        self.iops_box.setToolTip("Throughput in IOPS instead of MB/s")
        self.iops_box.setChecked(show_iops)
        self.log_box = QCheckBox("log latency")
        self.log_box.setToolTip("Latency on a logarithmic scale: spikes and the usual level both "
                                "readable")
        self.follow_box = QCheckBox("follow")
        self.follow_box.setChecked(True)
        self.follow_box.setToolTip("Keep the running experiment in view; zooming, panning or "
                                   "clicking a finished experiment in the timeline turns this off "
                                   "for a while (Back to live returns at once)")
        note = ElidedLabel("Per-interval values (not running averages), one experiment at a time.")
        note.set_shorter("Per-interval values, not averages.", "Per interval", "")
        note.setToolTip("Per-interval values (not running averages), one experiment at a time: "
                        "the timeline above picks which. ""Latency: the mean of each interval (solid) and its p99 (dashed), read "
                        "from the interval's own histogram when it holds at least 1,000 I/Os.")
        theme.set_tone(note, "muted")
        bar = QHBoxLayout(self)
        bar.setContentsMargins(4, 0, 4, 0)
        self.legend = QLabel()   # its text and colours: chart_colors.apply
        bar.addWidget(self.legend)
        bar.addSpacing(em(self))
        bar.addWidget(note, 1)
        for box in (self.iops_box, self.log_box, self.follow_box):
            bar.addWidget(box)

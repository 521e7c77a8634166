"""During a remote run, the latency chart says why it is empty.

A fio client receives no live latency from a fio server: only total MB/s and IOPS arrive while a
trial runs (app/engines/fio/remote_result.py). fio's own per-interval series (latency and p99
too) replaces the live one in samples.csv when each trial ends, but the live charts are not
redrawn from it: the table has each trial's latency, and the reopened run charts it all. An
empty latency chart beside a busy throughput chart looks like a bug, so
while the run is remote and no latency has arrived, the chart itself names what is not available
remotely, from run.json's ``target.remote.live`` (never a list of our own). The line under the
charts says the same of the temperature ("Temperature not charted: not available remotely").

Kept apart from live_charts.py: it only watches the model and places one text item on the chart.
"""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject

from app.model.info import Remote, RemoteLive
from ui.window import theme
from ui.window.run.live_charts import LAT_COLUMNS, LiveCharts
from ui.window.run.run_model import RunModel


def remote_live_text(remote: Remote | None) -> str:
    """'Remote run on H: live charts show total MB/s and total IOPS only; not available
    remotely: ...' from run.json's target.remote, or '' for a local run."""
    if not remote:
        return ""
    live = remote.live or RemoteLive()
    where = ", ".join(f"{h.host}:{h.port}" for h in remote.every_host)
    shown = " and ".join(live.available or ()) or "throughput"
    missing = ", ".join(live.not_available or ()) or "latency"
    return (f"Remote run on {where}: live charts show {shown} only.\n"
            f"Not available remotely while a trial runs: {missing}.\n"
            "Each trial's latency and p99 are in the Results table when it ends; reopen the run "
            "(Runs tab) to chart them.")


class RemoteLiveNote(QObject):
    """The note on ``charts``' latency chart; visible while the model's run is remote and no
    latency value has arrived yet (``visible`` for tests, ``text`` what it says)."""

    def __init__(self, charts: LiveCharts, model: RunModel):
        super().__init__(charts)
        self.charts, self.model = charts, model
        self.text = ""
        self.item = pg.TextItem("", anchor=(0.5, 0.5))
        self._recolour()
        theme.watcher().changed.connect(self._recolour)
        self.item.setParentItem(charts.lat_plot.getViewBox())
        self.item.setVisible(False)
        charts.lat_plot.getViewBox().sigResized.connect(self._place)
        for signal in (model.reset, model.state_changed, model.samples_added, model.trial_ended):
            signal.connect(self._update)

    def _recolour(self) -> None:
        self.item.setColor(theme.tone("warning", background=theme.Role.Base))  # on the chart

    @property
    def visible(self) -> bool:
        return bool(self.item.isVisible())  # a pyqtgraph TextItem's

    def _update(self, *_args: object) -> None:
        text = remote_live_text(self.model.remote)
        if text != self.text:
            self.text = text
            self.item.setHtml("<div style='text-align:center'>"
                              + html.escape(text).replace("\n", "<br>") + "</div>")
            self._place()
        # the columns are scanned only for a remote run's note: a local run has none, and a
        # scan of every sample on every sample grew with the run
        series = self.model.series
        self.item.setVisible(bool(text) and not (series.samples > 0 and any(
            np.isfinite(series.column(c)).any() for c in LAT_COLUMNS)))

    def _place(self, *_args: object) -> None:
        """Centred, and wrapped to the chart's width: never wider than the chart it explains."""
        box = self.charts.lat_plot.getViewBox().boundingRect()
        self.item.setTextWidth(max(120.0, box.width() * 0.9))
        self.item.setPos(box.center())

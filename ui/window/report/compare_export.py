"""Exporting a comparison from the window without freezing it: RunExporter's split, reused.

Why a subclass and not a second copy: the comparison's export (app.compare.export) writes its
files in a thread of its own and calls a render callback per figure, exactly like a run's
export; RunExporter already hands each figure to the GUI thread (the only one allowed to draw)
and waits for it, cancellably. Only what the thread calls differs, so only ``start`` is here. The files are those of ``ssd-profiler compare ... --out DIR``.
"""
from __future__ import annotations

from app.compare.export import export_comparison
from app.compare.report import Comparison
from ui.window.report.export_action import RunExporter


class ComparisonExporter(RunExporter):
    """``start(comparison, out_dir)``; then ``progress``, and ``finished(dir)`` or
    ``failed(one line)``, as RunExporter."""

    def start(self, comparison: Comparison, out_dir: str) -> None:  # type: ignore[override]
        self._launch(lambda: export_comparison(comparison, str(out_dir), self._render_on_gui),
                     "ssd-compare-export", "comparison export")

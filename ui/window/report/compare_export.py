"""Exporting a comparison from the window without freezing it: RunExporter's split, reused.

Why a subclass and not a second copy: the comparison's export (app.compare.export) writes its
files in a thread of its own and calls a render callback per figure, exactly like a run's
export; RunExporter already hands each figure to the GUI thread (the only one allowed to draw)
and waits for it, cancellably. Only what the thread calls differs, so only ``start`` and the
thread's body are here. The files are those of ``ssd-profiler compare ... --out DIR``.
"""
from __future__ import annotations

import logging
import threading

from app.compare.export import export_comparison
from app.compare.report import Comparison
from ui.window.report.export_action import RunExporter

log = logging.getLogger(__name__)


class ComparisonExporter(RunExporter):
    """``start(comparison, out_dir)``; then ``progress``, and ``finished(dir)`` or
    ``failed(one line)``, as RunExporter."""

    def start(self, comparison: Comparison, out_dir: str) -> None:  # type: ignore[override]
        if self.busy:
            raise RuntimeError("an export is already going on")
        self._cancel.clear()
        self.drawn = 0
        self._thread = threading.Thread(target=self._export, args=(comparison, str(out_dir)),
                                        name="ssd-compare-export", daemon=True)
        self._thread.start()

    def _export(self, comparison: Comparison, out_dir: str) -> None:
        try:
            out = export_comparison(comparison, out_dir, self._render_on_gui)
        except ValueError as exc:  # the folder is refused: one line, no traceback
            log.info("comparison export refused: %s", exc)
            self._emit(self.failed, str(exc))
        except OSError as exc:
            log.info("comparison export failed: %s", exc)
            self._emit(self.failed, f"cannot write the export: {exc}")
        except Exception as exc:  # noqa: BLE001 - a bug: shown to the user, with the cause
            log.exception("comparison export failed")
            self._emit(self.failed, f"{type(exc).__name__}: {exc}")
        else:
            self._emit(self.finished, str(out))

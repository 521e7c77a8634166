"""Exporting the shown run from the window without freezing it, and without painting off-thread.

Why this split: ``app.report.export.export_run`` reads the run, writes tables and the reports (slow on a
big samples.csv, fine in any thread), but calls ``ui.render.figure_files.render_figure`` for every
figure, and that builds a pyqtgraph PlotWidget, shows it offscreen and grabs it: widget code,
which Qt allows on the GUI thread only. So the export runs in its own thread, and its render
callback hands each figure (a frozen spec plus two paths) to the GUI thread, which draws that one
figure (0.3-0.8 s) and goes back to the event loop; progress is reported per figure. report.pdf is
printed there too (ui/render/pdf.py), once, from the report's HTML. The same
export_run, renderer and folder layout as ``ssd-profiler export``, so both give the same files.

The hand-back is a ``concurrent.futures.Future``: the thread-safe one-shot slot for "done" or
"this exception". Cancelling (window closing) makes the waiting render call give up, after
which export_run records the figures as not drawn and still writes report.md.

The export folder follows the same rule as the command line (app.report.export_folder): never a
folder that holds files the app did not write. A refusal is a ValueError whose one-line reason
goes to ``failed`` as it is, for the message area, without a traceback in the log.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, Qt, Signal, SignalInstance

from app.report.export import export_run
from app.report.options import ReportOptions

if TYPE_CHECKING:
    from app.results.figure import Figure

log = logging.getLogger(__name__)
T = TypeVar("T")

WAIT_SLICE_S = 0.2   # how often a waiting render call checks for cancellation


class ExportCancelled(Exception):
    """The window closed while the export waited for a figure to be drawn."""


class RunExporter(QObject):
    """``start(run_dir, out_dir)``; then ``progress(drawn, title)`` per figure and one of
    ``finished(export_dir)`` or ``failed(message)``. One export at a time."""

    progress = Signal(int, str)
    finished = Signal(str)
    failed = Signal(str)
    _render_requested = Signal(object, object, object, object)   # figure, png, svg, future
    _print_requested = Signal(object, object, object)             # html, files, future

    def __init__(self, render: Callable[[Figure, Path, Path], object] | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self._render = render
        self._thread: threading.Thread | None = None
        self._running = False
        self._cancel = threading.Event()
        self.drawn = 0
        self._render_requested.connect(self._render_here, Qt.ConnectionType.QueuedConnection)
        self._print_requested.connect(self._print_here, Qt.ConnectionType.QueuedConnection)

    @property
    def busy(self) -> bool:
        """True from start() until the export's outcome is known: cleared before the outcome is
        signalled, so the window, updating on that signal, sees the export as over (the thread
        itself may still be ending then, and Export stayed disabled after an export)."""
        return self._running

    def start(self, run_dir: str, out_dir: str | None = None,
              options: ReportOptions | None = None) -> None:
        self._launch(lambda: export_run(run_dir, out_dir, self._render_on_gui,
                                        pdf=self._print_on_gui, options=options),
                     "ssd-export", f"export of {run_dir}")

    def _launch(self, work: Callable[[], object], name: str, what: str) -> None:
        """Run ``work`` (it returns the export folder) in a thread of its own."""
        if self.busy:
            raise RuntimeError("an export is already going on")
        self._cancel.clear()
        self.drawn = 0
        self._running = True
        self._thread = threading.Thread(target=self._work, args=(work, what), name=name, daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self, timeout_s: float) -> bool:
        """True when no export thread is left running after at most ``timeout_s``."""
        if self._thread is not None:
            self._thread.join(timeout_s)
        return not self.busy

    # -- the export thread ---------------------------------------------------------------------
    def _work(self, work: Callable[[], object], what: str) -> None:
        outcome, text = self.failed, ""
        try:
            outcome, text = self.finished, str(work())
        except ValueError as exc:  # refused (not a run, damaged, a folder it must not write)
            log.info("%s refused: %s", what, exc)
            text = str(exc)
        except OSError as exc:
            log.info("%s failed: %s", what, exc)
            text = f"cannot write the export: {exc}"
        except Exception as exc:  # noqa: BLE001 - a bug: shown to the user, with the cause
            log.exception("%s failed", what)
            text = f"{type(exc).__name__}: {exc}"
        finally:
            self._running = False
        self._emit(outcome, text)

    def _emit(self, signal: SignalInstance, *args: object) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:  # the window (and this QObject) is gone
            pass

    def _render_on_gui(self, fig: Figure, png: Path, svg: Path) -> None:
        """The render callback export_run calls in the export thread: draw on the GUI thread and
        wait (sliced, cancellable) for it; the drawing's exception is re-raised here."""
        if self._cancel.is_set():
            raise ExportCancelled("the window was closed")
        done: Future[None] = Future()
        self._emit(self._render_requested, fig, Path(png), Path(svg), done)
        self._wait(done)

    def _print_on_gui(self, html: str, files: Mapping[str, bytes]) -> bytes:
        """The PDF printer export_run calls: Qt's text engine prints on the GUI thread too."""
        if self._cancel.is_set():
            raise ExportCancelled("the window was closed")
        done: Future[bytes] = Future()
        self._emit(self._print_requested, html, files, done)
        return self._wait(done)

    def _wait(self, done: Future[T]) -> T:
        """The GUI thread's result, waited for in slices so that closing the window ends it."""
        while True:
            try:
                return done.result(timeout=WAIT_SLICE_S)
            except TimeoutError:
                if self._cancel.is_set():
                    done.cancel()
                    raise ExportCancelled("the window was closed") from None

    # -- the GUI thread ------------------------------------------------------------------------
    def _render_here(self, fig: Figure, png: Path, svg: Path, done: Future[None]) -> None:
        if not done.set_running_or_notify_cancel():
            return
        try:
            if self._render is None:
                from ui.render.figure_files import render_figure
                self._render = render_figure
            self._render(fig, png, svg)
        except BaseException as exc:  # noqa: BLE001 - handed back to the export thread
            done.set_exception(exc)
        else:
            done.set_result(None)
        self.drawn += 1
        self.progress.emit(self.drawn, fig.title)

    def _print_here(self, html: str, files: Mapping[str, bytes], done: Future[bytes]) -> None:
        if not done.set_running_or_notify_cancel():
            return
        try:
            from ui.render.pdf import html_to_pdf
            done.set_result(html_to_pdf(html, files))
        except BaseException as exc:  # noqa: BLE001 - handed back to the export thread
            done.set_exception(exc)

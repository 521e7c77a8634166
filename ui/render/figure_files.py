"""Figure spec -> PNG and SVG files, offscreen: the export's renderer.

The report widget is laid out at its final pixel size and exported 1:1, so fonts and line widths
are exactly as specified rather than scaled by the exporter. Works without a display: Qt runs
offscreen when there is none.

Each figure is drawn once and its scene serves both files. The widget itself is never painted
(nobody sees it): pyqtgraph's axes measure their tick text only while painting, so they alone
paint, into a 1 px image, while the layout settles; then the scene is rendered once into the
PNG's image and once into the SVG: the same bytes as painting the shown widget gave. The PNG
is encoded (ui/render/png.py) on a worker thread while the SVG and the next figure are drawn
(:func:`start_figure`): a QImage is plain data, safe in any thread, and numpy and zlib release
the GIL. No widget is touched off the GUI thread.
"""
from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from app.paths.held_dir import NEW_FILE
from app.results.figure import Figure
from ui.render.draw import figure_widget
from ui.render.png import png_bytes
from ui.render.style import REPORT, Style

if TYPE_CHECKING:   # pyqtgraph ships no types: its classes are Any to mypy, named for the reader
    from xml.dom.minidom import Element

    import pyqtgraph as pg
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtGui import QImage

MAX_SETTLE = 4  # axis paints per layout step (they fit their tick text after one or two)
_encoder: ThreadPoolExecutor | None = None
_encoder_lock = threading.Lock()


def ensure_app() -> QCoreApplication:
    """The QApplication, created offscreen when there is no display (headless export)."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                 or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication
    return QApplication.instance() or QApplication(["ssd-profiler"])


def _tolerate_closed_paths() -> None:
    """Let pyqtgraph's SVG exporter read closed paths.

    pyqtgraph 0.14 re-parses the SVG that Qt writes and splits every path command on ",";
    Qt >= 6.9 ends closed paths with a bare "Z", so the exporter raises ValueError on every
    figure (a pyqtgraph bug, fixed upstream after 0.14.0). Dropping the "Z" before the
    parse keeps the drawing (Qt writes the closing segment explicitly before it). Qt's own
    QSvgGenerator is no substitute: it replays pyqtgraph's cached axis pictures with the wrong
    transform, so axes and grids land in the wrong place.
    """
    module = sys.modules.get("pyqtgraph.exporters.SVGExporter")
    original = getattr(module, "correctCoordinates", None)
    if module is None or original is None or getattr(original, "_ssd_tolerant", False):
        return

    def correct(node: Element, defs: object, item: object, options: object) -> object:
        for path in node.getElementsByTagName("path"):
            d = path.getAttribute("d")
            if "Z" in d or "z" in d:
                path.setAttribute("d", " ".join(t for t in d.split() if t not in ("Z", "z")))
        return original(node, defs, item, options)

    setattr(correct, "_ssd_tolerant", True)  # noqa: B010 - a mark on a function, read with getattr
    setattr(module, "correctCoordinates", correct)  # noqa: B010 - patching pyqtgraph's module


def _write_svg(widget: pg.PlotWidget, svg_path: Path) -> None:
    from pyqtgraph.exporters import SVGExporter
    _tolerate_closed_paths()
    data = SVGExporter(widget.scene()).export(toBytes=True)
    if not data:
        raise OSError(f"could not draw the SVG for {svg_path}")
    write_new(svg_path, bytes(data))


def write_new(path: Path, data: bytes) -> None:
    """A new file at ``path`` (the export's private staging folder): created exclusively and
    never through a link, so a name planted there cannot send the figure to another file."""
    fd = os.open(path, NEW_FILE, 0o666)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def _stale_axes(widget: pg.PlotWidget) -> list[pg.AxisItem]:
    """The shown axes that must paint to know their tick text (new, range or size changed)."""
    from pyqtgraph import AxisItem
    return [item for item in widget.scene().items()
            if isinstance(item, AxisItem) and item.picture is None and item.isVisible()]


def _settle(widget: pg.PlotWidget, app: QCoreApplication) -> None:
    """Lay the scene out until every axis fits its tick text. pyqtgraph's axes measure their
    tick text, and widen to fit it, only while they paint: those that need it paint (into a
    1 px image, as the widget's paint would have done), then Qt lays out again; usually twice."""
    from PySide6.QtGui import QImage, QPainter
    for _ in range(MAX_SETTLE):
        stale = _stale_axes(widget)
        if stale:
            widget.scene().prepareForPaint()  # ViewBoxes apply pending ranges, as for a paint
            image = QImage(1, 1, QImage.Format.Format_RGB32)
            painter = QPainter(image)
            try:
                for axis in stale:
                    axis.paint(painter, None, None)
            finally:
                painter.end()
        app.processEvents()
        if not stale:
            return


@contextmanager
def laid_out(fig: Figure, style: Style = REPORT) -> Iterator[pg.PlotWidget]:
    """The figure's widget at its final pixel size, painted and with its labels placed: what
    the export writes, for the export and for tests that check its geometry."""
    from PySide6.QtCore import Qt

    app = ensure_app()
    widget = figure_widget(fig, style, place=False)  # placed below, at the final size
    try:
        widget.resize(style.width, style.height)
        widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)  # laid out, never on a desktop
        widget.show()
        widget.setUpdatesEnabled(False)  # the files are rendered from the scene, not the widget
        _settle(widget, app)
        for _ in range(2):  # labels from the final geometry; titles fitted, then again placed
            widget._ssd.relayout()
            _settle(widget, app)
        yield widget
    finally:
        widget.close()
        widget.deleteLater()


def png_image(widget: pg.PlotWidget, style: Style = REPORT) -> QImage:
    """The laid-out widget as an RGB image of ``style.width`` pixels."""
    from PySide6.QtGui import QImage
    return _scene_image(widget, style).convertToFormat(QImage.Format.Format_RGB32)


def _scene_image(widget: pg.PlotWidget, style: Style) -> QImage:
    """The scene as pyqtgraph's image exporter renders it (ARGB, antialiased)."""
    from pyqtgraph.exporters import ImageExporter
    exporter = ImageExporter(widget.scene())
    exporter.parameters()["width"] = style.width
    image: QImage = exporter.export(toBytes=True)
    return image


def _save_png(image: QImage, png_path: Path) -> None:
    """Encode and write on the encoder thread (a QImage and bytes only, no widget)."""
    write_new(Path(png_path), png_bytes(image))


def _png_encoder() -> ThreadPoolExecutor:
    global _encoder
    with _encoder_lock:
        if _encoder is None:
            _encoder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="png-encoder")
        return _encoder


def start_figure(fig: Figure, png_path: Path, svg_path: Path,
                 style: Style = REPORT) -> Callable[[], None]:
    """Draw ``fig`` offscreen, write its SVG and start encoding its PNG (``style.width`` px
    wide) on the encoder thread; returns the callable that waits for the PNG (raising what
    its writing raised). The export calls it after drawing the next figure (app.report.export)."""
    with _collector_paused(), laid_out(fig, style) as widget:
        encoded = _png_encoder().submit(_save_png, _scene_image(widget, style), png_path)
        try:
            _write_svg(widget, svg_path)
        except BaseException:
            encoded.exception()  # waits: no PNG appears after the caller gave the figure up
            raise
    return encoded.result


def render_figure(fig: Figure, png_path: Path, svg_path: Path, style: Style = REPORT) -> None:
    """Draw ``fig`` offscreen and write a PNG (``style.width`` px wide) and an SVG; returns
    when both are written."""
    start_figure(fig, png_path, svg_path, style)()


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while one figure is drawn: pyqtgraph's SVG exporter builds
    tens of thousands of small DOM nodes (parent <-> child cycles), and the collections they
    trigger cost ~15 % of the export; the next collection after the figure frees them."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()

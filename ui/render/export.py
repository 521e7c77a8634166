"""Figure spec -> PNG and SVG files, offscreen: the export's renderer.

The report widget is laid out at its final pixel size and exported 1:1, so fonts and line widths
are exactly as specified rather than scaled by the exporter. Works without a display: Qt runs
offscreen when there is none.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path

from app.figures import Figure
from ui.render.draw import figure_widget
from ui.render.style import REPORT, Style

GRABS = 1  # paints before export: axes fit their tick text after one (checked: 1 == 3)


def ensure_app():
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
    figure (pyqtgraph issue #3495, fixed upstream after 0.14.0). Dropping the "Z" before the
    parse keeps the drawing (Qt writes the closing segment explicitly before it). Qt's own
    QSvgGenerator is no substitute: it replays pyqtgraph's cached axis pictures with the wrong
    transform, so axes and grids land in the wrong place.
    """
    module = sys.modules.get("pyqtgraph.exporters.SVGExporter")
    original = getattr(module, "correctCoordinates", None)
    if original is None or getattr(original, "_ssd_tolerant", False):
        return

    def correct(node, defs, item, options):
        for path in node.getElementsByTagName("path"):
            d = path.getAttribute("d")
            if "Z" in d or "z" in d:
                path.setAttribute("d", " ".join(t for t in d.split() if t not in ("Z", "z")))
        return original(node, defs, item, options)

    correct._ssd_tolerant = True
    module.correctCoordinates = correct


def _write_svg(widget, svg_path: Path) -> None:
    from pyqtgraph.exporters import SVGExporter
    _tolerate_closed_paths()
    SVGExporter(widget.scene()).export(str(svg_path))
    if not svg_path.exists():
        raise OSError(f"could not write {svg_path}")


@contextmanager
def laid_out(fig: Figure, style: Style = REPORT):
    """The figure's widget at its final pixel size, painted and with its labels placed: what
    the export writes, for the export and for tests that check its geometry."""
    from PySide6.QtCore import Qt

    app = ensure_app()
    widget = figure_widget(fig, style)
    try:
        widget.resize(style.width, style.height)
        widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)  # laid out, never on a desktop
        widget.show()
        for _ in range(GRABS):  # axes size themselves to their tick text only after a paint
            widget.grab()
            app.processEvents()
        for _ in range(2):  # labels from the final geometry; titles fitted, then again placed
            widget._ssd.relayout()
            app.processEvents()
        yield widget
    finally:
        widget.close()
        widget.deleteLater()


def png_image(widget, style: Style = REPORT):
    """The laid-out widget as an RGB image of ``style.width`` pixels."""
    from pyqtgraph.exporters import ImageExporter
    from PySide6.QtGui import QImage
    exporter = ImageExporter(widget.scene())
    exporter.parameters()["width"] = style.width
    return exporter.export(toBytes=True).convertToFormat(QImage.Format.Format_RGB32)


def render_figure(fig: Figure, png_path: Path, svg_path: Path, style: Style = REPORT) -> None:
    """Draw ``fig`` offscreen and write a PNG (``style.width`` px wide) and an SVG."""
    with laid_out(fig, style) as widget:
        image = png_image(widget, style)
        # quality 70 = light zlib compression: 3x faster than the default, files ~20 % larger
        if not image.save(str(png_path), "PNG", 70):
            raise OSError(f"could not write {png_path}")
        _write_svg(widget, svg_path)

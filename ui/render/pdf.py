"""report.pdf: the report's HTML (app/report/html.py, figures embedded as PNG) printed with
Qt's own rich-text engine, QTextDocument onto a QPdfWriter (docs/report.md).

Why Qt and not a browser or another library: Qt is already in the app (no new dependency, no
browser to find), it works offscreen, and its PDF keeps text as text (selectable, searchable).
Its rich-text subset draws tables, lists and images but no inline SVG, so the figures are the
export's PNGs, placed at a fixed width. Returns the bytes; the export writes them
(app/report/export.py) through its checked folder.
"""
from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument

RESOLUTION = 300   # dots per inch of the PDF's coordinate space (text and lines stay vectors)
MARGIN_MM = 15


def html_to_pdf(html: str, title: str = "SSD Profiler report") -> bytes:
    """An A4 PDF of ``html``; needs a Q(Gui)Application (ui.render.export.ensure_app)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle(title)
    writer.setCreator("SSD Profiler")
    writer.setResolution(RESOLUTION)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait,
                                     QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                                     QPageLayout.Unit.Millimeter))
    document = QTextDocument()
    document.setDocumentMargin(0)
    document.setHtml(html)
    document.print_(writer)
    del writer  # ends the PDF: the file is complete once the writer is gone
    buffer.close()
    return bytes(data.data())

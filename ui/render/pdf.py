"""report.pdf: the report's HTML (app/report/html.py, figures referenced by file name) printed with
Qt's own rich-text engine, QTextDocument onto a QPdfWriter (docs/report.md).

Why Qt and not a browser or another library: Qt is already in the app (no new dependency, no
browser to find), it works offscreen, and its PDF keeps text as text (selectable, searchable).
Its rich-text subset draws tables and lists but no SVG image as a vector, so each figure's image
is swapped, after the HTML is parsed, for a text object that QSvgRenderer paints onto the PDF's
own painter: the figures stay vectors (lines, and their labels as text). A figure whose SVG Qt
cannot read is placed as its PNG. The document is laid out on the printer's own pages, where
ui/render/pdf_pages.py keeps headings, captions and figures with what they belong to and table
rows whole (docs/report.md, "The PDF's pages"). Returns the bytes; the export writes them
(app/report/export.py) through its checked folder.

The PDF's links are link annotations a reader follows with one click, so the only ones kept
are to files of the export (app/text/markup.py ``export_href``): the report's HTML makes no
other (its text is escaped), and should an anchor to anything else reach this printer, it is
printed as plain text.
"""
from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QObject, QRect, QRectF, QSizeF, QUrl
from PySide6.QtGui import (
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPyTextObject,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtSvg import QSvgRenderer

from app.text.markup import export_href
from ui.render.pdf_pages import FOOTER_PT, keep_together, paginate, print_pages

RESOLUTION = 300   # dots per inch of the PDF's coordinate space (text and lines stay vectors)
MARGIN_MM = 15
FIGURE = QTextFormat.ObjectTypes.UserObject + 1
SVG_DATA = QTextFormat.Property.UserProperty + 1
WIDTH = 0.97       # of the text width: a figure's share of the line (ui/render/style.py sizes
                   # the figures' text for it)
FOOTER_PX = FOOTER_PT * RESOLUTION / 72


class SvgFigure(QPyTextObject):
    """The figures' SVGs as inline objects: as wide as the text, drawn as vectors. Each SVG is
    parsed once (the layout asks for sizes many times)."""

    def __init__(self, parent: QObject | None) -> None:
        super().__init__(parent)
        self.renderers: list[QSvgRenderer] = []
        self.width = 640.0   # the text's width in the printer's units (html_to_pdf sets it)

    def add(self, data: bytes) -> int | None:
        """The figure's number for its format, None when Qt cannot read the SVG."""
        renderer = QSvgRenderer(QByteArray(data))
        if not renderer.isValid():
            return None
        self.renderers.append(renderer)
        return len(self.renderers) - 1

    def intrinsicSize(self, doc: QTextDocument, pos: int,  # noqa: N802 - Qt's name
                      fmt: QTextFormat) -> QSizeF:
        size = self.renderers[int(fmt.property(SVG_DATA))].defaultSize()
        width = _text_width(doc, self.width) * WIDTH
        return QSizeF(width, width * size.height() / max(1, size.width()))

    def drawObject(self, painter: QPainter, rect: QRectF | QRect,  # noqa: N802 - Qt's name
                   doc: QTextDocument, pos: int, fmt: QTextFormat) -> None:
        self.renderers[int(fmt.property(SVG_DATA))].render(painter, rect)


def _text_width(doc: QTextDocument, fallback: float) -> float:
    """The width a line has in the document being laid out. QTextDocument.print_ lays out a copy
    of the document on the printer's page in its own units, with margins of its own, so the
    printer's width in device pixels is not it: a figure that wide ran off the page's edge."""
    page = doc.pageSize().width()
    if page <= 0:
        return fallback
    frame = doc.rootFrame().frameFormat()
    return max(1.0, page - frame.leftMargin() - frame.rightMargin() - 2 * frame.padding()
               - 2 * frame.border())


def _fragments(doc: QTextDocument) -> list[tuple[int, int, QTextCharFormat]]:
    """(position, length, format) of every text fragment of the document, in order."""
    out = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            out.append((fragment.position(), fragment.length(), fragment.charFormat()))
            it += 1
        block = block.next()
    return out


def _images(doc: QTextDocument) -> list[tuple[int, int, str]]:
    """(position, length, name) of every image in the document, last first."""
    return sorted(((position, length, fmt.toImageFormat().name())
                   for position, length, fmt in _fragments(doc) if fmt.isImageFormat()),
                  reverse=True)


def _place_figures(doc: QTextDocument, files: Mapping[str, bytes], figures: SvgFigure) -> None:
    """Each ``figures/x.svg`` image becomes a vector object; one Qt cannot read, its PNG."""
    for position, length, name in _images(doc):
        data = files.get(name)
        number = figures.add(data) if data is not None else None
        if number is not None:
            fmt = QTextCharFormat()
            fmt.setObjectType(FIGURE)
            fmt.setProperty(SVG_DATA, number)
            cursor = QTextCursor(doc)
            cursor.setPosition(position)
            cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
            cursor.insertText("\ufffc", fmt)
            continue
        png = files.get(name.removesuffix(".svg") + ".png")
        if png is not None:
            doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name),
                            QImage.fromData(png))
        else:  # never left for Qt to look up on disk
            cursor = QTextCursor(doc)
            cursor.setPosition(position)
            cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
            cursor.insertText(f"[{name} is missing]")


def _drop_foreign_links(doc: QTextDocument) -> None:
    """Every anchor whose target is not a file of the export loses its link (its text stays)."""
    foreign = [(position, length) for position, length, fmt in _fragments(doc)
               if fmt.isAnchor() and fmt.anchorHref() and export_href(fmt.anchorHref()) is None]
    for position, length in foreign:
        cursor = QTextCursor(doc)
        cursor.setPosition(position)
        cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
        plain = QTextCharFormat()
        plain.setAnchor(False)
        plain.setAnchorHref("")
        cursor.mergeCharFormat(plain)


def a4_writer(device: QIODevice) -> QPdfWriter:
    """A writer of A4 portrait pages with the report's margins onto ``device``."""
    writer = QPdfWriter(device)
    writer.setCreator("SSD Profiler")
    writer.setResolution(RESOLUTION)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait,
                                     QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                                     QPageLayout.Unit.Millimeter))
    return writer


def typeset(html: str, files: Mapping[str, bytes], writer: QPdfWriter) -> QTextDocument:
    """``html`` laid out on ``writer``'s pages (ui/render/pdf_pages.py), its figures placed,
    ready to print; the layout measures with ``writer``, which must outlive the document's use."""
    document = QTextDocument()
    document.setDocumentMargin(0)
    document.setHtml(html)
    _drop_foreign_links(document)
    paginate(document, writer, FOOTER_PX)
    handler = SvgFigure(document)
    handler.width = float(writer.width())   # the page's paintable width, in device pixels
    document.documentLayout().registerHandler(FIGURE, handler)
    _place_figures(document, files, handler)
    keep_together(document)
    return document


def html_to_pdf(html: str, files: Mapping[str, bytes], title: str = "SSD Profiler report") -> bytes:
    """An A4 PDF of ``html`` whose images name ``files`` (export file name -> bytes), titled as
    the HTML's <title> (else ``title``); needs a Q(Gui)Application (ensure_app)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = a4_writer(buffer)
    document = typeset(html, files, writer)
    writer.setTitle(document.metaInformation(QTextDocument.MetaInformation.DocumentTitle) or title)
    print_pages(document, writer, FOOTER_PX)
    del writer  # ends the PDF: the file is complete once the writer is gone
    buffer.close()
    return bytes(data.data())

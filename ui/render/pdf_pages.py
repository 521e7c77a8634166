"""report.pdf's pages: the report's QTextDocument laid out on the printer's page, with a paper's
rules for where a page may end (docs/report.md, "The PDF's pages"), then painted page by page.

Qt's layout already does two of the rules when the document is paginated on the page itself: a
table's header rows (``<thead>``, QTextTableFormat.headerRowCount) are repeated at the top of
every page the table continues on, and a row that does not fit at the foot of a page moves to
the next whole. What it lacks is "keep with next" (its CSS knows ``page-break-before: always``
and nothing softer), so :func:`keep_together` adds it: a heading, a table's caption and the
label of a list stay on the page of what they introduce (a table's header and first row, a
paragraph's first lines), and a figure stays on the page of its caption, by a page break before
the group wherever the layout put a page's end inside it. Each break moves what follows, so the
document is laid out again after each one, top to bottom.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFont,
    QPagedPaintDevice,
    QPaintDevice,
    QPainter,
    QTextBlock,
    QTextBlockFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrame,
    QTextTable,
)

OBJECT = "\ufffc"   # the character a figure (an inline object) stands on
FOOTER_PT = 14      # the page number's band at the foot of the page
MAX_BREAKS = 400    # a document that keeps moving is printed as it stands


@dataclass
class Item:
    """A top-level block or table of the document, as the layout placed it."""
    block: QTextBlock | None
    table: QTextTable | None
    top: float
    bottom: float
    anchor: float   # how far down it must be on its first page for what precedes to stay
    keeps_next: bool


def paginate(document: QTextDocument, device: QPaintDevice, footer_px: float) -> None:
    """Lay ``document`` out on ``device``'s pages (its paintable area, in its pixels), leaving
    ``footer_px`` at each page's foot for the page number."""
    document.documentLayout().setPaintDevice(device)
    root = document.rootFrame()
    fmt = root.frameFormat()
    fmt.setTopMargin(0)
    fmt.setLeftMargin(0)
    fmt.setRightMargin(0)
    fmt.setBottomMargin(footer_px)
    root.setFrameFormat(fmt)
    document.setPageSize(QSizeF(device.width(), device.height()))


def _is_caption(block: QTextBlock, following: QTextFrame | QTextBlock | None) -> bool:
    """A table's caption (the block just before a table) or a list's label (a block all in
    bold just before a list)."""
    if isinstance(following, QTextTable):
        return True
    if isinstance(following, QTextBlock) and following.textList() is not None \
            and block.textList() is None:
        it = block.begin()
        bold = True
        while not it.atEnd():
            bold = bold and it.fragment().charFormat().fontWeight() >= QFont.Weight.Bold
            it += 1
        return bold and bool(block.text().strip())
    return False


def finish(document: QTextDocument) -> int:
    """Lay the whole document out again; its page count. After an edit (a figure placed, a
    page break) Qt lays out only around it, and the blocks past it kept no lines (the
    printed report stopped at page 15 of 18); setting the page size lays out everything."""
    document.setPageSize(QSizeF(document.pageSize()))
    return document.pageCount()


def _span(layout: QAbstractTextDocumentLayout, block: QTextBlock) -> tuple[float, float, float]:
    """Where a block's first line starts, its last ends and its second ends (its first when it
    has one line), in the document. From the lines: at a page's end the layout moves lines down
    to the next page inside the block, which its bounding rect does not say."""
    origin = layout.blockBoundingRect(block).top()
    lines = block.layout()
    if lines.lineCount() == 0:
        return origin, origin, origin
    first, last = lines.lineAt(0), lines.lineAt(lines.lineCount() - 1)
    second = lines.lineAt(min(1, lines.lineCount() - 1))
    return (origin + first.y(), origin + last.y() + last.height(),
            origin + second.y() + second.height())


def _parts(document: QTextDocument) -> list[QTextFrame | QTextBlock]:
    """The root frame's blocks and frames (tables), in order."""
    parts: list[QTextFrame | QTextBlock] = []
    it = document.rootFrame().begin()
    while not it.atEnd():
        frame = it.currentFrame()
        if frame is not None:
            parts.append(frame)
        elif it.currentBlock().isValid():
            parts.append(it.currentBlock())
        it += 1
    return parts


def _items(document: QTextDocument) -> list[Item]:
    layout = document.documentLayout()
    finish(document)
    parts = _parts(document)
    out = []
    for k, part in enumerate(parts):
        following = parts[k + 1] if k + 1 < len(parts) else None
        if isinstance(part, QTextTable):
            rect = layout.frameBoundingRect(part)
            first = part.cellAt(min(part.rows() - 1, part.format().headerRowCount()), 0)
            _, anchor, _ = _span(layout, first.lastCursorPosition().block())
            out.append(Item(None, part, rect.top(), rect.bottom(), anchor, False))
            continue
        if isinstance(part, QTextFrame):   # another frame: never moved
            rect = layout.frameBoundingRect(part)
            out.append(Item(None, None, rect.top(), rect.bottom(), rect.top(), False))
            continue
        top, bottom, second = _span(layout, part)
        figure = OBJECT in part.text()
        heading = part.blockFormat().headingLevel() > 0
        keeps = figure or heading or _is_caption(part, following)
        previous = parts[k - 1] if k else None
        figure_caption = isinstance(previous, QTextBlock) and OBJECT in previous.text()
        # a figure, a caption (a figure's, under it, however long) or a paragraph of up to 3
        # lines stays whole; a longer one needs its first two lines on the page of what
        # introduces it
        whole = figure or keeps or figure_caption or part.layout().lineCount() <= 3
        out.append(Item(part, None, top, bottom, bottom if whole else second, keeps))
    return out


def _first_violation(items: list[Item], page: float) -> Item | None:
    """The first item of the first group that a page's end cuts: a group is an item that keeps
    with its next and every item after it that does, up to the one they introduce."""
    k = 0
    while k < len(items):
        end = k
        while items[end].keeps_next and end + 1 < len(items):
            end += 1
        start, last = items[k], items[end]
        fits = last.anchor - start.top <= page * 0.9   # a group taller than a page is let be
        if fits and int(start.top // page) != int(max(start.top, last.anchor - 1) // page):
            return start
        k = end + 1 if end > k else k + 1
    return None


def _moved(document: QTextDocument, items: list[Item]) -> Item | None:
    """The first block the layout moved whole to the next page (its first line pushed down
    inside it) without a page break: its figure was drawn, clipped but in the file, on the
    page before too (its title found twice by a reader's search)."""
    layout = document.documentLayout()
    for item in items:
        if item.block is not None and item.block.layout().lineCount() \
                and item.top - layout.blockBoundingRect(item.block).top() > 1:
            return item
    return None


def _break_before(document: QTextDocument, item: Item) -> None:
    always = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
    if item.table is not None:
        table = item.table.format()
        table.setPageBreakPolicy(always)
        item.table.setFormat(table)
        return
    assert item.block is not None
    block = QTextBlockFormat()
    block.setPageBreakPolicy(always)
    QTextCursor(item.block).mergeBlockFormat(block)


def _cell_span(layout: QAbstractTextDocumentLayout, table: QTextTable, row: int,
               column: int) -> tuple[float, float] | None:
    cell = table.cellAt(row, column)
    block, last = cell.firstCursorPosition().block(), cell.lastCursorPosition().block()
    spans = []
    while block.isValid():
        top, bottom, _ = _span(layout, block)
        if block.layout().lineCount():
            spans.append((top, bottom))
        if block == last:
            break
        block = block.next()
    return (spans[0][0], spans[-1][1]) if spans else None


def _split_row(document: QTextDocument, page: float, items: list[Item]) -> Item | None:
    """The item to break before so that no table row is cut by a page's end: the start of the
    group (its caption, the heading before it) of the first table whose row a page's end cuts
    and which fits on a page. Qt moves a row whole only when its first line does not fit: a
    row of cells wrapped onto several lines was printed with its label on one page and its
    numbers on the next."""
    layout = document.documentLayout()
    for k, item in enumerate(items):
        table = item.table
        if table is None or not _cut_row(layout, table, page):
            continue
        start = k
        while start > 0 and items[start - 1].keeps_next:
            start -= 1
        if item.bottom - items[start].top <= page * 0.9 and items[start].top % page > 1:
            return items[start]
    return None


def _cut_row(layout: QAbstractTextDocumentLayout, table: QTextTable, page: float) -> bool:
    for row in range(table.format().headerRowCount(), table.rows()):
        spans = [s for c in range(table.columns()) if (s := _cell_span(layout, table, row, c))]
        if spans:
            top, bottom = min(s[0] for s in spans), max(s[1] for s in spans)
            if int(top // page) != int((bottom - 1) // page):
                return True
    return False


def keep_together(document: QTextDocument) -> int:
    """Page breaks before every heading, caption and figure a page's end would cut from what
    it belongs to, and before every table (with its caption) whose row it would split; the
    number of breaks made."""
    page = document.pageSize().height()
    for made in range(MAX_BREAKS):
        items = _items(document)
        item = (_first_violation(items, page) or _split_row(document, page, items)
                or _moved(document, items))
        if item is None:
            return made
        _break_before(document, item)
    return MAX_BREAKS


def print_pages(document: QTextDocument, writer: QPagedPaintDevice, footer_px: float) -> None:
    """Each page of the paginated ``document`` onto ``writer``, numbered at its foot."""
    layout = document.documentLayout()
    size = document.pageSize()
    painter = QPainter(writer)
    try:
        number_font = QFont(document.defaultFont())
        number_font.setPointSizeF(8)
        for n in range(finish(document)):
            if n:
                writer.newPage()
            painter.save()
            # only this page: what lies on the pages before and after is not drawn into the
            # paper's margins
            painter.setClipRect(QRectF(QPointF(0, 0), size))
            painter.translate(0, -n * size.height())
            context = QAbstractTextDocumentLayout.PaintContext()
            context.clip = QRectF(QPointF(0, n * size.height()), size)
            layout.draw(painter, context)
            painter.restore()
            painter.setFont(number_font)
            band = QRectF(0, size.height() - footer_px * 0.8, size.width(), footer_px * 0.8)
            painter.drawText(band, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom),
                             str(n + 1))
    finally:
        painter.end()

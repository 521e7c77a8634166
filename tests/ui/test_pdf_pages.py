"""report.pdf reads like a typeset paper (docs/report.md, "The PDF's pages"), checked on a genuine
run of every experiment (its drive given a curated vendor spec: the vendor table and figure too)
as the export prints it, with the layout engine's own boxes (each line's
place on its page) and the PDF's text (pypdf): no table row split across pages, every table that
continues repeats its header, no heading or caption is the last thing on its page, no table
cell taller than a third of a page, and no text of a figure under 8 pt at the size printed."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import xml.etree.ElementTree as ET  # noqa: E402

import pytest  # noqa: E402

from app.report.export import export_run  # noqa: E402

from conftest import FIXTURES  # noqa: E402

pypdf = pytest.importorskip("pypdf")
FULL = FIXTURES / "runs" / "full-lab-20261126" / "run"
OBJECT = "\ufffc"


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """The export folder, and the HTML and figure files its PDF was printed from."""
    from ui.render.figure_files import ensure_app, render_figure
    from ui.render.pdf import html_to_pdf
    ensure_app()
    seen = {}

    def pdf(html, files):
        seen["html"], seen["files"] = html, files
        return html_to_pdf(html, files)
    where = tmp_path_factory.mktemp("pdf")
    run = shutil.copytree(FULL, where / "run")
    record = json.loads((run / "run.json").read_text())
    record["drive"]["model"] = "Samsung SSD 990 PRO 1TB"   # a curated spec: the vendor table too
    (run / "run.json").write_text(json.dumps(record))
    out = export_run(run, where / "export", render_figure, pdf=pdf)
    return out, seen["html"], seen["files"]


@pytest.fixture(scope="module")
def laid_out(printed):
    """The report laid out on the PDF's pages exactly as it is printed."""
    from PySide6.QtCore import QBuffer, QIODevice

    from ui.render.pdf import a4_writer, typeset
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = a4_writer(buffer)
    document = typeset(printed[1], printed[2], writer)
    yield document, writer


def _parts(document) -> list:
    parts, it = [], document.rootFrame().begin()
    while not it.atEnd():
        parts.append(it.currentFrame() or it.currentBlock())
        it += 1
    return parts


def _lines(document, block) -> list[tuple[float, float]]:
    """(top, bottom) of each line of ``block`` in the document, where it is drawn."""
    origin = document.documentLayout().blockBoundingRect(block).top()
    layout = block.layout()
    return [(origin + layout.lineAt(i).y(), origin + layout.lineAt(i).y() + layout.lineAt(i).height())
            for i in range(layout.lineCount())]


def _cell_lines(document, cell) -> list[tuple[float, float]]:
    block, last = cell.firstCursorPosition().block(), cell.lastCursorPosition().block()
    out = []
    while block.isValid():
        out += _lines(document, block)
        if block == last:
            return out
        block = block.next()
    return out


def _tables(document):
    from PySide6.QtGui import QTextTable
    return [p for p in _parts(document) if isinstance(p, QTextTable)]


def _page(document, y: float) -> int:
    return int(y // document.pageSize().height())


def test_the_report_has_every_part_and_tables_with_header_rows(laid_out, printed):
    document, _ = laid_out
    tables = _tables(document)
    assert len(tables) >= 15
    assert all(t.format().headerRowCount() == 1 for t in tables)
    reader = pypdf.PdfReader(printed[0] / "report.pdf")
    assert len(reader.pages) == document.pageCount()
    ending = re.sub(r"\s", "", reader.pages[-2].extract_text() + reader.pages[-1].extract_text())
    assert "Rawmeasurementsintherunfolder" in ending   # the report's last words are printed
    text = re.sub(r"\s", "", " ".join(p.extract_text() for p in reader.pages))
    assert "Measuredagainstthevendorspec" in text and "[1]" in text


def test_no_row_is_split_and_no_cell_is_taller_than_a_third_of_a_page(laid_out):
    document, _ = laid_out
    third = document.pageSize().height() / 3
    for table in _tables(document):
        for r in range(table.rows()):
            lines = [line for c in range(table.columns())
                     for line in _cell_lines(document, table.cellAt(r, c))]
            pages = {_page(document, y) for top, bottom in lines for y in (top, bottom - 1)}
            text = table.cellAt(r, 0).firstCursorPosition().block().text()
            assert len(pages) == 1, f"row {r} ({text!r}) is split over pages {sorted(pages)}"
            for c in range(table.columns()):
                cell = _cell_lines(document, table.cellAt(r, c))
                if cell:
                    assert cell[-1][1] - cell[0][0] <= third, f"cell ({r}, {c}) of {text!r}"


def test_a_table_that_continues_repeats_its_header(laid_out, printed):
    document, _ = laid_out
    reader = pypdf.PdfReader(printed[0] / "report.pdf")
    continued = 0
    for table in _tables(document):
        first = _cell_lines(document, table.cellAt(1 if table.rows() > 1 else 0, 0))
        last = _cell_lines(document, table.cellAt(table.rows() - 1, 0))
        head = re.sub(r"\s", "", table.cellAt(0, 0).firstCursorPosition().block().text())
        for page in range(_page(document, first[0][0]) + 1, _page(document, last[-1][1] - 1) + 1):
            continued += 1
            text = re.sub(r"\s", "", reader.pages[page].extract_text())
            assert head in text, f"page {page + 1} continues a table without its header {head!r}"
    assert continued >= 0   # where tables break depends on the run; a long one is checked below


def test_a_long_table_repeats_its_header_on_every_page_and_keeps_rows_whole(tmp_path):
    from app.report.document import DocTable, Document, Section
    from app.report.html import document_html
    from ui.render.figure_files import ensure_app
    from ui.render.pdf import html_to_pdf
    ensure_app()
    rows = tuple((f"RND{k}K Q8T1", "read " * (1 + 12 * (k % 9 == 0)), f"{k * 7:,}") for k in range(160))
    table = DocTable("1", "Long table", ("Workload", "Direction", "IOPS"), rows, (False, False, True))
    doc = Document("Report", (Section("Results", (table,), 2),))
    (tmp_path / "r.pdf").write_bytes(html_to_pdf(document_html(doc, lambda _n: None, "names"), {}))
    pages = [re.sub(r"\s", "", p.extract_text()) for p in pypdf.PdfReader(tmp_path / "r.pdf").pages]
    assert len(pages) >= 3
    assert all(p.startswith("WorkloadDirectionIOPS") for p in pages[1:]), [p[:40] for p in pages]
    for k in range(160):   # each row's label and its number on one page
        assert any(f"RND{k}KQ8T1" in p and f"{k * 7:,}" in p for p in pages), k


def _starts(document, part) -> tuple[float, float]:
    """Where ``part`` starts, and where what must stay with its introduction ends: a block's
    first line, a table's first row under its header."""
    from PySide6.QtGui import QTextTable
    if isinstance(part, QTextTable):
        row = min(table_rows := part.rows(), part.format().headerRowCount() + 1) - 1
        lines = [line for c in range(part.columns())
                 for line in _cell_lines(document, part.cellAt(row, c))] if table_rows else []
        top = _cell_lines(document, part.cellAt(0, 0))[0][0]
        return top, max(b for _, b in lines)
    lines = _lines(document, part)
    return lines[0][0], lines[0][1]


def test_no_heading_or_caption_ends_a_page(laid_out):
    from PySide6.QtGui import QTextTable
    document, _ = laid_out
    parts = [p for p in _parts(document) if isinstance(p, QTextTable) or _lines(document, p)]
    for here, after in zip(parts, parts[1:]):
        if isinstance(here, QTextTable):
            continue
        kind = ("heading" if here.blockFormat().headingLevel() else "table caption"
                if isinstance(after, QTextTable) else "figure" if OBJECT in here.text() else None)
        lines = _lines(document, here)
        if re.match(r"Figure \d+\.\d+:", here.text()):   # a figure's caption: on one page
            assert _page(document, lines[0][0]) == _page(document, lines[-1][1] - 1), here.text()
        if kind is None:
            continue
        _, end = _starts(document, after)
        assert _page(document, lines[0][0]) == _page(document, end - 1), \
            f"{kind} {here.text()[:50]!r} is the last thing on its page"


def _scale(transform: str | None) -> float:
    m = re.match(r"matrix\(([^)]*)\)", transform or "")
    if not m:
        return 1.0
    a, b, c, d = (float(v) for v in m.group(1).split(",")[:4])
    return abs(a * d - b * c) ** 0.5


def _font_px(element) -> float | None:
    size = element.get("font-size")
    style = re.search(r"font-size:\s*([\d.]+)", element.get("style") or "")
    value = style.group(1) if style else size
    return float(value) if value else None


def _text_sizes(svg: bytes) -> list[tuple[float, str]]:
    """(font size in the SVG's units, text) of every text drawn, scaled by its groups."""
    out = []

    def walk(element, scale):
        scale *= _scale(element.get("transform"))
        if element.tag.endswith("text") and "".join(element.itertext()).strip():
            px = _font_px(element)
            if px:
                out.append((px * scale, "".join(element.itertext()).strip()))
        for child in element:
            walk(child, scale)
    walk(ET.fromstring(svg), 1.0)
    return out


def test_no_figure_text_is_under_8_pt_as_printed(laid_out, printed):
    from ui.render.pdf import RESOLUTION, WIDTH
    _, writer = laid_out
    printed_pt = writer.width() * WIDTH / RESOLUTION * 72    # a figure's width on the page
    files = printed[2]
    svgs = {n: d for n, d in files.items() if n.endswith(".svg")}
    assert len(svgs) >= 12
    for name, svg in svgs.items():
        view = ET.fromstring(svg).get("viewBox", "").split()
        pt_per_px = printed_pt / float(view[2])
        small = [(round(px * pt_per_px, 1), t) for px, t in _text_sizes(svg) if px * pt_per_px < 7.95]
        assert not small, f"{name}: {small[:5]}"

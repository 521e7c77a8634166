"""report.pdf's printer (ui/render/pdf.py): a figure's SVG is drawn as vectors; one Qt cannot
read falls back to its PNG, and a missing one never makes Qt look for a file."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QBuffer, QIODevice  # noqa: E402
from PySide6.QtGui import QColor, QImage  # noqa: E402

from ui.render.figure_files import ensure_app  # noqa: E402
from ui.render.pdf import html_to_pdf  # noqa: E402

pypdf = pytest.importorskip("pypdf")
SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 200" width="300" height="200">'
       b'<rect x="10" y="10" width="100" height="50" fill="#0072b2"/>'
       b'<text x="20" y="120" font-size="20">axis label</text></svg>')
HTML = '<h1>Report</h1><p><img src="figures/a.svg" width="640"></p><p>after</p>'


def _png() -> bytes:
    image = QImage(60, 40, QImage.Format.Format_RGB32)
    image.fill(QColor("orange"))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data())


def _read(data: bytes, tmp_path):
    (tmp_path / "r.pdf").write_bytes(data)
    reader = pypdf.PdfReader(tmp_path / "r.pdf")
    return reader, " ".join(" ".join(p.extract_text().split()) for p in reader.pages)


def test_an_svg_figure_is_drawn_as_vectors(tmp_path):
    ensure_app()
    reader, text = _read(html_to_pdf(HTML, {"figures/a.svg": SVG, "figures/a.png": _png()}), tmp_path)
    assert "axis label" in text and "after" in text
    assert sum(len(p.images) for p in reader.pages) == 0


def test_an_unreadable_svg_falls_back_to_its_png_and_a_missing_one_is_named(tmp_path):
    ensure_app()
    reader, _ = _read(html_to_pdf(HTML, {"figures/a.svg": b"<not svg", "figures/a.png": _png()}),
                      tmp_path)
    assert sum(len(p.images) for p in reader.pages) == 1
    _, text = _read(html_to_pdf(HTML, {}), tmp_path)
    assert "a.svg is missing]" in text   # (Qt sets "fi" as one ligature glyph)

"""ui/render/png.py writes the pixels Qt's own PNG writer writes, in a valid PNG."""
from __future__ import annotations

import os
import struct

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from ui.render.png import png_bytes  # noqa: E402


@pytest.fixture(scope="module")
def app():
    from ui.render.figure_files import ensure_app
    return ensure_app()


def _chunks(data: bytes) -> list[bytes]:
    kinds, at = [], 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        kinds.append(kind)
        at += 12 + length
    return kinds


@pytest.mark.parametrize("size", [(1800, 1080), (1001, 7), (1, 1)])
def test_the_pixels_are_the_image_and_the_chunks_are_what_qt_writes(app, size, tmp_path):
    from PySide6.QtGui import QColor, QImage, QPainter, QPen
    width, height = size
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(QColor("#D55E00"), 3))
    painter.drawLine(0, height - 1, width - 1, 0)
    painter.drawText(2, height - 2, "3,500 MB/s")
    painter.end()
    noise = np.random.default_rng(21).integers(0, 256, (min(height, 5), min(width, 40), 3))
    for y, x in np.ndindex(noise.shape[:2]):  # colours that wrap the filter's subtraction
        image.setPixelColor(x, y, QColor(*map(int, noise[y, x])))
    data = png_bytes(image)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert _chunks(data) == [b"IHDR", b"pHYs", b"IDAT", b"IEND"]
    ours = QImage.fromData(data, "PNG")
    assert not ours.isNull() and ours.dotsPerMeterX() == image.dotsPerMeterX()
    assert ours.convertToFormat(QImage.Format.Format_RGB32) == \
        image.convertToFormat(QImage.Format.Format_RGB32)
    image.convertToFormat(QImage.Format.Format_RGB32).save(str(tmp_path / "qt.png"), "PNG", 70)
    assert _chunks((tmp_path / "qt.png").read_bytes())[:2] == [b"IHDR", b"pHYs"]

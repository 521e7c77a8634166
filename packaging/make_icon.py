"""Draws resources/icon.png (256 px): an M.2 drive with a throughput trace. Run once by hand."""
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QPointF, QRectF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QPainterPath, QPen  # noqa: E402

app = QGuiApplication(sys.argv[:1])
img = QImage(256, 256, QImage.Format_ARGB32)
img.fill(Qt.transparent)
p = QPainter(img)
p.setRenderHint(QPainter.Antialiasing)
p.setBrush(QColor("#1f3a5f"))
p.setPen(Qt.NoPen)
p.drawRoundedRect(QRectF(16, 56, 224, 144), 18, 18)
p.setBrush(QColor("#d4a72c"))
for i in range(6):  # the M.2 edge connector
    p.drawRect(QRectF(22, 78 + i * 18, 14, 10))
p.setBrush(QColor("#2e5c8a"))
p.drawRoundedRect(QRectF(52, 74, 58, 58), 6, 6)
path = QPainterPath(QPointF(60, 176))
for x, y in ((96, 176), (120, 112), (150, 112), (176, 150), (226, 150)):
    path.lineTo(QPointF(x, y))
p.setPen(QPen(QColor("#4fd18b"), 10, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
p.setBrush(Qt.NoBrush)
p.drawPath(path)
p.end()
out = Path(__file__).resolve().parents[1] / "resources" / "icon.png"
img.save(str(out))
print(out)

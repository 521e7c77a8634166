"""Draws the app icon: an M.2 drive with a throughput trace. Run by hand after changing it.

The SVG below is the one drawing; every PNG is rendered from it, so the menu's icon at 16 px, the
window's icon and the hicolor theme's 512 px one cannot drift apart. Writes
packaging/linux/icons/hicolor/{16..512}x../apps/<app id>.png, .../scalable/apps/<app id>.svg and
resources/icon.png (256 px, the window's icon). Usage: python packaging/make_icon.py
"""
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from PySide6.QtCore import QByteArray, QRectF, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

from ui import APP_ID  # noqa: E402

SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)  # the hicolor theme's usual application sizes
HICOLOR = ROOT / "packaging" / "linux" / "icons" / "hicolor"

_PINS = "\n".join(f'  <rect x="22" y="{78 + i * 18}" width="14" height="10" fill="#d4a72c"/>'
                  for i in range(6))
SVG = f"""<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <title>SSD Profiler</title>
  <rect x="16" y="56" width="224" height="144" rx="18" ry="18" fill="#1f3a5f"/>
{_PINS}
  <rect x="52" y="74" width="58" height="58" rx="6" ry="6" fill="#2e5c8a"/>
  <polyline points="60,176 96,176 120,112 150,112 176,150 226,150" fill="none" stroke="#4fd18b"
            stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
"""


def render(renderer: QSvgRenderer, size: int) -> QImage:
    img = QImage(size, size, QImage.Format.Format_ARGB32)
    img.fill(Qt.GlobalColor.transparent)
    painter = QPainter(img)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return img


def main() -> None:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841 - QImage and QPainter need one
    renderer = QSvgRenderer(QByteArray(SVG.encode()))
    if not renderer.isValid():
        raise SystemExit("the SVG does not parse")
    svg = HICOLOR / "scalable" / "apps" / f"{APP_ID}.svg"
    svg.parent.mkdir(parents=True, exist_ok=True)
    svg.write_text(SVG)
    written = [svg]
    for size in SIZES:
        png = HICOLOR / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        png.parent.mkdir(parents=True, exist_ok=True)
        render(renderer, size).save(str(png))
        written.append(png)
    render(renderer, 256).save(str(ROOT / "resources" / "icon.png"))
    written.append(ROOT / "resources" / "icon.png")
    print("\n".join(str(p.relative_to(ROOT)) for p in written))


if __name__ == "__main__":
    main()

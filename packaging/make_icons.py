"""Draw the Mneme Desktop app icon and write every size the three platforms ask for.

The icon is painted with QPainter from one function, so the PNGs, the Windows .ico, the
macOS .icns and the SVG are the same picture: two dice (the 2d6 of Mneme CE) on a violet
tile. Below 32 px only the front die is drawn, unrotated, so it stays crisp.

    python3 packaging/make_icons.py            # writes resources/icons/
    python3 packaging/make_icons.py --out DIR
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QGuiApplication,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
)
from PySide6.QtSvg import QSvgGenerator

ICON_NAME = "mneme-desktop"
PNG_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# (OSType, pixel size): PNG-payload entries macOS reads since 10.7.
ICNS_ENTRIES = (("icp4", 16), ("icp5", 32), ("icp6", 64), ("ic07", 128), ("ic08", 256),
                ("ic09", 512), ("ic10", 1024), ("ic11", 32), ("ic12", 64), ("ic13", 256),
                ("ic14", 512))
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "resources" / "icons"

TILE_TOP = QColor("#4a3a7d")
TILE_BOTTOM = QColor("#231b45")
INK = QColor("#1b1533")
IVORY = QColor("#f7f1e3")
AMBER = QColor("#e9a93a")

# Pip positions on a die face of side 1, centred on the origin.
PIPS = {
    3: ((-0.27, -0.27), (0.0, 0.0), (0.27, 0.27)),
    5: ((-0.27, -0.27), (0.27, -0.27), (0.0, 0.0), (-0.27, 0.27), (0.27, 0.27)),
}


def paint_icon(painter: QPainter, size: float) -> None:
    """Paint the icon into the square (0, 0, size, size); small sizes get the simple form."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    unit = size / 512.0
    simple = size < 32

    tile = QRectF(16 * unit, 16 * unit, 480 * unit, 480 * unit)
    if simple:
        tile = QRectF(0, 0, size, size)
    gradient = QLinearGradient(tile.topLeft(), tile.bottomLeft())
    gradient.setColorAt(0.0, TILE_TOP)
    gradient.setColorAt(1.0, TILE_BOTTOM)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QBrush(gradient))
    radius = 96 * unit if not simple else size * 0.2
    painter.drawRoundedRect(tile, radius, radius)

    if simple:
        _die(painter, QPointF(size / 2, size / 2), size * 0.74, 0.0, IVORY, 5,
             outline=max(1.0, size / 16))
        return
    _die(painter, QPointF(332 * unit, 190 * unit), 196 * unit, 17.0, AMBER, 3,
         outline=10 * unit)
    _die(painter, QPointF(218 * unit, 304 * unit), 250 * unit, -11.0, IVORY, 5,
         outline=12 * unit)


def _die(painter: QPainter, centre: QPointF, side: float, angle: float, face: QColor,
         pips: int, *, outline: float) -> None:
    painter.save()
    painter.translate(centre)
    painter.rotate(angle)
    body = QPainterPath()
    body.addRoundedRect(QRectF(-side / 2, -side / 2, side, side), side * 0.18, side * 0.18)
    painter.setPen(QPen(INK, outline, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                        Qt.PenJoinStyle.RoundJoin))
    painter.setBrush(face)
    painter.drawPath(body)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(INK)
    pip_radius = side * (0.1 if side < 24 else 0.085)
    for x, y in PIPS[pips]:
        painter.drawEllipse(QPointF(x * side, y * side), pip_radius, pip_radius)
    painter.restore()


def render(size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    paint_icon(painter, float(size))
    painter.end()
    return image


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError("Qt could not encode a PNG")
    buffer.close()
    return bytes(data.data())


def dib_bytes(image: QImage) -> bytes:
    """A 32-bit BMP (DIB) icon entry: the form every Windows version reads for small sizes."""
    argb = image.convertToFormat(QImage.Format.Format_ARGB32)
    width, height = argb.width(), argb.height()
    header = struct.pack("<IiiHHIIiiII", 40, width, height * 2, 1, 32, 0, 0, 0, 0, 0, 0)
    rows = []
    for y in range(height - 1, -1, -1):  # bottom-up
        row = bytearray()
        for x in range(width):
            pixel = argb.pixel(x, y)
            row += struct.pack("<I", pixel)  # 0xAARRGGBB little-endian is B, G, R, A
        rows.append(bytes(row))
    mask_stride = ((width + 31) // 32) * 4
    mask = bytes(mask_stride * height)  # all zero: the alpha channel decides
    return header + b"".join(rows) + mask


def ico_bytes(images: Sequence[QImage]) -> bytes:
    """A multi-size .ico; 256 px as PNG (Vista and later), smaller ones as DIBs."""
    payloads = [png_bytes(im) if im.width() >= 256 else dib_bytes(im) for im in images]
    out = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    for image, payload in zip(images, payloads, strict=True):
        side = image.width() if image.width() < 256 else 0
        out += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(payload), offset)
        offset += len(payload)
    return out + b"".join(payloads)


def icns_bytes(entries: Iterable[tuple[str, bytes]]) -> bytes:
    body = b"".join(kind.encode("ascii") + struct.pack(">I", 8 + len(data)) + data
                    for kind, data in entries)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def svg_bytes(size: int = 512) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(size, size))
    generator.setViewBox(QRectF(0, 0, size, size))
    generator.setTitle("Mneme Desktop")
    generator.setDescription("Two six-sided dice on a violet tile")
    painter = QPainter(generator)
    paint_icon(painter, float(size))
    painter.end()
    buffer.close()
    return bytes(data.data())


def write_icons(out: Path) -> list[Path]:
    """Write every icon file into ``out`` and return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    cache: dict[int, QImage] = {}

    def image(size: int) -> QImage:
        if size not in cache:
            cache[size] = render(size)
        return cache[size]

    written: list[Path] = []
    for size in PNG_SIZES:
        path = out / f"{ICON_NAME}-{size}.png"
        path.write_bytes(png_bytes(image(size)))
        written.append(path)
    ico = out / f"{ICON_NAME}.ico"
    ico.write_bytes(ico_bytes([image(s) for s in ICO_SIZES]))
    icns = out / f"{ICON_NAME}.icns"
    icns.write_bytes(icns_bytes((kind, png_bytes(image(s))) for kind, s in ICNS_ENTRIES))
    svg = out / f"{ICON_NAME}.svg"
    svg.write_bytes(svg_bytes())
    written += [ico, icns, svg]
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the Mneme Desktop app icon.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"folder to write into (default: {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    for path in write_icons(args.out):
        print(f"{path}  {path.stat().st_size:,} bytes")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())

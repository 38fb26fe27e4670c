#!/usr/bin/env python3
"""Draws GeoQR's app icon: a white map pin on the app's accent blue, a QR finder pattern in
its head. Writes assets/web/favicon.ico (16, 32, 48), icons/icon-192.png, icons/icon-512.png
and icons/icon.svg, so the icon can be remade (or redrawn) here rather than by hand.

    python3 scripts/make-icons.py        # Pillow (pip install Pillow, or python3-pil)

The colours are app.css's :root --accent and --paper. Everything is drawn on a 512-unit
square; the PNGs are drawn four times larger and scaled down, then kept to a small palette,
so all the icons together stay under 10 KB (the player's first load has a budget).
"""
import io
import math
import pathlib

from PIL import Image, ImageDraw

ACCENT = "#003d8f"   # app.css --accent
PAPER = "#ffffff"    # app.css --paper
SIZE = 512
CORNER = 96                         # the background's rounded corners
HEAD = (256, 214, 150)              # the pin's head: centre x, y and radius
TIP = (256, 472)                    # the pin's point
MODULE = 26                         # one module of the finder pattern (7 × 7 modules)

WEB = pathlib.Path(__file__).resolve().parent.parent / "assets" / "web"


def pin_outline():
    """The pin's straight sides: the point and where the lines from it touch the head."""
    cx, cy, r = HEAD
    tx, ty = TIP
    d = math.hypot(cx - tx, cy - ty)
    spread = math.asin(r / d)            # half the angle between the two sides, at the tip
    towards = math.atan2(cy - ty, cx - tx)
    side = math.sqrt(d * d - r * r)
    return [(tx + side * math.cos(towards + s * spread), ty + side * math.sin(towards + s * spread)) for s in (-1, 1)]


def finder_squares():
    """The finder pattern's three squares, outermost first: (left, top, side, colour)."""
    cx, cy, _ = HEAD
    squares = []
    for modules, colour in ((7, ACCENT), (5, PAPER), (3, ACCENT)):
        side = modules * MODULE
        squares.append((cx - side / 2, cy - side / 2, side, colour))
    return squares


def draw(pixels):
    scale = pixels / SIZE
    image = Image.new("RGBA", (pixels, pixels), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    pen.rounded_rectangle([0, 0, pixels - 1, pixels - 1], radius=CORNER * scale, fill=ACCENT)
    cx, cy, r = HEAD
    pen.ellipse([(cx - r) * scale, (cy - r) * scale, (cx + r) * scale, (cy + r) * scale], fill=PAPER)
    left, right = pin_outline()
    pen.polygon([(x * scale, y * scale) for x, y in (left, TIP, right, (cx, cy))], fill=PAPER)
    for x, y, side, colour in finder_squares():
        pen.rectangle([x * scale, y * scale, (x + side) * scale - 1, (y + side) * scale - 1], fill=colour)
    return image


def icon(pixels, colours=8):
    """The icon at `pixels` square, drawn large and scaled down, on a few colours (None: all)."""
    small = draw(pixels * 4).resize((pixels, pixels), Image.LANCZOS)
    return small if colours is None else small.quantize(colors=colours, method=Image.FASTOCTREE)


def png_bytes(image):
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def svg():
    cx, cy, r = HEAD
    (lx, ly), (rx, ry) = pin_outline()
    tx, ty = TIP
    squares = "".join(f'<rect x="{x:g}" y="{y:g}" width="{s:g}" height="{s:g}" fill="{c}"/>' for x, y, s, c in finder_squares())
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}">'
            f'<rect width="{SIZE}" height="{SIZE}" rx="{CORNER}" fill="{ACCENT}"/>'
            f'<path d="M{lx:.1f} {ly:.1f}L{tx} {ty}L{rx:.1f} {ry:.1f}A{r} {r} 0 1 0 {lx:.1f} {ly:.1f}Z" fill="{PAPER}"/>'
            f'{squares}</svg>\n')


def main():
    (WEB / "icons").mkdir(exist_ok=True)
    written = {}
    for pixels in (192, 512):
        written[f"icons/icon-{pixels}.png"] = png_bytes(icon(pixels))
    ico = io.BytesIO()
    # Favicons are tiny: eight colours would cost their edges too much.
    icon(48, 24).convert("RGBA").save(ico, "ICO", sizes=[(16, 16), (32, 32), (48, 48)],
                                     append_images=[icon(16, 24).convert("RGBA"), icon(32, 24).convert("RGBA")])
    written["favicon.ico"] = ico.getvalue()
    written["icons/icon.svg"] = svg().encode()
    for name, data in written.items():
        (WEB / name).write_bytes(data)
        print(f"{name}: {len(data)} bytes")
    print(f"total: {sum(len(d) for d in written.values())} bytes")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the PNG variants the loading tests read, each holding the same QR code, with nothing
but zlib and struct, so every colour type, bit depth and interlacing is made exactly as named.

    python3 Tests/QRImagingTests/Fixtures/make_png_fixtures.py   (needs qrencode)
"""
import os, struct, subprocess, zlib

PAYLOAD = "GQ1.DEMO.A1.7QK2M4TZ9XB3RW5N"
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "png")


def matrix():
    rows = subprocess.run(["qrencode", "-l", "M", "-m", "4", "-t", "ASCII", PAYLOAD],
                          check=True, capture_output=True, text=True).stdout.splitlines()
    return [[row[i] == "#" for i in range(0, len(row), 2)] for row in rows if row]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    """Samples of `depth` bits (1, 2, 4, 8 or 16) packed big-endian into bytes."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = acc << depth | s; bits += depth
        if bits == 8:
            out.append(acc); acc = bits = 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def write(name, pixels, color_type, depth, channels, interlace=False, extra=b""):
    """pixels: rows of per-pixel sample tuples."""
    h, w = len(pixels), len(pixels[0])
    raw = bytearray()
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for x0, y0, dx, dy in passes:
        for y in range(y0, h, dy):
            row = [s for x in range(x0, w, dx) for s in pixels[y][x]]
            if row:
                raw += b"\0" + pack_row(row, depth)
    ihdr = struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, 1 if interlace else 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(HERE, exist_ok=True)
    m = matrix()
    scale = 3
    dark = [[m[y // scale][x // scale] for x in range(len(m) * scale)] for y in range(len(m) * scale)]
    px = lambda f: [[f(d) for d in row] for row in dark]
    write("gray1.png", px(lambda d: (0 if d else 1,)), 0, 1, 1)
    write("gray2.png", px(lambda d: (0 if d else 3,)), 0, 2, 1)
    write("gray16.png", px(lambda d: (3000 if d else 60000,)), 0, 16, 1)
    plte = chunk(b"PLTE", bytes([250, 250, 240, 20, 30, 90]))
    write("palette1.png", px(lambda d: (1 if d else 0,)), 3, 1, 1, extra=plte)
    trns = chunk(b"tRNS", bytes([0, 255]))   # light entry fully transparent: composited onto white
    write("palette8-alpha.png", px(lambda d: (1 if d else 0,)), 3, 8, 1, extra=plte + trns)
    write("gray-alpha8.png", px(lambda d: (10, 255) if d else (0, 0)), 4, 8, 2)
    write("rgb8.png", px(lambda d: (40, 20, 10) if d else (255, 240, 200)), 2, 8, 3)
    write("rgba16.png", px(lambda d: (5000, 2000, 9000, 65535) if d else (65535, 65535, 65535, 30000)), 6, 16, 4)
    write("rgb8-interlaced.png", px(lambda d: (0, 0, 80) if d else (230, 255, 230)), 2, 8, 3, interlace=True)
    write("gray1-interlaced.png", px(lambda d: (0 if d else 1,)), 0, 1, 1, interlace=True)
    # A bomb: a valid header that claims 60000×60000 pixels, and hardly any data.
    write_bomb()


def write_bomb():
    ihdr = struct.pack(">IIBBBBB", 60000, 60000, 8, 0, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b"")
    with open(os.path.join(HERE, "bomb.png"), "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()

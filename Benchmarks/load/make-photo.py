#!/usr/bin/env python3
"""Makes a phone-like photo of a cache code for the server benchmarks: a 12 MP (4000×3000)
colour JPEG of about 3 MB, a textured scene with the printed code in it, and EXIF GPS at the
given place plus DateTimeOriginal, as a phone writes them.

    python3 Benchmarks/load/make-photo.py --code GQ1.DEMO.A1.… --at 40.6303,-8.6575 -o photo.jpg

Needs numpy and Pillow (Benchmarks/requirements.txt) and qrencode (scripts/apt-packages-test.txt).
"""
import argparse, datetime, io, subprocess

import numpy as np
from PIL import Image


def dms(value):
    value = abs(value)
    d = int(value); m = int((value - d) * 60); s = round(((value - d) * 60 - m) * 60, 4)
    return (float(d), float(m), float(s))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--code", required=True)
    ap.add_argument("--at", required=True, help="LAT,LON in decimal degrees")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--size", default="4000x3000")
    ap.add_argument("--quality", type=int, default=92)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    w, h = map(int, args.size.split("x"))
    lat, lon = map(float, args.at.split(","))
    rng = np.random.default_rng(args.seed)

    # A scene: smooth tone changes, blotches at several scales and fine grain, in colour.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base = 120 + 50 * (xx / w) - 30 * (yy / h)
    for scale in (400, 90, 25):
        small = rng.normal(0, 1, (h // scale + 2, w // scale + 2)).astype(np.float32)
        big = np.array(Image.fromarray(small).resize((w + scale, h + scale), Image.BICUBIC))[:h, :w]
        base += {400: 35, 90: 18, 25: 9}[scale] * big
    img = np.stack([base * 1.05, base, base * 0.85], axis=-1)

    # The printed code: qrencode's modules, 14 px each, a white card around it, near the middle.
    png = subprocess.run(["qrencode", "-l", "M", "-s", "1", "-m", "4", "-o", "-", args.code],
                         check=True, capture_output=True).stdout
    mods = np.array(Image.open(io.BytesIO(png)).convert("RGBA").convert("L")) < 128
    card = np.where(np.kron(mods, np.ones((14, 14))) > 0, 30.0, 235.0)
    ch, cw = card.shape
    y0, x0 = int(h * 0.42) - ch // 2, int(w * 0.55) - cw // 2
    img[y0:y0 + ch, x0:x0 + cw, :] = card[:, :, None]
    img += rng.normal(0, 6, img.shape).astype(np.float32)
    picture = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB")

    exif = Image.Exif()
    exif[0x010F] = "GeoQR bench"           # Make
    exif[0x0110] = "make-photo.py"         # Model
    taken = datetime.datetime.now().strftime("%Y:%m:%d %H:%M:%S")
    exif_ifd = exif.get_ifd(0x8769)
    exif_ifd[0x9003] = taken               # DateTimeOriginal
    gps = exif.get_ifd(0x8825)
    gps[1] = "N" if lat >= 0 else "S"
    gps[2] = dms(lat)
    gps[3] = "E" if lon >= 0 else "W"
    gps[4] = dms(lon)
    picture.save(args.out, "JPEG", quality=args.quality, exif=exif)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Generates the decode benchmark's corpus: hard, photo-like pictures of GeoQR codes.

Every picture is made here from codes rendered by `qrencode` (the same library and level M
that `geoqr code` uses), then placed into a synthetic scene and put through what a phone photo
of a printed or displayed code goes through. Nothing is copied from elsewhere. Deterministic:
the same --seed gives the same files.

    python3 Benchmarks/corpus/generate.py --out /tmp/corpus --per-category 25

Writes DIR/<category>/<n>.jpg|png and DIR/manifest.json: [{"file", "category", "payloads"}].
"""
import argparse, io, json, math, os, subprocess, sys

import numpy as np
from PIL import Image
from scipy import ndimage

CATEGORIES = ["perspective", "rotation", "blur", "noise", "light", "lowcontrast", "jpeg",
              "small", "curved", "moire", "multi", "inverted"]
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def payload(rng):
    """A code in GeoQR's printed form: GQ1.HUNT.CACHE.MAC, sometimes as an upper-case URL."""
    hunt = "".join(rng.choice(list("ABCDEFGHJKLMNPQRSTUVWXYZ"), size=rng.integers(3, 7)))
    cache = f"{rng.choice(list('ABCDEFGH'))}{rng.integers(1, 40)}"
    mac = "".join(rng.choice(list(ALPHABET), size=16))
    code = f"GQ1.{hunt}.{cache}.{mac}"
    if rng.random() < 0.25:
        code = f"HTTPS://192.168.1.{rng.integers(2, 250)}:8443/C/{code}"
    return code


def modules(text):
    """The code's module matrix (True = dark), with a 4-module quiet zone, from qrencode."""
    png = subprocess.run(["qrencode", "-l", "M", "-s", "1", "-m", "4", "-o", "-", text],
                         check=True, capture_output=True).stdout
    return np.array(Image.open(io.BytesIO(png)).convert("RGBA").convert("L")) < 128


def homography(src, dst):
    """3×3 matrix taking the four src points to the four dst points."""
    a, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    h = np.linalg.solve(np.array(a, float), np.array(b, float))
    return np.append(h, 1).reshape(3, 3)


def scene(rng, w, h):
    """A cluttered background: a tone gradient, soft blobs and fine texture."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base = rng.uniform(90, 200) + rng.uniform(-40, 40) * (xx / w) + rng.uniform(-40, 40) * (yy / h)
    blobs = ndimage.gaussian_filter(rng.normal(0, 1, (h // 16 + 1, w // 16 + 1)), 1.5)
    base += 60 * np.kron(blobs, np.ones((16, 16)))[:h, :w]
    base += ndimage.gaussian_filter(rng.normal(0, 12, (h, w)), 0.8)
    return base.astype(np.float32)


def quad(rng, cx, cy, side, angle, skew):
    """Destination corners of the code: a square of `side` turned by `angle`, each corner moved
    by up to `skew`·side (perspective)."""
    pts = []
    for k in range(4):
        t = angle + math.pi / 4 + k * math.pi / 2
        r = side / math.sqrt(2)
        pts.append((cx + r * math.cos(t) + rng.uniform(-skew, skew) * side,
                    cy + r * math.sin(t) + rng.uniform(-skew, skew) * side))
    return pts


def place(img, rng, mods, corners, dark=25.0, light=235.0, cylinder=0.0, screen=0.0, subsamples=2):
    """Draws the module matrix into img through the homography onto `corners`; optionally
    wrapped round a cylinder (`cylinder` = how much of a half-turn the code spans) or shown
    on a screen with a pixel grid of period `screen` modules (point-sampled: moiré)."""
    n = mods.shape[0]
    H = homography([(0, 0), (n, 0), (n, n), (0, n)], corners)
    Hi = np.linalg.inv(H)
    xs = [p[0] for p in corners]; ys = [p[1] for p in corners]
    x0, x1 = max(int(min(xs)) - 2, 0), min(int(max(xs)) + 3, img.shape[1])
    y0, y1 = max(int(min(ys)) - 2, 0), min(int(max(ys)) + 3, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float64)
    cx = (x0 + x1) / 2; half = max((x1 - x0) / 2, 1)
    acc = np.zeros(xx.shape); cover = np.zeros(xx.shape)
    offsets = [(0.0, 0.0)] if screen else [((i + 0.5) / subsamples - 0.5, (j + 0.5) / subsamples - 0.5)
                                           for i in range(subsamples) for j in range(subsamples)]
    shade = np.ones(xx.shape)
    for ox, oy in offsets:
        px, py = xx + ox, yy + oy
        if cylinder:
            # A label round a can: the visible x is the sine of the arc; the arc is what was printed.
            s = np.clip((px - cx) / half, -0.999, 0.999) * math.sin(cylinder * math.pi / 2)
            px = cx + half * np.arcsin(s) / (cylinder * math.pi / 2)
            shade = 0.55 + 0.45 * np.sqrt(1 - s ** 2)
        w = Hi[2, 0] * px + Hi[2, 1] * py + Hi[2, 2]
        u = (Hi[0, 0] * px + Hi[0, 1] * py + Hi[0, 2]) / w
        v = (Hi[1, 0] * px + Hi[1, 1] * py + Hi[1, 2]) / w
        inside = (u >= 0) & (u < n) & (v >= 0) & (v < n)
        ui = np.clip(u.astype(int), 0, n - 1); vi = np.clip(v.astype(int), 0, n - 1)
        val = np.where(mods[vi, ui], dark, light)
        if screen:
            grid = ((u * screen) % 1 < 0.3) | ((v * screen) % 1 < 0.3)
            val = np.where(grid, val * 0.45, val)
        acc += np.where(inside, val, 0); cover += inside
    k = cover / len(offsets)
    region = img[y0:y1, x0:x1]
    mean = np.where(cover > 0, acc / np.maximum(cover, 1), 0) * shade
    img[y0:y1, x0:x1] = region * (1 - k) + mean * k


def illumination(rng, w, h, shadow):
    """Uneven light: a gradient, a vignette and optionally a hard-edged shadow."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = 1 + rng.uniform(-0.5, 0.5) * (xx / w - 0.5) + rng.uniform(-0.5, 0.5) * (yy / h - 0.5)
    r = np.hypot(xx / w - 0.5, yy / h - 0.5)
    g *= 1 - rng.uniform(0.1, 0.5) * r ** 2 * 4
    if shadow:
        t = rng.uniform(0, math.pi)
        d = (xx - w / 2) * math.cos(t) + (yy - h / 2) * math.sin(t) - rng.uniform(-0.1, 0.1) * w
        edge = ndimage.gaussian_filter((d > 0).astype(np.float32), rng.uniform(1, 6))
        g *= 1 - rng.uniform(0.35, 0.65) * edge
    return g


def picture(rng, category):
    w, h = [(1280, 960), (1600, 1200), (2000, 1500), (2400, 1800)][rng.integers(0, 4)]
    if rng.random() < 0.5:
        w, h = h, w
    img = scene(rng, w, h)
    count = rng.integers(2, 5) if category == "multi" else 1
    texts = [payload(rng) for _ in range(count)]
    small_side = min(w, h)
    cells = [(0.28, 0.28), (0.72, 0.3), (0.3, 0.72), (0.7, 0.72)]
    rng.shuffle(cells)
    for i, text in enumerate(texts):
        mods = modules(text)
        n = mods.shape[0]
        if category == "small":
            side = n * rng.uniform(1.4, 2.6)
        elif category == "multi":
            side = small_side * rng.uniform(0.18, 0.3)
        else:
            side = small_side * rng.uniform(0.12, 0.5)
        if count > 1:
            cx, cy = cells[i][0] * w, cells[i][1] * h
        else:
            cx = rng.uniform(side, w - side); cy = rng.uniform(side, h - side)
        angle = rng.uniform(-0.25, 0.25)
        skew = rng.uniform(0.0, 0.08)
        dark, light = rng.uniform(10, 45), rng.uniform(200, 245)
        opts = {}
        if category == "perspective":
            skew = rng.uniform(0.08, 0.2)
        elif category == "rotation":
            angle = rng.uniform(0, 2 * math.pi)
        elif category == "lowcontrast":
            mid = rng.uniform(90, 170); span = rng.uniform(12, 40)
            dark, light = mid - span / 2, mid + span / 2
        elif category == "inverted":
            dark, light = light, dark
        elif category == "curved":
            opts["cylinder"] = rng.uniform(0.5, 0.95)
        elif category == "moire":
            opts["screen"] = rng.uniform(2.0, 4.5)
        place(img, rng, mods, quad(rng, cx, cy, side, angle, skew), dark, light, **opts)
    blur = rng.uniform(0.4, 1.2)
    noise = rng.uniform(1, 5)
    quality = int(rng.integers(80, 96))
    if category == "blur":
        blur = rng.uniform(1.5, 4.0)
        if rng.random() < 0.5:   # motion
            k = int(rng.integers(5, 15)); kern = np.zeros((k, k)); kern[k // 2, :] = 1 / k
            kern = ndimage.rotate(kern, rng.uniform(0, 180), reshape=False, order=1)
            img = ndimage.convolve(img, kern / max(kern.sum(), 1e-6)); blur = 0.7
    elif category == "noise":
        noise = rng.uniform(15, 40)
    elif category == "light":
        img *= illumination(rng, w, h, shadow=True)
    elif category == "jpeg":
        quality = int(rng.integers(5, 22))
    if category in ("lowcontrast", "small", "curved"):
        img *= illumination(rng, w, h, shadow=False) if rng.random() < 0.5 else 1
    img = ndimage.gaussian_filter(img, blur)
    img += rng.normal(0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), texts, quality


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-category", type=int, default=25)
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--categories", default=",".join(CATEGORIES))
    args = ap.parse_args()
    manifest = []
    for ci, category in enumerate(args.categories.split(",")):
        os.makedirs(os.path.join(args.out, category), exist_ok=True)
        for k in range(args.per_category):
            rng = np.random.default_rng([args.seed, ci, k])
            pixels, texts, quality = picture(rng, category)
            image = Image.fromarray(pixels, "L")
            if category == "jpeg" or rng.random() < 0.8:
                name = f"{category}/{k:03d}.jpg"
                # Phones save colour JPEGs; a grey one would flatter the tools that read luma.
                image.convert("RGB").save(os.path.join(args.out, name), quality=quality,
                                          progressive=bool(rng.random() < 0.3))
            else:
                name = f"{category}/{k:03d}.png"
                image.save(os.path.join(args.out, name))
            manifest.append({"file": name, "category": category, "payloads": texts})
        print(f"{category}: {args.per_category}", file=sys.stderr)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()

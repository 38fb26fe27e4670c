#!/usr/bin/env python3
"""Generates 12-megapixel phone-like JPEGs (4000×3000, some portrait) with one clear code each,
for the decode benchmark's large-photo figures. Same scene and code placement as generate.py,
but an ordinary photo: the code fills 10–30% of the short side, mild blur and sensor noise,
colour JPEG at quality 88–94 (a phone's default).

    python3 Benchmarks/corpus/phone12mp.py --out /tmp/corpus-12mp --count 10

Writes DIR/<n>.jpg and DIR/manifest.json in generate.py's format (category "phone12mp").
"""
import argparse, json, math, os, sys

import numpy as np
from PIL import Image
from scipy import ndimage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import payload, modules, quad, place, scene  # noqa: E402


def photo(rng):
    w, h = (4000, 3000) if rng.random() < 0.5 else (3000, 4000)
    img = scene(rng, w, h)
    text = payload(rng)
    side = min(w, h) * rng.uniform(0.10, 0.30)
    cx, cy = rng.uniform(side, w - side), rng.uniform(side, h - side)
    place(img, rng, modules(text), quad(rng, cx, cy, side, rng.uniform(-0.3, 0.3), rng.uniform(0, 0.06)),
          rng.uniform(15, 40), rng.uniform(205, 240))
    img = ndimage.gaussian_filter(img, rng.uniform(0.6, 1.4))
    img += rng.normal(0, rng.uniform(1, 4), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), text, int(rng.integers(88, 95))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", type=int, default=20240612)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    manifest = []
    for k in range(args.count):
        rng = np.random.default_rng([args.seed, k])
        pixels, text, quality = photo(rng)
        grey = pixels.astype(np.float32)
        # A faint colour cast, so the file is a real three-component phone JPEG.
        rgb = np.stack([grey * 1.02, grey, grey * 0.96], axis=-1).clip(0, 255).astype(np.uint8)
        name = f"{k:03d}.jpg"
        Image.fromarray(rgb, "RGB").save(os.path.join(args.out, name), quality=quality)
        manifest.append({"file": name, "category": "phone12mp", "payloads": [text]})
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"phone12mp: {args.count} in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

"""640×480 camera frames with no QR code in them, as phones send them while their players aim at
ground, hedges and walls (issue 27): textures at several scales and contrasts, low-light sensor
noise, foliage, gravel, brick, text and signs, other barcodes (an EAN-13 zbar reads, a hand-drawn
1-D barcode). JPEG, quality 80, as a phone's browser sends. Made afresh each run from fixed
seeds; nothing is committed. The smooth scene of make-frames.py is the corpus's first scene;
this script writes the rest and prints their names, one a line.

    python3 make-scenes.py OUT-DIR        (writes OUT-DIR/scene-NAME.jpg)
"""
import sys
import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

W, H = 640, 480


def value_noise(rng, cell):
    """Smooth noise: a grid of random values every `cell` pixels, bilinearly upsampled."""
    gw, gh = W // cell + 2, H // cell + 2
    grid = Image.fromarray((rng.random((gh, gw)) * 255).astype(np.uint8))
    big = grid.resize((gw * cell, gh * cell), Image.BILINEAR)
    return np.asarray(big, dtype=np.float32)[:H, :W] / 255


def fractal(rng, octaves, base_cell, gain=0.5):
    """Sum of value noise octaves, halving the cell each time: clouds, foliage, rock."""
    out, amp, total, cell = np.zeros((H, W), np.float32), 1.0, 0.0, base_cell
    for _ in range(octaves):
        out += amp * value_noise(rng, max(cell, 1))
        total += amp
        amp *= gain
        cell //= 2
    return out / total


def to_image(a, lo=0, hi=255):
    a = (a - a.min()) / max(float(a.max() - a.min()), 1e-6)
    return Image.fromarray((lo + a * (hi - lo)).clip(0, 255).astype(np.uint8))


def tinted(gray, tint):
    g = np.asarray(gray, np.float32) / 255
    rgb = np.stack([g * t for t in tint], axis=-1)
    return Image.fromarray(rgb.clip(0, 255).astype(np.uint8))


def sensor_noise(img, rng, sigma):
    a = np.asarray(img, np.float32)
    a = a + rng.normal(0, sigma, a.shape)
    return Image.fromarray(a.clip(0, 255).astype(np.uint8))


def gravel(rng, stone, contrast):
    """Stones of about `stone` px, lit from one side, packed over a grey bed."""
    img = Image.fromarray((110 + rng.normal(0, 12, (H, W))).clip(0, 255).astype(np.uint8)).convert("RGB")
    d = ImageDraw.Draw(img)
    for _ in range(int(W * H / (stone * stone) * 1.4)):
        x, y = rng.integers(0, W), rng.integers(0, H)
        rx, ry = rng.integers(stone // 3 + 1, stone + 1), rng.integers(stone // 3 + 1, stone + 1)
        g = int(128 + contrast * (rng.random() - 0.5) * 2)
        d.ellipse([x - rx, y - ry, x + rx, y + ry], fill=(g, g - 4, g - 10))
        d.arc([x - rx, y - ry, x + rx, y + ry], 200, 340, fill=(g + 40, g + 38, g + 30))   # light from above
        d.arc([x - rx, y - ry, x + rx, y + ry], 20, 160, fill=(g // 2, g // 2, g // 2))    # its shadow
    return sensor_noise(img.filter(ImageFilter.GaussianBlur(0.7)), rng, 5)


def foliage(rng):
    """A hedge: dark gaps between leaves of several sizes, lit unevenly."""
    light = fractal(rng, 3, 160)
    img = Image.fromarray(np.stack([15 + 40 * light, 35 + 60 * light, 10 + 25 * light], -1).astype(np.uint8))
    d = ImageDraw.Draw(img)
    for size in (30, 18, 10):
        for _ in range(int(W * H / (size * size) * 0.9)):
            x, y = rng.integers(0, W), rng.integers(0, H)
            a = rng.random() * np.pi
            dx, dy = np.cos(a) * size, np.sin(a) * size
            w = size * (0.3 + 0.2 * rng.random())
            px, py = -np.sin(a) * w, np.cos(a) * w
            g = rng.integers(70, 200)
            d.polygon([(x - dx, y - dy), (x + px, y + py), (x + dx, y + dy), (x - px, y - py)],
                      fill=(int(g * 0.45), int(g), int(g * 0.35)))
    img = img.filter(ImageFilter.GaussianBlur(0.6))
    shade = fractal(rng, 2, 200)[..., None] * 0.6 + 0.5
    return Image.fromarray((np.asarray(img, np.float32) * shade).clip(0, 255).astype(np.uint8))


def brick(rng):
    """A wall: courses of bricks with mortar, each brick a little different, seen slightly turned."""
    img = Image.new("RGB", (W + 200, H + 200), (175, 170, 160))
    d = ImageDraw.Draw(img)
    bw, bh, m = 64, 22, 4
    for row, y in enumerate(range(0, H + 200, bh + m)):
        off = (bw + m) // 2 if row % 2 else 0
        for x in range(-off, W + 200, bw + m):
            r = int(rng.integers(120, 180))
            d.rectangle([x, y, x + bw, y + bh], fill=(r, int(r * 0.45), int(r * 0.3)))
    grain = (fractal(rng, 4, 32)[..., None] * 60 - 30)
    img = img.rotate(4, resample=Image.BILINEAR).crop((100, 100, W + 100, H + 100))
    return sensor_noise(Image.fromarray((np.asarray(img, np.float32) + grain).clip(0, 255).astype(np.uint8)), rng, 4)


def font(size):
    for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    return ImageFont.load_default()


def text_and_signs(rng):
    """A notice board: a poster of small print, signs with big letters, a street sign."""
    img = Image.fromarray(np.stack([to_image(fractal(rng, 3, 80), 120, 170)] * 3, -1))
    d = ImageDraw.Draw(img)
    words = "PARK TRAIL EXIT NO ENTRY HUNT CLUB OPEN DAILY 9-17 WET PAINT KEEP OFF THE GRASS BUS STOP 42".split()
    d.rectangle([20, 20, 300, 460], fill=(240, 238, 230))
    for i, y in enumerate(range(30, 450, 14)):
        line = " ".join(words[int(j)] for j in rng.integers(0, len(words), 6)).lower()
        d.text((28, y), line, fill=(20, 20, 20), font=font(11))
    for (x, y, w, h, col, size) in [(330, 30, 280, 120, (200, 30, 30), 52), (330, 180, 280, 90, (20, 80, 160), 40),
                                    (330, 300, 280, 150, (250, 210, 0), 34)]:
        d.rectangle([x, y, x + w, y + h], fill=col, outline=(255, 255, 255), width=4)
        for k, yy in enumerate(range(y + 10, y + h - size // 2, size + 4)):
            d.text((x + 14, yy), words[int(rng.integers(0, len(words)))] + " " + words[int(rng.integers(0, len(words)))],
                   fill=(255, 255, 255) if col != (250, 210, 0) else (0, 0, 0), font=font(size))
    return sensor_noise(img.filter(ImageFilter.GaussianBlur(0.5)), rng, 4)


EAN_L = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
EAN_PARITY = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLG", "LGLGLG", "LGLGGL", "LGGLGL"]


def ean13_modules(digits12):
    """EAN-13's 95 modules (1 = bar) for 12 digits and their check digit."""
    d = [int(c) for c in digits12]
    check = (10 - (sum(d[0::2]) + 3 * sum(d[1::2])) % 10) % 10
    d.append(check)
    right = lambda n: "".join("1" if b == "0" else "0" for b in EAN_L[n])
    bits = "101"
    for k, n in enumerate(d[1:7]):
        bits += EAN_L[n] if EAN_PARITY[d[0]][k] == "L" else right(n)[::-1]
    bits += "01010"
    for n in d[7:]:
        bits += right(n)
    return bits + "101", "".join(map(str, d))


def ean13(rng):
    """A product on a shelf: an EAN-13 zbar reads, drawn from its bars, on a box among others."""
    img = Image.fromarray(np.stack([to_image(fractal(rng, 3, 120), 60, 140)] * 3, -1))
    d = ImageDraw.Draw(img)
    d.rectangle([140, 90, 520, 400], fill=(230, 225, 215))
    d.text((160, 110), "GEOQR TRAIL MIX 250 g", fill=(40, 40, 40), font=font(22))
    bits, _ = ean13_modules("590123412345")
    x0, mod = 190, 3
    for i, b in enumerate(bits):
        if b == "1":
            tall = 20 if i < 3 or 45 <= i < 50 or i >= 92 else 0
            d.rectangle([x0 + i * mod, 180, x0 + i * mod + mod - 1, 330 + tall], fill=(15, 15, 15))
    img = img.rotate(5, resample=Image.BILINEAR, fillcolor=(90, 90, 90))
    return sensor_noise(img.filter(ImageFilter.GaussianBlur(0.7)), rng, 4)


def hand_barcode(rng):
    """A 1-D barcode drawn by hand with a marker on a card: bars of uneven width, slanted, on a fence."""
    img = Image.fromarray(np.stack([to_image(fractal(rng, 4, 64), 90, 150)] * 3, -1))
    d = ImageDraw.Draw(img)
    for x in range(0, W, 40):   # fence boards
        d.rectangle([x, 0, x + 36, H], fill=tuple(int(v) for v in rng.integers(100, 140, 3)))
    d.polygon([(160, 120), (500, 100), (510, 360), (150, 380)], fill=(235, 232, 220))
    x = 190.0
    while x < 470:
        w = rng.choice([2, 3, 5, 7, 9]) + rng.random()
        if rng.random() < 0.55:
            lean = rng.normal(0, 2)
            d.polygon([(x, 150), (x + w, 150), (x + w + lean, 330), (x + lean, 330)], fill=(25, 25, 35))
        x += w + rng.choice([2, 3, 4, 6])
    return sensor_noise(img.filter(ImageFilter.GaussianBlur(0.8)), rng, 5)


def low_light(rng):
    """Dusk under trees: a dim, soft scene under heavy sensor noise (high ISO)."""
    base = fractal(rng, 4, 128) * 50 + 20
    rgb = np.stack([base * 0.9, base, base * 1.1], -1)
    img = Image.fromarray(rgb.clip(0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(1.2))
    a = np.asarray(img, np.float32)
    a = a + rng.normal(0, 14, (H, W, 1)) + rng.normal(0, 8, a.shape)   # luma and chroma noise
    return Image.fromarray(a.clip(0, 255).astype(np.uint8))


def grating(rng):
    """Fine repeating structure: a metal grating / fence mesh seen at an angle, several pitches."""
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    pitch = 6 + 10 * xx / W   # perspective: the pitch widens across the frame
    u = (xx * np.cos(0.3) + yy * np.sin(0.3)) / pitch
    v = (-xx * np.sin(0.3) + yy * np.cos(0.3)) / (pitch * 1.7)
    bars = ((u % 1) < 0.35) | ((v % 1) < 0.25)
    a = np.where(bars, 60, 190).astype(np.float32) + fractal(rng, 3, 100) * 40
    img = Image.fromarray(a.clip(0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.7))
    return sensor_noise(img.convert("RGB"), rng, 5)


def noise_texture(rng, cell, contrast):
    """Plain texture at one scale and contrast: sand, asphalt, rough plaster."""
    a = 128 + (fractal(rng, 2, cell) - 0.5) * 2 * contrast + rng.normal(0, 6, (H, W))
    return Image.fromarray(a.clip(0, 255).astype(np.uint8)).convert("RGB")


def cloudy(rng):
    """Sky with clouds over a tree line: a smooth fractal, low contrast, soft edges."""
    a = fractal(rng, 6, 256, 0.55) * 120 + 110
    img = Image.fromarray(np.stack([a * 0.85, a * 0.92, a * 1.05], -1).clip(0, 255).astype(np.uint8))
    return sensor_noise(img, rng, 3)


SCENES = [
    ("gravel", lambda r: gravel(r, 6, 70)),
    ("gravel-coarse", lambda r: gravel(r, 16, 50)),
    ("sand-fine", lambda r: noise_texture(r, 2, 90)),
    ("asphalt-low-contrast", lambda r: noise_texture(r, 4, 25)),
    ("foliage", foliage),
    ("cloudy", cloudy),
    ("brick", brick),
    ("low-light", low_light),
    ("text-signs", text_and_signs),
    ("ean13", ean13),
    ("barcode-hand", hand_barcode),
    ("grating", grating),
]

if __name__ == "__main__":
    out = sys.argv[1]
    for k, (name, make) in enumerate(SCENES):
        make(np.random.default_rng(2700 + k)).convert("RGB").save(f"{out}/scene-{name}.jpg", quality=80)
        print(name)

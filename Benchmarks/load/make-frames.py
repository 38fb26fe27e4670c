"""Two 640×480 camera frames as a phone's browser sends them (JPEG, quality 80): a scene with
no code in it (sky, a wall, a bench, leaves: edges and texture, as a camera sees while its
player walks up), and the same scene with a printed code held in it, 180 px wide, a little
turned. Made afresh each run from a fixed seed; nothing is committed.

    python3 make-frames.py CODE.png OUT-DIR
"""
import random, sys
from PIL import Image, ImageDraw, ImageFilter

code_png, out = sys.argv[1], sys.argv[2]
rng = random.Random(16)
scene = Image.new("RGB", (640, 480))
d = ImageDraw.Draw(scene)
for y in range(480):   # sky to pavement
    t = y / 479
    d.line([(0, y), (639, y)], fill=(int(150 + 60 * t), int(180 + 30 * t), int(220 - 90 * t)))
d.rectangle([0, 250, 640, 480], fill=(118, 110, 98))
for _ in range(400):   # bricks and leaves
    x, y = rng.randrange(640), rng.randrange(250, 480)
    w, h = rng.randrange(8, 40), rng.randrange(4, 16)
    g = rng.randrange(70, 170)
    d.rectangle([x, y, x + w, y + h], fill=(g, g - 10, g - 25), outline=(50, 45, 40))
for _ in range(120):
    x, y = rng.randrange(640), rng.randrange(0, 250)
    r = rng.randrange(3, 14)
    d.ellipse([x - r, y - r, x + r, y + r], fill=(rng.randrange(30, 90), rng.randrange(90, 160), rng.randrange(30, 80)))
d.rectangle([80, 300, 560, 330], fill=(90, 60, 35))   # a bench
d.rectangle([100, 330, 120, 420], fill=(60, 40, 25))
d.rectangle([520, 330, 540, 420], fill=(60, 40, 25))
scene = scene.filter(ImageFilter.GaussianBlur(0.8))
noise = Image.effect_noise((640, 480), 10).convert("RGB")
scene = Image.blend(scene, noise, 0.06)
scene.save(f"{out}/frame-no-code.jpg", quality=80)

card = Image.open(code_png).convert("RGB").resize((180, 180), Image.NEAREST)
card = card.rotate(7, expand=True, fillcolor=(235, 235, 230), resample=Image.BILINEAR)
with_code = scene.copy()
with_code.paste(card, (250, 120))
with_code.filter(ImageFilter.GaussianBlur(0.6)).save(f"{out}/frame-code.jpg", quality=80)

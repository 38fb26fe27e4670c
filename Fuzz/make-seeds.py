#!/usr/bin/env python3
"""Seed corpora and dictionaries for the fuzz harnesses (Fuzz/Sources/Fuzz*).

    Fuzz/make-seeds.py OUT        # OUT/<harness>/* seeds, OUT/<harness>.dict

Every seed is made here, from nothing, or taken from the project's own test fixtures and hunt
files: small valid inputs that reach deep into each parser, so that libFuzzer's mutations start
from structure rather than noise. Tools: python3 (standard library only), qrencode (a real QR
symbol for the decode passes), cjpeg (JPEG), heif-enc (HEIC); a seed whose tool is missing is
skipped with a note, never an error.
"""

import hashlib
import hmac
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from base64 import b32encode
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TMP = Path(tempfile.mkdtemp(prefix="geoqr-seeds-"))

# The code harness's hunt secret and caches (Fuzz/Sources/FuzzCode/FuzzCode.swift).
CODE_SECRET = bytes(range(32))


def write(out: Path, harness: str, name: str, data: bytes) -> None:
    folder = out / harness
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def note(message: str) -> None:
    print(f"make-seeds: {message}", file=sys.stderr)


def tool(*args: str) -> bool:
    try:
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return True
    except (OSError, subprocess.CalledProcessError):
        note(f"skipped: {' '.join(args[:1])} failed or is not installed")
        return False


# ---- pictures ---------------------------------------------------------------------------------

def png(width: int, height: int, rows: list[bytes], color_type: int = 0, depth: int = 8,
        extra: list[tuple[bytes, bytes]] = (), interlace: int = 0) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, interlace)
    body = chunk(b"IHDR", ihdr)
    for kind, data in extra:
        body += chunk(kind, data)
    raw = b"".join(b"\x00" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + body + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def gray_pattern(width: int, height: int) -> list[bytes]:
    return [bytes(((x * 37 + y * 11) ^ (x * y)) & 0xFF for x in range(width)) for y in range(height)]


def pgm(width: int, height: int) -> bytes:
    return f"P5 {width} {height} 255\n".encode() + b"".join(gray_pattern(width, height))


def ppm(width: int, height: int) -> bytes:
    return f"P6 {width} {height} 255\n".encode() + bytes(
        v for y in range(height) for x in range(width) for v in ((x * 8) & 255, (y * 8) & 255, (x * y) & 255))


def jpeg(source: bytes, suffix: str, *flags: str) -> bytes | None:
    src, dst = TMP / f"in{suffix}", TMP / "out.jpg"
    src.write_bytes(source)
    return dst.read_bytes() if tool("cjpeg", *flags, "-outfile", str(dst), str(src)) else None


def heic(source_png: bytes, *flags: str) -> bytes | None:
    src, dst = TMP / "in.png", TMP / "out.heic"
    src.write_bytes(source_png)
    return dst.read_bytes() if tool("heif-enc", *flags, "-o", str(dst), str(src)) else None


def qr_png(text: str) -> bytes | None:
    dst = TMP / "qr.png"
    return dst.read_bytes() if tool("qrencode", "-s", "3", "-m", "2", "-o", str(dst), text) else None


def pictures(out: Path, code: str) -> None:
    w = lambda name, data: data and write(out, "picture", name, data)
    w("gray8.png", png(16, 12, gray_pattern(16, 12)))
    w("rgb8.png", png(8, 8, [bytes(v for x in range(8) for v in (x * 30, y * 30, 90)) for y in range(8)], color_type=2))
    w("rgba8.png", png(4, 4, [bytes([200, 10, 10, 128] * 4)] * 4, color_type=6))
    w("gray16.png", png(4, 4, [bytes([0x12, 0x34] * 4)] * 4, depth=16))
    w("palette2.png", png(8, 2, [bytes([0b00011011, 0b11100100])] * 2, color_type=3, depth=2,
                          extra=[(b"PLTE", bytes([0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255]))]))
    for fixture in sorted((ROOT / "Tests/QRImagingTests/Fixtures/png").glob("*.png")):
        if fixture.stat().st_size <= 64 * 1024:
            w(f"fixture-{fixture.name}", fixture.read_bytes())
    qr = qr_png(code)
    w("qr.png", qr)
    w("gray.jpg", jpeg(pgm(24, 16), ".pgm", "-grayscale"))
    w("color.jpg", jpeg(ppm(16, 16), ".ppm", "-quality", "50"))
    w("progressive.jpg", jpeg(ppm(16, 16), ".ppm", "-progressive", "-sample", "2x2"))
    w("restart.jpg", jpeg(pgm(16, 16), ".pgm", "-restart", "1", "-optimize"))
    base = jpeg(ppm(16, 8), ".ppm")
    if base:
        w("rotated-exif.jpg", insert_app1(exif_payload(tiff(orientation=6)), base))
    if qr:
        w("qr.heic", heic(qr, "-q", "30"))
    w("gray.heic", heic(png(16, 16, gray_pattern(16, 16)), "-q", "20"))


# ---- EXIF -------------------------------------------------------------------------------------

def tiff(little: bool = True, orientation: int | None = 1, gps: bool = True, status: bytes = b"A",
         date: bytes = b"2024:05:02 10:15:30", offset: bytes | None = b"+01:00") -> bytes:
    """IFD0 → EXIF IFD and GPS IFD, as Tests/PhotoMetadataTests/TIFFWriter.swift writes them."""
    e = "<" if little else ">"

    def entry(tag, kind, count, value):
        return (tag, kind, count, value)

    def ascii(tag, text):
        return entry(tag, 2, len(text) + 1, text + b"\x00")

    def rationals(tag, pairs):
        return entry(tag, 5, len(pairs), b"".join(struct.pack(e + "II", a, b) for a, b in pairs))

    def ifd(entries, at):
        entries = sorted(entries)
        table, data = struct.pack(e + "H", len(entries)), b""
        start = at + 2 + 12 * len(entries) + 4
        for tag, kind, count, value in entries:
            table += struct.pack(e + "HHI", tag, kind, count)
            if len(value) <= 4:
                table += value.ljust(4, b"\x00")
            else:
                table += struct.pack(e + "I", start + len(data))
                data += value + (b"\x00" if len(value) % 2 else b"")
        return table + struct.pack(e + "I", 0) + data

    exif = [ascii(0x9003, date)] + ([ascii(0x9011, offset)] if offset else [])
    gps_entries = [
        entry(0x0000, 1, 4, bytes([2, 3, 0, 0])),
        ascii(0x0001, b"N"), rationals(0x0002, [(40, 1), (37, 1), (49080, 1000)]),
        ascii(0x0003, b"W"), rationals(0x0004, [(8, 1), (39, 1), (27000, 1000)]),
        entry(0x0005, 1, 1, b"\x00"), rationals(0x0006, [(123, 10)]),
        rationals(0x0007, [(9, 1), (15, 1), (30, 1)]), ascii(0x0009, status),
        ascii(0x001D, b"2024:05:02"), rationals(0x001F, [(7, 2)]),
    ] if gps else []
    primary = [entry(0x0112, 3, 1, struct.pack(e + "H", orientation))] if orientation else []

    def size(entries):
        return 2 + 12 * len(entries) + 4 + sum((len(v[3]) + 1) & ~1 for v in entries if len(v[3]) > 4)

    head_count = len(primary) + 2
    exif_at = 8 + 2 + 12 * head_count + 4 + sum((len(v[3]) + 1) & ~1 for v in primary if len(v[3]) > 4)
    gps_at = exif_at + size(exif)
    head = primary + [entry(0x8769, 4, 1, struct.pack(e + "I", exif_at)),
                      entry(0x8825, 4, 1, struct.pack(e + "I", gps_at))]
    magic = b"II*\x00" if little else b"MM\x00*"
    return magic + struct.pack(e + "I", 8) + ifd(head, 8) + ifd(exif, exif_at) + ifd(gps_entries, gps_at)


def exif_payload(t: bytes) -> bytes:
    return b"Exif\x00\x00" + t


def insert_app1(payload: bytes, jpeg_bytes: bytes) -> bytes:
    return b"\xff\xd8\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg_bytes[2:]


def exif(out: Path) -> None:
    w = lambda name, data: write(out, "exif", name, data)
    little, big = tiff(), tiff(little=False, orientation=8, offset=b"-05:30")
    w("little.tiff", little)
    w("big.tiff", big)
    w("payload.exif", exif_payload(little))
    w("void-fix.tiff", tiff(status=b"V"))
    w("no-gps.tiff", tiff(gps=False, offset=None, date=b"    :  :     :  :  "))
    w("heif-block.bin", struct.pack(">I", 0) + big)
    w("heif-block-skip.bin", struct.pack(">I", 6) + b"Exif\x00\x00" + little)
    base = jpeg(ppm(8, 8), ".ppm")
    if base:
        xmp = b"http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta/>"
        w("gps.jpg", insert_app1(exif_payload(little), base))
        w("xmp-then-exif.jpg", insert_app1(xmp, insert_app1(exif_payload(big), base)))
    w("exif.png", png(2, 2, [b"\x00\xff"] * 2, extra=[(b"eXIf", little)]))


# ---- codes ------------------------------------------------------------------------------------

def cache_code(hunt: str, cache: str, secret: bytes = CODE_SECRET) -> str:
    body = f"GQ1.{hunt}.{cache}"
    mac = hmac.new(secret, body.encode(), hashlib.sha256).digest()[:10]
    return body + "." + b32encode(mac).decode().rstrip("=")


def codes(out: Path) -> str:
    w = lambda name, text: write(out, "code", name, text.encode())
    a1, a2, far = cache_code("DEMO", "A1"), cache_code("DEMO", "A2"), cache_code("DEMO", "GC1BKP3")
    w("genuine", f"40.63030, -8.65750\n{a1}")
    w("geocaching-form", f"N 40° 37.818' W 008° 39.450'\n{a2}\n{a1}")
    w("url-form", f"40.6279,-8.6599\nHTTPS://192.168.1.20:8443/C/{a1}")
    w("lower-url", f"\nhttps://geoqr.local/c/{a1.lower()}")
    w("antimeridian", f"-16.5, -179.995\n{far}")
    w("pole", f"90, 0\n{cache_code('DEMO', 'N9')}")
    w("forged", f"40.63030, -8.65750\nGQ1.DEMO.A1.AAAAAAAAAAAAAAAA\n{cache_code('DEMO', 'A1', bytes(32))}")
    w("other-hunt", f"40.63030, -8.65750\n{cache_code('EDIN', 'A1')}")
    w("unknown-cache", f"\n{cache_code('DEMO', 'ZZ9')}")
    w("version-2", f"\nGQ2.DEMO.A1.{a1.split('.')[-1]}\nGQ1.DEMO\n  {a1}  \nhttp://example.org/menu")
    return a1


# ---- hunts ------------------------------------------------------------------------------------

def hunts(out: Path) -> None:
    for f in sorted((ROOT / "caches").glob("*.json")):
        if f.name != "hunt.schema.json":
            write(out, "hunt", f.name, f.read_bytes())
    write(out, "hunt", "small.json", b"""{"id": "T1", "name": "Two caches", "radius": 25, "accuracyCap": 30,
 "start": "2025-06-01T09:00:00Z", "end": "2025-06-01T17:00:00+01:00",
 "trails": [{"id": "t", "name": "Trail", "ordered": true, "caches": ["C1", "C2"]}],
 "caches": [
  {"id": "C1", "name": "One", "lat": -33.8568, "lon": 151.2153, "radius": 5, "difficulty": 4.5,
   "terrain": 2, "points": 30, "message": "caf\\u00e9 \\ud83d\\ude00", "hint": "up"},
  {"id": "C2", "name": "Two", "lat": "S 33\xc2\xb0 51.408'", "lon": "E 151\xc2\xb0 12.918'", "message": "m"}]}
""")
    write(out, "hunt", "overlap.json", b"""{"id": "OV", "name": "Overlap", "caches": [
 {"id": "A", "name": "a", "lat": 0, "lon": 179.9999, "message": ""},
 {"id": "B", "name": "b", "lat": 0, "lon": -179.9999, "message": ""}]}""")
    write(out, "hunt", "errors.json", b"""{"id": "bad id!", "name": 3, "radius": -1, "extra": null,
 "caches": [{"id": "A1", "lat": 95, "lon": "x", "difficulty": 1.25}, {"id": "A1"}], "trails": [{}]}""")


# ---- GPX --------------------------------------------------------------------------------------

GPX = """<?xml version="1.0" encoding="utf-8"?>
<gpx xmlns="http://www.topografix.com/GPX/1/0" version="1.0" creator="GeoQR seeds"
     xmlns:groundspeak="http://www.groundspeak.com/cache/1/0/1">
  <name>Seed pocket query</name>
  <desc>Made by Fuzz/make-seeds.py</desc>
  <wpt lat="40.630300" lon="-8.657500">
    <time>2024-05-02T10:15:30Z</time>
    <name>GC1ABCD</name>
    <desc>Rectorate steps by seeds, Traditional Cache (1.5/2)</desc>
    <urlname>Rectorate steps</urlname>
    <sym>Geocache</sym>
    <type>Geocache|Traditional Cache</type>
    <groundspeak:cache id="1" available="True" archived="False">
      <groundspeak:name>Rectorate &amp; steps</groundspeak:name>
      <groundspeak:placed_by>seeds</groundspeak:placed_by>
      <groundspeak:type>Traditional Cache</groundspeak:type>
      <groundspeak:container>Small</groundspeak:container>
      <groundspeak:difficulty>1.5</groundspeak:difficulty>
      <groundspeak:terrain>2</groundspeak:terrain>
      <groundspeak:short_description html="False">Short.</groundspeak:short_description>
      <groundspeak:long_description html="True">&lt;p&gt;Long &lt;b&gt;text&lt;/b&gt;&lt;/p&gt;</groundspeak:long_description>
      <groundspeak:encoded_hints>Under the third step</groundspeak:encoded_hints>
      <groundspeak:travelbugs><groundspeak:travelbug id="9" ref="TB123"><groundspeak:name>Bug</groundspeak:name></groundspeak:travelbug></groundspeak:travelbugs>
    </groundspeak:cache>
  </wpt>
  <wpt lat="40.6279" lon="-8.6599"><name>PK1ABCD</name><desc>Parking</desc><type>Waypoint|Parking Area</type></wpt>
  <wpt lat="-16.5" lon="179.99"><name>OC12AB</name><cmt><![CDATA[cdata <here>]]></cmt></wpt>
  <trk><name>ignored</name></trk>
</gpx>
"""


def gpx(out: Path) -> None:
    write(out, "gpx", "seed.gpx", GPX.encode())
    for f in sorted((ROOT / "Tests/InterchangeTests/Fixtures").glob("*.gpx")):
        if f.stat().st_size <= 64 * 1024:
            write(out, "gpx", f.name, f.read_bytes())


# ---- IOF XML 3.0 course data -----------------------------------------------------------------

IOF = """<?xml version="1.0" encoding="UTF-8"?>
<CourseData xmlns="http://www.orienteering.org/datastandard/3.0" xmlns:geoqr="https://geoqr.example/iof/1"
            iofVersion="3.0" createTime="2025-05-10T14:02:11Z" creator="GeoQR seeds">
  <Event><Name>Seed &amp; park</Name></Event>
  <RaceCourseData>
    <Control type="Start"><Id>S1</Id><Name>Gate</Name><Position lat="40.6303" lng="-8.6575"/></Control>
    <Control><Id>31</Id><Position lat="40.6315" lng="-8.6560"/><MapPosition x="42.75" y="-10"/></Control>
    <Control type="Control"><Id>a b</Id><Position lat="-16.5" lng="179.99"/></Control>
    <Control type="CrossingPoint"><Id>X1</Id><MapPosition x="1" y="2"/></Control>
    <Control type="Finish"><Id>F1</Id><Position lat="40.6306" lng="-8.6570"/></Control>
    <Course><Id>LINE</Id><Name>Line</Name><Length>990</Length>
      <CourseControl type="Start"><Control>S1</Control></CourseControl>
      <CourseControl type="Control"><Control>31</Control><MapText>1</MapText><LegLength>184</LegLength></CourseControl>
      <CourseControl type="CrossingPoint"><Control>X1</Control></CourseControl>
      <CourseControl><Control>a b</Control></CourseControl>
      <CourseControl type="Finish"><Control>F1</Control></CourseControl>
      <Extensions><geoqr:Kind>line</geoqr:Kind><geoqr:TimeLimit>3600</geoqr:TimeLimit></Extensions>
    </Course>
    <Course><Name>Score</Name>
      <CourseControl type="Start"><Control>S1</Control></CourseControl>
      <CourseControl><Control>31</Control><Score>10</Score></CourseControl>
      <CourseControl><Control>a b</Control><Score>25</Score></CourseControl>
      <CourseControl type="Finish"><Control>F1</Control></CourseControl>
      <Extensions><geoqr:PenaltyPerMinute>2</geoqr:PenaltyPerMinute></Extensions>
    </Course>
    <Course><Name>Mass</Name>
      <CourseControl type="Control"><Control>31</Control></CourseControl>
      <CourseControl type="Finish"><Control>F1</Control></CourseControl>
      <Extensions><geoqr:MassStart>2026-11-21T10:15:00.125Z</geoqr:MassStart></Extensions>
    </Course>
  </RaceCourseData>
</CourseData>
"""


def iof(out: Path) -> None:
    write(out, "iof", "seed.xml", IOF.encode())
    for f in sorted((ROOT / "Tests/InterchangeTests/Fixtures/iof").glob("*.xml")):
        if f.stat().st_size <= 32 * 1024:
            write(out, "iof", f.name, f.read_bytes())


# ---- multipart --------------------------------------------------------------------------------

def form(boundary: str, parts: list[tuple[str, str | None, bytes]], header: str | None = None) -> bytes:
    body = b""
    for name, filename, data in parts:
        disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
        body += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n".encode()
        if filename:
            body += b"Content-Type: image/png\r\n"
        body += b"\r\n" + data + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    return (header or f"multipart/form-data; boundary={boundary}").encode() + b"\n" + body


def multipart(out: Path) -> None:
    photo = png(2, 2, [b"\x00\xff"] * 2)
    w = lambda name, data: write(out, "multipart", name, data)
    w("photo-and-location", form("----geoqr7MA4YWxk", [("photo", "p.png", photo), ("latitude", None, b"40.6303"),
                                                       ("longitude", None, b"-8.6575"), ("accuracy", None, b"12")]))
    w("quoted-boundary", form("a b", [("photo", "x.jpg", b"\xff\xd8\xff\xe0")],
                              header='multipart/form-data; charset=utf-8; boundary="a b"'))
    w("no-photo", form("X", [("latitude", None, b"1")]))
    w("twice", form("B", [("photo", "1.png", photo), ("photo", "2.png", photo)]))


# ---- dictionaries -----------------------------------------------------------------------------

DICTS = {
    "code": ["GQ1.", "GQ", "DEMO", "A1", "A2", "GC1BKP3", "N9", "://", "/C/", "HTTPS://", "N ", "W ", "S ", "E ",
             "\u00b0", "'", ", ", "."],
    "hunt": ['"id"', '"name"', '"description"', '"radius"', '"accuracyCap"', '"start"', '"end"', '"trails"',
             '"caches"', '"lat"', '"lon"', '"difficulty"', '"terrain"', '"points"', '"message"', '"hint"',
             '"ordered"', '"$schema"', "true", "false", "null", "1e308", "-0", "\\u0000", "\\ud800", "\u00b0",
             '"2025-06-01T09:00:00Z"'],
    "gpx": ["<wpt", "</wpt>", "lat=", "lon=", "<name>", "<desc>", "<cmt>", "<type>", "<sym>", "<urlname>",
            "<groundspeak:cache", "<groundspeak:difficulty>", "<groundspeak:terrain>", "<groundspeak:encoded_hints>",
            "<groundspeak:long_description", 'html="True"', "<groundspeak:travelbug", "archived=", "available=",
            "Waypoint|", "Geocache|", "<![CDATA[", "]]>", "&amp;", "&lt;", "&#", "xmlns=", "<!DOCTYPE", "<trk>",
            "http://www.topografix.com/GPX/1/1", "http://www.groundspeak.com/cache/1/0/1", "<rte>", "<gsak:wptExtension"],
    "iof": ["<CourseData", "</CourseData>", "<RaceCourseData>", "<Control", "</Control>", "<Control>", "<Id>", "<Name>",
            "<Position", "lat=", "lng=", "<MapPosition", "<Course>", "</Course>", "<CourseControl", "</CourseControl>",
            'type="Start"', 'type="Control"', 'type="Finish"', 'type="CrossingPoint"', "<Score>", "<LegLength>",
            "<Extensions>", "<geoqr:Kind>", "score", "line", "<geoqr:TimeLimit>", "<geoqr:PenaltyPerMinute>",
            "<geoqr:MassStart>", 'iofVersion="3.0"', "http://www.orienteering.org/datastandard/3.0",
            "https://geoqr.example/iof/1", 'xmlns:geoqr=', "&amp;", "&#", "<![CDATA[", "<!DOCTYPE"],
    "multipart": ["--", "\r\n", "\r\n\r\n", "Content-Disposition: ", "form-data; ", 'name="photo"', 'name="latitude"',
                  'filename="', "Content-Type: ", "boundary=", "multipart/form-data; "],
}


def dictionaries(out: Path) -> None:
    for harness, words in DICTS.items():
        lines = []
        for word in words:
            escaped = "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else
                              "".join(f"\\x{b:02x}" for b in c.encode()) for c in word)
            lines.append(f'"{escaped}"')
        (out / f"{harness}.dict").write_text("\n".join(lines) + "\n")


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    try:
        code = codes(out)
        pictures(out, code)
        exif(out)
        hunts(out)
        gpx(out)
        iof(out)
        multipart(out)
        dictionaries(out)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        print(f"{folder.name}: {len(list(folder.iterdir()))} seeds")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes synthetic GPX files for Benchmarks/gpx-import.sh (nothing copied from real files).

  make-gpx.py pq OUT.gpx N        a Groundspeak 1.0.1 pocket query of N caches, ~8 KB each
                                  (HTML long description, logs, attributes), plus OUT-wpts.gpx
  make-gpx.py waypoints OUT.gpx N  plain GPX 1.1 with N waypoints
"""
import random
import sys

rng = random.Random(6)
ALPHABET = "0123456789ABCDEFGHJKMNPQRTVWXYZ"


def code(i):
    s = ""
    n = i + 0x10000
    while n:
        s = ALPHABET[n % 31] + s
        n //= 31
    return s


def coordinate(i):
    # A grid with 200 m steps: caches never closer than geocaching's 161 m rule.
    return 40.0 + (i // 100) * 0.0018, -8.0 + (i % 100) * 0.0024


def pq(path, n):
    words = "moliceiro canal salt boat bridge tile azulejo lagoon heron dune pine".split()
    with open(path, "w", encoding="utf-8") as f, open(path[:-4] + "-wpts.gpx", "w", encoding="utf-8") as w:
        head = ('<?xml version="1.0" encoding="utf-8"?>\n<gpx xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                'version="1.0" creator="GeoQR benchmark" xmlns="http://www.topografix.com/GPX/1/0">\n')
        f.write(head + "  <name>Benchmark pocket query</name>\n")
        w.write(head + "  <name>Benchmark waypoints</name>\n")
        for i in range(n):
            lat, lon = coordinate(i)
            c = code(i)
            text = " ".join(rng.choice(words) for _ in range(600))
            logs = "".join(
                f'<groundspeak:log id="{i * 10 + k}"><groundspeak:date>2025-0{k + 1}-01T12:00:00Z</groundspeak:date>'
                f'<groundspeak:type>Found it</groundspeak:type><groundspeak:finder id="{k}">finder{k}</groundspeak:finder>'
                f'<groundspeak:text encoded="False">{" ".join(rng.choice(words) for _ in range(40))}</groundspeak:text>'
                '</groundspeak:log>' for k in range(5))
            f.write(f'''  <wpt lat="{lat:.6f}" lon="{lon:.6f}">
    <time>2020-01-01T00:00:00</time><name>GC{c}</name><desc>Cache {i} by Owner, Traditional Cache (2/2)</desc>
    <url>https://coord.info/GC{c}</url><urlname>Cache {i} &amp; friends</urlname><sym>Geocache</sym><type>Geocache|Traditional Cache</type>
    <groundspeak:cache id="{i + 1}" available="True" archived="{'True' if i % 50 == 49 else 'False'}" xmlns:groundspeak="http://www.groundspeak.com/cache/1/0/1">
      <groundspeak:name>Cache {i} &amp; friends</groundspeak:name><groundspeak:placed_by>Owner</groundspeak:placed_by>
      <groundspeak:owner id="1">Owner</groundspeak:owner><groundspeak:type>Traditional Cache</groundspeak:type>
      <groundspeak:container>Small</groundspeak:container>
      <groundspeak:attributes><groundspeak:attribute id="32" inc="1">Bicycles</groundspeak:attribute></groundspeak:attributes>
      <groundspeak:difficulty>2</groundspeak:difficulty><groundspeak:terrain>2</groundspeak:terrain>
      <groundspeak:country>Portugal</groundspeak:country><groundspeak:state>Aveiro</groundspeak:state>
      <groundspeak:short_description html="True">&lt;p&gt;Short &amp;amp; sweet {i}&lt;/p&gt;</groundspeak:short_description>
      <groundspeak:long_description html="True">&lt;p&gt;{text}&lt;/p&gt;&lt;ul&gt;&lt;li&gt;Caf&amp;eacute;&lt;/li&gt;&lt;/ul&gt;</groundspeak:long_description>
      <groundspeak:encoded_hints>Under the stone</groundspeak:encoded_hints>
      <groundspeak:logs>{logs}</groundspeak:logs>
      <groundspeak:travelbugs/>
    </groundspeak:cache>
  </wpt>
''')
            w.write(f'  <wpt lat="{lat + 0.0003:.6f}" lon="{lon:.6f}"><name>PK{c}</name><cmt>Parking</cmt>'
                    f'<desc>Parking</desc><sym>Parking Area</sym><type>Waypoint|Parking Area</type></wpt>\n')
        f.write("</gpx>\n")
        w.write("</gpx>\n")


def waypoints(path, n):
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="GeoQR benchmark" '
                'xmlns="http://www.topografix.com/GPX/1/1">\n  <metadata><name>Ten thousand points</name></metadata>\n')
        for i in range(n):
            lat, lon = coordinate(i)
            f.write(f'  <wpt lat="{lat:.6f}" lon="{lon:.6f}"><name>W{i:05d}</name><desc>Point {i}</desc>'
                    f'<sym>Flag, Blue</sym></wpt>\n')
        f.write("</gpx>\n")


if __name__ == "__main__":
    kind, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    {"pq": pq, "waypoints": waypoints}[kind](out, count)

#!/usr/bin/env python3
"""Scores decoders on the generated corpus: reads the manifest and each tool's output, prints
decode rates per tool and per distortion category (a code counts when its expected payload is
among the tool's outputs for that file), and the wall times given on the command line.

    score.py CORPUS --geoqr geoqr.jsonl --zbar zbar.xml --zxing zxing.txt --times times.txt
"""
import argparse, collections, json, os, re, sys


def read_geoqr(path):
    found = collections.defaultdict(set)
    passes = collections.Counter()
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.strip()
        if not line:
            continue
        obj = json.loads(line)
        for code in obj["codes"]:
            found[obj["file"]].add(code["text"])
        if obj["codes"]:
            passes[obj["codes"][0]["pass"]] += 1
    return found, passes


def read_zbar(path):
    found = collections.defaultdict(set)
    source = None
    text = open(path, encoding="utf-8", errors="replace").read()
    for m in re.finditer(r"<source href='([^']*)'>|<data><!\[CDATA\[(.*?)\]\]></data>", text, re.S):
        if m.group(1) is not None:
            source = m.group(1)
        elif source:
            found[source].add(m.group(2))
    return found


def read_zxing(path):
    found = collections.defaultdict(set)
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r'^(.*?) QRCode "(.*)"$', line.rstrip("\n"))
        if m:
            found[m.group(1)].add(m.group(2))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--geoqr"); ap.add_argument("--zbar"); ap.add_argument("--zxing")
    ap.add_argument("--times", help="lines: TOOL SECONDS")
    args = ap.parse_args()
    manifest = json.load(open(os.path.join(args.corpus, "manifest.json")))
    key = os.path.normpath   # tools run inside the corpus folder, on the manifest's relative paths
    tools = {}
    passes = {}
    if args.geoqr:
        tools["geoqr"], passes = read_geoqr(args.geoqr)
    if args.zxing:
        tools["ZXingReader"] = read_zxing(args.zxing)
    if args.zbar:
        tools["zbarimg"] = read_zbar(args.zbar)
    tools = {name: {os.path.normpath(k): v for k, v in found.items()} for name, found in tools.items()}
    categories = list(dict.fromkeys(e["category"] for e in manifest))
    hits = {t: collections.Counter() for t in tools}
    totals = collections.Counter()
    for e in manifest:
        for p in e["payloads"]:
            totals[e["category"]] += 1
            for t, found in tools.items():
                if p in found.get(key(e["file"]), ()):
                    hits[t][e["category"]] += 1
    names = list(tools)
    print("| category | codes | " + " | ".join(names) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in names) + " |")
    for c in categories + ["all"]:
        n = sum(totals.values()) if c == "all" else totals[c]
        cells = []
        for t in names:
            h = sum(hits[t].values()) if c == "all" else hits[t][c]
            cells.append(f"{h} ({100 * h / n:.0f}%)")
        label = "**all**" if c == "all" else c
        print(f"| {label} | {n} | " + " | ".join(cells) + " |")
    if args.times:
        times = {l.split()[0]: [float(v) for v in l.split()[1:]] for l in open(args.times) if l.strip()}
        print()
        wall, cpu = times["geoqr"]
        print("| tool | wall (s) | CPU (s) | wall ÷ geoqr's | CPU ÷ geoqr's | codes found ÷ geoqr's |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        g = sum(hits["geoqr"].values())
        for t in names:
            w, c = times[t]
            print(f"| {t} | {w:.1f} | {c:.1f} | {w / wall:.2f} | {c / cpu:.2f} | {sum(hits[t].values()) / g:.2f} |")
    if passes:
        print()
        print("Files whose codes were first found by each geoqr pass:",
              ", ".join(f"{p} {n}" for p, n in passes.most_common()))


if __name__ == "__main__":
    sys.exit(main())

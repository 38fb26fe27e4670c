#!/usr/bin/env python3
"""Per-image timing: runs geoqr, zbarimg and ZXingReader once per picture (one process a
picture, one at a time, so the tools never share the cores), and prints images/s, the median
per-image time and the decode rate of each, and each tool's times as a ratio of zbarimg's.

    python3 Benchmarks/per_image.py CORPUS GEOQR_BINARY [--limit N]

CORPUS holds manifest.json as written by corpus/generate.py or corpus/phone12mp.py.
"""
import argparse, json, os, statistics, subprocess, time

TOOLS = {
    "geoqr": lambda geoqr, f: [geoqr, "decode", "--jobs", "1", f],
    "zbarimg": lambda geoqr, f: ["zbarimg", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", f],
    "ZXingReader": lambda geoqr, f: ["ZXingReader", "-format", "QRCode", "-1", f],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("geoqr")
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    manifest = json.load(open(os.path.join(args.corpus, "manifest.json")))
    if args.limit:
        manifest = manifest[:args.limit]
    codes = sum(len(e["payloads"]) for e in manifest)
    rows = {}
    for tool, command in TOOLS.items():
        times, found = [], 0
        for entry in manifest:
            path = os.path.join(args.corpus, entry["file"])
            start = time.perf_counter()
            out = subprocess.run(command(args.geoqr, path), capture_output=True).stdout.decode("utf-8", "replace")
            times.append(time.perf_counter() - start)
            found += sum(1 for p in entry["payloads"] if p in out)
        rows[tool] = (len(times) / sum(times), statistics.median(times), found)
    zbar_rate, zbar_median, _ = rows["zbarimg"]
    print(f"{len(manifest)} pictures, {codes} codes in {args.corpus}")
    print("| tool | images/s | median per image (ms) | codes found | time ÷ zbarimg's (total) | median ÷ zbarimg's |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for tool, (rate, median, found) in rows.items():
        print(f"| {tool} | {rate:.2f} | {median * 1000:.0f} | {found} ({100 * found / codes:.0f}%) "
              f"| {zbar_rate / rate:.2f} | {median / zbar_median:.2f} |")


if __name__ == "__main__":
    main()

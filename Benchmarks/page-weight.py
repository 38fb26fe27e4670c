#!/usr/bin/env python3
"""What a player's phone downloads on its first visit, uncompressed, from a running hunt server.

    Benchmarks/page-weight.py http://127.0.0.1:8080 [--budget 250]

Reads the page the join QR opens (`/`) and every file it names (stylesheets, scripts, icons,
the web app manifest and the icons it lists), every module those scripts import statically
(`import … from "./x.js"`; a module loaded with `import()` when it is needed, such as the
course card, is not part of the first load, nor is Leaflet, loaded when the map first opens),
plus the first API answers the app asks before a player can join (`/api/hunt`, `/api/map`, the
language's catalogue). Prints one line per file
and the totals; exits non-zero when the static files pass the budget (KB, 1 KB = 1000 bytes).
"""
import argparse, json, posixpath, re, sys, urllib.request

# A static import: `import { a } from "./x.js";`, `import * as b from "../y.js";`, `import "./z.js";`.
STATIC_IMPORT = re.compile(r'^\s*import\s+(?:[^;"\']*?\s+from\s+)?"(\.{1,2}/[^"]+)"', re.M)


def get(url, lang="en"):
    request = urllib.request.Request(url, headers={"Accept-Encoding": "identity", "Accept-Language": lang})
    with urllib.request.urlopen(request) as response:
        return response.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the hunt server's address, e.g. http://127.0.0.1:8080")
    parser.add_argument("--budget", type=float, default=250, help="KB the static files may weigh (default 250)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    base = args.base.rstrip("/")
    page = get(base + "/")
    files = {"/": len(page)}
    html = page.decode()
    for path in re.findall(r'<(?:link|script)\b[^>]*(?:href|src)="(/[^"]+)"', html):
        files[path] = len(get(base + path))
    modules = [p for p in files if p.endswith(".js")]
    while modules:
        module = modules.pop()
        for relative in STATIC_IMPORT.findall(get(base + module).decode()):
            path = posixpath.normpath(posixpath.join(posixpath.dirname(module), relative))
            if path not in files:
                files[path] = len(get(base + path))
                modules.append(path)
    for manifest in [p for p in files if p.endswith(".webmanifest")]:
        for icon in json.loads(get(base + manifest)).get("icons", []):
            files.setdefault(icon["src"], len(get(base + icon["src"])))
    answers = {path: len(get(base + path)) for path in ("/api/hunt", "/api/map", "/i18n/en.json")}
    static = sum(files.values())
    total = static + sum(answers.values())
    if args.json:
        print(json.dumps({"files": files, "apiAnswers": answers, "staticBytes": static, "totalBytes": total,
                          "budgetBytes": int(args.budget * 1000)}, indent=2))
    else:
        for path, size in sorted(files.items(), key=lambda kv: -kv[1]):
            print(f"{size:>9,}  {path}")
        for path, size in answers.items():
            print(f"{size:>9,}  {path} (API answer)")
        print(f"{static:>9,}  static files ({static / 1000:.1f} KB, budget {args.budget:.0f} KB)")
        print(f"{total:>9,}  with the API answers ({total / 1000:.1f} KB)")
    return 0 if static <= args.budget * 1000 else 1


if __name__ == "__main__":
    sys.exit(main())

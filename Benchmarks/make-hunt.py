#!/usr/bin/env python3
"""Writes a hunt of N caches on a grid around Aveiro, 150 m apart (no overlapping radii)."""
import json, sys
n, hunt_id, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
side = int(n ** 0.5) + 1
caches = [{
    "id": f"C{i:04d}", "name": f"Benchmark cache {i}",
    "lat": round(40.60 + (i // side) * 0.00135, 6), "lon": round(-8.70 + (i % side) * 0.00178, 6),
    "radius": 40, "difficulty": 1 + (i % 9) * 0.5, "terrain": 1 + (i % 5) * 0.5,
    "message": f"You found cache {i}.", "hint": "Under the bench, left side, behind the old stone wall.",
} for i in range(n)]
trails = [{"id": f"t{t}", "name": f"Trail {t}", "ordered": t % 2 == 0,
           "caches": [c["id"] for c in caches[t * 10:(t + 1) * 10]]} for t in range(min(20, n // 10))]
json.dump({"id": hunt_id, "name": f"Benchmark hunt ({n} caches)", "radius": 40, "trails": trails, "caches": caches},
          open(path, "w"), indent=1)

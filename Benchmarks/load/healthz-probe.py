#!/usr/bin/env python3
"""Asks GET /healthz on one keep-alive connection every 3 ms for S seconds and prints the
latency p50/p99/max and the moments of the slow answers (> 30 ms), to see when a server under
load stalls every request (BENCHMARKS.md, capacity, second sitting):

    python3 Benchmarks/load/healthz-probe.py PORT SECONDS
"""
import socket, sys, time
port = int(sys.argv[1]); dur = float(sys.argv[2])
s = socket.create_connection(("127.0.0.1", port)); s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
req = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
out = []; t0 = time.monotonic()
while time.monotonic() - t0 < dur:
    a = time.monotonic(); s.sendall(req); buf = b""
    while b"\r\n\r\n" not in buf: buf += s.recv(65536)
    head, _, body = buf.partition(b"\r\n\r\n")
    n = int([l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")][0])
    while len(body) < n: body += s.recv(65536)
    b = time.monotonic(); out.append((a - t0, (b - a) * 1000)); time.sleep(0.003)
lat = sorted(x[1] for x in out)
print("n", len(lat), "p50 %.1f p99 %.1f max %.1f" % (lat[len(lat)//2], lat[int(len(lat)*.99)], lat[-1]))
spikes = [(round(t, 3), round(l, 1)) for t, l in out if l > 30]
print("spikes >30ms:", len(spikes)); print(spikes[:80])

#!/usr/bin/env python3
"""Recompute every hash of a GeoQR ledger export, with nothing but Python 3's standard library.

    python3 scripts/verify-ledger-export.py hunt-ledger.jsonl     # or - for standard input
    python3 scripts/verify-ledger-export.py --json export.json    # a report as JSON

Reads what `geoqr ledger export` (JSON lines, or --json: one array) and the control room's
ledger download write, published or --private, and checks, from event 1 on: that each seq
follows the last, that each prev_hash is the previous event's hash, and each hash, by the rule
of the event's format (RELIABILITY.md, "A ledger one can publish", says the same):

  lp(x)     = str(len(utf8(x))) + ":" + utf8(x)             (length-prefixed field)
  H(fields) = lower-case hex SHA-256 of lp(f1) + lp(f2) + ...

  format 1 (a body without "v":2):
      hash = H(prev_hash, seq, time_ms, hunt, actor, kind, body)
  format 2 (a body with "v":2, or an event withheld as "private"):
      content = H(time_ms, hunt, actor, kind, body_as_hashed)
      hash    = H("geoqr-ledger-2", prev_hash, seq, content)
  where body_as_hashed is the body's exact text, except that when its top-level "private"
  member is an object (the --private form), that object's exact bytes are replaced by the
  string "<hex SHA-256 of those bytes>" (its commitment), as the published form shows it.

A withheld "private" event (a PIN check) gives content_hash instead of its fields. A withheld
"format-1" event (written before format 2, its hash covering a position, a report text or a
PIN check) can only be checked by its place in the chain; so can, in a --private export, a
format-1 join whose hash covers a PIN hash the ledger keeps apart. Those are counted, not failed.

Exit status 0 when the export is intact, 1 when it is not, 2 when it cannot be read.
"""

import hashlib
import json
import sys

GENESIS = "0" * 64


def lp(text):
    data = text.encode("utf-8")
    return str(len(data)).encode("ascii") + b":" + data


def digest(*fields):
    h = hashlib.sha256()
    for field in fields:
        h.update(lp(field))
    return h.hexdigest()


def top_level_members(body):
    """(key, start, end) of each top-level member's value, as byte offsets into body's UTF-8,
    found by skipping strings and nested values, never by re-encoding (which could change bytes)."""
    data = body.encode("utf-8")
    i = 0
    n = len(data)

    def skip_string(i):
        i += 1
        while i < n:
            c = data[i]
            if c == 0x5C:  # backslash
                i += 2
            elif c == 0x22:
                return i + 1
            else:
                i += 1
        raise ValueError("unterminated string")

    def skip_value(i):
        c = data[i]
        if c == 0x22:
            return skip_string(i)
        if c in (0x7B, 0x5B):
            depth = 0
            while i < n:
                c = data[i]
                if c == 0x22:
                    i = skip_string(i)
                    continue
                if c in (0x7B, 0x5B):
                    depth += 1
                elif c in (0x7D, 0x5D):
                    depth -= 1
                    if depth == 0:
                        return i + 1
                i += 1
            raise ValueError("unterminated object")
        while i < n and data[i] not in (0x2C, 0x7D):
            i += 1
        return i

    members = []
    if not data.startswith(b"{"):
        return data, None
    i = 1
    if data[i:i + 1] == b"}":
        return data, members
    while True:
        if data[i:i + 1] != b'"':
            return data, None
        end = skip_string(i)
        key = data[i + 1:end - 1].decode("utf-8")
        if data[end:end + 1] != b":":
            return data, None
        start = end + 1
        stop = skip_value(start)
        members.append((key, start, stop))
        sep = data[stop:stop + 1]
        i = stop + 1
        if sep == b",":
            continue
        if sep == b"}" and i == n:
            return data, members
        return data, None


def read_body(body):
    """(format, body as hashed, holds a private object) for a body's text."""
    try:
        data, members = top_level_members(body)
    except (ValueError, IndexError):
        return 1, body, False
    if members is None:
        return 1, body, False
    fmt, hashed, holds = 1, data, False
    for key, start, stop in members:
        if key == "v" and data[start:stop] == b"2":
            fmt = 2
        if key == "private" and data[start:start + 1] == b"{":
            holds = True
            commitment = hashlib.sha256(data[start:stop]).hexdigest()
            hashed = data[:start] + b'"' + commitment.encode("ascii") + b'"' + data[stop:]
    return fmt, hashed.decode("utf-8"), holds


def events_of(text):
    stripped = text.lstrip()
    if stripped.startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def verify(events):
    report = {"events": len(events), "headHash": GENESIS, "recomputed": 0, "withheld": 0,
              "linkedOnly": 0, "privateParts": 0, "firstBadSeq": None, "problem": None}
    previous = GENESIS

    def bad(seq, problem):
        report["firstBadSeq"] = seq
        report["problem"] = problem
        return report

    for index, e in enumerate(events):
        seq = index + 1
        if e.get("seq") != seq:
            return bad(seq, "event %d is missing (the next one in the file is %s)" % (seq, e.get("seq")))
        if e.get("prev_hash") != previous:
            return bad(seq, "event %d does not link to event %d (previous hash differs)" % (seq, seq - 1))
        withheld = e.get("withheld")
        if withheld == "private":
            content = e.get("content_hash")
            if not isinstance(content, str) or digest("geoqr-ledger-2", previous, str(seq), content) != e.get("hash"):
                return bad(seq, "event %d (withheld) was altered: its hash does not match its content hash" % seq)
            report["withheld"] += 1
        elif withheld == "format-1":
            report["linkedOnly"] += 1
        elif withheld is not None:
            return bad(seq, "event %d is withheld for an unknown reason: %r" % (seq, withheld))
        else:
            try:
                fields = [str(e["time_ms"]), e["hunt"], e["actor"], e["kind"]]
                body = e["body"]
            except KeyError as missing:
                return bad(seq, "event %d lacks %s" % (seq, missing))
            fmt, hashed, holds = read_body(body)
            if fmt == 2:
                expected = digest("geoqr-ledger-2", previous, str(seq), digest(*fields, hashed))
            else:
                expected = digest(previous, str(seq), *fields, body)
            if expected == e.get("hash"):
                report["recomputed"] += 1
                if holds:
                    report["privateParts"] += 1
            elif fmt == 1 and e["kind"] == "player-joined":
                report["linkedOnly"] += 1
            else:
                return bad(seq, "event %d (%s) was altered: its hash does not match its contents" % (seq, e["kind"]))
        previous = e.get("hash")
        report["headHash"] = previous
    return report


def main(argv):
    args = [a for a in argv[1:] if a != "--json"]
    as_json = "--json" in argv[1:]
    if len(args) != 1 or args[0] in ("-h", "--help"):
        sys.stderr.write("usage: verify-ledger-export.py [--json] FILE|-\n")
        return 2
    try:
        text = sys.stdin.read() if args[0] == "-" else open(args[0], encoding="utf-8").read()
        events = events_of(text)
    except (OSError, ValueError) as error:
        sys.stderr.write("%s: cannot read the export: %s\n" % (args[0], error))
        return 2
    report = verify(events)
    if as_json:
        print(json.dumps(report, sort_keys=True))
    elif report["firstBadSeq"] is not None:
        print("export damaged at event %d: %s" % (report["firstBadSeq"], report["problem"]))
    else:
        print("export intact: %(events)d events, head %(headHash)s (%(recomputed)d hashes recomputed, "
              "%(privateParts)d private parts checked, %(withheld)d withheld by content hash, "
              "%(linkedOnly)d linked only)" % report)
    return 0 if report["firstBadSeq"] is None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

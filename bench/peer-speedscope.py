#!/usr/bin/env python3
"""The peer of sift-fold on py-spy speedscope JSON: Python's json module and a Counter.

Usage: peer-speedscope.py FILE
Writes what sift-fold writes for a py-spy speedscope file whose profiles are named
`Thread TID "NAME"` and whose frames all have a file and line: folded stacks under a
`thread (TID): NAME` pseudo-frame, frames `NAME (FILE:LINE)`, each sample counting 1,
sorted frame by frame (bytes)."""
import collections
import json
import re
import sys

with open(sys.argv[1], "rb") as f:
    doc = json.load(f)
texts = ["%s (%s:%d)" % (f["name"], f["file"], f["line"]) for f in doc["shared"]["frames"]]
counts = collections.Counter()
for prof in doc["profiles"]:
    m = re.match(r'Thread (\w+) "(.*)"$', prof["name"])
    thread = "thread (%s): %s" % m.groups() if m.group(2) else "thread (%s)" % m.group(1)
    for stack in prof["samples"]:
        counts[(thread,) + tuple(texts[i] for i in stack)] += 1
rows = sorted(([f.encode() for f in k], n) for k, n in counts.items())
out = sys.stdout.buffer
for frames, n in rows:
    out.write(b";".join(frames) + b" %d\n" % n)

#!/usr/bin/env python3
"""Peer for bench-dumps.sh: py-spy dump text to folded stacks with Python `re`, the same
output as `sift-fold` with default options (idle threads left out, sorted by frames)."""
import collections
import re
import sys

ansi = re.compile(r"\x1b\[[0-9;?]*[@-~]")
process_re = re.compile(r"^(\s*)Process (\S+?):\s*(.*?)\s*$")
parent_re = re.compile(r"^(\s*)Parent Process (\S+?):\s*(.*?)\s*$")
thread_re = re.compile(r'^(\s*)Thread (0[xX][0-9a-fA-F]+|\d+) \((idle|active|active\+gil)\)(?:: "(.*)")?\s*$')
frame_re = re.compile(r"^(\s*)(\S.*\(.*\))\s*$")
locals_re = re.compile(r"^(\s*)(Arguments|Locals):\s*$")

counts = collections.Counter()
procs = []
parent = None
cur = None  # (stack prefix, frames, keep)
mode = None
base = 0
after_dashes = False


def flush():
    global cur
    if cur and cur[2]:
        counts[tuple(cur[0] + cur[1][::-1])] += 1
    cur = None


for raw in sys.stdin.buffer:
    line = raw.decode("utf-8", "surrogateescape").rstrip("\r\n")
    if "\x1b" in line:
        line = ansi.sub("", line)
    s = line.strip()
    if not s:
        continue
    m = thread_re.match(line)
    if m:
        flush()
        tid = m.group(2)
        if tid[:2] in ("0x", "0X"):
            tid = "0x" + tid[2:].lower()
        tframe = "thread (%s)" % tid + (": " + m.group(4) if m.group(4) is not None else "")
        pre = ([parent] if parent else []) + procs + [tframe]
        cur = (pre, [], m.group(3) != "idle")
        base = len(m.group(1))
        mode = "frames"
        continue
    m = parent_re.match(line)
    if m:
        flush()
        parent = 'process %s:"%s"' % (m.group(2), m.group(3))
        mode = None
        continue
    m = process_re.match(line)
    if m:
        flush()
        procs = ['process %s:"%s"' % (m.group(2), m.group(3))]
        parent = None
        mode = None
        continue
    if s.startswith("Python v") or s.startswith("---"):
        flush()
        mode = None
        continue
    if s.startswith("Error:") or s.startswith("Caused by:"):
        flush()
        mode = "error"
        continue
    if mode == "error" or cur is None:
        continue
    indent = len(line) - len(line.lstrip(" \t"))
    m = frame_re.match(line)
    if m and indent == base + 4:
        cur[1].append(m.group(2))
        mode = "frames"
        continue
    if locals_re.match(line) and indent == base + 8:
        mode = "locals"
        continue
flush()

out = sys.stdout
for stack in sorted(counts):
    out.write("%s %d\n" % (";".join(stack), counts[stack]))

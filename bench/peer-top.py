#!/usr/bin/env python3
"""The peer for sift-top --by frame: the same table (self and total samples per frame, each
stack counted once per frame in total, shares of all samples, and cum_pct: the running share
of self down the rows, as pprof's sum%) with collections.Counter, as people write it; prints
sift-top's TSV for the first 20 rows so the two can be compared."""
import collections
import sys

self_counts = collections.Counter()
total_counts = collections.Counter()
samples = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            try:
                n = int(count)
            except ValueError:
                continue
            samples += n
            frames = stack.split(";")
            self_counts[frames[-1]] += n
            for frame in set(frames):
                total_counts[frame] += n
code = {k: v for k, v in total_counts.items() if not k.startswith(("thread (", "process "))}
rows = sorted(code, key=lambda k: (-self_counts[k], -code[k], k.encode()))
print("frame\tself\tself_pct\ttotal\ttotal_pct\tcum_pct")
cum = 0
for k in rows[:20]:
    cum += self_counts[k]
    print("%s\t%d\t%.2f\t%d\t%.2f\t%.2f" % (k, self_counts[k], 100.0 * self_counts[k] / samples,
                                          code[k], 100.0 * code[k] / samples, 100.0 * cum / samples))

#!/usr/bin/env python3
"""The peer for sift-top --by frame: a collections.Counter leaf table, as people write it."""
import collections
import sys

self_counts = collections.Counter()
total = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            try:
                n = int(count)
            except ValueError:
                continue
            total += n
            self_counts[stack.rsplit(";", 1)[-1]] += n
for leaf, n in self_counts.most_common(20):
    print("%d\t%.2f\t%s" % (n, 100.0 * n / total, leaf))

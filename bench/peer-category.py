#!/usr/bin/env python3
"""The category breakdown as a Python script would do it: the same rules file, Python `re`,
a stack's category from its leaf-most matching frame, each distinct frame matched once.

Usage: peer-category.py RULES PROFILE  (prints category<TAB>samples, like sift-top's self)
"""
import re
import sys
from collections import Counter

rules = []
for line in open(sys.argv[1]):
    line = re.sub(r"\s#.*", "", line).strip()
    if not line or line.startswith("#"):
        continue
    cat, pattern = line.split(None, 1)
    rules.append((cat, re.compile(pattern)))

cache = {}


def frame_category(frame):
    c = cache.get(frame, False)
    if c is False:
        c = next((cat for cat, rx in rules if rx.search(frame)), None)
        cache[frame] = c
    return c


counts = Counter()
for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
    stack, _, n = line.rstrip("\n").rpartition(" ")
    cat = "other"
    for frame in reversed(stack.split(";")):
        c = frame_category(frame)
        if c:
            cat = c
            break
    counts[cat] += int(n)
for cat, n in counts.most_common():
    print("%s\t%d" % (cat, n))

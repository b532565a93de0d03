#!/usr/bin/env python3
"""The category breakdown as a Python script would do it: the same rules file, Python `re`,
a stack's category from its leaf-most matching frame. By default each distinct frame is matched
once (a dict cache, the careful script); --no-cache matches frames stack by stack, as a quick
keyword script does.

Usage: peer-category.py [--no-cache] RULES PROFILE  (prints category<TAB>samples, like sift-top's self)
"""
import re
import sys
from collections import Counter

args = sys.argv[1:]
use_cache = args[0] != "--no-cache"
if not use_cache:
    args = args[1:]
rules = []
for line in open(args[0]):
    line = re.sub(r"\s#.*", "", line).strip()
    if not line or line.startswith("#"):
        continue
    cat, pattern = line.split(None, 1)
    rules.append((cat, re.compile(pattern)))

cache = {}


def match(frame):
    return next((cat for cat, rx in rules if rx.search(frame)), None)


def frame_category(frame):
    if not use_cache:
        return match(frame)
    c = cache.get(frame, False)
    if c is False:
        c = cache[frame] = match(frame)
    return c


counts = Counter()
for line in open(args[1], encoding="utf-8", errors="replace"):
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

#!/usr/bin/env python3
"""Eight ranks before and eight after, from one real profile (demo/profile-all.txt): each
rank draws 5,000 samples from its stacks (multinomial, fixed seed) under its own TIDs, as a
separate process would. After, every rank spends 2 points more of its samples in one
function (planted: `_sync (dflash/train.py)` under each rank's target thread); null-*.txt
split one rank's samples into two halves at random. Usage: gen-ranks.py (run in testdata/)."""
import random

SAMPLES = 5000
PLANT = "_sync (dflash/train.py:90)"


def stacks():
    out = []
    for line in open("demo/profile-all.txt", encoding="utf-8"):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        out.append((stack.split(";"), int(count)))
    return out


def draw(rng, base, n):
    weights = [c for _, c in base]
    counts = {}
    for i in rng.choices(range(len(base)), weights=weights, k=n):
        counts[i] = counts.get(i, 0) + 1
    return counts


def write(path, base, counts, tid0, planted):
    with open(path, "w", encoding="utf-8") as f:
        for i in sorted(counts):
            frames = list(base[i][0])
            if frames[0].startswith("thread ("):
                tid, rest = frames[0][8:].split(")", 1)
                frames[0] = "thread (%d)%s" % (int(tid) + tid0, rest)
            f.write("%s %d\n" % (";".join(frames), counts[i]))
        if planted:
            f.write("thread (%d): target-0;run (threading.py:1012);%s %d\n" % (27303 + tid0, PLANT, planted))


def main():
    rng = random.Random(1414)
    base = stacks()
    for side in ("before", "after"):
        for rank in range(8):
            tid0 = rng.randrange(1000, 90000)
            planted = 0
            n = SAMPLES
            if side == "after":  # 2 points of the rank's samples moved into the planted function
                planted = SAMPLES * 2 // 100
                n -= planted
            write("diff/ranks/%s-rank%d.txt" % (side, rank), base, draw(rng, base, n), tid0, planted)
    whole = draw(rng, base, 20000)
    halves = ({}, {})
    for i, c in whole.items():
        for _ in range(c):
            h = halves[rng.randrange(2)]
            h[i] = h.get(i, 0) + 1
    for k, h in enumerate(halves):
        write("diff/ranks/null-%d.txt" % k, base, h, 0, 0)


if __name__ == "__main__":
    main()

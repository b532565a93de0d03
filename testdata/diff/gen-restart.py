#!/usr/bin/env python3
"""Two runs of one program from real py-spy raw profiles, as a restart makes them: the
after run has new PIDs, new TIDs and new ASLR library bases (each library's unresolved
addresses move by one page-aligned offset), and sample counts that differ by noise.
Deterministic (fixed seed). Usage: gen-restart.py BEFORE_OUT AFTER_OUT (run in testdata/)."""
import random
import re
import sys

INPUTS = [  # file, PID before, command line
    ("raw/enginecore-native-idle.txt", 776980, "python -m vllm.entrypoints.openai.api_server --tensor-parallel-size 8"),
    ("raw/seed-target0.txt", 27300, "python -m dflash.train --config seed.yaml"),
]
ADDR = re.compile(r"\b0x([0-9a-fA-F]+) \(([^()]*)\)")
TID = re.compile(r"^thread \((\d+|0x[0-9a-fA-F]+)\)")


def run(rng, restart):
    out = []
    shift = {}  # library -> ASLR offset of this run
    tids = {}
    for path, pid, cmd in INPUTS:
        if restart:
            pid += rng.randrange(1000, 90000)
        for line in open(path, encoding="utf-8"):
            stack, count = line.rstrip("\n").rsplit(" ", 1)
            frames = stack.split(";")
            if restart:
                def newtid(m):
                    old = m.group(1)
                    if old not in tids:
                        tids[old] = (str(int(old) + rng.randrange(1000, 90000)) if old.isdigit()
                                     else hex(int(old, 16) + rng.randrange(1, 4096) * 0x1000))
                    return "thread (%s)" % tids[old]
                frames[0] = TID.sub(newtid, frames[0])

                def moved(m):
                    lib = m.group(2)
                    if lib not in shift:
                        shift[lib] = rng.randrange(-4096, 4096) * 0x1000
                    return "0x%x (%s)" % (max(0x1000, int(m.group(1), 16) + shift[lib]), lib)
                frames = [ADDR.sub(moved, f) for f in frames]
            n = int(count)
            if restart:  # a run's own noise: each stack's count moves by about its sqrt
                n = max(1, int(round(rng.gauss(n, n ** 0.5))))
            out.append('process %d:"%s";%s %d\n' % (pid, cmd, ";".join(frames), n))
    return out


def main():
    rng = random.Random(14)
    for dest, restart in zip(sys.argv[1:3], (False, True)):
        with open(dest, "w", encoding="utf-8") as f:
            f.writelines(run(rng, restart))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Python `re` peer of `sift-tput --preset torchtitan`: the same rows for the same lines."""
import re
import sys

pat = re.compile(r"\bstep:\s*(?P<step>\d+)\s+loss:\s*(?P<loss>\S+)\s.*?\btps:\s*(?P<tput>\S+)")
rank_re = re.compile(r"^\[rank(\d+)\]:")
out = sys.stdout
out.write("source\tline\trank\tstep\ttime\tvalue\tunit\tloss\n")
for path in sys.argv[1:]:
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if "tps: " not in line:
                continue
            m = pat.search(line)
            if not m:
                continue
            r = rank_re.match(line)
            v = float(m.group("tput").replace(",", ""))
            out.write(f"{path}\t{n}\t{r.group(1) if r else ''}\t{m.group('step')}\t\t{v:.10g}\ttokens/s/gpu\t{float(m.group('loss')):.10g}\n")

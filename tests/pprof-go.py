#!/usr/bin/env python3
"""pprof-go: compare `go tool pprof -top` and `-tags` text with sift-top's TSV tables.

Usage: pprof-go.py TOP.txt TAGS.txt FUNCTION.tsv THREAD.tsv CATEGORY.tsv
pprof's -functions granularity merges functions by name (not file), so sift-top's
self samples are summed by NAME (the key without its " (FILE)") before comparing; the
"(no KEY)" rows have no label in pprof and are left out. Prints what agrees; exit 1 on
any difference."""
import re
import sys


def sift_table(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        next(f)  # header
        for line in f:
            cols = line.rstrip("\n").split("\t")
            rows[cols[0]] = int(cols[1])
    return rows


def main():
    top_path, tags_path, fn_path, thread_path, cat_path = sys.argv[1:6]
    bad = 0
    total = None
    flat = {}
    with open(top_path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"Showing nodes accounting for (\d+), [\d.]+% of (\d+) total", line)
            if m:
                total = int(m.group(2))
                continue
            m = re.match(r"\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+(\d+)\s+[\d.]+%\s+(.*)$", line)
            if m:
                flat[m.group(3)] = flat.get(m.group(3), 0) + int(m.group(1))
    by_name = {}
    fns = sift_table(fn_path)
    for key, self_ in fns.items():
        name = re.sub(r" \([^()]*\)$", "", key) if key != "(no function)" else key
        by_name[name] = by_name.get(name, 0) + self_
    want_total = sum(fns.values())
    if total != want_total:
        print("pprof -top total %s, sift-top %d" % (total, want_total))
        bad = 1
    same = 0
    for name, n in flat.items():
        if name in by_name:
            if by_name[name] != n:
                print("pprof -top %s: flat %d, sift-top self %d" % (name, n, by_name[name]))
                bad = 1
            else:
                same += 1
    print("pprof -top: total %s; %d of %d functions' flat samples equal sift-top's self "
          "(%d named otherwise by pprof)" % (total, same, len(flat), len(flat) - same))
    if same != len(flat):  # <module> and kin once became one <unknown> node
        print("pprof -top: names pprof shows that sift-top does not: %s" %
              ", ".join(sorted(n for n in flat if n not in by_name)))
        bad = 1
    tags = {}
    section = None
    with open(tags_path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*(\S+): Total (\d+)(?:\.0+)?\s*$", line)  # Go 1.19 writes "100.0"
            if m:
                section = tags.setdefault(m.group(1), {})
                continue
            m = re.match(r"\s*(\d+)(?:\.0+)? \(\s*[\d.]+%\): (.*)$", line)
            if m and section is not None:
                section[m.group(2)] = int(m.group(1))
    for key, path in (("thread", thread_path), ("category", cat_path)):
        want = {k: v for k, v in sift_table(path).items() if not k.startswith("(no ")}
        if tags.get(key, {}) != want:
            print("pprof -tags %s: %s, sift-top %s" % (key, tags.get(key), want))
            bad = 1
        else:
            print("pprof -tags %s: %d values equal sift-top's" % (key, len(want)))
    sys.exit(bad)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""tput-corpus.py BINDIR [SET...]: sift-tput on every real log of testdata/logs/SET (real,
holdout, holdout2, ..., holdout22 by default; holdout7 to holdout22 were first read by the
reader by structure, issue 28) against what a reader wrote down in
SET/EXPECTED.tsv (column 2: "UNIT N MEDIAN; ..." per training series, or "none"). Prints one
row per log (set, file, expected, got, exact) and the share exact per set and over all.

Expected units may be written as the log says them: s/step (read as ms/step), steps/s (it/s),
s/it (it/s: the median of sift-tput's it/s figures each inverted, as its rows give them, for
the median of inverses is not the inverse of the median). Medians must agree to 4 significant
digits or 1e-4, sift-tput's print.
A set's first run (before any fix) is in its RESULTS.tsv; this is the figure now.

With --floor FILE (tests/tput-corpus.floor: "SET EXACT" lines, "all" for the sum), exits 1 when
a set reads fewer logs exactly than its floor, and names the sets whose floor can be raised:
the floor only rises (make check runs it so)."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOGS = os.path.join(ROOT, "testdata", "logs")


def expected_series(text):
    text = text.strip()
    if text.startswith("none"):
        return None
    out = {}
    for part in text.split(";"):
        words = part.split()
        if len(words) < 3:
            continue
        unit, n, median = words[0], int(words[1]), float(words[2])
        tol = 0.0
        if unit == "s/step":
            unit, median = "ms/step", median * 1000
        elif unit == "steps/s":
            unit = "it/s"
        elif unit == "s/it":
            unit, tol = "it/s", "inverse"
        out[unit] = (n, median, tol)
    return out


def got_series(binary, path):
    run = subprocess.run([binary, "--stats", "--warmup", "0", "--format", "tsv", path], capture_output=True,
                         text=True)
    if run.returncode != 0:
        return None, run.returncode
    out = {}
    header = None
    for line in run.stdout.splitlines():
        cols = line.split("\t")
        if cols and cols[0] == "source":
            header = cols
            continue
        if header and len(cols) == len(header):
            row = dict(zip(header, cols))
            out[row["unit"]] = (int(row["n"]), float(row["median"]))
    return out, 0


def inverse_median(binary, path):
    """The median of the inverses of the file's it/s figures (sift-tput's rows)."""
    run = subprocess.run([binary, "--warmup", "0", "--format", "tsv", path], capture_output=True, text=True)
    values = sorted(1 / float(c[5]) for c in (line.split("\t") for line in run.stdout.splitlines()[1:])
                    if len(c) > 6 and c[6] == "it/s" and float(c[5]) > 0)
    if not values:
        return float("nan")
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def same(want, got, binary, path):
    if want is None or got is None:
        return want is None and got is None
    if set(want) != set(got):
        return False
    for unit, (n, median, tol) in want.items():
        gn, gmedian = got[unit]
        if gn != n:
            return False
        if tol == "inverse":
            gmedian = inverse_median(binary, path)
        slack = max(5e-4 * abs(median), 1e-4)
        if abs(gmedian - median) > slack:
            return False
    return True


def show(series):
    if series is None:
        return "none"
    return "; ".join("%s %d %.6g" % (u, v[0], v[1]) for u, v in sorted(series.items()))


def read_floor(path):
    floor = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) == 2 and not line.startswith("#"):
                floor[words[0]] = int(words[1])
    return floor


def main():
    args = sys.argv[1:]
    floor = None
    if "--floor" in args:
        at = args.index("--floor")
        floor = read_floor(args[at + 1])
        del args[at:at + 2]
    binary = os.path.join(args[0], "sift-tput")
    sets = args[1:] or ["real", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7", "holdout8", "holdout9", "holdout10", "holdout11", "holdout12", "holdout13", "holdout14", "holdout15", "holdout16", "holdout17", "holdout18", "holdout19", "holdout20", "holdout21", "holdout22"]
    counts = {}
    total = exact_total = 0
    summary = []
    print("set\tfile\texpected\tgot\texact")
    for name in sets:
        table = os.path.join(LOGS, name, "EXPECTED.tsv")
        if not os.path.exists(table):
            continue
        exact = count = 0
        with open(table) as f:
            rows = [line.rstrip("\n").split("\t") for line in f][1:]
        for row in rows:
            if len(row) < 2 or not row[0]:
                continue
            want = expected_series(row[1])
            got, _ = got_series(binary, os.path.join(LOGS, name, row[0]))
            ok = same(want, got, binary, os.path.join(LOGS, name, row[0]))
            count += 1
            exact += ok
            print("%s\t%s\t%s\t%s\t%s" % (name, row[0], row[1], show(got), "yes" if ok else "no"))
        summary.append("%s: %d of %d exact" % (name, exact, count))
        counts[name] = exact
        total += count
        exact_total += exact
    for line in summary:
        print(line, file=sys.stderr)
    if total:
        print("all: %d of %d exact (%.0f%%)" % (exact_total, total, 100.0 * exact_total / total), file=sys.stderr)
    counts["all"] = exact_total
    if floor is None:
        return 0
    below = [f"{k} {counts.get(k, 0)} < {v}" for k, v in sorted(floor.items()) if counts.get(k, 0) < v]
    above = [f"{k} {counts[k]}" for k, v in sorted(floor.items()) if counts.get(k, 0) > v]
    if above:
        print("tput-corpus: above the floor, raise it in the floor file: " + ", ".join(above), file=sys.stderr)
    if below:
        print("tput-corpus: below the floor: " + ", ".join(below), file=sys.stderr)
        return 1
    print("tput-corpus: %d of %d exact, at or above the floor" % (exact_total, total), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""calibrate-diff.py BINDIR [--assert]: sift-diff's false-call rate and power on real per-rank
profiles (testdata/diff/aa: two runs of tests/record-ranks.py, 8 ranks each).

A/A: every split of one run's 8 ranks 4 against 4 (70 splits, no change in any): the share of
tested key rows whose 95% interval excludes 0, the share called significant, the rows where the
interval and p disagree, and the splits where --fail-if-any-grows 0.5 fires. The same for run 1
against run 2, rank with rank (paired by file name), over the 70 choices of 4 ranks.
Power: one function's self samples x1.5 on all 8 ranks, against the ranks as recorded, paired
and not: found when its row is significant (q < 0.05) with the interval above 0 (across runs:
reported only).
One input a side with time (testdata/diff/aa/time: the same program's ranks recorded as py-spy
speedscope files): each side's blocks of time are its replicates. A/A: every pair of one run's
ranks, and each rank against itself in the other run; power: one function's samples x1.5 (each
of its samples followed by a copy, half of the time) against the same rank as recorded.
With --assert, exits 1 when a figure is outside its bound (the bounds of issue 27)."""
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AA = os.path.join(ROOT, "testdata", "diff", "aa")
RANKS = 8


def diff(binary, before, after, extra=()):
    cmd = [os.path.join(binary, "sift-diff"), "--by", "function", "-n", "0", "--format", "tsv", *extra,
           "--before", *before, "--after", *after]
    p = subprocess.run(cmd, capture_output=True, text=True)
    lines = p.stdout.splitlines()
    head = lines[0].split("\t")
    rows = [dict(zip(head, l.split("\t"))) for l in lines[1:]]
    return rows, p.returncode, p.stderr


def score(rows):
    """tested rows, rows whose interval excludes 0, significant rows, disagreements."""
    tested = excl = sig = disagree = 0
    for r in rows:
        if r["q_value"] == "":
            continue
        tested += 1
        lo, hi, p = float(r["delta_ci_low"]), float(r["delta_ci_high"]), float(r["p_value"])
        out = lo > 0 or hi < 0
        excl += out
        sig += r["sig"] == "*"
        # printed values are rounded: only a clear disagreement counts
        if out != (p < 0.05) and not (abs(p - 0.05) < 0.0005 or min(abs(lo), abs(hi)) < 0.0005):
            disagree += 1
    return tested, excl, sig, disagree


def aa(binary, pick):
    tot = [0, 0, 0, 0]
    fired = 0
    for chosen in itertools.combinations(range(RANKS), RANKS // 2):
        before, after = pick(chosen)
        rows, _, _ = diff(binary, before, after)
        tot = [a + b for a, b in zip(tot, score(rows))]
        _, status, _ = diff(binary, before, after, ("--fail-if-any-grows", "0.5"))
        fired += status == 1
    return tot, fired


def rank_file(run, r):
    return os.path.join(AA, f"run{run}", f"rank{r}.txt")


def scaled(run, r, function, factor, tmp):
    """A copy of one rank's profile with function's self samples times factor."""
    out = os.path.join(tmp, f"rank{r}.txt")
    with open(rank_file(run, r)) as src, open(out, "w") as dst:
        for line in src:
            stack, count = line.rstrip("\n").rsplit(" ", 1)
            leaf = stack.rsplit(";", 1)[-1]
            if re.fullmatch(re.escape(function) + r" \(.*\)", leaf):
                count = str(round(int(count) * factor))
            dst.write(f"{stack} {count}\n")
    return out


def time_file(run, r):
    return os.path.join(AA, "time", f"run{run}", f"rank{r}.speedscope.json.zst")


def time_scaled(run, r, function, tmp):
    """One rank's speedscope profile with function's leaf samples x1.5 in expectation."""
    doc = json.loads(subprocess.run(["zstdcat", time_file(run, r)], capture_output=True, check=True).stdout)
    frames = doc["shared"]["frames"]
    rng = random.Random(r)
    for prof in doc["profiles"]:
        samples, weights = [], []
        for stack, w in zip(prof["samples"], prof["weights"]):
            samples.append(stack)
            weights.append(w)
            if stack and frames[stack[-1]]["name"] == function and rng.random() < 0.5:
                samples.append(stack)
                weights.append(w)
        prof["samples"], prof["weights"] = samples, weights
        prof["endValue"] = sum(weights)
    out = os.path.join(tmp, f"rank{r}.speedscope.json")
    with open(out, "w") as f:
        json.dump(doc, f)
    return out


def time_blocks(binary, failed):
    tot, fired, n = [0, 0, 0, 0], 0, 0
    pairs = [((1, a), (1, b)) for a, b in itertools.combinations(range(RANKS), 2)]
    pairs += [((1, r), (2, r)) for r in range(RANKS)]
    for (ra, a), (rb, b) in pairs:
        rows, _, _ = diff(binary, [time_file(ra, a)], [time_file(rb, b)])
        assert rows and rows[0]["test"] == "welch-t-time-blocks", rows[:1]
        tot = [x + y for x, y in zip(tot, score(rows))]
        _, status, _ = diff(binary, [time_file(ra, a)], [time_file(rb, b)], ("--fail-if-any-grows", "0.5"))
        fired += status == 1
        n += 1
    tested, excl, sig, disagree = tot
    print(f"A/A one input a side, blocks of time ({n} pairs of ranks, within a run and across runs): "
          f"{tested} tested key rows: interval excludes 0 in {excl} ({100 * excl / tested:.1f}%), significant "
          f"{sig} ({100 * sig / tested:.1f}%), interval and p disagree {disagree}; --fail-if-any-grows 0.5 "
          f"fired on {fired} of {n}")
    # Blocks of one run see how a share moves within it, not what differs between runs (a
    # run's own drift): a looser bound than for ranks, said in sift-diff(1).
    if excl > 0.10 * tested or disagree or fired > 0.06 * n:
        failed.append("A/A time blocks")
    found = 0
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(RANKS):
            rows, _, _ = diff(binary, [time_file(1, r)], [time_scaled(1, r, "iterencode", tmp)])
            row = next(x for x in rows if x["function"].startswith("iterencode "))
            found += row["sig"] == "*" and float(row["delta_ci_low"]) > 0
    print(f"power, blocks of time: iterencode x1.5 in one rank's profile, against it as recorded: "
          f"found in {found} of {RANKS} ranks")
    if found < RANKS * 3 // 4:
        failed.append("power time blocks")


def main():
    binary = sys.argv[1]
    check = "--assert" in sys.argv[2:]
    failed = []
    splits = len(list(itertools.combinations(range(RANKS), RANKS // 2)))

    def report(name, tot, fired):
        tested, excl, sig, disagree = tot
        print(f"{name}: {splits} splits, {tested} tested key rows: interval excludes 0 in {excl} "
              f"({100 * excl / tested:.1f}%), significant {sig} ({100 * sig / tested:.1f}%), "
              f"interval and p disagree {disagree}; --fail-if-any-grows 0.5 fired on {fired} of {splits}")
        if excl > 0.07 * tested or disagree or fired > 4:
            failed.append(name)

    tot, fired = aa(binary, lambda c: ([rank_file(1, r) for r in c],
                                       [rank_file(1, r) for r in range(RANKS) if r not in c]))
    report("A/A within run 1 (4 ranks against the other 4, not paired)", tot, fired)
    tot, fired = aa(binary, lambda c: ([rank_file(1, r) for r in c], [rank_file(2, r) for r in c]))
    report("A/A run 1 against run 2 (4 ranks each, paired by rank)", tot, fired)

    # Power: one function x1.5 on all 8 ranks of a run, against the same ranks as recorded:
    # paired by file name (rank with rank), and as independent samples (--pair none), where
    # rank-to-rank spread is the noise. Across runs (run 2 scaled against run 1) the noise
    # is two runs' differences too: reported, not bounded.
    before = [rank_file(1, r) for r in range(RANKS)]
    for function in ("optimizer_step", "load_batch", "raw_decode", "iterencode"):
        for how, extra, run in (("paired", (), 1), ("not paired", ("--pair", "none"), 1),
                                ("across runs, paired", (), 2)):
            with tempfile.TemporaryDirectory() as tmp:
                after = [scaled(run, r, function, 1.5, tmp) for r in range(RANKS)]
                rows, _, _ = diff(binary, before, after, extra)
            row = next(r for r in rows if r["function"].startswith(function + " "))
            found = row["sig"] == "*" and float(row["delta_ci_low"]) > 0
            print(f"power: {function} x1.5 on 8 ranks, {how}: share {row['before_pct']}% -> "
                  f"{row['after_pct']}%, interval {row['delta_ci_low']} to {row['delta_ci_high']}, "
                  f"q {row['q_value']}, {row['test']}: {'found' if found else 'missed'}")
            if not found and run == 1:
                failed.append(f"power {function} ({how})")
    time_blocks(binary, failed)
    if failed:
        print("outside the bounds: " + "; ".join(failed))
    return 1 if check and failed else 0


if __name__ == "__main__":
    sys.exit(main())

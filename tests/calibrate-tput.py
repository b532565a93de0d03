#!/usr/bin/env python3
"""calibrate-tput.py BINDIR [--assert]: sift-tput --compare's false-call rate and power on long
real logs (testdata/logs/long, listed in LOGS below with the numbers an injected change scales).

A/A: a log's training points in blocks of 6 consecutive steps, each block dealt at random
(seeded) to one side, the other lines left out; 30 such splits per log. A split "calls a
change" when the verdict is faster or slower. Power: the same splits with the after side 8%
slower (each scaled number of its lines times 1.08, or divided by 1.08 for a rate); found when
the verdict is slower. With --assert, exits 1 when a log calls a change in more than 3 of 30
A/A splits or finds the slowdown in fewer than 24 of 30 (the bounds of issue 27)."""
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LONG = os.path.join(ROOT, "testdata", "logs", "long")
SPLITS = 30
BLOCK = 6
SLOWER = 1.08

# file, and the numbers an 8% slowdown scales: (pattern, "time") multiplied by 1.08, (pattern,
# "rate") divided by it. A cumulative clock and its average scale together.
LOGS = [
    ("modded-nanogpt-soap.log.zst", [(r"(?<=train_time:)\d+|(?<=step_avg:)[\d.]+", "time")]),
    ("modded-nanogpt-medium-gpt2-7500steps.log.zst", [(r"(?<=train_time:)\d+|(?<=step_avg:)[\d.]+", "time")]),
    ("mxnet-mlperf-resnet50-dgx1-speedometer.log.zst", [(r"(?<=Speed: )[\d.]+", "rate")]),
    ("pytorch-mlperf-bert-dgx1-seqs.log.zst", [(r"(?<='seq/s': )[\d.]+", "rate")]),
    ("deepspeed-sft-opt1.3b-timer-samplespersec.log.zst", [(r"(?<=CurrSamplesPerSec=)[\d.]+", "rate")]),
    ("paddledetection-ssod-dino-workerlog0-ips.log.zst",
     [(r"(?<=ips: )[\d.]+", "rate"), (r"(?<=batch_cost: )[\d.]+", "time")]),
    ("mmdetection2-fasterrcnn-r50-textlogger-time.log.zst", [(r"(?<=, time: )[\d.]+", "time")]),
]


def read_lines(path):
    data = subprocess.run(["zstdcat", "-f", path], capture_output=True, check=True).stdout
    return data.decode("utf-8", "replace").splitlines(keepends=True)


def point_lines(binary, path):
    """Input line numbers (1-based) of the points sift-tput reads, in order."""
    out = subprocess.run([os.path.join(binary, "sift-tput"), path], capture_output=True, text=True).stdout
    nums = []
    for row in out.splitlines()[1:]:
        nums.append(int(row.split("\t")[1]))
    return sorted(set(nums))


def scale(line, scales):
    for pattern, kind in scales:
        factor = SLOWER if kind == "time" else 1 / SLOWER

        def one(m):
            text = m.group(0)
            decimals = len(text.split(".")[1]) if "." in text else 0
            return f"{float(text) * factor:.{decimals}f}"
        line = re.sub(pattern, one, line)
    return line


def split_once(lines, points, seed, scales, slower, tmp):
    rng = random.Random(seed)
    sides = ([], [])
    for b in range(0, len(points), BLOCK):
        side = rng.randrange(2)
        for n in points[b:b + BLOCK]:
            line = lines[n - 1]
            sides[side].append(scale(line, scales) if slower and side == 1 else line)
    paths = []
    for s, name in enumerate(("before.log", "after.log")):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.writelines(sides[s])
        paths.append(path)
    return paths


def verdict(binary, before, after):
    out = subprocess.run([os.path.join(binary, "sift-tput"), "--compare", "--format", "tsv", before, after],
                         capture_output=True, text=True).stdout.splitlines()
    head = out[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in out[1:]]


def main():
    binary = sys.argv[1]
    check = "--assert" in sys.argv[2:]
    failed = []
    for name, scales in LOGS:
        path = os.path.join(LONG, name)
        lines = read_lines(path)
        points = point_lines(binary, path)
        calls = found = significant = 0
        worst_p = 1.0
        with tempfile.TemporaryDirectory() as tmp:
            for seed in range(SPLITS):
                rows = verdict(binary, *split_once(lines, points, seed, scales, False, tmp))
                calls += any(r["verdict"] in ("faster", "slower") for r in rows)
                significant += any(r["p_value"] and float(r["p_value"]) < 0.05 for r in rows)
                worst_p = min([worst_p] + [float(r["p_value"]) for r in rows if r["p_value"]])
                rows = verdict(binary, *split_once(lines, points, seed, scales, True, tmp))
                # every unit the log gives must be found slower
                found += bool(rows) and all(r["verdict"] == "slower" for r in rows)
        print(f"{name}: {len(points)} points in blocks of {BLOCK}; A/A: a change called in {calls} of "
              f"{SPLITS} splits (p < 0.05 in {significant}, least p {worst_p:.3g}); 8% slower: found in "
              f"{found} of {SPLITS}")
        if calls > 3 or found < 24:
            failed.append(name)
    if failed:
        print("outside the bounds: " + "; ".join(failed))
    return 1 if check and failed else 0


if __name__ == "__main__":
    sys.exit(main())

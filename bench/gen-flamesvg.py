#!/usr/bin/env python3
"""Write a large flame graph SVG shaped as inferno (py-spy's default output) writes it, deterministic.

Usage: gen-flamesvg.py OUT_SVG [TARGET_MB] [OUT_FOLDED]
Folded stacks (Python frames "func (file.py:line)" under thread pseudo-frames, sharing
long prefixes) are laid out as inferno lays them out: lines sorted, frames merged by flow,
x and width in percent, fg:x and fg:w in samples, frames narrower than 0.01% of the total
left out. Each frame is inferno's <g><title/><rect/><text/></g>, pretty-printed. With
OUT_FOLDED, the stacks drawn are also written there as folded lines (what a reader should
give back, with the samples of left-out frames as the total's rest)."""
import random
import sys

out_path = sys.argv[1]
target = int(sys.argv[2] if len(sys.argv) > 2 else 150) * 1024 * 1024
folded_path = sys.argv[3] if len(sys.argv) > 3 else None
rng = random.Random(20261202)

files = ["train.py", "model.py", "data.py", "torch/nn/modules/module.py", "torch/nn/functional.py",
         "torch/_tensor.py", "transformers/models/llama/modeling_llama.py", "threading.py", "queue.py",
         "torch/utils/data/dataloader.py", "torch/optim/adamw.py", "torch/_dynamo/eval_frame.py"]
funcs = ["forward", "_call_impl", "_wrapped_call_impl", "backward", "step", "train_step", "main",
         "decode_layer", "attention", "mlp", "rotary_emb", "layer_norm", "linear", "all_reduce",
         "wait", "get", "__next__", "_next_data", "collate", "item", "to", "_fn", "run"]
pool = ["%s (%s:%d)" % (rng.choice(funcs), rng.choice(files), rng.randint(1, 3000)) for _ in range(5000)]
threads = ["thread (%d): %s" % (4242 + i, n) for i, n in enumerate(
    ["MainThread", "pt_autograd_0", "loader_0", "loader_1", "Thread-1 (worker)", "heartbeat"])]

# Each frame's SVG text is about 330 bytes and a distinct stack draws ~40 frames of its own;
# frames under 0.01% of the total are left out, so at most ~10,000 stacks can be drawn.
nstacks = max(50, min(9000, target // (330 * 40)))
stacks = {}
bases = [[rng.choice(threads)] + [rng.choice(pool) for _ in range(rng.randint(5, 25))] for _ in range(200)]
for i in range(nstacks + nstacks // 8):
    s = rng.choice(bases) + [rng.choice(pool) for _ in range(rng.randint(10, 60))]
    key = ";".join(s)
    # most stacks drawn whole; one in nine with a few samples, too narrow to draw
    n = 1000 + rng.randint(0, 300) if i < nstacks else rng.randint(1, 30)
    stacks[key] = stacks.get(key, 0) + n
lines = sorted(stacks.items())
total = sum(n for _, n in lines)
min_w = total * 0.0001

# inferno's flow: a frame opens where its stack first differs from the last and closes
# where the next one differs.
frames = []  # (depth, name, start, end)
opened = []  # (name, start)
t = 0
for key, n in lines:
    stack = key.split(";")
    same = 0
    while same < len(opened) and same < len(stack) and opened[same][0] == stack[same]:
        same += 1
    for depth in range(len(opened) - 1, same - 1, -1):
        frames.append((depth + 1, opened[depth][0], opened[depth][1], t))
    del opened[same:]
    for name in stack[same:]:
        opened.append((name, t))
    t += n
for depth in range(len(opened) - 1, -1, -1):
    frames.append((depth + 1, opened[depth][0], opened[depth][1], t))
frames.append((0, "all", 0, total))
depth_max = max(f[0] for f in frames)

# Left out: frames narrower than the minimum (and so everything above them, narrower still).
final = sorted((f for f in frames if f[3] - f[2] >= min_w), key=lambda f: (f[0], f[2]))


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


height = (depth_max + 1) * 16 + 70
with open(out_path, "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" standalone="no"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
              '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg version="1.1" width="1200" '
              'height="%d" onload="init(evt)" viewBox="0 0 1200 %d" xmlns="http://www.w3.org/2000/svg" '
              'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:fg="http://github.com/jonhoo/inferno">'
              '<!--Flame graph stack visualization.-->\n' % (height, height))
    out.write('    <text id="title" fill="rgb(0,0,0)" x="50.0000%" y="24.00">Flame Graph</text>\n')
    out.write('    <svg id="frames" x="10" width="1180" total_samples="%d">\n' % total)
    for depth, name, start, end in final:
        w = end - start
        y = height - 16 * (depth + 1) - 33
        out.write('        <g>\n            <title>%s (%s samples, %.2f%%)</title>\n'
                  '            <rect x="%.4f%%" y="%d" width="%.4f%%" height="15" fill="rgb(%d,%d,%d)" '
                  'fg:x="%d" fg:w="%d"/>\n            <text x="%.4f%%" y="%.2f">%s</text>\n        </g>\n'
                  % (esc(name), format(w, ","), 100.0 * w / total, 100.0 * start / total, y,
                     100.0 * w / total, 200 + depth % 50, rng.randint(0, 230), rng.randint(0, 55), start, w,
                     100.0 * start / total + 0.25, y + 10.5, esc(name) if w > total * 0.01 else ""))
    out.write('    </svg>\n</svg>\n')

if folded_path:
    with open(folded_path, "w", encoding="utf-8") as f:
        for key, n in lines:
            f.write("%s %d\n" % (key, n))

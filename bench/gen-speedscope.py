#!/usr/bin/env python3
"""Write a large speedscope JSON shaped as py-spy record --format speedscope writes it, deterministic.

Usage: gen-speedscope.py OUT_FILE [TARGET_MB]
py-spy's layout: compact JSON, "$schema" first, one sampled profile per thread named
`Thread TID "NAME"`, unit seconds, weights 0.01 (one sample at 100 Hz), stacks of frame
indices root first into shared.frames ({"name","file","line","col":null}, full paths),
exporter "py-spy@0.4.0". Many threads; each draws from its own set of realistic stacks
(a training loop into model layers, loaders waiting on queues), with a Zipf-like skew so a
few stacks dominate as in real recordings."""
import random
import sys

out_path = sys.argv[1]
target = int(sys.argv[2] if len(sys.argv) > 2 else 220) * 1024 * 1024
rng = random.Random(20261201)

site = "/opt/conda/lib/python3.11/site-packages/"
files = ["/home/user/proj/train.py", "/home/user/proj/model.py", "/home/user/proj/data.py",
         site + "torch/nn/modules/module.py", site + "torch/nn/modules/linear.py",
         site + "torch/nn/functional.py", site + "torch/_tensor.py", site + "torch/autograd/__init__.py",
         site + "torch/utils/data/dataloader.py", site + "torch/optim/adamw.py",
         site + "transformers/models/llama/modeling_llama.py", site + "torch/_dynamo/eval_frame.py",
         "/opt/conda/lib/python3.11/threading.py", "/opt/conda/lib/python3.11/queue.py",
         site + "torch/distributed/distributed_c10d.py", site + "accelerate/accelerator.py"]
funcs = ["forward", "_call_impl", "_wrapped_call_impl", "backward", "step", "train_step", "main",
         "<module>", "decode_layer", "attention", "mlp", "rotary_emb", "apply_rotary_pos_emb",
         "layer_norm", "linear", "scaled_dot_product_attention", "all_reduce", "wait", "get",
         "__next__", "_next_data", "collate", "item", "to", "_fn", "run", "_bootstrap_inner",
         "_bootstrap", "adamw", "_single_tensor_adamw", "clip_grad_norm_", "loss_fn", "cross_entropy"]

frames = []
frame_ids = {}


def frame(name, file, line):
    key = (name, file, line)
    if key not in frame_ids:
        frame_ids[key] = len(frames)
        frames.append(key)
    return frame_ids[key]


# A program has a few thousand distinct (function, file, line) sites.
pool = [(rng.choice(funcs), rng.choice(files), rng.randint(1, 3000)) for _ in range(6000)]


def random_frame():
    return frame(*rng.choice(pool))


threads = [(4242 + i * 7, name) for i, name in enumerate(
    ["MainThread", "pt_autograd_0", "pt_autograd_1", "Thread-1 (_pin_memory_loop)",
     "Thread-2 (worker)", "Thread-3 (worker)", "Thread-4 (worker)", "Thread-5 (worker)",
     "loader_0", "loader_1", "loader_2", "loader_3", "nccl_watchdog", "heartbeat",
     "Thread-6 (process_output_sockets)", "tensorboard_writer"])]

# Per thread: a shared prefix, then a tree of stacks of depth 15 to 70.
profiles = []
for tid, name in threads:
    prefix = [frame("<module>", "/home/user/proj/train.py", 1200), frame("main", "/home/user/proj/train.py", 1150)]
    prefix += [random_frame() for _ in range(rng.randint(3, 8))]
    stacks = []
    bases = [prefix + [random_frame() for _ in range(rng.randint(5, 25))] for _ in range(40)]
    for _ in range(rng.randint(300, 900)):
        b = rng.choice(bases)
        stacks.append(b + [random_frame() for _ in range(rng.randint(5, 40))])
    profiles.append((tid, name, [",".join(map(str, s)) for s in stacks]))

with open(out_path, "w", encoding="ascii") as out:
    out.write('{"$schema":"https://www.speedscope.app/file-format-schema.json","profiles":[')
    # Samples per thread so the file reaches the target; each sample's text is known.
    avg = sum(sum(len(s) + 3 for s in p[2]) / len(p[2]) + 5 for p in profiles) / len(profiles)
    per_thread = int(target / avg / len(profiles)) + 1
    for i, (tid, name, stacks) in enumerate(profiles):
        weights = [1.0 / (k + 1) ** 1.1 for k in range(len(stacks))]
        picks = rng.choices(range(len(stacks)), weights=weights, k=per_thread)
        out.write('%s{"type":"sampled","name":"Thread %d \\"%s\\"","unit":"seconds","startValue":0.0,'
                  '"endValue":%.2f,"samples":[' % ("," if i else "", tid, name, per_thread / 100))
        out.write(",".join("[" + stacks[k] + "]" for k in picks))
        out.write('],"weights":[')
        out.write(",".join(["0.01"] * per_thread))
        out.write("]}")
    out.write('],"shared":{"frames":[')
    out.write(",".join('{"name":"%s","file":"%s","line":%d,"col":null}' % f for f in frames))
    out.write(']},"activeProfileIndex":null,"exporter":"py-spy@0.4.0","name":"py-spy profile"}')

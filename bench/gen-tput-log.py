#!/usr/bin/env python3
"""Deterministic >= SIZE-byte training log mixing frameworks, rank prefixes and noise.
Usage: gen-tput-log.py OUT [SIZE_BYTES]. One 4 MB block is built with a fixed seed and
repeated (steps keep counting), so generation runs at disk speed."""
import random
import sys

out, size = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 30
rng = random.Random(42)
lines = []
step = 0
total = 0
while total < 4 << 20:
    step += 1
    kind = rng.random()
    rank = rng.randrange(8)
    if kind < 0.30:
        lines.append(f"[rank{rank}]:[2024-05-01 12:00:{step % 60:02d},{rank:03d}] step: {step:5d}  loss: {8 - rng.random():.4f}  memory: 30.10GiB(38.05%)  tps: {rng.randrange(4000, 7000):,}  tflops: 301.20  mfu: 30.45%\n")
    elif kind < 0.40:
        lines.append(f"{rank}:  iteration {step:8d}/  100000 | consumed samples: {step * 8:12d} | elapsed time per iteration (ms): {rng.uniform(1500, 1700):.1f} | throughput per GPU (TFLOP/s/GPU): {rng.uniform(390, 410):.1f} | lm loss: {rng.uniform(2, 9):.6E} |\n")
    elif kind < 0.48:
        lines.append(f"[default{rank}]:step {step:05d}/21400 (0.02%) | loss: {rng.uniform(2, 9):.6f} | lrm: 1.00 | dt: {rng.uniform(900, 1100):.2f}ms | tok/sec: {rng.randrange(400000, 600000):,} | mfu: 41.02\n")
    elif kind < 0.52:
        lines.append(f"worker-{rank}: Epoch 0:  10%|#         | {step}/100000 [00:10<01:30,  {rng.uniform(1, 3):.2f}it/s, v_num=0, loss={rng.uniform(2, 9):.3f}]\n")
    elif kind < 0.55:
        lines.append(f"I0501 12:00:00.{step % 1000000:06d} 1234 train.py:88] completed step: {step}, seconds: 1.234, TFLOP/s/device: 301.2, Tokens/s/device: {rng.uniform(6000, 7000):.1f}, loss: 9.8\n")
    else:
        lines.append(f"[rank{rank}]:[W501 12:00:00.{step:06d}] INFO dataloader worker {rank} prefetched batch {step} from /data/shard-{step % 977:04d}.bin in {rng.uniform(1, 9):.3f} s; queue depth {rng.randrange(64)}\n")
    total += len(lines[-1])
block = "".join(lines).encode()
with open(out, "wb") as f:
    written = 0
    while written < size:
        f.write(block)
        written += len(block)

#!/usr/bin/env python3
"""Deterministic generator: N concatenated `py-spy dump --native --locals` snapshots with the
noise saved files carry (prompts, separators, host log lines, py-spy errors, blank lines)."""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
rng = random.Random(20260508)
py = ["forward (model.py:%d)", "step (train.py:%d)", "_call_impl (torch/nn/modules/module.py:%d)",
      "wait (threading.py:%d)", "get (queue.py:%d)", "__next__ (torch/utils/data/dataloader.py:%d)",
      "backward (torch/_tensor.py:%d)", "all_reduce (torch/distributed/distributed_c10d.py:%d)",
      "run (threading.py:%d)", "_bootstrap_inner (threading.py:%d)", "main (train.py:%d)",
      "<module> (train.py:%d)", "item (torch/_tensor.py:%d)", "_pin (pin_memory.py:%d)"]
native = ["cuLaunchKernel (libcuda.so.580.126.20)", "cudaStreamSynchronize (libcudart.so.12)",
          "0x7f989ed81117 (libc.so.6)", "PyThread_acquire_lock_timed (python3.12)",
          "at::native::add_out (libtorch_cpu.so)", "c10::cuda::CUDACachingAllocator::malloc (libc10_cuda.so)",
          "(anonymous namespace)::launch<float, 4> (libtorch_cuda.so)", "pthread_cond_wait (libc.so.6)"]
threads = [(4242, "MainThread"), (4250, "Thread-1 (pin_memory_loop)"), (4251, "Thread-2"),
           (4260, "pt_autograd_0"), (4261, None)]
stacks = []
for _ in range(300):
    depth = rng.randint(4, 20)
    frames = [rng.choice(native) for _ in range(rng.randint(0, 3))]
    frames += [rng.choice(py) % rng.randint(1, 400) for _ in range(depth)]
    frames.append("0x7f989ed84ac3 (libc.so.6)")
    stacks.append(frames)
out = sys.stdout
w = out.write
for i in range(n):
    if i % 10 == 0:
        w("$ py-spy dump --native --locals --pid 4242\n")
    w("--- dump %d @ 2026-05-08T22:%02d:%02d+00:00 ---\n" % (i + 1, (i // 60) % 60, i % 60))
    if i % 97 == 0:
        w("Error: Failed to suspend process\nCaused by:\n    0: Operation not permitted (os error 1)\n")
        continue
    w("Process 4242: python train.py --lr 3e-4\nPython v3.12.13 (/usr/bin/python3.12)\n\n")
    for tid, name in threads:
        status = rng.choice(["idle", "active", "active+gil", "idle"])
        if name is None:
            w("Thread %d (%s)\n" % (tid, status))
        else:
            w("Thread %d (%s): \"%s\"\n" % (tid, status, name))
        for k, f in enumerate(rng.choice(stacks)):
            w("    %s\n" % f)
            if k == 3 and rng.random() < 0.3:
                w("        Arguments:\n            self: <Model at 0x7f36%06x>\n        Locals:\n"
                  "            loss: tensor([[0.25, 0.5],\n        [0.1, 0.2]])\n" % rng.randrange(1 << 24))
        if rng.random() < 0.05:
            w("[rank0]:INFO 05-08 22:26:06 [train.py:88] step %d loss 0.25\n" % i)

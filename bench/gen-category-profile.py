#!/usr/bin/env python3
"""Write a folded profile (py-spy raw, --threads --native) for the category benchmark, deterministic.

Usage: gen-category-profile.py OUT_FILE [TARGET_MB]
Used only when bench/gen-folded.py (the shared generator) is absent. Stacks end in the native
tails the default rules classify (launch spins in libcuda, syncs, allocator, GIL, queues, NCCL,
polls) and in plain Python, with many distinct unresolved addresses.
"""
import random
import sys

out_path = sys.argv[1]
target = int(sys.argv[2] if len(sys.argv) > 2 else 60) * 1024 * 1024
rng = random.Random(4)

threads = ["thread (%d): %s" % (27290 + i, n) for i, n in enumerate(
    ["MainThread", "target-0", "target-1", "target-2", "drafter-0", "drafter-1", "pt_autograd_0",
     "Thread-1 (worker)", "Thread-2 (process_output_sockets)"])]
base = ["_bootstrap (threading.py:1032)", "_bootstrap_inner (threading.py:1075)", "run (threading.py:1012)"]
pyfiles = ["dflash/model.py", "dflash/train.py", "torch/nn/modules/module.py", "torch/nn/modules/linear.py",
           "fla/ops/common/chunk.py", "transformers/models/qwen3/modeling_qwen3.py"]
pyfuncs = ["forward", "_call_impl", "_wrapped_call_impl", "chunk_fwd", "get_hidden_states_packed", "step",
           "attention", "mlp", "norm", "pack"]


def addrs(lib, n):
    return ["0x7f%010x (%s)" % (rng.randrange(1 << 36), lib) for _ in range(n)]


def tail():
    kind = rng.randrange(10)
    if kind == 0:
        return ["cuLaunchKernel (libcuda.so.595.71.05)"] + addrs("libcuda.so.595.71.05", rng.randrange(1, 9)) + ["sched_yield (libc.so.6)"]
    if kind == 1:
        return ["cudaLaunchKernel (libcudart.so.12)", "cuLaunchKernel (libcuda.so.595.71.05)"] + addrs("libcuda.so.595.71.05", 3)
    if kind == 2:
        return ["at::native::_local_scalar_dense_cuda (libtorch_cuda.so)", "cudaStreamSynchronize (libcudart.so.12)",
                "cuStreamSynchronize (libcuda.so.595.71.05)"] + addrs("libcuda.so.595.71.05", 2) + ["sched_yield (libc.so.6)"]
    if kind == 3:
        return ["c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc (libc10_cuda.so)", "malloc (libc.so.6)"]
    if kind == 4:
        return ["get (queue.py:171)", "wait (threading.py:355)", "PyThread_acquire_lock_timed (python3.12)"] + addrs("libc.so.6", 2)
    if kind == 5:
        return ["take_gil (python3.12)", "pthread_cond_timedwait (libc.so.6)"]
    if kind == 6:
        return ["create_block_mask (torch/nn/attention/flex_attention.py:850)",
                "_convert_mask_to_block_mask (torch/nn/attention/flex_attention.py:%d)" % rng.randrange(600, 900)]
    if kind == 7:
        return ["all_reduce (torch/distributed/distributed_c10d.py:2501)", "ncclAllReduce (libnccl.so.2)"] + addrs("libnccl.so.2", 2)
    if kind == 8:
        return ["select (selectors.py:415)", "poll (libc.so.6)"]
    return []


size = 0
with open(out_path, "w") as out:
    while size < target:
        frames = [rng.choice(threads)] + base
        for _ in range(rng.randrange(4, 30)):
            frames.append("%s (%s:%d)" % (rng.choice(pyfuncs), rng.choice(pyfiles), rng.randrange(1, 400)))
        frames += tail()
        line = "%s %d\n" % (";".join(frames), rng.randrange(1, 50))
        out.write(line)
        size += len(line)

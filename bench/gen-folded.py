#!/usr/bin/env python3
"""Write a large, realistic folded profile (py-spy raw with --threads --native), deterministic.

Usage: gen-folded.py OUT_FILE [TARGET_MB]
Stacks share long Python prefixes (training loop -> model -> layers), end in native tails
(CUDA launch, allocator, syncs, libc waits) with unresolved 0x addresses, under thread
pseudo-frames with spaces and parentheses in their names. Some stacks repeat, as in
concatenated recordings.
"""
import random
import sys

out_path = sys.argv[1]
target = int(sys.argv[2] if len(sys.argv) > 2 else 210) * 1024 * 1024
rng = random.Random(20261129)

threads = ["thread (%d): %s" % (27290 + i, name) for i, name in enumerate(
    ["MainThread", "target-0", "target-1", "target-2", "target-3", "target-4",
     "drafter-0", "drafter-1", "drafter-2", "pt_autograd_0", "Thread-1 (worker)",
     "Thread-2 (process_output_sockets)"])]

base = ["0x7f1ebf919d90 (libc.so.6)", "<module> (<string>:1)", "spawn_main (multiprocessing/spawn.py:122)",
        "_main (multiprocessing/spawn.py:135)", "_bootstrap (multiprocessing/process.py:314)",
        "run (multiprocessing/process.py:108)"]
files = ["dflash_model.py", "train_dflash_pipeline.py", "torch/nn/modules/module.py",
         "torch/nn/modules/linear.py", "transformers/models/qwen3_5/modeling_qwen3_5.py",
         "fla/ops/common/chunk_delta_h.py", "fla/modules/fused_norm_gate.py",
         "torch/nn/attention/flex_attention.py", "queue.py", "threading.py",
         "torch/utils/data/dataloader.py", "torch/_dynamo/eval_frame.py"]
funcs = ["forward", "_call_impl", "_wrapped_call_impl", "_chunk_fwd", "get_hidden_states_packed",
         "_norm", "chunk_gated_delta_rule_fwd_h", "layer_norm_gated_fwd", "create_block_mask",
         "get", "wait", "__next__", "_fn", "step", "train_loop", "decode_layer", "attention",
         "mlp", "rotary", "loss_fn", "backward", "all_reduce", "item", "to"]
natives = [
    ["cuLaunchKernel (libcuda.so.580.126.20)", "0x7f0248000d90 (libcuda.so.580.126.20)",
     "0x7f0248001a10 (libcuda.so.580.126.20)", "sched_yield (libc.so.6)"],
    ["at::native::(anonymous namespace)::launch_kernel (libtorch_cuda.so)", "cudaLaunchKernel (libcudart.so.12)",
     "cuLaunchKernel (libcuda.so.580.126.20)"],
    ["c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc (libc10_cuda.so)",
     "malloc (libc.so.6)"],
    ["at::native::_local_scalar_dense_cuda (libtorch_cuda.so)", "cuStreamSynchronize (libcuda.so.580.126.20)",
     "0x7f024800beef (libcuda.so.580.126.20)"],
    ["take_gil (python3.12)", "pthread_cond_timedwait (libc.so.6)"],
    ["ncclKernel_AllReduce_RING_LL_Sum_bfloat16 (nvidia/nccl/lib/libnccl.so.2)", "poll (libc.so.6)"],
    ["std::_Function_handler<void (), {lambda(int)#2}>::_M_invoke (libtorch_cpu.so)", "operator() (libtorch_cpu.so)"],
]

# A code base has a few thousand distinct call sites: draw them once.
sites = ["%s (%s:%d)" % (rng.choice(funcs), rng.choice(files), rng.randint(1, 2000)) for _ in range(4000)]
prefixes = []
for t in threads:
    for _ in range(60):
        depth = rng.randint(4, 16)
        prefixes.append([t] + base + [rng.choice(sites) for _ in range(depth)])

seen = []
written = 0
with open(out_path, "w") as out:
    while written < target:
        if seen and rng.random() < 0.08:
            line = rng.choice(seen)  # a stack repeated by a concatenated recording
        else:
            chain = list(rng.choice(prefixes))
            for _ in range(rng.randint(1, 8)):
                chain.append(rng.choice(sites))
            if rng.random() < 0.7:
                tail = list(rng.choice(natives))
                if rng.random() < 0.5:
                    tail.insert(rng.randint(0, len(tail)), "0x7f02480%05x (libcuda.so.580.126.20)" % rng.randrange(1 << 12))
                chain += tail
            line = ";".join(chain)
            if len(seen) < 20000:
                seen.append(line)
        text = "%s %d\n" % (line, rng.choice([1, 1, 1, 2, 3, 5, 8, 13, 40, 200]))
        out.write(text)
        written += len(text)

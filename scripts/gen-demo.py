#!/usr/bin/env python3
"""Write the bundled demo investigation (testdata/demo/), deterministic: same bytes every run.

Usage: gen-demo.py OUT_DIR

Modelled on the seeds (a DFlash speculative-decoding training job, 5 target threads, 3 drafter
threads, an autograd thread): an all-threads `py-spy record --threads --native` profile of
18,775 samples at 99 Hz over 45 s, a `--gil` profile of 178 samples at 49 Hz over 30 s, the
same all-threads profile after moving hidden-state packing off the critical path, and
training logs before (~14.5K tok/s, volatile) and after the change.
"""
import os
import random
import sys

out = sys.argv[1]
rng = random.Random(10578)

LIBCUDA = "libcuda.so.595.71.05"
BOOT = ["_bootstrap (threading.py:1032)", "_bootstrap_inner (threading.py:1075)", "run (threading.py:1012)"]
MAIN = ["<module> (train_dflash_pipeline.py:1490)", "main (train_dflash_pipeline.py:1466)",
        "train_loop (train_dflash_pipeline.py:1301)"]

targets = [("27303", "target-0"), ("27306", "target-1"), ("27307", "target-2"),
           ("27295", "target-3"), ("27304", "target-4")]
drafters = [("27305", "drafter-0"), ("27296", "drafter-1"), ("27294", "drafter-2")]


def thread(tid, name):
    return "thread (%s): %s" % (tid, name)


def launch_tail():
    # The seed's native stack of target-0 (root first): cuLaunchKernel spinning in sched_yield.
    return ["cuLaunchKernel (%s)" % LIBCUDA, "0x70e58b1d7ba7 (%s)" % LIBCUDA,
            "0x70e58b00c5d9 (%s)" % LIBCUDA, "0x70e58bff6798 (%s)" % LIBCUDA, "sched_yield (libc.so.6)"]


LAUNCH = ["cudaLaunchKernel (nvidia/cuda_runtime/lib/libcudart.so.12)", "cuLaunchKernel (%s)" % LIBCUDA]


# Native tails, root first.
SYNC = ["at::_ops::_local_scalar_dense::call (libtorch_cpu.so)", "at::native::_local_scalar_dense_cuda (libtorch_cuda.so)",
        "cuStreamSynchronize (%s)" % LIBCUDA, "0x70e58b2a926e (%s)" % LIBCUDA]
ALLOC = ["c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc (libc10_cuda.so)",
         "malloc (libc.so.6)"]
QWAIT = ["get (queue.py:171)", "wait (threading.py:359)", "pthread_cond_timedwait (libc.so.6)"]

target_py = BOOT + ["target_worker (train_dflash_pipeline.py:412)", "forward_target (train_dflash_pipeline.py:318)"]
layer = ["forward (transformers/models/qwen3_5/modeling_qwen3_5.py:1104)",
         "_call_impl (torch/nn/modules/module.py:1790)"]
drafter_py = BOOT + ["drafter_worker (train_dflash_pipeline.py:655)", "train_step (train_dflash_pipeline.py:590)",
                     "forward (dflash_model.py:1210)"]

# (python path below the thread, native tail, weight per thread kind)
target_stacks = [
    (["get_hidden_states_packed (train_dflash_pipeline.py:230)"], [], 340),
    (["get_hidden_states_packed (train_dflash_pipeline.py:230)"], SYNC, 120),
    (["get_hidden_states_packed (train_dflash_pipeline.py:236)", "to (torch/_tensor.py:1480)"], ALLOC, 60),
    (layer + ["forward (torch/nn/modules/linear.py:134)"], [], 300),
    (layer + ["forward (torch/nn/modules/linear.py:134)"], launch_tail(), 160),
    (layer + ["forward (torch/nn/modules/linear.py:134)"], LAUNCH, 100),
    (layer + ["_norm (transformers/models/qwen3_5/modeling_qwen3_5.py:718)"], [], 242),
    (layer + ["chunk_gated_delta_rule (fla/ops/gated_delta_rule/chunk.py:312)",
              "chunk_gated_delta_rule_fwd_h (fla/ops/common/chunk_delta_h.py:694)"], [], 180),
    (layer + ["chunk_gated_delta_rule (fla/ops/gated_delta_rule/chunk.py:312)",
              "chunk_gated_delta_rule_fwd_h (fla/ops/common/chunk_delta_h.py:691)"], launch_tail(), 160),
    (layer + ["layer_norm_gated_fwd (fla/modules/fused_norm_gate.py:465)"], [], 176),
    (layer + ["layer_norm_gated_fwd (fla/modules/fused_norm_gate.py:465)"], ALLOC, 40),
    (["put (queue.py:140)", "notify (threading.py:394)"], [], 30),
]
drafter_stacks = [
    (["_chunk_fwd (dflash_model.py:1028)"], [], 560),
    (["_chunk_fwd (dflash_model.py:1028)"], launch_tail(), 100),
    (["_chunk_fwd (dflash_model.py:1028)"], LAUNCH, 100),
    (["_build_mask (dflash_model.py:880)",
      "create_block_mask (torch/nn/attention/flex_attention.py:850)"], [], 150),
    (["_build_mask (dflash_model.py:880)", "create_block_mask (torch/nn/attention/flex_attention.py:850)"],
     ALLOC, 60),
    (["_doc_ids (dflash_model.py:842)", "item (torch/_tensor.py:54)"], SYNC, 90),
    (["next_batch (train_dflash_pipeline.py:540)"], QWAIT, 170),
]
main_stacks = [
    (MAIN + ["log_metrics (train_dflash_pipeline.py:1350)", "item (torch/_tensor.py:54)"], SYNC, 210),
    (MAIN + ["get (queue.py:171)", "wait (threading.py:359)"], ["take_gil (python3.12)"], 60),
    (MAIN + ["optimizer_step (train_dflash_pipeline.py:1322)", "step (torch/optim/adamw.py:220)"],
     launch_tail(), 120),
]
autograd_stacks = [
    (["0x7f1ebf919d90 (libc.so.6)", "start_thread (libc.so.6)",
      "torch::autograd::Engine::thread_init (libtorch_cpu.so)",
      "torch::autograd::Engine::evaluate_function (libtorch_cpu.so)"], LAUNCH, 300),
    (["0x7f1ebf919d90 (libc.so.6)", "start_thread (libc.so.6)",
      "torch::autograd::Engine::thread_init (libtorch_cpu.so)"], ALLOC, 100),
]


def spread(weight, n, total_weight, total):
    """Counts for n threads summing to about weight's share of total, jittered per thread."""
    share = total * weight / total_weight
    return [max(1, int(share / n * rng.uniform(0.75, 1.25))) for _ in range(n)]


def build(total, scale):
    """Stacks with counts summing exactly to total; scale rewrites weights by leaf (the after run)."""
    groups = [(targets, target_py, target_stacks), (drafters, drafter_py, drafter_stacks),
              ([("26982", "MainThread")], [], main_stacks),
              ([("27736", "pt_autograd_0")], [], autograd_stacks)]
    tw = sum(scale(p, t) * w for _, _, sts in groups for p, t, w in sts)
    lines = []
    for ths, prefix, sts in groups:
        for py, tail, w in sts:
            counts = spread(scale(py, tail) * w, len(ths), tw, total)
            for (tid, name), c in zip(ths, counts):
                lines.append([";".join([thread(tid, name)] + prefix + py + tail), c])
    # Make the total exact on the largest stack: the sample count is the headline figure.
    big = max(lines, key=lambda l: l[1])
    big[1] += total - sum(c for _, c in lines)
    rng.shuffle(lines)  # py-spy writes in hash order
    return lines


def write(name, lines):
    with open(os.path.join(out, name), "w") as f:
        for stack, c in lines:
            f.write("%s %d\n" % (stack, c))


write("profile-all.txt", build(18775, lambda py, tail: 1.0))


# After: hidden-state packing and its scalar syncs moved off the target threads.
def after_scale(py, tail):
    if any("get_hidden_states_packed" in f for f in py):
        return 0.25 if tail else 0.4
    if tail is SYNC:
        return 0.5
    return 1.0


write("profile-after.txt", build(18102, after_scale))

# GIL-only: 178 samples, the thread holding the GIL running Python.
gil = []
for (tid, name), frames, c in [
        (("26982", "MainThread"), MAIN + ["log_metrics (train_dflash_pipeline.py:1350)"], 41),
        (("26982", "MainThread"), MAIN + ["get (queue.py:171)", "wait (threading.py:359)"], 17),
        (("27305", "drafter-0"), drafter_py + ["_chunk_fwd (dflash_model.py:1028)"], 22),
        (("27296", "drafter-1"), drafter_py + ["_chunk_fwd (dflash_model.py:1028)"], 19),
        (("27294", "drafter-2"), drafter_py + ["_build_mask (dflash_model.py:880)",
                                               "create_block_mask (torch/nn/attention/flex_attention.py:850)"], 14),
        (("27303", "target-0"), target_py + ["get_hidden_states_packed (train_dflash_pipeline.py:230)"], 18),
        (("27306", "target-1"), target_py + ["get_hidden_states_packed (train_dflash_pipeline.py:230)"], 15),
        (("27307", "target-2"), target_py + layer + ["forward (torch/nn/modules/linear.py:134)"], 12),
        (("27295", "target-3"), target_py + ["put (queue.py:140)"], 11),
        (("27304", "target-4"), target_py + layer + ["_norm (transformers/models/qwen3_5/modeling_qwen3_5.py:718)"], 9)]:
    gil.append([";".join([thread(tid, name)] + frames), c])
write("profile-gil.txt", gil)
# The recordings' durations and rates, which the profiles cannot tell: scripts/demo.sh
# passes this line to sift-gil.
with open(os.path.join(out, "sift-gil.opts"), "w") as f:
    f.write("--total-seconds 45 --total-rate 99 --gil-seconds 30 --gil-rate 49\n")


def log(name, start_tps, mean_tps, cv, steps, seed):
    r = random.Random(seed)
    t = 0.0
    with open(os.path.join(out, name), "w") as f:
        f.write("[2025-11-29 10:00:00,000] INFO starting DFlash training: 5 target GPUs, 3 drafter GPUs\n")
        for step in range(1, steps + 1):
            warm = min(1.0, 0.4 + step / 20.0)
            tps = (start_tps + (mean_tps - start_tps) * warm) * r.gauss(1.0, cv)
            tokens = 16384
            t += tokens / tps
            ms, sec = int((t % 1) * 1000), int(t)
            f.write("[2025-11-29 10:%02d:%02d,%03d] step %d | loss %.4f | %.1fK tok/s\n"
                    % (sec // 60 % 60, sec % 60, ms, step, 2.9 - step * 0.004 + r.gauss(0, 0.02), tps / 1000))
            if step % 50 == 0:
                f.write("[2025-11-29 10:%02d:%02d,%03d] INFO queue depth 41/60, drafter lag 2 steps\n"
                        % (sec // 60 % 60, sec % 60, ms))


log("train-before.log", 9000, 14500, 0.12, 200, 1)
log("train-after.log", 9500, 16300, 0.05, 200, 2)

#!/usr/bin/env python3
"""Write one recording the way py-spy 0.4 (github.com/benfred/py-spy, commit d230d82) writes it
as raw (src/flamegraph.rs), speedscope (src/speedscope.rs) and chrometrace (src/chrometrace.rs):
the same samples, field order, number format (serde_json) and thread/process pseudo-frames
(src/main.rs record_samples). Constructed, not recorded: py-spy cannot run here.
Usage: python3 make.py  (writes rec-*.txt / rec-*.json beside itself)"""
import json, os, random

here = os.path.dirname(os.path.abspath(__file__))
RATE = 100
PID, CMD = 4242, "python train.py"
# (pthread id, os tid, thread name)
THREADS = [(0x7F3A2B4C5700, 4242, "MainThread"), (0x7F3A29FFF640, 4250, "loader_0")]
F = {  # name, filename (speedscope/chrometrace), short_filename (raw), line
    "mod": ("<module>", "train.py", "train.py", 40),
    "main": ("main", "train.py", "train.py", 31),
    "step": ("train_step", "train.py", "train.py", 12),
    "fwd": ("forward", "model.py", "model.py", 88),
    "mm": ("matmul", "model.py", "model.py", 20),
    "bwd": ("backward", "torch/_tensor.py", "torch/_tensor.py", 522),
    "run": ("run", "threading.py", "threading.py", 1010),
    "boot": ("_bootstrap", "threading.py", "threading.py", 1030),
    "load": ("__next__", "loader.py", "loader.py", 630),
    "wait": ("wait", "threading.py", "threading.py", 355),
}
STACKS = {  # root first
    0: [["mod", "main", "step", "fwd", "mm"], ["mod", "main", "step", "fwd"], ["mod", "main", "step", "bwd"],
        ["mod", "main", "step", "fwd", "mm"], ["mod", "main"]],
    1: [["boot", "run", "load"], ["boot", "run", "load", "wait"], ["boot", "run"]],
}
rng = random.Random(16)
samples = []  # (time index, thread index, stack root first)
for k in range(60):
    for t in (0, 1):
        if t == 1 and k % 3 == 2:
            continue  # idle: py-spy leaves it out
        samples.append((k, t, rng.choice(STACKS[t])))

def trace_frames(t, stack, threads, subprocesses):
    """py-spy's trace.frames: leaf first, then the pushed thread and process frames."""
    fr = [dict(name=F[f][0], filename=F[f][1], short=F[f][2], line=F[f][3]) for f in reversed(stack)]
    pt, os_tid, name = THREADS[t]
    if threads:
        fr.append(dict(name=f"thread ({os_tid}): {name}", filename="", short=None, line=0))
    if subprocesses:
        fr.append(dict(name=f'process {PID}:"{CMD}"', filename="", short=None, line=0))
    return fr

def raw(threads, subprocesses):
    counts = {}
    for _, t, stack in samples:
        parts = []
        for f in reversed(trace_frames(t, stack, threads, subprocesses)):
            fn = f["short"] if f["short"] is not None else f["filename"]
            if f["line"] != 0:
                parts.append(f'{f["name"]} ({fn}:{f["line"]})')
            elif fn:
                parts.append(f'{f["name"]} ({fn})')
            else:
                parts.append(f["name"])
        key = ";".join(parts)
        counts[key] = counts.get(key, 0) + 1
    return "".join(f"{k} {v}\n" for k, v in counts.items())

def speedscope(threads, subprocesses, rate=RATE):
    frames, index, per = [], {}, {}
    names = {}
    for _, t, stack in samples:
        ids = []
        for f in trace_frames(t, stack, threads, subprocesses):
            key = (f["name"], f["filename"], f["line"])
            if key not in index:
                index[key] = len(frames)
                frames.append({"name": f["name"], "file": f["filename"], "line": f["line"], "col": None})
            ids.append(index[key])
        ids.reverse()
        per.setdefault(t, []).append(ids)
        pt, os_tid, name = THREADS[t]
        names.setdefault(t, f'Process {PID} Thread {os_tid} "{name}"' if subprocesses
                         else f'Thread {os_tid} "{name}"')
    profiles = [{"type": "sampled", "name": names[t], "unit": "seconds", "startValue": 0.0,
                 "endValue": len(s) / rate, "samples": s, "weights": [1 / rate] * len(s)}
                for t, s in per.items()]
    profiles.sort(key=lambda p: p["name"])
    doc = {"$schema": "https://www.speedscope.app/file-format-schema.json", "profiles": profiles,
           "shared": {"frames": frames}, "activeProfileIndex": None, "exporter": "py-spy@0.4.0",
           "name": "py-spy profile"}
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n"

def chrometrace(threads):
    events, prev = [], {}
    def ev(t, f, ph, ts):
        return {"args": {"filename": f["filename"], "line": f["line"]}, "cat": "py-spy",
                "name": f["name"], "ph": ph, "pid": PID, "tid": THREADS[t][0], "ts": ts}
    def same(a, b):
        return a["name"] == b["name"] and a["filename"] == b["filename"] and a["line"] == b["line"]
    for k, t, stack in samples:
        now = 1000 + k * 10000 + t * 37  # microseconds since start, 10 ms apart
        cur = trace_frames(t, stack, threads, False)
        old = prev.pop(t, [])
        ra, rb = list(reversed(old)), list(reversed(cur))
        n = next((i for i, (a, b) in enumerate(zip(ra, rb)) if not same(a, b)), min(len(ra), len(rb)))
        for f in list(reversed(ra[n:])):
            events.append(ev(t, f, "E", now))
        for f in rb[n:]:
            events.append(ev(t, f, "B", now))
        prev[t] = cur
    end = 1000 + 60 * 10000
    for t, fr in prev.items():
        for f in fr:
            events.append(ev(t, f, "E", end))
    return json.dumps(events, separators=(",", ":"), ensure_ascii=False) + "\n"

out = {
    "rec-raw-threads.txt": raw(True, False),
    "rec-raw-threads-subprocesses.txt": raw(True, True),
    "rec-speedscope.json": speedscope(False, False),
    "rec-speedscope-threads.json": speedscope(True, False),
    "rec-speedscope-subprocesses.json": speedscope(False, True),
    # py-spy record --rate 200: the same samples, each weighing 1/200 s
    "rec-speedscope-200hz.json": speedscope(False, False, 200),
    "rec-chrometrace-threads.json": chrometrace(True),
}
for name, text in out.items():
    with open(os.path.join(here, name), "w") as f:
        f.write(text)

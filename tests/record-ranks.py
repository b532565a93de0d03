"""record-ranks.py SECONDS OUTDIR [speedscope]: a CPU-bound stand-in for a data-parallel training job, profiled
as it runs. NRANKS worker processes each run the same loop: data loading (JSON, hashing), a
pure-Python forward and backward over small matrices, an optimizer step, a hand-off through a
queue; rank 0 also saves a checkpoint every 20 steps, as real jobs do. A thread in each rank
samples the main thread's stack every 5 ms (sys._current_frames) and writes OUTDIR/rankN.txt
in py-spy's raw format (`thread (TID): MainThread;NAME (FILE:LINE);... COUNT`), or with
`speedscope` OUTDIR/rankN.speedscope.json, sampled, each sample weighed in seconds, in time
order, as py-spy --format speedscope writes them: real samples of a real run, for sift-diff's
A/A and power tests (py-spy itself is not packaged in Debian)."""
import collections
import hashlib
import io
import os
import pickle
import threading
import json
import multiprocessing as mp
import random
import sys
import time

NRANKS = 8
SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
OUTDIR = sys.argv[2] if len(sys.argv) > 2 else "."
SPEEDSCOPE = len(sys.argv) > 3 and sys.argv[3] == "speedscope"
INTERVAL = 0.005


def sampler(main, tid, counts, order, stop):
    while not stop.is_set():
        frame = sys._current_frames().get(main)
        stack = []
        while frame is not None:
            code = frame.f_code
            stack.append(f"{code.co_name} ({os.path.basename(code.co_filename)}:{frame.f_lineno})")
            frame = frame.f_back
        if stack:
            text = f"thread ({tid}): MainThread;" + ";".join(reversed(stack))
            counts[text] += 1
            order.append(text)
        time.sleep(INTERVAL)


def write_speedscope(path, tid, order):
    frames, index, samples = [], {}, []
    for text in order:
        ids = []
        for f in text.split(";")[1:]:
            if f not in index:
                name, rest = f.rsplit(" (", 1)
                file, line = rest.rstrip(")").rsplit(":", 1)
                index[f] = len(frames)
                frames.append({"name": name, "file": file, "line": int(line)})
            ids.append(index[f])
        samples.append(ids)
    doc = {"$schema": "https://www.speedscope.app/file-format-schema.json",
           "shared": {"frames": frames},
           "profiles": [{"type": "sampled", "name": f"Process {os.getpid()} Thread {tid} \"MainThread\"",
                         "unit": "seconds", "startValue": 0.0, "endValue": len(samples) * INTERVAL,
                         "samples": samples, "weights": [INTERVAL] * len(samples)}],
           "name": "record-ranks.py", "activeProfileIndex": 0, "exporter": "record-ranks.py"}
    with open(path, "w") as out:
        json.dump(doc, out, separators=(",", ":"))


def save_checkpoint(w, step):
    buf = io.BytesIO()
    pickle.dump({"step": step, "w": w}, buf)
    return hashlib.md5(buf.getvalue()).hexdigest()


def load_batch(rng, n=48):
    rows = [json.dumps({"id": rng.random(), "tokens": [rng.randrange(50000) for _ in range(32)]}) for _ in range(n)]
    out = []
    for r in rows:
        d = json.loads(r)
        out.append([t % 97 / 97.0 for t in d["tokens"][:16]])
        hashlib.sha256(r.encode()).hexdigest()
    return out


def matmul(a, b):
    bt = list(zip(*b))
    return [[sum(x * y for x, y in zip(row, col)) for col in bt] for row in a]


def forward(batch, w):
    h = matmul(batch, w)
    return [[max(0.0, v) for v in row] for row in h]


def loss_fn(h):
    return sum(v * v for row in h for v in row) / (len(h) * len(h[0]))


def backward(batch, h, w):
    g = [[2.0 * v / len(h) for v in row] for row in h]
    return matmul(list(map(list, zip(*batch))), g)


def optimizer_step(w, grad, lr=1e-3):
    for i, row in enumerate(grad):
        for j, v in enumerate(row):
            w[i][j] -= lr * v


def rank_main(rank, q):
    sys.setswitchinterval(0.001)  # the sampler thread needs the GIL often to keep its pace
    counts, order = collections.Counter(), []
    stop = threading.Event()
    tid = threading.get_native_id()
    t = threading.Thread(target=sampler, args=(threading.main_thread().ident, tid, counts, order, stop), daemon=True)
    t.start()
    train(rank, q)
    stop.set()
    t.join()
    if SPEEDSCOPE:
        write_speedscope(os.path.join(OUTDIR, f"rank{rank}.speedscope.json"), tid, order)
        return
    with open(os.path.join(OUTDIR, f"rank{rank}.txt"), "w") as out:
        for stack, n in counts.items():
            out.write(f"{stack} {n}\n")


def train(rank, q):
    rng = random.Random(rank)
    w = [[rng.random() for _ in range(16)] for _ in range(16)]
    end = time.time() + SECONDS
    step = 0
    while time.time() < end:
        batch = load_batch(rng)
        h = forward(batch, w)
        loss = loss_fn(h)
        grad = backward(batch, h, w)
        optimizer_step(w, grad)
        if rank == 0 and step % 20 == 0:
            save_checkpoint(w, step)
        if step % 10 == 0:
            q.put((rank, step, loss))
        step += 1
    q.put((rank, -1, 0.0))


def main():
    q = mp.Queue()
    procs = [mp.Process(target=rank_main, args=(r, q), name=f"rank{r}") for r in range(NRANKS)]
    for p in procs:
        p.start()
    done = 0
    while done < NRANKS:
        rank, step, _ = q.get()
        done += step < 0
    for p in procs:
        p.join()


if __name__ == "__main__":
    main()

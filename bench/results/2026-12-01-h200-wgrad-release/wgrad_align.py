#!/usr/bin/env python3
"""Times the FP8 blockwise weight-gradient entries (bench/generated_gemm.py
entries --fp8 blockwise, filtered by build.sh) of several artifacts on three
kinds of group sizes: `aligned` (equal sizes, multiples of 128 at these
shapes), `routed` (the counts of a uniformly random top-k routing, seeded:
about equal, almost never multiples of 128, as in a real layer) and `skewed`
(peers.group_sizes' Zipf(1.2)). moe-runner's median of --iters calls.

  wgrad_align.py --runner R --out DIR NAME=ARTIFACT [NAME=ARTIFACT ...]
"""
import argparse
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import npy  # noqa: E402
from peers import SHAPES, group_sizes  # noqa: E402


def routed_sizes(T, E, K, seed=1):
    rng = random.Random(seed)
    counts = [0] * E
    for _ in range(T):
        for e in rng.sample(range(E), K):
            counts[e] += 1
    return counts


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runner", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--shapes", default="qwen3-30b-a3b,mixtral-8x7b")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("artifacts", nargs="+")
    args = p.parse_args()
    arts = [a.split("=", 1) for a in args.artifacts]
    print("| shape | gemm | sizes | aligned groups | " +
          " | ".join("%s ms (TFLOP/s)" % n for n, _ in arts) + " |")
    print("|---|---|---|---|" + "---|" * len(arts))
    for name, T, H, F, E, K in SHAPES:
        if name not in args.shapes.split(","):
            continue
        for kind in ("aligned", "routed", "skewed"):
            if kind == "routed":
                sizes = routed_sizes(T, E, K)
            else:
                sizes = group_sizes(T * K, E, kind == "skewed")
            aligned = sum(1 for s in sizes if s % 128 == 0)
            inputs = os.path.join(args.out, "in-%s-%s" % (name, kind))
            entries = []
            for gemm in ("fc1", "fc2"):
                kd, n = (H, F) if gemm == "fc1" else (F, H)
                entry = "%s_wgrad_%s" % (gemm, name.replace("-", "_"))
                npy.write(os.path.join(inputs, entry, "sizes.npy"), "<i4", [E], sizes)
                entries.append((gemm, entry, 2.0 * T * K * kd * n))
            times = {}
            for label, art in arts:
                cmd = [args.runner, art, "--device", "gpu", "--inputs", inputs,
                       "--iters", str(args.iters), "--warmup", "3"]
                for _, entry, _ in entries:
                    cmd += ["--entry", entry]
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
                if r.returncode != 0:
                    print("%s %s %s: rc %d\n%s" % (label, name, kind, r.returncode,
                                                   r.stderr[-2000:]))
                for m in re.finditer(r"^entry (\S+) on gpu.*median ([0-9.]+) ms",
                                     r.stdout, re.M):
                    times[(label, m.group(1))] = float(m.group(2))
            for gemm, entry, flop in entries:
                cells = []
                for label, _ in arts:
                    t = times.get((label, entry))
                    cells.append("%.3f (%.0f)" % (t, flop / t / 1e9) if t else "-")
                print("| %s | %s wgrad | %s | %d of %d | %s |" % (
                    name, gemm, kind, aligned, E, " | ".join(cells)), flush=True)


if __name__ == "__main__":
    main()

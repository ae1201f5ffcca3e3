#!/usr/bin/env python3
"""Times GEMM entries of bench/generated_gemm.py (entries, bf16 or
--fp8 ...) of several artifacts in one run, balanced and skewed group
sizes (peers.group_sizes), moe-runner's median of --iters calls; prints a
table with TFLOP/s, one column per artifact.

  fp8_gemm_times.py --runner R --out DIR --shapes mixtral-8x7b,... \
      NAME=ARTIFACT [NAME=ARTIFACT ...]
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import npy  # noqa: E402
from peers import SHAPES, group_sizes  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runner", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--shapes", required=True)
    p.add_argument("--passes", default="fwd,dgrad,wgrad")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("artifacts", nargs="+")
    args = p.parse_args()
    arts = [a.split("=", 1) for a in args.artifacts]
    rows = []
    for name, T, H, F, E, K in SHAPES:
        if name not in args.shapes.split(","):
            continue
        for routing in ("balanced", "skewed"):
            sizes = group_sizes(T * K, E, routing == "skewed")
            inputs = os.path.join(args.out, "in-%s-%s" % (name, routing))
            entries = []
            for gemm in ("fc1", "fc2"):
                Kd, N = (H, F) if gemm == "fc1" else (F, H)
                for pas in args.passes.split(","):
                    entry = "%s_%s_%s" % (gemm, pas, name.replace("-", "_"))
                    npy.write(os.path.join(inputs, entry, "sizes.npy"), "<i4", [E], sizes)
                    entries.append((entry, 2.0 * T * K * Kd * N))
            times = {}
            for label, art in arts:
                cmd = [args.runner, art, "--device", "gpu", "--inputs", inputs,
                       "--iters", str(args.iters), "--warmup", "3"]
                for entry, _ in entries:
                    cmd += ["--entry", entry]
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=400)
                if r.returncode != 0:
                    print("%s %s %s: rc %d\n%s" % (label, name, routing, r.returncode,
                                                   r.stderr[-2000:]))
                for m in re.finditer(r"^entry (\S+) on gpu.*median ([0-9.]+) ms", r.stdout, re.M):
                    times[(label, m.group(1))] = float(m.group(2))
            for entry, flop in entries:
                rows.append((entry, routing, flop,
                             [times.get((label, entry)) for label, _ in arts]))
    head = "%-28s %-9s" % ("entry", "routing")
    for label, _ in arts:
        head += " %9s %6s" % (label + " ms", "TF/s")
    print(head)
    for entry, routing, flop, ts in rows:
        line = "%-28s %-9s" % (entry, routing)
        for t in ts:
            line += " %9s %6s" % (("%.3f" % t, "%.0f" % (flop / t / 1e9)) if t else ("-", "-"))
        print(line)


if __name__ == "__main__":
    main()

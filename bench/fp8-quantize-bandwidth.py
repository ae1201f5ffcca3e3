#!/usr/bin/env python3
"""fp8-quantize-bandwidth.py BENCH.mlir RUNNER.log: the bandwidth of each
entry of bench/fp8-quantize.mlir from moe-runner's median times.

The bytes an entry must move at least: every input element read once and
every output element written once (bf16 2 bytes, FP8 1, f32 scales 4),
from the tensor types of the entry's signature. Tensor-wise scaling reads
its input twice (the amax, then the cast): both GB/s are printed, against
the minimum and against what the schedule moves. H100 SXM: ~3.35 TB/s
peak HBM3, ~2.8-3.0 TB/s reachable by a copy kernel."""
import re
import sys

BYTES = {"bf16": 2, "f16": 2, "f32": 4, "f8E4M3FN": 1, "f8E5M2": 1}


def tensor_bytes(text):
    total = 0
    for shape, elem in re.findall(r"tensor<((?:\d+x)*)(\w+)>", text):
        n = 1
        for d in shape.rstrip("x").split("x") if shape else []:
            n *= int(d)
        total += n * BYTES[elem]
    return total


def main():
    src = open(sys.argv[1]).read()
    log = open(sys.argv[2]).read()
    entries = {}
    for name, args, results in re.findall(
            r"func\.func @(\w+)\((.*?)\)\s*->\s*\((.*?)\)\s*\{", src, re.S):
        entries[name] = (tensor_bytes(args), tensor_bytes(results))
    found = 0
    for name, ms in re.findall(r"entry (\w+) on \w+(?: \[[^\]]*\])?: median ([0-9.e+-]+) ms", log):
        if name not in entries:
            continue
        found += 1
        read, written = entries[name]
        moved = read + written
        line = "%-18s %9.3f ms  %7.1f GB/s (%.0f MiB read, %.0f MiB written)" % (
            name, float(ms), moved / float(ms) / 1e6, read / 2**20, written / 2**20)
        if name.startswith("tensorwise"):
            line += "; reading the input twice: %.1f GB/s" % (
                (moved + read) / float(ms) / 1e6)
        print(line)
    if found == 0:
        print("fp8-quantize-bandwidth: no entry times in %s" % sys.argv[2])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

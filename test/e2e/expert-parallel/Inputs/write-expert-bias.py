#!/usr/bin/env python3
"""write-expert-bias.py DIR E FIRST COUNT: an f32 expert bias [E] as
DIR/bias.npy (moe-runner's --inputs layout) that is 10 on experts
[FIRST, FIRST + COUNT) and 0 elsewhere. With sigmoid scores (in (0, 1)) and
top-COUNT routing every token then selects exactly those experts, whatever
its scores: under expert parallelism they live on one rank and the others
receive no rows. Standard library only."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..",
                                "scripts"))
import npy  # noqa: E402

if len(sys.argv) != 5:
    sys.exit("usage: write-expert-bias.py DIR E FIRST COUNT")
out, experts, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
if not (0 <= first and count > 0 and first + count <= experts):
    sys.exit("write-expert-bias.py: experts [%d, %d) are not within [0, %d)" %
             (first, first + count, experts))
bias = [10.0 if first <= e < first + count else 0.0 for e in range(experts)]
os.makedirs(out, exist_ok=True)
npy.write(os.path.join(out, "bias.npy"), "<f4", (experts,), bias)

"""check-rank-slices.py LISTING: LISTING is npy-print.py's output for the
one-rank x, rank 0's x, rank 1's x (split along dim 0), the one-rank w and
rank 1's w (replicated). Checks that the ranks' x are the halves of the
one-rank x and that w is whole; prints what it checked, fails otherwise."""
import re
import sys

rows = []
for line in open(sys.argv[1]):
    m = re.search(r"shape=(\([^)]*\)) .* values=\[(.*)\]$", line)
    assert m, line
    rows.append((m.group(1), m.group(2).split(", ")))
(xs, x), (s0, x0), (s1, x1), (ws, w), (w1s, w1) = rows
assert x0 + x1 == x, "the ranks' x are not the halves of the one-rank x"
assert len(x0) == len(x1) == len(x) // 2
print("x: %s = rank 0 %s + rank 1 %s" % (xs, s0, s1))
assert w == w1 and ws == w1s, "w differs between the one-rank run and rank 1"
print("w: %s replicated" % ws)

"""check-exchange.py LISTING: npy-print.py's output for x, send (rank 0's;
both replicated) and, per rank 0..3, the exchanged rows y [8, 4] and the
received counts of four-rank-exchange.mlir. Checks every rank's y and
counts against the ragged all-to-all's definition; prints one line per
rank, fails otherwise."""
import re
import sys

arrays = []
for line in open(sys.argv[1]):
    m = re.search(r"values=\[(.*)\]$", line)
    assert m, line
    arrays.append([float(v) for v in m.group(1).split(", ")])
x, send, ranks = arrays[0], [int(v) for v in arrays[1]], arrays[2:]
cols, p = 4, len(send)
for r in range(p):
    y, recv = ranks[2 * r], [int(v) for v in ranks[2 * r + 1]]
    start = sum(send[:r])
    mine = x[start * cols:(start + send[r]) * cols]
    expected = mine * p
    expected += [0.0] * (len(y) - len(expected))
    assert y == expected, "rank %d: rows differ" % r
    assert recv == [send[r]] * p, "rank %d: recv %s" % (r, recv)
    print("rank %d: %d rows from %d sources, recv %s" % (r, send[r] * p, p, recv))

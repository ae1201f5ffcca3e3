#!/usr/bin/env python3
"""npy-compare.py A.npy B.npy [--rtol R]: compare two float .npy files
element by element without numpy. Prints one line,
  `A vs B: N values, K bit-identical, max rel diff D`
and exits 1 when shapes or dtypes differ or some |a - b| > R·max(|a|, |b|)
(default R = 0: bit-identical values)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "scripts"))
import npy  # noqa: E402

FLOAT_DESCRS = ("<f2", "<f4", "<f8")


def read(path):
    with open(path, "rb") as f:
        header, body = npy.parse(f.read())
    assert header["descr"] in FLOAT_DESCRS, "%s: not a float file" % path
    return header["descr"], tuple(header["shape"]), npy.unpack(header["descr"], body)


def main(argv):
    rtol = 0.0
    paths = []
    i = 0
    while i < len(argv):
        if argv[i] == "--rtol":
            rtol = float(argv[i + 1])
            i += 2
        else:
            paths.append(argv[i])
            i += 1
    if len(paths) != 2:
        print("usage: npy-compare.py A.npy B.npy [--rtol R]", file=sys.stderr)
        return 2
    (da, sa, a), (db, sb, b) = read(paths[0]), read(paths[1])
    if (da, sa) != (db, sb):
        print("%s vs %s: %s %s vs %s %s" % (paths[0], paths[1], da, sa, db, sb))
        return 1
    same = sum(1 for x, y in zip(a, b) if x == y)
    worst = 0.0
    for x, y in zip(a, b):
        if x != y:
            worst = max(worst, abs(x - y) / max(abs(x), abs(y)))
    name = lambda p: "/".join(p.replace("\\", "/").split("/")[-2:])
    print("%s vs %s: %d values, %d bit-identical, max rel diff %.3g" % (
        name(paths[0]), name(paths[1]), len(a), same, worst))
    return 0 if worst <= rtol else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

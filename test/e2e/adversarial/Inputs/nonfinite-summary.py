#!/usr/bin/env python3
"""nonfinite-summary.py DIR ROWS: for each .npy of a moe-runner --dump
directory (DIR/<entry>/<name>.npy, entries and names sorted) prints one
line, without numpy:
  float, rank 0:  `<entry>/<name>: nan` (or inf, -inf, finite)
  float, rank 2:  `<entry>/<name>: non-finite rows 3 10 20` (rows holding a
                  NaN or an infinity; `none`, or `all (<n>)`)
  float, rank 3:  `<entry>/<name>: non-finite experts 0 1` (first index)
  i32, rank 2:    `<entry>/<name>: i32 in [lo, hi], rows 3 10 20: [0, 1] ...`
                  (ROWS: comma-separated rows to show, e.g. 3,10,20)
Other files are skipped."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "scripts"))
import npy  # noqa: E402

root, rows_shown = sys.argv[1], [int(r) for r in sys.argv[2].split(",")]


def describe(indices, total, noun):
    if not indices:
        return "non-finite %s none" % noun
    if len(indices) == total:
        return "non-finite %s all (%d)" % (noun, total)
    return "non-finite %s %s" % (noun, " ".join(str(i) for i in indices))


for entry in sorted(os.listdir(root)):
    for name in sorted(os.listdir(os.path.join(root, entry))):
        stem, ext = os.path.splitext(name)
        if ext != ".npy":
            continue
        with open(os.path.join(root, entry, name), "rb") as f:
            header, payload = npy.parse(f.read())
        shape, descr = header["shape"], header["descr"]
        if descr not in ("<f4", "<i4"):
            continue
        count = npy.count_of(shape)
        values = npy.unpack(descr, payload, count)
        label = "%s/%s" % (entry, stem)
        if descr == "<i4":
            if len(shape) != 2:
                continue
            shown = " ".join("[%s]" % ", ".join(str(v) for v in
                                                 values[r * shape[1]:(r + 1) * shape[1]])
                             for r in rows_shown if r < shape[0])
            print("%s: i32 in [%d, %d], rows %s: %s" % (label, min(values), max(values),
                                                      sys.argv[2].replace(",", " "), shown))
        elif len(shape) == 0:
            v = values[0]
            print("%s: %s" % (label, "finite" if math.isfinite(v) else repr(v)))
        elif len(shape) in (2, 3):
            outer = shape[0]
            inner = count // outer
            bad = [i for i in range(outer)
                   if not all(math.isfinite(v) for v in values[i * inner:(i + 1) * inner])]
            print("%s: %s" % (label, describe(bad, outer, "rows" if len(shape) == 2 else "experts")))

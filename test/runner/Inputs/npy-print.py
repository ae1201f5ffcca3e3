#!/usr/bin/env python3
"""npy-print.py FILE.npy...: print a .npy file's header and values without
numpy, one line each: `FILE: descr=<f4 fortran_order=False shape=(2, 3)
header=128 values=[...]` (%.9g for floats). Fails on anything malformed."""
import ast
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import npy  # noqa: E402

for path in sys.argv[1:]:
    prefix, header, body = npy.split(open(path, "rb").read())
    assert header.endswith("\n"), "header must end with a newline"
    assert (len(prefix) + len(header)) % 64 == 0, "data must be 64-byte aligned"
    d = ast.literal_eval(header)
    count = npy.count_of(d["shape"])
    fmt = npy.FORMATS[d["descr"]]
    assert len(body) == count * struct.calcsize(fmt), "wrong data size"
    values = npy.unpack(d["descr"], body, count)
    text = ", ".join(("%.9g" % v) if isinstance(v, float) else str(int(v)) for v in values)
    print("%s: descr=%s fortran_order=%s shape=%s header=%d values=[%s]" % (
        os.path.basename(path), d["descr"], d["fortran_order"], d["shape"],
        len(prefix) + len(header), text))

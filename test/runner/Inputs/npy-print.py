#!/usr/bin/env python3
"""npy-print.py FILE.npy...: print a .npy file's header and values without
numpy, one line each: `FILE: descr=<f4 fortran_order=False shape=(2, 3)
header=128 values=[...]` (%.9g for floats). Fails on anything malformed."""
import ast
import os
import struct
import sys

FORMATS = {"<f2": "e", "<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q",
           "|i1": "b", "|u1": "B", "|b1": "?"}

for path in sys.argv[1:]:
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", "bad magic"
    major = data[6]
    if major == 1:
        (hlen,) = struct.unpack("<H", data[8:10])
        start = 10
    else:
        (hlen,) = struct.unpack("<I", data[8:12])
        start = 12
    header = data[start:start + hlen].decode("latin1")
    assert header.endswith("\n"), "header must end with a newline"
    assert (start + hlen) % 64 == 0, "data must be 64-byte aligned"
    d = ast.literal_eval(header)
    count = 1
    for n in d["shape"]:
        count *= n
    fmt = FORMATS[d["descr"]]
    body = data[start + hlen:]
    assert len(body) == count * struct.calcsize(fmt), "wrong data size"
    values = struct.unpack("<%d%s" % (count, fmt), body)
    text = ", ".join(("%.9g" % v) if isinstance(v, float) else str(int(v)) for v in values)
    print("%s: descr=%s fortran_order=%s shape=%s header=%d values=[%s]" % (
        os.path.basename(path), d["descr"], d["fortran_order"], d["shape"], start + hlen, text))

#!/usr/bin/env python3
"""npy-first-differences.py REF.npy RUN.npy [N]: how many elements of two
same-shaped float32/int32 .npy files (moe-runner --dump) differ bit for bit,
and the first N (default 5) of them: flat index, both values and their bits.
No numpy (scripts/npy.py reads the files)."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402


def main():
    ref_path, run_path = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    (ref_header, ref_values), (run_header, run_values) = npy.read(ref_path), npy.read(run_path)
    if ref_header != run_header:
        print("  %s: dtype/shape differ: %s vs %s" % (run_path, ref_header, run_header))
        return
    pack = "<f" if ref_header["descr"] == "<f4" else "<i"
    bits = lambda v: struct.unpack("<I", struct.pack(pack, v))[0]  # noqa: E731
    diffs = [i for i, (a, b) in enumerate(zip(ref_values, run_values)) if bits(a) != bits(b)]
    print("  %s: %d of %d elements differ" % (run_path, len(diffs), len(ref_values)))
    for i in diffs[:limit]:
        a, b = ref_values[i], run_values[i]
        print("    [%d] ref %r (0x%08x)  run %r (0x%08x)" % (i, a, bits(a), b, bits(b)))


if __name__ == "__main__":
    main()

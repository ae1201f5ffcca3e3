"""Copy a little-endian f32 .npy (as moe-runner --dump writes it), changing
elements: perturb-npy.py IN OUT CHANGE ..., each CHANGE one of
  INDEX=VALUE    element INDEX becomes VALUE (a float, nan, inf or -inf)
  INDEX*=FACTOR  element INDEX is multiplied by FACTOR
  *=VALUE        every element becomes VALUE."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import npy  # noqa: E402

data = bytearray(open(sys.argv[1], "rb").read())
prefix, header, _ = npy.split(bytes(data))
assert "'<f4'" in header and "'fortran_order': False" in header, header
start = len(prefix) + len(header)
count = (len(data) - start) // 4
for change in sys.argv[3:]:
    target, value = change.split("=")
    if target == "*":
        for i in range(count):
            struct.pack_into("<f", data, start + 4 * i, float(value))
    elif target.endswith("*"):
        offset = start + 4 * int(target[:-1])
        (old,) = struct.unpack_from("<f", data, offset)
        struct.pack_into("<f", data, offset, old * float(value))
    else:
        struct.pack_into("<f", data, start + 4 * int(target), float(value))
open(sys.argv[2], "wb").write(bytes(data))

"""Copy a little-endian f32 .npy (as moe-runner --dump writes it), changing
elements: perturb-npy.py IN OUT CHANGE ..., each CHANGE one of
  INDEX=VALUE    element INDEX becomes VALUE (a float, nan, inf or -inf)
  INDEX*=FACTOR  element INDEX is multiplied by FACTOR
  *=VALUE        every element becomes VALUE."""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
assert data[:6] == b"\x93NUMPY", "not a .npy file"
header_len = struct.unpack("<H", data[8:10])[0]
header = data[10:10 + header_len].decode("latin1")
assert "'<f4'" in header and "'fortran_order': False" in header, header
start = 10 + header_len
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

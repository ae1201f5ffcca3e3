"""Copy a little-endian f32 .npy (as moe-runner --dump writes it), changing
elements: perturb-npy.py IN OUT INDEX=VALUE ... (VALUE a float or nan)."""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
assert data[:6] == b"\x93NUMPY", "not a .npy file"
header_len = struct.unpack("<H", data[8:10])[0]
header = data[10:10 + header_len].decode("latin1")
assert "'<f4'" in header and "'fortran_order': False" in header, header
start = 10 + header_len
for change in sys.argv[3:]:
    index, value = change.split("=")
    struct.pack_into("<f", data, start + 4 * int(index), float(value))
open(sys.argv[2], "wb").write(bytes(data))

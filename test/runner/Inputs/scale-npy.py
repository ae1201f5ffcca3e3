"""scale-npy.py FILE FACTOR: multiplies every element of an f32 .npy (a
moe-runner --dump, which writes bf16 as f32) by FACTOR, in place."""
import struct
import sys


def main():
    path, factor = sys.argv[1], float(sys.argv[2])
    data = bytearray(open(path, "rb").read())
    assert data[:6] == b"\x93NUMPY", "not an .npy file"
    major = data[6]
    if major == 1:
        start = 10 + struct.unpack_from("<H", data, 8)[0]
    else:
        start = 12 + struct.unpack_from("<I", data, 8)[0]
    assert b"'<f4'" in data[:start], "not an f32 .npy"
    count = (len(data) - start) // 4
    values = struct.unpack_from("<%df" % count, data, start)
    struct.pack_into("<%df" % count, data, start, *(v * factor for v in values))
    open(path, "wb").write(data)


if __name__ == "__main__":
    main()

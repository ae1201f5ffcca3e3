"""Reading and writing .npy files without numpy (Python standard library only),
for the test and benchmark helpers that make moe-runner inputs or read its
--dump output.

The format (numpy's NEP 1): the magic b"\\x93NUMPY", a version byte pair
(1.0: a little-endian u16 header length; 2.0: u32), then the header, a Python
dict literal ({'descr': ..., 'fortran_order': ..., 'shape': ...}) padded with
spaces and ending in a newline so that the data starts at a multiple of 64
bytes, then the raw little-endian values in C order.

A helper reaches this module from its own directory with
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "<up to the root>", "scripts"))
    import npy
"""
import ast
import os
import struct

MAGIC = b"\x93NUMPY"

# descr -> struct format character
FORMATS = {"<f2": "e", "<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q",
           "|i1": "b", "|u1": "B", "|b1": "?"}


def shape_text(shape):
    """numpy's spelling of a shape tuple: (), (4,), (2, 3)."""
    if len(shape) == 1:
        return "(%d,)" % shape[0]
    return "(%s)" % ", ".join(str(d) for d in shape)


def header_text(descr, shape, fortran_order=False):
    """The header dict literal as numpy writes it, unpadded."""
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, fortran_order, shape_text(shape))


def frame(header, payload, version=1):
    """magic + version + length + `header` padded to the 64-byte boundary and
    ending in a newline + `payload`. `header` is any text: the fuzzer frames
    broken ones."""
    prefix = 10 if version == 1 else 12
    header += " " * ((64 - (prefix + len(header) + 1) % 64) % 64) + "\n"
    out = MAGIC + bytes([version, 0])
    out += struct.pack("<H" if version == 1 else "<I", len(header))
    return out + header.encode("latin1") + payload


def pack(descr, shape, values, version=1):
    """A whole .npy file of `values` (flat, C order) as bytes."""
    payload = struct.pack("<%d%s" % (len(values), FORMATS[descr]), *values)
    return frame(header_text(descr, shape), payload, version)


def write(path, descr, shape, values, version=1):
    """Writes `values` (flat, C order) to `path`, creating its directory."""
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(path, "wb") as f:
        f.write(pack(descr, shape, values, version))


def split(data):
    """(prefix, header text, payload) of a .npy file's bytes; the prefix is
    the magic, version and header length; the header keeps its padding.
    Asserts the magic."""
    assert data[:6] == MAGIC, "not a .npy file (bad magic)"
    if data[6] == 1:
        (hlen,) = struct.unpack("<H", data[8:10])
        start = 10
    else:
        (hlen,) = struct.unpack("<I", data[8:12])
        start = 12
    return data[:start], data[start:start + hlen].decode("latin1"), data[start + hlen:]


def parse(data):
    """(header dict, payload) of a .npy file's bytes."""
    _, header, payload = split(data)
    return ast.literal_eval(header), payload


def count_of(shape):
    count = 1
    for d in shape:
        count *= d
    return count


def unpack(descr, payload, count=None):
    """The values of a payload as a tuple; all of it unless `count` is given."""
    fmt = FORMATS[descr]
    if count is None:
        count = len(payload) // struct.calcsize(fmt)
    return struct.unpack("<%d%s" % (count, fmt), payload)


def read(path):
    """(header dict, values tuple) of a .npy file: as many values as its
    shape holds."""
    with open(path, "rb") as f:
        header, payload = parse(f.read())
    return header, unpack(header["descr"], payload, count_of(header["shape"]))

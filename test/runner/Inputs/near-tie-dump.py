#!/usr/bin/env python3
"""Makes a reference dump in which one token's router indices differ from a
moe-runner --dump of the run (for near-ties.test). Needs no numpy.

  near-tie-dump.py SRC DST ENTRY TOKEN MODE REL [options]

copies the dump SRC to DST and edits DST/ENTRY/{scores,indices}.npy (f32
[T, E], i32 [T, K]) at TOKEN, with s = scores (+ bias with --bias):
  MODE next:  the reference picks c, the best expert the run left out, in
              place of b, the run's K-th expert: s[c] becomes s[b] * (1 + REL)
  MODE order: the reference ranks the run's first two experts a, b the other
              way round: s[b] becomes s[a] * (1 + REL)
Options:
  --bias NAME            s adds input NAME [E] (read from SRC/ENTRY/NAME.npy)
  --scale NAME:T=FACTOR  multiply row T of output NAME (f32) by FACTOR
It prints what it changed."""
import argparse
import os
import shutil
import struct


def read(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    header_len = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + header_len].decode("latin1")
    code = "f" if "'<f4'" in header else "i" if "'<i4'" in header else None
    assert code and "'fortran_order': False" in header, header
    shape = tuple(int(d) for d in header.split("'shape': (")[1].split(")")[0].split(",") if d.strip())
    body = data[10 + header_len:]
    return data[:10 + header_len], code, shape, list(struct.unpack("<%d%s" % (len(body) // 4, code), body))


def write(path, head, code, values):
    open(path, "wb").write(head + struct.pack("<%d%s" % (len(values), code), *values))


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


p = argparse.ArgumentParser()
p.add_argument("src")
p.add_argument("dst")
p.add_argument("entry")
p.add_argument("token", type=int)
p.add_argument("mode", choices=["next", "order"])
p.add_argument("rel", type=float)
p.add_argument("--bias")
p.add_argument("--scale", action="append", default=[])
a = p.parse_args()

shutil.rmtree(a.dst, ignore_errors=True)
shutil.copytree(a.src, a.dst)
d = os.path.join(a.dst, a.entry)
sh, sc, (T, E), scores = read(os.path.join(d, "scores.npy"))
ih, ic, (_, K), indices = read(os.path.join(d, "indices.npy"))
bias = read(os.path.join(d, a.bias + ".npy"))[3] if a.bias else [0.0] * E
t = a.token
row = indices[t * K:(t + 1) * K]
sel = lambda e: scores[t * E + e] + bias[e]
if a.mode == "next":
    j, old = K - 1, row[K - 1]
    new = max((e for e in range(E) if e not in row), key=sel)
    target = sel(old) * (1 + a.rel)
    scores[t * E + new] = f32(target - bias[new])
    indices[t * K + j] = new
    print("token %d: position %d expert %d -> %d, selection scores %.9g, %.9g" %
          (t, j, old, new, sel(old), sel(new)))
else:
    first, second = row[0], row[1]
    scores[t * E + second] = f32(sel(first) * (1 + a.rel) - bias[second])
    indices[t * K], indices[t * K + 1] = second, first
    print("token %d: positions 0, 1 experts %d, %d -> %d, %d, selection scores %.9g, %.9g" %
          (t, first, second, second, first, sel(first), sel(second)))
write(os.path.join(d, "scores.npy"), sh, sc, scores)
write(os.path.join(d, "indices.npy"), ih, ic, indices)
for s in a.scale:
    name, rest = s.split(":")
    token, factor = rest.split("=")
    path = os.path.join(d, name + ".npy")
    head, code, shape, values = read(path)
    width = len(values) // shape[0]
    for i in range(int(token) * width, (int(token) + 1) * width):
        values[i] = f32(values[i] * float(factor))
    write(path, head, code, values)
    print("%s row %s scaled by %s" % (name, token, factor))

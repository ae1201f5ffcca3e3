#!/usr/bin/env python3
"""Mutation fuzzer for moe-opt, moe-compile and moe-runner.

Each case is made from a seed and its index alone (random.Random("SEED/I")),
so any case can be rerun by itself with --only I. Three kinds of case:

  ir    an .mlir file from examples/, test/e2e/ or test/Dialect/ops.mlir with
        1-3 text mutations (integer, float and enum attribute values, tensor
        shapes and element types, deleted or duplicated lines, deleted,
        duplicated or swapped operands, other op names, deleted attributes,
        truncation), run through moe-opt with one pipeline (with
        --gpu-toolkit also the whole GPU lowering to cubin), or through
        moe-compile --target=cpu and then moe-runner --device cpu;
  json  the .json of a compiled artifact with a mutated field, array or text,
        run by moe-runner next to the unchanged .so;
  npy   the .npy inputs of an artifact (written by moe-runner --dump) with a
        mutated header, dtype, shape or payload, run with --inputs; half of
        the cases on an entry with integer inputs (expert indices, rows,
        group sizes: test/fuzz/Inputs/index-inputs.mlir, compiled with the
        cpu loops and with --gpu-schedules) give one of those out-of-range,
        negative or huge values instead, and with --valgrind-runner run
        under valgrind, which sees out-of-bounds accesses of the compiled
        code (not instrumented by the sanitizers).

Every tool run gets one outcome:
  ok          exit status 0;
  diagnostic  a non-zero exit with an error that says where: for .mlir input a
              'FILE:LINE:COL: error:' line, for artifacts and .npy inputs a
              'moe-runner: error:' line;
  unlocated   a non-zero exit whose error does not say where (an .mlir error
              without a FILE:LINE:COL, or no error line at all);
  crash       a signal, a sanitizer report, a failed assertion, 'LLVM ERROR',
              'PLEASE submit a bug report' or a stack dump;
  hang        no exit within --timeout seconds.
A case's outcome is the worst of its runs. Crashing and hanging cases are
kept under WORK/failures/<index>/ with their input and a repro.sh.

Exit status: 1 when a case crashed or hung (or, with --fail-on-unlocated, an
error had no location), else 0. Uses only the Python standard library.
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import npy  # noqa: E402

OUTCOMES = ["ok", "diagnostic", "unlocated", "crash", "hang"]
SEVERITY = {name: i for i, name in enumerate(OUTCOMES)}

CRASH_PATTERNS = re.compile(
    r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|"
    r"runtime error:|Assertion `.*' failed|PLEASE submit a bug report|"
    r"Stack dump:|LLVM ERROR:|UNREACHABLE executed|terminate called|"
    r"Segmentation fault|Aborted|"
    # valgrind memcheck (npy cases with --valgrind-runner)
    r"==\d+== (Invalid (read|write|free)|Conditional jump|Use of uninitialised|"
    r"Syscall param|Process terminating|Mismatched free)")
LOCATED_ERROR = re.compile(r"^\S.*:\d+:\d+: error: ", re.M)
ANY_ERROR = re.compile(r"error: ", re.M)
RUNNER_ERROR = re.compile(r"^moe-runner: error: \S", re.M)

# moe-opt pipelines an ir case may take (one each).
OPT_PIPELINES = [
    [],
    ["--canonicalize"],
    ["--moe-expand-layer"],
    ["--moe-expand-layer", "--canonicalize", "--cse"],
    ["--moe-generate-vjp"],
    ["--moe-generate-vjp", "--moe-lower-to-cpu"],
    ["--moe-lower-to-cpu"],
    ["--mlir-print-op-generic"],
    ["--moe-fuse"],
    ["--moe-generate-vjp", "--moe-fuse"],
    ["--moe-generate-vjp", "--moe-fp8-placement=recipe=blockwise"],
    ["--moe-generate-vjp", "--moe-fp8-placement=recipe=tensorwise", "--moe-fp8-weight-inputs"],
    ["--moe-fp8-placement=recipe=delayed", "--moe-fp8-weight-inputs", "--moe-lower-to-cpu"],
    ["--moe-fp8-weight-inputs"],
]


def gpu_pipelines(toolkit):
    """moe-opt pipelines through the whole GPU lowering (kernels, the
    generated grouped GEMMs, ptxas from `toolkit`), forward and backward,
    also FP8-placed (blockwise; tensorwise with FP8 weight inputs)."""
    lower = "moe-lower-to-gpu{toolkit=%s gemm=%s}"
    fp8 = ("moe-generate-vjp,moe-fp8-placement{recipe=blockwise},",
           "moe-generate-vjp,moe-fp8-placement{recipe=tensorwise},moe-fp8-weight-inputs,")
    return [["--pass-pipeline=builtin.module(%s%s)" % (pre, lower % (toolkit, gemm))]
            for pre in ("", "moe-generate-vjp,") + fp8 for gemm in ("auto", "generated")]

# Sources of ir cases, relative to the source root; '// -----' splits a file.
IR_SOURCES = ["examples/*.mlir", "test/e2e/*/*.mlir", "test/Dialect/ops.mlir",
              "test/e2e/fp8/Inputs/*.mlir", "test/Transforms/fp8-weight-inputs.mlir"]

ELEMENT_TYPES = ["bf16", "f16", "f32", "f64", "i1", "i8", "i32", "i64",
                 "index", "f8E4M3FN", "f8E5M2", "f8E8M0FNU", "complex<f32>",
                 "none", "tf32"]
INTERESTING_INTS = [0, 1, -1, 2, 3, 4, 7, 8, 9, 16, 63, 64, 65, 127, 128,
                    255, 256, 1023, 1 << 16, (1 << 31) - 1, 1 << 31,
                    (1 << 32) + 1, (1 << 63) - 1, -(1 << 63)]
INTERESTING_FLOATS = ["0.0", "-0.0", "-1.0", "1.0", "0.5", "2.0", "1.0e+300",
                      "-1.0e+300", "1.0e-300", "0x7FF8000000000000",
                      "0x7FF0000000000000", "0xFFF0000000000000"]
INTERESTING_DIMS = [0, 1, 2, 3, 5, 7, 13, 31, 33, 37, 127, 129, 1 << 20,
                    (1 << 31) + 1, 1 << 40]


# --------------------------------------------------------------------------
# ir mutations: each takes (rng, text, vocab) and returns the new text, or
# None when it found nothing to change.

def _pick_match(rng, pattern, text, flags=0):
    matches = list(re.finditer(pattern, text, flags))
    return rng.choice(matches) if matches else None


def _replace_span(text, start, end, new):
    return text[:start] + new + text[end:]


def mutate_int_attr(rng, text, vocab):
    # Mostly an attribute's value ("k = 2 : i64", "k 2" of a custom form),
    # else any integer literal that is not part of a name, a shape or a float.
    m = None
    if rng.random() < 0.7:
        m = _pick_match(rng, r"(?<=\w = )-?\d+(?= : i\d+)|(?<=\b[a-z_] )\d+\b", text)
    if not m:
        m = _pick_match(rng, r"(?<![\w%#.x@-])-?\d+(?![\w.x])", text)
    if not m:
        return None
    old = int(m.group(0))
    if rng.random() < 0.6:
        new = rng.choice([0, 1, 2, 3, 4, 5, 6, 8, old + 1, old - 1, old * 2])
    else:
        new = rng.choice(INTERESTING_INTS + [-old])
    return _replace_span(text, m.start(), m.end(), str(new))


def mutate_float_attr(rng, text, vocab):
    m = _pick_match(rng, r"(?<![\w%])-?\d+\.\d+(?:e[+-]?\d+)?", text)
    if not m:
        return None
    return _replace_span(text, m.start(), m.end(), rng.choice(INTERESTING_FLOATS))


def mutate_enum(rng, text, vocab):
    m = _pick_match(rng, r"#moe<(\w+)\s+(\w+)>", text)
    if m and rng.random() < 0.7:
        value = rng.choice(vocab["enum_values"] + ["bogus", ""])
        if rng.random() < 0.2:
            return _replace_span(text, m.start(1), m.end(1),
                                 rng.choice(vocab["enum_kinds"] + ["nope"]))
        return _replace_span(text, m.start(2), m.end(2), value)
    # A bare keyword in a custom assembly (moe.topk softmax ..., k 2, ...).
    m = _pick_match(rng, r"\b(" + "|".join(map(re.escape, vocab["enum_values"]))
                    + r")\b", text)
    if not m:
        return None
    return _replace_span(text, m.start(), m.end(),
                         rng.choice(vocab["enum_values"] + ["bogus"]))


_SHAPED = r"(tensor|memref|vector)<([^<>]*(?:<[^<>]*>)?[^<>]*)>"


def _split_shape(body):
    """'64x32xbf16' -> (['64', '32'], 'bf16'); None if it is not a plain shape."""
    parts = body.split("x")
    dims = []
    while len(parts) > 1 and re.fullmatch(r"\d+|\?", parts[0]):
        dims.append(parts.pop(0))
    return dims, "x".join(parts)


def _join_shape(dims, elem):
    return "x".join(list(dims) + [elem])


def mutate_shape(rng, text, vocab):
    shapes = list(re.finditer(_SHAPED, text))
    if not shapes:
        return None
    m = rng.choice(shapes)
    dims, elem = _split_shape(m.group(2))
    if rng.random() < 0.5 and dims:
        # The same dimension size everywhere: keeps the program consistent
        # more often, so that the mutation reaches the passes.
        old = rng.choice(dims)
        if old == "?":
            return None
        new = str(rng.choice(INTERESTING_DIMS + [1, 2, 3, 5, 6, 9, int(old) + 1,
                                                 max(int(old) - 1, 0)]))

        def subst(sm):
            d, e = _split_shape(sm.group(2))
            d = [new if x == old else x for x in d]
            return "%s<%s>" % (sm.group(1), _join_shape(d, e))
        return re.sub(_SHAPED, subst, text)
    op = rng.choice(["dim", "drop", "add", "dynamic", "swap"])
    dims = list(dims)
    if op == "dim" and dims:
        i = rng.randrange(len(dims))
        dims[i] = str(rng.choice(INTERESTING_DIMS))
    elif op == "drop" and dims:
        dims.pop(rng.randrange(len(dims)))
    elif op == "add":
        dims.insert(rng.randrange(len(dims) + 1), str(rng.choice(INTERESTING_DIMS)))
    elif op == "dynamic" and dims:
        dims[rng.randrange(len(dims))] = "?"
    elif op == "swap" and len(dims) >= 2:
        i, j = rng.sample(range(len(dims)), 2)
        dims[i], dims[j] = dims[j], dims[i]
    else:
        return None
    new = "%s<%s>" % (m.group(1), _join_shape(dims, elem))
    return _replace_span(text, m.start(), m.end(), new)


def mutate_element_type(rng, text, vocab):
    shapes = list(re.finditer(_SHAPED, text))
    if not shapes:
        return None
    m = rng.choice(shapes)
    dims, elem = _split_shape(m.group(2))
    new_elem = rng.choice(ELEMENT_TYPES)
    if rng.random() < 0.4:
        # Every shaped type of this element type.
        def subst(sm):
            d, e = _split_shape(sm.group(2))
            return "%s<%s>" % (sm.group(1), _join_shape(d, new_elem if e == elem else e))
        return re.sub(_SHAPED, subst, text)
    return _replace_span(text, m.start(), m.end(),
                         "%s<%s>" % (m.group(1), _join_shape(dims, new_elem)))


def _code_lines(text):
    return [i for i, line in enumerate(text.split("\n"))
            if line.strip() and not line.strip().startswith("//")]


def mutate_delete_line(rng, text, vocab):
    lines = text.split("\n")
    code = _code_lines(text)
    if not code:
        return None
    del lines[rng.choice(code)]
    return "\n".join(lines)


def mutate_duplicate_line(rng, text, vocab):
    lines = text.split("\n")
    code = _code_lines(text)
    if not code:
        return None
    i = rng.choice(code)
    lines.insert(rng.choice([i, i + 1, rng.randrange(len(lines) + 1)]), lines[i])
    return "\n".join(lines)


def mutate_operand(rng, text, vocab):
    # Operand uses: an SSA name after '=' or '(' or ',' on an op line.
    uses = list(re.finditer(r"(?<=[ (,])%[\w#]+", text))
    if not uses:
        return None
    m = rng.choice(uses)
    op = rng.choice(["delete", "duplicate", "other"])
    if op == "delete":
        start, end = m.start(), m.end()
        if text[end:end + 2] == ", ":
            end += 2
        elif text[start - 2:start] == ", ":
            start -= 2
        return _replace_span(text, start, end, "")
    if op == "duplicate":
        return _replace_span(text, m.start(), m.end(), m.group(0) + ", " + m.group(0))
    names = sorted(set(re.findall(r"%[\w#]+", text)))
    return _replace_span(text, m.start(), m.end(), rng.choice(names))


def mutate_op_name(rng, text, vocab):
    m = _pick_match(rng, r"\bmoe\.[\w.]+", text)
    if not m:
        return None
    return _replace_span(text, m.start(), m.end(), rng.choice(vocab["op_names"]))


def mutate_delete_attr(rng, text, vocab):
    m = _pick_match(rng, r"\b\w+ = [^,{}]+?(?:, |(?=\}))", text)
    if not m:
        return None
    return _replace_span(text, m.start(), m.end(), "")


def mutate_truncate(rng, text, vocab):
    if not text:
        return None
    return text[:rng.randrange(len(text))]


IR_MUTATIONS = [
    (mutate_int_attr, 4), (mutate_float_attr, 1), (mutate_enum, 3),
    (mutate_shape, 4), (mutate_element_type, 3), (mutate_delete_line, 2),
    (mutate_duplicate_line, 2), (mutate_operand, 3), (mutate_op_name, 2),
    (mutate_delete_attr, 2), (mutate_truncate, 1),
]


def mutate_ir(rng, text, vocab):
    names = []
    for _ in range(rng.choice([1, 1, 1, 1, 2, 3])):
        fns, weights = zip(*IR_MUTATIONS)
        for _attempt in range(8):
            fn = rng.choices(fns, weights)[0]
            new = fn(rng, text, vocab)
            if new is not None and new != text:
                text = new
                names.append(fn.__name__[len("mutate_"):])
                break
    return text, names


def load_ir_corpus(src_root):
    import glob
    chunks = []
    for pattern in IR_SOURCES:
        for path in sorted(glob.glob(os.path.join(src_root, pattern))):
            with open(path) as f:
                parts = re.split(r"^// -----\s*$", f.read(), flags=re.M)
            rel = os.path.relpath(path, src_root)
            for i, part in enumerate(parts):
                # RUN/CHECK comments mean nothing to the tools; drop them so
                # that mutations land on code.
                code = "\n".join(l for l in part.split("\n")
                                 if not l.lstrip().startswith("//"))
                if "moe." in code:
                    chunks.append(("%s#%d" % (rel, i), code))
    text = "\n".join(c for _, c in chunks)
    vocab = {
        "enum_kinds": sorted(set(re.findall(r"#moe<(\w+)\s", text))),
        "enum_values": sorted(set(re.findall(r"#moe<\w+\s+(\w+)>", text))),
        "op_names": sorted(set(re.findall(r"\bmoe\.[a-z_.]+[a-z_]", text))),
    }
    return chunks, vocab


# --------------------------------------------------------------------------
# json mutations of an artifact's metadata.

def _json_paths(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _json_paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _json_paths(v, path + (i,))


def _json_get(root, path):
    for p in path:
        root = root[p]
    return root


JSON_VALUES = [None, True, False, 0, -1, 1, 3, 2 ** 31, 2 ** 63 - 1, 2 ** 64,
               -2 ** 63, 1.5, -0.0, 1e308, "", "x", "../x", "a/b", "bf16",
               "f32", "i64", "i1", "f8E4M3FN", "input", "output", "residual",
               "cotangent", "gradient", "weight", "in", "out", "cpu", "sm_90a",
               [], [0], [1, 2], [2 ** 40, 2 ** 40], [-1], {}, {"a": 1}]


def mutate_json(rng, text):
    """Returns (new text, mutation name)."""
    if rng.random() < 0.1:
        if rng.random() < 0.5:
            return text[:rng.randrange(len(text))], "truncate"
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("{}[]\",:0-\\\x00\xff") + text[i + 1:], "byte"
    root = json.loads(text)
    nodes = [(p, v) for p, v in _json_paths(root) if p]
    path, value = rng.choice(nodes)
    parent = _json_get(root, path[:-1])
    key = path[-1]
    ops = ["replace", "delete", "nudge"]
    if isinstance(value, list):
        ops += ["pop", "duplicate", "swap", "empty"]
    op = rng.choice(ops)
    if op == "replace":
        parent[key] = rng.choice(JSON_VALUES)
    elif op == "delete":
        del parent[key]
    elif op == "nudge":
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            parent[key] = rng.choice(JSON_VALUES)
        elif isinstance(value, str):
            parent[key] = value + rng.choice(["_", "x", "0"]) if value else "a"
        else:
            parent[key] = rng.choice([value + 1, value - 1, value * 2, 0,
                                      2 ** 62, value + 0.5])
    elif op == "pop" and value:
        value.pop(rng.randrange(len(value)))
    elif op == "duplicate" and value:
        i = rng.randrange(len(value))
        value.insert(i, json.loads(json.dumps(value[i])))
    elif op == "swap" and len(value) >= 2:
        i, j = rng.sample(range(len(value)), 2)
        value[i], value[j] = value[j], value[i]
    else:
        parent[key] = []
    return json.dumps(root, indent=1), "%s %s" % (op, "/".join(map(str, path)))


# --------------------------------------------------------------------------
# npy mutations of an input file.

NPY_DESCRS = ["<f2", "<f4", "<f8", "<i1", "|i1", "<i4", "<i8", "|u1", "|b1",
              ">f4", "<c8", "<u8", "<f16", "=f4", "<V4", "O", "", "<f4 "]


# Integer values an index input should never hold: negative, one past a
# small dimension, and the extremes of i32.
INTERESTING_INDEX_VALUES = [-1, -2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 1 << 16, (1 << 30),
                            (1 << 31) - 1, -(1 << 31), -(1 << 31) + 1]


def mutate_npy(rng, data, op=None):
    """Returns (new bytes, mutation name); `op` picks the mutation."""
    prefix, header, payload = npy.split(data)
    op = op or rng.choice(["descr", "shape", "fortran", "header_text", "header_len",
                           "version", "magic", "truncate", "extend", "values",
                           "values", "v2"])
    if op == "descr":
        header = re.sub(r"'descr': '[^']*'", "'descr': '%s'" % rng.choice(NPY_DESCRS),
                        header)
        return npy.frame(header.rstrip(), payload), op
    if op == "shape":
        dims = re.search(r"'shape': \(([^)]*)\)", header).group(1)
        ds = [d.strip() for d in dims.split(",") if d.strip()]
        choice = rng.choice(["dim", "drop", "add", "empty", "garbage"])
        if choice == "dim" and ds:
            ds[rng.randrange(len(ds))] = str(rng.choice(INTERESTING_DIMS + [-1, 2 ** 63]))
        elif choice == "drop" and ds:
            ds.pop()
        elif choice == "add":
            ds.append(str(rng.choice([1, 2, 0])))
        elif choice == "garbage":
            ds = [rng.choice(["x", "1.5", "None", "(2", "9" * 30])]
        else:
            ds = []
        shape = ", ".join(ds) + ("," if len(ds) == 1 else "")
        header = re.sub(r"'shape': \([^)]*\)", "'shape': (%s)" % shape, header)
        return npy.frame(header.rstrip(), payload), "shape " + choice
    if op == "fortran":
        return npy.frame(header.replace("False", "True").rstrip(), payload), op
    if op == "header_text":
        h = header.rstrip()
        i = rng.randrange(len(h))
        h = h[:i] + rng.choice(["", "'", "{", "}", "(", ",", ":", "\x00",
                                "'bogus': 1, "]) + h[i + rng.randrange(2):]
        return npy.frame(h, payload), op
    if op == "header_len":
        n = rng.choice([0, 1, len(header) - 1, len(header) + 1, 0xFFFF])
        return prefix[:8] + struct.pack("<H", n) + data[10:], op
    if op == "version":
        return data[:6] + bytes([rng.choice([0, 2, 3, 4, 255])]) + data[7:], op
    if op == "magic":
        i = rng.randrange(6)
        return data[:i] + b"\x00" + data[i + 1:], op
    if op == "truncate":
        return data[:rng.randrange(len(data))], op
    if op == "extend":
        return data + b"\x00" * rng.choice([1, 2, 4, 64]), op
    if op == "v2":
        return npy.frame(header.rstrip(), payload, version=2), op
    descr = re.search(r"'descr': '([^']*)'", header).group(1)
    if descr == "<i4" and payload:
        # A valid file with out-of-range, negative or huge integers.
        out = bytearray(payload)
        count = len(out) // 4
        for _ in range(rng.choice([1, 2, count])):
            i = rng.randrange(count) * 4
            out[i:i + 4] = struct.pack("<i", rng.choice(INTERESTING_INDEX_VALUES))
        return prefix + header.encode("latin1") + bytes(out), "ints"
    # A valid file with NaN, +-inf, huge and tiny values in the payload.
    if descr not in ("<f4", "<f8") or not payload:
        return data[:rng.randrange(len(data))], "truncate"
    size = 4 if descr == "<f4" else 8
    fmt = "<f" if size == 4 else "<d"
    out = bytearray(payload)
    specials = [float("nan"), float("inf"), -float("inf"), 3.0e38, -3.0e38, 1e-45, 0.0]
    for _ in range(rng.choice([1, 3, len(out) // size])):
        i = rng.randrange(len(out) // size) * size
        out[i:i + size] = struct.pack(fmt, rng.choice(specials))
    return prefix + header.encode("latin1") + bytes(out), "values"


# --------------------------------------------------------------------------
# running tools and classifying what they did.

def run_tool(argv, timeout, cwd, env):
    start = time.monotonic()
    # A session of its own, so that a hang is ended with everything it
    # started (moe-runner may run moe-compile).
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
        return "hang", err.decode("utf-8", "replace"), time.monotonic() - start
    err = err.decode("utf-8", "replace")
    return classify(p.returncode, err, argv), err, time.monotonic() - start


VALGRIND_ERROR_EXIT = 99


def classify(rc, err, argv):
    if rc < 0 or CRASH_PATTERNS.search(err):
        return "crash"
    if os.path.basename(argv[0]) == "valgrind" and rc == VALGRIND_ERROR_EXIT:
        return "crash"
    if rc == 0:
        return "ok"
    tool = os.path.basename(argv[0])
    if tool == "valgrind" or tool == "moe-runner":
        return "diagnostic" if RUNNER_ERROR.search(err) else "unlocated"
    return "diagnostic" if LOCATED_ERROR.search(err) else "unlocated"


def only_function(text, name):
    """moe-opt's printed module `text` without its top-level functions other
    than @name."""
    out, keep = [], True
    for line in text.splitlines(keepends=True):
        if line.startswith("  func.func @"):
            keep = line.startswith("  func.func @%s(" % name)
        if keep:
            out.append(line)
        if line.rstrip("\n") == "  }":
            keep = True
    return "".join(out)


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.bin = os.path.abspath(args.bin_dir)
        self.work = os.path.abspath(args.work)
        self.env = dict(os.environ)
        # allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons slab memory
        # in the instrumented copies of its inline code and not in the
        # uninstrumented Debian libraries, which then trip over it.
        self.env["ASAN_OPTIONS"] = ("detect_leaks=0:allocator_may_return_null=1:"
                                    "allow_user_poisoning=0:handle_abort=1:"
                                    + os.environ.get("ASAN_OPTIONS", ""))
        self.env["UBSAN_OPTIONS"] = ("print_stacktrace=1:halt_on_error=1:"
                                     + os.environ.get("UBSAN_OPTIONS", ""))
        self.env["MOE_CACHE_DIR"] = os.path.join(self.work, "cache")
        # Multi-rank runs (the data x expert parallel base): a mutation that
        # leaves ranks waiting fails fast instead of at the 60 s default.
        self.env["MOE_COMM_TIMEOUT_S"] = "10"
        self.opt_pipelines = list(OPT_PIPELINES)
        if args.gpu_toolkit:
            self.opt_pipelines += gpu_pipelines(args.gpu_toolkit)
        self.chunks, self.vocab = load_ir_corpus(args.src_root)
        self.bases = []

    def tool(self, name):
        return os.path.join(self.bin, name)

    # Artifacts whose .json and .npy inputs json and npy cases mutate: the
    # small example's forward and backward, its backward alone (so that its
    # integer residuals, indices, rows and group sizes, come from files and
    # not from the forward), a router VJP, the entries with integer inputs
    # (valid ones written here) as cpu loops and as the GPU schedules' loops,
    # the small example partitioned over a [2, 2] grid (data x expert
    # parallelism: split_axes / partial_axes in its metadata, run with
    # --ranks 4; json cases only), plus --base-sources.
    def prepare_bases(self):
        base_dir = os.path.join(self.work, "base")
        os.makedirs(base_dir, exist_ok=True)
        src = lambda rel: os.path.join(self.args.src_root, rel)
        small_vjp = os.path.join(base_dir, "small-vjp.mlir")
        router_vjp = os.path.join(base_dir, "router-vjp.mlir")
        subprocess.run([self.tool("moe-opt"), src("examples/small.mlir"), "--moe-generate-vjp",
                        "-o", small_vjp], check=True, env=self.env)
        subprocess.run([self.tool("moe-opt"), src("test/runner/Inputs/router-vjp.mlir"),
                        "--moe-generate-vjp", "-o", router_vjp], check=True, env=self.env)
        rows = npy.pack("<i4", [3, 2], [2, 0, 3, 1, 5, 4])
        experts = npy.pack("<i4", [3, 2], [2, 0, 3, 1, 1, 0])
        sizes = npy.pack("<i4", [4], [2, 0, 3, 1])
        index_inputs = {"combine/rows.npy": rows, "combine_grad/rows.npy": rows,
                        "permute_rows/rows.npy": rows,
                        "permute/indices.npy": experts, "aux_loss/indices.npy": experts,
                        "grouped_matmul/sizes.npy": sizes,
                        "grouped_weight_grad/sizes.npy": sizes}
        index_source = src("test/fuzz/Inputs/index-inputs.mlir")
        sources = [("small-vjp", small_vjp, {}, []), ("router-vjp", router_vjp, {}, []),
                   ("index-inputs", index_source, index_inputs, []),
                   ("index-inputs-gpu-schedules", index_source, index_inputs,
                    ["--gpu-schedules"])]
        for rel in self.args.base_sources:
            sources.append((os.path.splitext(os.path.basename(rel))[0], src(rel), {}, []))
        grid = os.path.join(base_dir, "small-2x2.mlir")
        with open(src("examples/small.mlir")) as f, open(grid, "w") as out:
            out.write("shard.grid @ep(shape = 2x2)\n" + f.read())
        dpep = os.path.join(base_dir, "small-dpep.mlir")
        subprocess.run([self.tool("moe-opt"), grid, "--moe-expert-parallel=axis=1 data-axes=0",
                        "--moe-generate-vjp", "-o", dpep], check=True, env=self.env)
        sources.append(("small-dpep", dpep, {}, []))
        self.add_bases(base_dir, sources)
        # The backward alone, given the inputs the chained run above dumped.
        with open(small_vjp) as f:
            bwd_only = os.path.join(base_dir, "small-bwd-only.mlir")
            with open(bwd_only, "w") as out:
                out.write(only_function(f.read(), "moe_layer_bwd"))
        dumped = os.path.join(base_dir, "small-vjp-dump", "moe_layer_bwd")
        given = {}
        for name in sorted(os.listdir(dumped)):
            with open(os.path.join(dumped, name), "rb") as f:
                given["moe_layer_bwd/" + name] = f.read()
        self.add_bases(base_dir, [("small-bwd-only", bwd_only, given, []),
                                  ("small-bwd-only-gpu-schedules", bwd_only, given,
                                   ["--gpu-schedules"])])

    def add_bases(self, base_dir, sources):
        """Compiles and runs (name, source, given files, moe-compile flags)."""
        for name, source, given, flags in sources:
            stem = os.path.join(base_dir, name)
            given_dir = stem + "-given"
            for rel, data in given.items():
                os.makedirs(os.path.dirname(os.path.join(given_dir, rel)), exist_ok=True)
                with open(os.path.join(given_dir, rel), "wb") as f:
                    f.write(data)
            subprocess.run([self.tool("moe-compile"), source, "--target=cpu", "--quiet",
                            "-o", stem] + flags, check=True, env=self.env)
            with open(stem + ".json") as f:
                spec = json.load(f)
            ranks = 1
            for grid in spec.get("grids", []):
                for size in grid["shape"]:
                    ranks *= size
            if ranks > 1:
                # Checked to run; its inputs are not mutated (npy cases
                # take one-rank bases).
                subprocess.run([self.tool("moe-runner"), stem, "--ranks", str(ranks), "--device",
                                "cpu", "--iters", "1", "--warmup", "0"],
                               check=True, env=self.env, stdout=subprocess.DEVNULL)
                self.bases.append((name, stem, None, [], ranks))
                continue
            dump = stem + "-dump"
            subprocess.run([self.tool("moe-runner"), stem, "--device", "cpu", "--iters", "1",
                            "--warmup", "0", "--dump", dump]
                           + (["--inputs", given_dir] if given else []),
                           check=True, env=self.env, stdout=subprocess.DEVNULL)
            entries = []
            for e in spec["entries"]:
                inputs = [a["name"] for a in e["args"] if a["io"] == "in"]
                ints = [a["name"] for a in e["args"] if a["io"] == "in" and a["dtype"] == "i32"]
                if inputs:
                    entries.append((e["name"], inputs, ints))
            self.bases.append((name, stem, dump, entries, 1))

    def make_case(self, index):
        rng = random.Random("%d/%d" % (self.args.seed, index))
        kind = rng.choices(["ir", "json", "npy"], self.args.mix)[0]
        case_dir = os.path.join(self.work, "cases", str(index))
        shutil.rmtree(case_dir, ignore_errors=True)
        os.makedirs(case_dir)
        return rng, kind, case_dir

    def run_case(self, index):
        rng, kind, case_dir = self.make_case(index)
        runs = []  # (outcome, argv, stderr, seconds)
        if kind == "ir":
            what = self.ir_case(rng, case_dir, runs)
        elif kind == "json":
            what = self.json_case(rng, case_dir, runs)
        else:
            what = self.npy_case(rng, case_dir, runs)
        worst = max(runs, key=lambda r: SEVERITY[r[0]])
        return kind, what, worst, case_dir

    def run(self, argv, case_dir, runs):
        outcome, err, secs = run_tool(argv, self.args.timeout, case_dir, self.env)
        runs.append((outcome, argv, err, secs))
        return outcome

    def ir_case(self, rng, case_dir, runs):
        name, text = rng.choice(self.chunks)
        text, mutations = mutate_ir(rng, text, self.vocab)
        path = os.path.join(case_dir, "case.mlir")
        with open(path, "w") as f:
            f.write(text)
        if rng.random() < self.args.compile_fraction:
            stem = os.path.join(case_dir, "art")
            outcome = self.run([self.tool("moe-compile"), path, "--target=cpu", "--quiet",
                                "-o", stem], case_dir, runs)
            steps = "moe-compile"
            if outcome == "ok" and self.runnable(stem + ".json"):
                self.run([self.tool("moe-runner"), stem, "--device", "cpu", "--iters", "1",
                          "--warmup", "0"], case_dir, runs)
                steps += " + moe-runner"
        else:
            pipeline = rng.choice(self.opt_pipelines)
            self.run([self.tool("moe-opt"), path] + pipeline + ["-o", os.devnull],
                     case_dir, runs)
            steps = "moe-opt " + " ".join(pipeline)
        return "%s [%s] %s" % (name, ", ".join(mutations), steps)

    def runnable(self, json_path):
        """Artifacts small enough to run in a case (at most 256 MiB of buffers)."""
        sizes = {"f64": 8, "i64": 8, "f32": 4, "i32": 4, "bf16": 2, "f16": 2}
        with open(json_path) as f:
            spec = json.load(f)
        for e in spec["entries"]:
            total = 0
            for a in e["args"]:
                n = sizes.get(a["dtype"], 1)
                for d in a["shape"]:
                    n *= d
                total += n
            if total > (256 << 20):
                return False
        return True

    def json_case(self, rng, case_dir, runs):
        name, stem, _, _, ranks = rng.choice(self.bases)
        with open(stem + ".json") as f:
            text, mutation = mutate_json(rng, f.read())
        art = os.path.join(case_dir, name)
        with open(art + ".json", "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        os.symlink(stem + ".so", art + ".so")
        spread = ["--ranks", str(ranks)] if ranks > 1 else []
        self.run([self.tool("moe-runner"), art, "--device", "cpu", "--iters", "1",
                  "--warmup", "0"] + spread, case_dir, runs)
        return "%s.json [%s] moe-runner%s" % (name, mutation, " " + " ".join(spread) if spread else "")

    def npy_case(self, rng, case_dir, runs):
        name, stem, dump, entries, _ = rng.choice([b for b in self.bases if b[3]])
        entry, inputs, ints = rng.choice(entries)
        inputs_dir = os.path.join(case_dir, "inputs")
        os.makedirs(inputs_dir)
        for arg in inputs:
            src = os.path.join(dump, entry, arg + ".npy")
            if os.path.exists(src):
                shutil.copy(src, os.path.join(inputs_dir, arg + ".npy"))
        present = sorted(os.listdir(inputs_dir))
        int_present = [n + ".npy" for n in ints if n + ".npy" in present]
        index_values = bool(int_present) and rng.random() < 0.5
        victim = rng.choice(int_present if index_values else present)
        path = os.path.join(inputs_dir, victim)
        with open(path, "rb") as f:
            data, mutation = mutate_npy(rng, f.read(), "values" if index_values else None)
        with open(path, "wb") as f:
            f.write(data)
        runner = [self.tool("moe-runner")]
        if index_values and self.args.valgrind_runner:
            runner = ["valgrind", "-q", "--error-exitcode=%d" % VALGRIND_ERROR_EXIT,
                      os.path.abspath(self.args.valgrind_runner)]
        self.run(runner + [stem, "--entry", entry, "--inputs", inputs_dir,
                           "--device", "cpu", "--iters", "1", "--warmup", "0"], case_dir, runs)
        return "%s/%s/%s [%s] moe-runner --inputs" % (name, entry, victim, mutation)

    def keep_failure(self, index, kind, what, worst, case_dir):
        outcome, argv, err, _ = worst
        kept = os.path.join(self.work, "failures", str(index))
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(case_dir, kept, symlinks=True)
        with open(os.path.join(kept, "stderr.txt"), "w") as f:
            f.write(err)
        with open(os.path.join(kept, "repro.sh"), "w") as f:
            f.write("#!/bin/sh\n# %s case %d: %s\ncd %s && %s\n" % (
                outcome, index, what, case_dir, " ".join(map(_quote, argv))))
        return kept


def _quote(s):
    return s if re.fullmatch(r"[\w./=+,:-]+", s) else "'" + s.replace("'", "'\\''") + "'"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin-dir", required=True, help="directory with moe-opt, "
                    "moe-compile and moe-runner (e.g. build-asan/bin)")
    ap.add_argument("--src-root", default=os.path.dirname(os.path.dirname(here)))
    ap.add_argument("--work", required=True, help="scratch directory")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="index of the first case")
    ap.add_argument("--only", type=int, action="append", help="run case N only")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per tool run")
    ap.add_argument("--mix", type=float, nargs=3, default=[0.6, 0.2, 0.2],
                    metavar=("IR", "JSON", "NPY"), help="weights of the case kinds")
    ap.add_argument("--compile-fraction", type=float, default=0.15,
                    help="share of ir cases that go through moe-compile and "
                         "moe-runner instead of moe-opt")
    ap.add_argument("--base-sources", nargs="*",
                    default=["test/e2e/router/topk-group-limited.mlir"],
                    help="more .mlir files whose artifacts json/npy cases mutate")
    ap.add_argument("--valgrind-runner", metavar="PATH",
                    help="a moe-runner without sanitizers (and without DWARF 5 debug "
                         "information, which valgrind 3.19 cannot read) to run the npy "
                         "cases with out-of-range integers under valgrind")
    ap.add_argument("--gpu-toolkit", metavar="DIR",
                    help="a CUDA toolkit (ptxas): ir cases may also go through "
                         "moe-lower-to-gpu (gemm=auto and generated, forward and "
                         "after moe-generate-vjp) up to the cubin")
    ap.add_argument("--fail-on-unlocated", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line per case")
    args = ap.parse_args()

    fuzzer = Fuzzer(args)
    os.makedirs(fuzzer.work, exist_ok=True)
    fuzzer.prepare_bases()
    indices = args.only or range(args.first, args.first + args.cases)
    counts = {k: {o: 0 for o in OUTCOMES} for k in ("ir", "json", "npy")}
    failures = []
    start = time.monotonic()
    for index in indices:
        kind, what, worst, case_dir = fuzzer.run_case(index)
        outcome = worst[0]
        counts[kind][outcome] += 1
        if args.verbose:
            first = next((l for l in worst[2].splitlines() if "error" in l), "")
            print("case %d: %s: %s (%.1f s)%s" % (index, outcome, what, worst[3],
                                                 "\n  " + first[:200] if first else ""),
                  flush=True)
        if outcome in ("crash", "hang", "unlocated"):
            kept = fuzzer.keep_failure(index, kind, what, worst, case_dir)
            first = next((l for l in worst[2].splitlines()
                          if CRASH_PATTERNS.search(l) or "error" in l), "")
            print("%s: case %d: %s\n  %s\n  kept in %s" % (
                outcome.upper(), index, what, first.strip()[:300], kept), flush=True)
            failures.append(outcome)
        shutil.rmtree(case_dir, ignore_errors=True)
    total = {o: sum(counts[k][o] for k in counts) for o in OUTCOMES}
    n = sum(total.values())
    print("fuzz: seed %d, %d cases in %.0f s" % (args.seed, n, time.monotonic() - start))
    for k in ("ir", "json", "npy"):
        print("  %-4s %5d: %s" % (k, sum(counts[k].values()),
                                  ", ".join("%s %d" % (o, counts[k][o]) for o in OUTCOMES)))
    print("fuzz: %s" % ", ".join("%s %d" % (o, total[o]) for o in OUTCOMES))
    bad = total["crash"] + total["hang"]
    if args.fail_on_unlocated:
        bad += total["unlocated"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

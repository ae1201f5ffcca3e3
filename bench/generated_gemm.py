#!/usr/bin/env python3
"""The expert GEMMs alone: the compiler-generated grouped GEMM kernels
(convert-grouped-matmul-to-nvgpu) against the cuBLASLt path and
torch._grouped_mm, on the DESIGN.md shapes, forward, dgrad and wgrad,
balanced and skewed group sizes, next to the same run's dense bf16 ceiling.

  python3 bench/generated_gemm.py entries OUT.mlir
      (where MLIR is) writes one entry per shape, GEMM and pass:
      <gemm>_<pass>_<shape>, gemm fc1 ([R, H] -> [R, F]: gate or up) or fc2
      ([R, F] -> [R, H]: down), R = T * K, with the weight w[E, Kd, N]:
        fwd    c[R, N]      = a[R, Kd] . w[g]          (grouped_matmul, kn)
        dgrad  da[R, Kd]    = dc[R, N] . w[g]^T        (grouped_matmul, nk)
        wgrad  dw[E, Kd, N] = a[rows of g]^T . dc[..]  (grouped_weight_grad)
      compile it twice with moe-compile --target=sm_90a --gemm=generated /
      --gemm=cublaslt.
  python3 bench/generated_gemm.py entries --fp8 tensorwise|blockwise OUT.mlir
      the same entries with FP8 operands as the generated FP8 kernel reads
      them (quantized beforehand, both K-major: the weight stored
      [E, N, Kd] for fwd, [E, Kd, N] for dgrad; for wgrad the activations
      transposed, a^T [Kd, R] and dc^T [N, R], {transposed_operands}; e4m3,
      dc e5m2) and their scales (rank 0, or a [R, Kd/128] and w per
      128 x 128 block; wgrad: a^T [Kd, R/128], dc^T [N, R/128]).
  python3 bench/generated_gemm.py run --runner R --generated A --cublaslt B
      [--variant NAME=ARTIFACT ...]
      --out DIR [--iters 20] [--warmup 3] [--passes fwd,dgrad,wgrad]
      [--shapes NAME,...] [--fp8-tensorwise A8] [--fp8-blockwise B8]
      (on the GPU machine) writes the group sizes (peers.group_sizes: equal,
      or Zipf(1.2)) as moe-runner inputs, times both artifacts' entries
      (moe-runner's median, same random a and b), times torch._grouped_mm on
      the same sizes and the dense 8192^3 bf16 torch.matmul ceiling (at the
      start and the end), prints a table and writes DIR/generated_gemm.json.
      With the FP8 artifacts, their entries are timed too, next
      to the same run's dense FP8 ceiling (torch._scaled_mm, e4m3 8192^3).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import npy  # noqa: E402
from peers import SHAPES, group_sizes  # noqa: E402

GEMMS = ("fc1", "fc2")
FP8_KINDS = ("fp8-tensorwise", "fp8-blockwise")
PASSES = ("fwd", "dgrad", "wgrad")


def gemm_dims(gemm, H, F):
    """(K, N) of a forward GEMM: fc1 maps H to F, fc2 F to H."""
    return (H, F) if gemm == "fc1" else (F, H)


def entry_name(gemm, pas, shape):
    return "%s_%s_%s" % (gemm, pas, shape.replace("-", "_"))


def entry_lines(entry, pas, R, kd, n, E):
    """One entry of pass `pas` with the weight w[E, Kd, N]."""
    s = "tensor<%dxi32>" % E
    w = "tensor<%dx%dx%dxbf16>" % (E, kd, n)
    rows = lambda cols: "tensor<%dx%dxbf16>" % (R, cols)  # noqa: E731
    if pas == "fwd":
        x, y, c, op, attr = rows(kd), w, rows(n), "grouped_matmul", ""
    elif pas == "dgrad":
        # w[g] is [Kd, N]: as nk, N' = Kd outputs and K' = N reduced.
        x, y, c, op = rows(n), w, rows(kd), "grouped_matmul"
        attr = " {weight_layout = #moe<weight_layout nk>}"
    else:
        x, y, c, op, attr = rows(kd), rows(n), w, "grouped_weight_grad", ""
    return ["func.func @%s(%%x: %s, %%y: %s, %%sizes: %s {moe.name = \"sizes\"}) -> %s {"
            % (entry, x, y, s, c),
            "  %%e = tensor.empty() : %s" % c,
            "  %%c = moe.%s %%x, %%y, %%sizes outs(%%e)%s : %s, %s, %s -> %s"
            % (op, attr, x, y, s, c),
            "  return %%c : %s" % c,
            "}"]


def fp8_entry_lines(entry, pas, R, kd, n, E, recipe):
    """One FP8 entry on pre-quantized K-major operands."""
    cdiv = lambda a: (a + 127) // 128  # noqa: E731
    s = "tensor<%dxi32>" % E
    if pas == "wgrad":  # dw[g] = a^T[:, rows of g] . dc^T[:, rows of g]^T
        x = "tensor<%dx%dxf8E4M3FN>" % (kd, R)
        y = "tensor<%dx%dxf8E5M2>" % (n, R)
        c = "tensor<%dx%dx%dxbf16>" % (E, kd, n)
        if recipe == "tensorwise":
            sx = sy = "tensor<f32>"
        else:
            sx = "tensor<%dx%dxf32>" % (kd, cdiv(R))
            sy = "tensor<%dx%dxf32>" % (n, cdiv(R))
        return ["func.func @%s(%%x: %s, %%y: %s, %%sizes: %s {moe.name = \"sizes\"}, "
                "%%sx: %s, %%sy: %s) -> %s {" % (entry, x, y, s, sx, sy, c),
                "  %%e = tensor.empty() : %s" % c,
                "  %%c = moe.grouped_weight_grad %%x, %%y, %%sizes scales(%%sx, %%sy) "
                "outs(%%e) {transposed_operands} : %s, %s, %s, %s, %s -> %s"
                % (x, y, s, sx, sy, c),
                "  return %%c : %s" % c,
                "}"]
    if pas == "fwd":  # c[R, N] = x[R, Kd] . w[g], w stored [E, N, Kd]
        x_t, red, out = "f8E4M3FN", kd, n
    else:  # da[R, Kd] = dc[R, N] . w[g]^T, w[E, Kd, N] read as nk
        x_t, red, out = "f8E5M2", n, kd
    x = "tensor<%dx%dx%s>" % (R, red, x_t)
    w = "tensor<%dx%dx%dxf8E4M3FN>" % (E, out, red)
    c = "tensor<%dx%dxbf16>" % (R, out)
    if recipe == "tensorwise":
        sx = sw = "tensor<f32>"
    else:
        sx = "tensor<%dx%dxf32>" % (R, cdiv(red))
        sw = "tensor<%dx%dx%dxf32>" % (E, cdiv(out), cdiv(red))
    return ["func.func @%s(%%x: %s, %%w: %s, %%sizes: %s {moe.name = \"sizes\"}, "
            "%%sx: %s, %%sw: %s) -> %s {" % (entry, x, w, s, sx, sw, c),
            "  %%e = tensor.empty() : %s" % c,
            "  %%c = moe.grouped_matmul %%x, %%w, %%sizes scales(%%sx, %%sw) outs(%%e) "
            "{weight_layout = #moe<weight_layout nk>} : %s, %s, %s, %s, %s -> %s"
            % (x, w, s, sx, sw, c),
            "  return %%c : %s" % c,
            "}"]


def write_entries(path, fp8=None):
    lines = ["// Generated by bench/generated_gemm.py entries: the expert GEMMs of",
             "// the DESIGN.md shapes, forward, dgrad and wgrad, one entry each."]
    for name, T, H, F, E, K in SHAPES:
        R = T * K
        for gemm in GEMMS:
            kd, n = gemm_dims(gemm, H, F)
            for pas in PASSES:
                if not fp8:
                    lines += entry_lines(entry_name(gemm, pas, name), pas, R, kd, n, E)
                else:
                    lines += fp8_entry_lines(entry_name(gemm, pas, name), pas, R, kd, n,
                                             E, fp8)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_i32(path, values):
    npy.write(path, "<i4", [len(values)], values)


def run_ours(runner, artifact, inputs, entries, iters, warmup, log):
    cmd = [runner, artifact, "--device", "gpu", "--inputs", inputs, "--iters", str(iters),
           "--warmup", str(warmup), "--json"]
    for e in entries:
        cmd += ["--entry", e]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    log.write(" ".join(cmd) + "\n" + p.stderr + "\n")
    if p.returncode != 0:
        raise RuntimeError("moe-runner failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
    return {e["name"]: e for e in json.loads(p.stdout)["entries"]}


def torch_timings(cases, iters, warmup):
    import torch
    dev = torch.device("cuda")

    from dense_ceilings import median_ms as median_of

    def median_ms(fn):
        return median_of(fn, iters, warmup)

    def ceiling():
        a = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
        b = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
        ms = median_ms(lambda: torch.matmul(a, b))
        return 2 * 8192 ** 3 / ms / 1e9

    result = {"ceiling_start_tflops": ceiling(), "cases": {}, "errors": {}}
    for key, (pas, R, kd, n, sizes) in cases.items():
        # Weights stored [E, N, Kd] (out, in) as torch modules keep them: the
        # forward passes them transposed (a K-major B operand, the fastest
        # layout for torch._grouped_mm), dgrad as they are.
        w = torch.randn(len(sizes), n, kd, device=dev, dtype=torch.bfloat16)
        offs = torch.cumsum(torch.tensor(sizes, device=dev, dtype=torch.int32), 0,
                            dtype=torch.int32)
        a = torch.randn(R, kd, device=dev, dtype=torch.bfloat16)
        dc = torch.randn(R, n, device=dev, dtype=torch.bfloat16)
        if pas == "fwd":
            fn = lambda: torch._grouped_mm(a, w.transpose(1, 2), offs=offs)  # noqa: E731
        elif pas == "dgrad":
            fn = lambda: torch._grouped_mm(dc, w, offs=offs)  # noqa: E731
        else:
            # dw[g] = a[rows of g]^T . dc[rows of g] (ragged K), as autograd
            # calls it.
            fn = lambda: torch._grouped_mm(a.t(), dc, offs=offs)  # noqa: E731
        try:
            result["cases"][key] = median_ms(fn)
        except Exception as e:  # a formulation this torch lacks: reported
            result["errors"][key] = repr(e)[:300]
        del w, a, dc
    result["ceiling_end_tflops"] = ceiling()
    try:
        a8 = torch.randn(8192, 8192, device=dev).to(torch.float8_e4m3fn)
        b8 = torch.randn(8192, 8192, device=dev).to(torch.float8_e4m3fn).t()
        one = torch.ones((), device=dev)
        ms = median_ms(lambda: torch._scaled_mm(a8, b8, one, one, out_dtype=torch.bfloat16))
        result["fp8_ceiling_tflops"] = 2 * 8192 ** 3 / ms / 1e9
    except Exception as e:
        result["errors"]["fp8_ceiling"] = repr(e)[:300]
    result["device"] = torch.cuda.get_device_name()
    return result


def run(args):
    os.makedirs(args.out, exist_ok=True)
    inputs = {r: os.path.join(args.out, "inputs-" + r) for r in ("balanced", "skewed")}
    cases = {}
    for name, T, H, F, E, K in SHAPES:
        if args.shapes and name not in args.shapes.split(","):
            continue
        R = T * K
        for routing, skewed in (("balanced", False), ("skewed", True)):
            if routing not in args.routings.split(","):
                continue
            sizes = group_sizes(R, E, skewed)
            for gemm in GEMMS:
                for pas in args.passes.split(","):
                    entry = entry_name(gemm, pas, name)
                    os.makedirs(os.path.join(inputs[routing], entry), exist_ok=True)
                    write_i32(os.path.join(inputs[routing], entry, "sizes.npy"), sizes)
                    kd, n = gemm_dims(gemm, H, F)
                    cases[(entry, routing)] = (pas, R, kd, n, sizes)
    entries = sorted({e for e, _ in cases})
    fp8_entries = entries
    artifacts = [("generated", args.generated, entries)]
    variants = []
    for spec in args.variant:
        name, _, path = spec.partition("=")
        if not name or not path or name in ("generated", "cublaslt", "torch") + FP8_KINDS:
            sys.exit("generated_gemm.py: --variant wants NAME=ARTIFACT with a new NAME, got %r"
                     % spec)
        variants.append(name)
        artifacts.append((name, path, entries))
    if args.cublaslt:
        artifacts.append(("cublaslt", args.cublaslt, entries))
    for kind in FP8_KINDS:
        artifact = getattr(args, kind.replace("-", "_"))
        if artifact and fp8_entries:
            artifacts.append((kind, artifact, fp8_entries))
    ours = {}
    with open(os.path.join(args.out, "runner.log"), "w") as log:
        for kind, artifact, names in artifacts:
            for routing in args.routings.split(","):
                print("== %s %s" % (kind, routing), flush=True)
                ours[(kind, routing)] = run_ours(args.runner, artifact, inputs[routing], names,
                                                 args.iters, args.warmup, log)
    try:
        peers = torch_timings({"%s/%s" % k: v for k, v in cases.items()}, args.iters, args.warmup)
    except Exception as e:  # no torch, no _grouped_mm: the table says so
        peers = {"error": repr(e), "cases": {}}
    rows = []
    for (entry, routing), (pas, R, kd, n, sizes) in sorted(cases.items()):
        flops = 2.0 * R * kd * n
        row = dict(entry=entry, routing=routing, pass_=pas, R=R, Kd=kd, N=n,
                   groups=len(sizes), max_group=max(sizes))
        kinds = [k for k in ("generated", "cublaslt") + FP8_KINDS + tuple(variants)
                 if (k, routing) in ours]
        for kind in kinds:
            e = ours[(kind, routing)].get(entry)
            row[kind + "_ms"] = e["median_ms"] if e else None
            row[kind + "_samples_ms"] = e.get("samples_ms") if e else None
        row["torch_ms"] = peers["cases"].get("%s/%s" % (entry, routing))
        for kind in kinds + ["torch"]:
            ms = row.get(kind + "_ms")
            row[kind + "_tflops"] = flops / ms / 1e9 if ms else None
        rows.append(row)
    ceiling = peers.get("ceiling_start_tflops")
    print("device: %s; dense bf16 8192^3 ceiling %s TFLOP/s (start) %s (end); "
          "dense FP8 (e4m3) %s TFLOP/s" % (
              peers.get("device", "?"), fmt(ceiling), fmt(peers.get("ceiling_end_tflops")),
              fmt(peers.get("fp8_ceiling_tflops"))))
    print("%-28s %-8s %9s %7s %6s %9s %7s %9s %7s" % (
        "gemm", "routing", "gen ms", "TF/s", "%ceil", "cublt ms", "TF/s", "torch ms", "TF/s"))
    for r in rows:
        print("%-28s %-8s %9s %7s %6s %9s %7s %9s %7s" % (
            r["entry"], r["routing"], fmt(r["generated_ms"], 3), fmt(r["generated_tflops"]),
            fmt(100 * r["generated_tflops"] / ceiling if ceiling else None),
            fmt(r.get("cublaslt_ms"), 3), fmt(r.get("cublaslt_tflops")), fmt(r["torch_ms"], 3),
            fmt(r["torch_tflops"])))
    if variants:
        print("%-28s %-8s %9s %7s" % ("gemm", "routing", "gen ms", "TF/s")
              + "".join(" %16s %7s" % (v + " ms", "TF/s") for v in variants))
        for r in rows:
            print("%-28s %-8s %9s %7s" % (r["entry"], r["routing"], fmt(r["generated_ms"], 3),
                                          fmt(r["generated_tflops"]))
                  + "".join(" %16s %7s" % (fmt(r.get(v + "_ms"), 3), fmt(r.get(v + "_tflops")))
                            for v in variants))
    fp8_rows = [r for r in rows if any(r.get(k + "_ms") for k in FP8_KINDS)]
    if fp8_rows:
        print("%-28s %-8s %9s %7s %9s %7s %9s %7s" % (
            "gemm (FP8)", "routing", "bf16 ms", "TF/s", "tw ms", "TF/s", "bw ms", "TF/s"))
        for r in fp8_rows:
            print("%-28s %-8s %9s %7s %9s %7s %9s %7s" % (
                r["entry"], r["routing"], fmt(r["generated_ms"], 3),
                fmt(r["generated_tflops"]), fmt(r.get("fp8-tensorwise_ms"), 3),
                fmt(r.get("fp8-tensorwise_tflops")), fmt(r.get("fp8-blockwise_ms"), 3),
                fmt(r.get("fp8-blockwise_tflops"))))
    with open(os.path.join(args.out, "generated_gemm.json"), "w") as f:
        json.dump(dict(peers={k: v for k, v in peers.items() if k != "cases"}, rows=rows,
                       iters=args.iters, warmup=args.warmup), f, indent=1)


def fmt(v, digits=0):
    if v is None:
        return "-"
    return ("%." + str(digits) + "f") % v if digits else "%.0f" % v


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("entries")
    e.add_argument("out")
    e.add_argument("--fp8", choices=("tensorwise", "blockwise"),
                   help="FP8 entries for this scaling recipe")
    r = sub.add_parser("run")
    r.add_argument("--runner", required=True)
    r.add_argument("--generated", required=True)
    r.add_argument("--cublaslt", help="the --gemm=cublaslt artifact (optional)")
    r.add_argument("--variant", action="append", default=[], metavar="NAME=ARTIFACT",
                   help="another artifact of the same entries (e.g. other moe-compile "
                        "--gemm-* options), timed in the same run and tabled next to "
                        "--generated (repeatable)")
    r.add_argument("--fp8-tensorwise", help="artifact of entries --fp8 tensorwise")
    r.add_argument("--fp8-blockwise", help="artifact of entries --fp8 blockwise")
    r.add_argument("--out", required=True)
    r.add_argument("--iters", type=int, default=20)
    r.add_argument("--warmup", type=int, default=3)
    r.add_argument("--passes", default=",".join(PASSES),
                   help="comma-separated subset of fwd,dgrad,wgrad")
    r.add_argument("--routings", default="balanced,skewed",
                   help="comma-separated subset of balanced,skewed")
    r.add_argument("--shapes", default="",
                   help="comma-separated DESIGN.md shape names (default: all)")
    args = p.parse_args()
    if args.cmd == "entries":
        write_entries(args.out, args.fp8)
    else:
        run(args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The FP8-against-bf16 table from what bench/fp8-layer.sh left in OUTDIR:
{bf16,fp8}-<shape>-<routing>.json (moe-runner --json) and
ceilings-{start,end}.json (bench/dense_ceilings.py); with fp8v-<shape>-<routing>.json
(FP8_VARIANT_ART), the variant's forward, backward, total and speedup over
bf16 as four more columns, labelled $FP8_VARIANT_LABEL.

  python3 bench/report_fp8.py OUTDIR

A row per shape and routing: forward, backward and forward+backward ms of
each, FP8's speedup over bf16 on forward+backward (above 1: FP8 faster), and
each one's TFLOP/s (DESIGN.md's 18*T*K*H*F) as a share of its own dense
ceiling (bf16 against torch.matmul bf16, FP8 against torch._scaled_mm e4m3,
both 8192^3, the larger of the start and end readings). The FP8 layers' weight
quantization, once a step, is listed below the table, not in it. A row per
(shape, routing) with a result file of either kind; a missing or failed run
is a "missing" cell, never a crash.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layer_common as lc  # noqa: E402
from report_layer import load  # noqa: E402


def medians(out, kind, shape, routing):
    d = load(os.path.join(out, "%s-%s-%s.json" % (kind, shape, routing)))
    if not d:
        return None
    return {e.get("name"): e.get("median_ms") for e in d.get("entries", [])}


def times(m):
    """(forward, backward, forward+backward) ms of one kind's medians, None where missing."""
    fwd = m and m.get("moe_layer_fwd")
    bwd = m and m.get("moe_layer_bwd")
    return fwd, bwd, (fwd + bwd if fwd and bwd else None)


def cells(ts):
    return ["%.3f" % v if v else "missing" for v in ts]


def speedup(base, other):
    return "%.2fx" % (base / other) if base and other else "?"


def main():
    out = sys.argv[1]
    ceil = {}
    for key in ("bf16_tflops", "fp8_e4m3_tflops"):
        vals = [c[key] for c in (load(os.path.join(out, "ceilings-%s.json" % w))
                                 for w in ("start", "end")) if c and c.get(key)]
        ceil[key] = max(vals) if vals else None
    device = next((c["device"] for c in (load(os.path.join(out, "ceilings-%s.json" % w))
                                        for w in ("start", "end")) if c and c.get("device")), "?")
    print("device: %s; dense 8192^3 ceilings: bf16 %s TFLOP/s, FP8 e4m3 %s TFLOP/s"
          % (device, *("%.0f" % v if v else "?" for v in (ceil["bf16_tflops"], ceil["fp8_e4m3_tflops"]))))
    print()
    variant = any(n.startswith("fp8v-") and n.endswith(".json") for n in os.listdir(out))
    label = os.environ.get("FP8_VARIANT_LABEL", "FP8 variant")
    extra = (" %s fwd | %s bwd | %s total | %s vs bf16 |" % ((label,) * 4)) if variant else ""
    print("| shape | routing | bf16 fwd | bf16 bwd | bf16 total | FP8 fwd | FP8 bwd | FP8 total "
          "| FP8 vs bf16 | bf16 % ceil | FP8 % FP8 ceil |" + extra)
    print("|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" * 4 if variant else ""))
    weights = []
    present = set()
    for name in os.listdir(out):
        for kind in ("bf16", "fp8", "fp8v"):
            for shape in lc.SHAPES:
                prefix = "%s-%s-" % (kind, shape)
                if name.startswith(prefix) and name.endswith(".json"):
                    present.add((shape, name[len(prefix):-len(".json")]))
    routings = sorted({r for _, r in present}, key=lambda r: (r != "balanced", r))
    for shape in lc.SHAPES:
        for routing in routings:
            if (shape, routing) not in present:
                continue
            b, f = medians(out, "bf16", shape, routing), medians(out, "fp8", shape, routing)
            bt, ft = times(b), times(f)
            totals = {"bf16": bt[2], "fp8": ft[2]}
            share = []
            flops = None
            for name, key in (("bf16", "bf16_tflops"), ("fp8", "fp8_e4m3_tflops")):
                t = totals[name]
                if t and ceil[key] and flops is None:
                    flops = lc.flops(lc.layer_config(shape), "fwd+bwd")
                share.append("%.1f%%" % (100 * flops / (t * 1e-3) / 1e12 / ceil[key])
                             if t and ceil[key] else "?")
            tail = ""
            if variant:
                vt = times(medians(out, "fp8v", shape, routing))
                tail = " %s | %s |" % (" | ".join(cells(vt)), speedup(bt[2], vt[2]))
            print("| %s | %s | %s | %s | %s |%s" % (shape, routing, " | ".join(cells(bt) + cells(ft)),
                                                   speedup(bt[2], ft[2]), " | ".join(share), tail))
            if f and f.get("moe_layer_quantize_weights"):
                weights.append("%s %.3f ms" % (shape, f["moe_layer_quantize_weights"]))
    if weights:
        print()
        print("FP8 weight quantization once a step (moe_layer_quantize_weights, not in the table): "
              + ", ".join(weights))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Combines OUTDIR/ours.json, torch.json and jax.json (bench/run.sh) into one
table and OUTDIR/summary.json. Usage: python3 bench/report.py OUTDIR"""
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def main():
    out = sys.argv[1]
    ours = load(os.path.join(out, "ours.json"))
    torch = load(os.path.join(out, "torch.json")) or {}
    jax = load(os.path.join(out, "jax.json")) or {}
    if not ours:
        print("no ours.json: the benchmark did not finish")
        return 1
    ceil = max(ours["dense_tflops_start"], ours["dense_tflops_end"])
    tmap = {(r["shape"], r["routing"]): r for r in torch.get("results", [])}
    jmap = {(r["shape"], r["routing"]): r for r in jax.get("results", [])}

    print()
    print("Expert-FFN grouped GEMMs of one MoE layer (NOT the whole layer: no router,")
    print("permute, activation or combine); bf16 in/out, fp32 accumulation; median of "
          f"{ours['reps']} after {ours['warmup']} warm-up.")
    print(f"device: {ours['device']}; dense bf16 cuBLAS 8192^3 ceiling (same run): "
          f"{ours['dense_tflops_start']:.1f} (start) / {ours['dense_tflops_end']:.1f} (end) "
          f"TFLOP/s; % uses {ceil:.1f}")
    print(f"ours: {ours['impl']}, group sizes read from the device each call, "
          "matmuls spread over 4 auxiliary streams")
    if torch:
        print(f"torch: {torch.get('impl')} (torch {torch.get('torch_version')})")
    if jax:
        print(f"jax: {jax.get('impl')} (jax {jax.get('jax_version')}); "
              + "; ".join(jax.get("notes", [])) if jax.get("available") else
              f"jax: {jax.get('note')}")
    hdr = (f"{'shape':14s} {'routing':8s} {'fwd ms':>8s} {'TF/s':>6s} {'f+b ms':>8s} "
           f"{'TF/s':>6s} {'%ceil':>6s} {'torch f+b ms':>12s} {'vs torch':>8s} "
           f"{'jax f+b ms':>10s} {'vs jax':>7s}")
    print(hdr)
    print("-" * len(hdr))
    rows = []
    for r in ours["results"]:
        k = (r["shape"], r["routing"])
        flop = 2.0 * r["T"] * r["K"] * r["H"] * r["F"]
        f_tf = 3 * flop / r["fwd_ms"] / 1e9
        fb_tf = 9 * flop / r["fwdbwd_ms"] / 1e9
        t, j = tmap.get(k), jmap.get(k)
        if t and (t["min_group"], t["max_group"]) != (r["min_group"], r["max_group"]):
            print(f"warning: {k}: torch ran other group sizes")
        row = dict(shape=r["shape"], routing=r["routing"], fwd_ms=r["fwd_ms"], fwd_tflops=f_tf,
                   fwdbwd_ms=r["fwdbwd_ms"], fwdbwd_tflops=fb_tf, pct_ceiling=100 * fb_tf / ceil,
                   fwd_ms_host_sizes=r["fwd_ms_host_sizes"],
                   fwdbwd_ms_host_sizes=r["fwdbwd_ms_host_sizes"],
                   fwd_ms_1stream=r.get("fwd_ms_1stream"),
                   fwdbwd_ms_1stream=r.get("fwdbwd_ms_1stream"),
                   check_rel_l2=r["check_rel_l2"],
                   torch_fwd_ms=t["fwd_ms"] if t else None,
                   torch_fwdbwd_ms=t["fwdbwd_ms"] if t else None,
                   speedup_vs_torch_fwdbwd=t["fwdbwd_ms"] / r["fwdbwd_ms"] if t else None,
                   speedup_vs_torch_fwd=t["fwd_ms"] / r["fwd_ms"] if t else None,
                   jax_fwd_ms=j["fwd_ms"] if j else None,
                   jax_fwdbwd_ms=j["fwdbwd_ms"] if j else None,
                   speedup_vs_jax_fwdbwd=j["fwdbwd_ms"] / r["fwdbwd_ms"] if j else None)
        rows.append(row)

        def fmt(v, spec, width):
            return format(v, spec) if v is not None else "n/a".rjust(width)

        print(f"{r['shape']:14s} {r['routing']:8s} {r['fwd_ms']:8.3f} {f_tf:6.1f} "
              f"{r['fwdbwd_ms']:8.3f} {fb_tf:6.1f} {row['pct_ceiling']:5.1f}% "
              f"{fmt(row['torch_fwdbwd_ms'], '12.3f', 12)} "
              f"{fmt(row['speedup_vs_torch_fwdbwd'], '7.2f', 7)}{'x' if t else ' '} "
              f"{fmt(row['jax_fwdbwd_ms'], '10.3f', 10)} "
              f"{fmt(row['speedup_vs_jax_fwdbwd'], '6.2f', 6)}{'x' if j else ' '}")
    print("vs torch / vs jax: peer fwd+bwd time / ours (above 1: ours faster).")
    print("host-sizes variant (no device->host copy per call), fwd / fwd+bwd ms: " +
          ", ".join(f"{x['shape']}/{x['routing']} {x['fwd_ms_host_sizes']:.3f}/"
                    f"{x['fwdbwd_ms_host_sizes']:.3f}" for x in rows))
    if all(x["fwdbwd_ms_1stream"] is not None for x in rows):
        print("single-stream variant (MOERT_GPU_STREAMS=1), fwd / fwd+bwd ms: " +
              ", ".join(f"{x['shape']}/{x['routing']} {x['fwd_ms_1stream']:.3f}/"
                        f"{x['fwdbwd_ms_1stream']:.3f}" for x in rows))
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(dict(device=ours["device"], dense_tflops=ceil, ours_impl=ours["impl"],
                       torch_impl=torch.get("impl"), jax_impl=jax.get("impl"),
                       jax_notes=jax.get("notes") or jax.get("note"), rows=rows), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

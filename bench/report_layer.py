#!/usr/bin/env python3
"""One table and OUTDIR/layer.json from what bench/layer.sh left in OUTDIR:
ours-<shape>-<routing>.{json,status} (moe-runner --json; replay-* the same
replayed from CUDA graphs, a column when present), torch.json and
jax.json (layer_peers.py), ceiling.json (when torch could not measure it),
routing-<shape>-<routing>.json (make_routing_inputs.py), device.txt.

  python3 bench/report_layer.py OUTDIR

Rows: shape x routing x mode (fwd, fwd+bwd). ours fwd = median of entry
moe_layer; ours fwd+bwd = median(moe_layer_fwd) + median(moe_layer_bwd).
TFLOP/s from DESIGN.md's expert-FFN FLOPs (fwd 6*T*K*H*F, fwd+bwd
18*T*K*H*F) for every implementation; % of the dense bf16 8192^3 ceiling
(the larger of its start and end readings); "vs torch"/"vs jax" = peer time /
ours (above 1: ours faster). Missing pieces give a row note, never a crash.
"""
import glob
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layer_common as lc  # noqa: E402

MODES = ("fwd", "fwd+bwd")


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def ceiling(out, torch):
    vals, src = [], None
    if torch and torch.get("ceiling_tflops"):
        vals, src = torch["ceiling_tflops"], "torch.matmul bf16 8192^3 (torch peer, start/end)"
    else:
        c = load(os.path.join(out, "ceiling.json")) or {}
        if c.get("ceiling_tflops"):
            vals, src = c["ceiling_tflops"], "torch.matmul bf16 8192^3"
        elif "dense_tflops_start" in c:
            vals = [c["dense_tflops_start"], c["dense_tflops_end"]]
            src = "cuBLAS bf16 8192^3 (moe-grouped-gemm-bench, start/end)"
    vals = [v for v in vals if v]
    return (max(vals) if vals else None), vals, src


def ours_row(out, shape, routing, cfg, prefix="ours"):
    """{'fwd': {...}, 'fwd+bwd': {...}} or a reason string; prefix "replay"
    reads the run replayed from CUDA graphs."""
    base = os.path.join(out, f"{prefix}-{shape}-{routing}")
    status = read(base + ".status")
    if status is None:
        return "not run"
    if not status.startswith("ok"):
        return status
    d = load(base + ".json")
    if not d:
        return "failed: runner output is not JSON (see " + os.path.basename(base) + ".log)"
    ent = {e.get("name"): e for e in d.get("entries", [])}
    res = {}
    have = sorted(ent)
    if "moe_layer" in ent:
        e = ent["moe_layer"]
        res["fwd"] = dict(ms=e["median_ms"], samples_ms=e.get("samples_ms"),
                          artifact_flops=e.get("flops"))
    else:
        res["fwd"] = f"missing: entry moe_layer (artifact has {have})"
    if "moe_layer_fwd" in ent and "moe_layer_bwd" in ent:
        f, b = ent["moe_layer_fwd"], ent["moe_layer_bwd"]
        res["fwd+bwd"] = dict(ms=f["median_ms"] + b["median_ms"], fwd_part_ms=f["median_ms"],
                              bwd_part_ms=b["median_ms"], samples_ms=dict(
                                  moe_layer_fwd=f.get("samples_ms"),
                                  moe_layer_bwd=b.get("samples_ms")),
                              artifact_flops=(f.get("flops") or 0) + (b.get("flops") or 0),
                              residuals_from=b.get("residuals_from"))
    else:
        res["fwd+bwd"] = f"missing: entries moe_layer_fwd/_bwd (artifact has {have})"
    srcs = {}
    for e in d.get("entries", []):
        for i in e.get("inputs", []):
            srcs.setdefault(i["name"], i["source"])
    res["input_sources"] = srcs
    res["device"] = d.get("device")
    return res


def peer_map(p, name):
    if p is None:
        return {}, f"{name}: not run (no {name}.json)"
    m = {(r["shape"], r["routing"]): r for r in p.get("results", [])}
    note = p.get("note") if not p.get("available", True) else None
    return m, (f"{name}: {note}" if note else None)


def peer_cell(m, key, mode, default):
    r = m.get(key)
    if r is None:
        return None, default
    if "skipped" in r:
        return None, "skipped: " + r["skipped"]
    ms = r.get("fwd_ms" if mode == "fwd" else "fwdbwd_ms")
    return ms, None


def formulation_table(tmap, keys):
    """Each PyTorch formulation's time per row (layer_peers.py torch); the
    fastest is the table's "torch" column."""
    names = []
    for k in keys:
        for f in (tmap.get(k) or {}).get("formulations", {}):
            if f not in names:
                names.append(f)
    if not names:
        return
    print()
    print("PyTorch formulations (ms; * = fastest, reported as torch; - = skipped, reason in "
          "torch.json):")
    hdr = f"{'shape':13s} {'routing':8s} {'mode':7s} " + " ".join(f"{n:>10s}" for n in names)
    print(hdr)
    print("-" * len(hdr))
    for k in keys:
        r = tmap.get(k)
        if not r or not r.get("formulations"):
            continue
        for mode, key in (("fwd", "fwd"), ("fwd+bwd", "fwdbwd")):
            cells = []
            for n in names:
                ms = r["formulations"].get(n, {}).get(f"{key}_ms")
                mark = "*" if n == r.get(f"{key}_formulation") else " "
                cells.append(f"{ms:9.3f}{mark}" if ms is not None else f"{'-':>9s} ")
            print(f"{k[0]:13s} {k[1]:8s} {mode:7s} " + " ".join(cells))
    skipped = {}
    for k in keys:
        for n, fr in ((tmap.get(k) or {}).get("formulations") or {}).items():
            if "skipped" in fr:
                skipped.setdefault(f"{n}: {fr['skipped']}", []).append(f"{k[0]}/{k[1]}")
    for why, where in skipped.items():
        print(f"  {why[:200]} ({', '.join(where)})")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    out = sys.argv[1]
    torch, jax = load(os.path.join(out, "torch.json")), load(os.path.join(out, "jax.json"))
    tmap, tnote = peer_map(torch, "torch")
    jmap, jnote = peer_map(jax, "jax")
    ceil, ceil_vals, ceil_src = ceiling(out, torch)

    keys = set()
    for p in glob.glob(os.path.join(out, "ours-*.status")) + glob.glob(
            os.path.join(out, "routing-*.json")):
        stem = os.path.basename(p).split(".")[0].split("-", 1)[1]
        for r in ("balanced", "skewed"):
            if stem.endswith("-" + r):
                keys.add((stem[:-len(r) - 1], r))
    keys |= set(tmap) | set(jmap)
    order = {s: i for i, s in enumerate(lc.SHAPES)}
    keys = sorted(keys, key=lambda k: (order.get(k[0], 99), k[0], k[1]))

    notes, footnote_ids = [], {}

    def fn(reason):
        """Footnote marker for a long reason."""
        if reason not in footnote_ids:
            footnote_ids[reason] = len(footnote_ids) + 1
            notes.append(f"[{footnote_ids[reason]}] {reason}")
        return f"[{footnote_ids[reason]}]"

    device = read(os.path.join(out, "device.txt")) or "(no device.txt)"
    print()
    print("Whole MoE layer (router, permute, expert GEMMs, activation, combine, losses), bf16, "
          "fp32 router")
    print("device: " + " | ".join(device.splitlines()[:2]))
    print(f"ceiling: {ceil:.1f} TFLOP/s, {ceil_src}: " + " / ".join(f"{v:.1f}" for v in ceil_vals)
          if ceil else "ceiling: not measured (% column n/a)")
    if torch and torch.get("impl") and torch.get("available", True):
        print(f"torch {torch.get('torch_version')}: {torch['impl']}")
    if jax and jax.get("available"):
        print(f"jax {jax.get('jax_version')}: {jax.get('impl')}")
    for n in (tnote, jnote):
        if n:
            print(n)

    replays = bool(glob.glob(os.path.join(out, "replay-*.status")))
    hdr = (f"{'shape':13s} {'routing':8s} {'mode':7s} {'ours ms':>9s} {'TF/s':>6s} {'%ceil':>6s} "
           + (f"{'replay ms':>10s} " if replays else "")
           + f"{'torch ms':>9s} {'vs torch':>8s} {'jax ms':>9s} {'vs jax':>7s}")
    print(hdr)
    print("-" * len(hdr))
    rows, routing_info = [], {}
    for (shape, routing) in keys:
        try:
            cfg = lc.layer_config(shape)
        except Exception as e:  # noqa: BLE001
            print(f"{shape:13s} {routing:8s} cannot read examples/{shape}.mlir: {e}")
            continue
        ours = ours_row(out, shape, routing, cfg)
        replay = ours_row(out, shape, routing, cfg, "replay") if replays else None
        rinfo = load(os.path.join(out, f"routing-{shape}-{routing}.json"))
        routing_info[f"{shape}/{routing}"] = rinfo
        t_row, j_row = tmap.get((shape, routing)), jmap.get((shape, routing))
        if isinstance(ours, dict):
            xs = ours["input_sources"].get(cfg["arg_names"]["x"], "")
            if rinfo and ".npy" not in xs:
                fn(f"{shape}/{routing}: ours did not read x from the routing inputs ({xs})")
        if rinfo and t_row and t_row.get("loads"):
            tl = t_row["loads"]
            T_K = cfg["T"] * cfg["K"]
            tv = 0.5 * sum(abs(a - b) for a, b in zip(tl, rinfo["loads"])) / T_K
            if tv > 0.01:
                fn(f"{shape}/{routing}: torch's routing differs from make_routing_inputs' "
                   f"(total-variation distance {tv:.3f})")
        for mode in MODES:
            fl = lc.flops(cfg, mode)
            row = dict(shape=shape, routing=routing, mode=mode, flops=fl)
            o = ours.get(mode) if isinstance(ours, dict) else ours
            cells = []
            if isinstance(o, dict):
                tf = fl / (o["ms"] * 1e-3) / 1e12
                row.update(ours_ms=o["ms"], ours_tflops=tf,
                           pct_ceiling=100 * tf / ceil if ceil else None, ours=o)
                if o.get("artifact_flops") and o["artifact_flops"] != fl:
                    fn(f"{shape} {mode}: the artifact counts {o['artifact_flops']:.4g} FLOPs, "
                       f"DESIGN.md {fl:.4g} (the table uses DESIGN.md's)")
                cells.append(f"{o['ms']:9.3f} {tf:6.1f} "
                             + (f"{row['pct_ceiling']:5.1f}%" if ceil else f"{'n/a':>6s}"))
            else:
                row["ours_missing"] = o
                word = o.split(":")[0].split(" ")[0] if o else "missing"
                cells.append(f"{(word + ' ' + fn(o)):>23s}")
            if replays:
                rp = replay.get(mode) if isinstance(replay, dict) else replay
                if isinstance(rp, dict):
                    row["replay_ms"] = rp["ms"]
                    cells.append(f"{rp['ms']:10.3f}")
                else:
                    row["replay_missing"] = rp
                    word = rp.split(":")[0].split(" ")[0] if rp else "missing"
                    cells.append(f"{(word + ' ' + fn('replay: ' + str(rp))):>10s}")
            for name, m, dflt in (("torch", tmap, tnote or "torch: not run"),
                                  ("jax", jmap, jnote or "jax: not run")):
                ms, why = peer_cell(m, (shape, routing), mode, dflt)
                pr = m.get((shape, routing)) or {}
                row[f"{name}_ms"] = ms
                row[f"{name}_samples_ms"] = pr.get("fwd_samples_ms" if mode == "fwd"
                                                   else "fwdbwd_samples_ms")
                if name == "torch" and pr.get("formulations"):
                    key = "fwd" if mode == "fwd" else "fwdbwd"
                    row["torch_formulation"] = pr.get(f"{key}_formulation")
                    row["torch_formulations_ms"] = {
                        f: fr.get(f"{key}_ms") for f, fr in pr["formulations"].items()}
                if ms is not None:
                    sp = ms / row["ours_ms"] if row.get("ours_ms") else None
                    row[f"speedup_vs_{name}"] = sp
                    cells.append(f"{ms:9.3f} " + (f"{sp:7.2f}x" if sp else f"{'n/a':>8s}"))
                else:
                    row[f"{name}_missing"] = why
                    word = "skipped" if why.startswith("skipped") else "n/a"
                    cells.append(f"{(word + ' ' + fn(why)):>18s}")
            rows.append(row)
            print(f"{shape:13s} {routing:8s} {mode:7s} " + " ".join(cells))
    if not keys:
        print("(nothing ran: no ours-*.status, routing-*.json, torch or jax results)")
    print("vs torch / vs jax: peer time / ours (above 1: ours faster); TF/s from 6 (fwd) or "
          "18 (fwd+bwd) *T*K*H*F.")
    formulation_table(tmap, keys)
    # Routing actually produced (from make_routing_inputs.py).
    rl = []
    for k, ri in routing_info.items():
        if ri:
            rl.append(f"{k} max/mean {ri['max_over_mean']:.2f}"
                      + (f" (tv to Zipf target {ri['tv_distance']:.3f})"
                         if ri["routing"] == "skewed" else ""))
    if rl:
        print("routing loads: " + "; ".join(rl))
    # DESIGN.md targets (layer, bf16, fwd+bwd).
    fb = [r for r in rows if r["mode"] == "fwd+bwd" and r.get("ours_ms")]
    vs = [r for r in fb if r.get("speedup_vs_torch")]
    if vs:
        met = [r for r in vs if r["speedup_vs_torch"] >= 1.5]
        print(f"target >=1.5x torch (fwd+bwd): met on {len(met)}/{len(vs)} rows "
              f"(min {min(r['speedup_vs_torch'] for r in vs):.2f}x)")
    big = [r for r in fb if r["shape"] in ("seed-test", "mixtral-8x7b") and r.get("pct_ceiling")]
    if big:
        print("target >=80% of ceiling on seed-test/mixtral fwd+bwd: "
              + ", ".join(f"{r['shape']}/{r['routing']} {r['pct_ceiling']:.0f}%" for r in big))
    for n in notes:
        print(n[:300])
    with open(os.path.join(out, "layer.json"), "w") as f:
        json.dump(dict(device=device, ceiling_tflops=ceil, ceiling_readings=ceil_vals,
                       ceiling_source=ceil_src,
                       torch=dict((k, v) for k, v in (torch or {}).items() if k != "results"),
                       jax=dict((k, v) for k, v in (jax or {}).items() if k != "results"),
                       flops="fwd 6*T*K*H*F, fwd+bwd 18*T*K*H*F (DESIGN.md)",
                       routing=routing_info, rows=rows, notes=notes), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

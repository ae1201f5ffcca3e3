#!/usr/bin/env python3
"""Writes the router inputs (x and the router weight, plus a zero expert bias
where the layer has one) of one benchmark shape as float32 .npy files, so that
our compiled layer (moe-runner --inputs DIR) and the PyTorch/JAX peers route
the same tokens to the same experts. numpy only.

  python3 bench/make_routing_inputs.py SHAPE {balanced|skewed} --out DIR
        [--seed N] [--zipf-s 1.2] [--json ROUTING.json] [--quiet]

Construction (H hidden, E experts): one random orthonormal basis gives E
columns O[H,E] and a unit vector u orthogonal to them; z ~ N(0,1)^[T,H].
  balanced: x = z, w = O.  Logits x.w = z.O are i.i.d. N(0,1) per token and
            expert, so every expert is equally likely (loads ~ T*K/E).
  skewed:   x = z - (z.u)u + c u  (c = 2: every token has the same component
            along u), w = O + u b^T / c.  Then the logits are exactly
            z.O + b: the same N(0,1) noise plus a per-expert offset b_e. b is
            calibrated on these tokens (fixed-point iteration through the
            layer's own router: score function, bias, group-limited top-k) so
            that the loads follow Zipf(s) over popularity ranks, capped so no
            expert is picked by more than 90% of tokens (a top-K router picks an
            expert at most once per token; the excess is spread over the rest
            in proportion). Ranks go to experts round-robin over expert groups
            where the router has groups, else expert e has rank e.
x is rounded to bf16 before writing (the values are exact in bf16, so every
consumer sees the same x), and the loads printed are recomputed from the
written x and w with numpy (float32 gate, the example's router): they are
what the runs get, up to near-ties in the GPU's gate accumulation order.
"""
import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layer_common as lc  # noqa: E402

C_SHIFT = 2.0


def bf16_round(a):
    """float32 -> nearest bf16 (round to nearest even), returned as float32."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    r = ((u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1)))
         & np.uint32(0xFFFF0000))
    return r.view(np.float32)


def calibrate(g, cfg, target, bias, iters=300, tol=0.004):
    """Offsets b[E] so that select(g + b) has loads ~ target * T * K."""
    T, E = g.shape
    K = cfg["K"]
    b = np.log(target * E)  # a start that is right for K = 1 softmax-like routing
    b -= b.mean()
    best = (np.inf, b.copy(), 0)
    eta = 1.0
    for it in range(iters):
        load = lc.loads_np(lc.select_np(g + b, cfg, bias), E) / (T * K)
        tv = 0.5 * np.abs(load - target).sum()
        if tv < best[0]:
            best = (tv, b.copy(), it)
        if tv < tol or it - best[2] > 40:  # converged, or no progress for 40 steps
            break
        b += eta * (np.log(target) - np.log(np.maximum(load, 0.25 / (T * K))))
        b -= b.mean()
        b = np.clip(b, -12, 12)
        if it in (100, 200):
            eta *= 0.5
    return best[1], best[0], it + 1


def histogram_lines(loads, T, K, target=None):
    E = len(loads)
    mean = T * K / E
    order = np.argsort(-loads, kind="stable")
    share = loads / (T * K)
    lines = []
    if E <= 16:
        lines.append("loads " + " ".join(f"e{e}:{loads[e]}" for e in range(E)))
    else:
        top = " ".join(f"e{e}:{loads[e]}" for e in order[:8])
        q = np.percentile(loads, [0, 25, 50, 75, 100])
        lines.append(f"hottest {top}")
        lines.append("quantiles min/25/50/75/max " + "/".join(f"{v:.0f}" for v in q))
    top10 = max(1, E // 10)
    s = (f"max/mean {loads.max() / mean:.2f}  min/mean {loads.min() / mean:.2f}  "
         f"hottest {top10} expert(s) take {100 * share[order[:top10]].sum():.1f}%  "
         f"empty {(loads == 0).sum()}")
    if target is not None:
        tv = 0.5 * np.abs(share - target).sum()
        tord = np.sort(target)[::-1]
        s += (f"  | target max/mean {tord[0] * E:.2f}, hottest {top10} "
              f"{100 * tord[:top10].sum():.1f}%, total-variation distance {tv:.3f}")
    lines.append(s)
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shape")
    ap.add_argument("routing", choices=["balanced", "skewed"])
    ap.add_argument("--out", required=True, help="directory for x.npy, router_weight.npy, bias.npy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--zipf-s", type=float, default=lc.ZIPF_S)
    ap.add_argument("--json", help="write the routing summary (loads, targets) here")
    ap.add_argument("--root", default=lc.ROOT, help="repository root (for examples/)")
    ap.add_argument("--quiet", action="store_true", help="one summary line only")
    args = ap.parse_args()

    t0 = time.time()
    cfg = lc.layer_config(args.shape, args.root)
    T, H, E, K = cfg["T"], cfg["H"], cfg["E"], cfg["K"]
    rng = np.random.default_rng([args.seed, E, H, T])
    Q, _ = np.linalg.qr(rng.standard_normal((H, E + 1)))
    O, u = Q[:, :E].astype(np.float32), Q[:, E].astype(np.float32)
    z = rng.standard_normal((T, H), dtype=np.float32)
    bias = np.zeros(E, np.float32) if cfg["has_bias"] else None

    target, note = None, ""
    if args.routing == "balanced":
        x, w = z, O
    else:
        target, _ = lc.zipf_targets(cfg, args.zipf_s)
        g = z @ O
        b, tv, its = calibrate(g.astype(np.float32), cfg, target, bias)
        note = f"calibrated in {its} iterations (tv {tv:.4f} before bf16)"
        del g
        proj = z @ u
        x = z + np.outer(C_SHIFT - proj, u).astype(np.float32)
        del z, proj
        w = (O + np.outer(u, b / C_SHIFT)).astype(np.float32)
    x = bf16_round(x)
    w = np.ascontiguousarray(w, dtype=np.float32)

    logits = x @ w  # float32 gate, as moe.gate
    idx = lc.select_np(logits, cfg, bias)
    loads = lc.loads_np(idx, E)
    del logits, idx

    os.makedirs(args.out, exist_ok=True)
    names = cfg["arg_names"]
    np.save(os.path.join(args.out, names["x"] + ".npy"), x)
    np.save(os.path.join(args.out, names["router_weight"] + ".npy"), w)
    if bias is not None:
        np.save(os.path.join(args.out, names["bias"] + ".npy"), bias)

    if target is None:
        target = np.full(E, 1.0 / E)
    lines = histogram_lines(loads, T, K, target if args.routing == "skewed" else None)
    tv = 0.5 * np.abs(loads / (T * K) - target).sum()
    head = (f"{args.shape} {args.routing}: E={E} K={K} {cfg['route']}"
            f"{' groups' if cfg['num_groups'] > 1 else ''}; "
            f"{'Zipf s=%g cap %g' % (args.zipf_s, lc.ZIPF_CAP) if args.routing == 'skewed' else 'uniform'}"
            f" target; {note}{'; ' if note else ''}{time.time() - t0:.1f} s")
    if args.quiet:
        print(f"{head}; {lines[-1]}")
    else:
        print(head)
        for line in lines:
            print("  " + line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(shape=args.shape, routing=args.routing, T=T, H=H, E=E, K=K,
                           seed=args.seed, zipf_s=args.zipf_s if args.routing == "skewed" else None,
                           cap=lc.ZIPF_CAP, loads=loads.tolist(), target_share=target.tolist(),
                           max_over_mean=float(loads.max() * E / (T * K)),
                           min_over_mean=float(loads.min() * E / (T * K)),
                           tv_distance=float(tv), files=sorted(os.listdir(args.out))), f)
    return 0


if __name__ == "__main__":
    sys.exit(main())

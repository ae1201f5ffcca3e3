#!/usr/bin/env python3
"""Peer timings for bench/grouped_gemm_bench: the same expert-FFN grouped GEMMs
(3 forward, 3 dgrad + 3 wgrad backward; bf16; same shapes and group sizes) in
PyTorch (`torch._grouped_mm`, or a loop of torch.mm per group where that is
unavailable, which the output then says) and JAX (`jax.lax.ragged_dot`, its
backward from jax.vjp under jit).

  python3 bench/peers.py torch --json OUT.json [--reps 30] [--warmup 5]
  python3 bench/peers.py jax   --json OUT.json [--budget SECONDS]

Only the grouped GEMMs are timed (no router, permute, activation, combine).
PyTorch: CUDA events around each repetition, median. JAX: host clock around
each (jitted) call with block_until_ready, median. Each JAX shape runs in its
own process with a time limit (a slow lowering is reported, not waited for).
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

SHAPES = [  # name, T, H, F, E, K (DESIGN.md)
    ("seed-test", 32768, 1024, 4096, 8, 2),
    ("mixtral-8x7b", 8192, 4096, 14336, 8, 2),
    ("qwen3-30b-a3b", 16384, 2048, 768, 128, 8),
    ("dsv3-1gpu", 4096, 7168, 2048, 256, 8),
]


def group_sizes(rows, E, skewed):
    """The same sizes as grouped_gemm_bench.cu: equal, or Zipf(1.2) with
    largest-remainder rounding (expert 0 the hottest)."""
    if not skewed:
        return [rows // E + (1 if e < rows % E else 0) for e in range(E)]
    w = [math.pow(e + 1, -1.2) for e in range(E)]
    total = 0.0
    for x in w:
        total += x
    s, frac = [], []
    for e in range(E):
        x = rows * w[e] / total
        s.append(int(math.floor(x)))
        frac.append(x - s[-1])
    order = sorted(range(E), key=lambda e: -frac[e])
    i, assigned = 0, sum(s)
    while assigned < rows:
        s[order[i % E]] += 1
        i += 1
        assigned += 1
    return s


# ---------------------------------------------------------------- PyTorch
def run_torch(args):
    import torch

    dev = torch.device("cuda")
    name = torch.cuda.get_device_name(0)
    have_gmm = hasattr(torch, "_grouped_mm")
    impl = "torch._grouped_mm"
    note = ""
    wgrad_copy = False
    if have_gmm:
        # Semantics check on a small case, all four call forms we use.
        try:
            g = torch.Generator(device=dev).manual_seed(1)
            sz = [5, 0, 11, 16]
            offs = torch.tensor(sz, device=dev).cumsum(0).to(torch.int32)
            a = torch.randn(32, 64, device=dev, generator=g).bfloat16()
            b = torch.randn(4, 64, 48, device=dev, generator=g).bfloat16()
            dc = torch.randn(32, 48, device=dev, generator=g).bfloat16()
            c = torch._grouped_mm(a, b, offs=offs)
            c2 = torch._grouped_mm(dc, b.transpose(-2, -1), offs=offs)
            try:
                db = torch._grouped_mm(a.t(), dc, offs=offs)
            except Exception as e:  # noqa: BLE001
                # Some versions want a row-major first operand for 2d x 2d.
                wgrad_copy = True
                note += f"wgrad on a transposed view refused ({type(e).__name__}); " \
                        "timed WITH a transposed copy of the first operand; "
                db = torch._grouped_mm(a.t().contiguous(), dc, offs=offs)
            o = 0
            err = 0.0
            for gi, m in enumerate(sz):
                if m:
                    ra, rdc = a[o:o + m].float(), dc[o:o + m].float()
                    err = max(err, (c[o:o + m].float() - ra @ b[gi].float()).norm().item()
                              / (ra @ b[gi].float()).norm().item())
                    err = max(err, (c2[o:o + m].float() - rdc @ b[gi].float().t()).norm().item()
                              / (rdc @ b[gi].float().t()).norm().item())
                    err = max(err, (db[gi].float() - ra.t() @ rdc).norm().item()
                              / (ra.t() @ rdc).norm().item())
                o += m
            torch.cuda.synchronize()
            if not err < 1e-2:
                raise RuntimeError(f"torch._grouped_mm self-check rel err {err:.3e}")
            note += f"self-check rel err {err:.2e}"
        except Exception as e:  # noqa: BLE001
            have_gmm = False
            note = f"torch._grouped_mm unusable here ({type(e).__name__}: {e}); "
    if not have_gmm:
        impl = "loop of torch.mm per group (torch._grouped_mm unavailable)"
    print(f"torch {torch.__version__} on {name}: {impl} {note}", flush=True)

    def rnd(*shape):
        return (torch.rand(*shape, device=dev, dtype=torch.float32) * 2 - 1).to(torch.bfloat16)

    def bench(fn):
        for _ in range(args.warmup):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(args.reps):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            e.synchronize()
            times.append(s.elapsed_time(e))
        return statistics.median(times), min(times)

    results = []
    for (sname, T, H, F, E, K) in SHAPES:
        if args.shapes and sname not in args.shapes.split(","):
            continue
        R = T * K
        for routing in ("balanced", "skewed"):
            sizes = group_sizes(R, E, routing == "skewed")
            offs = torch.tensor(sizes, device=dev, dtype=torch.int64).cumsum(0).to(torch.int32)
            X, Hh = rnd(R, H), rnd(R, F)
            Wg, Wu, Wd = rnd(E, H, F), rnd(E, H, F), rnd(E, F, H)
            dY, dG, dU = rnd(R, H), rnd(R, F), rnd(R, F)
            if have_gmm:
                gmm = torch._grouped_mm
                tr = (lambda t: t.t().contiguous()) if wgrad_copy else (lambda t: t.t())

                def fwd():
                    return (gmm(X, Wg, offs=offs), gmm(X, Wu, offs=offs), gmm(Hh, Wd, offs=offs))

                def bwd():
                    return (gmm(dY, Wd.transpose(-2, -1), offs=offs),
                            gmm(dG, Wg.transpose(-2, -1), offs=offs),
                            gmm(dU, Wu.transpose(-2, -1), offs=offs),
                            gmm(tr(X), dG, offs=offs),
                            gmm(tr(X), dU, offs=offs),
                            gmm(tr(Hh), dY, offs=offs))
            else:
                bounds = []
                o = 0
                for m in sizes:
                    bounds.append((o, o + m))
                    o += m

                def loop_fwd(a, w):
                    out = torch.empty(a.shape[0], w.shape[-1], device=dev, dtype=torch.bfloat16)
                    for gi, (lo, hi) in enumerate(bounds):
                        if hi > lo:
                            torch.mm(a[lo:hi], w[gi], out=out[lo:hi])
                    return out

                def loop_wgrad(a, dc):
                    out = torch.zeros(len(bounds), a.shape[1], dc.shape[1], device=dev,
                                      dtype=torch.bfloat16)
                    for gi, (lo, hi) in enumerate(bounds):
                        if hi > lo:
                            torch.mm(a[lo:hi].t(), dc[lo:hi], out=out[gi])
                    return out

                def fwd():
                    return (loop_fwd(X, Wg), loop_fwd(X, Wu), loop_fwd(Hh, Wd))

                def bwd():
                    return (loop_fwd(dY, Wd.transpose(-2, -1)), loop_fwd(dG, Wg.transpose(-2, -1)),
                            loop_fwd(dU, Wu.transpose(-2, -1)), loop_wgrad(X, dG),
                            loop_wgrad(X, dU), loop_wgrad(Hh, dY))

            def fwdbwd():
                fwd()
                bwd()

            f_ms, f_min = bench(fwd)
            fb_ms, fb_min = bench(fwdbwd)
            flop = 2.0 * T * K * H * F
            r = dict(shape=sname, routing=routing, T=T, H=H, F=F, E=E, K=K,
                     min_group=min(sizes), max_group=max(sizes),
                     fwd_ms=f_ms, fwd_min_ms=f_min, fwdbwd_ms=fb_ms, fwdbwd_min_ms=fb_min)
            results.append(r)
            print(f"torch {sname:14s} {routing:8s} fwd {f_ms:8.3f} ms {3 * flop / f_ms / 1e9:6.1f} TF/s"
                  f"  fwd+bwd {fb_ms:8.3f} ms {9 * flop / fb_ms / 1e9:6.1f} TF/s", flush=True)
            del X, Hh, Wg, Wu, Wd, dY, dG, dU
            torch.cuda.empty_cache()
    return dict(impl=impl, note=note, torch_version=torch.__version__, device=name,
                reps=args.reps, warmup=args.warmup, timing="CUDA events, median",
                results=results)


# ---------------------------------------------------------------- JAX
def run_jax_one(args):
    """One shape, both routings, in this process; prints one JSON line."""
    import jax
    import jax.numpy as jnp

    sname, T, H, F, E, K = [s for s in SHAPES if s[0] == args.one][0]
    R = T * K
    key = jax.random.PRNGKey(int.from_bytes(os.urandom(4), "little"))
    out = []
    for routing in ("balanced", "skewed"):
        sizes = group_sizes(R, E, routing == "skewed")
        gs = jnp.asarray(sizes, dtype=jnp.int32)
        keys = jax.random.split(key, 9)
        key = keys[8]

        def rnd(k, shape):
            return jax.random.uniform(k, shape, jnp.float32, -1.0, 1.0).astype(jnp.bfloat16)

        X, Hh = rnd(keys[0], (R, H)), rnd(keys[1], (R, F))
        Wg, Wu, Wd = rnd(keys[2], (E, H, F)), rnd(keys[3], (E, H, F)), rnd(keys[4], (E, F, H))
        dY, dG, dU = rnd(keys[5], (R, H)), rnd(keys[6], (R, F)), rnd(keys[7], (R, F))

        def f(x, hh, wg, wu, wd, gs):
            rd = jax.lax.ragged_dot
            return rd(x, wg, gs), rd(x, wu, gs), rd(hh, wd, gs)

        fwd = jax.jit(f)

        @jax.jit
        def fwdbwd(x, hh, wg, wu, wd, gs, dg, du, dy):
            outs, vjp = jax.vjp(lambda x, hh, wg, wu, wd: f(x, hh, wg, wu, wd, gs),
                                x, hh, wg, wu, wd)
            return outs, vjp((dg, du, dy))

        def bench(fn, *a):
            t0 = time.perf_counter()
            jax.block_until_ready(fn(*a))  # compile + first run
            first = time.perf_counter() - t0
            for _ in range(args.warmup):
                jax.block_until_ready(fn(*a))
            ts = []
            for _ in range(args.reps):
                t0 = time.perf_counter()
                jax.block_until_ready(fn(*a))
                ts.append((time.perf_counter() - t0) * 1e3)
            return statistics.median(ts), min(ts), first

        f_ms, f_min, f_first = bench(fwd, X, Hh, Wg, Wu, Wd, gs)
        fb_ms, fb_min, fb_first = bench(fwdbwd, X, Hh, Wg, Wu, Wd, gs, dG, dU, dY)
        out.append(dict(shape=sname, routing=routing, T=T, H=H, F=F, E=E, K=K,
                        fwd_ms=f_ms, fwd_min_ms=f_min, fwdbwd_ms=fb_ms, fwdbwd_min_ms=fb_min,
                        first_call_s=[f_first, fb_first]))
        del X, Hh, Wg, Wu, Wd, dY, dG, dU
    print("JSON " + json.dumps(dict(jax_version=jax.__version__,
                                    device=str(jax.devices()[0]), results=out)), flush=True)


def run_jax(args):
    try:
        import importlib.util
        if importlib.util.find_spec("jax") is None:
            return dict(impl="jax.lax.ragged_dot", available=False, note="jax not installed",
                        results=[])
    except Exception as e:  # noqa: BLE001
        return dict(impl="jax.lax.ragged_dot", available=False, note=str(e), results=[])
    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false")
    deadline = time.time() + args.budget
    results, notes, version, device = [], [], None, None
    for (sname, *_rest) in SHAPES:
        if args.shapes and sname not in args.shapes.split(","):
            continue
        left = deadline - time.time()
        if left < 20:
            notes.append(f"{sname}: skipped (JAX time budget of {args.budget:.0f} s spent)")
            continue
        cmd = [sys.executable, os.path.abspath(__file__), "jax-one", "--one", sname,
               "--reps", str(args.reps), "--warmup", str(args.warmup)]
        try:
            p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                               timeout=min(left, args.per_shape))
        except subprocess.TimeoutExpired:
            notes.append(f"{sname}: timed out after {min(left, args.per_shape):.0f} s")
            print(f"jax {sname}: timed out", flush=True)
            continue
        line = [l for l in p.stdout.splitlines() if l.startswith("JSON ")]
        if p.returncode != 0 or not line:
            lines = (p.stderr or p.stdout).strip().splitlines()
            err = [l for l in lines if "Error" in l or "FAILED" in l or "RESOURCE" in l]
            tail = (err or lines or ["(no output)"])[-1:]
            notes.append(f"{sname}: failed (rc {p.returncode}): {' | '.join(tail)}")
            print(f"jax {sname}: failed: {tail}", flush=True)
            continue
        d = json.loads(line[-1][5:])
        version, device = d["jax_version"], d["device"]
        for r in d["results"]:
            flop = 2.0 * r["T"] * r["K"] * r["H"] * r["F"]
            print(f"jax   {r['shape']:14s} {r['routing']:8s} fwd {r['fwd_ms']:8.3f} ms "
                  f"{3 * flop / r['fwd_ms'] / 1e9:6.1f} TF/s  fwd+bwd {r['fwdbwd_ms']:8.3f} ms "
                  f"{9 * flop / r['fwdbwd_ms'] / 1e9:6.1f} TF/s", flush=True)
            results.append(r)
    return dict(impl="jax.lax.ragged_dot (jit; backward via jax.vjp)", available=True,
                jax_version=version, device=device, reps=args.reps, warmup=args.warmup,
                timing="host clock around block_until_ready, median", notes=notes,
                results=results)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["torch", "jax", "jax-one"])
    ap.add_argument("--json")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--shapes", default="")
    ap.add_argument("--budget", type=float, default=240.0, help="JAX: total seconds")
    ap.add_argument("--per-shape", type=float, default=120.0, help="JAX: seconds per shape")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.mode == "jax-one":
        run_jax_one(args)
        return
    try:
        d = run_torch(args) if args.mode == "torch" else run_jax(args)
    except ImportError as e:
        d = dict(impl=args.mode, available=False, note=f"not installed: {e}", results=[])
        print(d["note"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(d, f, indent=1)


if __name__ == "__main__":
    main()

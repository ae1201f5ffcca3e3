#!/usr/bin/env python3
"""Whole-MoE-layer peers for bench/layer.sh: the layer of examples/<shape>.mlir
(parsed by layer_common.py: score function, bias, group-limited top-k,
normalize, scaling, activation, aux/z loss) written in PyTorch on
torch._grouped_mm and in JAX on jax.lax.ragged_dot, bf16 with an fp32 router,
timed forward and forward+backward on the routing inputs that
make_routing_inputs.py wrote (the same x and router weight our layer gets).

  python3 bench/layer_peers.py torch --inputs DIR --json OUT.json [--reps 20] [--warmup 3]
          [--shapes a,b] [--routings balanced,skewed] [--ceiling-reps 50]
  python3 bench/layer_peers.py jax   --inputs DIR --json OUT.json [--budget 150] [--per-shape 90]
  python3 bench/layer_peers.py ceiling --json OUT.json     (dense bf16 8192^3 torch.matmul only)

DIR/<shape>-<routing>/{x,router_weight[,bias]}.npy; a missing directory means
random inputs (x ~ N(0,1), w ~ N(0,1/H), zero bias), said in the output.
Expert weights are random (N(0,1/fan_in), drawn from a fixed seed per shape,
the same values for every formulation).

PyTorch formulations (each timed; the fastest per mode is reported as
"torch", every one's times stay in the row's "formulations"):
  fused     gate and up one [E,H,2F] weight (one grouped GEMM), bmm combine
  separate  weights stored [E,out,in] (torchtitan's layout) and passed
            transposed (a column-major B), separate gate and up
            torch._grouped_mm, rows weighted in fp32 then index_add_ into out
  compiled  torch.compile of the faster eager one (by fwd+bwd), in its own
            process under --compile-timeout seconds (skipped with the reason
            when it does not compile and run in time)
Before anything is timed: both eager formulations run a small layer with the
shape's router (T=128, H=64, F=32) and must match the fp32 per-token reference
(out, aux, every gradient; rel L2 <= 2e-2); on the full shape each must give
the first one's out and aux on the same inputs (rel L2 <= 2e-2); the compiled
one must give its eager one's out, aux, d_x and d_router_weight.
Layer ("fused"), per token block: gate = x.f32 @ w_r (fp32); scores; top-k selection on scores(+bias) with
group masking; weights gathered from the unbiased scores, normalized, scaled;
tokens sorted by expert id (stable) and gathered; grouped GEMM gate_up; act(gate)*up;
grouped GEMM down; un-permute and combine by a batched [1,K]x[K,H] product
(fp32 accumulation); aux loss (and z loss) as DESIGN.md defines them.
forward: the layer without autograd recording (torch.no_grad / jit of the
forward). forward+backward: forward with autograd and the backward for
x, the router weight and the expert weights from cotangents (dout ~ N(0,1),
daux = 1): torch.autograd.grad / jax.vjp under jit.
Timing: torch with CUDA events around each call; JAX host clock around each
call with block_until_ready; median of --reps after --warmup. Each JAX shape
runs in its own process under a time limit; JAX compile time is reported,
not timed. A missing library, an out-of-memory or a time limit ends in a
"skipped: <reason>" for that row, never a crash.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import layer_common as lc  # noqa: E402

ROUTINGS = ["balanced", "skewed"]


def load_inputs(inputs, shape, routing, cfg):
    """(x f32 [T,H], router weight f32 [H,E], bias f32 [E] or None, source)."""
    import numpy as np
    d = os.path.join(inputs or "", f"{shape}-{routing}")
    names = cfg["arg_names"]
    px = os.path.join(d, names["x"] + ".npy")
    pw = os.path.join(d, names["router_weight"] + ".npy")
    if inputs and os.path.exists(px) and os.path.exists(pw):
        x, w = np.load(px), np.load(pw)
        assert x.shape == (cfg["T"], cfg["H"]) and w.shape == (cfg["H"], cfg["E"]), \
            f"{d}: input shapes {x.shape} {w.shape} do not match the example"
        b = None
        if cfg["has_bias"]:
            pb = os.path.join(d, names["bias"] + ".npy")
            b = np.load(pb) if os.path.exists(pb) else np.zeros(cfg["E"], np.float32)
        return x.astype(np.float32), w.astype(np.float32), b, d
    rng = np.random.default_rng(0)
    x = rng.standard_normal((cfg["T"], cfg["H"]), dtype=np.float32)
    w = rng.standard_normal((cfg["H"], cfg["E"]), dtype=np.float32) / math.sqrt(cfg["H"])
    b = np.zeros(cfg["E"], np.float32) if cfg["has_bias"] else None
    return x, w, b, "random (no input files)"


def selected_shapes(args):
    want = [s for s in args.shapes.split(",") if s] if args.shapes else lc.SHAPES
    return [s for s in lc.SHAPES if s in want]


def is_oom(e):
    t = f"{type(e).__name__}: {e}"
    return "out of memory" in t.lower() or "RESOURCE_EXHAUSTED" in t or "OutOfMemory" in t


def short(e, n=160):
    t = f"{type(e).__name__}: {e}".replace("\n", " ")
    return t if len(t) <= n else t[:n] + "..."


# ================================================================ PyTorch
def torch_ceiling(torch, reps, warmup=5):
    n = 8192
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    ms = torch_time(torch, lambda: torch.matmul(a, b), reps, warmup)
    del a, b
    return 2.0 * n ** 3 / (statistics.median(ms) * 1e-3) / 1e12, ms


def torch_time(torch, fn, reps, warmup):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ms = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        ms.append(s.elapsed_time(e))
    return ms


def time_layer(torch, args, row, layer, cfg, gmm, x, wr, bias, ws, dout):
    """Times `layer` forward (no grad) and forward+backward (the gradients
    of x, the router weight and every expert weight) into row's
    fwd_/fwdbwd_ samples and medians."""
    wlist = list(ws.values())

    def fwd():
        with torch.no_grad():
            return layer(cfg, gmm, x, wr, bias, **ws)

    def fwdbwd():
        o, a = layer(cfg, gmm, x, wr, bias, **ws)
        return torch.autograd.grad([o, a], [x, wr] + wlist, [dout, torch.ones_like(a)])
    row["fwd_samples_ms"] = torch_time(torch, fwd, args.reps, args.warmup)
    row["fwd_ms"] = statistics.median(row["fwd_samples_ms"])
    row["fwdbwd_samples_ms"] = torch_time(torch, fwdbwd, args.reps, args.warmup)
    row["fwdbwd_ms"] = statistics.median(row["fwdbwd_samples_ms"])


def make_torch_gmm(torch, mode):
    """Grouped matmul a[R,k] x b[G,k,n] with end offsets, differentiable.
    mode: 'builtin' (torch._grouped_mm and its autograd), 'function'
    (torch._grouped_mm in a custom autograd.Function), 'loop' (torch.mm per group)."""
    if mode == "builtin":
        return lambda a, b, offs: torch._grouped_mm(a, b, offs=offs)
    if mode == "function":
        class GMM(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b, offs):
                ctx.save_for_backward(a, b, offs)
                return torch._grouped_mm(a, b, offs=offs)

            @staticmethod
            def backward(ctx, dc):
                a, b, offs = ctx.saved_tensors
                dc = dc.contiguous()
                da = torch._grouped_mm(dc, b.transpose(-2, -1), offs=offs)
                try:
                    db = torch._grouped_mm(a.t(), dc, offs=offs)
                except RuntimeError:
                    db = torch._grouped_mm(a.t().contiguous(), dc, offs=offs)
                return da, db, None
        return GMM.apply

    def loop(a, b, offs):
        outs, lo = [], 0
        for g, hi in enumerate(offs.tolist()):
            outs.append(a[lo:hi] @ b[g])
            lo = hi
        return torch.cat(outs, 0)
    return loop


def torch_act(torch, name):
    F = torch.nn.functional
    return {"silu": F.silu, "gelu": F.gelu, "gelu_tanh": lambda v: F.gelu(v, approximate="tanh"),
            "relu": F.relu, "relu2": lambda v: F.relu(v) ** 2, "identity": lambda v: v}[name]


def torch_router(torch, cfg, logits, bias):
    """scores [T,E], weights [T,K] (differentiable), indices [T,K]."""
    route = cfg["route"]
    if route == "softmax":
        scores = torch.softmax(logits, -1)
    elif route == "sigmoid":
        scores = torch.sigmoid(logits)
    elif route == "sqrtsoftplus":
        scores = torch.sqrt(torch.nn.functional.softplus(logits, threshold=20))
    else:
        scores = logits
    T, E = scores.shape
    K, G = cfg["K"], cfg["num_groups"]
    with torch.no_grad():
        sel = scores.detach() + bias if bias is not None else scores.detach()
        if G > 1:
            grp = sel.view(T, G, E // G)
            gs = (grp.max(-1).values if cfg["group_score"] == "max"
                  else grp.topk(cfg["group_score_topq"], -1).values.sum(-1))
            keep = gs.topk(cfg["group_topk"], -1).indices
            gmask = torch.zeros(T, G, device=sel.device, dtype=torch.bool)
            gmask.scatter_(1, keep, True)
            sel = sel.masked_fill(~gmask.repeat_interleave(E // G, 1), float("-inf"))
        idx = sel.topk(K, -1).indices
    w = scores.gather(1, idx)
    if cfg["normalize"] == "sum":
        w = w / (w.sum(-1, keepdim=True) + 1e-20)
    elif cfg["normalize"] == "softmax":
        w = torch.softmax(w, -1)
    if cfg["scaling_factor"] != 1.0:
        w = w * cfg["scaling_factor"]
    return scores, w, idx


def torch_losses(torch, cfg, logits, scores, idx):
    T, E = logits.shape
    K = cfg["K"]
    loss = logits.new_zeros(())
    if cfg["aux_loss_coeff"] > 0:
        if cfg["route"] in ("softmax", "identity"):
            sa = torch.softmax(logits, -1)
        else:
            sa = scores / (scores.sum(-1, keepdim=True) + 1e-20)
        L = cfg["seq_length"] if cfg["aux_loss_variant"] == "sequence" and cfg["seq_length"] else T
        n = T // L
        with torch.no_grad():
            c = torch.zeros(n, E, device=logits.device, dtype=torch.float32)
            c.scatter_add_(1, idx.reshape(n, L * K), torch.ones(n, L * K, device=logits.device))
        per = (sa.view(n, L, E).sum(1) * c).sum(-1) * (E * cfg["aux_loss_coeff"] / (K * L * L))
        loss = loss + per.mean()
    if cfg["z_loss_coeff"] > 0:
        loss = loss + cfg["z_loss_coeff"] * (torch.logsumexp(logits, -1) ** 2).mean()
    return loss


def torch_layer(torch, cfg, gmm, x, wr, bias, wgu, wd):
    T, H = x.shape
    E, K, F = cfg["E"], cfg["K"], cfg["F"]
    logits = x.float() @ wr
    scores, w, idx = torch_router(torch, cfg, logits, bias)
    flat = idx.reshape(-1)
    order = torch.argsort(flat, stable=True)
    offs = torch.cumsum(torch.bincount(flat, minlength=E), 0).to(torch.int32)
    xs = x[order // K]
    gu = gmm(xs, wgu, offs)
    h = torch_act(torch, cfg["activation"])(gu[:, :F]) * gu[:, F:]
    y = gmm(h, wd, offs)
    rows = torch.empty_like(order)
    rows[order] = torch.arange(order.numel(), device=order.device)
    out = torch.bmm(w.to(y.dtype).unsqueeze(1), y[rows].view(T, K, H)).squeeze(1)
    return out, torch_losses(torch, cfg, logits, scores, idx)


def torch_layer_separate(torch, cfg, gmm, x, wr, bias, wg_t, wu_t, wd_t):
    """Formulation "separate" (torchtitan's layout): expert weights stored
    [E, out, in] (w_gate, w_up [E,F,H], w_down [E,H,F]) and passed transposed
    (a column-major B) to separate gate and up grouped GEMMs; the combine
    weights the rows (fp32, rounded to bf16) and index_add_s them into out."""
    E, K = cfg["E"], cfg["K"]
    logits = x.float() @ wr
    scores, w, idx = torch_router(torch, cfg, logits, bias)
    flat = idx.reshape(-1)
    order = torch.argsort(flat, stable=True)
    offs = torch.cumsum(torch.bincount(flat, minlength=E), 0).to(torch.int32)
    token = order // K
    xs = x[token]
    g = gmm(xs, wg_t.transpose(-2, -1), offs)
    u = gmm(xs, wu_t.transpose(-2, -1), offs)
    h = torch_act(torch, cfg["activation"])(g) * u
    y = gmm(h, wd_t.transpose(-2, -1), offs)
    yw = (y.float() * w.reshape(-1)[order].unsqueeze(1)).to(x.dtype)
    out = torch.zeros_like(x).index_add_(0, token, yw)
    return out, torch_losses(torch, cfg, logits, scores, idx)


# The PyTorch formulations timed per shape; the fastest is reported as "torch".
#   fused:    torch_layer: gate|up one [E,H,2F] weight, bmm combine
#   separate: torch_layer_separate: [E,out,in] weights passed transposed,
#             separate gate and up GEMMs, index_add_ combine
#   compiled: torch.compile of the faster of the two (a subprocess under a
#             time limit, see run_torch_compiled)
EAGER_FORMULATIONS = ("fused", "separate")


def torch_expert_weights(torch, cfg, formulation, seed=11):
    """The expert weights of `formulation`, as keyword arguments of its layer
    function. Every formulation gets the same values (drawn [E,H,2F] and
    [E,F,H] from `seed`, then laid out), so their outputs must agree."""
    T, H, F, E = cfg["T"], cfg["H"], cfg["F"], cfg["E"]
    g = torch.Generator(device="cuda").manual_seed(seed)
    bf = dict(device="cuda", dtype=torch.bfloat16, generator=g)
    wgu = torch.randn(E, H, 2 * F, **bf).mul_(H ** -0.5)
    wd = torch.randn(E, F, H, **bf).mul_(F ** -0.5)
    if formulation == "fused":
        return dict(wgu=wgu.requires_grad_(), wd=wd.requires_grad_())
    ws = dict(wg_t=wgu[..., :F].transpose(1, 2).contiguous().requires_grad_(),
              wu_t=wgu[..., F:].transpose(1, 2).contiguous().requires_grad_())
    del wgu
    ws["wd_t"] = wd.transpose(1, 2).contiguous().requires_grad_()
    return ws


def torch_layer_of(torch, formulation):
    """layer(cfg, gmm, x, wr, bias, **weights) -> (out, aux) of `formulation`."""
    if formulation == "fused":
        return lambda cfg, gmm, x, wr, bias, wgu, wd: torch_layer(torch, cfg, gmm, x, wr, bias,
                                                                  wgu, wd)
    return lambda cfg, gmm, x, wr, bias, wg_t, wu_t, wd_t: torch_layer_separate(
        torch, cfg, gmm, x, wr, bias, wg_t, wu_t, wd_t)


def rel_l2(a, b):
    return ((a.float() - b.float()).norm() / b.float().norm().clamp_min(1e-30)).item()


# Formulations agree when out and every gradient are within this relative L2
# of each other (bf16 storage; the GEMMs and the combine round differently).
AGREE_REL_L2 = 2e-2


def small_check_layer(torch, cfg):
    """The self-checks' small layer with the shape's router (T=128, H=64,
    F=32, same E, K, groups) and its seeded inputs: (config, x, router
    weight, bias, [E,H,2F] gate|up weight, [E,F,H] down weight, dout, which
    experts get tokens)."""
    g = torch.Generator(device="cuda").manual_seed(7)
    small = dict(cfg, T=128, H=64, F=32)
    if small["seq_length"]:
        small["seq_length"] = 64
    T, H, F, E = 128, 64, 32, cfg["E"]

    def rn(*s, scale=1.0):
        return torch.randn(*s, device="cuda", generator=g) * scale
    x = rn(T, H).bfloat16().requires_grad_()
    wr = rn(H, E, scale=H ** -0.5).requires_grad_()
    bias = rn(E, scale=0.01) if cfg["has_bias"] else None
    wgu = rn(E, H, 2 * F, scale=H ** -0.5).bfloat16().requires_grad_()
    wd = rn(E, F, H, scale=F ** -0.5).bfloat16().requires_grad_()
    dout = rn(T, H).bfloat16()
    _, _, idx = torch_router(torch, small, x.detach().float() @ wr.detach(), bias)
    used = torch.bincount(idx.reshape(-1), minlength=E) > 0
    return small, x, wr, bias, wgu, wd, dout, used


def torch_selfcheck_formulations(torch, cfg, gmm):
    """Every eager formulation on one small layer with the shape's router
    (T=128, H=64, F=32, same E, K, groups), same inputs and weights: out,
    aux and the gradients of x, the router weight and the expert weights
    (compared in the fused layout) against the fp32 per-token reference.
    Returns {formulation: worst rel L2}."""
    small, x, wr, bias, wgu, wd, dout, used = small_check_layer(torch, cfg)
    F = small["F"]

    def grads(out, aux, ws):
        return torch.autograd.grad([out, aux], [x, wr] + ws, [dout.to(out.dtype),
                                                              torch.ones_like(aux)])
    out, aux = torch_reference(torch, small, x, wr, bias, wgu, wd)
    ref = [out, aux.reshape(1)] + list(grads(out, aux, [wgu, wd]))
    got = {}
    out, aux = torch_layer(torch, small, gmm, x, wr, bias, wgu, wd)
    got["fused"] = [out, aux.reshape(1)] + list(grads(out, aux, [wgu, wd]))
    wg_t = wgu.detach()[..., :F].transpose(1, 2).contiguous().requires_grad_()
    wu_t = wgu.detach()[..., F:].transpose(1, 2).contiguous().requires_grad_()
    wd_t = wd.detach().transpose(1, 2).contiguous().requires_grad_()
    out, aux = torch_layer_separate(torch, small, gmm, x, wr, bias, wg_t, wu_t, wd_t)
    dx, dwr, dg, du, dd = grads(out, aux, [wg_t, wu_t, wd_t])
    got["separate"] = [out, aux.reshape(1), dx, dwr,
                       torch.cat([dg.transpose(1, 2), du.transpose(1, 2)], -1), dd.transpose(1, 2)]
    worst = {}
    for name, vals in got.items():
        errs = []
        for i, (a, b) in enumerate(zip(vals, ref)):
            if i >= 4:  # expert weight gradients: only experts that got tokens
                a, b = a[used], b[used]
            errs.append(rel_l2(a, b))
        worst[name] = max(errs)
    return worst


def torch_reference(torch, cfg, x, wr, bias, wgu, wd):
    """Per-token fp32 reference (no sort, no grouped GEMM) for the self-check."""
    logits = x.float() @ wr
    scores, w, idx = torch_router(torch, cfg, logits, bias)
    F = cfg["F"]
    act = torch_act(torch, cfg["activation"])
    out = torch.zeros_like(x, dtype=torch.float32)
    for k in range(cfg["K"]):
        e = idx[:, k]
        gu = torch.bmm(x.float().unsqueeze(1), wgu.float()[e]).squeeze(1)
        hk = act(gu[:, :F]) * gu[:, F:]
        out = out + w[:, k:k + 1] * torch.bmm(hk.unsqueeze(1), wd.float()[e]).squeeze(1)
    return out, torch_losses(torch, cfg, logits, scores, idx)


def torch_selfcheck(torch, cfg, gmm):
    """A small layer with the shape's router (same E, K, groups): forward and
    gradients of the sorted/grouped path against the per-token reference."""
    small, x, wr, bias, wgu, wd, dout, used = small_check_layer(torch, cfg)
    errs = []
    res = []
    for fn in (lambda: torch_layer(torch, small, gmm, x, wr, bias, wgu, wd),
               lambda: torch_reference(torch, small, x, wr, bias, wgu, wd)):
        out, aux = fn()
        grads = torch.autograd.grad([out, aux], [x, wr, wgu, wd],
                                    [dout.to(out.dtype), torch.ones_like(aux)])
        res.append([out.float(), aux.float().reshape(1)] + [t.float() for t in grads])
    # Weight gradients of experts that got no token are compared only where
    # they are defined by the peer (a grouped GEMM may skip empty groups and
    # leave whatever was in memory; that costs nothing in the timings).
    for i, (a, b) in enumerate(zip(*res)):
        if i >= 4:  # d_wgu, d_wd
            a, b = a[used], b[used]
        errs.append(((a - b).norm() / b.norm().clamp_min(1e-30)).item())
    return max(errs), errs


FORMULATION_TEXT = {
    "fused": "gate|up fused [E,H,2F] weight (one torch._grouped_mm), bmm [1,K]x[K,H] combine "
             "(fp32 accumulate)",
    "separate": "weights stored [E,out,in] and passed transposed (column-major B, torchtitan's "
                "layout), separate gate and up torch._grouped_mm, index_add_ combine",
    "compiled": "torch.compile of the faster eager formulation (fwd+bwd), own process, "
                "under --compile-timeout",
}


def time_torch_formulation(torch, args, cfg, gmm, f, ws, dout, inp, first_out, routing):
    """Checks formulation `f` on the full shape against the first formulation
    timed on the same inputs (out and aux, forward), then times its forward
    and forward+backward. Returns its row."""
    x, wr, bias = inp
    layer = torch_layer_of(torch, f)
    row = {}
    with torch.no_grad():
        out, aux = layer(cfg, gmm, x, wr, bias, **ws)
    if not (torch.isfinite(out).all() and out.float().norm() > 0):
        raise RuntimeError(f"{f}: output is not finite or all zero")
    if routing not in first_out:
        first_out[routing] = (f, out, aux)
    else:
        g, out0, aux0 = first_out[routing]
        err = max(rel_l2(out, out0), rel_l2(aux.reshape(1), aux0.reshape(1)))
        row[f"rel_l2_vs_{g}"] = err
        if err > AGREE_REL_L2:
            raise RuntimeError(f"disagrees with {g} on the same inputs: rel L2 {err:.2e} > "
                               f"{AGREE_REL_L2}")
    out = aux = None  # noqa: F841
    time_layer(torch, args, row, layer, cfg, gmm, x, wr, bias, ws, dout)
    row["peak_mem_gib"] = torch.cuda.max_memory_allocated() / 2 ** 30
    return row


def print_formulation(shape, routing, f, row):
    if "skipped" in row:
        print(f"torch {shape:14s} {routing:8s} {f:9s} skipped: {row['skipped']}", flush=True)
    else:
        extra = "".join(f", {k} {v:.1e}" for k, v in row.items() if k.startswith("rel_l2_vs"))
        if "compile_s" in row:
            extra += f", compile {row['compile_s']:.0f} s"
        print(f"torch {shape:14s} {routing:8s} {f:9s} fwd {row['fwd_ms']:8.3f} ms  fwd+bwd "
              f"{row['fwdbwd_ms']:8.3f} ms{extra}", flush=True)


def faster_eager(rows, routings):
    """The eager formulation with the smaller forward+backward time summed
    over the routings where every eager formulation ran (None if none did)."""
    total = {}
    for f in EAGER_FORMULATIONS:
        ms = [rows[r]["formulations"].get(f, {}).get("fwdbwd_ms") for r in routings]
        if all(m is not None for m in ms):
            total[f] = sum(ms)
    return min(total, key=total.get) if total else None


def pick_fastest(row):
    """row["fwd_ms"] etc.: the fastest formulation per mode ("torch")."""
    for mode in ("fwd", "fwdbwd"):
        timed = {f: fr[f"{mode}_ms"] for f, fr in row["formulations"].items()
                 if fr.get(f"{mode}_ms") is not None}
        if timed:
            f = min(timed, key=timed.get)
            row[f"{mode}_ms"] = timed[f]
            row[f"{mode}_samples_ms"] = row["formulations"][f][f"{mode}_samples_ms"]
            row[f"{mode}_formulation"] = f
    if "fwd_ms" not in row or "fwdbwd_ms" not in row:
        row.setdefault("skipped", "no formulation ran: " + "; ".join(
            f"{f}: {fr.get('skipped', '?')}" for f, fr in row["formulations"].items()))


def run_torch_compiled(args, shape, formulation, gmm_mode):
    """torch.compile of `formulation` on `shape`, every routing, in its own
    process under --compile-timeout seconds (a compile that takes longer is
    reported as skipped, not waited for). Returns {routing: row}."""
    rts = args.routings.split(",")
    cmd = [sys.executable, os.path.abspath(__file__), "torch-compiled", "--one", shape,
           "--formulation", formulation, "--gmm-mode", gmm_mode, "--reps", str(args.reps),
           "--warmup", str(args.warmup), "--routings", args.routings] + (
               ["--inputs", args.inputs] if args.inputs else [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.compile_timeout)
    except subprocess.TimeoutExpired:
        why = (f"torch.compile of {formulation} did not compile and run within "
               f"{args.compile_timeout:.0f} s (--compile-timeout, TORCH_COMPILE_TIMEOUT_S)")
        return {r: dict(skipped=why, of=formulation) for r in rts}
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("JSON ")]
    if p.returncode != 0 or not line:
        lines = (p.stderr or p.stdout).strip().splitlines()
        err = [ln for ln in lines if "Error" in ln or "memory" in ln]
        why = (f"torch.compile of {formulation} failed (rc {p.returncode}): "
               + " | ".join((err or lines or ["no output"])[-1:])[:200])
        return {r: dict(skipped=why, of=formulation) for r in rts}
    return {r: dict(row, of=formulation) for r, row in json.loads(line[-1][5:]).items()}


def run_torch_compiled_one(args):
    """Child of run_torch_compiled: one shape, every routing. The compiled
    layer's out, aux and the gradients of x and the router weight must agree
    with the eager layer's on the same inputs before it is timed. Prints one
    JSON line {routing: row}."""
    import torch
    cfg = lc.layer_config(args.one)
    f = args.formulation
    gmm = make_torch_gmm(torch, args.gmm_mode)
    eager = torch_layer_of(torch, f)
    compiled = torch.compile(eager)
    ws = torch_expert_weights(torch, cfg, f)
    dout = torch.randn(cfg["T"], cfg["H"], device="cuda", dtype=torch.bfloat16,
                       generator=torch.Generator(device="cuda").manual_seed(12))
    res = {}
    for r in args.routings.split(","):
        row = {}
        try:
            xn, wn, bn, _ = load_inputs(args.inputs, args.one, r, cfg)
            x = torch.from_numpy(xn).cuda().bfloat16().requires_grad_()
            wr = torch.from_numpy(wn).cuda().requires_grad_()
            bias = torch.from_numpy(bn).cuda() if bn is not None else None
            del xn, wn

            def check(layer):
                o, a = layer(cfg, gmm, x, wr, bias, **ws)
                dx, dwr = torch.autograd.grad([o, a], [x, wr], [dout, torch.ones_like(a)])
                return [o.detach(), a.detach().reshape(1), dx, dwr]
            t0 = time.perf_counter()
            got = check(compiled)
            torch.cuda.synchronize()
            row["compile_s"] = time.perf_counter() - t0
            want = check(eager)
            err = max(rel_l2(a, b) for a, b in zip(got, want))
            row[f"rel_l2_vs_{f}"] = err
            got = want = None  # noqa: F841
            if err > AGREE_REL_L2:
                raise RuntimeError(f"compiled {f} disagrees with eager {f}: rel L2 {err:.2e}")
            time_layer(torch, args, row, compiled, cfg, gmm, x, wr, bias, ws, dout)
        except Exception as e:  # noqa: BLE001
            row["skipped"] = ("out of memory: " if is_oom(e) else "") + short(e)
        res[r] = row
        x = wr = bias = None  # noqa: F841
        torch.cuda.empty_cache()
    print("JSON " + json.dumps(res), flush=True)


def run_torch(args):
    import numpy as np  # noqa: F401  (load_inputs)
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError("no CUDA device visible to torch")
    dev_name = torch.cuda.get_device_name(0)
    info = dict(torch_version=torch.__version__, cuda=torch.version.cuda, device=dev_name)
    c0, c0s = torch_ceiling(torch, args.ceiling_reps)
    print(f"torch {torch.__version__} (CUDA {torch.version.cuda}) on {dev_name}; "
          f"dense bf16 8192^3 torch.matmul: {c0:.1f} TFLOP/s", flush=True)

    # Which grouped-matmul form works here (checked on the first shape's router).
    modes = (["builtin", "function"] if hasattr(torch, "_grouped_mm") else []) + ["loop"]
    gmm_mode, checks, notes = None, {}, []
    shapes = selected_shapes(args)
    cfgs = {s: lc.layer_config(s) for s in shapes}
    for m in modes:
        try:
            err, _ = torch_selfcheck(torch, cfgs[shapes[0]] if shapes else lc.layer_config(
                "seed-test"), make_torch_gmm(torch, m))
            if err < 2e-2:
                gmm_mode = m
                break
            notes.append(f"{m}: self-check rel L2 {err:.2e}")
        except Exception as e:  # noqa: BLE001
            notes.append(f"{m}: {short(e, 100)}")
    impl = {"builtin": "torch._grouped_mm (built-in autograd)",
            "function": "torch._grouped_mm (backward as explicit _grouped_mm calls)",
            "loop": "torch.mm per expert (torch._grouped_mm unusable)", None: None}[gmm_mode]
    print(f"torch layer: {impl}" + (f"; rejected: {'; '.join(notes)}" if notes else ""),
          flush=True)
    results = []
    if gmm_mode is None:
        for s in shapes:
            for r in args.routings.split(","):
                results.append(dict(shape=s, routing=r, skipped="no working grouped matmul: "
                                    + "; ".join(notes)))
        return dict(info, impl=None, results=results, ceiling_tflops=[c0])
    gmm = make_torch_gmm(torch, gmm_mode)
    routings = args.routings.split(",")
    for s in shapes:
        cfg = cfgs[s]
        print(f"torch {s}: self-check of the formulations on a small layer with its router",
              flush=True)
        try:
            agree = torch_selfcheck_formulations(torch, cfg, gmm)
        except Exception as e:  # noqa: BLE001
            agree = {}
            notes.append(f"{s} self-check failed: {short(e, 100)}")
        checks[s] = agree
        rows = {r: dict(shape=s, routing=r, selfcheck_rel_l2=agree, formulations={})
                for r in routings}
        inputs = {}
        for r in routings:
            try:
                xn, wn, bn, src = load_inputs(args.inputs, s, r, cfg)
                x = torch.from_numpy(xn).cuda().bfloat16().requires_grad_()
                wr = torch.from_numpy(wn).cuda().requires_grad_()
                bias = torch.from_numpy(bn).cuda() if bn is not None else None
                del xn, wn
                inputs[r] = (x, wr, bias)
                rows[r]["inputs"] = src
                with torch.no_grad():
                    _, _, idx = torch_router(torch, cfg, x.float() @ wr, bias)
                    rows[r]["loads"] = torch.bincount(idx.reshape(-1), minlength=cfg["E"]).tolist()
            except Exception as e:  # noqa: BLE001
                rows[r]["skipped"] = ("out of memory: " if is_oom(e) else "") + short(e)
        x = wr = bias = idx = None  # noqa: F841  (held in `inputs`)
        first_out = {}  # routing -> (formulation, out, aux): the full-shape agreement check
        for f in EAGER_FORMULATIONS:
            if agree.get(f) is None or agree[f] > AGREE_REL_L2:
                why = (f"self-check rel L2 {agree[f]:.2e} > {AGREE_REL_L2}" if f in agree
                       else "self-check did not run")
                for r in routings:
                    rows[r]["formulations"][f] = dict(skipped=why)
                continue
            try:
                ws = torch_expert_weights(torch, cfg, f)
                dout = torch.randn(cfg["T"], cfg["H"], device="cuda", dtype=torch.bfloat16,
                                   generator=torch.Generator(device="cuda").manual_seed(12))
            except Exception as e:  # noqa: BLE001
                ws = None
                for r in routings:
                    rows[r]["formulations"][f] = dict(
                        skipped=("out of memory: " if is_oom(e) else "") + short(e))
            for r in routings:
                if ws is None or r not in inputs:
                    continue
                frow = rows[r]["formulations"].setdefault(f, {})
                try:
                    frow.update(time_torch_formulation(torch, args, cfg, gmm, f, ws, dout,
                                                       inputs[r], first_out, r))
                except Exception as e:  # noqa: BLE001
                    frow["skipped"] = ("out of memory: " if is_oom(e) else "") + short(e)
                print_formulation(s, r, f, frow)
            ws = dout = None  # noqa: F841  (free before the next formulation)
            torch.cuda.empty_cache()
        first_out.clear()
        best = faster_eager(rows, routings)
        if best is None:
            why = "no eager formulation ran"
        elif args.compile_timeout <= 0:
            why = "torch.compile not run (--compile-timeout 0)"
        else:
            why = None
            for r, frow in run_torch_compiled(args, s, best, gmm_mode).items():
                if r in rows:
                    rows[r]["formulations"]["compiled"] = frow
                    print_formulation(s, r, "compiled", frow)
        for r in routings:
            if why:
                rows[r]["formulations"]["compiled"] = dict(skipped=why)
            pick_fastest(rows[r])
            if "skipped" not in rows[r]:
                print(f"torch {s:14s} {r:8s} fastest: fwd {rows[r]['fwd_ms']:8.3f} ms "
                      f"({rows[r]['fwd_formulation']}), fwd+bwd {rows[r]['fwdbwd_ms']:8.3f} ms "
                      f"({rows[r]['fwdbwd_formulation']})", flush=True)
            results.append(rows[r])
        inputs.clear()
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        if args.json:  # partial results survive a time limit
            with open(args.json, "w") as fh:
                json.dump(dict(info, impl=impl, partial=True, ceiling_tflops=[c0],
                               results=results), fh)
    c1, c1s = torch_ceiling(torch, args.ceiling_reps)
    print(f"dense bf16 8192^3 torch.matmul (end): {c1:.1f} TFLOP/s", flush=True)
    return dict(info, impl=impl, gmm_mode=gmm_mode, rejected=notes,
                formulations=FORMULATION_TEXT, agree_rel_l2=AGREE_REL_L2,
                compile_timeout_s=args.compile_timeout,
                reps=args.reps, warmup=args.warmup, timing="CUDA events, median",
                ceiling_tflops=[c0, c1], ceiling_samples_ms=[c0s, c1s], results=results)


def torch_unavailable():
    """Why the torch peer cannot run here ("" when it can)."""
    import importlib.util
    if importlib.util.find_spec("torch") is None:
        return f"PyTorch is not installed for {sys.executable} (pip install torch)"
    import torch
    if not torch.cuda.is_available():
        return (f"torch {torch.__version__} sees no CUDA device (torch.version.cuda = "
                f"{torch.version.cuda}); the torch peer needs an NVIDIA GPU")
    return ""


def run_ceiling(args):
    import torch
    c, s = torch_ceiling(torch, args.ceiling_reps)
    print(f"dense bf16 8192^3 torch.matmul: {c:.1f} TFLOP/s on {torch.cuda.get_device_name(0)}")
    return dict(device=torch.cuda.get_device_name(0), cuda=torch.version.cuda,
                ceiling_tflops=[c], ceiling_samples_ms=[s])


# ================================================================ JAX
def jax_layer_fn(cfg):
    import jax
    import jax.numpy as jnp
    lax = jax.lax
    T, H, E, K, F = cfg["T"], cfg["H"], cfg["E"], cfg["K"], cfg["F"]
    G = cfg["num_groups"]
    act = {"silu": jax.nn.silu, "gelu": lambda v: jax.nn.gelu(v, approximate=False),
           "gelu_tanh": lambda v: jax.nn.gelu(v, approximate=True), "relu": jax.nn.relu,
           "relu2": lambda v: jax.nn.relu(v) ** 2, "identity": lambda v: v}[cfg["activation"]]

    def layer(x, wr, wgu, wd, bias):
        T_ = x.shape[0]
        logits = jnp.dot(x.astype(jnp.float32), wr, precision=lax.Precision.HIGHEST)
        route = cfg["route"]
        if route == "softmax":
            scores = jax.nn.softmax(logits, -1)
        elif route == "sigmoid":
            scores = jax.nn.sigmoid(logits)
        elif route == "sqrtsoftplus":
            scores = jnp.sqrt(jnp.where(logits > 20, logits, jnp.log1p(jnp.exp(jnp.minimum(logits, 20)))))
        else:
            scores = logits
        sel = lax.stop_gradient(scores)
        if bias is not None:
            sel = sel + bias
        if G > 1:
            grp = sel.reshape(T_, G, E // G)
            gs = (grp.max(-1) if cfg["group_score"] == "max"
                  else lax.top_k(grp, cfg["group_score_topq"])[0].sum(-1))
            keep = lax.top_k(gs, cfg["group_topk"])[1]
            gmask = jax.nn.one_hot(keep, G, dtype=jnp.int32).sum(1) > 0
            sel = jnp.where(jnp.repeat(gmask, E // G, axis=1), sel, -jnp.inf)
        idx = lax.top_k(sel, K)[1]
        w = jnp.take_along_axis(scores, idx, 1)
        if cfg["normalize"] == "sum":
            w = w / (w.sum(-1, keepdims=True) + 1e-20)
        elif cfg["normalize"] == "softmax":
            w = jax.nn.softmax(w, -1)
        w = w * cfg["scaling_factor"]
        flat = idx.reshape(-1)
        order = jnp.argsort(flat, stable=True)
        sizes = jnp.bincount(flat, length=E).astype(jnp.int32)
        xs = x[order // K]
        gu = lax.ragged_dot(xs, wgu, sizes)
        h = (act(gu[:, :F].astype(jnp.float32)) * gu[:, F:].astype(jnp.float32)).astype(x.dtype)
        y = lax.ragged_dot(h, wd, sizes)
        rows = jnp.zeros_like(order).at[order].set(jnp.arange(order.shape[0], dtype=order.dtype))
        out = jnp.einsum("tk,tkh->th", w.astype(y.dtype), y[rows].reshape(T_, K, -1),
                         preferred_element_type=jnp.float32).astype(x.dtype)
        loss = jnp.zeros((), jnp.float32)
        if cfg["aux_loss_coeff"] > 0:
            sa = (jax.nn.softmax(logits, -1) if route in ("softmax", "identity")
                  else scores / (scores.sum(-1, keepdims=True) + 1e-20))
            L = cfg["seq_length"] if cfg["aux_loss_variant"] == "sequence" and cfg["seq_length"] else T_
            n = T_ // L
            c = lax.stop_gradient(jax.nn.one_hot(idx.reshape(n, L * K), E, dtype=jnp.float32).sum(1))
            per = (sa.reshape(n, L, E).sum(1) * c).sum(-1) * (E * cfg["aux_loss_coeff"] / (K * L * L))
            loss = loss + per.mean()
        if cfg["z_loss_coeff"] > 0:
            loss = loss + cfg["z_loss_coeff"] * jnp.mean(jax.nn.logsumexp(logits, -1) ** 2)
        return out, loss

    return layer


def run_jax_one(args):
    """One shape, every routing, in this process; prints one JSON line."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    s = args.one
    cfg = lc.layer_config(s)
    T, H, F, E = cfg["T"], cfg["H"], cfg["F"], cfg["E"]
    layer = jax_layer_fn(cfg)
    key = jax.random.PRNGKey(11)
    k1, k2, k3 = jax.random.split(key, 3)
    bf = jnp.bfloat16
    wgu = jax.random.normal(k1, (E, H, 2 * F), bf) * jnp.asarray(H ** -0.5, bf)
    wd = jax.random.normal(k2, (E, F, H), bf) * jnp.asarray(F ** -0.5, bf)
    dout = jax.random.normal(k3, (T, H), bf)

    fwd = jax.jit(layer)

    @jax.jit
    def fwdbwd(x, wr, wgu, wd, bias, dout):
        outs, vjp = jax.vjp(lambda x, wr, wgu, wd: layer(x, wr, wgu, wd, bias), x, wr, wgu, wd)
        return vjp((dout, jnp.ones((), jnp.float32)))

    def bench(fn, *a):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*a))
        first = time.perf_counter() - t0
        for _ in range(args.warmup):
            jax.block_until_ready(fn(*a))
        ts = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            jax.block_until_ready(fn(*a))
            ts.append((time.perf_counter() - t0) * 1e3)
        return ts, first

    out = []
    for r in args.routings.split(","):
        row = dict(shape=s, routing=r)
        try:
            xn, wn, bn, src = load_inputs(args.inputs, s, r, cfg)
            x = jnp.asarray(xn).astype(jnp.bfloat16)
            wr = jnp.asarray(wn)
            bias = jnp.asarray(bn) if bn is not None else None
            del xn, wn
            row["inputs"] = src
            f_s, f_first = bench(fwd, x, wr, wgu, wd, bias)
            row.update(fwd_samples_ms=f_s, fwd_ms=statistics.median(f_s), fwd_first_call_s=f_first)
            fb_s, fb_first = bench(fwdbwd, x, wr, wgu, wd, bias, dout)
            row.update(fwdbwd_samples_ms=fb_s, fwdbwd_ms=statistics.median(fb_s),
                       fwdbwd_first_call_s=fb_first)
        except Exception as e:  # noqa: BLE001
            row["skipped"] = ("out of memory: " if is_oom(e) else "") + short(e)
        out.append(row)
    print("JSON " + json.dumps(dict(jax_version=jax.__version__, device=str(jax.devices()[0]),
                                    results=out)), flush=True)
    _ = np


def run_jax(args):
    import importlib.util
    if importlib.util.find_spec("jax") is None:
        return dict(impl="jax.lax.ragged_dot", available=False, note="jax not installed",
                    results=[dict(shape=s, routing=r, skipped="jax not installed")
                             for s in selected_shapes(args) for r in args.routings.split(",")])
    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false")
    deadline = time.time() + args.budget
    results, version, device = [], None, None
    for s in selected_shapes(args):
        left = deadline - time.time()
        rts = args.routings.split(",")
        if left < 20:
            reason = f"JAX time budget ({args.budget:.0f} s, JAX_BUDGET_S) spent"
            results += [dict(shape=s, routing=r, skipped=reason) for r in rts]
            print(f"jax   {s:14s} skipped: {reason}", flush=True)
            continue
        lim = min(left, args.per_shape)
        cmd = [sys.executable, os.path.abspath(__file__), "jax-one", "--one", s,
               "--reps", str(args.reps), "--warmup", str(args.warmup),
               "--routings", args.routings] + (["--inputs", args.inputs] if args.inputs else [])
        t0 = time.time()
        try:
            p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=lim)
        except subprocess.TimeoutExpired:
            reason = f"time limit {lim:.0f} s (JAX_PER_SHAPE_S/JAX_BUDGET_S) reached"
            results += [dict(shape=s, routing=r, skipped=reason) for r in rts]
            print(f"jax   {s:14s} skipped: {reason}", flush=True)
            continue
        line = [ln for ln in p.stdout.splitlines() if ln.startswith("JSON ")]
        if p.returncode != 0 or not line:
            lines = (p.stderr or p.stdout).strip().splitlines()
            err = [ln for ln in lines if "Error" in ln or "RESOURCE" in ln or "memory" in ln]
            reason = f"failed (rc {p.returncode}): " + " | ".join((err or lines or ["no output"])[-1:])[:200]
            results += [dict(shape=s, routing=r, skipped=reason) for r in rts]
            print(f"jax   {s:14s} {reason}", flush=True)
            continue
        d = json.loads(line[-1][5:])
        version, device = d["jax_version"], d["device"]
        for row in d["results"]:
            row["process_s"] = time.time() - t0
            if "skipped" in row:
                print(f"jax   {s:14s} {row['routing']:8s} skipped: {row['skipped']}", flush=True)
            else:
                print(f"jax   {s:14s} {row['routing']:8s} fwd {row['fwd_ms']:8.3f} ms  fwd+bwd "
                      f"{row['fwdbwd_ms']:8.3f} ms  (first calls {row['fwd_first_call_s']:.0f}+"
                      f"{row['fwdbwd_first_call_s']:.0f} s)", flush=True)
            results.append(row)
    return dict(impl="jax.lax.ragged_dot layer (jit; backward via jax.vjp)", available=True,
                jax_version=version, device=device, reps=args.reps, warmup=args.warmup,
                timing="host clock around block_until_ready, median", budget_s=args.budget,
                results=results)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["torch", "jax", "jax-one", "torch-compiled", "ceiling"])
    ap.add_argument("--inputs", default="", help="directory of <shape>-<routing>/ input dirs")
    ap.add_argument("--json")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--ceiling-reps", type=int, default=50)
    ap.add_argument("--shapes", default="")
    ap.add_argument("--routings", default=",".join(ROUTINGS))
    ap.add_argument("--budget", type=float, default=150.0, help="JAX: total seconds")
    ap.add_argument("--per-shape", type=float, default=90.0, help="JAX: seconds per shape")
    ap.add_argument("--compile-timeout", type=float, default=240.0,
                    help="torch: seconds for torch.compile's process per shape (0: skip it)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--formulation", help=argparse.SUPPRESS)
    ap.add_argument("--gmm-mode", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.mode == "jax-one":
        run_jax_one(args)
        return 0
    if args.mode == "torch-compiled":
        run_torch_compiled_one(args)
        return 0
    if args.mode in ("torch", "ceiling"):
        why = torch_unavailable()
        if why:
            print(f"layer_peers.py {args.mode}: {why}", file=sys.stderr, flush=True)
            if args.json:
                with open(args.json, "w") as f:
                    json.dump(dict(impl=args.mode, available=False, note=why,
                                   results=[dict(shape=s, routing=r, skipped=why)
                                            for s in selected_shapes(args)
                                            for r in args.routings.split(",")]), f)
            return 2
    fn = dict(torch=run_torch, jax=run_jax, ceiling=run_ceiling)[args.mode]
    try:
        d = fn(args)
    except Exception as e:  # noqa: BLE001  (ImportError, no CUDA, ...)
        reason = ("not installed: " if isinstance(e, ImportError) else "") + short(e, 200)
        d = dict(impl=args.mode, available=False, note=reason,
                 results=[dict(shape=s, routing=r, skipped=reason)
                          for s in selected_shapes(args) for r in args.routings.split(",")])
        print(f"{args.mode}: skipped: {reason}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(d, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())

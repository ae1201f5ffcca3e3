#!/usr/bin/env python3
"""PyTorch expert-parallel (EP = DP) MoE layer over NCCL: the peer of our
compiled expert-parallel layer (moe-expert-parallel, scripts/gpu-ep-nccl.sh).
One process and one GPU per rank, launched by torchrun:

  torchrun --standalone --nproc_per_node P bench/ep_layer_torch.py \
      --shape qwen3-30b-a3b --inputs DIR --routing balanced|skewed \
      [--iters 20] [--warmup 3] [--json OUT.json] [--gmm auto|builtin|function|loop]

The layer is the moe.layer of examples/<shape>.mlir (layer_common.py), the
router, activation, losses, expert-weight init and grouped matmul are
layer_peers.py's (imported). GLOBAL batch: the example's T tokens; rank r
holds tokens [r*T/P, (r+1)*T/P) of DIR/x.npy (as make_routing_inputs.py
writes it; DIR/router_weight.npy replicated, DIR/bias.npy when the layer
has a bias) and experts [r*E/P, (r+1)*E/P): the slice of the one-GPU peer's
expert weights (layer_peers.torch_expert_weights, seed 11; drawn whole on
each rank, then only the slice is kept).

Forward, per rank: fp32 router -> top-k -> (token, k) rows sorted by expert
(stable) -> rows per expert exchanged (all_to_all_single of an int64 [E]:
chunk s is what this rank sends to rank s's E/P experts) -> copied to the host
as split sizes -> all_to_all_single of the bf16 rows [rows, H] -> what arrived
(by source rank, then local expert) permuted by local expert ->
torch._grouped_mm gate|up ([E/P, H, 2F]) -> act(gate)*up -> torch._grouped_mm
down -> inverse permute -> reverse all_to_all_single -> un-permute, combine
with the router weights (bmm [1,K]x[K,H], fp32 accumulation) -> out [T/P, H].
Aux loss: the `global` variant (this rank's share, counts all_reduce'd over
the ranks, T_g = T), then all_reduce'd (the whole-batch loss on every rank;
the all_reduce's backward is the identity, as our compiled layer's is); a
sequence loss inside a rank and the z-loss take coeff/P. all_to_all_single
runs inside an autograd.Function whose backward is the reverse
all_to_all_single (splits swapped).

Before timing, a self-check: every rank's out, the aux loss, d_x, the router
weight's gradient (summed over the ranks) and the expert weights' gradients
(experts that got tokens) against a one-process computation of the whole
batch with all experts on rank 0 (layer_peers.torch_layer on the gathered
x, weights and dout; all_gather); rel L2 <= 2e-2 each, else FAIL and exit 1.

Timing: per sample a barrier (and a device sync), then CUDA events around
the call on each rank; warm-up --warmup calls per mode. forward: no grad;
forward+backward: forward with autograd and torch.autograd.grad for x, the
router weight and the local expert weights from dout ~ N(0,1) (seed 12,
drawn [T,H] and sliced) and daux = 1. Each rank prints its medians; rank 0
prints one summary line whose fwd_ms / fwdbwd_ms are the median over samples
of the slowest rank's time in that sample:

  torch-ep-layer shape=qwen3-30b-a3b P=2 routing=balanced fwd_ms=... fwdbwd_ms=... tokens_per_rank=8192

NCCL_NVLS_ENABLE defaults to 0 (os.environ.setdefault before
init_process_group; printed by rank 0): NVLink SHARP (multicast) stays off
on the lent multi-GPU machines, as for our layer (scripts/gpu-ep-nccl.sh).
"""
import argparse
import datetime
import json
import os
import statistics
import sys

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # before torch.distributed starts NCCL

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import layer_common as lc  # noqa: E402
import layer_peers as lp  # noqa: E402

GMM_MODES = ["builtin", "function", "loop"]


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shape", default="qwen3-30b-a3b", help="examples/<shape>.mlir")
    ap.add_argument("--inputs", required=True,
                    help="directory with x.npy, router_weight.npy (and bias.npy)")
    ap.add_argument("--routing", required=True, choices=["balanced", "skewed"],
                    help="label of the inputs (make_routing_inputs.py's routing)")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json", help="rank 0 writes the numbers here")
    ap.add_argument("--gmm", default="auto", choices=["auto"] + GMM_MODES,
                    help="grouped matmul (layer_peers.make_torch_gmm); auto: the first "
                         "that passes layer_peers' small self-check on every rank")
    a = ap.parse_args(argv)
    if a.iters < 1 or a.warmup < 0:
        ap.error("--iters must be >= 1 and --warmup >= 0")
    return a


def rank_slices(T, E, P, r):
    """Rank r's tokens [t0, t1) and experts [e0, e1): contiguous equal blocks."""
    if P < 1 or not 0 <= r < P:
        raise ValueError(f"rank {r} of {P}")
    if T % P or E % P:
        raise ValueError(f"T = {T} and E = {E} must be multiples of P = {P}")
    tl, el = T // P, E // P
    return (r * tl, (r + 1) * tl), (r * el, (r + 1) * el)


def load_inputs(d, cfg):
    """x f32 [T,H], router weight f32 [H,E], bias f32 [E] or None."""
    import numpy as np
    n = cfg["arg_names"]
    x = np.load(os.path.join(d, n["x"] + ".npy"))
    w = np.load(os.path.join(d, n["router_weight"] + ".npy"))
    if x.shape != (cfg["T"], cfg["H"]) or w.shape != (cfg["H"], cfg["E"]):
        raise ValueError(f"{d}: x {x.shape}, router weight {w.shape}; the example wants "
                         f"({cfg['T']}, {cfg['H']}), ({cfg['H']}, {cfg['E']})")
    b = None
    if cfg["has_bias"]:
        pb = os.path.join(d, n["bias"] + ".npy")
        b = np.load(pb).astype(np.float32) if os.path.exists(pb) else np.zeros(cfg["E"], np.float32)
    return x.astype(np.float32, copy=False), w.astype(np.float32, copy=False), b


def make_collectives(torch, dist):
    class AllToAll(torch.autograd.Function):
        """Rows [n, H] exchanged: in_splits[s] rows go to rank s,
        out_splits[s] rows come from rank s. Backward: the reverse exchange."""

        @staticmethod
        def forward(ctx, t, out_splits, in_splits):
            ctx.splits = (out_splits, in_splits)
            t = t.contiguous()
            out = t.new_empty((sum(out_splits),) + tuple(t.shape[1:]))
            dist.all_to_all_single(out, t, out_splits, in_splits)
            return out

        @staticmethod
        def backward(ctx, g):
            out_splits, in_splits = ctx.splits
            g = g.contiguous()
            d = g.new_empty((sum(in_splits),) + tuple(g.shape[1:]))
            dist.all_to_all_single(d, g, in_splits, out_splits)
            return d, None, None

    class AllReduceSum(torch.autograd.Function):
        """Sum over the ranks; backward the identity (the result and its
        cotangent are replicated: each rank back-propagates its own share)."""

        @staticmethod
        def forward(ctx, t):
            o = t.clone()
            dist.all_reduce(o)
            return o

        @staticmethod
        def backward(ctx, g):
            return g

    return AllToAll, AllReduceSum


def ep_losses(torch, dist, cfg, P, T_global, logits, scores, idx, counts):
    """This rank's share of the layer's losses (their sum over the ranks is
    the one-process loss): the batch aux loss as the `global` variant
    (counts summed over the ranks), a per-rank sequence aux loss and the
    z-loss with coeff/P (layer_peers.torch_losses on the local tokens)."""
    E, K = cfg["E"], cfg["K"]
    coeff, L = cfg["aux_loss_coeff"], cfg["seq_length"]
    local = dict(cfg, aux_loss_coeff=0.0, z_loss_coeff=cfg["z_loss_coeff"] / P)
    share = logits.new_zeros(())
    if coeff > 0:
        if cfg["aux_loss_variant"] == "global":
            raise ValueError("aux-loss variant global is already per rank")
        if cfg["aux_loss_variant"] == "sequence" and L and L != T_global:
            if logits.shape[0] % L:
                raise ValueError(f"seq_length {L} does not divide T/P = {logits.shape[0]}")
            local["aux_loss_coeff"] = coeff / P
        else:
            if cfg["route"] in ("softmax", "identity"):
                sa = torch.softmax(logits, -1)
            else:
                sa = scores / (scores.sum(-1, keepdim=True) + 1e-20)
            with torch.no_grad():
                cg = counts.float()
                dist.all_reduce(cg)
            share = (sa.sum(0) * cg).sum() * (E * coeff / (K * T_global * T_global))
    return share + lp.torch_losses(torch, local, logits, scores, idx)


def make_ep_layer(torch, dist, cfg, P, gmm, stats):
    """layer(x [T/P,H] bf16, wr [H,E] f32, bias, wgu [E/P,H,2F], wd [E/P,F,H])
    -> (out [T/P,H], aux loss of the whole batch)."""
    E, K, F, H, T = cfg["E"], cfg["K"], cfg["F"], cfg["H"], cfg["T"]
    El = E // P
    AllToAll, AllReduceSum = make_collectives(torch, dist)
    act = lp.torch_act(torch, cfg["activation"])
    lid = torch.arange(El, device="cuda").repeat(P)  # local expert of each [P, E/P] chunk entry

    def layer(x, wr, bias, wgu, wd):
        Tl = x.shape[0]
        logits = x.float() @ wr
        scores, w, idx = lp.torch_router(torch, cfg, logits, bias)
        flat = idx.reshape(-1)
        order = torch.argsort(flat, stable=True)  # (token, k) rows by global expert
        counts = torch.bincount(flat, minlength=E)  # int64 [E] = [P, E/P]
        recv = torch.empty_like(counts)  # recv[s*El + j]: rows from rank s for local expert j
        dist.all_to_all_single(recv, counts)
        host = torch.stack([counts, recv]).view(2, P, El).sum(2).cpu()
        send_split, recv_split = host[0].tolist(), host[1].tolist()
        xs = x[order // K]
        y = AllToAll.apply(xs, recv_split, send_split)  # by source rank, then local expert
        n = sum(recv_split)
        perm = torch.argsort(torch.repeat_interleave(lid, recv, output_size=n), stable=True)
        inv = torch.empty_like(perm)
        inv[perm] = torch.arange(n, device=perm.device)
        offs = torch.cumsum(recv.view(P, El).sum(0), 0).to(torch.int32)
        gu = gmm(y[perm], wgu, offs)
        h = act(gu[:, :F]) * gu[:, F:]
        yl = gmm(h, wd, offs)
        z = AllToAll.apply(yl[inv], send_split, recv_split)  # back in xs's order
        rows = torch.empty_like(order)
        rows[order] = torch.arange(order.numel(), device=order.device)
        out = torch.bmm(w.to(z.dtype).unsqueeze(1), z[rows].view(Tl, K, H)).squeeze(1)
        aux = AllReduceSum.apply(ep_losses(torch, dist, cfg, P, T, logits, scores, idx, counts))
        stats.update(send=send_split, recv=recv_split)
        return out, aux

    return layer


def pick_gmm(torch, dist, cfg, want):
    """The grouped-matmul mode: `want`, or the first of GMM_MODES that passes
    layer_peers.torch_selfcheck on every rank (each rank's first passing mode;
    the one furthest down the list wins, so that all ranks use the same)."""
    if want != "auto":
        return want, []
    notes, first = [], len(GMM_MODES)
    for i, m in enumerate(GMM_MODES):
        if m != "loop" and not hasattr(torch, "_grouped_mm"):
            notes.append(f"{m}: torch._grouped_mm missing")
            continue
        try:
            err, _ = lp.torch_selfcheck(torch, cfg, lp.make_torch_gmm(torch, m))
            if err < lp.AGREE_REL_L2:
                first = i
                break
            notes.append(f"{m}: self-check rel L2 {err:.2e}")
        except Exception as e:  # noqa: BLE001
            notes.append(f"{m}: {lp.short(e, 100)}")
    t = torch.tensor([first], device="cuda")
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    i = int(t.item())
    return (GMM_MODES[i] if i < len(GMM_MODES) else None), notes


def gather_rows(torch, dist, t, P):
    """all_gather of equal [n, ...] blocks into [P*n, ...] in rank order."""
    t = t.detach().contiguous()
    out = t.new_empty((P * t.shape[0],) + tuple(t.shape[1:]))
    dist.all_gather_into_tensor(out, t)
    return out


def self_check(torch, dist, cfg, P, rank, gmm, layer, x, wr, bias, wgu, wd, dout, x_full):
    """EP layer vs one process on the whole batch (rank 0). Returns (ok, errs)."""
    out, aux = layer(x, wr, bias, wgu, wd)
    one = torch.ones((), device="cuda")
    dx, dwr, dwgu, dwd = torch.autograd.grad([out, aux], [x, wr, wgu, wd], [dout, one])
    got = dict(out=gather_rows(torch, dist, out, P), d_x=gather_rows(torch, dist, dx, P),
               d_w_gate_up=gather_rows(torch, dist, dwgu, P),
               d_w_down=gather_rows(torch, dist, dwd, P))
    dwr = dwr.clone()
    dist.all_reduce(dwr)  # the gradient contract: each rank's partial sum
    got["d_router_weight"] = dwr
    got["aux"] = aux.detach().reshape(1)
    wgu_all, wd_all = gather_rows(torch, dist, wgu, P), gather_rows(torch, dist, wd, P)
    dout_all = gather_rows(torch, dist, dout, P)
    del out, aux, dx, dwgu, dwd
    errs, ok = {}, True
    if rank == 0:
        xr = x_full.detach().clone().requires_grad_()
        wrr = wr.detach().clone().requires_grad_()
        wgur, wdr = wgu_all.requires_grad_(), wd_all.requires_grad_()
        ro, ra = lp.torch_layer(torch, cfg, gmm, xr, wrr, bias, wgur, wdr)
        g = torch.autograd.grad([ro, ra], [xr, wrr, wgur, wdr], [dout_all, one])
        with torch.no_grad():
            _, _, idx = lp.torch_router(torch, cfg, xr.float() @ wrr, bias)
            used = torch.bincount(idx.reshape(-1), minlength=cfg["E"]) > 0
        ref = dict(out=ro, aux=ra.detach().reshape(1), d_x=g[0], d_router_weight=g[1],
                   d_w_gate_up=g[2], d_w_down=g[3])
        for k in ("out", "aux", "d_x", "d_router_weight", "d_w_gate_up", "d_w_down"):
            a, b = got[k], ref[k]
            if k.startswith("d_w_"):  # experts without tokens: no defined gradient
                a, b = a[used], b[used]
            errs[k] = lp.rel_l2(a, b)
            ok = ok and errs[k] <= lp.AGREE_REL_L2  # False for NaN
        errs["experts_without_tokens"] = int((~used).sum().item())
        del ro, ra, g, xr, wrr, wgur, wdr
    flag = torch.tensor([1 if ok else 0], device="cuda")
    dist.broadcast(flag, 0)
    return bool(flag.item()), errs


def time_calls(torch, dist, fn, iters, warmup, local):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ms = []
    for _ in range(iters):
        dist.barrier(device_ids=[local])
        torch.cuda.synchronize()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        ms.append(s.elapsed_time(e))
    return ms


def nccl_version(torch):
    try:
        v = torch.cuda.nccl.version()
        return ".".join(map(str, v)) if isinstance(v, tuple) else str(v)
    except Exception:  # noqa: BLE001
        return "?"


def run(args):
    import torch
    import torch.distributed as dist
    rank, P = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local = int(os.environ.get("LOCAL_RANK", rank))
    torch.cuda.set_device(local)
    dev = torch.device("cuda", local)
    kw = dict(backend="nccl", timeout=datetime.timedelta(seconds=180))
    try:
        dist.init_process_group(device_id=dev, **kw)
    except TypeError:  # torch without device_id
        dist.init_process_group(**kw)
    cfg = lc.layer_config(args.shape)
    T, H, E, F = cfg["T"], cfg["H"], cfg["E"], cfg["F"]
    (t0, t1), (e0, e1) = rank_slices(T, E, P, rank)
    tag = f"torch-ep-layer shape={args.shape} P={P} routing={args.routing}"
    if rank == 0:
        print(f"{tag}: {lc.describe(cfg)}; torch {torch.__version__} (CUDA {torch.version.cuda}, "
              f"NCCL {nccl_version(torch)}) on "
              f"{torch.cuda.get_device_name(dev)}; NCCL_NVLS_ENABLE="
              f"{os.environ.get('NCCL_NVLS_ENABLE')}; inputs {args.inputs}", flush=True)

    gmm_mode, notes = pick_gmm(torch, dist, cfg, args.gmm)
    if rank == 0:
        print(f"{tag}: grouped matmul {gmm_mode}" + (f" (rejected: {'; '.join(notes)})"
                                                      if notes else ""), flush=True)
    if gmm_mode is None:
        raise RuntimeError("no working grouped matmul: " + "; ".join(notes))
    gmm = lp.make_torch_gmm(torch, gmm_mode)

    xn, wn, bn = load_inputs(args.inputs, cfg)
    x = torch.from_numpy(xn[t0:t1]).to(dev).bfloat16().requires_grad_()
    x_full = torch.from_numpy(xn).to(dev).bfloat16() if rank == 0 else None
    wr = torch.from_numpy(wn).to(dev).requires_grad_()
    bias = torch.from_numpy(bn).to(dev) if bn is not None else None
    del xn, wn
    full = lp.torch_expert_weights(torch, cfg, "fused")  # seed 11, [E,H,2F] and [E,F,H]
    wgu = full["wgu"].detach()[e0:e1].clone().requires_grad_()
    wd = full["wd"].detach()[e0:e1].clone().requires_grad_()
    del full
    g = torch.Generator(device=dev).manual_seed(12)
    dout = torch.randn(T, H, device=dev, dtype=torch.bfloat16, generator=g)[t0:t1].clone()
    torch.cuda.empty_cache()

    stats = {}
    layer = make_ep_layer(torch, dist, cfg, P, gmm, stats)
    ok, errs = self_check(torch, dist, cfg, P, rank, gmm, layer, x, wr, bias, wgu, wd, dout,
                          x_full)
    x_full = None
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats(dev)
    if rank == 0:
        print(f"{tag} check {'PASS' if ok else 'FAIL'}: rel L2 vs one process on the whole batch "
              + ", ".join(f"{k} {v:.2e}" for k, v in errs.items() if k != "experts_without_tokens")
              + f" (limit {lp.AGREE_REL_L2}; experts without tokens: "
              f"{errs.get('experts_without_tokens')})", flush=True)
    if not ok:
        dist.destroy_process_group()
        return 1

    one = torch.ones((), device=dev)

    def fwd():
        with torch.no_grad():
            return layer(x, wr, bias, wgu, wd)

    def fwdbwd():
        o, a = layer(x, wr, bias, wgu, wd)
        return torch.autograd.grad([o, a], [x, wr, wgu, wd], [dout, one])

    fwd_ms = time_calls(torch, dist, fwd, args.iters, args.warmup, local)
    fwdbwd_ms = time_calls(torch, dist, fwdbwd, args.iters, args.warmup, local)
    peak = torch.cuda.max_memory_allocated(dev) / 2 ** 30
    print(f"rank {rank}: tokens [{t0},{t1}) experts [{e0},{e1}); rows sent {stats['send']} "
          f"received {stats['recv']}; fwd {statistics.median(fwd_ms):.3f} ms, fwd+bwd "
          f"{statistics.median(fwdbwd_ms):.3f} ms (median of {args.iters}); peak "
          f"{peak:.1f} GiB", flush=True)
    samples = torch.tensor([fwd_ms, fwdbwd_ms], device=dev, dtype=torch.float64)  # [2, iters]
    every = samples.new_empty((P,) + tuple(samples.shape))
    dist.all_gather_into_tensor(every, samples)
    recv_rows = torch.tensor([sum(stats["recv"])], device=dev)
    all_recv = recv_rows.new_empty(P)
    dist.all_gather_into_tensor(all_recv, recv_rows)
    if rank == 0:
        every = every.cpu()
        slowest = every.max(0).values  # [2, iters]: per sample the slowest rank
        res = dict(shape=args.shape, P=P, routing=args.routing,
                   fwd_ms=statistics.median(slowest[0].tolist()),
                   fwdbwd_ms=statistics.median(slowest[1].tolist()),
                   tokens_per_rank=t1 - t0, tokens=T, experts_per_rank=e1 - e0,
                   fwd_samples_ms=slowest[0].tolist(), fwdbwd_samples_ms=slowest[1].tolist(),
                   rank_fwd_ms=[statistics.median(r[0].tolist()) for r in every],
                   rank_fwdbwd_ms=[statistics.median(r[1].tolist()) for r in every],
                   rows_received=all_recv.cpu().tolist(), check="PASS", check_rel_l2=errs,
                   gmm=gmm_mode, iters=args.iters, warmup=args.warmup,
                   timing="per sample: barrier + device sync, CUDA events on each rank; "
                          "median over samples of the slowest rank",
                   torch_version=torch.__version__, cuda=torch.version.cuda,
                   device=torch.cuda.get_device_name(dev),
                   nccl_nvls_enable=os.environ.get("NCCL_NVLS_ENABLE"), inputs=args.inputs)
        print(f"{tag} fwd_ms={res['fwd_ms']:.3f} fwdbwd_ms={res['fwdbwd_ms']:.3f} "
              f"tokens_per_rank={t1 - t0}", flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(res, f, indent=1)
    dist.barrier(device_ids=[local])
    dist.destroy_process_group()
    return 0


def main():
    args = parse_args()
    return run(args)


if __name__ == "__main__":
    sys.exit(main())

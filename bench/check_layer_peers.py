#!/usr/bin/env python3
"""Checks that bench/layer_peers.py's PyTorch layer is the layer we compile:
for each benchmark example, a miniature copy (T=128, H=64, F=32; the same E,
K and router attributes; seq_length 64) goes through moe-opt
--moe-generate-vjp and moe-compile --target=cpu, moe-runner runs moe_layer and
moe_layer_bwd on given inputs (--dump), and each eager PyTorch formulation
of layer_peers.py (per-expert torch.mm in place of torch._grouped_mm, on the
CPU) must give the same out, aux_loss and gradients (relative L2 <= 2e-2;
bf16 storage): "fused" ([E,H,2F] gate|up, bmm combine) and "separate"
([E,out,in] weights passed transposed, separate gate/up, index_add_ combine). Needs torch and
the MLIR tools (build/bin), not a GPU. Exit 1 on a mismatch.

  python3 bench/check_layer_peers.py [--bin build/bin] [--work /tmp/moe-peer-check]
"""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import layer_common as lc  # noqa: E402
import layer_peers as lp  # noqa: E402


def miniature(src, dst):
    s = open(src).read()
    T, H = re.search(r"tensor<(\d+)x(\d+)xbf16>", s).groups()
    E, F = re.search(r"tensor<(\d+)x\d+x(\d+)xbf16>", s).groups()
    s = s.replace(f"tensor<{E}x{H}x{F}xbf16>", f"tensor<{E}x64x32xbf16>")
    s = s.replace(f"tensor<{E}x{F}x{H}xbf16>", f"tensor<{E}x32x64xbf16>")
    s = s.replace(f"tensor<{T}x{H}xbf16>", "tensor<128x64xbf16>")
    s = s.replace(f"tensor<{H}x{E}xf32>", f"tensor<64x{E}xf32>")
    s = re.sub(r"seq_length = \d+", "seq_length = 64", s)
    open(dst, "w").write(s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(lc.ROOT, "build", "bin"))
    ap.add_argument("--work", default="/tmp/moe-peer-check")
    args = ap.parse_args()
    import torch
    torch.manual_seed(1)
    os.makedirs(args.work, exist_ok=True)
    worst = 0.0
    for s in lc.SHAPES:
        w = os.path.join(args.work, s)
        miniature(os.path.join(lc.ROOT, "examples", s + ".mlir"), w + ".mlir")
        subprocess.run([os.path.join(args.bin, "moe-opt"), "--moe-generate-vjp", w + ".mlir",
                        "-o", w + "-vjp.mlir"], check=True)
        subprocess.run([os.path.join(args.bin, "moe-compile"), w + "-vjp.mlir", "--target=cpu",
                        "-o", w], check=True, capture_output=True)
        cfg = lc.parse_example(w + ".mlir")
        T, H, F, E = cfg["T"], cfg["H"], cfg["F"], cfg["E"]
        x = torch.randn(T, H).bfloat16()
        wr = torch.randn(H, E) * H ** -0.5
        bias = torch.randn(E) * 0.01 if cfg["has_bias"] else None
        wg, wu = [(torch.randn(E, H, F) * H ** -0.5).bfloat16() for _ in range(2)]
        wd = (torch.randn(E, F, H) * F ** -0.5).bfloat16()
        dout = torch.randn(T, H).bfloat16()
        ind = w + "-in"
        os.makedirs(ind, exist_ok=True)
        for n, t in dict(x=x, router_weight=wr, w_gate=wg, w_up=wu, w_down=wd, d_out=dout,
                         bias=bias).items():
            if t is not None:
                np.save(os.path.join(ind, n + ".npy"), t.float().numpy())
        np.save(os.path.join(ind, "d_aux_loss.npy"), np.array(1.0, np.float32))
        subprocess.run([os.path.join(args.bin, "moe-runner"), w, "--entry", "moe_layer",
                        "--entry", "moe_layer_bwd", "--iters", "1", "--warmup", "0",
                        "--inputs", ind, "--dump", w + "-dump"], check=True, capture_output=True)

        def ours(e, n):
            return torch.from_numpy(np.load(os.path.join(w + "-dump", e, n + ".npy"))).float()
        gmm = lp.make_torch_gmm(torch, "loop")
        print(f"{s:14s} {lc.describe(cfg)}")
        for formulation in lp.EAGER_FORMULATIONS:
            xr, wrr = x.clone().requires_grad_(), wr.clone().requires_grad_()
            if formulation == "fused":
                ws = [torch.cat([wg, wu], -1).requires_grad_(), wd.clone().requires_grad_()]
                out, aux = lp.torch_layer(torch, cfg, gmm, xr, wrr, bias, *ws)
            else:  # [E, out, in], passed transposed
                ws = [t.transpose(1, 2).contiguous().requires_grad_() for t in (wg, wu, wd)]
                out, aux = lp.torch_layer_separate(torch, cfg, gmm, xr, wrr, bias, *ws)
            gx, gwr, *gw = torch.autograd.grad([out, aux], [xr, wrr] + ws,
                                               [dout, torch.ones_like(aux)])
            if formulation == "fused":
                gw = [gw[0][..., :F], gw[0][..., F:], gw[1]]
            else:
                gw = [t.transpose(1, 2) for t in gw]
            pairs = dict(out=(out, ours("moe_layer", "out")),
                         aux_loss=(aux.reshape(1), ours("moe_layer", "aux_loss").reshape(1)),
                         d_x=(gx, ours("moe_layer_bwd", "d_x")),
                         d_router_weight=(gwr, ours("moe_layer_bwd", "d_router_weight")),
                         d_w_gate=(gw[0], ours("moe_layer_bwd", "d_w_gate")),
                         d_w_up=(gw[1], ours("moe_layer_bwd", "d_w_up")),
                         d_w_down=(gw[2], ours("moe_layer_bwd", "d_w_down")))
            errs = {k: ((a.float() - b).norm() / b.norm().clamp_min(1e-30)).item()
                    for k, (a, b) in pairs.items()}
            worst = max(worst, max(errs.values()))
            print(f"  {formulation:8s} rel L2 vs compiled CPU layer: "
                  + " ".join(f"{k} {v:.1e}" for k, v in errs.items()))
    ok = worst <= 2e-2
    print(("PASS" if ok else "FAIL") + f": worst relative L2 {worst:.2e} (limit 2e-2)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

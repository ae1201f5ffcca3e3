"""Shared by bench/make_routing_inputs.py, bench/layer_peers.py and
bench/report_layer.py (numpy and the standard library only).

- SHAPES: the four DESIGN.md benchmark shapes.
- layer_config(shape): the moe.layer of examples/<shape>.mlir, parsed (shapes
  from the function signature, router attributes with the ODS defaults), so the
  peers implement the same layer as the compiled artifact by construction.
- route_np(): the router of DESIGN.md "Ops" (moe.route + moe.topk selection)
  in numpy, used to calibrate and to verify the skewed routing.
- zipf_targets(): the per-expert load that the skewed routing aims for.
"""
import os
import re

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = ["seed-test", "mixtral-8x7b", "qwen3-30b-a3b", "dsv3-1gpu"]
ZIPF_S = 1.2
ZIPF_CAP = 0.9  # no expert is picked by more than this fraction of tokens

# ODS defaults of moe.layer (include/MoeDialect/Dialect/MoeOps.td).
DEFAULTS = dict(num_groups=1, group_topk=1, group_score="top_sum", group_score_topq=None,
                normalize="none", scaling_factor=1.0, activation="silu", align=1,
                weight_layout="kn", aux_loss_coeff=0.0, aux_loss_variant="batch",
                seq_length=None, z_loss_coeff=0.0, post_softmax=False)
# Attributes whose meaning the peers implement; anything else is reported.
KNOWN = set(DEFAULTS) | {"k", "score_function"}


def flops(cfg, mode):
    """DESIGN.md expert-FFN FLOPs: fwd 6*T*K*H*F, fwd+bwd 18*T*K*H*F."""
    base = cfg["T"] * cfg["K"] * cfg["H"] * cfg["F"]
    return (6 if mode == "fwd" else 18) * base


def _dims(ty):
    m = re.match(r"tensor<((?:\d+x)*)(\w+)>", ty.strip())
    if not m:
        raise ValueError(f"cannot read tensor type {ty!r}")
    return [int(d) for d in m.group(1).split("x") if d], m.group(2)


def parse_example(path):
    """moe.layer configuration of one example .mlir file (one moe.layer)."""
    with open(path) as f:
        text = f.read()
    sig = re.search(r"func\.func\s+@(\w+)\((.*?)\)\s*->", text, re.S)
    if not sig:
        raise ValueError(f"{path}: no func.func signature")
    args = {}
    for m in re.finditer(r"%(\w+)\s*:\s*(tensor<[^>]*>)", sig.group(2)):
        args[m.group(1)] = _dims(m.group(2))
    lay = re.search(r"moe\.layer\s+%(\w+)\s*,\s*%(\w+)\s*(?:bias\s+%(\w+)\s*)?"
                    r"experts\(\s*%(\w+)\s*,\s*%(\w+)\s*,\s*%(\w+)\s*\)\s*\{(.*?)\}\s*:",
                    text, re.S)
    if not lay:
        raise ValueError(f"{path}: no moe.layer with an attribute dictionary")
    xn, rn, bn, gn, un, dn, attrs = lay.groups()
    cfg = dict(DEFAULTS)
    unknown = []
    for item in [a.strip() for a in attrs.split(",") if a.strip()]:
        if "=" not in item:
            cfg[item] = True  # unit attribute (post_softmax)
            if item not in KNOWN:
                unknown.append(item)
            continue
        key, val = [s.strip() for s in item.split("=", 1)]
        m = re.match(r"#moe<\w+\s+(\w+)>", val)
        if m:
            v = m.group(1)
        else:
            num = val.split(":")[0].strip()
            v = float(num) if any(c in num for c in ".eE") else int(num)
        cfg[key] = v
        if key not in KNOWN:
            unknown.append(key)
    (T, H), xdt = args[xn]
    (H2, E), _ = args[rn]
    wg, _ = args[gn]
    if cfg["weight_layout"] != "kn":
        raise ValueError(f"{path}: weight_layout {cfg['weight_layout']} not handled by the peers")
    F = wg[2]
    cfg.update(T=T, H=H, E=E, F=F, K=int(cfg["k"]), has_bias=bn is not None, x_dtype=xdt,
               score=cfg["score_function"], unknown_attrs=unknown, example=path,
               arg_names=dict(x="x", router_weight="router_weight", bias="bias"))
    if cfg["post_softmax"]:
        # moe-expand-layer: route identity, topk on logits, softmax over the k chosen.
        cfg["route"] = "identity"
        cfg["normalize"] = "softmax"
    else:
        cfg["route"] = cfg["score"]
    if cfg["num_groups"] > 1 and cfg["group_score_topq"] is None:
        cfg["group_score_topq"] = cfg["K"] // cfg["group_topk"]
    return cfg


def layer_config(shape, root=ROOT):
    return parse_example(os.path.join(root, "examples", shape + ".mlir"))


def describe(cfg):
    s = f"T={cfg['T']} H={cfg['H']} F={cfg['F']} E={cfg['E']} K={cfg['K']}; {cfg['route']}"
    if cfg["post_softmax"]:
        s += " (post-softmax)"
    if cfg["has_bias"]:
        s += " +bias"
    if cfg["num_groups"] > 1:
        s += (f", groups {cfg['num_groups']} keep {cfg['group_topk']} "
              f"({cfg['group_score']} q={cfg['group_score_topq']})")
    s += f", normalize {cfg['normalize']}"
    if cfg["scaling_factor"] != 1.0:
        s += f" x{cfg['scaling_factor']}"
    s += f", {cfg['activation']}"
    if cfg["aux_loss_coeff"]:
        s += f", aux {cfg['aux_loss_variant']} {cfg['aux_loss_coeff']:g}"
    if cfg["z_loss_coeff"]:
        s += f", z {cfg['z_loss_coeff']:g}"
    return s


# ------------------------------------------------------------------ routing
def scores_np(logits, route):
    if route == "softmax":
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)
    if route == "sigmoid":
        return 1.0 / (1.0 + np.exp(-logits))
    if route == "sqrtsoftplus":
        sp = np.where(logits > 20, logits, np.log1p(np.exp(np.minimum(logits, 20))))
        return np.sqrt(sp)
    if route == "identity":
        return logits
    raise ValueError(f"score function {route}")


def select_np(logits, cfg, bias=None):
    """Top-K expert indices [T,K] (unordered within a token) of moe.topk."""
    s = scores_np(logits.astype(np.float32), cfg["route"])
    if bias is not None:
        s = s + bias[None, :]
    T, E = s.shape
    K = cfg["K"]
    G = cfg["num_groups"]
    if G > 1:
        g = s.reshape(T, G, E // G)
        if cfg["group_score"] == "max":
            gs = g.max(axis=2)
        else:
            q = cfg["group_score_topq"]
            gs = -np.sort(-g, axis=2)[:, :, :q].sum(axis=2)
        keep = np.argpartition(-gs, cfg["group_topk"] - 1, axis=1)[:, :cfg["group_topk"]]
        mask = np.ones((T, G), bool)
        np.put_along_axis(mask, keep, False, axis=1)
        s = np.where(np.repeat(mask, E // G, axis=1), -np.inf, s)
    return np.argpartition(-s, K - 1, axis=1)[:, :K]


def loads_np(idx, E):
    return np.bincount(idx.ravel(), minlength=E)


def zipf_targets(cfg, s=ZIPF_S, cap=ZIPF_CAP):
    """Per-expert share of the T*K assignments: Zipf(s) over popularity ranks,
    water-filled so that no expert exceeds `cap` of the tokens (share cap/K; a
    top-K router picks an expert at most once per token). Returns (share[E],
    rank_to_expert[E]). Ranks go to experts round-robin over the router's
    expert groups (rank r -> group r mod G), so that group-limited routing can
    realise the skew; without groups expert e has rank e (expert 0 hottest)."""
    E, K, G = cfg["E"], cfg["K"], cfg["num_groups"]
    p = np.arange(1, E + 1, dtype=np.float64) ** -s
    p /= p.sum()
    hi = cap / K
    share = p.copy()
    fixed = np.zeros(E, bool)
    for _ in range(E):
        over = (share > hi) & ~fixed
        if not over.any():
            break
        fixed |= over
        share[fixed] = hi
        rest = 1.0 - hi * fixed.sum()
        share[~fixed] = p[~fixed] / p[~fixed].sum() * rest
    per = E // G
    rank_to_expert = np.array([(r % G) * per + r // G for r in range(E)])
    out = np.empty(E)
    out[rank_to_expert] = share
    return out, rank_to_expert

#!/usr/bin/env python3
"""near-tie-args.py ARTIFACT.json: the moe-runner --near-ties argument for an
example's moe_layer_fwd entry (nothing when it has no router residuals).

moe-generate-vjp returns the residuals in the forward's order: the router's
selection scores (the last f32 [T, E] residual before the indices), then the
top-k indices (the first i32 [T, K] residual); a `bias` input [E] is added to
the scores for selection."""
import json
import sys

entries = json.load(open(sys.argv[1]))["entries"]
fwd = [e for e in entries if e["name"] == "moe_layer_fwd"]
if not fwd:
    sys.exit(0)
args = fwd[0]["args"]
inputs = {a["name"]: a for a in args if a["role"] != "output" and a["role"] != "residual"}
x, router = inputs.get("x"), inputs.get("router_weight")
if not x or not router:
    sys.exit(0)
tokens, experts = x["shape"][0], router["shape"][1]
scores = indices = None
for a in args:
    if a["role"] != "residual" or len(a["shape"]) != 2 or a["shape"][0] != tokens:
        continue
    if a["dtype"] == "f32" and a["shape"][1] == experts and indices is None:
        scores = a["name"]
    if a["dtype"] == "i32" and indices is None and scores is not None:
        indices = a["name"]
if scores and indices:
    spec = f"moe_layer_fwd/{scores},moe_layer_fwd/{indices}"
    if "bias" in inputs:
        spec += ",moe_layer_fwd/bias"
    print(f"--near-ties {spec}")

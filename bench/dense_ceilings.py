#!/usr/bin/env python3
"""The dense GEMM ceilings of this GPU, for tables that compare our layers
with what the tensor cores do on one large product: bf16 (torch.matmul) and
FP8 e4m3 (torch._scaled_mm, bf16 out), 8192^3, median of N timed calls
after a warm-up (CUDA events). Prints one JSON object.

  python3 bench/dense_ceilings.py [--iters 50] [--size 8192]
"""
import argparse
import json
import statistics


def median_ms(fn, iters, warmup=5):
    """The median over `iters` calls of `fn` (after `warmup` more), in ms by
    CUDA events (torch imported here: importers need not have it)."""
    import torch
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    import torch
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=50)
    parser.add_argument("--size", type=int, default=8192)
    args = parser.parse_args()
    n = args.size
    flops = 2 * n ** 3
    dev = "cuda"
    a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    result = {"device": torch.cuda.get_device_name(), "size": n,
              "bf16_tflops": flops / median_ms(lambda: a @ b, args.iters) / 1e9}
    a8 = a.to(torch.float8_e4m3fn)
    b8 = b.to(torch.float8_e4m3fn).t().contiguous().t()  # column-major B
    one = torch.ones((), device=dev)
    result["fp8_e4m3_tflops"] = flops / median_ms(
        lambda: torch._scaled_mm(a8, b8, one, one, out_dtype=torch.bfloat16),
        args.iters) / 1e9
    print(json.dumps(result))


if __name__ == "__main__":
    main()

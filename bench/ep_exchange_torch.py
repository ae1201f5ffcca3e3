#!/usr/bin/env python3
"""torch.distributed's all_to_all_single on NCCL, the peer of moe-ep-exchange-bench.

    torchrun --standalone --nproc_per_node P bench/ep_exchange_torch.py \\
        --bytes-per-rank B --routing balanced|skewed --iters N [--warmup W] [--row-bytes RB]
    python3 bench/ep_exchange_torch.py --ranks P --bytes-per-rank B --routing R --print-splits

The same exchange as bench/ep_exchange_bench.cpp (see its file comment): each
rank sends rows = B // RB rows of RB bytes (bf16 rows of RB / 2 elements;
default 7168 * 2 bytes) split over the destinations by ep_split() below,
which is epSplit() of the C++ bench operation for operation (balanced: equal
rows; skewed: weight 1 / (k + 1)^1.2 with k = (q - s - 1) mod P, largest
remainder rounding, ties to the lower destination), so both send identical
splits (--print-splits prints them without a GPU; bench/ep-exchange.sh
compares them).

  dispatch: all_to_all_single(recv, send, output_split_sizes=rows from each
            source, input_split_sizes=rows to each destination)
  combine:  the reverse, all_to_all_single(back, recv, the splits swapped).

all_to_all_single needs the split sizes on the host; exchanging the counts is
the caller's job. Here every rank computes every rank's splits itself, so
ONLY the all_to_all_single calls are timed: no count exchange, unlike ours
(moert_gpu_all_to_all takes the counts in device memory and gathers them
with an ncclAllGather + a device-to-host copy inside the timed call).

One exchange is checked first (each received block holds its sender's and
destination's code; the combined rows equal the sent ones), then `warmup`
untimed and `iters` timed samples, each after a barrier (an all_reduce of one
element + torch.cuda.synchronize()), with CUDA events on the current stream
around each call. A sample's time is the slowest rank's; the medians over the
samples and nccl-tests' alltoall bandwidths (algbw = bytes sent by a rank /
time, busbw = algbw * (P - 1) / P, GB = 1e9 bytes; with skewed routing the
max over ranks of the bytes sent) are printed by rank 0 as

  torch-exchange P=2 routing=balanced bytes_per_rank=... dispatch_ms=...
    combine_ms=... dispatch_busbw_GBps=... combine_busbw_GBps=... ...

"FAIL ..." and exit status 1 on any error.
"""
import argparse
import math
import os
import sys


def ep_split(p, rows, skewed, sender):
    """Rows `sender` sends to each of the p destinations (epSplit() in C++)."""
    weight = [1.0] * p
    if skewed:
        for k in range(p):
            weight[k] = 1.0 / math.pow(float(k + 1), 1.2)
    total = 0.0
    for k in range(p):
        total += weight[k]
    out, frac = [], []
    for q in range(p):
        k = (q - sender - 1) % p if skewed else 0
        exact = float(rows) * weight[k] / total
        base = math.floor(exact)
        out.append(int(base))
        frac.append(exact - base)
    order = sorted(range(p), key=lambda q: -frac[q])  # stable: ties to the lower q
    for i in range(rows - sum(out)):
        out[order[i % p]] += 1
    return out


def parse():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bytes-per-rank", type=int, required=True)
    ap.add_argument("--routing", choices=["balanced", "skewed"], default="balanced")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--row-bytes", type=int, default=7168 * 2)
    ap.add_argument("--ranks", type=int, default=0, help="P for --print-splits")
    ap.add_argument("--print-splits", action="store_true",
                    help="print every rank's rows per destination and exit (no GPU, no torch)")
    a = ap.parse_args()
    if a.row_bytes < 4 or a.row_bytes % 4:
        ap.error("--row-bytes must be a positive multiple of 4")
    if a.bytes_per_rank < a.row_bytes:
        ap.error("--bytes-per-rank must be at least one row (--row-bytes)")
    if a.iters < 1 or a.warmup < 0:
        ap.error("--iters must be >= 1 and --warmup >= 0")
    return a


def median(v):
    v = sorted(v)
    m = len(v) // 2
    return v[m] if len(v) % 2 else 0.5 * (v[m - 1] + v[m])


def fail(rank, msg):
    print("FAIL rank %d: %s" % (rank, msg), flush=True)


def main():
    a = parse()
    rows = a.bytes_per_rank // a.row_bytes
    skewed = a.routing == "skewed"
    if a.print_splits:
        if a.ranks < 1:
            print("FAIL: --print-splits needs --ranks P", flush=True)
            return 1
        for r in range(a.ranks):
            print("rank %d send_rows=%s" % (r, ",".join(map(str, ep_split(a.ranks, rows, skewed, r)))))
        return 0

    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # as in bench/ep-exchange.sh
    import torch
    import torch.distributed as dist

    if "RANK" not in os.environ:
        print("FAIL: run under torchrun (torchrun --nproc_per_node P %s ...)" % sys.argv[0], flush=True)
        return 1
    if not torch.cuda.is_available():
        print("FAIL: torch sees no CUDA device", flush=True)
        return 1
    local = int(os.environ.get("LOCAL_RANK", "0"))
    if local >= torch.cuda.device_count():
        print("FAIL: local rank %d but only %d GPUs" % (local, torch.cuda.device_count()), flush=True)
        return 1
    torch.cuda.set_device(local)
    dev = torch.device("cuda", local)
    dist.init_process_group("nccl")
    me, p = dist.get_rank(), dist.get_world_size()
    if me == 0:
        print("torch %s nccl %s" % (torch.__version__, torch.cuda.nccl.version()), flush=True)

    splits = [ep_split(p, rows, skewed, s) for s in range(p)]
    send_splits = splits[me]
    recv_splits = [splits[s][me] for s in range(p)]
    cols = a.row_bytes // 2
    # Block (me -> q) holds the code me * p + q + 1 (exact in bf16 for p <= 15).
    code = torch.cat([torch.full((n, 1), float(me * p + q + 1)) for q, n in enumerate(send_splits)])
    send = code.to(dev, torch.bfloat16).expand(rows, cols).contiguous()
    recv = torch.empty(sum(recv_splits), cols, dtype=torch.bfloat16, device=dev)
    back = torch.empty(rows, cols, dtype=torch.bfloat16, device=dev)
    one = torch.zeros(1, device=dev)

    def dispatch():
        dist.all_to_all_single(recv, send, output_split_sizes=recv_splits, input_split_sizes=send_splits)

    def combine():
        dist.all_to_all_single(back, recv, output_split_sizes=send_splits, input_split_sizes=recv_splits)

    def barrier():
        dist.all_reduce(one)
        torch.cuda.synchronize()

    # The check.
    recv.fill_(-1.0)
    back.fill_(-1.0)
    dispatch()
    combine()
    torch.cuda.synchronize()
    ok = True
    at = 0
    for s in range(p):
        block = recv[at:at + recv_splits[s]]
        at += recv_splits[s]
        if block.numel() and not bool((block == float(s * p + me + 1)).all()):
            fail(me, "dispatch: the rows from rank %d differ" % s)
            ok = False
    if not torch.equal(back, send):
        fail(me, "combine: the rows that came back differ from the rows sent")
        ok = False
    flag = torch.tensor([0.0 if ok else 1.0], device=dev)
    dist.all_reduce(flag)
    if flag.item() != 0:
        if ok:
            fail(me, "another rank's check failed")
        dist.destroy_process_group()
        return 1

    ev = [torch.cuda.Event(enable_timing=True) for _ in range(3)]
    samples = torch.zeros(p, 3 * a.iters, dtype=torch.float64, device=dev)
    mine = []
    for it in range(-a.warmup, a.iters):
        barrier()
        ev[0].record()
        dispatch()
        ev[1].record()
        combine()
        ev[2].record()
        torch.cuda.synchronize()
        if it >= 0:
            mine += [ev[0].elapsed_time(ev[1]), ev[1].elapsed_time(ev[2]), ev[0].elapsed_time(ev[2])]
    samples[me] = torch.tensor(mine, dtype=torch.float64, device=dev)
    dist.all_reduce(samples)
    s = samples.cpu().tolist()

    if me == 0:
        dispatch_bytes = max(sum(splits[r]) for r in range(p)) * a.row_bytes
        combine_bytes = max(sum(splits[q][r] for q in range(p)) for r in range(p)) * a.row_bytes
        for r in range(p):
            med = [median(s[r][w::3]) for w in range(3)]
            print("rank %d send_rows=%s dispatch_ms=%.4f combine_ms=%.4f total_ms=%.4f"
                  % (r, ",".join(map(str, splits[r])), med[0], med[1], med[2]))
        ms = [median([max(s[r][3 * it + w] for r in range(p)) for it in range(a.iters)]) for w in range(3)]

        def busbw(nbytes, millis):
            return nbytes / (millis * 1e-3) / 1e9 * (p - 1) / p if millis > 0 else 0.0

        print("torch-exchange P=%d routing=%s bytes_per_rank=%d dispatch_ms=%.4f combine_ms=%.4f "
              "dispatch_busbw_GBps=%.2f combine_busbw_GBps=%.2f total_ms=%.4f total_busbw_GBps=%.2f "
              "row_bytes=%d iters=%d warmup=%d"
              % (p, a.routing, dispatch_bytes, ms[0], ms[1], busbw(dispatch_bytes, ms[0]),
                 busbw(combine_bytes, ms[1]), ms[2], busbw(dispatch_bytes + combine_bytes, ms[2]),
                 a.row_bytes, a.iters, a.warmup), flush=True)
    dist.barrier()
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())

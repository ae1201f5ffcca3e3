#!/usr/bin/env python3
"""Where a layer's GPU time goes, by kind of kernel: GEMM or not.

DESIGN.md's target is that non-GEMM kernels take at most 15 % of a layer's GPU
time. This reads the tables `moe-runner --profile` prints (bench/profile.sh
writes one file per shape) and sums each entry's per-call times into:

  expert GEMM  the grouped GEMMs: compiled kernels named ..._grouped_matmul or
               ..._grouped_weight_grad (FP8 or bf16, epilogues fused into them
               included) and the cuBLASLt calls moert_entry_grouped_*;
  dense GEMM   the router's dense products: cuBLASLt's moert_entry_matmul_*
               and the compiler's ..._gate kernel (the router projection when
               it is not handed to cuBLASLt);
  other        everything else: permute, combine, glu, routing, losses,
               quantize, transposes, splits, memcpy/memset.

Usage: bench/profile_share.py PROFILE.txt... [--markdown]
  Each file is one moe-runner --profile output; its name's profile-<shape>
  part (if any) names the shape. Prints a row per entry and, with
  --markdown, a Markdown table. Exits 1 when a file holds no profile table.
"""
import re
import sys

ROW = re.compile(r"^\s{4}(\S.*?)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)%\s*$")
ENTRY = re.compile(r"^entry (\S+) on gpu ")


def kind_of(name):
    """The kind of one profile row: 'expert', 'dense' or 'other'."""
    symbol = name.split(" [", 1)[0]
    if symbol.startswith("moert_entry_grouped_"):
        return "expert"
    if symbol.startswith("moert_entry_matmul"):
        return "dense"
    if re.search(r"_grouped_(matmul|weight_grad)$", symbol):
        return "expert"
    if re.search(r"_[0-9]+_gate$", symbol):
        return "dense"
    return "other"


def parse(path):
    """[(entry, [(name, us)])] of one moe-runner --profile output."""
    entries = []
    current = None
    in_table = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = ENTRY.match(line)
            if m:
                current = (m.group(1), [])
                entries.append(current)
                in_table = False
                continue
            if "kernel profile" in line:
                in_table = current is not None
                continue
            if not in_table:
                continue
            if line.strip().startswith("(sum)"):
                in_table = False
                continue
            r = ROW.match(line)
            if r:
                current[1].append((r.group(1).strip(), float(r.group(3))))
    return [e for e in entries if e[1]]


def shape_of(path):
    m = re.search(r"profile-([A-Za-z0-9._-]+?)\.txt$", path)
    return m.group(1) if m else path


def summarize(rows):
    sums = {"expert": 0.0, "dense": 0.0, "other": 0.0}
    others = []
    for name, us in rows:
        k = kind_of(name)
        sums[k] += us
        if k == "other":
            others.append((us, name))
    total = sum(sums.values())
    others.sort(reverse=True)
    return total, sums, others[:3]


def main(argv):
    markdown = "--markdown" in argv
    paths = [a for a in argv if a != "--markdown"]
    if not paths:
        sys.stderr.write(__doc__)
        return 2
    status = 0
    lines = []
    if markdown:
        lines.append("| shape | entry | kernels (us) | expert GEMM | dense GEMM | other | largest others (us) |")
        lines.append("|---|---|---|---|---|---|---|")
    for path in paths:
        try:
            entries = parse(path)
        except OSError as e:
            sys.stderr.write(f"profile_share: {path}: {e.strerror}\n")
            status = 1
            continue
        if not entries:
            sys.stderr.write(f"profile_share: {path}: no kernel profile table\n")
            status = 1
            continue
        for entry, rows in entries:
            total, sums, top = summarize(rows)
            share = {k: (100.0 * v / total if total > 0 else 0.0) for k, v in sums.items()}
            top_text = ", ".join(f"{re.sub(r'^__[a-z_]*?_[0-9]+_[0-9]+_', '', n)} {us:.0f}" for us, n in top)
            if markdown:
                lines.append(
                    f"| {shape_of(path)} | {entry} | {total:.0f} | {sums['expert']:.0f} ({share['expert']:.1f} %) | "
                    f"{sums['dense']:.0f} ({share['dense']:.1f} %) | {sums['other']:.0f} ({share['other']:.1f} %) | {top_text} |")
            else:
                lines.append(
                    f"{shape_of(path)} {entry}: kernels {total:.1f} us; expert GEMM {share['expert']:.1f}%, "
                    f"dense GEMM {share['dense']:.1f}%, other {share['other']:.1f}%; largest others: {top_text}")
    print("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Measures the estimate users see — the report's `estimate.value` after a short search (`--time`,
50 ms by default), the learned estimate at its leaves — on the held-out positions of the
measurement pools (the same split as train.py), against their exact values; and the same for
another `ply` binary (an A/B: the previous release's estimate, `estimate.score`).

    python3 tools/estimate/measure.py target/release/ply [OTHER_PLY] [--time 50ms]

Prints a markdown table for BENCHMARKS.md. A position the search proves within the time counts
with its exact value (what the user sees), and the table says how many were."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from train import load, share  # noqa: E402


def board_args(board: str):
    shape, size = board.split(":")
    if shape == "triangles":
        return ["triangles", "--size", size]
    rows, cols = size.split("x")
    return ["boxes", "--rows", rows, "--cols", cols]


def no_book(ply: str):
    """`--no-book` for a binary that has books (an older one has none to turn off)."""
    help_text = subprocess.run([ply, "dots", "boxes", "--help"], capture_output=True, text=True).stdout
    return ["--no-book"] if "--no-book" in help_text else []


def estimate(ply: str, row, time: str):
    out = subprocess.run([ply, "dots", *board_args(row["board"]), "--moves", row["moves"], "--time", time,
                          "--json", *no_book(ply)], capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    if r["exact"]:
        return r["value"], True
    e = r.get("estimate") or {}
    return e.get("value", e.get("score", 0)), False


def main():
    args = [a for a in sys.argv[1:]]
    time = "50ms"
    if "--time" in args:
        i = args.index("--time")
        time = args[i + 1]
        del args[i:i + 2]
    plys = args
    rows, _ = load()
    held = [r for r in rows if r["set"].startswith("pool-") and share(r["moves"]) >= 0.5]
    print(f"| set | free edges | positions | binary | mean error | best constant | sign right | correlation | proved in {time} |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in sorted({r["set"] for r in held}):
        part = [r for r in held if r["set"] == s]
        v = np.array([float(r["value"]) for r in part])
        frees = [int(r["free"]) for r in part]
        for ply in plys:
            got = [estimate(ply, r, time) for r in part]
            p = np.array([g[0] for g in got], dtype=float)
            nz = v != 0
            sign = np.mean(np.sign(p[nz]) == np.sign(v[nz])) if nz.any() else float("nan")
            corr = np.corrcoef(p, v)[0, 1] if np.std(p) > 0 else float("nan")
            print(f"| {s} | {min(frees)}–{max(frees)} | {len(v)} | `{ply}` | {np.mean(np.abs(p - v)):.2f} | "
                  f"{np.mean(np.abs(np.median(v) - v)):.2f} | {sign:.0%} | {corr:.2f} | {sum(g[1] for g in got)} |")


if __name__ == "__main__":
    main()

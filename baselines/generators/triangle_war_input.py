#!/usr/bin/env python3
"""Writes a Triangle War input (UVa 751 format) of GAMES random legal games to stdout.

Usage: python3 baselines/generators/triangle_war_input.py GAMES [SEED] > games.txt
Each game draws 6 to 18 distinct edges of the classic 10-dot board in a random order.
"""
import random
import sys


def classic_edges():
    dot = lambda r, c: r * (r + 1) // 2 + c + 1
    edges = []
    for r in range(4):
        for c in range(r + 1):
            if c < r:
                edges.append((dot(r, c), dot(r, c + 1)))
            if r < 3:
                edges.append((dot(r, c), dot(r + 1, c)))
                edges.append((dot(r, c), dot(r + 1, c + 1)))
    return edges


def main():
    games = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    edges = classic_edges()
    out = [str(games)]
    for _ in range(games):
        m = rng.randint(6, 18)
        out.append(str(m))
        out.extend(f"{a} {b}" for a, b in rng.sample(edges, m))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes N random Number Solitaire squares (integers in [-10000, 10000]) to stdout, one per line.

Usage: python3 baselines/generators/solitaire_input.py N [SEED] > board.txt
"""
import random
import sys

n = int(sys.argv[1])
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
out = sys.stdout
chunk = 100_000
for start in range(0, n, chunk):
    out.write("\n".join(str(rng.randint(-10000, 10000)) for _ in range(min(chunk, n - start))))
    out.write("\n")

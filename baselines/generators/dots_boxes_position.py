#!/usr/bin/env python3
"""A random Dots and Boxes position: python3 baselines/generators/dots_boxes_position.py ROWS COLS DRAWN SEED.

Prints DRAWN distinct edges (dots numbered from 1 row by row, as `ply dots boxes --moves` reads them),
drawn at random from SEED, with no box having three sides (an opening or middle game position)."""
import random, sys
rows, cols, drawn, seed = map(int, sys.argv[1:5])
random.seed(seed)
W = cols + 1
edges = []
for r in range(rows+1):
    for c in range(cols):
        edges.append((r*W+c, r*W+c+1))
for r in range(rows):
    for c in range(cols+1):
        edges.append((r*W+c, (r+1)*W+c))
def boxes_sides(sel):
    s = set(sel)
    out = []
    for r in range(rows):
        for c in range(cols):
            a = r*W+c
            sides = [(a,a+1),(a+W,a+W+1),(a,a+W),(a+1,a+W+1)]
            out.append(sum(e in s for e in sides))
    return out
while True:
    sel = random.sample(edges, drawn)
    if max(boxes_sides(sel)) <= 2: break
print(" ".join(f"{a+1}-{b+1}" for a,b in sel))

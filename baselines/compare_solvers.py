#!/usr/bin/env python3
"""ply against another exact dots solver, side by side over the same random positions.

    python3 baselines/compare_solvers.py --other 'CMD' [--game boxes --rows 4 --cols 4 | --game triangles --size 4]
        [--free 20,24,28] [--count 3] [--seed 1] [--other-value REGEX] [--other-value-for mover|first]
        [--ply target/release/ply] [--ply-args '--value-only --json'] [--timeout 600] [--json]

For every count of free edges in --free it makes --count positions (seeds SEED, SEED+1, ...): edges
drawn at random that leave no cell one edge short (so no capture is pending and the players have
alternated: A is to move when an even number of edges is drawn), falling back to any edge only when
no such edge is left. Each position is solved by ply and by the other solver, one after the other, each
as a whole process; the CPU seconds (user + system of the process and everything it waited for), the
wall seconds and the peak memory of each come from the kernel (wait4), so process start counts.

The other solver is named by you: --other is a shell command in which these are replaced:
  {rows} {cols} {size}   the board (size only for triangles)
  {moves}                the drawn edges in ply's notation: `2-6 1-2 ...` (dots numbered from 1 row by row;
                         triangles: from the apex, row by row)
  {moves_file}           a file holding the same edges, one `a-b` a line
  {edges}                the drawn edges as 0-based indices, space-separated, in this order: boxes: every
                         horizontal edge row by row, left to right, then every vertical edge row by row;
                         triangles: every edge from the lower-numbered dot, by that dot then the other
  {free} {drawn}         counts of free and drawn edges
  {to_move}              A or B
--other-value is a regular expression whose first group is the other solver's value (an integer:
net cells still to gain by the player to move, or with --other-value-for first, by the first player A);
without it values are not compared. ply's own value is read from its --json report.

Prints one line per position (times, ratio other/ply in CPU seconds, values and whether they agree) and
a summary per count of free edges (median ratio). Exits 1 if a value disagrees or a solver fails, 2 on
bad arguments. No third-party solver is committed here: bring your own."""
import argparse
import json
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import random


def boxes_board(rows, cols):
    """Edges (dot pairs, 0-based) and cells (edge indices) of a rows x cols Dots and Boxes board."""
    width = cols + 1
    edges = [(r * width + c, r * width + c + 1) for r in range(rows + 1) for c in range(cols)]
    edges += [(r * width + c, (r + 1) * width + c) for r in range(rows) for c in range(cols + 1)]
    index = {e: i for i, e in enumerate(edges)}
    cells = []
    for r in range(rows):
        for c in range(cols):
            a = r * width + c
            sides = [(a, a + 1), (a + width, a + width + 1), (a, a + width), (a + 1, a + width + 1)]
            cells.append([index[s] for s in sides])
    return edges, cells


def triangles_board(size):
    """Edges and cells of the triangle board with `size` rows of triangles (dots from the apex)."""
    dot = {}
    for r in range(size + 1):
        for c in range(r + 1):
            dot[(r, c)] = len(dot)
    pairs = set()
    triangles = []
    for r in range(size):
        for c in range(r + 1):
            up = [dot[(r, c)], dot[(r + 1, c)], dot[(r + 1, c + 1)]]
            triangles.append(up)
            if c < r:
                triangles.append([dot[(r, c)], dot[(r, c + 1)], dot[(r + 1, c + 1)]])
    for t in triangles:
        for i in range(3):
            a, b = sorted((t[i], t[(i + 1) % 3]))
            pairs.add((a, b))
    edges = sorted(pairs)
    index = {e: i for i, e in enumerate(edges)}
    cells = [[index[tuple(sorted((t[i], t[(i + 1) % 3])))] for i in range(3)] for t in triangles]
    return edges, cells


def position(edges, cells, drawn, seed):
    """`drawn` edge indices chosen at random from `seed`, none leaving a cell one edge short while that can be avoided."""
    rnd = random.Random(seed)
    cells_of = [[] for _ in edges]
    for cell in cells:
        for e in cell:
            cells_of[e].append(cell)
    chosen = set()
    order = []
    while len(order) < drawn:
        free = [e for e in range(len(edges)) if e not in chosen]
        safe = [e for e in free
                if all(sum(x in chosen or x == e for x in cell) <= len(cell) - 2 for cell in cells_of[e])]
        e = rnd.choice(safe or free)
        chosen.add(e)
        order.append(e)
    return order


def run(command, timeout):
    """Run a shell command; its stdout, exit status, CPU and wall seconds and peak MiB (None on timeout)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        child = subprocess.Popen(command, shell=True, stdout=out, stderr=err, start_new_session=True)
        timer = threading.Timer(timeout, lambda: os.killpg(child.pid, signal.SIGKILL))
        timer.start()
        _, status, usage = os.wait4(child.pid, 0)
        timer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        timed_out = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL and wall >= timeout
        return {
            "stdout": out.read().decode(errors="replace"),
            "stderr": err.read().decode(errors="replace").strip().splitlines()[-1:] or [""],
            "status": child.returncode,
            "cpu": usage.ru_utime + usage.ru_stime,
            "wall": wall,
            "peak_mib": usage.ru_maxrss / 1024,
            "timed_out": timed_out,
        }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", required=True, help="the other solver's command (placeholders: see the top of this file)")
    parser.add_argument("--other-value", help="regular expression; its first group is the other solver's value")
    parser.add_argument("--other-value-for", choices=["mover", "first"], default="mover")
    parser.add_argument("--game", choices=["boxes", "triangles"], default="boxes")
    parser.add_argument("--rows", type=int, default=4)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--free", default="20,24,28", help="counts of free edges, comma-separated")
    parser.add_argument("--count", type=int, default=3, help="positions per count of free edges")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ply", default="target/release/ply")
    parser.add_argument("--ply-args", default="--value-only --json")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds allowed to each solve")
    parser.add_argument("--json", action="store_true", help="one JSON object per position instead of a table")
    args = parser.parse_args()

    if args.game == "boxes":
        if not (1 <= args.rows <= 8 and 1 <= args.cols <= 8):
            parser.error("--rows and --cols must be 1 to 8")
        edges, cells = boxes_board(args.rows, args.cols)
        ply_board = f"dots boxes --rows {args.rows} --cols {args.cols}"
    else:
        if not 1 <= args.size <= 6:
            parser.error("--size must be 1 to 6")
        edges, cells = triangles_board(args.size)
        ply_board = f"dots triangles --size {args.size}"
    try:
        frees = [int(f) for f in args.free.split(",")]
    except ValueError:
        parser.error(f"--free: not a list of integers: {args.free[:40]!r}")
    if any(not 0 <= f <= len(edges) for f in frees):
        parser.error(f"--free: this board has {len(edges)} edges")
    if args.count < 1:
        parser.error("--count must be at least 1")
    if not os.access(args.ply, os.X_OK):
        parser.error(f"--ply: not an executable: {args.ply[:40]!r} (build it: cargo build --release)")
    pattern = None
    if args.other_value:
        try:
            pattern = re.compile(args.other_value)
        except re.error as error:
            parser.error(f"--other-value: {error}")

    if not args.json:
        print(f"{'free':>4} {'seed':>5} {'ply cpu s':>10} {'other cpu s':>12} {'other/ply':>9} "
              f"{'ply MiB':>8} {'other MiB':>9} {'ply value':>9} {'other value':>11}  agree")
    failures = 0
    ratios = {}
    with tempfile.TemporaryDirectory() as scratch:
        for free in frees:
            for seed in range(args.seed, args.seed + args.count):
                drawn = position(edges, cells, len(edges) - free, seed)
                names = " ".join(f"{edges[e][0] + 1}-{edges[e][1] + 1}" for e in drawn)
                to_move = "A" if len(drawn) % 2 == 0 else "B"
                moves_file = os.path.join(scratch, f"moves-{free}-{seed}.txt")
                with open(moves_file, "w") as f:
                    f.write("".join(f"{edges[e][0] + 1}-{edges[e][1] + 1}\n" for e in drawn))
                fields = {"rows": args.rows, "cols": args.cols, "size": args.size, "moves": names,
                          "moves_file": moves_file, "edges": " ".join(map(str, drawn)), "free": free,
                          "drawn": len(drawn), "to_move": to_move}
                ply = run(f"{shlex.quote(args.ply)} {ply_board} --moves-file {shlex.quote(moves_file)} {args.ply_args}",
                          args.timeout)
                other = run(args.other.format(**fields), args.timeout)
                ply_value = other_value = None
                try:
                    report = json.loads(ply["stdout"])
                    ply_value = report["value"]
                    if report["to_move"] != to_move:
                        ply_value = None
                except (ValueError, KeyError, TypeError):
                    pass
                if pattern and other["status"] == 0:
                    found = pattern.search(other["stdout"])
                    if found:
                        other_value = int(found.group(1))
                        if args.other_value_for == "first" and to_move == "B":
                            other_value = -other_value
                agree = "-" if pattern is None else ("yes" if ply_value is not None and ply_value == other_value else "NO")
                if ply["status"] != 0 or other["status"] != 0 or agree == "NO":
                    failures += 1
                ratio = other["cpu"] / ply["cpu"] if ply["cpu"] > 0 and ply["status"] == 0 and other["status"] == 0 else None
                if ratio is not None:
                    ratios.setdefault(free, []).append(ratio)
                row = {"free": free, "seed": seed, "moves": names, "to_move": to_move,
                       "ply": {k: ply[k] for k in ("status", "cpu", "wall", "peak_mib", "timed_out")},
                       "other": {k: other[k] for k in ("status", "cpu", "wall", "peak_mib", "timed_out")},
                       "ply_value": ply_value, "other_value": other_value, "ratio": ratio}
                if args.json:
                    print(json.dumps(row), flush=True)
                else:
                    def cpu(r):
                        return "timeout" if r["timed_out"] else (f"exit {r['status']}" if r["status"] else f"{r['cpu']:.2f}")
                    print(f"{free:>4} {seed:>5} {cpu(ply):>10} {cpu(other):>12} "
                          f"{(f'{ratio:.2f}x' if ratio else '-'):>9} {ply['peak_mib']:>8.0f} {other['peak_mib']:>9.0f} "
                          f"{str(ply_value):>9} {str(other_value):>11}  {agree}", flush=True)
                    for name, r in (("ply", ply), ("other", other)):
                        if r["status"]:
                            print(f"      {name} failed: {r['stderr'][0][:120]}", flush=True)
    if not args.json:
        print()
        for free in frees:
            if free in ratios:
                print(f"{free} free: other/ply CPU median {statistics.median(ratios[free]):.2f}x "
                      f"(min {min(ratios[free]):.2f}x, max {max(ratios[free]):.2f}x, {len(ratios[free])} positions)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

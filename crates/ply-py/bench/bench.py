"""Benchmarks of the Python package (figures in BENCHMARKS.md): medians of `--runs` runs.

    python crates/ply-py/bench/bench.py binding --ply target/debug/ply
    python crates/ply-py/bench/bench.py distributed
    python crates/ply-py/bench/bench.py labels

`binding`: the same positions (the distinct grandchildren of a 3×3 position of 16 free edges; the
distinct children of a 4×4 position of 26 free edges) solved by `ply.dots_batch`, by `ply.dots` one at a time, and by the
`ply dots … --json` command once per position (the baseline). `distributed`: one 4×4 position by
`ply.dots` in this process (the baseline), by `ply.distributed.solve` on a local Ray of 2 workers
with a new store, and again on that full store (resume with every job stored). `labels`: exact
labels (value and every action's value) for random OpenSpiel 4×4 states of 20, 25 and 30 free edges
(uniformly random play from the empty board, seeded), by `ply.openspiel.label` on the whole batch,
against `ply.openspiel.analyse` one state at a time (the baseline): labels per second.
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

import ply
from ply import _ply, distributed

FOUR = dict(game="boxes", rows=4, cols=4)
# 4×4, 26 free edges, value 4 (tests/test_distributed.py).
BOXES_26 = "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21 3-8 9-10 1-6 20-25 4-5 11-16".split()
# 3×3, 16 free edges: its grandchildren (14 free) are the small positions.
SMALL = dict(game="boxes", rows=3, cols=3)
SMALL_MOVES = "1-2 5-6 9-13 3-7 10-11 14-15 4-8 12-16".split()


def children(board, moves):
    node = json.loads(_ply.dots_expand(json.dumps(dict(board, moves=moves))))
    return [c["moves"] for c in node["children"]]


def timed(f):
    started = time.perf_counter()
    f()
    return time.perf_counter() - started


def median(f, runs):
    return statistics.median(timed(f) for _ in range(runs))


def binding(args):
    small = [g for c in children(SMALL, SMALL_MOVES) for g in children(SMALL, c)]
    for name, board, positions in [("3×3, 14 free", SMALL, small),
                                   ("4×4, 25 free", FOUR, children(FOUR, BOXES_26))]:
        requests = [dict(board, moves=m, detail="value") for m in positions]
        env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp())

        def cli():
            for m in positions:
                flags = [f"--{k}={v}" for k, v in board.items() if k != "game"]
                subprocess.run([args.ply, "dots", board["game"], *flags, "--moves", " ".join(m),
                                "--json"], check=True, capture_output=True, env=env)

        def one_at_a_time():
            for r in requests:
                ply.dots(**r)

        def batch():
            ply.dots_batch(requests)

        base = median(cli, args.runs)
        print(f"{name}: {len(positions)} positions; `ply dots --json` each {base:.3f} s (1.00); "
              f"ply.dots each {median(one_at_a_time, args.runs) / base:.2f}; "
              f"ply.dots_batch {median(batch, args.runs) / base:.2f}")


def random_states(free, count, seed):
    """`count` OpenSpiel 4×4 states with `free` undrawn lines, reached by uniformly random play."""
    import random

    import pyspiel

    game = pyspiel.load_game("dots_and_boxes(num_rows=4,num_cols=4)")
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        while len(state.legal_actions()) > free and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            states.append(state)
    return states


def labels(args):
    from ply import openspiel

    for free, count in [(20, 200), (25, 100), (30, 20)]:
        states = random_states(free, count, seed=free)
        one = median(lambda: [openspiel.analyse(s) for s in states], args.runs)
        batch = median(lambda: openspiel.label(states), args.runs)
        print(f"4×4, {free} free: {count} states; analyse one at a time {count / one:.1f} labels/s "
              f"(1.00); label (batch) {count / batch:.1f} labels/s ({one / batch:.2f}×)")


def distributed_bench(args):
    import ray

    ray.init(num_cpus=2, object_store_memory=80 * 1024 * 1024, include_dashboard=False,
             log_to_driver=False)
    value = ply.dots(**FOUR, moves=BOXES_26)["value"]
    base = median(lambda: ply.dots(**FOUR, moves=BOXES_26), args.runs)
    runs, resumes, jobs = [], [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as d:
            store = distributed.Store(os.path.join(d, "run.sqlite"))
            started = time.perf_counter()
            report = distributed.solve(FOUR, BOXES_26, store, workers=2)
            runs.append(time.perf_counter() - started)
            assert report["value"] == value
            jobs.append(report["job_seconds"]["sum"])
            started = time.perf_counter()
            again = distributed.solve(FOUR, BOXES_26, store, workers=2)
            resumes.append(time.perf_counter() - started)
            assert again["jobs"]["run"] == 0 and again["value"] == value
            store.close()
    print(f"4×4, 26 free (value {value}, {report['jobs']['leaves']} jobs): ply.dots {base:.3f} s (1.00); "
          f"distributed, 2 workers {statistics.median(runs) / base:.2f} "
          f"(jobs' own time summed {statistics.median(jobs) / base:.2f}); "
          f"resume from a full store {statistics.median(resumes) / base:.4f}")
    ray.shutdown()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["binding", "distributed", "labels"])
    parser.add_argument("--ply", default="target/debug/ply", help="the ply binary of the same profile")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    {"binding": binding, "distributed": distributed_bench, "labels": labels}[args.what](args)


if __name__ == "__main__":
    main()

"""Benchmarks of the Python package (figures in BENCHMARKS.md): medians of `--runs` runs.

    python crates/ply-py/bench/bench.py binding --ply target/debug/ply
    python crates/ply-py/bench/bench.py distributed --positions 34:1,34:2,35:1,36:1 --runs 3
    python crates/ply-py/bench/bench.py depths --positions 34:1,34:2 --depths 1,2,3
    python crates/ply-py/bench/bench.py workers --positions 34:1,34:2 --workers 1,2,4,8,16
    python crates/ply-py/bench/bench.py workers --positions 34:1,36:1 --depth 2 --share
    python crates/ply-py/bench/bench.py correct
    python crates/ply-py/bench/bench.py labels

`binding`: the same positions (the distinct grandchildren of a 3×3 position of 16 free edges; the
distinct children of a 4×4 position of 26 free edges) solved by `plysolve.dots_batch`, by `plysolve.dots` one
at a time, and by the `ply dots … --json` command once per position (the baseline).

`distributed`: 4×4 positions (`FREE:SEED`: `baselines/generators/dots_boxes_position.py 4 4
40-FREE SEED`), their value by `plysolve.dots` in this process on every core (the baseline) and on one,
and by `plysolve.distributed.solve` with 1 and 2 workers of one core each and 1 worker of 2 (a local Ray
of 2 CPUs started once, not counted; the actors, a new store and everything else counted), the five
interleaved in
each of `--runs` rounds: medians of wall and CPU time and of nodes, ratios to the baseline; the
jobs' sizes; the time each job costs beyond its own (1 worker: the solve's time less its jobs',
per job); and the parallelism one worker's tests allow (its jobs' time over the longest job of
each test, added up). `depths`: the same with 1 worker for each expansion depth: the work a deeper
split asks and the parallelism it allows. `workers`: the nodes 1, 2, 4, 8, 16 workers search, each
with a table of its own (a Ray of that many CPUs on this machine's cores: times meaningless, nodes
not), expanded as the command line does or to `--depth` plies; with `--share`, each count also
with the workers sharing their bounds (`--share-free`, `--shards`), and the traffic. `correct`: the distributed value (2 workers) against
`plysolve.dots` on 4×4 positions of 30–36 free edges and the empty 3×4 board. `labels`: exact labels
(value and every action's value) for random OpenSpiel 4×4 states of 20, 25 and 30 free edges
(uniformly random play from the empty board, seeded), by `plysolve.openspiel.label` on the whole batch,
against `plysolve.openspiel.analyse` one state at a time (the baseline): labels per second.

Each line printed is JSON (one measurement), then a summary line starting with `#`.
"""

import argparse
import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import plysolve
from plysolve import _ply, distributed

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
                plysolve.dots(**r)

        def batch():
            plysolve.dots_batch(requests)

        base = median(cli, args.runs)
        print(f"{name}: {len(positions)} positions; `ply dots --json` each {base:.3f} s (1.00); "
              f"plysolve.dots each {median(one_at_a_time, args.runs) / base:.2f}; "
              f"plysolve.dots_batch {median(batch, args.runs) / base:.2f}")


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
    from plysolve import openspiel

    for free, count in [(20, 200), (25, 100), (30, 20)]:
        states = random_states(free, count, seed=free)
        one = median(lambda: [openspiel.analyse(s) for s in states], args.runs)
        batch = median(lambda: openspiel.label(states), args.runs)
        print(f"4×4, {free} free: {count} states; analyse one at a time {count / one:.1f} labels/s "
              f"(1.00); label (batch) {count / batch:.1f} labels/s ({one / batch:.2f}×)")


ROOT = pathlib.Path(__file__).resolve().parents[3]


def position(free, seed):
    """The moves of the 4×4 position of `free` free edges the generator draws from `seed`."""
    generator = ROOT / "baselines" / "generators" / "dots_boxes_position.py"
    done = subprocess.run([sys.executable, str(generator), "4", "4", str(40 - free), str(seed)],
                          check=True, capture_output=True, text=True)
    return done.stdout.split()


def positions(text):
    """`34:1,36:2` → [(34, 1), (36, 2)]."""
    return [tuple(int(x) for x in p.split(":")) for p in text.split(",")]


def cpu_seconds():
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def single(board, moves, threads):
    """`plysolve.dots`'s value in this process on `threads` cores (None: every core)."""
    request = json.dumps(dict(board, moves=moves, detail="value"))
    cpu, started = cpu_seconds(), time.perf_counter()
    report = json.loads(_ply.dots(request, json.dumps({"memory": "4G"}), None, threads))
    return {"value": report["value"], "wall": time.perf_counter() - started,
            "cpu": cpu_seconds() - cpu, "nodes": report["states_visited"]}


def split(board, moves, workers, depth=None, threads=1, share=True, share_free=None, shards=1):
    """The distributed solve on `workers` workers of `threads` cores, with a new store; expanded
    as the command line does by default, or to `depth` plies. `parallelism` is what the root's tests
    allow by the jobs' seconds (their sum over the longest job of each test, added up: meaningful
    for one worker, whose jobs are only those the tests need), `node_parallelism` the same by
    nodes (load-independent). `share`: the workers share their bounds (`share_free`, `shards`:
    as `plysolve.distributed.solve` takes them); `shared` is the traffic."""
    expansion = {} if depth is None else {"depth": depth, "jobs": 10 ** 6}
    with tempfile.TemporaryDirectory() as d:
        store = distributed.Store(os.path.join(d, "run.sqlite"))
        cpu, started = cpu_seconds(), time.perf_counter()
        report = distributed.solve(board, moves, store, workers=workers, threads=threads,
                                   share=share, share_free=share_free, shards=shards,
                                   **expansion)
        wall = time.perf_counter() - started
        store.close()
    jobs = report["job_sizes"]
    longest = sum(t["longest_job"] for t in report["tests"])
    largest = sum(t["largest_job_nodes"] for t in report["tests"])
    return {"value": report["value"], "wall": wall, "cpu": cpu_seconds() - cpu + report["job_cpu"],
            "nodes": report["nodes"], "jobs": len(jobs), "leaves": report["jobs"]["leaves"],
            "cancelled": report["jobs"]["cancelled"], "tests": len(report["tests"]),
            "job_seconds": [round(j["seconds"], 4) for j in jobs],
            "overhead": (wall - report["job_seconds"]["sum"]) / max(1, len(jobs)),
            "parallelism": report["job_seconds"]["sum"] / longest if longest else None,
            "node_parallelism": report["nodes"] / largest if largest else None,
            "shared": report["shared"]}


def start_ray(cpus=2):
    """A local Ray of `cpus` CPUs (more than the machine's: workers that share its cores), its
    workers at this process's niceness (Ray's default adds 15: on a shared machine they would get
    less of the cores than the process they are measured against)."""
    import ray

    os.environ.setdefault("RAY_worker_niceness", "0")

    ray.init(num_cpus=cpus, object_store_memory=80 * 1024 * 1024, include_dashboard=False,
             log_to_driver=False)


def say(record):
    print(json.dumps(record), flush=True)


def median_of(runs, key):
    return statistics.median(r[key] for r in runs)


def distributed_bench(args):
    start_ray()
    print(f"# nproc {os.cpu_count()}, load {os.getloadavg()}", flush=True)
    for free, seed in positions(args.positions):
        moves = position(free, seed)
        found = {"every core": [], "one core": [], "1 worker": [], "2 workers": [],
                 "1 worker of 2 cores": []}
        for run in range(args.runs):
            for name, f in [("every core", lambda: single(FOUR, moves, None)),
                            ("one core", lambda: single(FOUR, moves, 1)),
                            ("1 worker", lambda: split(FOUR, moves, 1)),
                            ("2 workers", lambda: split(FOUR, moves, 2)),
                            ("1 worker of 2 cores", lambda: split(FOUR, moves, 1, threads=2))]:
                record = f()
                found[name].append(record)
                say(dict(record, free=free, seed=seed, run=run, what=name,
                         load=os.getloadavg()[0]))
        value = {r["value"] for rs in found.values() for r in rs}
        assert len(value) == 1, value
        base = found["every core"]
        summary = [f"# 4×4 {free} free seed {seed} value {value.pop()}:"]
        for name, runs in found.items():
            summary.append(
                f"{name} wall {median_of(runs, 'wall'):.2f} s "
                f"({median_of(runs, 'wall') / median_of(base, 'wall'):.2f}), "
                f"CPU {median_of(runs, 'cpu'):.2f} s ({median_of(runs, 'cpu') / median_of(base, 'cpu'):.2f}), "
                f"nodes {median_of(runs, 'nodes'):.3g} ({median_of(runs, 'nodes') / median_of(base, 'nodes'):.2f})")
        one = found["1 worker"]
        sizes = sorted(s for r in found["2 workers"] for s in r["job_seconds"])
        summary.append(
            f"1 worker / one core: wall {median_of(one, 'wall') / median_of(found['one core'], 'wall'):.2f}; "
            f"jobs {median_of(one, 'jobs')} of {one[0]['leaves']} leaves, overhead "
            f"{1000 * median_of(one, 'overhead'):.1f} ms a job, parallelism "
            f"{median_of(one, 'parallelism'):.2f}; 2 workers' jobs: "
            f"{quantiles(sizes)}")
        print("; ".join(summary), flush=True)


def quantiles(sizes):
    """min / median / 90th percentile / max of job seconds."""
    if not sizes:
        return "none"
    pick = lambda q: sizes[min(len(sizes) - 1, int(q * len(sizes)))]
    return (f"{len(sizes)} jobs, min {sizes[0]:.3f} s, median {pick(0.5):.3f} s, "
            f"90 % {pick(0.9):.3f} s, max {sizes[-1]:.2f} s")


def depths(args):
    start_ray()
    print(f"# nproc {os.cpu_count()}, load {os.getloadavg()}", flush=True)
    for free, seed in positions(args.positions):
        moves = position(free, seed)
        base = single(FOUR, moves, 1)
        say(dict(base, free=free, seed=seed, what="one core"))
        for depth in (int(d) for d in args.depths.split(",")):
            record = split(FOUR, moves, 1, depth)
            say(dict(record, free=free, seed=seed, what=f"1 worker, depth {depth}"))
            assert record["value"] == base["value"]
            print(f"# 4×4 {free} free seed {seed}, depth {depth}: {record['leaves']} leaves, "
                  f"{record['jobs']} jobs, nodes {record['nodes'] / base['nodes']:.2f}× one core's, "
                  f"CPU {record['cpu'] / base['cpu']:.2f}×, overhead "
                  f"{1000 * record['overhead']:.1f} ms a job, parallelism "
                  f"{record['parallelism']:.1f} (by nodes {record['node_parallelism']:.1f})",
                  flush=True)


def workers_bench(args):
    """The work `--workers` workers ask, each with a search table of its own (and, with
    `--share`, sharing the bounds of positions of at least `--share-free` free edges — default
    as the command line's — through one table), on a Ray of as many CPUs sharing this machine's
    cores: nodes against one core's search (the time is meaningless here, the nodes are not), and
    the shared table's traffic (entries sent and received, summed over the workers)."""
    counts = [int(w) for w in args.workers.split(",")]
    start_ray(max(counts))
    print(f"# nproc {os.cpu_count()}, load {os.getloadavg()}", flush=True)
    # (share, share_free) of each run of a count.
    frees = [None] if args.share_free is None else [int(f) for f in args.share_free.split(",")]
    shares = ([] if args.share_only else [(False, None)]) + (
        [(True, f) for f in frees] if args.share or args.share_only else [])
    for free, seed in positions(args.positions):
        moves = position(free, seed)
        base = single(FOUR, moves, 1)
        say(dict(base, free=free, seed=seed, what="one core"))
        line = [f"# 4×4 {free} free seed {seed}, depth {args.depth or 'as the command line'}, "
                f"nodes against one core's {base['nodes']:.3g}:"]
        for count in counts:
            for share, share_free in shares:
                record = split(FOUR, moves, count, args.depth, share=share,
                               share_free=share_free, shards=args.shards)
                assert record["value"] == base["value"]
                what = f"{count} workers" + (" sharing" if share else "")
                say(dict(record, free=free, seed=seed, what=what, load=os.getloadavg()[0]))
                traffic = record["shared"]
                sent = (f", from {traffic['from_free']} free: {traffic.get('sent', 0)} sent, "
                        f"{traffic.get('received', 0)} received" if traffic else "")
                line.append(f"{what} {record['nodes'] / base['nodes']:.2f} "
                            f"({record['jobs']} jobs, {record['cancelled']} cancelled, parallelism "
                            f"by nodes {record['node_parallelism']:.1f}{sent})")
        print(" ".join(line), flush=True)


def correct(args):
    start_ray()
    cases = [(f"4×4 {free} free seed {seed}", FOUR, position(free, seed))
             for free in (30, 31, 32, 33, 34, 35, 36)
             for seed in (range(1, 5) if free <= 33 else range(1, 3) if free <= 35 else [1])]
    cases.append(("3×4 empty", dict(game="boxes", rows=3, cols=4), []))
    agree = 0
    for name, board, moves in cases:
        expected = single(board, moves, None)
        found = split(board, moves, 2)
        agree += found["value"] == expected["value"]
        say({"position": name, "moves": " ".join(moves), "plysolve.dots": expected["value"],
             "distributed": found["value"], "single_wall": expected["wall"],
             "distributed_wall": found["wall"], "jobs": found["jobs"]})
    print(f"# {agree} of {len(cases)} distributed values equal plysolve.dots's", flush=True)
    assert agree == len(cases)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["binding", "distributed", "depths", "workers", "correct",
                                         "labels"])
    parser.add_argument("--ply", default="target/debug/ply", help="the ply binary of the same profile")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--positions", default="34:1,34:2,35:1,36:1",
                        help="4×4 positions FREE:SEED for distributed and depths")
    parser.add_argument("--depths", default="1,2,3", help="expansion depths for depths")
    parser.add_argument("--workers", default="1,2,4,8,16", help="worker counts for workers")
    parser.add_argument("--depth", type=int, help="expansion depth for workers (default: as the "
                        "command line expands)")
    parser.add_argument("--share", action="store_true",
                        help="workers: each count also with the workers sharing their bounds")
    parser.add_argument("--share-free",
                        help="workers --share: share positions of at least this many free edges, "
                        "each of a comma-separated list in turn (default: as the command line)")
    parser.add_argument("--share-only", action="store_true",
                        help="workers: only the runs sharing their bounds")
    parser.add_argument("--shards", type=int, default=1,
                        help="workers --share: Ray actors holding the shared table")
    args = parser.parse_args()
    {"binding": binding, "distributed": distributed_bench, "depths": depths,
     "workers": workers_bench, "correct": correct, "labels": labels}[args.what](args)


if __name__ == "__main__":
    main()

"""Benchmarks of the Python package (figures in BENCHMARKS.md): medians of `--runs` runs.

    python crates/ply-py/bench/bench.py binding --ply target/debug/ply
    python crates/ply-py/bench/bench.py distributed --positions 34:1,34:2,35:1,36:1 --runs 3
    python crates/ply-py/bench/bench.py distributed --positions 3x5 --runs 1 \
        --ways "1 worker;2 workers;2 workers, own tables"
    python crates/ply-py/bench/bench.py depths --positions 34:1,34:2 --depths 1,2,3
    python crates/ply-py/bench/bench.py workers --positions 34:1,34:2 --workers 1,2,4,8,16
    python crates/ply-py/bench/bench.py workers --positions 34:1,36:1 --depth 2 --share
    python crates/ply-py/bench/bench.py workers --positions 34:1 --depth 2 --host-table
    python crates/ply-py/bench/bench.py workers --positions 34:1 --workers 16,32 --depth 2 \
        --host-table --steal-after none,0.5 --brothers all,wait
    python crates/ply-py/bench/bench.py exchange --workers 2,4,8,16 --batches 100,1000,10000
    python crates/ply-py/bench/bench.py correct
    python crates/ply-py/bench/bench.py labels

`binding`: the same positions (the distinct grandchildren of a 3×3 position of 16 free edges; the
distinct children of a 4×4 position of 26 free edges) solved by `plysolve.dots_batch`, by `plysolve.dots` one
at a time, and by the `ply dots … --json` command once per position (the baseline).

`distributed`: 4×4 positions (`FREE:SEED`: `baselines/generators/dots_boxes_position.py 4 4
40-FREE SEED`) or empty boards (`RxC`: `3x5`), their value by `plysolve.dots` in this process on
every core (the baseline) and on one, and by `plysolve.distributed.solve` with 1 and 2 workers of
one core each — the two searching one table in the machine's shared memory (the default), and
each a table of its own (as two machines' workers would) — and 1 worker of 2 cores (a local Ray
of 2 CPUs started once, not counted; the actors, a new store and everything else counted),
expanded as the command line does or to `--depth` plies; the six, or those `--ways` names
(separated by `;`, among them also `1 worker, own table`, `2 workers, no stealing`, `2
workers, no split after a test` and `2 workers, all at once`), interleaved in each of `--runs`
rounds, the first named the baseline: medians of wall and CPU time and of nodes, ratios to the
baseline; the jobs' sizes; the time each job costs beyond its own (1 worker: the solve's time less its jobs',
per job); and the parallelism one worker's tests allow (its jobs' time over the longest job of
each test, added up). `depths`: the same with 1 worker for each expansion depth: the work a deeper
split asks and the parallelism it allows. `workers`: the nodes 1, 2, 4, 8, 16 workers search, each
with a table of its own (a Ray of that many CPUs on this machine's cores: times meaningless, nodes
not), expanded as the command line does or to `--depth` plies; with `--share`, each count also
with the workers sharing their bounds (`--share-free`, `--shards`), and the traffic; each also
for each `--steal-after` (seconds of a job's own core before a long job is split; none: never)
and `--brothers` (wait: younger children wait for the eldest's answer; all: asked at once) and
`--split-large` (on: after each root test the positions of its large jobs expanded, and a job
of a later test as large gives up and is split; off); the
span of the jobs in nodes (`critical_nodes`: the longest chain, each job after every job that
ended before it started; and the solve's own `span`, each job after the answer or split that made
it needed) and the time machines of a core each would take (`cluster_seconds`:
each stretch of the run with n jobs on this machine's c cores counted c / n). `exchange`: the shared table's exchange alone, no search: W simulated workers (Ray actors of no CPU,
`SimWorker`), each every `SHARE_EVERY` seconds (the solve's pace: a sleep, then a round) pushing a
batch of `--batches` new entries (key, lower, upper, best move) and pulling what the others pushed
since its offset, for `--seconds`, through each of `--engines` behind one interface (`push`, `pull`
on a worker's client; `usage`, `stop` on the engine): `actor` and `actor4` — the solve's own
`_Table`, 1 and 4 shards; `objects` — Ray's object store, a push one `ray.put` of the packed batch
(`pack`: 11 bytes an entry) registered in a `Directory` actor, a pull the refs since its offset
and one `ray.get`; `redis` — a `redis-server` this run starts on a free port (and stops), a push
one `XADD` of the packed batch to one stream, a pull one `XRANGE` from the last id, pipelined in
one round trip. Per engine, W and batch, the median of `--runs` runs (the engines interleaved in
each round of runs): entries pushed and delivered a second, the round (push + pull) median and
90th percentile, the delay from a push until another worker has it (median), the engine's own
CPU seconds (its processes; the object store's raylet added for `objects`), the memory it grew
by, and the ratios of entries delivered and of the round to `actor` in the same round.
`correct`: the distributed value (2 workers) against
`plysolve.dots` on 4×4 positions of 30–36 free edges and the empty 3×4 board. `labels`: exact labels
(value and every action's value) for random OpenSpiel 4×4 states of 20, 25 and 30 free edges
(uniformly random play from the empty board, seeded), by `plysolve.openspiel.label` on the whole batch,
against `plysolve.openspiel.analyse` one state at a time (the baseline): labels per second.

Each line printed is JSON (one measurement), then a summary line starting with `#`.
"""

import argparse
import array
import bisect
import collections
import itertools
import json
import os
import pathlib
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import unittest.mock

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
    """`34:1,36:2,3x5` → [(label, board, moves)]: `FREE:SEED` a 4×4 position of `position`'s,
    `RxC` the empty board of R rows and C columns of boxes."""
    found = []
    for spec in text.split(","):
        try:
            if "x" in spec:
                rows, cols = (int(x) for x in spec.split("x"))
                found.append((f"{rows}×{cols} empty", dict(game="boxes", rows=rows, cols=cols),
                              []))
            else:
                free, seed = (int(x) for x in spec.split(":"))
                found.append((f"4×4 {free} free seed {seed}", FOUR, position(free, seed)))
        except ValueError:
            print(f"bench.py: --positions: {spec[:40]!r} is neither FREE:SEED nor RxC",
                  file=sys.stderr)
            raise SystemExit(2) from None
    return found


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


def split(board, moves, workers, depth=None, threads=1, share=True, share_free=None, shards=1,
          host_table=True, memory="1G", steal_after=distributed.STEAL_AFTER, brothers_wait=True,
          split_large=True):
    """The distributed solve on `workers` workers of `threads` cores, with a new store; expanded
    as the command line does by default, or to `depth` plies. `parallelism` is what the root's tests
    allow by the jobs' seconds (their sum over the longest job of each test, added up: meaningful
    for one worker, whose jobs are only those the tests need), `node_parallelism` the same by
    nodes (load-independent). `share`: the workers share their bounds (`share_free`, `shards`:
    as `plysolve.distributed.solve` takes them); `shared` is the traffic. `host_table`: the
    workers of this machine search one table in its shared memory (false: each its own, as
    workers on separate machines would); `memory` each worker's (the command line's default
    1G); `steal_after`, `brothers_wait`, `split_large` as `solve` takes them (None: no work
    stealing)."""
    expansion = {} if depth is None else {"depth": depth, "jobs": 10 ** 6}
    pools = []

    class Counted(distributed._Pool):
        """The run's pool, each change of the number of jobs on the workers noted."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.events = [(time.perf_counter(), 0)]
            pools.append(self)

        def note(self):
            self.events.append((time.perf_counter(), len(self.running) + len(self.stopping)))

        def start(self, *args):
            started = super().start(*args)
            self.note()
            return started

        def next_result(self, *args):
            ended = super().next_result(*args)
            self.note()
            return ended

    with tempfile.TemporaryDirectory() as d, unittest.mock.patch.object(distributed, "_Pool",
                                                                       Counted):
        store = distributed.Store(os.path.join(d, "run.sqlite"))
        cpu, started = cpu_seconds(), time.perf_counter()
        report = distributed.solve(board, moves, store, workers=workers, threads=threads,
                                   share=share, share_free=share_free, shards=shards,
                                   host_table=host_table, memory=memory,
                                   steal_after=steal_after, brothers_wait=brothers_wait,
                                   split_large=split_large,
                                   **expansion)
        wall = time.perf_counter() - started
        store.close()
    events = (pools[0].events if pools else []) + [(started + wall, 0)]
    jobs = report["job_sizes"]
    critical = critical_nodes(jobs)
    longest = sum(t["longest_job"] for t in report["tests"])
    largest = sum(t["largest_job_nodes"] for t in report["tests"])
    return {"value": report["value"], "wall": wall, "cpu": cpu_seconds() - cpu + report["job_cpu"],
            "nodes": report["nodes"], "jobs": len(jobs), "leaves": report["jobs"]["leaves"],
            "cancelled": report["jobs"]["cancelled"], "tests": len(report["tests"]),
            "steals": report["jobs"]["steals"], "split_large": report["jobs"]["split_large"],
            "gave_up": report["jobs"]["gave_up"],
            "job_seconds": [round(j["seconds"], 4) for j in jobs],
            "overhead": (wall - report["job_seconds"]["sum"]) / max(1, len(jobs)),
            "parallelism": report["job_seconds"]["sum"] / longest if longest else None,
            "node_parallelism": report["nodes"] / largest if largest else None,
            "critical_nodes": critical, "span": report["span"], "shared": report["shared"],
            "cluster_seconds": cluster_seconds(started, events, os.cpu_count())}


def cluster_seconds(started, events, cores):
    """What a run on this machine's `cores`, its workers sharing them, would have taken on
    machines of a core each: `events` are (time, jobs running from then), and while n jobs run on
    fewer cores each gets cores / n of one (the kernel shares the cores fairly), so each second
    of such a stretch is cores / n seconds of a job's own core. The driver's own stretches (no
    job running) count whole."""
    total, last, running = 0.0, started, 0
    for at, now in events:
        total += (at - last) * min(1.0, cores / running if running else 1.0)
        last, running = at, now
    return total


def critical_nodes(jobs):
    """The longest chain of `jobs` (each with `started`, `ended` and `nodes`), counted in nodes,
    where a job follows every job that ended before it started (what it could have waited for,
    a wait for a worker taken as a wait for a result: the long side of the run's span, most with
    few workers). With the run's nodes N it bounds what W workers take (Brent): at most
    N / W + span."""
    ends, longest = [], [0]  # the jobs' ends in order; the longest chain ended by each
    for job in sorted(jobs, key=lambda j: j["ended"]):
        ready = longest[bisect.bisect_right(ends, job["started"])]
        ends.append(job["ended"])
        longest.append(max(longest[-1], ready + job["nodes"]))
    return longest[-1]


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


#: The ways `distributed` values a position, by name: (board, moves, arguments) → a record.
DISTRIBUTED_WAYS = {
    "every core": lambda board, moves, args: single(board, moves, None),
    "one core": lambda board, moves, args: single(board, moves, 1),
    "1 worker": lambda board, moves, args: split(board, moves, 1, args.depth,
                                                  memory=args.memory),
    "1 worker, own table": lambda board, moves, args: split(board, moves, 1, args.depth,
                                                             host_table=False,
                                                             memory=args.memory),
    "2 workers": lambda board, moves, args: split(board, moves, 2, args.depth,
                                                   memory=args.memory),
    "2 workers, own tables": lambda board, moves, args: split(board, moves, 2, args.depth,
                                                               host_table=False,
                                                               memory=args.memory),
    "1 worker of 2 cores": lambda board, moves, args: split(board, moves, 1, args.depth,
                                                             threads=2, memory=args.memory),
    "2 workers, no stealing": lambda board, moves, args: split(board, moves, 2, args.depth,
                                                                memory=args.memory,
                                                                steal_after=None),
    "2 workers, no split after a test": lambda board, moves, args: split(
        board, moves, 2, args.depth, memory=args.memory, split_large=False),
    "2 workers, all at once": lambda board, moves, args: split(board, moves, 2, args.depth,
                                                                memory=args.memory,
                                                                steal_after=None,
                                                                brothers_wait=False),
}


#: The ways `distributed` runs unless `--ways` names others, the baseline first.
DEFAULT_WAYS = ["every core", "one core", "1 worker", "2 workers", "2 workers, own tables",
                "1 worker of 2 cores"]


def distributed_bench(args):
    names = args.ways.split(";") if args.ways else DEFAULT_WAYS
    unknown = [n for n in names if n not in DISTRIBUTED_WAYS]
    if unknown or "1 worker" not in names:
        print(f"bench.py: --ways: {unknown or 'no 1 worker'}: the ways are "
              f"{'; '.join(DISTRIBUTED_WAYS)}; 1 worker among them", file=sys.stderr)
        raise SystemExit(2)
    chosen = positions(args.positions)
    start_ray()
    print(f"# nproc {os.cpu_count()}, load {os.getloadavg()}", flush=True)
    for label, board, moves in chosen:
        found = {name: [] for name in names}
        for run in range(args.runs):
            for name in names:
                record = DISTRIBUTED_WAYS[name](board, moves, args)
                found[name].append(record)
                say(dict(record, position=label, run=run, what=name, load=os.getloadavg()[0]))
        value = {r["value"] for rs in found.values() for r in rs}
        assert len(value) == 1, value
        base = found[names[0]]
        summary = [f"# {label} value {value.pop()} (ratios to {names[0]}):"]
        for name, runs in found.items():
            summary.append(
                f"{name} wall {median_of(runs, 'wall'):.2f} s "
                f"({median_of(runs, 'wall') / median_of(base, 'wall'):.2f}), "
                f"CPU {median_of(runs, 'cpu'):.2f} s ({median_of(runs, 'cpu') / median_of(base, 'cpu'):.2f}), "
                f"nodes {median_of(runs, 'nodes'):.3g} ({median_of(runs, 'nodes') / median_of(base, 'nodes'):.2f})")
        one = found["1 worker"]
        sizes = sorted(s for r in found.get("2 workers", one) for s in r["job_seconds"])
        if "one core" in found:
            summary.append(f"1 worker / one core: wall "
                           f"{median_of(one, 'wall') / median_of(found['one core'], 'wall'):.2f}")
        summary.append(
            f"1 worker: jobs {median_of(one, 'jobs')} of {one[0]['leaves']} leaves, overhead "
            f"{1000 * median_of(one, 'overhead'):.1f} ms a job, parallelism "
            f"{median_of(one, 'parallelism'):.2f}; the jobs ({'2 workers' if '2 workers' in found else '1 worker'}): "
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
    chosen = positions(args.positions)
    start_ray()
    print(f"# nproc {os.cpu_count()}, load {os.getloadavg()}", flush=True)
    for label, board, moves in chosen:
        base = single(board, moves, 1)
        say(dict(base, position=label, what="one core"))
        for depth in (int(d) for d in args.depths.split(",")):
            record = split(board, moves, 1, depth)
            say(dict(record, position=label, what=f"1 worker, depth {depth}"))
            assert record["value"] == base["value"]
            print(f"# {label}, depth {depth}: {record['leaves']} leaves, "
                  f"{record['jobs']} jobs, nodes {record['nodes'] / base['nodes']:.2f}× one core's, "
                  f"CPU {record['cpu'] / base['cpu']:.2f}×, overhead "
                  f"{1000 * record['overhead']:.1f} ms a job, parallelism "
                  f"{record['parallelism']:.1f} (by nodes {record['node_parallelism']:.1f})",
                  flush=True)


def workers_bench(args):
    """The work `--workers` workers ask, each with a search table of its own as on machines of
    their own (and, with `--share`, sharing the bounds of positions of at least `--share-free`
    free edges — default as the command line's — through one table; with `--host-table`, all
    searching one table, as on one machine of that many cores), on a Ray of as many CPUs sharing
    this machine's cores: nodes against one core's search, the shared table's traffic (entries
    sent and received, summed over the workers), the span of the jobs (`critical_nodes`) and the
    time machines of a core each would have taken (`cluster_seconds`: the run's wall time, each
    stretch with n jobs running on these c cores counted c / n; a running job's time here is
    that much slower, so `--steal-after` S is S × W / c seconds of wall time here)."""
    counts = [int(w) for w in (args.workers or "1,2,4,8,16").split(",")]
    chosen = positions(args.positions)
    start_ray(max(counts))
    print(f"# nproc {os.cpu_count()}, load {os.getloadavg()}", flush=True)
    # (share, share_free) of each run of a count.
    frees = [None] if args.share_free is None else [int(f) for f in args.share_free.split(",")]
    shares = ([] if args.share_only else [(False, None)]) + (
        [(True, f) for f in frees] if args.share or args.share_only else [])
    steals = [None if a == "none" else float(a) for a in args.steal_after.split(",")]
    waits = [w == "wait" for w in args.brothers.split(",")]
    larges = [w == "on" for w in args.split_large.split(",")]
    for label, board, moves in chosen:
        base = single(board, moves, 1)
        say(dict(base, position=label, what="one core"))
        line = [f"# {label}, depth {args.depth or 'as the command line'}, "
                f"nodes against one core's {base['nodes']:.3g}:"]
        for count, (share, share_free), steal, wait, large in itertools.product(
                counts, shares, steals, waits, larges):
            # A job's second of its own core is count / cores seconds here.
            slowed = None if steal is None else steal * max(1.0, count / os.cpu_count())
            record = split(board, moves, count, args.depth, share=share,
                           share_free=share_free, shards=args.shards,
                           host_table=args.host_table, steal_after=slowed, brothers_wait=wait,
                           split_large=large)
            assert record["value"] == base["value"]
            what = (f"{count} workers" + (" sharing" if share else "")
                    + (", one table" if args.host_table else "")
                    + (f", stealing after {steal} s" if steal is not None else ", no stealing")
                    + (", young brothers wait" if wait else "")
                    + (", large jobs split after a test" if large else ""))
            say(dict(record, position=label, what=what, load=os.getloadavg()[0]))
            traffic = record["shared"]
            sent = (f", from {traffic['from_free']} free: {traffic.get('sent', 0)} sent, "
                    f"{traffic.get('received', 0)} received" if traffic else "")
            line.append(f"{what} {record['nodes'] / base['nodes']:.2f} "
                        f"({record['jobs']} jobs, {record['cancelled']} cancelled, "
                        f"{record['steals']} stolen, {record['split_large']} split after a "
                        f"test, {record['gave_up']} gave up, parallelism by nodes "
                        f"{record['node_parallelism']:.1f}, span "
                        f"{record['critical_nodes'] / base['nodes']:.3f} of one core's nodes "
                        f"(waited on: {record['span']['nodes'] / base['nodes']:.3f}, "
                        f"{record['span']['jobs']} jobs), "
                        f"{record['cluster_seconds']:.2f} s on machines of a core each: "
                        f"{base['wall'] / record['cluster_seconds']:.1f}× one core{sent})")
        print(" ".join(line), flush=True)


# The exchange alone (`exchange`): engines behind one interface, simulated workers, figures.

#: Bytes of one packed entry: key u64, lower i8, upper i8, best move u8 (255: none).
ENTRY_BYTES = 11
NO_MOVE = 255


def pack(entries):
    """A batch of entries (key, lower, upper, best or None) as bytes, column by column."""
    keys = array.array("Q", [e[0] for e in entries])
    lowers = array.array("b", [e[1] for e in entries])
    uppers = array.array("b", [e[2] for e in entries])
    best = bytes(NO_MOVE if e[3] is None else e[3] for e in entries)
    return keys.tobytes() + lowers.tobytes() + uppers.tobytes() + best


def unpack(data):
    """The entries `pack` packed into `data`."""
    n = len(data) // ENTRY_BYTES
    keys, lowers, uppers = array.array("Q"), array.array("b"), array.array("b")
    keys.frombytes(data[:8 * n])
    lowers.frombytes(data[8 * n:9 * n])
    uppers.frombytes(data[9 * n:10 * n])
    return [(k, lo, up, None if b == NO_MOVE else b)
            for k, lo, up, b in zip(keys, lowers, uppers, data[10 * n:])]


def process_usage(started=None):
    """This process's CPU seconds, its resident memory and its peak (bytes); with `started` (an
    earlier answer), the CPU since and the memory grown since."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    with open("/proc/self/statm") as f:
        rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    now = {"cpu": used.ru_utime + used.ru_stime, "rss": rss, "peak": used.ru_maxrss * 1024}
    if started is None:
        return now
    return {"cpu": now["cpu"] - started["cpu"], "memory": max(0, now["peak"] - started["rss"])}


class MeasuredTable(distributed._Table):
    """The solve's `_Table` shard, telling its process's CPU and memory grown since it started."""

    def __init__(self):
        super().__init__()
        self.started = process_usage()

    def usage(self):
        """CPU seconds and memory grown since the shard started."""
        return process_usage(self.started)


# The engines' one interface: `client(worker)` (what the worker is sent: `push(entries)`, then
# `pull()` → the other workers' entries since its last pull), `usage()` (the engine's CPU
# seconds and memory grown, asked after the run) and `stop()`.


class ActorEngine:
    """(a) The solve's table: `shards` `_Table` actors, entries spread by key; a worker's round is
    one `exchange` call a shard (its push kept until its pull, as `_Sharer` does)."""

    def __init__(self, ray, shards):
        self.ray = ray
        table = ray.remote(num_cpus=0, max_restarts=0)(MeasuredTable)
        self.tables = [table.remote() for _ in range(shards)]
        ray.get([t.usage.remote() for t in self.tables])

    def client(self, worker):
        return ActorClient(self.tables, worker)

    def usage(self):
        each = self.ray.get([t.usage.remote() for t in self.tables])
        return {k: sum(u[k] for u in each) for k in ("cpu", "memory")}

    def stop(self):
        for t in self.tables:
            self.ray.kill(t)


class ActorClient:
    """A worker's side of `ActorEngine`."""

    def __init__(self, tables, worker):
        self.tables, self.worker = tables, worker
        self.offsets = [0] * len(tables)
        self.parts = [[] for _ in tables]

    def push(self, entries):
        for e in entries:
            self.parts[e[0] % len(self.tables)].append(e)

    def pull(self):
        import ray

        replies = ray.get([t.exchange.remote(self.worker, part, offset)
                           for t, part, offset in zip(self.tables, self.parts, self.offsets)])
        self.parts = [[] for _ in self.tables]
        news = []
        for i, (got, offset) in enumerate(replies):
            news += got
            self.offsets[i] = offset
        return news


class Directory:
    """(b) The object store's directory: the refs of the packed batches the workers put, in the
    order registered, the newest `most` entries' worth kept (as `_Table` keeps entries); its
    process's CPU and memory, and the most bytes of batches it held at once (in the store)."""

    def __init__(self, most=distributed.SHARE_TABLE_ENTRIES):
        self.log = collections.deque()
        self.first, self.held, self.most = 0, 0, most
        self.peak_bytes = 0
        self.started = process_usage()

    def register(self, worker, refs, entries):
        """Keeps the ref (in a list: not resolved) of a batch of `entries` from `worker`."""
        self.log.append((worker, refs[0], entries))
        self.held += entries
        while self.held > self.most and len(self.log) > 1:
            self.held -= self.log.popleft()[2]
            self.first += 1
        self.peak_bytes = max(self.peak_bytes, self.held * ENTRY_BYTES)

    def since(self, worker, offset):
        """The refs of the other workers' batches from `offset` on (in a list: not resolved),
        and the offset to ask from next."""
        skip = max(0, offset - self.first)
        refs = [ref for w, ref, _ in itertools.islice(self.log, skip, None) if w != worker]
        return refs, self.first + len(self.log)

    def usage(self):
        """CPU seconds and memory grown since it started, and the most bytes it held."""
        return dict(process_usage(self.started), store_bytes=self.peak_bytes)


class ObjectsEngine:
    """(b) Ray's object store: a push is `ray.put` of the packed batch, its ref registered in a
    `Directory` actor (not waited for); a pull asks the directory for the refs since the
    worker's offset and `ray.get`s them. Its CPU: the directory's and the raylet's (which holds
    the object store) during the run."""

    def __init__(self, ray):
        self.ray = ray
        self.directory = ray.remote(num_cpus=0, max_restarts=0)(Directory).remote()
        ray.get(self.directory.usage.remote())
        self.raylet = raylet_cpu()

    def client(self, worker):
        return ObjectsClient(self.directory, worker)

    def usage(self):
        used = self.ray.get(self.directory.usage.remote())
        return {"cpu": used["cpu"] + raylet_cpu() - self.raylet,
                "memory": used["memory"] + used["store_bytes"]}

    def stop(self):
        self.ray.kill(self.directory)


class ObjectsClient:
    """A worker's side of `ObjectsEngine`."""

    def __init__(self, directory, worker):
        self.directory, self.worker, self.offset = directory, worker, 0

    def push(self, entries):
        import ray

        if entries:
            self.directory.register.remote(self.worker, [ray.put(pack(entries))], len(entries))

    def pull(self):
        import ray

        refs, self.offset = ray.get(self.directory.since.remote(self.worker, self.offset))
        return [e for data in ray.get(refs) for e in unpack(data)]


def raylet_cpu():
    """CPU seconds of this Ray's raylet (its object store's process) so far."""
    import ray

    node = ray._private.worker._global_node
    pid = node.all_processes["raylet"][0].process.pid
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port():
    """A TCP port of 127.0.0.1 free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The stream of the Redis engine.
STREAM = "ply:shared"


class RedisEngine:
    """(c) A `redis-server` started for the run on a free port (no persistence), stopped after:
    a push is one `XADD` of the packed batch to one stream (trimmed to about the newest
    `SHARE_TABLE_ENTRIES` entries), a pull one `XRANGE` from the worker's last id, both in one
    pipelined round trip. Its CPU and memory: the server's own (`INFO`)."""

    def __init__(self, batch):
        import redis

        server = shutil.which("redis-server")
        if server is None:
            raise SystemExit("exchange: no redis-server on PATH (apt-get install redis-server)")
        self.port = free_port()
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.redis = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                self.redis.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise
                time.sleep(0.05)
        self.most = max(1, distributed.SHARE_TABLE_ENTRIES // batch)
        self.memory = self.redis.info("memory")["used_memory"]

    def client(self, worker):
        return RedisClient(self.port, worker, self.most)

    def usage(self):
        info = self.redis.info()
        return {"cpu": info["used_cpu_user"] + info["used_cpu_sys"],
                "memory": max(0, info["used_memory_peak"] - self.memory)}

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class RedisClient:
    """A worker's side of `RedisEngine`: sent to the worker as its port, it connects there."""

    def __init__(self, port, worker, most):
        self.__setstate__((port, worker, most))

    def __getstate__(self):
        return self.port, self.worker, self.most

    def __setstate__(self, state):
        import redis

        self.port, self.worker, self.most = state
        self.pipe = redis.Redis(port=self.port).pipeline(transaction=False)
        self.last = "0-0"

    def push(self, entries):
        if entries:
            self.pipe.xadd(STREAM, {"w": self.worker, "d": pack(entries)}, maxlen=self.most,
                           approximate=True)

    def pull(self):
        self.pipe.xrange(STREAM, min="(" + self.last)
        got = self.pipe.execute()[-1]
        news = []
        for mid, fields in got:
            if int(fields[b"w"]) != self.worker:
                news += unpack(fields[b"d"])
        if got:
            self.last = got[-1][0].decode()
        return news


#: Each engine by its `--engines` name, made for a run of batches of `batch` entries.
ENGINES = {
    "actor": lambda ray, batch: ActorEngine(ray, 1),
    "actor4": lambda ray, batch: ActorEngine(ray, 4),
    "objects": lambda ray, batch: ObjectsEngine(ray),
    "redis": lambda ray, batch: RedisEngine(batch),
}


class SimWorker:
    """A simulated worker of the solve (a Ray actor of no CPU): the exchange's side of `_Sharer`
    without the search."""

    def run(self, client, worker, batch, seconds, start_at):
        """From `start_at` (plus a random part of the interval) for `seconds`: every
        `SHARE_EVERY` seconds a round — a push of `batch` new entries, then a pull. Each entry's
        key holds its worker and round (`worker << 56 | round << 32`), so the receiver can say
        when it got whose push. Returns the rounds' seconds, when each push started, when each
        other worker's push arrived, the entries sent and received and this process's CPU."""
        rng = random.Random(worker)
        base = [(rng.getrandbits(32), -2 * rng.randrange(3), 2 * rng.randrange(3),
                 rng.choice([None, rng.randrange(64)])) for _ in range(batch)]
        stride = max(1, batch // 64)
        # Each run its own phases (as workers started at any time), the same entries.
        phase = random.random() * distributed.SHARE_EVERY
        time.sleep(max(0.0, start_at - time.time()) + phase)
        used = process_usage()
        rounds, pushed, arrived = [], {}, {}
        sent = received = 0
        for seq in itertools.count():
            time.sleep(distributed.SHARE_EVERY)
            if time.time() >= start_at + seconds:
                break
            head = worker << 56 | seq << 32
            entries = [(head | k, lo, up, best) for k, lo, up, best in base]
            began = time.time()
            client.push(entries)
            news = client.pull()
            ended = time.time()
            rounds.append(ended - began)
            pushed[seq] = began
            for key in {e[0] >> 32 for e in news[::stride]}:
                arrived.setdefault(key, ended)
            sent += len(entries)
            received += len(news)
        return {"rounds": rounds, "pushed": pushed, "arrived": arrived, "sent": sent,
                "received": received, "cpu": process_usage(used)["cpu"], "ended": time.time()}


def exchange_run(ray, workers, engine_name, count, batch, seconds):
    """One run of `count` simulated workers through a new engine: its figures."""
    engine = ENGINES[engine_name](ray, batch)
    try:
        start_at = time.time() + 1.0
        results = ray.get([workers[i].run.remote(engine.client(i), i, batch, seconds, start_at)
                           for i in range(count)])
        usage = engine.usage()
    finally:
        engine.stop()
    wall = max(r["ended"] for r in results) - start_at
    rounds = sorted(t for r in results for t in r["rounds"])
    delays = sorted(t - results[key >> 24]["pushed"][key & 0xFFFFFF]
                    for r in results for key, t in r["arrived"].items())
    pick = lambda xs, q: xs[min(len(xs) - 1, int(q * len(xs)))] if xs else None
    return {"engine": engine_name, "workers": count, "batch": batch,
            "pushed_per_s": sum(r["sent"] for r in results) / wall,
            "delivered_per_s": sum(r["received"] for r in results) / wall,
            "rounds": len(rounds), "round_median": pick(rounds, 0.5),
            "round_p90": pick(rounds, 0.9), "delay_median": pick(delays, 0.5),
            "engine_cpu": usage["cpu"], "engine_mb": usage["memory"] / 2 ** 20,
            "workers_cpu": sum(r["cpu"] for r in results), "wall": wall}


def exchange(args):
    """The exchange alone: each engine, each worker count and batch size, `--runs` times (the
    engines interleaved in each round of runs); a JSON line per run, then a summary table of
    medians with ratios to `actor` (1 shard) in the same round."""
    import ray

    start_ray(2)
    counts = [int(w) for w in (args.workers or "2,4,8,16").split(",")]
    batches = [int(b) for b in args.batches.split(",")]
    engines = args.engines.split(",")
    if "actor" not in engines:
        engines.insert(0, "actor")
    workers = [ray.remote(num_cpus=0)(SimWorker).remote() for _ in range(max(counts))]
    print(f"# nproc {os.cpu_count()}, load {os.getloadavg()}", flush=True)
    rows = []
    for count in counts:
        for batch in batches:
            found = collections.defaultdict(list)
            for run in range(args.runs):
                for name in engines:
                    record = exchange_run(ray, workers, name, count, batch, args.seconds)
                    record.update(run=run, load=os.getloadavg()[0])
                    found[name].append(record)
                    say(record)
                for name in engines:
                    mine, base = found[name][-1], found["actor"][-1]
                    mine["delivered_ratio"] = mine["delivered_per_s"] / max(1.0, base["delivered_per_s"])
                    mine["round_ratio"] = mine["round_median"] / base["round_median"]
            for name in engines:
                runs = found[name]
                rows.append({k: statistics.median(r[k] for r in runs) if isinstance(runs[0][k], float)
                             else runs[0][k] for k in runs[0] if k not in ("run", "load")})
    print("# workers | batch | engine | pushed/s | delivered/s (× actor) | round median, p90 s "
          "(× actor) | delay median s | engine CPU s | engine MB | workers' CPU s", flush=True)
    for r in rows:
        print(f"# {r['workers']} | {r['batch']} | {r['engine']} | {r['pushed_per_s']:.0f} | "
              f"{r['delivered_per_s']:.0f} ({r['delivered_ratio']:.2f}) | "
              f"{r['round_median']:.4f}, {r['round_p90']:.4f} ({r['round_ratio']:.2f}) | "
              f"{r['delay_median']:.3f} | {r['engine_cpu']:.2f} | {r['engine_mb']:.1f} | "
              f"{r['workers_cpu']:.2f}", flush=True)


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
    parser.add_argument("what", choices=["binding", "distributed", "depths", "workers", "exchange",
                                         "correct", "labels"])
    parser.add_argument("--ply", default="target/debug/ply", help="the ply binary of the same profile")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--positions", default="34:1,34:2,35:1,36:1",
                        help="positions for distributed, depths and workers: 4×4 ones FREE:SEED, "
                             "empty boards RxC (3x5)")
    parser.add_argument("--ways", help="distributed: the ways to run, separated by ;, 1 worker "
                        f"among them (of {'; '.join(DISTRIBUTED_WAYS)}; default {'; '.join(DEFAULT_WAYS)})")
    parser.add_argument("--memory", default="1G",
                        help="distributed: each worker's memory (the table in process: 4G)")
    parser.add_argument("--depths", default="1,2,3", help="expansion depths for depths")
    parser.add_argument("--workers", help="worker counts for workers (default 1,2,4,8,16) and "
                        "exchange (default 2,4,8,16)")
    parser.add_argument("--depth", type=int, help="expansion depth for workers and distributed "
                        "(default: as the command line expands)")
    parser.add_argument("--share", action="store_true",
                        help="workers: each count also with the workers sharing their bounds")
    parser.add_argument("--share-free",
                        help="workers --share: share positions of at least this many free edges, "
                        "each of a comma-separated list in turn (default: as the command line)")
    parser.add_argument("--host-table", action="store_true",
                        help="workers: all the workers search one table, as on one machine (default: "
                             "each its own, as on machines of their own)")
    parser.add_argument("--share-only", action="store_true",
                        help="workers: only the runs sharing their bounds")
    parser.add_argument("--steal-after", default=str(distributed.STEAL_AFTER),
                        help="workers: seconds before a running job's position is split for an "
                             "idle worker, each of a comma-separated list in turn (none: never)")
    parser.add_argument("--brothers", default="wait",
                        help="workers: wait (a position's younger children wait for the eldest's "
                             "answer) or all (asked at once), each of a comma-separated list")
    parser.add_argument("--split-large", default="on",
                        help="workers: on (after each root test the positions of its large jobs "
                             "expanded) or off, each of a comma-separated list")
    parser.add_argument("--shards", type=int, default=1,
                        help="workers --share: Ray actors holding the shared table")
    parser.add_argument("--batches", default="100,1000,10000",
                        help="exchange: entries a worker pushes a round, each in turn")
    parser.add_argument("--engines", default="actor,actor4,objects,redis",
                        help="exchange: the engines (actor: 1 shard, actor4: 4; objects; redis)")
    parser.add_argument("--seconds", type=float, default=4.0,
                        help="exchange: seconds each run of the workers pushes and pulls")
    args = parser.parse_args()
    {"binding": binding, "distributed": distributed_bench, "depths": depths,
     "workers": workers_bench, "exchange": exchange, "correct": correct, "labels": labels}[args.what](args)


if __name__ == "__main__":
    main()

"""A dots position solved past one machine: a job-level proof search on Ray, resumable.

    python -m ply.distributed boxes --rows 4 --cols 4 --moves "…" --workers 2 --store run.sqlite
    python -m ply.distributed triangles --size 5 --workers 64 --store /shared/run.sqlite \\
        --address ray://head:10001

The front end (this process) expands the position a few plies into distinct positions — the
moves the search itself would try (capture rules, twins) and one position per class under the
board's symmetries, transpositions merged (``ply._ply.dots_expand``) — and hands each leaf to Ray
as a job: ply's search of that position (its value, on ``--threads`` cores of some worker).
Proved values flow back up by Wilson's rule on bounds (``ply._ply.dots_combine``); a position is
settled as soon as what its children proved leaves it one value, and the jobs only it needed are
cancelled. This is how checkers was solved: a front-end manager over back-end alpha-beta solvers.

Every proved position — each job as it finishes, each expanded position as it is settled — is
written at once to a SQLite store (key, bounds, best move, nodes, seconds). A run killed at any
point and started again with the same store redoes no proved job; two runs may share a store
(SQLite's write-ahead log, a busy timeout). The store is the record of the solve.

Prints one JSON object: ``value``, ``jobs: {"run", "from_store", "cancelled", "leaves"}``, job
sizes and times.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from . import _ply

__all__ = ["Store", "solve", "main"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS proved (
    key       TEXT PRIMARY KEY,  -- the position up to symmetries and twins (ply's jobs::key)
    lower     INTEGER NOT NULL,  -- bounds on its value for the player to move
    upper     INTEGER NOT NULL,
    best_move TEXT,              -- a best move (expanded positions; null for a job's value alone)
    moves     TEXT NOT NULL,     -- the moves that reached it, as ply notation
    nodes     INTEGER NOT NULL,  -- search nodes (for an expanded position: its jobs' sum)
    seconds   REAL NOT NULL,     -- time of the job (for an expanded position: its jobs' sum)
    kind      TEXT NOT NULL,     -- 'job' or 'expanded'
    written   REAL NOT NULL      -- when it was written (Unix time)
)
"""


class Store:
    """The SQLite record of a solve: one row per proved position, written as it is proved."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db = sqlite3.connect(path, timeout=60, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(SCHEMA)

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        """The proved row of ``key``, if any."""
        row = self._db.execute(
            "SELECT lower, upper, best_move, nodes, seconds, kind FROM proved WHERE key = ?",
            (key,),
        ).fetchone()
        if row is None or row[0] != row[1]:
            return None
        return dict(zip(("lower", "upper", "best_move", "nodes", "seconds", "kind"), row))

    def put(
        self,
        key: str,
        lower: int,
        upper: int,
        best_move: Optional[str],
        moves: List[str],
        nodes: int,
        seconds: float,
        kind: str,
    ) -> None:
        """Writes a proved position (committed at once)."""
        self._db.execute(
            "INSERT OR REPLACE INTO proved VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, lower, upper, best_move, " ".join(moves), nodes, seconds, kind, time.time()),
        )

    def count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM proved").fetchone()[0]

    def close(self) -> None:
        self._db.close()


def _job(request: str, memory: Optional[str], threads: int) -> Dict[str, Any]:
    """One job, on a worker: ply's search of one position (its value alone)."""
    started = time.perf_counter()
    report = json.loads(_ply.dots(request, memory, None, threads))
    return {
        "lower": report["value"],
        "upper": report["value"],
        "nodes": report["states_visited"],
        "strategy": report["strategy"],
        "seconds": time.perf_counter() - started,
    }


@dataclass
class Node:
    """A position of the expanded tree (a DAG: transpositions are one node)."""

    key: str
    moves: List[str]
    free: int
    cells: int
    #: (points, child key, move) of each distinct child, once expanded.
    children: Optional[List[Tuple[int, str, str]]] = None
    parents: List[str] = field(default_factory=list)
    range: Optional[Tuple[int, int]] = None
    nodes: int = 0
    seconds: float = 0.0

    @property
    def proved(self) -> bool:
        return self.range is not None and self.range[0] == self.range[1]


def _request(board: Dict[str, Any], moves: List[str], detail: str = "value") -> str:
    return json.dumps(dict(board, moves=moves, detail=detail))


def solve(
    board: Dict[str, Any],
    moves: List[str],
    store: Store,
    workers: int = 2,
    threads: int = 1,
    jobs: Optional[int] = None,
    depth: int = 3,
    min_free: int = 20,
    memory: Optional[str] = "1G",
    address: Optional[str] = None,
    log: Any = None,
) -> Dict[str, Any]:
    """Solves the position after ``moves`` on ``board`` (``{"game": "boxes", "rows": 4,
    "cols": 4}``) with Ray; see the module's docs. Expands one ply, and more (breadth first, at
    most ``depth`` plies) only while fewer than ``jobs`` (default ``2 × workers``) leaves are open,
    never a position of at most ``min_free`` free edges (a job of its own is cheaper). Jobs prove
    exact values (the engine's search takes no window from outside), so every ply expanded asks
    for the exact value of positions a search would only bound: the fewest plies that keep the
    workers busy are the fastest. Starts a local Ray of ``workers ×
    threads`` CPUs unless ``address`` names a cluster. Returns the report ``main`` prints."""
    started = time.perf_counter()
    target = jobs if jobs is not None else 2 * workers
    say = log or (lambda _msg: None)
    root_node = json.loads(_ply.dots_expand(_request(board, moves)))
    counts = {"run": 0, "from_store": 0, "cancelled": 0, "leaves": 0}
    nodes: Dict[str, Node] = {}
    root = Node(root_node["key"], list(moves), root_node["free"], root_node["cells"])
    nodes[root.key] = root
    expansions = {root.key: root_node}

    def from_store(node: Node) -> bool:
        row = store.get(node.key)
        if row is None:
            return False
        node.range = (row["lower"], row["upper"])
        node.nodes, node.seconds = row["nodes"], row["seconds"]
        counts["from_store"] += 1
        return True

    # Expansion, breadth first, leaves found in the store settled at once.
    frontier: List[Node] = [] if from_store(root) else [root]
    level = 0
    while frontier and level < depth:
        open_leaves = sum(1 for n in frontier if not n.proved)
        if level > 0 and open_leaves >= target:
            break
        next_frontier: List[Node] = []
        for node in frontier:
            if node.proved or (node.free <= min_free and node is not root):
                next_frontier.append(node)
                continue
            expanded = expansions.pop(node.key, None) or json.loads(
                _ply.dots_expand(_request(board, node.moves))
            )
            node.children = []
            for c in expanded["children"]:
                node.children.append((c["points"], c["key"], c["move"]))
                child = nodes.get(c["key"])
                if child is None:
                    child = Node(c["key"], c["moves"], c["free"], c["cells"])
                    nodes[c["key"]] = child
                    if not from_store(child):
                        next_frontier.append(child)
                child.parents.append(node.key)
        frontier = next_frontier
        level += 1
    leaves = [n for n in nodes.values() if n.children is None and not n.proved]
    counts["leaves"] = len(leaves) + sum(
        1 for n in nodes.values() if n.children is None and n.proved
    )
    say(f"expanded {level} plies: {len(nodes)} positions, {len(leaves)} jobs to run")

    def settle(key: str) -> None:
        """Recomputes an expanded node's bounds from its children; writes and goes up once proved."""
        node = nodes[key]
        if node.proved or node.children is None:
            return
        children = [(p, nodes[k].range) for p, k, _ in node.children]
        lower, upper = _ply.dots_combine(node.cells, children)
        node.range = (lower, upper)
        if lower != upper:
            return
        best = None
        for p, k, mv in node.children:
            r = nodes[k].range
            if r is not None and r[0] == r[1] and _ply.dots_combine(node.cells, [(p, r)])[0] == lower:
                best = mv
                break
        node.nodes = sum(nodes[k].nodes for _, k, _ in node.children)
        node.seconds = sum(nodes[k].seconds for _, k, _ in node.children)
        store.put(node.key, lower, upper, best, node.moves, node.nodes, node.seconds, "expanded")
        for parent in node.parents:
            settle(parent)

    # Settle what the store already decided, deepest first.
    for node in sorted(nodes.values(), key=lambda n: n.free):
        if node.children is not None:
            settle(node.key)

    def needed(key: str, seen: Optional[set] = None) -> bool:
        node = nodes[key]
        if node.proved:
            return False
        if key == root.key:
            return True
        seen = seen if seen is not None else set()
        if key in seen:
            return False
        seen.add(key)
        return any(needed(p, seen) for p in node.parents)

    sizes: List[Dict[str, Any]] = []
    if not root.proved and leaves:
        import ray

        if not ray.is_initialized():
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(
                    num_cpus=workers * threads,
                    object_store_memory=80 * 1024 * 1024,
                    include_dashboard=False,
                    log_to_driver=False,
                )
        job = ray.remote(num_cpus=threads, max_retries=1)(_job)
        # The largest positions first: the longest jobs start early.
        leaves.sort(key=lambda n: -n.free)
        pending = {
            job.remote(_request(board, n.moves), memory, threads): n.key for n in leaves
        }
        while pending and not root.proved:
            done, _ = ray.wait(list(pending), num_returns=1)
            ref = done[0]
            key = pending.pop(ref)
            try:
                result = ray.get(ref)
            except (ray.exceptions.TaskCancelledError, ray.exceptions.WorkerCrashedError):
                continue
            node = nodes[key]
            node.range = (result["lower"], result["upper"])
            node.nodes, node.seconds = result["nodes"], result["seconds"]
            counts["run"] += 1
            sizes.append({"free": node.free, "nodes": node.nodes, "seconds": node.seconds})
            store.put(key, result["lower"], result["upper"], None, node.moves, node.nodes,
                      node.seconds, "job")
            say(f"job {counts['run']}/{len(leaves)}: {node.free} free, value {result['lower']}, "
                f"{result['seconds']:.2f} s")
            for parent in node.parents:
                settle(parent)
            for other, other_key in list(pending.items()):
                if not needed(other_key):
                    ray.cancel(other)
                    del pending[other]
                    counts["cancelled"] += 1
        for other in pending:
            ray.cancel(other)
            counts["cancelled"] += 1
    if not root.proved:
        raise RuntimeError("the jobs did not prove the position")
    seconds = [s["seconds"] for s in sizes]
    report: Dict[str, Any] = dict(board)
    report.update(
        {
            "moves": list(moves),
            "key": root.key,
            "value": root.range[0],
            "exact": True,
            "best_move": (store.get(root.key) or {}).get("best_move"),
            "jobs": counts,
            "plies": level,
            "positions": len(nodes),
            "workers": workers,
            "threads": threads,
            "nodes": root.nodes,
            "job_seconds": {
                "sum": sum(seconds),
                "min": min(seconds) if seconds else None,
                "median": statistics.median(seconds) if seconds else None,
                "max": max(seconds) if seconds else None,
            },
            "job_sizes": sorted(sizes, key=lambda s: -s["seconds"]),
            "seconds": time.perf_counter() - started,
            "store": store.path,
        }
    )
    return report


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ply.distributed",
        description="Solve a dots position with jobs on Ray, every proved job kept in a SQLite store.",
    )
    parser.add_argument("game", choices=["boxes", "triangles"])
    parser.add_argument("--rows", type=int, help="rows of boxes (default 3)")
    parser.add_argument("--cols", type=int, help="columns of boxes (default 3)")
    parser.add_argument("--size", type=int, help="rows of triangles (default 3)")
    parser.add_argument("--moves", default="", help='moves played, A first: "1-2 2-3"')
    parser.add_argument("--workers", type=int, default=2, help="jobs at once on a local Ray (default 2)")
    parser.add_argument("--threads", type=int, default=1, help="cores per job (default 1)")
    parser.add_argument("--store", required=True, help="the SQLite store (created if missing)")
    parser.add_argument("--address", help="join this Ray cluster (ray://host:10001) instead of starting one")
    parser.add_argument("--jobs", type=int, help="expand past one ply until this many jobs are open (default 2 × workers)")
    parser.add_argument("--depth", type=int, default=3, help="most plies to expand (default 3)")
    parser.add_argument("--min-free", type=int, default=20,
                        help="never expand a position of at most this many free edges (default 20)")
    parser.add_argument("--memory", default="1G", help="memory of each job's search (default 1G)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    board: Dict[str, Any] = {"game": args.game}
    if args.game == "boxes":
        board.update(rows=args.rows or 3, cols=args.cols or 3)
        if args.size is not None:
            parser.error("--size is for triangles; boxes take --rows and --cols")
    else:
        board.update(size=args.size or 3)
        if args.rows is not None or args.cols is not None:
            parser.error("--rows and --cols are for boxes; triangles take --size")
    if args.workers < 1 or args.threads < 1:
        parser.error("--workers and --threads must be at least 1")
    moves = args.moves.replace(",", " ").split()
    log = None if args.quiet else (lambda msg: print(f"ply.distributed: {msg}", file=sys.stderr, flush=True))
    store = Store(args.store)
    try:
        report = solve(
            board, moves, store, workers=args.workers, threads=args.threads, jobs=args.jobs,
            depth=args.depth, min_free=args.min_free, memory=args.memory,
            address=args.address, log=log,
        )
    except ValueError as e:
        print(f"ply.distributed: {e}", file=sys.stderr)
        return 2
    finally:
        store.close()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())

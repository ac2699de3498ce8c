"""A dots position solved past one machine: a job-level proof search on Ray, resumable.

    python -m ply.distributed boxes --rows 4 --cols 4 --moves "…" --workers 2 --store run.sqlite
    python -m ply.distributed triangles --size 4 --workers 64 --store /shared/run.sqlite \\
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

A run may also stop by itself after ``--max-jobs`` jobs; the next run takes up from the store.
A store that is not one (another file, another application's database, a damaged one) is
refused with one line before anything is written.

Prints one JSON object: ``value`` (``null`` when a job budget stopped the run first), ``bounds``,
``best_move``, ``jobs: {"run", "from_store", "cancelled", "leaves"}``, each job run (key, free
edges, nodes, seconds) and their times. Bad input exits 2 with one line on stderr.
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
from typing import Any, Dict, List, NoReturn, Optional, Tuple

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


#: SQLite's application id of a store ("ply" + 1): a file holding another application's tables is
#: refused rather than written into.
APPLICATION_ID = 0x706C7901
#: The store's layout (SQLite's user_version).
VERSION = 1
COLUMNS = ["key", "lower", "upper", "best_move", "moves", "nodes", "seconds", "kind", "written"]


class Store:
    """The SQLite record of a solve: one row per proved position, written as it is proved.

    A new or empty file becomes a store; a file that is no SQLite database, or a database of
    something else (another application id, other tables or columns), raises ``ValueError`` with
    one line naming the file, before anything is written."""

    def __init__(self, path: str) -> None:
        self.path = path
        if os.path.isdir(path):
            raise ValueError(f"store {path!r} is a directory, not a SQLite file")
        try:
            self._db = sqlite3.connect(path, timeout=60, isolation_level=None)
        except sqlite3.Error as e:
            raise ValueError(f"cannot open the store {path!r}: {e}") from None
        try:
            self._open()
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise ValueError(f"store {path!r} is not a SQLite database ply can use: {e}") from None
        except ValueError:
            self._db.close()
            raise

    def _open(self) -> None:
        db = self._db
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        if app == 0 and not tables:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("BEGIN IMMEDIATE")
            try:
                # Another run may have made it meanwhile: CREATE … IF NOT EXISTS.
                db.execute(SCHEMA)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {VERSION}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            app = APPLICATION_ID
        if app != APPLICATION_ID:
            raise ValueError(f"store {self.path!r} is a SQLite database of another application, "
                             "not a ply.distributed store")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        columns = [r[1] for r in db.execute("PRAGMA table_info(proved)")]
        if version != VERSION or columns != COLUMNS:
            raise ValueError(f"store {self.path!r} is a ply.distributed store of another layout "
                             f"(version {version}; this ply reads version {VERSION})")
        damage = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if damage != "ok":
            raise ValueError(f"store {self.path!r} is damaged: {damage}")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")

    def _run(self, sql: str, args: Tuple[Any, ...]) -> sqlite3.Cursor:
        """``sql`` on the store; a damaged file is a ``ValueError`` of one line."""
        try:
            return self._db.execute(sql, args)
        except sqlite3.DatabaseError as e:
            raise ValueError(f"store {self.path!r}: {e}") from None

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        """The proved row of ``key``, if any."""
        row = self._run(
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
        self._run(
            "INSERT OR REPLACE INTO proved VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, lower, upper, best_move, " ".join(moves), nodes, seconds, kind, time.time()),
        )

    def count(self) -> int:
        """Rows in the store."""
        return self._run("SELECT COUNT(*) FROM proved", ()).fetchone()[0]

    def close(self) -> None:
        """Closes the file (every row is already committed)."""
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
    max_jobs: Optional[int] = None,
    log: Any = None,
) -> Dict[str, Any]:
    """Solves the position after ``moves`` on ``board`` (``{"game": "boxes", "rows": 4,
    "cols": 4}``) with Ray; see the module's docs. Expands one ply, and more (breadth first, at
    most ``depth`` plies) only while fewer than ``jobs`` (default ``2 × workers``) leaves are open,
    never a position of at most ``min_free`` free edges (a job of its own is cheaper). Jobs prove
    exact values (the engine's search takes no window from outside), so every ply expanded asks
    for the exact value of positions a search would only bound: the fewest plies that keep the
    workers busy are the fastest. At most ``workers`` jobs run at once, each on ``threads`` cores;
    a local Ray of ``workers × threads`` CPUs is started unless Ray is running in this process or
    ``address`` names a cluster (``"auto"``: the one on this host).

    ``max_jobs`` stops the run after that many jobs (what they proved is in the store, the rest
    for a later run): the report's ``value`` is then ``None`` unless the position was proved, and
    ``bounds`` say what is. Bad input (the board, the moves, the memory) raises ``ValueError``
    with one line. Returns the report ``main`` prints."""
    if workers < 1 or threads < 1:
        raise ValueError("workers and threads must be at least 1")
    if max_jobs is not None and max_jobs < 0:
        raise ValueError("max_jobs must be at least 0")
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
    # The positions left unexpanded: jobs, whether run now or found in the store.
    counts["leaves"] = sum(1 for n in nodes.values() if n.children is None and n is not root)
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
    if not root.proved and leaves and max_jobs != 0:
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
        waiting = sorted(leaves, key=lambda n: n.free)
        budget = len(waiting) if max_jobs is None else max_jobs
        pending: Dict[Any, str] = {}
        while not root.proved:
            while waiting and len(pending) < workers and budget > 0:
                n = waiting.pop()
                if not needed(n.key):
                    continue
                pending[job.remote(_request(board, n.moves), memory, threads)] = n.key
                budget -= 1
            if not pending:
                break
            done, _ = ray.wait(list(pending), num_returns=1)
            ref = done[0]
            key = pending.pop(ref)
            try:
                result = ray.get(ref)
            except (ray.exceptions.TaskCancelledError, ray.exceptions.WorkerCrashedError):
                continue
            except ray.exceptions.RayTaskError as e:
                # A fault of the request (the memory asked for, on that worker): one line.
                for other in pending:
                    ray.cancel(other)
                if isinstance(e.cause, ValueError):
                    raise ValueError(str(e.cause)) from None
                raise
            node = nodes[key]
            node.range = (result["lower"], result["upper"])
            node.nodes, node.seconds = result["nodes"], result["seconds"]
            counts["run"] += 1
            sizes.append({"key": key, "free": node.free, "nodes": node.nodes,
                          "seconds": node.seconds})
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
    seconds = [s["seconds"] for s in sizes]
    report: Dict[str, Any] = dict(board)
    report.update(
        {
            "moves": list(moves),
            "key": root.key,
            "value": root.range[0] if root.proved else None,
            "exact": root.proved,
            "bounds": list(root.range),
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


class _Parser(argparse.ArgumentParser):
    """argparse with ply's faults: one line on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        _fail(message)


def _fail(message: str) -> NoReturn:
    print(f"ply.distributed: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def main(argv: Optional[List[str]] = None) -> int:
    """The command line (``python -m ply.distributed --help``): prints the report as JSON, exits
    2 with one line on stderr for bad input (arguments, position, store), 130 on Ctrl-C."""
    parser = _Parser(
        prog="python -m ply.distributed",
        description="Solve a dots position with jobs on Ray, every proved job kept in a SQLite store.",
    )
    parser.add_argument("game", choices=["boxes", "triangles"])
    parser.add_argument("--rows", type=int, help="rows of boxes (ply's default: 3)")
    parser.add_argument("--cols", type=int, help="columns of boxes (ply's default: 3)")
    parser.add_argument("--size", type=int, help="rows of triangles (ply's default: 3)")
    parser.add_argument("--moves", default="", help='moves played, A first: "1-2 2-3"')
    parser.add_argument("--workers", type=int, default=2, help="jobs at once (default 2)")
    parser.add_argument("--threads", type=int, default=1, help="cores per job (default 1)")
    parser.add_argument("--store", required=True, help="the SQLite store (created if missing)")
    parser.add_argument("--address",
                        help="join this Ray cluster (ray://host:10001, or auto) instead of starting one")
    parser.add_argument("--jobs", type=int,
                        help="expand past one ply until this many jobs are open (default 2 × workers)")
    parser.add_argument("--depth", type=int, default=3, help="most plies to expand (default 3)")
    parser.add_argument("--min-free", type=int, default=20,
                        help="never expand a position of at most this many free edges (default 20)")
    parser.add_argument("--max-jobs", type=int,
                        help="stop after this many jobs (the rest for a later run on the same store)")
    parser.add_argument("--memory", default="1G", help="memory of each job's search (default 1G)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    board: Dict[str, Any] = {"game": args.game}
    if args.game == "boxes":
        if args.size is not None:
            _fail("--size is for triangles; boxes take --rows and --cols")
        board.update({k: v for k, v in (("rows", args.rows), ("cols", args.cols)) if v is not None})
    else:
        if args.rows is not None or args.cols is not None:
            _fail("--rows and --cols are for boxes; triangles take --size")
        if args.size is not None:
            board["size"] = args.size
    for name in ("workers", "threads", "jobs", "depth"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            _fail(f"--{name} must be at least 1")
    if args.max_jobs is not None and args.max_jobs < 0:
        _fail("--max-jobs must be at least 0")
    moves = args.moves.replace(",", " ").split()
    log = None if args.quiet else (lambda msg: print(f"ply.distributed: {msg}", file=sys.stderr, flush=True))
    try:
        _ply.dots_expand(_request(board, moves))  # the position checked before a store is made
        store = Store(args.store)
    except ValueError as e:
        _fail(str(e))
    try:
        report = solve(
            board, moves, store, workers=args.workers, threads=args.threads, jobs=args.jobs,
            depth=args.depth, min_free=args.min_free, memory=args.memory,
            address=args.address, max_jobs=args.max_jobs, log=log,
        )
    except ValueError as e:
        _fail(str(e))
    except KeyboardInterrupt:
        print("ply.distributed: interrupted (every job proved so far is in the store)",
              file=sys.stderr, flush=True)
        return 130
    finally:
        store.close()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())

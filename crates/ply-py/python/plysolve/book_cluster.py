"""A book grown on Ray workers: the book ``ply dots book build`` makes on one machine, N machines
at once (``python -m plysolve.distributed book``).

    python -m plysolve.distributed book my.plybook boxes --rows 4 --cols 4 --depth 2 --workers 2
    python -m plysolve.distributed book 4x4.plybook boxes --rows 4 --cols 4 --depth 2 \\
        --workers 32 --address ray://head:10001

A build (``plysolve.book_build``) proves its deepest positions by the search and every shallower
one from its children by Wilson's rule, with no search. Here the driver (this process) lists the
deepest positions (``plysolve._ply.book_positions``: every distinct position ``--depth`` moves
after the start up to the board's symmetries, and any game over before, each with its key and the
moves reaching it), leaves out those the book already holds exactly, and hands the rest out as
jobs to ``--workers`` Ray actors (``_Prover``, one CPU each): a job is a build of depth 0 of its one
position into a book of the worker's own (a temporary file), ``--time`` bounding its search as
``book build --time`` does (the bounds proved are kept), in the search table the worker keeps
between its jobs, and gives back that book's export line. The workers share the bounds their
searches prove of positions of at least ``--share-free F`` free edges (default: the deepest
positions' less ``SHARE_BELOW``) through the distributed solve's table (``_Table`` actors, each
worker a ``_Sharer`` of it; lossy, never a wrong value); ``--no-share`` shares nothing. The
workers of one machine search one table in its shared memory (``--no-host-table``: each its own).
The driver writes each entry into the user's book as it comes (``plysolve._ply.book_import``: the
driver is the book's only writer, so the workers need no shared file system), then builds the book
locally at the full depth: the build finds the deep positions in the book and proves the shallower
ones from their children. The book is the one a build on one machine makes — the same positions,
bounds and best moves (ties aside) — but for the nodes and seconds (each worker's table holds what
its own jobs met, where the one machine's build keeps one table for all).

Resumable: each entry is in the book as soon as its job ends, so a run killed at any point, or
stopped by its job budget (``--max-jobs N``: then no local build), and started again on the same
book asks no position the book holds exactly. A worker that dies has its job asked again (Ray
restarts it twice; workers that keep dying end the run).

Prints one JSON object, alone on stdout: ``board``, ``moves``, ``depth``, ``book``, ``leaves``
(the deepest positions), ``searched`` (jobs run now), ``from_book`` (deepest positions the book
held exactly already), ``left`` (those a job budget left for a later run), ``open`` (deepest
positions still not exact: out of time, or left), ``complete`` (whether the local build ran),
``positions`` (entries the local build settled: every position of the build that is proved),
``exact``, ``value`` and ``bounds`` of the start, ``nodes`` (the jobs' and the local build's
search), ``job_nodes``, ``job_seconds``, ``seconds``, ``workers``, ``lost`` (jobs lost with their
worker and asked again), ``shared`` (the shared bounds' traffic, as the solve's; ``null`` with
``--no-share``). Progress lines on stderr (``--quiet``: none); every failure one line on
stderr and exit 2, as the distributed solve's.
"""

from __future__ import annotations

import collections
import glob
import json
import os
import shutil
import sys
import tempfile
import time
from typing import Any, Callable, Deque, Dict, List, Optional, Tuple

from . import _ply
from .distributed import (SHARE_BELOW, _Parser, _Sharer, _fail, board_of, check_options,
                          host_table_name, job_result, remove_host_tables, run_reported, start_ray,
                          start_tables)

__all__ = ["build", "main"]

#: A position to prove: ``book_positions``' dict (``board``, ``key``, ``free``, ``moves``).
Leaf = Dict[str, Any]


#: A scratch book's directory: this, the worker's process id, ``-``, and letters of its own.
SCRATCH_PREFIX = "plysolve-book-"


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def remove_abandoned_scratch() -> None:
    """Removes the scratch books' directories of workers no longer running: a worker killed in
    the middle of a job (a run interrupted, a worker that died) leaves its directory behind."""
    for path in glob.glob(os.path.join(tempfile.gettempdir(), SCRATCH_PREFIX + "*-*")):
        pid = os.path.basename(path)[len(SCRATCH_PREFIX):].split("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


class _Prover(_Sharer):
    """A Ray actor proving book positions one at a time, each into a book of its own, in one
    search table kept between them (as one build keeps its table across its positions), its
    searches sharing bounds with the other workers' (``_Sharer``), as a distributed solve's
    workers' do. Starting, it removes the scratch directories killed workers left."""

    def __init__(self, index: int = 0, tables: Optional[List[str]] = None,
                 from_free: int = 0, host_table: Optional[str] = None) -> None:
        super().__init__(index, tables, from_free, host_table)
        remove_abandoned_scratch()

    def prove(self, request: str, args: Dict[str, Any]) -> Dict[str, Any]:
        """The entries (export lines, none when nothing was proved in time) of a build of depth 0
        of the position of ``request`` (``args``: ``time``, ``tie_order``, ``memory``), its
        seconds and the shared bounds' traffic so far (``None``: nothing shared)."""
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-") as scratch:
            path = os.path.join(scratch, "job.plybook")
            self.on_host(lambda host: _ply.book_build(
                request, json.dumps(dict(args, path=path, depth=0, keep_table=True,
                                         **({"host_table": host} if host else {}))),
                None, self.shared))
            entries = json.loads(_ply.book_export(json.dumps({"path": path})))
        return {"entries": entries, "seconds": time.perf_counter() - started,
                "shared": self.traffic()}


class _Provers:
    """``workers`` ``_Prover`` actors, the jobs running on them, and the jobs lost with a dead
    worker."""

    def __init__(self, workers: int, address: Optional[str], share_free: Optional[int],
                 host_table: Optional[str] = None) -> None:
        self.ray = start_ray(workers, 1, address)
        #: The shared table's one shard (none: nothing shared).
        names, self.tables = start_tables(self.ray, 0 if share_free is None else 1)
        actor = self.ray.remote(num_cpus=1, max_restarts=2, max_task_retries=0)(_Prover)
        self.actors = [actor.remote(i, names, share_free or 0, host_table)
                       for i in range(workers)]
        self.host_table = host_table
        #: Each actor's latest counts of its shared bounds.
        self.traffic: Dict[int, Dict[str, int]] = {}
        self.idle: List[int] = list(range(workers))
        #: ref → (actor, leaf) of each job running.
        self.running: Dict[Any, Tuple[int, Leaf]] = {}
        self.lost = 0

    def start(self, leaf: Leaf, request: str, args: Dict[str, Any]) -> None:
        """Starts proving ``leaf`` (``request``: its position) on an idle actor."""
        actor = self.idle.pop(0)
        self.running[self.actors[actor].prove.remote(request, args)] = (actor, leaf)

    def next_result(self) -> Tuple[Leaf, Optional[Dict[str, Any]]]:
        """Waits for a job to end: its leaf and result, ``None`` when its worker died (the job is
        to be asked again)."""
        ray = self.ray
        done, _ = ray.wait(list(self.running), num_returns=1)
        actor, leaf = self.running.pop(done[0])
        self.idle.append(actor)
        result, self.lost = job_result(ray, done[0], self.lost, len(self.actors))
        if result is not None and result["shared"] is not None:
            self.traffic[actor] = result["shared"]
        return leaf, result

    def close(self) -> None:
        """Lets the actors go (a job still running is cancelled with its actor), then removes
        the run's search table from this machine's shared memory once they have."""
        for actor in self.actors + self.tables:
            self.ray.kill(actor)
        remove_host_tables(self.host_table)

    def shared(self) -> Dict[str, int]:
        """The shared bounds' traffic summed over the workers, as each last reported it."""
        total: Dict[str, int] = {}
        for counts in self.traffic.values():
            for name, n in counts.items():
                total[name] = total.get(name, 0) + n
        return total


def _ranged(lower: int, upper: int) -> str:
    """Bounds as the progress lines give them: ``+2`` when exact, else ``-4..+6``."""
    return f"{lower:+d}" if lower == upper else f"{lower:+d}..{upper:+d}"


def build(
    path: str,
    board: Dict[str, Any],
    moves: List[str],
    depth: int,
    workers: int = 2,
    time_per_position: Optional[str] = None,
    tie_order: Optional[str] = None,
    memory: Optional[str] = "1G",
    address: Optional[str] = None,
    max_jobs: Optional[int] = None,
    log: Optional[Callable[[str], Any]] = None,
    share: bool = True,
    share_free: Optional[int] = None,
    host_table: bool = True,
) -> Dict[str, Any]:
    """Grows the book at ``path`` (made if missing) with every position up to ``depth`` moves
    after ``moves`` on ``board`` (``{"game": "boxes", "rows": 4, "cols": 4}``), the deepest
    proved by jobs on ``workers`` Ray actors, the rest by a local build; see the module's docs.
    ``time_per_position`` (``"10m"``) bounds each position's search, ``tie_order`` the search's
    order among equal moves, ``memory`` each search's table (``None``: what the system allows);
    ``max_jobs`` stops the run after that many jobs (no local build then). With ``share`` (the
    default) the workers' searches share the bounds of positions of at least ``share_free`` free
    edges (default: the deepest positions' less ``SHARE_BELOW``), as a distributed solve's
    workers do; the report's ``shared`` counts the traffic. With ``host_table`` (the default),
    the workers of one machine search one table in its shared memory, as a distributed solve's
    do. A local Ray of
    ``workers`` CPUs is started unless Ray runs in this process or ``address`` names a cluster.
    ``log`` is told a line per job. Bad input (the board, moves, depth, time, tie order, memory,
    address, book) and a job's entry that contradicts the book raise ``ValueError`` with one
    line; workers that keep dying, or a Ray that cannot start, ``RuntimeError`` with one line.
    Returns the report ``main`` prints."""
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if depth < 0:
        raise ValueError("depth must be at least 0")
    if max_jobs is not None and max_jobs < 0:
        raise ValueError("max_jobs must be at least 0")
    if share_free is not None and share_free < 0:
        raise ValueError("share_free must be at least 0")
    started = time.perf_counter()
    say = log or (lambda _msg: None)
    # The position, depth, time and tie order checked (ValueError) before anything is written.
    position = dict(board, moves=list(moves), detail="value")
    position.update({k: v for k, v in (("time", time_per_position), ("tie_order", tie_order))
                     if v is not None})
    request = json.dumps(position)
    leaves: List[Leaf] = json.loads(_ply.book_positions(request, json.dumps({"depth": depth})))
    start = json.loads(_ply.book_positions(request, json.dumps({"depth": 0})))[0]
    check_options(memory, address)
    book = json.dumps({"path": path})
    _ply.book_import(book, "")  # the book made, or checked (a foreign or damaged file refused)
    slug = start["board"]
    held = {e["key"] for e in json.loads(_ply.book_export(book))
            if e["board"] == slug and e["lower"] == e["upper"]}
    todo: Deque[Leaf] = collections.deque(leaf for leaf in leaves if leaf["key"] not in held)
    from_book = len(leaves) - len(todo)
    say(f"{len(leaves)} deepest positions, {from_book} in the book, {len(todo)} to prove")
    job_args = {k: v for k, v in (("time", time_per_position), ("tie_order", tie_order),
                                  ("memory", memory)) if v is not None}
    if share and share_free is None:
        share_free = max(0, max(leaf["free"] for leaf in leaves) - SHARE_BELOW)
    searched, job_nodes, job_seconds, lost = 0, 0, 0.0, 0
    traffic: Dict[str, int] = {}
    pool: Optional[_Provers] = None

    def within_budget() -> bool:
        running = len(pool.running) if pool else 0
        return max_jobs is None or searched + running < max_jobs

    try:
        while todo and within_budget() or pool is not None and pool.running:
            if pool is None:
                pool = _Provers(workers, address, share_free if share else None,
                                host_table_name() if host_table else None)
            # As many jobs as idle workers, within the budget.
            while todo and pool.idle and within_budget():
                leaf = todo.popleft()
                pool.start(leaf, json.dumps(dict(position, moves=list(moves) + leaf["moves"])),
                           job_args)
            leaf, result = pool.next_result()
            if result is None:
                todo.appendleft(leaf)  # its worker died: asked again
                continue
            entries = result["entries"]
            if any(e["board"] != slug or e["key"] != leaf["key"] for e in entries):
                raise RuntimeError(f"the job of position {leaf['key']} gave another's entry")
            # The driver alone writes the book; an entry contradicting it is one line.
            _ply.book_import(book, "\n".join(json.dumps(e) for e in entries))
            searched += 1
            nodes = sum(e["nodes"] for e in entries)
            job_nodes += nodes
            job_seconds += result["seconds"]
            if entries and entries[0]["lower"] == entries[0]["upper"]:
                held.add(leaf["key"])
            proved = (_ranged(entries[0]["lower"], entries[0]["upper"]) if entries
                      else "nothing proved")
            say(f"job {searched}/{len(leaves) - from_book}: {leaf['free']} free, "
                f"{' '.join(leaf['moves']) or 'the start'}: {proved}, {nodes} nodes, "
                f"{result['seconds']:.2f} s")
        lost = pool.lost if pool else 0
        traffic = pool.shared() if pool else {}
    finally:
        if pool is not None:
            pool.close()
    complete = not todo
    built: List[Dict[str, Any]] = []
    local_nodes = 0
    if complete:
        say(f"building the book to depth {depth} from the deepest positions")
        built = json.loads(_ply.book_build(request, json.dumps(dict(job_args, path=path,
                                                                    depth=depth))))
        # What the local build searched itself (positions left open by their jobs' time).
        local_nodes = sum(e["nodes"] for e in built if e["key"] not in held)
    ends = {e["key"]: e for e in built}
    root = ends.get(start["key"])
    exact = root is not None and root["lower"] == root["upper"]
    now = {e["key"]: e for e in json.loads(_ply.book_export(book)) if e["board"] == slug}
    return {
        "board": slug,
        "moves": list(moves),
        "depth": depth,
        "book": path,
        "leaves": len(leaves),
        "searched": searched,
        "from_book": from_book,
        "left": len(todo),
        "open": sum(1 for leaf in leaves
                    if leaf["key"] not in now or now[leaf["key"]]["lower"] != now[leaf["key"]]["upper"]),
        "complete": complete,
        "positions": len(built),
        "exact": sum(1 for e in built if e["lower"] == e["upper"]),
        "value": root["lower"] if exact else None,
        "bounds": [root["lower"], root["upper"]] if root is not None else None,
        "nodes": job_nodes + local_nodes,
        "job_nodes": job_nodes,
        "job_seconds": job_seconds,
        "seconds": time.perf_counter() - started,
        "workers": workers,
        "lost": lost,
        "shared": dict(traffic, from_free=share_free) if share else None,
    }


def main(argv: List[str]) -> int:
    """``python -m plysolve.distributed book --help``: prints the report as JSON, exits 2 with one
    line on stderr for any failure (bad input, a book that is not one, workers that keep dying),
    130 on Ctrl-C."""
    parser = _Parser(
        prog="python -m plysolve.distributed book",
        description="Grow a book of proved dots positions with jobs on Ray: the book "
                    "`ply dots book build` makes on one machine.",
    )
    parser.add_argument("path", help="the book (made if missing)")
    parser.add_argument("game", choices=["boxes", "triangles"])
    parser.add_argument("--rows", type=int, help="rows of boxes (ply's default: 3)")
    parser.add_argument("--cols", type=int, help="columns of boxes (ply's default: 3)")
    parser.add_argument("--size", type=int, help="rows of triangles (ply's default: 3)")
    parser.add_argument("--moves", default="", help='the start, A first: "1-2 2-3"')
    parser.add_argument("--depth", type=int, default=0,
                        help="every position up to this many moves after the start (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="jobs at once (default 2)")
    parser.add_argument("--time", help="the most time one position's search takes (10m): past "
                                       "it, its bounds are kept")
    parser.add_argument("--tie-order", choices=["low-first", "high-first"],
                        help="the search's order among equal moves (default low-first)")
    parser.add_argument("--memory", default="1G", help="memory of each search (default 1G)")
    parser.add_argument("--address",
                        help="join this Ray cluster (ray://host:10001, or auto) instead of starting one")
    parser.add_argument("--max-jobs", type=int,
                        help="stop after this many jobs (the rest for a later run on the same book)")
    parser.add_argument("--share-free", type=int, metavar="F",
                        help="share the bounds of positions of at least F free edges between the "
                             f"workers (default: the deepest positions' less {SHARE_BELOW})")
    parser.add_argument("--no-share", action="store_true",
                        help="share nothing: each worker's search table is its own")
    parser.add_argument("--no-host-table", action="store_true",
                        help="each worker a search table of its own, even beside others on one "
                             "machine (default: the workers of a machine share one)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    board = board_of(args)
    if args.workers < 1:
        _fail("--workers must be at least 1")
    if args.depth < 0:
        _fail("--depth must be at least 0")
    if args.max_jobs is not None and args.max_jobs < 0:
        _fail("--max-jobs must be at least 0")
    if args.no_share and args.share_free is not None:
        _fail("--share-free and --no-share: give one")
    if args.share_free is not None and args.share_free < 0:
        _fail("--share-free must be at least 0")
    moves = args.moves.replace(",", " ").split()
    log = None if args.quiet else (
        lambda msg: print(f"plysolve.distributed: {msg}", file=sys.stderr, flush=True))
    return run_reported(
        lambda: build(args.path, board, moves, args.depth, workers=args.workers,
                      time_per_position=args.time, tie_order=args.tie_order, memory=args.memory,
                      address=args.address, max_jobs=args.max_jobs, log=log,
                      share=not args.no_share, share_free=args.share_free,
                      host_table=not args.no_host_table),
        "interrupted (every position proved so far is in the book)",
    )

"""A dots position solved past one machine: a job-level proof search on Ray, resumable.

    python -m plysolve.distributed boxes --rows 4 --cols 4 --moves "…" --workers 2 --store run.sqlite
    python -m plysolve.distributed triangles --size 4 --workers 64 --store /shared/run.sqlite \\
        --address ray://head:10001

(``python -m plysolve.distributed book …`` grows a book on the same workers instead:
:mod:`plysolve.book_cluster`.)

The front end (this process) expands the position a few plies into distinct positions — the
moves the search itself would try, in its order (capture rules, twins), one position per class
under the board's symmetries, transpositions merged (``plysolve._ply.dots_expand``) — and asks
questions of them as the search asks them of its own moves: null-window tests. The root's value is
found as MTD(f) finds it, by tests "does the value reach ``t``?" (``plysolve._ply.dots_next_test``);
each test becomes a test of each child in the window Wilson's rule gives
(``plysolve._ply.dots_child_window``), down to the positions left unexpanded, each test of which is a
job: ply's search of that position in that window (``plysolve._ply.dots_job``: one null-window test,
on ``--threads`` cores), run by one of ``--workers`` Ray actors, each keeping its search table
between jobs as one search keeps its table between moves. What the jobs prove flows back up by
Wilson's rule on bounds (``plysolve._ply.dots_combine``); a test is settled as soon as one child's bound
reaches it, or every child's falls short, and the jobs it no longer needs are cancelled. This is
how checkers was solved: a front-end manager over back-end alpha-beta solvers.

Where the workers' time goes (docs/SCALE.md, "Work where it pays"): a position's younger children
wait until one of its children is answered (young brothers wait: if the eldest decides the
position, the others' jobs would have been thrown away; ``--all-at-once`` asks them together),
and a worker with nothing to do splits the job that has run longest once it has run
``--steal-after`` seconds (``STEAL_AFTER``; work stealing, ``--no-steal``: never): the job is
cancelled, what its search proved kept in its table, and its position's children become jobs of
their own, all asked at once — a split as deep as the work needs, where the expansion only gives
the first plies. And after each of the root's tests, the positions whose jobs took a large share of
its nodes (``SPLIT_LARGE``; ``--no-split-large``: none) are expanded, so that the tests after it,
which ask much the same positions in other windows, ask their children instead; in those tests
a job that passes the same share of the last test's nodes gives up and is split too (a node
limit: the same split whatever the machine's load). The longest chain of jobs one waits on (the
report's ``span``) is shorter, and more workers have work.

The workers share one table of bounds of the positions with many free edges (``--share-free F``:
at least F; default the jobs' fewest less ``SHARE_BELOW``), each worker's own search table below
that (``--no-share``: nothing shared). Each worker keeps a store of them
(``plysolve._ply.SharedTable``) that its jobs' searches meet wherever they reach such a position
and add every bound they prove of one to; a thread of the worker pushes what is new to the table
every ``SHARE_EVERY`` seconds and pulls what the others pushed since its last pull. The table is
``--share-shards`` Ray actors (``_Table``), entries spread over them by key. The exchange is
asynchronous and lossy — an entry late or lost costs time, never a wrong value — and the table's
death stops no run: its workers go on without it, one line each on stderr.

The workers of one machine search one table (``host_table``; ``--no-host-table``: each its own):
each job's search table is kept in the host's shared memory (``/dev/shm/ply-table-run-…``) under
a name the run gives, so two workers on one machine share every bound as two threads of one search
do — the second worker's own table cost 1.7 times the nodes. Once the run is over (its workers
killed), the driver removes its machine's table; a table on another machine, no process holding
it, is removed there by the next opening of one. A host without room for it runs its jobs in
tables of their own, one line on stderr.

Every job is written at once to a SQLite store (position key, window asked, bounds proved, nodes,
seconds), and so is every expanded position's bounds and best move as they are proved. A run
killed at any point and started again with the same store runs no job whose question the stored
bounds answer; two runs may share a store (SQLite's write-ahead log, a busy timeout). The store is
the record of the solve.

A run may also stop by itself after ``--max-jobs`` jobs; the next run takes up from the store.
A store that is not one (another file, another application's database, a damaged one, an older
layout) is refused with one line before anything is written.

Prints one JSON object: ``value`` (``null`` when a job budget stopped the run first, or when a
``--window`` was decided by a bound), ``bounds``, ``best_move``, ``tests`` (the root's null-window
tests: each one's answer, time, jobs, their summed and longest time and the nodes of the largest —
with one worker, which runs only the jobs a test needs, the longest over the tests added up is
about the most any number of workers would take at this expansion), ``jobs: {"run", "from_store",
"cancelled", "cancelled_nodes", "leaves", "steals", "split_large", "gave_up"}`` (``steals``: jobs
split for an idle worker; ``split_large``: positions expanded after a test for the size of their
jobs; ``gave_up``: jobs split for passing that size), each job run (key, window, free edges,
bounds, nodes, seconds, CPU seconds, the test it served, ``on_host``: whether it searched its
machine's one table, ``gave_up``: whether it was split so, ``started`` and ``ended``: seconds into
the run) and their sums (``nodes``: every node searched, the cancelled jobs' included), ``span``
(the longest chain of jobs each of which waited on the answer, or the split of a long job, that
made it needed: its ``nodes`` and ``jobs`` — with ``nodes`` N, no number W of workers takes the run
below max(N / W, span), and workers never idle while a job waits take at most N / W + span),
``shared`` (the traffic of the shared bounds: entries ``sent`` and ``received`` by the workers,
``offered`` by their searches, lost to a full outbox — ``dropped`` — and ``contradictions``;
entries the table's shards ``held`` at the end and ``forgotten`` past ``SHARE_TABLE_ENTRIES``;
``null`` with ``--no-share``), on stdout and nothing else there: what Ray writes to this process's
stdout (its "(raylet) A worker died …" lines) goes to stderr. Every failure exits 2 with one line
on stderr: bad input (arguments, position, a memory size no worker can take, an address that does
not answer within ``CONNECT_TIMEOUT`` seconds, a store that is not one or holds a row no search
proves) as well as workers that keep dying.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import itertools
import json
import os
import resource
import socket
import statistics
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Dict, Iterator, List, NoReturn, Optional, Set, TextIO, Tuple

from . import _ply
# The store is part of this module's API (``plysolve.distributed.Store``), kept in a module of its own.
from .store import APPLICATION_ID, VERSION, Store  # noqa: F401
from ._quoting import shown

__all__ = ["Store", "solve", "main"]

Range = Tuple[int, int]
#: A shared bound: the position's key in the search's table, lower, upper, best move (or None).
Entry = Tuple[int, int, int, Optional[int]]

#: Seconds to wait for a Ray cluster's address to answer before giving up on it.
CONNECT_TIMEOUT = 5.0


def check_options(memory: Optional[str], address: Optional[str], threads: int = 1) -> None:
    """Refuses, with a ``ValueError`` of one line, a ``memory`` no worker can take (not a size,
    nothing, more than this machine has), ``threads`` that are not a whole number of at least 1
    (as the command line's ``--threads``), more ``threads`` than this machine has cores when no
    ``address`` names a cluster, and an ``address`` that cannot be joined: one that is not
    ``host:port`` (a host name no resolver takes too), a ``ray://`` address without Ray's client
    installed (``pip install "ray[client]"``, or ``plysolve[distributed]``), or one whose host and
    port do not accept a connection within ``CONNECT_TIMEOUT`` seconds (``auto`` is left to Ray,
    which finds the cluster of this host or says there is none)."""
    if memory is not None:
        _ply.memory_bytes(memory)
    _check_count("threads", threads)
    cores = os.cpu_count() or 1
    if address is None and threads > cores:
        raise ValueError(f"threads {threads} is more than this machine's {cores} cores")
    if address is None or address == "auto":
        return
    if address == "":
        raise ValueError("address '' names no cluster: give host:port, ray://host:port or auto")
    client = address.startswith("ray://")
    host, colon, port = address[len("ray://") if client else 0:].rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"address {shown(address)} is not host:port, ray://host:port or auto")
    if client:
        try:
            import grpc  # noqa: F401  (what Ray's client needs, from ray[client])
        except ImportError:
            raise ValueError(f"address {shown(address)}: Ray's client is not installed "
                             "(pip install \"ray[client]\", or \"plysolve[distributed]\")") from None
    _check_reachable(address, host.strip("[]"), int(port))


def _check_count(name: str, value: Any) -> None:
    """Refuses, with a ``ValueError`` of one line in the command line's words (``--threads must be
    at least 1``), a ``value`` of the argument ``name`` that is not a whole number of at least 1
    (``True`` is no count either)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {shown(value)}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")


def _check_reachable(address: str, host: str, port: int) -> None:
    """Refuses, with a ``ValueError`` of one line naming ``address``, a ``host`` no resolver takes
    (a label empty or over 63 characters: Python's IDNA codec refuses it before any lookup) and a
    ``host`` and ``port`` that do not accept a connection within ``CONNECT_TIMEOUT`` seconds."""
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            pass
    except UnicodeError:
        raise ValueError(f"address {shown(address)}: its host is not a host name (each label "
                         "between dots must be 1 to 63 characters)") from None
    except OSError as e:
        reason = "no answer" if isinstance(e, socket.timeout) else (e.strerror or str(e))
        raise ValueError(f"address {shown(address)} cannot be reached: {reason} "
                         f"(within {CONNECT_TIMEOUT:g} s)") from None


def start_ray(workers: int, threads: int, address: Optional[str]) -> Any:
    """Ray, ready for ``workers`` actors of ``threads`` CPUs each: the Ray of this process if one
    runs, else the cluster at ``address`` joined, else a local Ray of ``workers × threads`` CPUs
    started (its workers at this process's niceness). A Ray that cannot start or be joined, or
    whose nodes have fewer than ``threads`` CPUs each, is a ``RuntimeError`` of one line."""
    import ray

    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                # The workers are the solve: at this process's niceness, not Ray's default
                # of 15 more (under which any other work on the machine starves them).
                os.environ.setdefault("RAY_worker_niceness", "0")
                ray.init(
                    num_cpus=workers * threads,
                    object_store_memory=80 * 1024 * 1024,
                    include_dashboard=False,
                    log_to_driver=False,
                )
        except Exception as e:  # Ray's own faults, many lines long: the first says it
            where = f"join the Ray cluster at {shown(address)}" if address else "start Ray"
            raise RuntimeError(f"cannot {where}: {_first_line(e)}{_auth_hint(address)}") from None
    # An actor asking for more CPUs than any node has would wait for one for ever.
    most = max((node["Resources"].get("CPU", 0) for node in ray.nodes() if node["Alive"]),
               default=0)
    if most < threads:
        raise RuntimeError(f"no Ray node has {threads} CPUs for a job of {threads} threads "
                           f"(the most: {most:g})")
    return ray


#: Where a host keeps the search tables its workers share (``host_table``): its shared memory.
HOST_MEMORY = "/dev/shm"


def host_table_name() -> str:
    """A name of its own for the search table the workers of one run share on each host."""
    return f"run-{uuid.uuid4().hex[:16]}"


#: Seconds the driver waits for a run's killed workers to let go of their host's table.
HOST_TABLE_WAIT = 10.0


def remove_host_tables(name: Optional[str]) -> None:
    """Removes the search tables of the run ``name`` (``None``: none) from this machine's shared
    memory once no worker holds them, waiting at most ``HOST_TABLE_WAIT`` seconds for the
    killed workers to be gone. (A table on another machine is removed there by the next process
    of ply that opens one: the tables no process holds are removed then.)"""
    if name is not None:
        _ply.remove_host_tables(name, HOST_TABLE_WAIT)


#: Seconds a job runs before its position may be split for a worker with nothing to do (work
#: stealing; chosen by measurement, docs/SCALE.md).
STEAL_AFTER = 0.5

#: After each of the root's tests, a position whose job searched more than a ``1 / (SPLIT_LARGE
#: × workers)`` share of the test's nodes is expanded: its children are the next tests' jobs
#: (the next test asks much the same positions, in another window, at much the same cost); and
#: a job of a later test that searches more than that gives up and is split.
SPLIT_LARGE = 2


#: Seconds between two exchanges of a worker's shared bounds with the table.
SHARE_EVERY = 0.3

#: The shared bounds are those of positions with at least the jobs' fewest free edges less this
#: many (``--share-free``'s default; chosen by measurement, docs/SCALE.md).
SHARE_BELOW = 4

#: Memory of each worker's store of shared bounds.
SHARE_MEMORY = "64M"

#: Seconds a worker waits for the table's answer before going on without it.
SHARE_TIMEOUT = 10.0


#: The most entries one shard of the shared table keeps (about 150 bytes each in Python: some
#: 150 MB): past it the oldest pushes are forgotten, and a worker that had not pulled them yet
#: goes without (lossy by design, like the rest of the exchange: it costs nodes, never a value).
SHARE_TABLE_ENTRIES = 1_000_000


class _Table:
    """A Ray actor holding one shard of the table of bounds shared by the workers: the entries
    (key, lower, upper, best move) each worker pushed, in the order they came, which each worker
    pulls from the offset it last reached (its own entries left out), the newest ``most`` of
    them at most. Lossy by design: a worker that dies loses what it had not pushed, one that
    starts again pulls everything the shard still holds. The engine chosen by measurement
    against Ray's object store and Redis (``bench.py exchange``, docs/SCALE.md): at the
    workload's scale it carries as much, its round well under ``SHARE_EVERY``."""

    def __init__(self, most: int = SHARE_TABLE_ENTRIES) -> None:
        #: (worker, entries) in the order pushed, the oldest forgotten first.
        self.log: Deque[Tuple[int, List[Entry]]] = collections.deque()
        #: The offset of the first push ``log`` still holds (each push is one offset).
        self.first = 0
        #: Entries ``log`` holds, and the most it may.
        self.held, self.most = 0, most
        #: Entries forgotten to keep within ``most``.
        self.forgotten = 0

    def exchange(self, worker: int, entries: List[Entry],
                 offset: int) -> Tuple[List[Entry], int]:
        """Keeps ``worker``'s new ``entries``; gives the other workers' entries pushed since
        ``offset`` that the shard still holds, and the offset to ask from next."""
        if entries:
            self.log.append((worker, entries))
            self.held += len(entries)
            while self.held > self.most and len(self.log) > 1:
                _, old = self.log.popleft()
                self.first += 1
                self.held -= len(old)
                self.forgotten += len(old)
        skip = max(0, offset - self.first)
        news = [e for w, part in itertools.islice(self.log, skip, None) if w != worker
                for e in part]
        return news, self.first + len(self.log)

    def counts(self) -> Dict[str, int]:
        """Entries the shard ``held`` and ``forgotten``."""
        return {"held": self.held, "forgotten": self.forgotten}


class _Sharer:
    """What every Ray actor running jobs shares: its index, and with ``tables`` (the names of
    the shared table's shards) a store of shared bounds of positions of at least ``from_free``
    free edges that its searches meet and add to, exchanged with the table by a thread every
    ``SHARE_EVERY`` seconds. The table gone, the actor goes on without it (one line on
    stderr)."""

    def __init__(self, index: int = 0, tables: Optional[List[str]] = None,
                 from_free: int = 0, host_table: Optional[str] = None) -> None:
        self.index = index
        self.shared = _ply.SharedTable(from_free, SHARE_MEMORY) if tables else None
        self.sent = self.received = 0
        #: The name of the search table this host's workers share (``None``: a table of its own).
        self.host_table = host_table if host_table and os.path.isdir(HOST_MEMORY) else None
        if tables:
            threading.Thread(target=self._exchange, args=(tables,), daemon=True).start()

    def on_host(self, call: Callable[[Optional[str]], Any]) -> Any:
        """``call(host_table)``: a job run in the search table this host's workers share; a host
        that cannot share it (its shared memory too small for the table, say) runs this job and
        the later ones in a table of the worker's own — slower, never wrong — saying so in one
        line on stderr."""
        try:
            return call(self.host_table)
        except ValueError as e:
            if self.host_table is None or "cannot be shared on this host" not in str(e):
                raise
            print(f"plysolve.distributed: worker {self.index}: {_first_line(e)}; going on with "
                  "a table of its own", file=sys.stderr, flush=True)
            self.host_table = None
            return call(None)

    def _exchange(self, names: List[str]) -> None:
        """Every ``SHARE_EVERY`` seconds: pushes the entries this worker's searches proved
        since the last time to their shard (by key), and absorbs the other workers' new ones.
        The shards are named actors (names, not handles, are the actor's arguments: Ray can
        restart a worker from them)."""
        import ray

        assert self.shared is not None
        offsets = [0] * len(names)
        tables: List[Any] = []
        while True:
            time.sleep(SHARE_EVERY)
            entries = self.shared.drain()
            parts: List[List[Entry]] = [[] for _ in names]
            for entry in entries:
                parts[entry[0] % len(names)].append(entry)
            try:
                tables = tables or [ray.get_actor(name) for name in names]
                replies = ray.get([table.exchange.remote(self.index, part, offset)
                                   for table, part, offset in zip(tables, parts, offsets)],
                                  timeout=SHARE_TIMEOUT)
            except Exception as e:  # the table died or hangs: the run goes on without it
                print(f"plysolve.distributed: worker {self.index}: the shared table is gone, "
                      f"going on without it ({_first_line(e)})", file=sys.stderr, flush=True)
                return
            self.sent += len(entries)
            for i, (news, offset) in enumerate(replies):
                self.shared.absorb(news)
                offsets[i] = offset
                self.received += len(news)

    def traffic(self) -> Optional[Dict[str, int]]:
        """What the store of shared bounds counted and the entries sent and received so far
        (``None``: nothing shared)."""
        if self.shared is None:
            return None
        return dict(self.shared.counts(), sent=self.sent, received=self.received)


class _Worker(_Sharer):
    """A Ray actor running jobs of the solve one at a time in one process, whose search table
    stays between them (``plysolve._ply.dots_job``), its searches sharing bounds (``_Sharer``)."""

    def __init__(self, index: int = 0, tables: Optional[List[str]] = None,
                 from_free: int = 0, host_table: Optional[str] = None) -> None:
        super().__init__(index, tables, from_free, host_table)
        #: The nodes of each job that was cancelled (its work thrown away), by the ``tag`` it was
        #: run with.
        self.cancelled_jobs: Dict[int, int] = {}

    def run(self, request: str, memory: Optional[str], threads: int, tag: int,
            node_limit: Optional[int] = None) -> Dict[str, Any]:
        """One job: ply's search of one position in its window; stops early, reporting what it
        proved, once Ray cancels it (its nodes then kept under ``tag``: a cancelled call's
        answer never reaches the driver) or once it has searched more than ``node_limit`` nodes
        (``gave_up``: the driver splits its position)."""
        import ray

        context = ray.get_runtime_context()
        started, cpu = time.perf_counter(), _cpu_seconds()
        report = json.loads(self.on_host(lambda host: _ply.dots_job(
            request, memory, threads, context.is_canceled, self.shared, host, node_limit)))
        exact = report["value"] is not None
        if context.is_canceled():
            self.cancelled_jobs[tag] = report["states_visited"]
        return {
            "lower": report["value"] if exact else report["lower"],
            "upper": report["value"] if exact else report["upper"],
            "nodes": report["states_visited"],
            "strategy": report["strategy"],
            "seconds": time.perf_counter() - started,
            "cpu": _cpu_seconds() - cpu,
            "shared": self.traffic(),
            "on_host": self.host_table is not None,
            # Past the limit (the driver looks whether its window is decided all the same).
            "gave_up": node_limit is not None and report["states_visited"] > node_limit
            and not context.is_canceled(),
        }

    def cancelled(self) -> Dict[int, int]:
        """The nodes of each of this worker's cancelled jobs, by tag (since it last started)."""
        return self.cancelled_jobs


def job_result(ray: Any, ref: Any, lost: int, workers: int) -> Tuple[Optional[Dict[str, Any]], int]:
    """The result of the job ``ref`` and the jobs lost so far, ``lost`` before it: ``None`` and
    one more when the job's actor died or Ray lost the job (Ray restarts an actor a few times:
    the job is to be asked again), a ``RuntimeError`` of one line past three lost a worker (the
    workers keep dying); a fault of the job's request (the memory asked for, on that worker) a
    ``ValueError`` of one line, any other failure of the job a ``RuntimeError``."""
    try:
        return ray.get(ref), lost
    except ray.exceptions.RayTaskError as e:
        if isinstance(e.cause, ValueError):
            raise ValueError(str(e.cause)) from None
        raise RuntimeError(f"a job failed: {_first_line(e.cause or e)}") from None
    except ray.exceptions.RayError as e:
        if lost + 1 > 3 * workers:
            raise RuntimeError(f"the Ray workers keep dying (out of memory?): {lost + 1} "
                               f"jobs lost, the last: {_first_line(e)}") from None
        return None, lost + 1


def run_reported(work: Callable[[], Dict[str, Any]], interrupted: str,
                 close: Callable[[], None] = lambda: None) -> int:
    """A command line's run of ``work``: its report printed as JSON, alone on stdout (Ray's lines
    sent to stderr meanwhile), and 0; or one line on stderr — after ``close`` and Ray's stop, and
    so after Ray's last lines — and 2 for a fault (``ValueError``, ``RuntimeError``), 130 with
    ``interrupted`` on Ctrl-C."""
    failure: Optional[Tuple[str, int]] = None  # (the line, the exit status)
    with _stdout_kept() as stdout:
        try:
            report = work()
        except (ValueError, RuntimeError) as e:
            failure = (str(e), 2)
        except KeyboardInterrupt:
            failure = (interrupted, 130)
        finally:
            close()
            _stop_ray()
        if failure is None:
            print(json.dumps(report), file=stdout, flush=True)
    if failure is None:
        return 0
    print(f"plysolve.distributed: {failure[0]}", file=sys.stderr, flush=True)
    return failure[1]


def board_of(args: argparse.Namespace) -> Dict[str, Any]:
    """The board of a command line's ``game``, ``--rows``, ``--cols`` and ``--size``, as a request
    takes it; an option of the other game ends the run (one line, exit 2)."""
    board: Dict[str, Any] = {"game": args.game}
    if args.game == "boxes":
        if args.size is not None:
            _fail("--size is for triangles; boxes take --rows and --cols")
        # As `ply dots boxes`: each of --rows and --cols is 3 unless given (a request takes both,
        # or neither for 3×3).
        if args.rows is not None or args.cols is not None:
            board.update(rows=3 if args.rows is None else args.rows,
                         cols=3 if args.cols is None else args.cols)
    else:
        if args.rows is not None or args.cols is not None:
            _fail("--rows and --cols are for boxes; triangles take --size")
        if args.size is not None:
            board["size"] = args.size
    return board


def _auth_hint(address: Optional[str]) -> str:
    """What to add to a failure to join the cluster at ``address`` when this process does not
    ask for Ray's token authentication: a cluster started by ``ray start --head`` (Ray 2.5x on)
    asks for it, and Ray then says only that it failed to connect (the cause is in its log)."""
    if not address or address.startswith("ray://") or os.environ.get("RAY_AUTH_MODE") == "token":
        return ""
    return " (a cluster asking for Ray's token needs RAY_AUTH_MODE=token and the head's token here)"


def start_tables(ray: Any, shards: int) -> Tuple[List[str], List[Any]]:
    """``shards`` new ``_Table`` actors holding one shared table, named for this run: their names
    (what workers are given: Ray can restart a worker from them) and handles."""
    run = uuid.uuid4().hex
    names = [f"plysolve-table-{run}-{i}" for i in range(shards)]
    table = ray.remote(num_cpus=0, max_restarts=0)(_Table)
    return names, [table.options(name=name).remote() for name in names]


def _first_line(e: BaseException) -> str:
    """The first line of what ``e`` says (Ray's errors run to many lines), or its type's name."""
    lines = [line.strip() for line in str(e).splitlines() if line.strip()]
    return lines[0] if lines else type(e).__name__


def _cpu_seconds() -> float:
    """CPU time this process has used (user and system, every thread)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


@dataclass
class Node:
    """A position of the expanded tree (a DAG: transpositions are one node)."""

    key: str
    moves: List[str]
    free: int
    cells: int
    #: What is proved of its value.
    range: Range
    #: (points, child key, move) of each distinct child in the search's order, once expanded.
    children: Optional[List[Tuple[int, str, str]]] = None
    parents: List[str] = field(default_factory=list)
    #: The window of the last question asked of it (an expanded position's row in the store).
    asked: Optional[Range] = None
    nodes: int = 0
    seconds: float = 0.0
    #: Expanded while its own job ran (split for an idle worker): its children are all asked at
    #: once, none waiting for the eldest.
    stolen: bool = False


def _request(board: Dict[str, Any], moves: List[str], window: Optional[Range] = None) -> str:
    request = dict(board, moves=moves, detail="value")
    if window is not None:
        request["window"] = list(window)
    return json.dumps(request)


# The library's answers to the manager's small questions, kept: a deep split asks the same ones
# thousands of times.


@functools.lru_cache(maxsize=1 << 16)
def _decided(range_: Range, window: Optional[Range]) -> bool:
    """Whether nothing is left to ask of a value in ``range_`` about ``window``."""
    return _ply.dots_next_test(range_, window, 0) is None


@functools.lru_cache(maxsize=1 << 16)
def _child_window(points: int, window: Range) -> Range:
    """The window a child is asked about in when its parent is asked about in ``window`` and
    the move to it scores ``points``."""
    return tuple(_ply.dots_child_window(points, window))  # type: ignore


@functools.lru_cache(maxsize=1 << 16)
def _move_range(cells: int, points: int, child: Range) -> Range:
    """What is proved of a move scoring ``points`` in a position with ``cells`` open cells when
    its child's value lies in ``child``."""
    return tuple(_ply.dots_combine(cells, [(points, child)]))  # type: ignore


#: A job the root's question needs: the position, its window, and the (position, window) of each
#: position above it on the way the question came down (it is no longer needed once one of them
#: is decided).
Job = Tuple[str, Range, Tuple[Tuple[str, Range], ...]]


class _Tree:
    """The expanded positions of one solve, what is proved of them, and the store they are
    recorded in."""

    def __init__(self, board: Dict[str, Any], store: Store, brothers_wait: bool = True) -> None:
        self.board = board
        self.store = store
        #: Whether a position's younger children wait until one of them is answered.
        self.brothers_wait = brothers_wait
        self.nodes: Dict[str, Node] = {}
        #: Positions whose bounds came from the store.
        self.from_store = 0

    def node(self, key: str, moves: List[str], free: int, cells: int) -> Tuple[Node, bool]:
        """The node of ``key``, made with what the store proves of it; whether it is new."""
        if key in self.nodes:
            return self.nodes[key], False
        node = Node(key, moves, free, cells, (-cells, cells))
        row = self.store.get(key, cells)
        if row is not None:
            node.range = (row["lower"], row["upper"])
            node.nodes, node.seconds = row["nodes"], row["seconds"]
            self.from_store += 1
        self.nodes[key] = node
        return node, True

    def expand(self, node: Node, expanded: Optional[Dict[str, Any]] = None) -> List[Node]:
        """Gives ``node`` its distinct children (``expanded``: ``dots_expand``'s answer, asked now
        if not given); the new ones."""
        expanded = expanded or json.loads(_ply.dots_expand(_request(self.board, node.moves)))
        node.children = []
        new = []
        for c in expanded["children"]:
            node.children.append((c["points"], c["key"], c["move"]))
            child, made = self.node(c["key"], c["moves"], c["free"], c["cells"])
            child.parents.append(node.key)
            if made:
                new.append(child)
        return new

    def best_move(self, node: Node) -> Optional[str]:
        """A move of ``node`` proved to reach its lower bound (none while no move is)."""
        for points, key, mv in node.children or []:
            if _move_range(node.cells, points, self.nodes[key].range)[0] >= node.range[0] > -node.cells:
                return mv
        return None

    def settle(self, key: str) -> None:
        """Recomputes an expanded node's bounds from its children; records them and goes up when
        they narrowed."""
        node = self.nodes[key]
        if node.children is None:
            return
        children = [(p, self.nodes[k].range) for p, k, _ in node.children]
        found = _ply.dots_combine(node.cells, children)
        narrowed = (max(node.range[0], found[0]), min(node.range[1], found[1]))
        if narrowed == node.range:
            return
        node.range = narrowed
        node.nodes = sum(self.nodes[k].nodes for _, k, _ in node.children)
        node.seconds = sum(self.nodes[k].seconds for _, k, _ in node.children)
        self.store.put(node.key, node.asked or (-node.cells - 1, node.cells + 1), node.range,
                       self.best_move(node), node.moves, node.nodes, node.seconds, "expanded")
        for parent in node.parents:
            self.settle(parent)

    def prove(self, key: str, asked: Range, found: Range, nodes: int, seconds: float) -> None:
        """Records what a job proved of ``key`` asked about in ``asked``, and carries it up."""
        node = self.nodes[key]
        node.range = (max(node.range[0], found[0]), min(node.range[1], found[1]))
        node.nodes += nodes
        node.seconds += seconds
        self.store.put(key, asked, found, None, node.moves, nodes, seconds, "job")
        for parent in node.parents:
            self.settle(parent)

    def needed(self, root: Node, question: Range, most: int) -> List[Job]:
        """Every job the root's ``question`` needs, in the order to run them: depth first, each
        position's moves best first — greatest proved bounds first (what a job proved of a
        transposition reorders every position it is a child of), then the search's order. The
        positions passed on the way to the first ``most`` (the jobs to run now) are taken as
        asked about the question (their rows in the store)."""
        found: List[Job] = []
        seen: Set[Tuple[str, Range]] = set()

        def visit(node: Node, asked: Range, path: Tuple[Tuple[str, Range], ...]) -> None:
            """Adds the jobs below ``node``."""
            if _decided(node.range, asked) or (node.key, asked) in seen:
                return
            seen.add((node.key, asked))
            if node.children is None:
                found.append((node.key, asked, path))
                return
            if len(found) < most:
                node.asked = asked
            below = path + ((node.key, asked),)

            def rank(child: Tuple[int, str, str]) -> Range:
                lower, upper = _move_range(node.cells, child[0], self.nodes[child[1]].range)
                return (-lower, -upper)

            children = sorted(node.children, key=rank)
            if self.brothers_wait and not node.stolen and not any(
                    _decided(self.nodes[key].range, _child_window(points, asked))
                    for points, key, _ in children):
                # Young brothers wait: nothing answered of this question yet, only the eldest
                # is asked (the rest would be speculation if it decides the position).
                children = children[:1]
            for points, key, _ in children:
                visit(self.nodes[key], _child_window(points, asked), below)

        visit(root, question, ())
        return found

    def steal(self, job: Job, min_free: int, at_once: bool = True) -> bool:
        """Splits running ``job`` for an idle worker: expands its position, whose children become
        jobs of their own, all asked at once (``at_once``; else the eldest first, as any
        position's) — the job, no longer needed, is cancelled; what its search proved is in its
        table. False for a position of at most ``min_free`` free edges."""
        node = self.nodes[job[0]]
        if node.children is not None or node.free <= min_free:
            return False
        self.expand(node)
        node.stolen = at_once
        self.settle(node.key)
        return True

    def split_large(self, ran: List[Tuple[str, int]], parts: int, min_free: int) -> int:
        """After a test whose jobs were ``ran`` (position, nodes): expands each position whose
        job searched more than ``1 / parts`` of them all (its children the next tests' jobs,
        brothers waiting as ever), none of at most ``min_free`` free edges or proved exactly. How
        many it expanded."""
        total = sum(nodes for _, nodes in ran)
        split = 0
        for key in {key for key, nodes in ran if nodes * parts > total}:
            node = self.nodes[key]
            if node.children is None and node.free > min_free and node.range[0] < node.range[1]:
                self.expand(node)
                self.settle(node.key)
                split += 1
        return split

    def still_needed(self, job: Job) -> bool:
        """Whether ``job``'s position is still a leaf (not split) and neither it nor one on its
        way down is decided yet."""
        key, asked, path = job
        node = self.nodes[key]
        return node.children is None and not _decided(node.range, asked) and not any(
            _decided(self.nodes[k].range, w) for k, w in path)


class _Pool:
    """The Ray actors that run jobs (``workers`` of ``threads`` CPUs each), the jobs running on
    them, and how many more may start (``None``: no limit)."""

    def __init__(self, workers: int, threads: int, address: Optional[str],
                 left: Optional[int], share_free: Optional[int] = None, shards: int = 1,
                 host_table: Optional[str] = None) -> None:
        ray = start_ray(workers, threads, address)
        self.ray = ray
        self.threads = threads
        #: The shards of the shared table (none: nothing shared).
        names, self.tables = start_tables(ray, 0 if share_free is None else shards)
        actor = ray.remote(num_cpus=threads, max_restarts=2, max_task_retries=0)(_Worker)
        self.actors = [actor.remote(i, names, share_free or 0, host_table)
                       for i in range(workers)]
        self.host_table = host_table
        #: Each actor's latest counts of its shared bounds.
        self.traffic: Dict[int, Dict[str, int]] = {}
        self.idle: List[int] = list(range(workers))
        #: ref → (actor, job, tag: its number among the run's starts) of each job running.
        self.running: Dict[Any, Tuple[int, Job, int]] = {}
        #: ref → when each job running started (``time.perf_counter``).
        self.started: Dict[Any, float] = {}
        self.starts = 0
        #: ref → actor of each job cancelled and not stopped yet.
        self.stopping: Dict[Any, int] = {}
        #: key → the actor that last ran a job of it (its search table holds that work).
        self.affinity: Dict[str, int] = {}
        self.left = left
        self.cancelled = 0
        self.failures = 0

    def busy(self) -> Set[Tuple[str, Range]]:
        """(position, window) of the jobs running."""
        return {(job[0], job[1]) for _, job, _ in self.running.values()}

    def start(self, job: Job, request: str, memory: Optional[str],
              node_limit: Optional[int] = None) -> bool:
        """Starts ``job`` on an idle actor, the one that last ran a job of its position if it is
        idle, to give up past ``node_limit`` nodes; false when no actor is idle or the budget is
        spent."""
        if not self.idle or self.left == 0:
            return False
        key = job[0]
        preferred = self.affinity.get(key)
        actor = preferred if preferred in self.idle else self.idle[0]
        self.idle.remove(actor)
        self.affinity[key] = actor
        ref = self.actors[actor].run.remote(request, memory, self.threads, self.starts,
                                            node_limit)
        self.running[ref] = (actor, job, self.starts)
        self.started[ref] = time.perf_counter()
        self.starts += 1
        if self.left is not None:
            self.left -= 1
        return True

    def cancel_unless(self, wanted: Callable[[Job], bool]) -> None:
        """Cancels the running jobs that are not ``wanted``."""
        for ref, (actor, job, _) in list(self.running.items()):
            if not wanted(job):
                del self.running[ref]
                del self.started[ref]
                self.ray.cancel(ref)
                self.stopping[ref] = actor
                self.cancelled += 1

    def running_since(self) -> List[Tuple[Job, float, int]]:
        """Each running job, the seconds it has run and its tag, the longest first."""
        now = time.perf_counter()
        return sorted(((job, now - self.started[ref], tag)
                       for ref, (_, job, tag) in self.running.items()), key=lambda found: -found[1])

    def next_result(self, timeout: Optional[float] = None) -> Optional[Tuple[Job, Dict[str, Any]]]:
        """Waits for a job to end, at most ``timeout`` seconds (``None``: as long as it takes): the
        job and its result (``started``: when it started, ``time.perf_counter``), or ``None`` for
        a cancelled job, one whose actor died (it will be asked again) or none ended in time;
        raises ``LookupError`` when nothing runs."""
        ray = self.ray
        if not self.running and not self.stopping:
            raise LookupError("no job runs")
        done, _ = ray.wait(list(self.running) + list(self.stopping), num_returns=1,
                           timeout=timeout)
        if not done:
            return None
        ref = done[0]
        if ref in self.stopping:
            self.idle.append(self.stopping.pop(ref))
            return None
        actor, job, _ = self.running.pop(ref)
        result_started = self.started.pop(ref)
        self.idle.append(actor)
        result, self.failures = job_result(ray, ref, self.failures, len(self.actors))
        if result is None:
            if self.left is not None:
                self.left += 1
            return None
        if result["shared"] is not None:
            self.traffic[actor] = result["shared"]
        return job, dict(result, started=result_started)

    def close(self) -> None:
        """Cancels what still runs and lets the actors go, then removes the run's search table
        from this machine's shared memory once they have (see ``remove_host_tables``)."""
        self.cancel_unless(lambda _job: False)
        for actor in self.actors + self.tables:
            self.ray.kill(actor)
        remove_host_tables(self.host_table)

    def _answers(self, refs: List[Any]) -> List[Any]:
        """What the actors' calls ``refs`` answer within ``SHARE_TIMEOUT`` seconds, those of
        actors gone or late left out."""
        ready, _ = self.ray.wait(refs, num_returns=len(refs), timeout=SHARE_TIMEOUT)
        answers = []
        for ref in ready:
            try:
                answers.append(self.ray.get(ref))
            except Exception:  # an actor gone: its counts with it
                pass
        return answers

    def cancelled_nodes(self) -> Dict[int, int]:
        """The nodes of each cancelled job, by tag, from the workers that still answer: work the
        run threw away (asked once the jobs are done)."""
        found: Dict[int, int] = {}
        for each in self._answers([actor.cancelled.remote() for actor in self.actors]):
            found.update(each)
        return found

    def shared(self) -> Dict[str, int]:
        """The traffic of the shared bounds, summed over the workers (as each last reported it):
        entries ``sent`` to the table and ``received`` from it, and what their stores counted
        (``offered``, ``dropped``, ``contradictions``…); and over the table's shards that still
        answer, the entries they ``held`` at the end and ``forgotten``."""
        total: Dict[str, int] = {"held": 0, "forgotten": 0}
        counts = list(self.traffic.values())
        counts += self._answers([table.counts.remote() for table in self.tables])
        for each in counts:
            for name, n in each.items():
                total[name] = total.get(name, 0) + n
        return total


class _Chains:
    """What waited on what in a run, for its span: each job after the event that made it needed
    — the answer of another job, or the split of a long one (the first test's jobs after the
    start, a later test's after the answer that decided the one before) — and each event after
    its job. The span, the longest chain in nodes, is what no number of workers takes a run below:
    with its nodes N, W workers need at least max(N / W, span), and a scheduler that never leaves
    a worker idle while a job waits at most N / W + span (Brent)."""

    def __init__(self) -> None:
        #: (the event it came after, the nodes of its job — ``None`` for a split job's, told by
        #: its worker at the end — and that job's tag); the first is the start.
        self.events: List[Tuple[int, Optional[int], Optional[int]]] = [(-1, 0, None)]
        #: (position, window) of each job needed now → the event after which it was.
        self.ready: Dict[Tuple[str, Range], int] = {}
        #: (position, window) of each job started → the event it came after.
        self.after: Dict[Tuple[str, Range], int] = {}

    def needed(self, jobs: List[Job]) -> None:
        """Notes the jobs needed now: those new since the last event came after it."""
        last = len(self.events) - 1
        self.ready = {(key, asked): self.ready.get((key, asked), last) for key, asked, _ in jobs}

    def started(self, job: Job) -> None:
        """Notes that ``job`` started: it came after the event that made it needed."""
        self.after[(job[0], job[1])] = self.ready[(job[0], job[1])]

    def answered(self, job: Job, nodes: int) -> None:
        """The answer of ``job``, which searched ``nodes``: an event."""
        self.events.append((self.after[(job[0], job[1])], nodes, None))

    def split(self, job: Job, tag: int) -> None:
        """The split of running ``job`` (started with ``tag``): an event after its nodes so far."""
        self.events.append((self.after[(job[0], job[1])], None, tag))

    def span(self, cancelled: Dict[int, int]) -> Dict[str, int]:
        """The longest chain: its ``nodes`` and ``jobs``, the split jobs' nodes from ``cancelled``
        (by tag; a job whose worker died counts none)."""
        nodes, jobs = [0] * len(self.events), [0] * len(self.events)
        for i, (after, searched, tag) in enumerate(self.events[1:], 1):
            nodes[i] = nodes[after] + (searched if tag is None else cancelled.get(tag, 0))
            jobs[i] = jobs[after] + 1
        longest = max(range(len(nodes)), key=nodes.__getitem__)
        return {"nodes": nodes[longest], "jobs": jobs[longest]}


class _Scheduler:
    """What the workers run next while a root's test is open: the jobs it needs, in order, then
    splits of long jobs for idle workers (work stealing)."""

    def __init__(self, tree: _Tree, root: Node, memory: Optional[str], min_free: int,
                 steal_after: Optional[float]) -> None:
        self.tree = tree
        self.root = root
        self.memory = memory
        self.min_free = min_free
        self.steal_after = steal_after
        #: Jobs split for an idle worker.
        self.steals = 0
        #: What waited on what (the run's span).
        self.chains = _Chains()
        #: Nodes past which a job of a position that can be split gives up and is split
        #: (``None``: never).
        self.node_limit: Optional[int] = None

    def gave_up(self, job: Job, nodes: int) -> None:
        """``job`` gave up at the node limit having searched ``nodes``: its position is split,
        its children jobs of their own, the eldest asked first (all at once cost more nodes for
        no shorter span: BENCHMARKS); what it proved is in its table."""
        self.chains.answered(job, nodes)
        # (Only a leaf of more than ``min_free`` free edges is given the limit; one expanded
        # while its job ran is asked no more.)
        self.tree.steal(job, self.min_free, at_once=False)

    def step(self, pool: _Pool, question: Range) -> Tuple[bool, Optional[float]]:
        """Cancels the jobs no longer needed and starts those the root's ``question`` needs on
        the idle workers. Returns whether a running job was split (step again at once), and the
        seconds to wait at most for a job to end (``None``: as long as it takes) before one may
        be."""
        tree = self.tree
        pool.cancel_unless(tree.still_needed)
        busy = pool.busy()
        most = len(busy) + len(pool.idle)
        needed = tree.needed(self.root, question, most)
        self.chains.needed(needed)
        # The jobs to run next, in order (those running among them).
        for job in needed[:most]:
            if (job[0], job[1]) not in busy:
                node = tree.nodes[job[0]]
                request = _request(tree.board, node.moves, job[1])
                limit = None if node.free <= self.min_free else self.node_limit
                if not pool.start(job, request, self.memory, limit):
                    break
                self.chains.started(job)
        # A worker idle with nothing to ask: the position of the job that has run longest is
        # split (work stealing), once it has run ``steal_after`` seconds.
        steal_after = self.steal_after
        if not pool.idle or steal_after is None or pool.left == 0:
            return False, None
        ran = pool.running_since()
        for job, seconds, tag in ran:
            if seconds >= steal_after and tree.steal(job, self.min_free):
                self.steals += 1
                self.chains.split(job, tag)
                return True, None
        return False, min((steal_after - seconds for _, seconds, _ in ran
                           if seconds < steal_after), default=None)


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
    window: Optional[Range] = None,
    log: Any = None,
    share: bool = True,
    share_free: Optional[int] = None,
    shards: int = 1,
    host_table: bool = True,
    steal_after: Optional[float] = STEAL_AFTER,
    brothers_wait: bool = True,
    split_large: bool = True,
) -> Dict[str, Any]:
    """Solves the position after ``moves`` on ``board`` (``{"game": "boxes", "rows": 4,
    "cols": 4}``) with Ray; see the module's docs. Expands one ply, and more (breadth first, at
    most ``depth`` plies) only while fewer than ``jobs`` (default ``2 × workers``) positions are
    left unexpanded, never a position of at most ``min_free`` free edges. Jobs are null-window
    tests, as the one search's are, so deeper plies ask about as much work as the search would do
    there; but the manager orders moves and shares bounds less well than the search, and each job
    costs a Ray call: the fewest plies that keep the workers busy are the fastest. At most
    ``workers`` jobs run at once, each on ``threads`` cores of a Ray actor of its own; a local Ray
    of ``workers × threads`` CPUs is started unless Ray is running in this process or ``address``
    names a cluster (``"auto"``: the one on this host). Each actor's search table takes up to
    ``memory``.

    ``brothers_wait`` (the default): a position's younger children are asked only once one of
    its children is answered (false: all at once). ``steal_after``: a worker with nothing to do
    splits the job that has run longest once it has run that many seconds (``None``: never).
    ``split_large`` (the default; with more than one worker): after each of the root's tests, the
    positions whose jobs searched more than ``1 / (SPLIT_LARGE × workers)`` of its nodes are
    expanded for the tests after it, and in those tests a job that searches more than that share
    of the last test's nodes gives up and its position is split, its eldest child asked first.

    ``window`` = ``(lower, upper)`` asks only where the value lies against it (exactly when
    strictly inside; ``(t - 1, t)``: does it reach ``t``?). With ``share`` (the default), the
    workers share the bounds their searches prove of positions of at least ``share_free`` free
    edges (default: the jobs' fewest less ``SHARE_BELOW``) through a table of ``shards`` Ray
    actors, each worker's own table below that; the report's ``shared`` counts the traffic.
    With ``host_table`` (the default), the workers of one machine search one table in its shared
    memory (``/dev/shm``), as the threads of one process do, instead of one table each: each
    host's table takes ``memory`` once, whatever the workers on it. ``max_jobs`` stops the run after that
    many jobs started (one cancelled — no longer needed, or split for an idle worker — counts;
    what they proved is in the store, the rest for a later run): the report's ``value``
    is then ``None`` unless the position was proved, and ``bounds`` say what is. Bad input (the
    board, the moves, the memory, the window, an address that cannot be joined:
    ``check_options``) and a store row no search proves raise ``ValueError`` with one line;
    workers that keep dying, or a Ray that cannot start, ``RuntimeError`` with one line. Returns
    the report ``main`` prints."""
    if workers < 1 or threads < 1:
        raise ValueError("workers and threads must be at least 1")
    if max_jobs is not None and max_jobs < 0:
        raise ValueError("max_jobs must be at least 0")
    if shards < 1:
        raise ValueError("shards must be at least 1")
    if share_free is not None and share_free < 0:
        raise ValueError("share_free must be at least 0")
    if steal_after is not None and not 0 <= steal_after <= 1e9:
        raise ValueError("steal_after must be a number of seconds from 0 to 1e9")
    check_options(memory, address, threads)
    started = time.perf_counter()
    target = jobs if jobs is not None else 2 * workers
    say = log or (lambda _msg: None)
    # The position and the window checked (ValueError) before anything is asked.
    expanded = json.loads(_ply.dots_expand(_request(board, moves, window)))
    tree = _Tree(board, store, brothers_wait)
    root, _ = tree.node(expanded["key"], list(moves), expanded["free"], expanded["cells"])

    # Expansion, breadth first: the same tree whatever the store holds, except that positions it
    # proved exactly are not expanded.
    frontier = [] if _decided(root.range, window) else [root]
    level = 0
    while frontier and level < depth and (level == 0 or len(frontier) < target):
        next_frontier: List[Node] = []
        for node in frontier:
            if node.range[0] == node.range[1] or (node.free <= min_free and node is not root):
                continue
            next_frontier += tree.expand(node, expanded if node is root else None)
        frontier = next_frontier
        level += 1
    leaf_free = [n.free for n in tree.nodes.values() if n.children is None and n is not root]
    leaves = len(leaf_free)
    if share and share_free is None:
        share_free = max(0, min(leaf_free, default=root.free) - SHARE_BELOW)
    say(f"expanded {level} plies: {len(tree.nodes)} positions, {leaves} left as jobs")
    for node in sorted(tree.nodes.values(), key=lambda n: n.free):
        tree.settle(node.key)

    sizes: List[Dict[str, Any]] = []
    tests: List[Dict[str, Any]] = []
    pool: Optional[_Pool] = None
    scheduler = _Scheduler(tree, root, memory, min_free, steal_after)
    guess = 0
    large = 0
    try:
        # MTD(f) at the root: one null-window test after another, each settled by jobs.
        while (beta := _ply.dots_next_test(root.range, window, guess)) is not None:
            question = (beta - 1, beta)
            test_started, first_job = time.perf_counter(), len(sizes)
            if pool is None:
                pool = _Pool(workers, threads, address, max_jobs,
                             share_free if share else None, shards,
                             host_table_name() if host_table else None)
            while not _decided(root.range, question):
                split, wait = scheduler.step(pool, question)
                if split:
                    continue
                try:
                    ended = pool.next_result(wait)
                except LookupError:
                    if pool.left != 0:
                        raise RuntimeError(f"the root's test {question} is undecided and no job "
                                           "is left to ask") from None
                    break  # the job budget is spent
                if ended is None:
                    continue
                (key, asked, _), result = ended
                found = (result["lower"], result["upper"])
                gave_up = result["gave_up"] and not _decided(found, asked)
                if not _decided(found, asked) and not gave_up:
                    raise RuntimeError(f"a job left its window {asked} undecided: {found}")
                if gave_up:
                    # What it proved is in its table, for its children's jobs; the store keeps
                    # rows that answer their question.
                    scheduler.gave_up(ended[0], result["nodes"])
                else:
                    tree.prove(key, asked, found, result["nodes"], result["seconds"])
                    scheduler.chains.answered(ended[0], result["nodes"])
                node = tree.nodes[key]
                sizes.append({"key": key, "window": list(asked), "free": node.free,
                              "on_host": result["on_host"], "gave_up": gave_up,
                              "bounds": list(found), "nodes": result["nodes"],
                              "seconds": result["seconds"], "cpu": result["cpu"],
                              "test": len(tests),
                              "started": result["started"] - started,
                              "ended": time.perf_counter() - started})
                say(f"job {len(sizes)}: {node.free} free, window {asked[0]}..{asked[1]}, "
                    f"bounds {found[0]}..{found[1]}, {result['seconds']:.2f} s"
                    + (", gave up: split" if gave_up else ""))
            if not _decided(root.range, question):
                break
            reached = root.range[0] >= beta
            if split_large and workers > 1:
                ran_nodes = [(s["key"], s["nodes"]) for s in sizes[first_job:]]
                large += tree.split_large(ran_nodes, SPLIT_LARGE * workers, min_free)
                scheduler.node_limit = max(1, sum(n for _, n in ran_nodes)
                                           // (SPLIT_LARGE * workers))
            ran = [s["seconds"] for s in sizes[first_job:]]
            tests.append({"beta": beta, "reached": reached, "bounds": list(root.range),
                          "seconds": time.perf_counter() - test_started, "jobs": len(ran),
                          "job_seconds": sum(ran), "longest_job": max(ran, default=0.0),
                          "largest_job_nodes": max((s["nodes"] for s in sizes[first_job:]),
                                                   default=0)})
            say(f"test: the value {'reaches' if reached else 'is below'} {beta} "
                f"(bounds {root.range[0]}..{root.range[1]})")
            guess = root.range[0] if reached else root.range[1]
        # Asked of the actors while they live (only when the run ends well: an interrupted run
        # waits on nothing).
        cancelled = pool.cancelled_nodes() if pool else {}
        wasted = sum(cancelled.values())
        span = scheduler.chains.span(cancelled)
        traffic = pool.shared() if pool and share else {}
    finally:
        if pool is not None:
            pool.close()
    seconds = [s["seconds"] for s in sizes]
    exact = root.range[0] == root.range[1]
    report: Dict[str, Any] = dict(board)
    report.update(
        {
            "moves": list(moves),
            "key": root.key,
            "window": list(window) if window is not None else None,
            "value": root.range[0] if exact else None,
            "exact": exact,
            "bounds": list(root.range),
            "best_move": tree.best_move(root) if root.children is not None
            else (store.get(root.key, root.cells) or {}).get("best_move"),
            "tests": tests,
            "jobs": {"run": len(sizes), "from_store": tree.from_store,
                     "cancelled": pool.cancelled if pool else 0, "cancelled_nodes": wasted,
                     "leaves": leaves, "steals": scheduler.steals, "split_large": large,
                     "gave_up": sum(s["gave_up"] for s in sizes)},
            "plies": level,
            "positions": len(tree.nodes),
            "workers": workers,
            "threads": threads,
            "shared": None if not share else dict(traffic, from_free=share_free, shards=shards),
            # Every node searched, the cancelled jobs' included.
            "nodes": sum(s["nodes"] for s in sizes) + wasted,
            "span": span,
            "job_cpu": sum(s["cpu"] for s in sizes),
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
    print(f"plysolve.distributed: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def _window(text: str) -> Range:
    """``--window LOWER,UPPER``."""
    try:
        lower, upper = (int(t) for t in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not two integers LOWER,UPPER (such as -1,0)") from None
    return lower, upper


def main(argv: Optional[List[str]] = None) -> int:
    """The command line (``python -m plysolve.distributed --help``): prints the report as JSON, exits
    2 with one line on stderr for bad input (arguments, position, store), 130 on Ctrl-C.
    ``book …`` grows a book instead (:mod:`plysolve.book_cluster`)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["book"]:
        from . import book_cluster

        return book_cluster.main(argv[1:])
    parser = _Parser(
        prog="python -m plysolve.distributed",
        description="Solve a dots position with jobs on Ray, every proved job kept in a SQLite store.",
        epilog="python -m plysolve.distributed book --help: grow a book of proved positions on Ray.",
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
    parser.add_argument("--memory", default="1G", help="memory of each worker's search (default 1G)")
    parser.add_argument("--window", type=_window, metavar="LOWER,UPPER",
                        help="ask only where the value lies against this window: exactly when "
                             "strictly inside, else a bound (0,1: does it reach 1?); default: "
                             "the exact value")
    parser.add_argument("--share-free", type=int, metavar="F",
                        help="share the bounds of positions of at least F free edges between the "
                             f"workers (default: the jobs' fewest less {SHARE_BELOW})")
    parser.add_argument("--share-shards", type=int, default=1,
                        help="Ray actors holding the shared table (default 1)")
    parser.add_argument("--no-share", action="store_true",
                        help="share nothing: each worker's search table is its own")
    parser.add_argument("--no-host-table", action="store_true",
                        help="each worker a search table of its own, even beside others on one "
                             "machine (default: the workers of a machine share one, in its "
                             "shared memory)")
    parser.add_argument("--steal-after", type=float, metavar="SECONDS",
                        help="split a job that has run this long when a worker has nothing to do "
                             f"(default {STEAL_AFTER})")
    parser.add_argument("--no-steal", action="store_true", help="never split a running job")
    parser.add_argument("--no-split-large", action="store_true",
                        help="never split a position for the size of its job (default: a job of "
                             "more than 1 / (%d × workers) of a test's nodes is split into its "
                             "children for the tests after it, and a job of a later test past "
                             "that many nodes gives up and is split)" % SPLIT_LARGE)
    parser.add_argument("--all-at-once", action="store_true",
                        help="ask a position's children all at once (default: the younger wait "
                             "for the eldest's answer)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    board = board_of(args)
    if args.no_share and args.share_free is not None:
        _fail("--share-free and --no-share: give one")
    if args.share_free is not None and args.share_free < 0:
        _fail("--share-free must be at least 0")
    for name in ("workers", "threads", "jobs", "depth", "share_shards"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            _fail(f"--{name.replace('_', '-')} must be at least 1")
    if args.max_jobs is not None and args.max_jobs < 0:
        _fail("--max-jobs must be at least 0")
    if args.no_steal and args.steal_after is not None:
        _fail("--steal-after and --no-steal: give one")
    steal_after = STEAL_AFTER if args.steal_after is None else args.steal_after
    if not 0 <= steal_after <= 1e9:  # NaN too
        _fail("--steal-after must be a number of seconds from 0 to 1e9")
    moves = args.moves.replace(",", " ").split()
    log = None if args.quiet else (lambda msg: print(f"plysolve.distributed: {msg}", file=sys.stderr, flush=True))
    try:
        # The position, the window, the memory and the address checked before a store is made.
        _ply.dots_expand(_request(board, moves, args.window))
        check_options(args.memory, args.address, args.threads)
        store = Store(args.store)
    except ValueError as e:
        _fail(str(e))
    return run_reported(
        lambda: solve(
            board, moves, store, workers=args.workers, threads=args.threads, jobs=args.jobs,
            depth=args.depth, min_free=args.min_free, memory=args.memory,
            address=args.address, max_jobs=args.max_jobs, window=args.window, log=log,
            share=not args.no_share, share_free=args.share_free, shards=args.share_shards,
            host_table=not args.no_host_table,
            steal_after=None if args.no_steal else steal_after,
            split_large=not args.no_split_large,
            brothers_wait=not args.all_at_once,
        ),
        "interrupted (every job proved so far is in the store)",
        store.close,
    )


def _stop_ray() -> None:
    """Stops the Ray this process started or joined, if it did, while its lines still go to
    stderr (a late "(raylet) …" line would otherwise reach stdout at exit)."""
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        ray.shutdown()


@contextlib.contextmanager
def _stdout_kept() -> Iterator[TextIO]:
    """Sends what this process and the ones it starts (Ray's) write to stdout to stderr while it
    lasts, at the descriptor (Ray prints a dying worker's lines to ``sys.stdout``, its C++ core to
    descriptor 1); yields the real stdout, for the report alone."""
    sys.stdout.flush()
    kept = os.dup(1)
    os.dup2(2, 1)
    try:
        with open(kept, "w", closefd=False) as stdout:
            yield stdout
    finally:
        sys.stdout.flush()
        os.dup2(kept, 1)
        os.close(kept)


if __name__ == "__main__":
    sys.exit(main())

"""The distributed solve (`plysolve.distributed`) on one local Ray of 2 CPUs for the whole session: the
value of the single-machine search, every question in the store answered by bounds that hold, a
window asked, a run stopped by its job budget and a run SIGKILLed mid-way both resumed without
running a stored job again, a job stopped when no longer wanted, a worker SIGKILLed mid-run (the
JSON alone on stdout) and workers that keep dying, and the faults of the store (a row no search
proves among them), the command line and the split search's helpers as one line."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import plysolve
from plysolve import _ply, distributed
from plysolve._quoting import shown

FOUR = dict(game="boxes", rows=4, cols=4)
# 4×4 positions (from baselines/generators), their values for the player to move by `ply dots`.
BOXES_24 = "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21 3-8 9-10 1-6 20-25 4-5 11-16 6-7 22-23"
BOXES_24_B = "4-5 7-8 19-24 4-9 13-14 24-25 21-22 17-18 3-4 23-24 1-2 11-12 15-20 6-11 2-7 10-15"
# One move to search (a capture): the expansion goes a second ply.
BOXES_24_FORCED = "19-20 18-23 15-20 11-12 4-9 11-16 6-7 1-2 19-24 17-22 3-8 14-15 21-22 5-10 12-13 8-9"
BOXES_26 = "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21 3-8 9-10 1-6 20-25 4-5 11-16"
# 30 free edges, value 4, expanded two plies: over a hundred jobs of milliseconds for one worker
# (a run long enough to be killed part way).
BOXES_30 = "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21 3-8 9-10"
TWO_PLIES = ["--jobs", "200", "--depth", "2"]
CASES = [
    (FOUR, BOXES_24, 4),
    (FOUR, BOXES_24_B, -6),
    (FOUR, BOXES_24_FORCED, 4),
    (dict(game="triangles", size=4), "1-2 2-3 4-5 5-6 7-8 8-9", 6),
]


def job_rows(path):
    """(key, window) → written of the jobs in the store at `path`."""
    if not os.path.exists(path):
        return {}
    try:
        with sqlite3.connect(path, timeout=5) as db:
            rows = db.execute(
                "SELECT key, window_lower, window_upper, written FROM proved WHERE kind = 'job'")
            return {(k, lower, upper): w for k, lower, upper, w in rows}
    except sqlite3.OperationalError:
        return {}


def jobs_run(report):
    """(key, window) of each job a run ran."""
    return {(s["key"], *s["window"]) for s in report["job_sizes"]}


def check_rows(path, board):
    """Every row of the store at `path`: its bounds hold the value `plysolve.dots` gives its position
    and decide the window it was asked about in."""
    rows = sqlite3.connect(path).execute(
        "SELECT kind, moves, window_lower, window_upper, lower, upper, nodes, seconds FROM proved"
    ).fetchall()
    for kind, moves, w_lower, w_upper, lower, upper, nodes, seconds in rows:
        value = plysolve.dots(**board, moves=moves, detail="value")["value"]
        assert lower <= value <= upper, (moves, value, lower, upper)
        assert lower == upper or upper <= w_lower or lower >= w_upper or kind == "expanded"
        assert nodes >= 0 and (seconds > 0 or kind == "expanded")
    return rows


@pytest.mark.parametrize("board, moves, value", CASES)
def test_the_distributed_value_is_the_single_machine_value(small_ray, tmp_path, board, moves, value):
    moves = moves.split()
    assert plysolve.dots(**board, moves=moves)["value"] == value
    store = distributed.Store(str(tmp_path / "run.sqlite"))
    report = distributed.solve(board, moves, store, workers=2)
    assert report["value"] == value and report["exact"] and report["bounds"] == [value, value]
    assert report["jobs"]["run"] >= 2 and report["jobs"]["from_store"] == 0
    # Every node searched is counted, the cancelled jobs' too (none without cancelled jobs).
    wasted = report["jobs"]["cancelled_nodes"]
    assert report["nodes"] == sum(s["nodes"] for s in report["job_sizes"]) + wasted
    assert wasted >= 0 and (wasted == 0 or report["jobs"]["cancelled"] > 0)
    # MTD(f) at the root: the last test reached the value, or fell short of the next one.
    assert [t["reached"] for t in report["tests"]][-1] is False or report["tests"][-1]["beta"] == value
    assert all(t["reached"] == (t["beta"] <= value) for t in report["tests"])
    # Jobs are null-window tests.
    assert all(s["window"][1] - s["window"][0] == 1 for s in report["job_sizes"])
    # The best move's own value is the position's.
    mv = plysolve.dots(**board, moves=moves, detail="moves")
    assert report["best_move"] in {m["move"] for m in mv["moves"] if m["value"] == value}
    # Asked again, the store answers at once (no Ray call).
    again = distributed.solve(board, moves, store, workers=2)
    assert again["value"] == value and again["best_move"] == report["best_move"]
    assert again["jobs"] == {"run": 0, "from_store": 1, "cancelled": 0, "cancelled_nodes": 0,
                             "leaves": 0, "steals": 0, "split_large": 0, "gave_up": 0}
    rows = check_rows(store.path, board)
    assert {r[0] for r in rows} == {"job", "expanded"}
    store.close()


def test_a_job_no_node_has_the_cores_for_is_refused(small_ray, tmp_path):
    # (Ray would keep such an actor waiting for ever.) The session's Ray has 2 CPUs.
    store = distributed.Store(str(tmp_path / "cores.sqlite"))
    with pytest.raises(RuntimeError) as e:
        distributed.solve(FOUR, BOXES_24.split(), store, workers=1, threads=3, address="auto")
    store.close()
    assert str(e.value) == "no Ray node has 3 CPUs for a job of 3 threads (the most: 2)"


def test_a_window_is_answered_by_a_bound(small_ray, tmp_path):
    moves = BOXES_24.split()
    store = distributed.Store(str(tmp_path / "window.sqlite"))
    # The value is 4: does it reach 1? Yes, in one test (at 2: 16 cells are open, so the values
    # are even); does it reach 6? No.
    high = distributed.solve(FOUR, moves, store, window=(0, 1))
    assert (high["value"], high["exact"], high["window"]) == (None, False, [0, 1])
    assert high["bounds"][0] >= 2 and high["bounds"][1] >= 4
    assert [t["beta"] for t in high["tests"]] == [2] and high["tests"][0]["reached"]
    low = distributed.solve(FOUR, moves, store, window=(5, 6))
    assert low["bounds"][1] <= 5 and not low["tests"][-1]["reached"]
    check_rows(store.path, FOUR)
    store.close()


def test_a_run_stopped_by_its_job_budget_resumes_without_redoing_a_job(small_ray, tmp_path):
    path = str(tmp_path / "budget.sqlite")
    moves = BOXES_24.split()
    store = distributed.Store(path)
    # (No stealing: a job split counts against the budget, and whether one is depends on time.)
    first = distributed.solve(FOUR, moves, store, workers=2, max_jobs=3, steal_after=None)
    assert first["value"] is None and not first["exact"]
    assert first["jobs"]["run"] == 3 and first["jobs"]["leaves"] == 24
    lower, upper = first["bounds"]
    assert -16 <= lower <= 4 <= upper <= 16
    stored = job_rows(path)
    assert set(stored) == jobs_run(first) and len(stored) == 3
    store.close()

    store = distributed.Store(path)
    second = distributed.solve(FOUR, moves, store, workers=2)
    assert second["value"] == 4 == plysolve.dots(**FOUR, moves=moves)["value"]
    # The three positions the jobs asked about, and the root they narrowed.
    assert second["jobs"]["from_store"] >= len({k for k, _, _ in stored})
    # No stored job was run again, nor written again.
    assert not set(stored) & jobs_run(second)
    after = job_rows(path)
    assert all(after[k] == w for k, w in stored.items())
    assert len(after) == 3 + second["jobs"]["run"]
    check_rows(path, FOUR)
    store.close()


def test_a_killed_run_resumes_from_its_store(small_ray, tmp_path):
    path = str(tmp_path / "killed.sqlite")
    address = small_ray.get_runtime_context().gcs_address
    # One job at a time on the session's Ray.
    child = subprocess.Popen(
        [sys.executable, "-m", "plysolve.distributed", "boxes", "--rows", "4", "--cols", "4",
         "--moves", BOXES_30, *TWO_PLIES, "--workers", "1", "--store", path, "--address",
         address],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(job_rows(path)) < 2:
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "no job was stored in time"
            time.sleep(0.05)
        assert child.poll() is None, "the run ended before it was killed"
    finally:
        child.kill()
        child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    stored = job_rows(path)
    assert len(stored) >= 2

    store = distributed.Store(path)
    report = distributed.solve(FOUR, BOXES_30.split(), store, workers=2, jobs=200, depth=2)
    store.close()
    assert report["value"] == 4 == plysolve.dots(**FOUR, moves=BOXES_30, detail="value")["value"]
    assert report["jobs"]["from_store"] >= len({k for k, _, _ in stored})
    assert report["plies"] == 2 and report["jobs"]["leaves"] == 330
    assert not set(stored) & jobs_run(report)

    # The command line on the same store: the position itself is proved there (Ray not needed).
    done = subprocess.run(
        [sys.executable, "-m", "plysolve.distributed", "boxes", "--rows", "4", "--cols", "4",
         "--moves", BOXES_30, "--store", path, "--quiet"], capture_output=True, text=True,
        timeout=120)
    assert done.returncode == 0, done.stderr
    again = json.loads(done.stdout)
    assert again["value"] == 4 and again["jobs"] == {
        "run": 0, "from_store": 1, "cancelled": 0, "cancelled_nodes": 0, "leaves": 0,
        "steals": 0, "split_large": 0, "gave_up": 0}
    assert again["best_move"] == report["best_move"] and done.stderr == ""


def descendants(pid):
    """(pid, command line) of every process below `pid` (from /proc)."""
    below = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError, IndexError):
            continue
        below.setdefault(parent, []).append((int(entry), command))
    found, todo = [], [pid]
    while todo:
        for child in below.get(todo.pop(), []):
            found.append(child)
            todo.append(child[0])
    return found


def run_killing_workers(path, kills, running_only):
    """The command line on a Ray of its own (one worker), the worker's process SIGKILLed as soon
    as it shows (`running_only`: once it runs a job), `kills` times at most: its exit status,
    stdout and stderr."""
    child = subprocess.Popen(
        [sys.executable, "-m", "plysolve.distributed", "boxes", "--rows", "4", "--cols", "4",
         "--moves", BOXES_30, *TWO_PLIES, "--workers", "1", "--store", path, "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = set()
    try:
        deadline = time.monotonic() + 180
        while child.poll() is None and len(killed) < kills:
            assert time.monotonic() < deadline, "no worker to kill in time"
            prefix = "ray::_Worker.run" if running_only else "ray::_Worker"
            for pid, command in descendants(child.pid):
                if command.startswith(prefix) and pid not in killed:
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
            time.sleep(0.02)
        out, err = child.communicate(timeout=180)
    finally:
        child.kill()
    assert len(killed) == kills, "the run ended before its workers were killed"
    return child.returncode, out, err


def test_a_worker_killed_mid_run_leaves_the_json_alone_on_stdout(tmp_path):
    status, out, err = run_killing_workers(str(tmp_path / "killed.sqlite"), kills=1,
                                           running_only=True)
    assert status == 0, err
    # Ray's line about the worker went to stderr; stdout is the report alone.
    assert "(raylet)" in err and "A worker died or was killed" in err
    report = json.loads(out)
    assert report["value"] == 4 and report["exact"] and report["bounds"] == [4, 4]


def test_workers_that_keep_dying_end_the_run_in_one_line(tmp_path):
    status, out, err = run_killing_workers(str(tmp_path / "dying.sqlite"), kills=3,
                                           running_only=False)
    # Ray restarts the worker twice, then gives it up: every job after is lost at once.
    assert (status, out) == (2, "")
    last = err.rstrip("\n").splitlines()[-1]
    assert last.startswith("plysolve.distributed: the Ray workers keep dying (out of memory?): "
                           "4 jobs lost, the last: "), last


def foreign_files(tmp_path):
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database\n" * 100)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE proved (key TEXT, value INTEGER)")
    older = tmp_path / "older.sqlite"
    with sqlite3.connect(older) as db:
        db.execute(f"PRAGMA application_id = {distributed.APPLICATION_ID}")
        db.execute("PRAGMA user_version = 1")
        db.execute("CREATE TABLE proved (key TEXT PRIMARY KEY, lower INTEGER, upper INTEGER)")
    damaged = tmp_path / "damaged.sqlite"
    good = distributed.Store(str(damaged))
    good.put("k", (0, 1), (1, 1), None, [], 1, 0.1, "job")
    good.close()
    data = bytearray(damaged.read_bytes())
    data[100:2000] = b"\xff" * 1900
    damaged.write_bytes(data)
    return {
        text: "is not a SQLite database ply can use: file is not a database",
        other: "is a SQLite database of another application, not a plysolve.distributed store",
        older: "is a plysolve.distributed store of another layout (version 1; this ply reads version 2)",
        damaged: "is not a SQLite database ply can use: database disk image is malformed",
        tmp_path: "is a directory, not a SQLite file",
    }


def test_a_foreign_or_damaged_store_is_refused_in_one_line(tmp_path):
    for path, message in foreign_files(tmp_path).items():
        before = path.read_bytes() if path.is_file() else None
        with pytest.raises(ValueError) as e:
            distributed.Store(str(path))
        assert str(e.value) == f"store {shown(str(path))} {message}"
        assert path.is_dir() or path.read_bytes() == before
        done = subprocess.run(
            [sys.executable, "-m", "plysolve.distributed", "boxes", "--store", str(path)],
            capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == f"plysolve.distributed: store {shown(str(path))} {message}\n"


@pytest.mark.parametrize("args, message", [
    (["boxes", "--rows", "4"], "the following arguments are required: --store"),
    # (argparse's own words, which differ between Python versions after this)
    (["chess", "--store", "s"], "argument game: invalid choice: 'chess'"),
    (["boxes", "--rows", "x", "--store", "s"], "argument --rows: invalid int value: 'x'"),
    (["boxes", "--rows", "0", "--store", "s"],
     "a board of 0×3 boxes has 3 edges; boards need at least one box and at most 63 edges"),
    (["boxes", "--moves", "1-99", "--store", "s"],
     "move 1 `1-99`: dot 99 does not exist (this board has dots 1 to 16)"),
    (["boxes", "--size", "4", "--store", "s"], "--size is for triangles; boxes take --rows and --cols"),
    (["triangles", "--rows", "4", "--store", "s"], "--rows and --cols are for boxes; triangles take --size"),
    (["boxes", "--workers", "0", "--store", "s"], "--workers must be at least 1"),
    (["boxes", "--max-jobs", "-1", "--store", "s"], "--max-jobs must be at least 0"),
    (["boxes", "--share-free", "-1", "--store", "s"], "--share-free must be at least 0"),
    (["boxes", "--share-free", "20", "--no-share", "--store", "s"],
     "--share-free and --no-share: give one"),
    (["boxes", "--share-shards", "0", "--store", "s"], "--share-shards must be at least 1"),
    (["boxes", "--steal-after", "-1", "--store", "s"],
     "--steal-after must be a number of seconds from 0 to 1e9"),
    (["boxes", "--steal-after", "nan", "--store", "s"],
     "--steal-after must be a number of seconds from 0 to 1e9"),
    (["boxes", "--steal-after", "x", "--store", "s"], "argument --steal-after: invalid float value"),
    (["boxes", "--steal-after", "1", "--no-steal", "--store", "s"],
     "--steal-after and --no-steal: give one"),
    (["boxes", "--window", "1", "--store", "s"],
     "argument --window: '1' is not two integers LOWER,UPPER (such as -1,0)"),
    (["boxes", "--window", "2,2", "--store", "s"],
     "window=[2, 2]: its lower end must be below its upper end"),
    (["boxes", "--memory", "0", "--store", "s"],
     "memory `0` is no memory at all: give a size like 1G"),
    (["boxes", "--memory", "lots", "--store", "s"],
     "memory `lots` is not a memory size like 8G or 512M"),
    (["boxes", "--memory", "999T", "--store", "s"], "memory 999.0 TiB (1098412116148224 bytes) is "
     "more than this machine's"),
    (["boxes", "--threads", "100000", "--store", "s"],
     "threads 100000 is more than this machine's"),
    (["boxes", "--store", ""],
     "store '' names no file: give the path of a SQLite file (created if missing)"),
    (["boxes", "--store", ":memory:"], "store ':memory:' names no file"),
    # Nothing listens on port 1: refused at once (an address that never answers: in 5 s).
    (["boxes", "--address", "127.0.0.1:1", "--store", "s"],
     "address '127.0.0.1:1' cannot be reached: Connection refused (within 5 s)"),
    (["boxes", "--address", "head", "--store", "s"],
     "address 'head' is not host:port, ray://host:port or auto"),
    (["boxes", "--address", "ray://head:99999", "--store", "s"],
     "address 'ray://head:99999' is not host:port, ray://host:port or auto"),
])
def test_bad_arguments_exit_2_with_one_line(tmp_path, args, message):
    done = subprocess.run([sys.executable, "-m", "plysolve.distributed", *args], capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"plysolve.distributed: {message}") and done.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_ray_address_needs_rays_client(monkeypatch):
    # As without `pip install "ray[client]"`: no grpc to import.
    monkeypatch.setitem(sys.modules, "grpc", None)
    with pytest.raises(ValueError) as e:
        distributed.check_options("1G", "ray://127.0.0.1:10001")
    assert str(e.value) == ("address 'ray://127.0.0.1:10001': Ray's client is not installed (pip "
                            "install \"ray[client]\", or \"plysolve[distributed]\")")


def test_a_failed_join_says_what_a_cluster_with_tokens_needs(monkeypatch):
    """`ray start --head` (Ray 2.5x on) asks for its token; a driver without RAY_AUTH_MODE=token
    is told only that it failed to connect (tried: a head and a second node on this host, the
    driver joining with and without it). The one line says what is needed, unless it is set."""
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    hint = " (a cluster asking for Ray's token needs RAY_AUTH_MODE=token and the head's token here)"
    assert distributed._auth_hint("head:6379") == hint
    assert distributed._auth_hint(None) == "" and distributed._auth_hint("ray://head:10001") == ""
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    assert distributed._auth_hint("head:6379") == ""


# The root of BOXES_24 (16 cells open) in a store, with these bounds: each row refused, named.
DAMAGED_ROWS = [
    ((4, 3), "its bounds [4, 3] are crossed (the lower above the upper)"),
    ((6, -6), "its bounds [6, -6] are crossed (the lower above the upper)"),
    ((3, 5), "its bounds [3, 5] are not of the parity of the position's 16 open cells"),
    ((-18, 4), "its bounds [-18, 4] lie beyond ±16, the cells open in the position"),
    (("x", 4), "its bounds hold 'x', not a whole number"),
    ((2, 4.5), "its bounds hold 4.5, not a whole number"),
]


@pytest.mark.parametrize("bounds, fault", DAMAGED_ROWS)
def test_a_store_row_no_search_proves_is_refused_naming_it(tmp_path, bounds, fault):
    path = str(tmp_path / "edited.sqlite")
    root = json.loads(_ply.dots_expand(json.dumps(dict(FOUR, moves=BOXES_24.split()))))
    store = distributed.Store(path)
    store.put("other", (-1, 0), (2, 2), None, [], 1, 0.1, "job")
    store.close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO proved VALUES (?, -1, 0, ?, ?, NULL, '', 5, 0.5, 'job', 0)",
                   (root["key"], *bounds))
    message = f"store {shown(path)} is damaged: row 2 (position {root['key']!r}): {fault}"
    store = distributed.Store(path)
    with pytest.raises(ValueError) as e:
        distributed.solve(FOUR, BOXES_24.split(), store)
    store.close()
    assert str(e.value) == message
    done = subprocess.run(
        [sys.executable, "-m", "plysolve.distributed", "boxes", "--rows", "4", "--cols", "4",
         "--moves", BOXES_24, "--store", path, "--quiet"], capture_output=True, text=True,
        timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"plysolve.distributed: {message}\n"


def test_the_split_searchs_helpers_refuse_bounds_no_search_proves():
    """`_ply`'s helpers of the split search raise ValueError, never a PanicException."""
    faults = [
        (lambda: _ply.dots_next_test((3, 4), None, 0),
         "range (3, 4): bounds of one value have one parity (that of the cells left open)"),
        (lambda: _ply.dots_next_test((4, 2), None, 0),
         "range (4, 2): its lower bound is above its upper bound"),
        (lambda: _ply.dots_next_test((-2**31, 4), None, 0),
         "range (-2147483648, 4) lies beyond ±127, the most any position is worth"),
        (lambda: _ply.dots_next_test((2, 4), (3, 3), 0),
         "window (3, 3): its lower end must be below its upper end"),
        (lambda: _ply.dots_child_window(2**32 - 1, (0, 1)),
         "points 4294967295 is more than 127, the most cells a board has"),
        # Negative counts: refused by the helper, naming them (not an OverflowError of Rust's).
        (lambda: _ply.dots_child_window(-2**31, (-2**31, 2**31 - 1)),
         "points -2147483648 is negative: a count of cells is at least 0"),
        (lambda: _ply.dots_combine(-1, []),
         "cells -1 is negative: a count of cells is at least 0"),
        (lambda: _ply.dots_combine(4, [(-3, None)]),
         "points -3 is negative: a count of cells is at least 0"),
        (lambda: _ply.dots_combine(5, [(0, (-2**31, 2**31 - 1))]),
         "a child's range (-2147483648, 2147483647) lies beyond ±127, the most any position is "
         "worth"),
        (lambda: _ply.dots_combine(2**31, [(0, None)]),
         "cells 2147483648 is more than 127, the most cells a board has"),
        (lambda: _ply.dots_job(json.dumps(FOUR), "1G", 0),
         "threads=0: a solve needs at least 1 thread"),
        (lambda: _ply.dots_job(json.dumps(FOUR), "1G", 2**40),
         f"threads=1099511627776 is more than this machine's {os.cpu_count()} cores"),
    ]
    for call, message in faults:
        with pytest.raises(ValueError) as e:
            call()
        assert type(e.value) is ValueError and str(e.value) == message
    # What they answer of bounds a search proves.
    assert _ply.dots_next_test((2, 6), None, 0) == 4
    assert _ply.dots_next_test((4, 4), None, 0) is None
    assert _ply.dots_child_window(1, (3, 4)) == (2, 3)
    assert _ply.dots_combine(4, [(0, (-2, 2)), (1, (1, 3))]) == (2, 4)


@pytest.mark.parametrize("threads, message", [
    (0, "threads must be at least 1, not 0"),
    (-1, "threads must be at least 1, not -1"),
    (1.5, "threads must be a whole number, not 1.5"),
    (True, "threads must be a whole number, not True"),
    ("2", "threads must be a whole number, not '2'"),
])
def test_check_options_refuses_threads_as_the_command_line_does(threads, message):
    with pytest.raises(ValueError) as e:
        distributed.check_options(None, None, threads)
    assert type(e.value) is ValueError and str(e.value) == message


def test_check_options_refuses_a_host_no_resolver_takes_in_one_line():
    """A label over 63 characters, or empty: Python's IDNA codec refuses it (a UnicodeError naming
    nothing); the module's own line names the address, quoted short."""
    for host in ["a" * 1000, "a..b"]:
        address = f"{host}:1"
        with pytest.raises(ValueError) as e:
            distributed.check_options(None, address)
        assert type(e.value) is ValueError and len(str(e.value)) < 150
        assert str(e.value) == (f"address {shown(address)}: its host is not a host name (each label "
                                "between dots must be 1 to 63 characters)")


def test_a_store_message_quotes_a_long_path_short(tmp_path):
    """A path of 5000 characters: quoted escaped, cut to 40 characters (the message one short
    line), and nothing made."""
    path = str(tmp_path / ("a" * 5000))
    with pytest.raises(ValueError) as e:
        distributed.Store(path)
    assert type(e.value) is ValueError
    assert shown(path) == repr(path)[:40] + "…"
    assert str(e.value) == f"cannot open the store {shown(path)}: unable to open database file"
    assert len(str(e.value)) < 150 and "\n" not in str(e.value)
    assert list(tmp_path.iterdir()) == []


def test_bad_input_to_solve_is_a_value_error(tmp_path):
    store = distributed.Store(str(tmp_path / "s.sqlite"))
    with pytest.raises(ValueError, match="^move 1 `1-99`: dot 99 does not exist"):
        distributed.solve(FOUR, ["1-99"], store)
    with pytest.raises(ValueError, match="^window=\\[3, 1\\]: its lower end must be below"):
        distributed.solve(FOUR, [], store, window=(3, 1))
    with pytest.raises(ValueError, match="^workers and threads must be at least 1$"):
        distributed.solve(FOUR, [], store, workers=0)
    with pytest.raises(ValueError, match="^shards must be at least 1$"):
        distributed.solve(FOUR, [], store, shards=0)
    with pytest.raises(ValueError, match="^share_free must be at least 0$"):
        distributed.solve(FOUR, [], store, share_free=-1)
    for bad in (-0.5, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="^steal_after must be a number of seconds from 0"):
            distributed.solve(FOUR, [], store, steal_after=bad)
    store.close()


def test_a_job_keeps_its_search_table_and_stops_when_no_longer_wanted():
    """`_ply.dots_job`: a second job of a position its process proved answers from what the first
    kept; a job whose `stop` says true stops at once and reports what it proved."""
    exact = json.dumps(dict(FOUR, moves=BOXES_26.split(), detail="value"))
    first = json.loads(_ply.dots_job(exact, "1G", 1))
    assert (first["value"], first["strategy"]) == (4, "search") and first["states_visited"] > 0
    again = json.loads(_ply.dots_job(exact, "1G", 1))
    assert (again["value"], again["states_visited"]) == (4, 0)
    asked = []
    wide = json.dumps(dict(FOUR, moves=BOXES_30.split()[:4], detail="value", window=[-1, 0]))
    started = time.monotonic()
    stopped = json.loads(_ply.dots_job(wide, "1G", 1, lambda: asked.append(1) or True))
    assert time.monotonic() - started < 10 and asked
    assert stopped["exact"] is False and stopped["reason"] == "the solve was cancelled"


# Work where it pays (issue 35): younger children wait for the eldest's answer, and a long job is
# split for an idle worker.


def test_younger_children_wait_for_the_eldests_answer(tmp_path):
    moves = BOXES_26.split()
    value = 4  # the position's (test_a_job_keeps_its_search_table…)
    # Does the value reach 6? No: every child must be shown to fall short.
    question = (value + 1, value + 2)
    for wait in (True, False):
        store = distributed.Store(str(tmp_path / f"wait-{wait}.sqlite"))
        tree = distributed._Tree(FOUR, store, brothers_wait=wait)
        expanded = json.loads(_ply.dots_expand(distributed._request(FOUR, moves)))
        root, _ = tree.node(expanded["key"], moves, expanded["free"], expanded["cells"])
        tree.expand(root, expanded)
        children = len(root.children)
        assert children == 26
        first = tree.needed(root, question, 100)
        # Waiting, only the eldest child is asked; else every child at once.
        assert len(first) == (1 if wait else children)
        eldest, asked, path = first[0]
        assert path == ((root.key, question),) and asked[1] - asked[0] == 1
        # The eldest answered (its exact value, by the single search): the position is not
        # decided, and its younger children are all asked now, the eldest no more.
        child = plysolve.dots(**FOUR, moves=tree.nodes[eldest].moves, detail="value")["value"]
        tree.prove(eldest, asked, (child, child), 1, 0.1)
        assert root.range[0] < question[1]
        then = tree.needed(root, question, 100)
        assert len(then) == children - 1 and eldest not in {job[0] for job in then}
        store.close()


def test_a_long_job_split_for_an_idle_worker_gives_the_single_search_value(small_ray, tmp_path):
    # Every running job of more than 24 free edges split as soon as a worker is idle: the jobs
    # split are cancelled, their positions' children asked instead.
    store = distributed.Store(str(tmp_path / "steal.sqlite"))
    report = distributed.solve(FOUR, BOXES_30.split(), store, workers=2, min_free=24,
                               steal_after=0.0)
    store.close()
    assert report["value"] == 4 and report["exact"]
    assert report["jobs"]["steals"] > 0 and report["jobs"]["cancelled"] > 0
    # The span: a chain of at least one job a test, within every node searched.
    assert len(report["tests"]) <= report["span"]["jobs"] <= report["jobs"]["run"] + report[
        "jobs"]["steals"]
    assert 0 < report["span"]["nodes"] <= report["nodes"]
    # Jobs of positions deeper than the expansion's (one ply: 29 free) ran, none of 24 or fewer.
    frees = {s["free"] for s in report["job_sizes"]}
    assert min(frees) < 29 and min(frees) >= 24
    check_rows(store.path, FOUR)
    # Without stealing, only the expansion's positions are jobs.
    plain = distributed.Store(str(tmp_path / "plain.sqlite"))
    report = distributed.solve(FOUR, BOXES_30.split(), plain, workers=2, steal_after=None,
                               split_large=False)
    plain.close()
    assert report["value"] == 4 and report["jobs"]["steals"] == 0
    assert report["jobs"]["split_large"] == 0
    assert {s["free"] for s in report["job_sizes"]} == {29}


def test_the_positions_of_a_tests_large_jobs_are_expanded_for_the_next(tmp_path):
    moves = BOXES_26.split()
    store = distributed.Store(str(tmp_path / "large.sqlite"))
    tree = distributed._Tree(FOUR, store)
    expanded = json.loads(_ply.dots_expand(distributed._request(FOUR, moves)))
    root, _ = tree.node(expanded["key"], moves, expanded["free"], expanded["cells"])
    tree.expand(root, expanded)
    first, second, third = (key for _, key, _ in root.children[:3])
    tree.nodes[third].range = (2, 2)  # proved exactly: nothing left to split
    # Of 220 nodes, a share above 1/4 is more than 55: the first (100) and the third (60).
    ran = [(first, 100), (second, 50), (third, 60), (first, 10)]
    assert tree.split_large(ran, 4, min_free=20) == 1
    assert tree.nodes[first].children and tree.nodes[second].children is None
    assert tree.nodes[third].children is None
    # Its children are jobs of the next test: the first of them asked, the younger waiting.
    jobs = tree.needed(tree.nodes[first], (-1, 0), 100)
    assert len(jobs) == 1 and jobs[0][0] in {key for _, key, _ in tree.nodes[first].children}
    # None of at most `min_free` free edges (these have 25), none already expanded.
    assert tree.split_large([(second, 100)], 4, min_free=25) == 0
    assert tree.split_large([(first, 100)], 4, min_free=20) == 0
    store.close()


def test_large_jobs_split_after_a_test_give_the_single_search_value(small_ray, tmp_path,
                                                                    monkeypatch):
    # Every job above a tenth of a test's nodes split for the tests after it (2 workers, the
    # share 1 / (5 × 2)): deeper jobs run, and the value is the single search's.
    store = distributed.Store(str(tmp_path / "large.sqlite"))
    monkeypatch.setattr(distributed, "SPLIT_LARGE", 5)
    report = distributed.solve(FOUR, BOXES_30.split(), store, workers=2, steal_after=None)
    store.close()
    assert report["value"] == 4 and report["exact"] and report["jobs"]["split_large"] > 0
    # The expansion's jobs have 29 free edges; the positions split, 28 (and fewer, split again).
    assert min(s["free"] for s in report["job_sizes"]) < 29
    check_rows(store.path, FOUR)


def test_a_job_past_its_node_limit_gives_up_and_its_position_is_split(small_ray, tmp_path,
                                                                       monkeypatch):
    # The engine's own limit: the search stops past it, its window undecided (a position of 35
    # free edges no other test asks, so that no table of this process holds it).
    request = distributed._request(FOUR, "1-2 6-7 11-12 16-17 21-22".split(), (0, 1))
    report = json.loads(_ply.dots_job(request, "64M", 1, None, None, None, 1000))
    assert 1000 < report["states_visited"] < 1000 + 2 ** 16 and report["value"] is None
    # A limit of a millionth of the last test's nodes: every job of a later test above
    # `min_free` gives up and is split, down to positions of 28 free edges, which run whole (the
    # split after a test left out, which would have split them all before they ran).
    monkeypatch.setattr(distributed, "SPLIT_LARGE", 10 ** 6)
    monkeypatch.setattr(distributed._Tree, "split_large", lambda *_args: 0)
    store = distributed.Store(str(tmp_path / "limit.sqlite"))
    report = distributed.solve(FOUR, BOXES_30.split(), store, workers=2, steal_after=None,
                               min_free=28)
    store.close()
    assert report["value"] == 4 and report["exact"] and report["jobs"]["gave_up"] > 0
    gave_up = [s for s in report["job_sizes"] if s["gave_up"]]
    assert {s["free"] for s in gave_up} == {29}
    assert min(s["free"] for s in report["job_sizes"]) == 28
    # No row for a job that gave up: every row answers its question.
    check_rows(store.path, FOUR)


def test_the_span_follows_each_job_from_what_made_it_needed():
    chains = distributed._Chains()
    job = {name: (name, (0, 1), ()) for name in "ABCD"}
    chains.needed([job["A"], job["B"]])  # both after the start
    chains.started(job["A"])
    chains.started(job["B"])
    chains.answered(job["A"], 10)  # event 1
    chains.needed([job["B"], job["C"]])  # C after A's answer, B still after the start
    chains.started(job["C"])
    chains.split(job["B"], 7)  # event 2: B split, its nodes told later by tag 7
    chains.needed([job["C"], job["D"]])  # D after the split
    chains.started(job["D"])
    chains.answered(job["C"], 5)  # event 3: A then C, 15 nodes
    chains.answered(job["D"], 3)  # event 4: B's nodes then D's
    assert chains.span({7: 20}) == {"nodes": 23, "jobs": 2}
    assert chains.span({7: 2}) == {"nodes": 15, "jobs": 2}
    # A split job whose worker died counts none.
    assert chains.span({}) == {"nodes": 15, "jobs": 2}


# Shared bounds (issue 35): one table of bounds of the positions with many free edges across the
# workers, exchanged asynchronously and lossy — never a wrong value.

# A 4×4 position of 30 free edges (32 free from baselines/generators/dots_boxes_position.py 4 4 8
# 1, two moves on), its value by `plysolve.dots` (8.6 million nodes). Positions of 34–36 free edges
# are checked by `bench.py workers --share`, which asserts every value against the single search's:
# here they would take minutes.
BOXES_30_B = "5-10 17-18 8-9 12-17 2-3 20-25 8-13 1-2 3-4 16-21"
SHARED_CASES = [
    (FOUR, BOXES_30, 4),
    (FOUR, BOXES_30_B, 2),
    (dict(game="boxes", rows=3, cols=4), "", 0),
]


@pytest.mark.parametrize("board, moves, value", SHARED_CASES)
def test_workers_sharing_bounds_give_the_single_search_value(small_ray, tmp_path, board, moves,
                                                             value):
    store = distributed.Store(str(tmp_path / "shared.sqlite"))
    # (No split: the jobs are the expansion's, of one count of free edges.)
    report = distributed.solve(board, moves.split(), store, workers=2, jobs=200, depth=2,
                               steal_after=None, split_large=False)
    store.close()
    assert report["value"] == value and report["exact"]
    shared = report["shared"]
    # Shared: the bounds of positions of at least the jobs' fewest free edges less 4.
    fewest = min(s["free"] for s in report["job_sizes"])
    assert shared["from_free"] <= fewest - distributed.SHARE_BELOW and shared["shards"] == 1
    assert shared["contradictions"] == 0 and shared["dropped"] == 0
    # The table's shards held every entry pushed (the workers' last reports may miss the last
    # pushes), none forgotten.
    assert shared["forgotten"] == 0 and shared["held"] >= shared["sent"]
    # Every node searched is counted, the cancelled jobs' too.
    wasted = report["jobs"]["cancelled_nodes"]
    assert report["nodes"] == sum(s["nodes"] for s in report["job_sizes"]) + wasted
    # The 4×4 jobs are searched (the 3×4 board's answered by its whole table: nothing to share).
    assert (shared["offered"] > 0 and shared["sent"] > 0) == (board == FOUR)


def test_the_tables_shard_keeps_its_newest_entries_within_its_bound():
    """A shard of at most 4 entries: each worker pulls the others' pushes since its offset, never
    its own; past the bound the oldest pushes are forgotten, and a worker behind them gets what
    is left."""
    shard = distributed._Table(most=4)
    e = [(k, 0, 2, None) for k in range(8)]
    assert shard.exchange(0, e[0:2], 0) == ([], 1)
    assert shard.exchange(1, [e[2]], 0) == (e[0:2], 2)
    assert shard.exchange(0, [], 1) == ([e[2]], 2)
    # Three more: the first push (two entries) forgotten to keep four.
    assert shard.exchange(1, e[3:6], 2) == ([], 3)
    assert shard.counts() == {"held": 4, "forgotten": 2}
    assert shard.exchange(2, [], 0) == ([e[2]] + e[3:6], 3)
    # One push larger than the bound is kept whole (the newest is never forgotten); the two
    # before it are forgotten, worker 0 never getting e[3:6].
    assert shard.exchange(0, e[0:8], 2) == ([], 4)
    assert shard.counts() == {"held": 8, "forgotten": 6}
    assert shard.exchange(1, [], 0) == (e[0:8], 4)


def test_no_share_shares_nothing(small_ray, tmp_path):
    store = distributed.Store(str(tmp_path / "alone.sqlite"))
    report = distributed.solve(FOUR, BOXES_24.split(), store, workers=2, share=False)
    store.close()
    assert report["value"] == 4 and report["shared"] is None


# A job in a process of its own (a new search memory), its search meeting a store that absorbed
# the entries in the file argv[2] (a JSON list): the value, the nodes and what it drained.
JOB_WITH_ENTRIES = """
import json, sys
from plysolve import _ply
shared = _ply.SharedTable(int(sys.argv[3]))
shared.absorb([tuple(e) for e in json.load(open(sys.argv[2]))])
report = json.loads(_ply.dots_job(sys.argv[1], "1G", 1, None, shared))
print(json.dumps({"value": report["value"], "nodes": report["states_visited"],
                  "drained": shared.drain(), "counts": shared.counts()}))
"""


def job_with_entries(tmp_path, moves, entries, from_free):
    path = tmp_path / "entries.json"
    path.write_text(json.dumps(entries))
    request = json.dumps(dict(FOUR, moves=moves.split(), detail="value", strategy="search"))
    done = subprocess.run([sys.executable, "-c", JOB_WITH_ENTRIES, request, str(path),
                           str(from_free)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_stale_or_lost_shared_entries_cost_nodes_never_the_value(tmp_path):
    import random

    from_free = 24
    alone = job_with_entries(tmp_path, BOXES_30, [], from_free)
    assert alone["value"] == 4
    entries = alone["drained"]
    assert len(entries) > 100 and alone["counts"]["contradictions"] == 0
    assert any(best is not None for _, _, _, best in entries)
    # Every entry: the same value, far fewer nodes (the search met them).
    every = job_with_entries(tmp_path, BOXES_30, entries, from_free)
    assert every["value"] == 4 and every["nodes"] * 2 < alone["nodes"]
    assert every["counts"]["absorbed"] == len(entries)
    # Lossy: a random half of them.
    rng = random.Random(35)
    half = [e for e in entries if rng.random() < 0.5]
    assert 0 < len(half) < len(entries)
    assert job_with_entries(tmp_path, BOXES_30, half, from_free)["value"] == 4
    # Stale: every bound two points weaker, still true.
    stale = [(k, lower - 2, upper + 2, best) for k, lower, upper, best in entries]
    found = job_with_entries(tmp_path, BOXES_30, stale, from_free)
    assert found["value"] == 4 and found["counts"]["contradictions"] == 0


def test_the_shared_tables_refuse_bounds_no_search_proves():
    shared = _ply.SharedTable(20)
    assert shared.from_free == 20
    for entry, fault in [((5, 3, 1, None), "its lower bound is above its upper bound"),
                         ((5, -1, 2, None), "have one parity"),
                         ((5, -200, 200, None), "lies beyond"),
                         ((5, 0, 2, 64), "no edge of any board")]:
        with pytest.raises(ValueError, match=fault):
            shared.absorb([(7, 0, 2, 3), entry])
    # None of a refused batch was taken.
    assert shared.counts()["absorbed"] == 0
    with pytest.raises(ValueError, match="memory"):
        _ply.SharedTable(20, "lots")


def test_the_table_killed_mid_run_leaves_the_value_right(small_ray, tmp_path, monkeypatch):
    pools = []

    class Watched(distributed._Pool):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            pools.append(self)

    monkeypatch.setattr(distributed, "_Pool", Watched)
    killed = []

    def log(message):
        # After the third job, the table goes.
        if message.startswith("job 3:") and not killed:
            small_ray.kill(pools[0].tables[0])
            killed.append(message)

    store = distributed.Store(str(tmp_path / "killed-table.sqlite"))
    report = distributed.solve(FOUR, BOXES_30.split(), store, workers=2, jobs=200, depth=2,
                               log=log)
    store.close()
    assert killed and report["value"] == 4 and report["exact"]
    assert report["jobs"]["run"] > 3 and report["shared"]["contradictions"] == 0


# One search table per machine (issue 35): the workers of one host search one table in its shared
# memory, as the threads of one process do, and the last to let go of it removes it.

def host_tables():
    """The host tables of distributed runs in this machine's shared memory now (not the drafts a
    worker makes one from: two workers may make one at once, and one of them is linked)."""
    return {f for f in os.listdir(distributed.HOST_MEMORY)
            if f.startswith("ply-table-run-") and not f.endswith(".draft")}


def test_the_workers_of_one_machine_search_one_table_and_remove_it(small_ray, tmp_path):
    before = host_tables()
    seen = []

    def log(message):
        if message.startswith("job "):
            seen.append(host_tables() - before)

    store = distributed.Store(str(tmp_path / "host.sqlite"))
    report = distributed.solve(FOUR, BOXES_30.split(), store, workers=2, jobs=200, depth=2,
                               log=log)
    store.close()
    assert report["value"] == 4 and report["exact"]
    # Every job searched it: the table is sized for the board, not for a worker's first job (a
    # second size would be refused, and its worker go on alone).
    assert all(s["on_host"] for s in report["job_sizes"])
    # Every job ended with the run's one table in the shared memory, both workers in it.
    assert len(seen) == report["jobs"]["run"] > 2
    assert all(len(files) == 1 for files in seen) and len(set().union(*seen)) == 1
    # Gone once the run is over.
    assert host_tables() - before == set()
    # Without it, the workers' tables are their own: none in the shared memory.
    seen.clear()
    store = distributed.Store(str(tmp_path / "own.sqlite"))
    report = distributed.solve(FOUR, BOXES_30.split(), store, workers=2, jobs=200, depth=2,
                               log=log, host_table=False)
    store.close()
    assert report["value"] == 4 and seen and all(files == set() for files in seen)
    assert not any(s["on_host"] for s in report["job_sizes"])


def test_a_killed_jobs_work_is_taken_up_by_the_next_worker_of_its_machine():
    """A worker SIGKILLed part way through a job, the last of its run on the machine: the job
    asked again of a new worker searches the table the killed one left, with what it proved."""
    # 32 free edges, value 2: 6.7 million nodes on a table of its own.
    moves = "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21".split()
    request = json.dumps(dict(FOUR, moves=moves, detail="value"))
    name = f"test-killed-{os.getpid()}"
    # The job stopped after a second (its stop callable is asked every 50 ms), then its process
    # killed outright, the table still mapped: what it searched is in the shared memory.
    killed = subprocess.run([sys.executable, "-c", f"""
import json, os, signal
from plysolve import _ply
calls = []
report = _ply.dots_job({request!r}, "1G", 1, lambda: calls.append(1) or len(calls) > 20, None,
                       {name!r})
print(json.loads(report)["states_visited"], flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""], capture_output=True, text=True, timeout=600)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    searched = int(killed.stdout)
    assert searched > 0
    assert any(f.startswith(f"ply-table-{name}-") for f in os.listdir("/dev/shm"))
    again = json.loads(_ply.dots_job(request, "1G", 1, None, None, name))
    # (A process keeps the table of its last job: the next job's, or one of its own, lets it go.)
    fresh = json.loads(_ply.dots_job(request, "1G", 1, None, None, name + "-fresh"))
    json.loads(_ply.dots_job(json.dumps(dict(FOUR, moves=BOXES_24.split())), "64M", 1))
    assert not any(f.startswith(f"ply-table-{name}") for f in os.listdir("/dev/shm"))
    assert again["value"] == fresh["value"] == 2
    # The search is deterministic: on a table of its own, always these nodes; on the killed
    # job's, most of what it searched is not searched again.
    assert fresh["states_visited"] == 6_741_402
    assert again["states_visited"] < fresh["states_visited"] - searched // 4, (again, searched)


def test_a_host_that_cannot_share_the_table_runs_its_jobs_in_tables_of_their_own(capsys):
    # A name the engine refuses stands for any host whose shared memory refuses the table.
    sharer = distributed._Sharer(3, None, 0, "no/such")
    assert sharer.host_table == "no/such"
    request = json.dumps(dict(FOUR, moves=BOXES_26.split(), detail="value"))
    report = json.loads(sharer.on_host(
        lambda host: _ply.dots_job(request, "64M", 1, None, None, host)))
    assert report["value"] == 4 and sharer.host_table is None
    assert capsys.readouterr().err == (
        "plysolve.distributed: worker 3: a search table of 4194304 entries cannot be shared on "
        "this host: its name must be 1 to 100 letters, digits, '.', '_' or '-'; going on with a "
        "table of its own\n")
    # Any other fault is the job's own.
    with pytest.raises(ValueError, match="memory"):
        sharer.on_host(lambda host: _ply.dots_job(request, "lots", 1, None, None, host))

"""The distributed solve (`python -m ply.distributed`) on a local Ray of 2 workers: the value of
the single-machine search, every proved job in the store, and a run SIGKILLed mid-way resumed."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import ply
from ply import distributed

FOUR = dict(game="boxes", rows=4, cols=4)
# 4×4 positions of 30 free edges (no box one line short), from baselines/generators.
POSITIONS = [
    "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21 3-8 9-10",
    "4-5 7-8 19-24 4-9 13-14 24-25 21-22 17-18 3-4 23-24",
    "19-20 18-23 15-20 11-12 4-9 11-16 6-7 1-2 19-24 17-22",
]


@pytest.fixture(scope="module")
def small_ray():
    import ray

    ray.init(num_cpus=2, object_store_memory=80 * 1024 * 1024, include_dashboard=False,
             log_to_driver=False)
    yield ray
    ray.shutdown()


def test_the_distributed_value_is_the_single_machine_value(small_ray, tmp_path):
    store = distributed.Store(str(tmp_path / "run.sqlite"))
    cases = [(dict(game="boxes", rows=3, cols=4), [])] + [(FOUR, m.split()) for m in POSITIONS]
    for board, moves in cases:
        single = ply.dots(**board, moves=moves, detail="value")
        report = distributed.solve(board, moves, store, workers=2)
        assert report["value"] == single["value"], (board, moves)
        assert report["jobs"]["run"] >= 2 and report["jobs"]["from_store"] == 0
        assert report["best_move"] is not None
        # The best move's own value is the position's.
        mv = ply.dots(**board, moves=moves, detail="moves")
        assert report["best_move"] in {m["move"] for m in mv["moves"] if m["value"] == mv["value"]}
        # Asked again, the store answers at once.
        again = distributed.solve(board, moves, store, workers=2)
        assert again["value"] == report["value"]
        assert again["jobs"]["run"] == 0 and again["jobs"]["from_store"] == 1
    rows = sqlite3.connect(store.path).execute(
        "SELECT kind, lower, upper, nodes, seconds FROM proved").fetchall()
    assert {r[0] for r in rows} == {"job", "expanded"}
    assert all(r[1] == r[2] and r[3] > 0 and r[4] > 0 for r in rows)


def run_driver(store, moves, extra=()):
    return subprocess.Popen(
        [sys.executable, "-m", "ply.distributed", "boxes", "--rows", "4", "--cols", "4",
         "--moves", moves, "--workers", "2", "--store", str(store), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def jobs_stored(store):
    if not os.path.exists(store):
        return 0
    try:
        with sqlite3.connect(store, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM proved WHERE kind = 'job'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def kill_session(child):
    """SIGKILL the driver and everything it started in its session (its local Ray)."""
    os.killpg(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    leftover = subprocess.run(["ps", "-o", "pid=", "-s", str(child.pid)], capture_output=True,
                              text=True).stdout.split()
    for pid in leftover:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_killed_run_resumes_from_its_store(tmp_path):
    store = tmp_path / "killed.sqlite"
    moves = POSITIONS[0]
    expected = ply.dots(**FOUR, moves=moves, detail="value")["value"]
    child = run_driver(store, moves, ["--jobs", "8", "--depth", "2"])
    try:
        deadline = time.monotonic() + 240
        while jobs_stored(store) < 2:
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "no job was stored in time"
            time.sleep(0.2)
    finally:
        kill_session(child)
    assert child.returncode == -signal.SIGKILL
    stored = jobs_stored(store)
    assert stored >= 2
    resumed = run_driver(store, moves, ["--jobs", "8", "--depth", "2"])
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    report = json.loads(out)
    assert report["value"] == expected
    assert report["jobs"]["from_store"] >= stored
    assert report["jobs"]["run"] + report["jobs"]["from_store"] >= 2
    # The same store again: the position itself is proved there.
    last = run_driver(store, moves)
    out, err = last.communicate(timeout=120)
    assert last.returncode == 0, err
    report = json.loads(out)
    assert report["value"] == expected and report["jobs"] == {
        "run": 0, "from_store": 1, "cancelled": 0, "leaves": 0}

#!/usr/bin/env python3
"""Time to a book build's first proved position, two ply binaries interleaved (A/B).

A build lists every position up to --depth before it proves any; this times from the start to the
first `[1/N]` line of `ply dots book build … --depth D --progress boxes --rows 4 --cols 4`, then
stops the build (two SIGINTs) and removes its book. Usage:

    tools/book/listing_bench.py BASELINE CANDIDATE [DEPTH] [RUNS]
"""
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time


def first_proof(binary, depth, folder):
    book = os.path.join(folder, "b.plybook")
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    start = time.time()
    child = subprocess.Popen(
        [binary, "dots", "book", "build", book, "--depth", str(depth), "--memory", "6G",
         "--time", "1ms", "--progress", "boxes", "--rows", "4", "--cols", "4"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    for line in child.stderr:
        if line.startswith("ply: [1/"):
            break
    else:
        sys.exit(f"{binary}: no position proved")
    took = time.time() - start
    child.send_signal(signal.SIGINT)
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    child.wait()
    return took


def main():
    baseline, candidate = sys.argv[1], sys.argv[2]
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    times = {baseline: [], candidate: []}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(runs):
            for binary in (baseline, candidate):
                times[binary].append(first_proof(binary, depth, folder))
    for binary, took in times.items():
        print(f"{binary}: {[round(t, 2) for t in took]} s, median {statistics.median(took):.2f} s")
    ratio = statistics.median(times[baseline]) / statistics.median(times[candidate])
    print(f"baseline / candidate: {ratio:.2f}")


if __name__ == "__main__":
    main()

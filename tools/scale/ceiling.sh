#!/bin/bash
# What two one-core searches can give on this machine at all (issue 35, BENCHMARKS 2026-11-28):
# the same 4×4 search of one thread alone, two of them at once (two processes, as two workers
# are) and one search of two threads (one table in shared memory), ROUNDS times, interleaved.
#   tools/scale/ceiling.sh PLY "MOVES" [ROUNDS]
# e.g. tools/scale/ceiling.sh target/release/ply "11-12 17-22 6-7 21-22 9-10 12-17" 3
# Each line: the shape, the round, the wall seconds, the nodes of each search.
set -euo pipefail
ply=$1 moves=$2 rounds=${3:-3}
search() {
    RAYON_NUM_THREADS=$1 "$ply" dots boxes --rows 4 --cols 4 --moves "$moves" --no-book \
        --value-only --json | grep -o '"states_visited":[0-9]*' | cut -d: -f2
}
now() { date +%s.%N; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for round in $(seq "$rounds"); do
    s=$(now); n=$(search 1); e=$(now)
    echo "one-thread-alone $round $(echo "$e - $s" | bc) $n"
    s=$(now); search 1 > "$out/a" & search 1 > "$out/b" & wait; e=$(now)
    echo "two-at-once $round $(echo "$e - $s" | bc) $(cat "$out/a") $(cat "$out/b")"
    s=$(now); n=$(search 2); e=$(now)
    echo "two-threads $round $(echo "$e - $s" | bc) $n"
done

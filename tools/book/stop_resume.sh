#!/bin/bash
# How much of a stopped book build's work the next build keeps (BENCHMARKS "a book build stopped
# mid-proof keeps what its search proved"): builds one position fresh, then builds it again
# interrupted (SIGINT) after SECONDS and resumed, printing each run's position line (its states).
#   tools/book/stop_resume.sh [PLY] [SECONDS] [MOVES]   (a 4×4 position; run from anywhere)
set -euo pipefail
PLY=${1:-target/release/ply}
WAIT=${2:-15}
MOVES=${3:-"6-7 7-8 17-18 18-19 9-10"}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
build() { "$PLY" dots book --progress build "$DIR/$1" boxes --rows 4 --cols 4 --moves "$MOVES" --memory 2G; }
echo "fresh:"
build fresh.plybook 2>&1 | grep -E '^ply: \[1/1\]'
echo "stopped after $WAIT s:"
build stopped.plybook > /dev/null 2> "$DIR/stopped.err" &
pid=$!
sleep "$WAIT"
kill -INT "$pid"
wait "$pid" || true
grep -E '^ply: \[1/1\]|interrupted:' "$DIR/stopped.err"
echo "resumed:"
build stopped.plybook 2>&1 | grep -E '^ply: \[1/1\]'

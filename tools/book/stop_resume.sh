#!/bin/bash
# How much of a stopped book build's work the next build keeps (BENCHMARKS "a book build stopped
# mid-proof keeps what its search proved", "a build killed outright"): builds one position fresh,
# then builds it again stopped by SIGNAL (INT: Ctrl-C; KILL: no handler runs, only what the build
# kept every KEEP is left) after SECONDS and resumed, printing each run's position line (its
# states) and the states kept.
#   tools/book/stop_resume.sh [PLY] [SECONDS] [MOVES] [SIGNAL] [KEEP]   (a 4×4 position)
set -euo pipefail
PLY=${1:-target/release/ply}
WAIT=${2:-15}
MOVES=${3:-"6-7 7-8 17-18 18-19 9-10"}
SIGNAL=${4:-INT}
KEEP=${5:-10m}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# `exec`: run in the background, the build is the process killed (not a shell around it).
build() { exec "$PLY" dots book --progress build "$DIR/$1" boxes --rows 4 --cols 4 --moves "$MOVES" --memory 2G --keep-every "$KEEP"; }
echo "fresh:"
(build fresh.plybook) 2>&1 | grep -E '^ply: \[1/1\]'
echo "stopped by SIG$SIGNAL after $WAIT s (keeping every $KEEP):"
build stopped.plybook > /dev/null 2> "$DIR/stopped.err" &
pid=$!
sleep "$WAIT"
kill -"$SIGNAL" "$pid"
wait "$pid" || true
grep -E "^ply: \[1/1\]|interrupted:|kept" "$DIR/stopped.err" || true
"$PLY" dots book stats "$DIR/stopped.plybook"
echo "resumed:"
(build stopped.plybook) 2>&1 | grep -E '^ply: \[1/1\]'

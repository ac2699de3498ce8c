#!/bin/bash
# The learned estimate's data: positions of each board labelled exactly by ply (see
# crates/plysolve/examples/estimate_data.rs), written to tools/estimate/data/. Each set is made once
# (a set already there is kept), so a stopped run resumes with the next set. The training sets are
# cheap (seconds); the measurement sets — 4×4 at 32–36 free edges and 5×5 at 40–44 — take hours.
#
#   tools/estimate/make_data.sh          # every set
#   tools/estimate/make_data.sh train    # the training sets only
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -p plysolve --example estimate_data
bin=target/release/examples/estimate_data
out=tools/estimate/data
mkdir -p "$out"
make() { # name board from to count seed [seconds]
  local name=$1; shift
  [ -s "$out/$name.csv" ] && return
  "$bin" "$@" > "$out/$name.csv.part"
  mv "$out/$name.csv.part" "$out/$name.csv"
}
make train-boxes-3x3 boxes:3x3 6 20 2000 11
make train-boxes-3x4 boxes:3x4 8 24 2000 12
make train-triangles-4 triangles:4 6 24 2000 13
make train-boxes-4x4 boxes:4x4 14 30 3000 14
make train-triangles-5 triangles:5 14 28 1500 15
make train-boxes-4x5 boxes:4x5 18 30 1000 16
make train-boxes-5x5 boxes:5x5 20 32 1000 17
[ "${1:-all}" = train ] && exit 0
# The measurement pools: half of each trains, the other half is held out (train.py splits them).
make pool-boxes-4x4 boxes:4x4 32 36 120 21 60
make pool-boxes-5x5 boxes:5x5 40 44 40 22 60

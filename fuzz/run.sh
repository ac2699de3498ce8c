#!/usr/bin/env bash
# Fuzzes one target on the stable toolchain, or minimises its corpus.
#
#   fuzz/run.sh TARGET [EXECUTIONS [FLAG...]]
#                                     fuzz TARGET for EXECUTIONS inputs (default 1000000), one process,
#                                     new inputs added to fuzz/corpus/TARGET, crashes to fuzz/artifacts;
#                                     FLAGs go to libFuzzer (e.g. -fork=1 -ignore_crashes=1 to go on
#                                     past a known crash)
#   fuzz/run.sh cmin TARGET           minimise fuzz/corpus/TARGET (keeps one input per feature)
#   fuzz/run.sh list                  the targets
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`). cargo-fuzz passes nightly-only flags to
# rustc; RUSTC_BOOTSTRAP=1 lets the stable compiler accept them, so no nightly toolchain is needed.
# Built without a sanitizer (the code is safe Rust: out-of-bounds and overflow panic by themselves) and
# with debug assertions, so that arithmetic overflow is a crash too. Runs under `nice -n 19` on one
# core (rayon limited to one thread). FUZZ_TARGET_DIR overrides the build directory (fuzz/target).
# A fixed malloc mmap threshold keeps the token reader's 128 KiB buffer a fresh (lazily zeroed)
# mapping on every call, instead of glibc moving it to the heap and clearing it each time.
# Temporary files (the table_file target writes one per input) go to /dev/shm when it exists: memory,
# not a disk journal (ten times faster).
set -euo pipefail
cd "$(dirname "$0")/.."

export RUSTC_BOOTSTRAP=1
export RAYON_NUM_THREADS=1
export MALLOC_MMAP_THRESHOLD_=131072
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  export TMPDIR=/dev/shm
fi
build=(-s none -a --target-dir "${FUZZ_TARGET_DIR:-fuzz/target}")
libfuzzer=(-max_len=4096 -timeout=10 -rss_limit_mb=2048)

case "${1:-}" in
  "" | -h | --help)
    sed -n '2,11p' "$0"
    exit 2
    ;;
  list)
    cargo fuzz list
    ;;
  cmin)
    target=${2:?usage: fuzz/run.sh cmin TARGET}
    nice -n 19 cargo fuzz cmin "${build[@]}" "$target" -- "${libfuzzer[@]}"
    ;;
  *)
    target=$1
    runs=${2:-1000000}
    shift $(($# < 2 ? $# : 2))
    nice -n 19 cargo fuzz run "${build[@]}" "$target" -- \
      "${libfuzzer[@]}" -runs="$runs" -print_final_stats=1 "$@"
    ;;
esac

#!/bin/sh
# Measures the plain and the symmetry method side by side: one thread and
# all threads, n = 14..17 by default; then the symmetry method at each SIMD
# level this CPU runs (scalar, AVX2, AVX-512), one thread; then the search
# nodes of the symmetry method's walks against the plain walk's (nq_nodes,
# n = 12..16). Builds a Release tree in build/bench.
#
# usage: sh bench/run.sh [--sizes A-B] [--repeat R] [--threads T]
# With hyperfine installed (apt-get install hyperfine), it also times the
# command itself at n = 16, for comparison with other programs.
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build/bench -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') ($(nproc) online)"
./build/bench/nq_bench "$@"
echo
./build/bench/nq_bench --levels "$@"
echo
./build/bench/nq_nodes 12-16
if command -v hyperfine >/dev/null 2>&1; then
  echo
  hyperfine --warmup 1 --runs 5 -N \
    './build/bench/nqueens -j1 --method=plain 16' \
    './build/bench/nqueens -j1 16' \
    './build/bench/nqueens 16'
fi

#!/bin/sh
# Times nqueens on one thread against two reference programs in plain C
# (bench/ref_textbook.c, bench/ref_takaken.c), side by side: every round
# runs each command once, in turn, so a change in the machine's load
# touches all of them alike. Prints the median CPU time (user + system) and
# wall time of each command, and the ratios of the wall medians.
#
# usage: sh bench/compare.sh [N [ROUNDS]]      (default: N = 16, 5 rounds)
# env:   NQ_BENCH_BUILD=dir  build tree to use (default build/bench)
set -eu
cd "$(dirname "$0")/.."
n=${1:-16}
rounds=${2:-5}
b=${NQ_BENCH_BUILD:-build/bench}
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build "$b" -j "$(nproc 2>/dev/null || echo 2)" \
      --target nqueens_exe nq_ref_textbook nq_ref_takaken >/dev/null
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') ($(nproc) online)"
echo "n = $n, $rounds interleaved rounds, one thread"

# label|command, in the order of the table
cmds="textbook (ref_textbook)|$b/nq_ref_textbook $n
Takaken (ref_takaken)|$b/nq_ref_takaken $n
nqueens --method=plain -j1|$b/nqueens --method=plain -j1 $n
nqueens --simd=none -j1|$b/nqueens --simd=none -j1 $n
nqueens -u -j1|$b/nqueens -u -j1 $n"

. bench/sides.sh
echo "$cmds" | side_by_side "$rounds" 2

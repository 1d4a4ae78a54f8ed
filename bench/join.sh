#!/bin/sh
# Times the join method (the default for totals from n = 16) against the
# symmetry and plain methods and, when its build script is given, against
# Evgeny Kluev's quadrant-join counter, side by side in interleaved rounds.
# For each n: one thread each (ratios of CPU medians to the first row),
# then the join on one thread against all threads (ratio of wall medians).
# Every count is printed, so that a wrong one shows.
#
# usage: sh bench/join.sh [SIZES [ROUNDS]]   (default: "16 17 18", 5 rounds)
# env:   NQ_BENCH_BUILD=dir  build tree to use (default build/bench)
#        NQ_PEER_KLUEV=SCRIPT  a script that builds Kluev's counter for n
#                           and prints its path (run as BINARY THREADS)
#        NQ_PLAIN_MAX=N     largest n to time the plain method at (default 16)
#        NQ_SYM_MAX=N       largest n to time the symmetry method at (default 18)
set -eu
cd "$(dirname "$0")/.."
sizes=${1:-16 17 18}
rounds=${2:-5}
b=${NQ_BENCH_BUILD:-build/bench}
plain_max=${NQ_PLAIN_MAX:-16}
sym_max=${NQ_SYM_MAX:-18}
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build "$b" -j "$(nproc 2>/dev/null || echo 2)" --target nqueens_exe >/dev/null
threads=$(nproc 2>/dev/null || echo 2)
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') ($threads online)"
echo "SIMD: $(grep -o -m1 -w "avx512f" /proc/cpuinfo || grep -o -m1 -w "avx2" /proc/cpuinfo || echo none) (the symmetry and join methods pick the widest level)"
. bench/sides.sh
for n in $sizes; do
  echo
  echo "## n = $n, $rounds interleaved rounds"
  cmds="nqueens -m join -j1|$b/nqueens -m join -j1 $n"
  if [ -n "${NQ_PEER_KLUEV:-}" ]; then
    peer=$("$NQ_PEER_KLUEV" "$n" | tail -n 1)
    cmds="$cmds
Kluev, 1 thread|$peer 1"
  fi
  [ "$n" -le "$sym_max" ] && cmds="$cmds
nqueens -m symmetry -j1|$b/nqueens -m symmetry -j1 $n"
  [ "$n" -le "$plain_max" ] && cmds="$cmds
nqueens -m plain -j1|$b/nqueens -m plain -j1 $n"
  echo "$cmds" | side_by_side "$rounds" 1 cpu
  cmds="nqueens -m join -j1|$b/nqueens -m join -j1 $n
nqueens -m join -j$threads|$b/nqueens -m join -j$threads $n"
  [ -n "${NQ_PEER_KLUEV:-}" ] && cmds="$cmds
Kluev, $threads threads|$peer $threads"
  echo "$cmds" | side_by_side "$rounds" 1 wall
done

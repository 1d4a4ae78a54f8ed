#!/bin/sh
# Times nqueens on one thread against two reference programs in plain C
# (bench/ref_textbook.c, bench/ref_takaken.c), side by side: every round
# runs each command once, in turn, so a change in the machine's load
# touches all of them alike. Prints the median CPU time (user + system) and
# wall time of each command, and the ratios of the medians.
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

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
r=0
while [ "$r" -lt "$rounds" ]; do
  i=0
  echo "$cmds" | while IFS='|' read -r label cmd; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "%U %S %e" -o "$tmp/t" $cmd >"$tmp/out"
    awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' "$tmp/t" >>"$tmp/times.$i"
    head -c 200 "$tmp/out" | head -n 1 >"$tmp/result.$i"
    i=$((i + 1))
  done
  r=$((r + 1))
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '\n| command | output | CPU s (median) | wall s (median) | textbook / this | Takaken / this |\n'
printf '|---|---|---:|---:|---:|---:|\n'
i=0
echo "$cmds" | while IFS='|' read -r label cmd; do
  cpu=$(cut -d' ' -f1 "$tmp/times.$i" | median)
  wall=$(cut -d' ' -f2 "$tmp/times.$i" | median)
  echo "$cpu" >"$tmp/med.$i"
  t0=$(cat "$tmp/med.0")
  t1=$(cat "$tmp/med.1" 2>/dev/null || echo "$cpu")
  printf '| `%s` | %s | %.3f | %.3f | %.2fx | %.2fx |\n' "$label" "$(cat "$tmp/result.$i")" \
    "$cpu" "$wall" "$(echo "$t0 $cpu" | awk '{ print $1 / $2 }')" \
    "$(echo "$t1 $cpu" | awk '{ print $1 / $2 }')"
  i=$((i + 1))
done

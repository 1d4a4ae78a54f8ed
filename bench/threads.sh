#!/bin/sh
# The default count on T threads against one thread, at every SIMD level
# this CPU runs: for each n and level, `nqueens -j1 --simd=LEVEL N` and
# `nqueens -jT --simd=LEVEL N` in turn, round after round, by wall time
# (the machine should be otherwise idle: T threads need T free cores).
# Prints median wall seconds of each and the speed-up. Every count is
# compared with the one-thread count: a difference stops the script.
#
# usage: sh bench/threads.sh [SIZES [ROUNDS [T]]]   (default: "18 19 20", 3, 2)
# env:   NQ_BENCH_BUILD=dir  build tree to use (default build/bench)
#        NQ_LEVELS=LIST     levels to time (default: those the CPU runs,
#                           of avx512, avx2, none)
set -eu
cd "$(dirname "$0")/.."
sizes=${1:-18 19 20}
rounds=${2:-3}
t=${3:-2}
b=${NQ_BENCH_BUILD:-build/bench}
[ -x /usr/bin/time ] || { echo "threads.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
. bench/sides.sh
bench_build "$b"
nq=$b/nqueens
levels=$(bench_levels "$nq")
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') ($(nproc 2>/dev/null || echo '?') online)"
echo "levels: $levels; 1 against $t threads, $rounds interleaved rounds, median wall seconds; load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# run FILE COMMAND...: appends the wall seconds of one run to $tmp/FILE and
# leaves its output in $tmp/o
run() {
  _f=$1; shift
  /usr/bin/time -f "%e" -o "$tmp/t" "$@" >"$tmp/o" 2>/dev/null </dev/null ||
    { echo "threads.sh: failed: $*" >&2; exit 1; }
  cat "$tmp/t" >>"$tmp/$_f"
}
printf '\n| n | level | method | 1 thread (s) | %s threads (s) | speed-up |\n|---:|---|---|---:|---:|---:|\n' "$t"
for n in $sizes; do
  for l in $levels; do
    rm -f "$tmp/one" "$tmp/many"
    r=0
    while [ "$r" -lt "$rounds" ]; do
      run one "$nq" -j1 --simd=$l --json "$n"
      want=$(grep -o '"total":[0-9]*' "$tmp/o" | cut -d: -f2)
      method=$(grep -o '"method":"[a-z]*"' "$tmp/o" | cut -d'"' -f4)
      run many "$nq" -j"$t" --simd=$l --json "$n"
      [ "$(grep -o '"total":[0-9]*' "$tmp/o" | cut -d: -f2)" = "$want" ] ||
        { echo "threads.sh: the count of $n at $l on $t threads differs" >&2; exit 1; }
      r=$((r + 1))
    done
    awk -v n="$n" -v l="$l" -v m="$method" -v a="$(median "$tmp/one")" -v b="$(median "$tmp/many")" \
      'BEGIN { printf "| %s | %s | %s | %.2f | %.2f | %.2fx |\n", n, l, m, a, b, (b > 0) ? a / b : 0 }'
  done
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"

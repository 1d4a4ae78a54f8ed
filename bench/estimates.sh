#!/bin/sh
# Two runs of `nqueens --estimate --json -j1 N` for every N of SIZES, one
# after the other (all N, then all N again), each under GNU time: prints
# one markdown row per N with both estimates and their intervals, the
# spread between the runs, the core-hours, the wall and user seconds the
# estimate itself took and its peak resident memory. The rows of
# docs/performance.md, "Two runs of each n".
#
# usage: sh bench/estimates.sh [SIZES]     (default: "16 17 ... 28")
# env:   NQ_BENCH_BUILD=dir  build tree to use (default build/bench)
set -eu
cd "$(dirname "$0")/.."
sizes=${1:-16 17 18 19 20 21 22 23 24 25 26 27 28}
b=${NQ_BENCH_BUILD:-build/bench}
[ -x /usr/bin/time ] || { echo "estimates.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
. bench/sides.sh
bench_build "$b"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'); load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
for run in 1 2; do
  for n in $sizes; do
    /usr/bin/time -f "%e %U %M" -o "$tmp/t.$run.$n" \
      "$b/nqueens" --estimate --json -j1 "$n" >"$tmp/j.$run.$n" </dev/null
  done
done
# field NAME FILE: a number of the one-line JSON object
field() { sed -n "s/.*\"$1\":\([-0-9.e+]*\).*/\1/p" "$2"; }
echo
echo "| n | how | run 1: seconds (low to high) | run 2: seconds (low to high) | spread | core-hours | time of \`--estimate\`: wall s / user s | peak RSS (MiB) |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  j1=$tmp/j.1.$n j2=$tmp/j.2.$n
  how=sample
  grep -q '"exact":true' "$j1" && how=exact
  grep -q '"modelled":true' "$j1" && how=model
  awk -v n="$n" -v how="$how" \
      -v s1="$(field seconds "$j1")" -v l1="$(field low "$j1")" -v h1="$(field high "$j1")" \
      -v s2="$(field seconds "$j2")" -v l2="$(field low "$j2")" -v h2="$(field high "$j2")" \
      -v ch="$(field core_hours "$j1")" \
      -v t1="$(cat "$tmp/t.1.$n")" -v t2="$(cat "$tmp/t.2.$n")" 'BEGIN {
    split(t1, a, " "); split(t2, b, " ")
    hi = s1 > s2 ? s1 : s2; lo = s1 > s2 ? s2 : s1
    printf "| %s | %s | %.4g (%.4g to %.4g) | %.4g (%.4g to %.4g) | %.0f%% | %.3g | %.2f / %.2f, %.2f / %.2f | %d, %d |\n",
      n, how, s1, l1, h1, s2, l2, h2, 100 * (hi - lo) / lo, ch,
      a[1], a[2], b[1], b[2], a[3] / 1024 + 0.5, b[3] / 1024 + 0.5
  }'
done

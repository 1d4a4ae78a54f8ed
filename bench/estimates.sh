#!/bin/sh
# Estimates against measurements, method by method. For each method of
# NQ_EST_METHODS and each N of SIZES: `nqueens --estimate --json -j1 -m
# METHOD N` twice, the first after NQ_EST_IDLE seconds in which this
# script runs nothing (a cold first estimate, as a user runs it once), the
# second right after it (warm); and, for N up to NQ_EST_COUNT_UP_TO, the
# count itself (`nqueens -j1 -m METHOD N`, user + system seconds of GNU
# time). `unique` stands for `--unique` with the default method (the
# symmetry method counts unique solutions). Prints one markdown row per
# method and n: both estimates with their intervals, cold over warm, the
# count and each estimate over it, the core-hours, and the wall seconds
# and peak memory the estimates took. Beyond the counts, up to
# NQ_EST_SAMPLE_UP_TO, the measured column is a sample's instead: 16
# units counted exactly and timed (bench/nq_sample.c), or for the plain
# walk, whose units take hours from n = 21, 100 timed subtrees of each of
# 16 units (bench/nq_subsample.c). A sample's own 95% interval is in
# docs/performance.md, "Measured growth"; rerun the programs for it.
#
# usage: sh bench/estimates.sh [SIZES]     (default: "16 17 ... 28")
# env:   NQ_EST_METHODS      methods (default "join symmetry plain unique")
#        NQ_EST_COUNT_UP_TO  count in full up to this n (default 18)
#        NQ_EST_SAMPLE_UP_TO sample beyond the counts up to this n (default 0:
#                            none); a sample of 16 units of n = 26 takes
#                            some 6 minutes by the join, 11 by the plain
#                            walk and 80 by the symmetry method
#        NQ_EST_IDLE         idle seconds before each cold estimate (default 20)
#        NQ_BENCH_BUILD=dir  build tree to use (default build/bench)
set -eu
cd "$(dirname "$0")/.."
sizes=${1:-16 17 18 19 20 21 22 23 24 25 26 27 28}
methods=${NQ_EST_METHODS:-join symmetry plain unique}
count_to=${NQ_EST_COUNT_UP_TO:-18}
sample_to=${NQ_EST_SAMPLE_UP_TO:-0}
idle=${NQ_EST_IDLE:-20}
b=${NQ_BENCH_BUILD:-build/bench}
[ -x /usr/bin/time ] || { echo "estimates.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
. bench/sides.sh
bench_build "$b"
if [ "$sample_to" -gt 0 ]; then
  cmake --build "$b" -j 2 --target nq_sample nq_subsample >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'); load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"

# field NAME FILE: a number of the one-line JSON object
field() { sed -n "s/.*\"$1\":\([-0-9.e+]*\).*/\1/p" "$2"; }

echo
echo "| method | n | how | cold: seconds (low to high) | warm: seconds (low to high) | cold / warm | measured: CPU s | cold / measured | warm / measured | core-hours | estimates: wall s, peak MiB |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for method in $methods; do
  case $method in
    unique) args="-u" ;;
    *) args="-m $method" ;;
  esac
  for n in $sizes; do
    sleep "$idle"
    for run in cold warm; do
      # shellcheck disable=SC2086 # args holds two words
      /usr/bin/time -f "%e %M" -o "$tmp/t.$run" \
        "$b/nqueens" --estimate --json -j1 $args "$n" >"$tmp/j.$run" </dev/null
    done
    counted=""
    if [ "$n" -le "$count_to" ]; then
      # shellcheck disable=SC2086
      /usr/bin/time -f "%U %S" -o "$tmp/t.count" "$b/nqueens" -j1 $args --no-progress "$n" \
        >/dev/null </dev/null
      counted=$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/t.count")
    elif [ "$n" -le "$sample_to" ]; then
      case $method in
        plain) "$b/nq_subsample" "$n" 16 100 "$n" >"$tmp/s" ;;
        join) "$b/nq_sample" "$n" 16 "$n" auto >"$tmp/s" ;;
        *) "$b/nq_sample" "$n" 16 "$n" auto 0 symmetry >"$tmp/s" ;;
      esac </dev/null
      counted=$(sed -n 's/^# one-core CPU seconds of the whole count: \([0-9.e+]*\) .*/\1/p' "$tmp/s")
      counted="$counted (sample)"
    fi
    how=sample
    grep -q '"exact":true' "$tmp/j.cold" && how=exact
    grep -q '"modelled":true' "$tmp/j.cold" && how=model
    grep -q '"lower_bound":true' "$tmp/j.cold" && how="at least"
    awk -v m="$method" -v n="$n" -v how="$how" -v c="$counted" \
        -v s1="$(field seconds "$tmp/j.cold")" -v l1="$(field low "$tmp/j.cold")" \
        -v h1="$(field high "$tmp/j.cold")" -v s2="$(field seconds "$tmp/j.warm")" \
        -v l2="$(field low "$tmp/j.warm")" -v h2="$(field high "$tmp/j.warm")" \
        -v ch="$(field core_hours "$tmp/j.warm")" \
        -v t1="$(cat "$tmp/t.cold")" -v t2="$(cat "$tmp/t.warm")" 'BEGIN {
      split(t1, a, " "); split(t2, b, " ")
      r1 = c + 0 == 0 ? "" : sprintf("%.2f", s1 / (c + 0))
      r2 = c + 0 == 0 ? "" : sprintf("%.2f", s2 / (c + 0))
      printf "| %s | %s | %s | %.4g (%.4g to %.4g) | %.4g (%.4g to %.4g) | %.2f | %s | %s | %s | %.3g | %.1f, %.1f; %d, %d |\n",
        m, n, how, s1, l1, h1, s2, l2, h2, s1 / s2, c, r1, r2, ch,
        a[1], b[1], a[2] / 1024 + 0.5, b[2] / 1024 + 0.5
    }'
  done
done

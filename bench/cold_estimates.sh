#!/bin/sh
# Cold first estimates against the count, one thread: for each N of SIZES,
# ROUNDS times: NQ_COLD_IDLE seconds in which this script runs nothing,
# `nqueens --estimate --json -j1 N` (a first estimate after an idle spell,
# as a user runs it), and right after it the count itself (`nqueens -j1
# N`, user + system seconds of GNU time). Each estimate is set against the
# count of its own round: this machine's speed drifts by up to half
# between minutes, so that an estimate set against one count made at
# another time would show the drift as the estimate's error. Prints each
# round's estimate over its count, per n their median, least and
# greatest, and the counts' own least and greatest (the drift). Run it on
# a quiet machine: pin it with `taskset -c 1` and leave the other core
# idle.
#
# usage: sh bench/cold_estimates.sh [SIZES [ROUNDS]]  (default "18 19 20", 10)
# env:   NQ_COLD_IDLE   idle seconds before each estimate (default 15)
#        NQ_BENCH_BUILD build tree to use (default build/bench)
set -eu
cd "$(dirname "$0")/.."
sizes=${1:-18 19 20}
rounds=${2:-10}
idle=${NQ_COLD_IDLE:-15}
b=${NQ_BENCH_BUILD:-build/bench}
[ -x /usr/bin/time ] || { echo "cold_estimates.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
. bench/sides.sh
bench_build "$b"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'); load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo "n	estimates / counts (in order)	median	least	greatest	counts: least	greatest (CPU s)"
for n in $sizes; do
  ratios="" counts=""
  i=0
  while [ "$i" -lt "$rounds" ]; do
    sleep "$idle"
    "$b/nqueens" --estimate --json -j1 "$n" >"$tmp/est"
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$b/nqueens" -j1 "$n" >/dev/null
    count=$(awk '{ print $1 + $2 }' "$tmp/time")
    s=$(sed -n 's/.*"seconds":\([-0-9.e+]*\).*/\1/p' "$tmp/est")
    ratios="$ratios $(awk -v s="$s" -v c="$count" 'BEGIN { if (c > 0) printf "%.3f", s / c; else printf "-" }')"
    counts="$counts $count"
    i=$((i + 1))
  done
  echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | sort -n >"$tmp/sorted"
  median=$(awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }' "$tmp/sorted")
  c=$(echo "$counts" | tr ' ' '\n' | sed '/^$/d' | sort -n)
  echo "$n	$(echo $ratios)	$median	$(head -n1 "$tmp/sorted")	$(tail -n1 "$tmp/sorted")	$(echo "$c" | head -n1)	$(echo "$c" | tail -n1)"
done

#!/bin/sh
# The default count against Kluev's quadrant counter at every SIMD level
# this CPU runs, one thread, side by side: for each n and level, the
# default count (`nqueens -j1 --simd=LEVEL N`) and Kluev's counter built
# for the matching target (avx512: -march=native, avx2: x86-64-v3, none:
# x86-64, by its build script's KLUEV_MARCH) run in turn, round after
# round, so that a change in the machine's load touches both alike. Prints
# one table: median CPU seconds (user + system) of each, their ratio
# (below 1: nqueens is faster) and the method the default picked. Every
# count is compared with Kluev's: a difference stops the script.
#
# usage: sh bench/levels.sh [SIZES [ROUNDS]]   (default: "16 17 18", 3 rounds)
# env:   NQ_PEER_KLUEV=SCRIPT  builds Kluev's counter for n and prints its
#                           path (default ../shared/peers/build-kluev)
#        NQ_BENCH_BUILD=dir  build tree to use (default build/bench)
#        NQ_LEVELS=LIST     levels to time (default: those the CPU runs,
#                           of avx512, avx2, none)
#        NQ_LEVELS_ALSO=M   methods to time beside the default, each a
#                           column of its own ratio to Kluev (e.g. "join
#                           symmetry")
#        NQ_LEVELS_THREADS=T  also time the default on T threads against
#                           one, by wall time (a second table)
set -eu
cd "$(dirname "$0")/.."
sizes=${1:-16 17 18}
rounds=${2:-3}
b=${NQ_BENCH_BUILD:-build/bench}
peer=${NQ_PEER_KLUEV:-../shared/peers/build-kluev}
also=${NQ_LEVELS_ALSO:-}
threads=${NQ_LEVELS_THREADS:-}
[ -x "$peer" ] || { echo "levels.sh: no peer build script at $peer (set NQ_PEER_KLUEV)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "levels.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
. bench/sides.sh
bench_build "$b"
nq=$b/nqueens
levels=$(bench_levels "$nq")
march_of() { case $1 in avx512) echo native;; avx2) echo x86-64-v3;; *) echo x86-64;; esac; }

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') ($(nproc 2>/dev/null || echo '?') online)"
echo "levels: $levels; one thread, $rounds interleaved rounds, median CPU seconds; load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# run LABEL FIELD COMMAND...: times one run, appends the CPU (field 1) or
# wall (field 2) seconds to $tmp/LABEL and its output's last number to
# $tmp/LABEL.out
run() {
  _l=$1 _f=$2; shift 2
  /usr/bin/time -f "%U %S %e" -o "$tmp/t" "$@" >"$tmp/o" 2>/dev/null </dev/null ||
    { echo "levels.sh: failed: $*" >&2; exit 1; }
  awk -v f="$_f" '{ print (f == 1) ? $1 + $2 : $3 }' "$tmp/t" >>"$tmp/$_l"
  grep -o '[0-9][0-9]*' "$tmp/o" | head -n 1 >"$tmp/$_l.out"
}
count_of() { grep -o '"total":[0-9]*' "$1" | cut -d: -f2; }

hdr="| n | level | default | nqueens s | Kluev s | nqueens / Kluev |"
sep="|---:|---|---|---:|---:|---:|"
for m in $also; do hdr="$hdr -m $m / Kluev |"; sep="$sep---:|"; done
printf '\n%s\n%s\n' "$hdr" "$sep"
scal=
for n in $sizes; do
  for l in $levels; do
    k=$(KLUEV_MARCH=$(march_of "$l") "$peer" "$n" | tail -n 1)
    rm -f "$tmp"/d "$tmp"/k "$tmp"/a.* "$tmp"/s1 "$tmp"/s2
    want= r=0
    while [ "$r" -lt "$rounds" ]; do
      # --json names the method that ran; its count is what the others
      # must print
      run d 1 "$nq" -j1 --simd=$l --json "$n"
      method=$(grep -o '"method":"[a-z]*"' "$tmp/o" | cut -d'"' -f4)
      [ -n "$want" ] || want=$(count_of "$tmp/o")
      [ "$(count_of "$tmp/o")" = "$want" ] || { echo "levels.sh: default count of $n at $l differs" >&2; exit 1; }
      run k 1 "$k" 1
      [ "$(grep -o 'Result: [0-9]*' "$tmp/o" | cut -d' ' -f2)" = "$want" ] ||
        { echo "levels.sh: Kluev's count of $n ($k) differs from $want" >&2; exit 1; }
      for m in $also; do
        run "a.$m" 1 "$nq" -j1 --simd=$l -m "$m" "$n"
        [ "$(cat "$tmp/a.$m.out")" = "$want" ] || { echo "levels.sh: -m $m count of $n differs" >&2; exit 1; }
      done
      if [ -n "$threads" ]; then
        run s1 2 "$nq" -j1 --simd=$l "$n"
        run s2 2 "$nq" -j"$threads" --simd=$l "$n"
      fi
      r=$((r + 1))
    done
    d=$(median "$tmp/d") kk=$(median "$tmp/k")
    line=$(awk -v n="$n" -v l="$l" -v m="$method" -v d="$d" -v k="$kk" \
      'BEGIN { printf "| %s | %s | %s | %.3f | %.3f | %.2f |", n, l, m, d, k, (k > 0) ? d / k : 0 }')
    for m in $also; do
      line="$line $(awk -v a="$(median "$tmp/a.$m")" -v k="$kk" 'BEGIN { printf "%.2f |", (k > 0) ? a / k : 0 }')"
    done
    echo "$line"
    [ -n "$threads" ] && scal="$scal
$(awk -v n="$n" -v l="$l" -v t="$threads" -v a="$(median "$tmp/s1")" -v b="$(median "$tmp/s2")" \
      'BEGIN { printf "| %s | %s | %.3f | %.3f | %.2fx |", n, l, a, b, (b > 0) ? a / b : 0 }')"
  done
done
if [ -n "$threads" ]; then
  printf '\nThe default, %s threads against one (median wall seconds, same rounds):\n' "$threads"
  printf '\n| n | level | 1 thread | %s threads | speed-up |\n|---:|---|---:|---:|---:|%s\n' "$threads" "$scal"
fi
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"

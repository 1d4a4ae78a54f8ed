#!/bin/sh
# The default thread count follows the CPUs this process may use: run
# under taskset, a count starts as many threads as the mask allows, and
# -j0 means the same. (The cgroup quota half is unit-tested with sample
# files: test_cpu_count.) Skipped, with the reason, where taskset is
# missing or the machine has a single CPU.
# usage: threads_e2e.sh PATH/TO/nqueens
set -u
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"

command -v taskset >/dev/null 2>&1 || { echo "skipped: no taskset here"; exit 77; }
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
[ "$cpus" -ge 2 ] || { echo "skipped: this machine has a single CPU"; exit 77; }
# two CPUs this process may use, the first and another
first=$(taskset -cp $$ | sed 's/.*: //; s/[-,].*//')
second=$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' |
  awk -F- -v f="$first" '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) if (c != f) { print c; exit } }')

# the "threads" field of --estimate --json 12 (199 units: no cap)
threads() {
  "$@" --estimate --json 12 2>"$work/err" | sed -n 's/.*"threads":\([0-9]*\).*/\1/p'
}

all=$(threads "$bin")
report "without a mask: at least one thread ($all)" "$([ "${all:-0}" -ge 1 ] && echo 1 || echo 0)"
got=$(threads taskset -c "$first" "$bin")
report "taskset -c $first: 1 thread (got $got)" "$([ "$got" = 1 ] && echo 1 || echo 0)"
got=$(threads taskset -c "$first" "$bin" -j0)
report "taskset -c $first, -j0: 1 thread (got $got)" "$([ "$got" = 1 ] && echo 1 || echo 0)"
got=$(threads taskset -c "$first" "$bin" -j3)
report "taskset -c $first, -j3: 3 threads as asked (got $got)" \
  "$([ "$got" = 3 ] && echo 1 || echo 0)"
if [ -n "$second" ]; then
  want=$(( all < 2 ? all : 2 ))
  got=$(threads taskset -c "$first,$second" "$bin")
  report "taskset -c $first,$second: $want threads (got $got)" \
    "$([ "$got" = "$want" ] && echo 1 || echo 0)"
fi
out=$(taskset -c "$first" "$bin" 10 2>&1)
report "a count on one CPU: 724 for n = 10 (got $out)" "$([ "$out" = 724 ] && echo 1 || echo 0)"
finish

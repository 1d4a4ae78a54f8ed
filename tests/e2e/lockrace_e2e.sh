#!/bin/sh
# Runs started together on one checkpoint: in every round each one either
# counts (status 0, the count of n = 12 on stdout) or is refused at once
# (status 2, "FILE: another process is using this file"), and once all
# have ended nothing is left beside the checkpoint: no FILE.lock, no
# temporary file. Many rounds, so that the runs' starts interleave in
# many ways (one creating the lock file while another opens it).
# usage: lockrace_e2e.sh PATH/TO/nqueens [ROUNDS [RUNS]]
set -u
bin=$1
rounds=${2:-20}
runs=${3:-12}
. "$(dirname "$0")/../helpers/e2e_lib.sh"
cd "$work" || exit 1

bad_status=0 bad_output=0 left=0 counted=0 refused=0 none=0
r=0
while [ $r -lt $rounds ]; do
  rm -f F
  i=0
  while [ $i -lt $runs ]; do
    ("$bin" -q -j 1 --checkpoint F 12 >out.$i 2>err.$i; echo $? >rc.$i) &
    i=$((i + 1))
  done
  wait
  before=$counted
  i=0
  while [ $i -lt $runs ]; do
    rc=$(cat rc.$i)
    if [ "$rc" -eq 0 ]; then
      counted=$((counted + 1))
      { [ "$(cat out.$i)" = "14200" ] && [ ! -s err.$i ]; } ||
        { bad_output=$((bad_output + 1)); sed 's/^/# /' out.$i err.$i; }
    elif [ "$rc" -eq 2 ]; then
      refused=$((refused + 1))
      { [ ! -s out.$i ] &&
        [ "$(cat err.$i)" = "nqueens: F: another process is using this file" ]; } ||
        { bad_output=$((bad_output + 1)); sed 's/^/# /' out.$i err.$i; }
    else
      bad_status=$((bad_status + 1))
      echo "# round $r run $i: status $rc"; sed 's/^/# /' err.$i
    fi
    rm -f out.$i err.$i rc.$i
    i=$((i + 1))
  done
  [ $counted -gt $before ] || { none=$((none + 1)); echo "# round $r: no run counted"; }
  if [ -n "$(ls -A | grep -v -x F)" ]; then
    left=$((left + 1))
    echo "# round $r left: $(ls -A | grep -v -x F | tr '\n' ' ')"
    rm -f F.lock F.tmp-*
  fi
  r=$((r + 1))
done
echo "# $counted counted, $refused refused in $rounds rounds of $runs runs"

report "each run counted (0) or was refused (2)" $((bad_status == 0))
report "each one's output: the count, or the one refusal line" $((bad_output == 0))
report "no lock or temporary file left after any round ($left rounds left one)" $((left == 0))
report "one run or more counted in each round" $((none == 0))
finish

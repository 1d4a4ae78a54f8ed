#!/bin/sh
# Whatever ends a write ends it as a full disk does: a file-size limit
# (`ulimit -f`, whose SIGXFSZ the command ignores, so that the write fails
# with EFBIG), a full disk, a stop signal in the middle of a listing, a
# reader that goes away. Each gets one message that names what could not
# be written and a status (1; 128 + the signal; 141 for a closed pipe),
# and leaves no temporary file, no lock and no half-written line.
# usage: writes_e2e.sh PATH/TO/nqueens
set -u
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"
cd "$work" || exit 1

# the names in the scratch folder, but the given ones
others() { ls -A | grep -v -x -e out -e err "$@"; }

# --- a file-size limit ----------------------------------------------------------
# a checkpoint saved at every unit outgrows one block (512 or 1024 bytes,
# as the shell counts them) within the count
(ulimit -f 1; exec "$bin" -j 1 --checkpoint F --checkpoint-interval 0 16) >out 2>err
status=$?
[ $status -eq 1 ] && [ ! -s out ] &&
  [ "$(cat err)" = "nqueens: F: cannot save the checkpoint: File too large" ] &&
  [ "$(others -e F)" = "" ]
report "checkpoint past the file-size limit: status $status, says so, no F.tmp-* or F.lock" $((! $?))
[ $status -eq 1 ] || sed 's/^/# /' err

(ulimit -f 1; exec "$bin" --list 8 >big.txt) 2>err; status=$?
[ $status -eq 1 ] && [ "$(cat err)" = "nqueens: cannot write to standard output: File too large" ]
report "--list past the file-size limit: status $status, says so" $((! $?))
rm -f F big.txt

# --- a full disk ----------------------------------------------------------------------
if [ -w /dev/full ]; then
  for args in "--list 8" "8" "--json 8" "--one 50" "--estimate 8"; do
    "$bin" $args >/dev/full 2>err; status=$?
    [ $status -eq 1 ] &&
      [ "$(cat err)" = "nqueens: cannot write to standard output: No space left on device" ]
    report "nqueens $args >/dev/full: status $status, says so" $((! $?))
  done
fi

# --- a reader that goes away: quiet, with the status of SIGPIPE ------------------------
line=$({ "$bin" --list 12 2>err; echo $? >status; } | head -n 1)
[ "$line" = "1 3 5 8 10 12 6 11 2 7 9 4" ] && [ ! -s err ] && [ "$(cat status)" = 141 ]
report "--list 12 | head -n 1: the first line, no message, status 141" $((! $?))

# --- a listing stopped by a signal: whole lines, and a message that says so -------
# (signalled once it has written something; the files of the last run go
# first, or their content would count as this one's)
for sig in INT:130 TERM:143 HUP:129; do
  want=${sig#*:} sig=${sig%:*}
  rm -f out err
  "$bin" --list 20 >out 2>err &
  pid=$!
  i=0
  while [ ! -s out ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i + 1)); done
  kill -"$sig" "$pid"; wait "$pid"; status=$?
  lines=$(wc -l <out)
  [ $status -eq "$want" ] && [ "$(tail -c 1 out | od -An -c | tr -d ' ')" = '\n' ] &&
    [ "$(tail -n 1 out | wc -w)" -eq 20 ] &&
    [ "$(cat err)" = "nqueens: interrupted by SIG$sig; $lines placements of n = 20 listed" ]
  ok=$?
  report "--list 20 stopped by SIG$sig: status $status, whole lines, the count listed" $((! ok))
  [ $ok -eq 0 ] || { sed 's/^/# /' err; tail -c 100 out | od -c | sed 's/^/# /'; }
done

# --- the leftovers of saves that were killed ---------------------------------------
# kill -9 a count that saves at every unit, again and again: a kill that
# lands in a save leaves its temporary file (a whole copy of the
# checkpoint), which the next run removes once it holds the lock; the lock
# file the killed runs made (it locks nothing) goes when that run ends.
# Files of the user's at names alike stay.
rm -f F F.*
echo mine >F.tmp-mine; echo mine >F.tmp-ABCDEFGH; echo mine >F.tmp-abcdefgh.txt
left=0
for i in 1 2 3 4 5; do
  "$bin" -j 1 -m symmetry --checkpoint F --checkpoint-interval 0 17 >out 2>err &
  pid=$!
  sleep 0.3
  kill -KILL "$pid"; wait "$pid"
  left=$((left + $(ls | grep -c -x 'F\.tmp-[0-9a-v]\{8\}')))
done
# one more leftover for certain: a copy of the checkpoint at such a name
cp F F.tmp-0123abcv 2>/dev/null || echo leftover >F.tmp-0123abcv
out=$("$bin" -j 1 -m symmetry --checkpoint F 17 2>err); status=$?
[ $status -eq 0 ] && [ "$out" = 95815104 ] && [ ! -e F.lock ] &&
  [ "$(ls | grep '^F\.tmp-' | tr '\n' ' ')" = "F.tmp-ABCDEFGH F.tmp-abcdefgh.txt F.tmp-mine " ]
report "after kill -9 in saves ($left leftovers seen), the next run removes them and the lock file, and only them" $((! $?))

finish

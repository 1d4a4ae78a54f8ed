#!/bin/sh
# Every signal that ends a process by default stops a count with
# --checkpoint cleanly: one final save, one "interrupted" line that names
# the signal and says truly what the file holds, the lock file gone, and
# status 128 + the FIRST signal's number, also when more signals follow
# (GNU timeout signals the process and then its group; an impatient user
# presses Ctrl-C three times). One checkpoint is interrupted again and
# again, each run resuming the last one's file, and the last run must
# print the exact count.
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"

# four to eight seconds of work on one thread (the sanitizers: three times
# as long), and the CPU time (in clock ticks of /proc) a started count is
# given before it is signalled. The sanitizers count the same board: n = 17 took them only
# about three seconds, and a count that ends before its signal fails the
# test. So that no CPU is too fast for the stops, a checkpoint more than
# half done is started afresh after its check (check below).
n=18 total=666090624 ticks=50
[ "${NQ_TEST_SANITIZED:-0}" = 1 ] && ticks=150

# wait_running PID [TICKS]: until the process has run for TICKS (default
# $ticks) of CPU time (its handlers are in place long before), at most a
# minute. A pause of wall time would not do: on a busy machine a process
# may not even have started when it ends.
wait_running() {
  i=0 want=${2:-$ticks}
  while [ $i -lt 6000 ]; do
    t=$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null) || return 0
    [ -n "$t" ] && [ "$t" -ge "$want" ] && return 0
    sleep 0.01; i=$((i + 1))
  done
}
# wait_taken PID SIG: until signal number SIG, sent to PID, is no longer
# pending there (a thread of PID has taken it), at most a minute
wait_taken() {
  i=0
  while [ $i -lt 6000 ]; do
    p=$(sed -n 's/^ShdPnd:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
    [ -n "$p" ] || return 0
    [ $(((0x$p >> ($2 - 1)) & 1)) -eq 0 ] && return 0
    sleep 0.01; i=$((i + 1))
  done
}
ck=$work/sig.ckpt
args="-j 1 -m symmetry --progress --checkpoint-interval=0 --checkpoint $ck $n"
done_before=0

# the numbers of the signals on Linux (x86, arm)
signum() { case $1 in HUP) echo 1 ;; INT) echo 2 ;; QUIT) echo 3 ;; XCPU) echo 24 ;; TERM) echo 15 ;; esac; }

# check NAME STATUS WANT: the run's status, its one message, the file and
# the lock, and that the units the message names are those the file holds
# (the next run says how many it resumes)
check() {
  name=$1 status=$2 want=$3
  # (the messages but the resuming line and lines of progress)
  msg=$(grep '^nqueens: ' "$work/err" | grep -v -e '^nqueens: resuming: ' -e '^nqueens: n = ')
  k=$(printf '%s\n' "$msg" |
    sed -n "s/^nqueens: interrupted by SIG[A-Z]*; \([0-9]*\) of [0-9]* units are saved in .*sig.ckpt.*: run the same command again to resume$/\1/p")
  [ "$status" -eq "$want" ] && [ ! -s "$work/out" ] &&
    [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ] && [ -n "$k" ] &&
    [ -s "$ck" ] && [ ! -e "$ck.lock" ] && [ "$k" -ge "$done_before" ]
  ok=$?
  if [ $ok -eq 0 ]; then
    # the next run must resume exactly what this one said it saved (the
    # last peek's file goes first: the loop below would read its line
    # before the new run has even opened the file)
    rm -f "$work/peek"
    "$bin" $args >/dev/null 2>"$work/peek" &
    pid=$!
    # until it has said what it resumes (or, with nothing saved, holds the lock)
    i=0
    while [ $i -lt 6000 ] && ! grep -q '^nqueens: resuming: ' "$work/peek" &&
      ! { [ "$k" -eq 0 ] && [ -e "$ck.lock" ]; }; do
      sleep 0.01; i=$((i + 1))
    done
    kill -TERM "$pid" 2>/dev/null
    wait "$pid"
    r=$(sed -n 's/^nqueens: resuming: \([0-9]*\) of [0-9]* units already done$/\1/p' "$work/peek")
    m=$(sed -n 's/^nqueens: resuming: [0-9]* of \([0-9]*\) units already done$/\1/p' "$work/peek")
    [ "$k" -eq 0 ] && [ -z "$r" ] || [ "$r" = "$k" ] || ok=1
    done_before=$k
    # more than half done: the next stops start a new file, or a fast CPU
    # would finish the count before a later signal comes
    if [ $ok -eq 0 ] && [ -n "$m" ] && [ $((2 * k)) -gt "$m" ]; then
      rm -f "$ck"
      done_before=0
    fi
  fi
  report "$name: status $status (want $want), one true message, file saved, lock gone" $((! ok))
  [ $ok -eq 0 ] || sed 's/^/# /' "$work/err"
}

# start: a count in the background ($pid), given a moment
start() {
  "$bin" $args >"$work/out" 2>"$work/err" &
  pid=$!
  wait_running "$pid"
}

# a stop that comes before any unit is done still leaves the file it names
# (signalled as soon as the lock file shows that the handlers are there)
rm -f "$ck"
"$bin" $args >"$work/out" 2>"$work/err" &
pid=$!
i=0
while [ ! -e "$ck.lock" ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
kill -TERM "$pid"; wait "$pid"; check "SIGTERM at once" $? 143

# GNU timeout: SIGTERM to the count, then to the whole process group. Its
# time is not waited for (on a busy machine the count may not have started
# by then): timeout is sent SIGTERM once the count has run, which it
# passes on in the same way.
timeout --preserve-status -s TERM 600 "$bin" $args >"$work/out" 2>"$work/err" &
tpid=$!
i=0
while [ -z "$(pgrep -P $tpid)" ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
wait_running "$(pgrep -P $tpid)"
kill -TERM $tpid; wait $tpid
check "timeout --preserve-status -s TERM" $? 143

start; kill -TERM "$pid"; kill -TERM "$pid"; wait "$pid"
check "SIGTERM twice" $? 143

start; kill -INT "$pid"; kill -INT "$pid"; kill -INT "$pid"; wait "$pid"
check "SIGINT three times" $? 130

# (apart, or the kernel hands pending signals over lowest number first:
# the others once the first is taken, however long that takes)
start; kill -INT "$pid"; wait_taken "$pid" 2; kill -TERM "$pid"; kill -HUP "$pid"; wait "$pid"
check "SIGINT, then SIGTERM and SIGHUP: the first one's status" $? 130

for sig in HUP QUIT XCPU; do
  start; kill -"$sig" "$pid"; wait "$pid"
  check "SIG$sig" $? $((128 + $(signum "$sig")))
done

out=$("$bin" -j 2 -m symmetry --checkpoint "$ck" $n 2>"$work/err")
[ "$out" = "$total" ] && [ ! -e "$ck.lock" ]
report "after every stop, the checkpoint resumes to the exact count" $((! $?))

# nohup: an ignored SIGHUP stays ignored (the count goes on)
nohup "$bin" -j 1 -m symmetry $n >"$work/out" 2>"$work/err" &
pid=$!
wait_running "$pid"
kill -HUP "$pid"; sleep 0.3
kill -0 "$pid" 2>/dev/null; alive=$?
kill -TERM "$pid"; wait "$pid"; status=$?
[ $alive -eq 0 ] && [ $status -eq 143 ]
report "under nohup, SIGHUP is ignored; SIGTERM still stops" $((! $?))

# without --checkpoint: the message says nothing is saved, and how to keep it
"$bin" -j 1 -m symmetry $n >"$work/out" 2>"$work/err" &
pid=$!
wait_running "$pid"
kill -HUP "$pid"; kill -HUP "$pid"; wait "$pid"; status=$?
[ $status -eq 129 ] && [ ! -s "$work/out" ] &&
  [ "$(cat "$work/err")" = "nqueens: interrupted by SIGHUP (use --checkpoint FILE to make long runs resumable)" ]
report "SIGHUP twice without a checkpoint: status 129, says how to keep the work" $((! $?))

# --check and --estimate stop the same way, and say so. The estimate is of
# n = 22, which the symmetry method's cost model prices in about two
# seconds of CPU in any build and under any load (a timed sample of a
# smaller n ends by the wall clock, and on a busy machine can end before
# its fifth of a second of CPU), so it is signalled after a fifth of a
# second, not $ticks.
for mode in --check --estimate; do
  size=$n
  [ "$mode" = --estimate ] && size=22
  "$bin" $mode -j 1 -m symmetry $size >"$work/out" 2>"$work/err" &
  pid=$!
  wait_running "$pid" 20
  kill -QUIT "$pid"; kill -QUIT "$pid"; wait "$pid"; status=$?
  [ $status -eq 131 ] && [ "$(cat "$work/err")" = "nqueens: interrupted by SIGQUIT" ]
  report "$mode stopped by SIGQUIT twice: status 131, one line" $((! $?))
done

finish

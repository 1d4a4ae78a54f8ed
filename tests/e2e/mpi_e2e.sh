#!/bin/sh
# nqueens-mpi under Open MPI on one machine: 2 and 3 ranks against the known
# values, a rank that dies, and a checkpointed job that resumes after one.
# usage: mpi_e2e.sh MPIEXEC PATH/TO/nqueens-mpi
set -u
mpiexec=$1 bin=$2
. "$(dirname "$0")/../helpers/e2e_lib.sh"
# Under the sanitizers (tests/CMakeLists.txt sets their options), every
# rank writes its reports to a file of its own; the last check fails on any.
if [ -n "${ASAN_OPTIONS:-}" ]; then
  export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$work/sanitizer"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-}:log_path=$work/sanitizer"
fi
# Open MPI refuses root unless told; CI machines run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# hwloc complains on stderr where /sys is missing (containers, chroots);
# the checks below read stderr line by line
export HWLOC_HIDE_ERRORS=2
export OMPI_MCA_rmaps_base_oversubscribe=1
# Every job runs under a time limit (run: 300 s, run_abort: 60 s; then
# SIGKILL 10 s later): Open MPI 4.1's mpirun has been seen to hang for good after
# MPI_Abort, its ranks all gone (a futex wait, in a chroot), and a hung
# test must fail, not stall the suite. The jobs that end in an abort (a
# rank that dies or stops answering) get a short limit: there a hang
# after the job's own message and save ends as status 124, which their
# checks accept as the failure it is (status not 0).
limited() { limit=$1 np=$2; shift 2
  timeout -k 10 "$limit" "$mpiexec" --oversubscribe -np "$np" "$bin" "$@"
}
run() { limited 300 "$@"; }
run_abort() { limited 60 "$@"; }

for np in 2 3; do
  for case in "1 1 1" "6 4 1" "8 92 12" "12 14200 1787" "14 365596 45752"; do
    set -- $case
    out=$(run $np -j 1 --json "$1" 2>"$work/err")
    [ "$out" = "{\"n\":$1,\"total\":$2,\"unique\":$3,\"method\":\"symmetry\",\"ranks\":$np,\"device\":\"cpu\"}" ]
    report "$np ranks, n = $1: $2 / $3" $((! $?))
  done
  out=$(run $np --jobs=1 --method=plain --batch=3 13 2>"$work/err")
  [ "$out" = 73712 ]; report "$np ranks, plain method, batches of 3: n = 13" $((! $?))
done

# every method that --help names counts, and the manual names each; a JSON
# line carries a unique count only from the method that counts one
"$bin" --help >"$work/help" 2>&1
methods=$(sed -n 's/^ *-m, --method=M *\(.*\) (default: the fastest,$/\1/p' "$work/help" |
  sed 's/,//g; s/ or / /')
[ "$(echo $methods | wc -w)" -ge 3 ]; report "--help names the methods: $methods" $((! $?))
for m in $methods; do
  out=$(run 3 -j 1 --method=$m --json 12 2>"$work/err")
  if [ "$m" = symmetry ]; then want='"total":14200,"unique":1787,'; else want='"total":14200,"method"'; fi
  case $out in *"$want"*) ok=1 ;; *) ok=0 ;; esac
  grep -q "^\.B $m\$" "$(dirname "$0")/../../man/nqueens-mpi.1" || ok=0
  report "--method=$m: n = 12, and the manual names it" $ok
done
run 2 -m nosuch 8 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && grep -q "^nqueens-mpi: --method: unknown method 'nosuch' (expected $(echo $methods |
  sed 's/ /, /; s/ \([a-z]*\)$/ or \1/'))$" "$work/err"
report "an unknown method names the known ones" $((! $?))

# a rank that dies fails the whole job: non-zero status, no count
run_abort 3 -j 1 --batch=1 --test-crash-rank=2 13 >"$work/out" 2>"$work/err"; status=$?
[ $status -ne 0 ] && [ ! -s "$work/out" ] &&
  grep -q "^nqueens-mpi: rank 2 ended before the job did (mpirun says how), and mpirun then stopped every rank; [0-9]* of [0-9]* units are lost" "$work/err" &&
  ! grep -q "interrupted by" "$work/err"
report "a dead rank fails the job, and rank 0 names it, not mpirun's SIGTERM (status $status)" $((! $?))

# a checkpointed job that a dying rank ends resumes to the exact count
ck=$work/mpi.ckpt
run_abort 3 -j 1 --batch=2 --checkpoint="$ck" --checkpoint-interval=0 --test-crash-rank=1 14 \
  >"$work/out" 2>"$work/err"; status=$?
[ $status -ne 0 ] && [ ! -s "$work/out" ] && [ -s "$ck" ]
report "crashed checkpointed job left a checkpoint" $((! $?))
out=$(run 2 -j 1 --checkpoint="$ck" 14 2>"$work/err")
[ "$out" = 365596 ]; report "resumed job gives the exact count" $((! $?))
# the same checkpoint with the single-machine command
out=$(dirname "$bin")/nqueens
if [ -x "$out" ]; then
  out=$("$out" --checkpoint "$ck" 14)
  [ "$out" = 365596 ]; report "nqueens reads the MPI checkpoint" $((! $?))
fi

# --- signals: through mpirun (as a user's Ctrl-C or a batch scheduler) and
# straight to rank 0; the finished units are saved either way, and the same
# job resumes to the exact count ------------------------------------------------
rank0() { # the pid of rank 0 among mpirun's children
  for c in $(pgrep -P "$1"); do
    tr '\0' '\n' <"/proc/$c/environ" 2>/dev/null | grep -q '^OMPI_COMM_WORLD_RANK=0$' &&
      echo "$c"
  done
}
# a board that takes a few seconds on two workers, so that the signals
# come while it runs (n = 18 took a fast CPU under a second: the job ended
# first); the sanitizers run it about ten times slower
big=19 big_total=4968057848
[ "${NQ_TEST_SANITIZED:-0}" = 1 ] && big=18 big_total=666090624
for how in TERM-mpirun INT-mpirun INT-rank0 TERM-rank0; do
  sig=${how%-*}
  rm -f "$ck"
  # started directly, not through run(): $! must be mpirun's own pid
  "$mpiexec" --oversubscribe -np 3 "$bin" -j 1 --checkpoint="$ck" --checkpoint-interval=0 \
    $big >"$work/out" 2>"$work/err" &
  pid=$!
  # signalled once the checkpoint records a finished unit (start-up time
  # varies a lot; a file that exists may hold no unit yet)
  wait_saved "$ck" "$pid"
  target=$pid
  case $how in *-rank0) target=$(rank0 "$pid") ;; esac
  kill -"$sig" "$target"
  wait "$pid"; status=$?
  # Rank 0 ends with 128 + signal. mpirun passes that on when a rank was
  # signalled; when mpirun itself is, it sets its own status (1 in Open
  # MPI 4.1, see docs/mpi.md), which is never 0.
  case $how in
    *-mpirun) [ $status -ne 0 ] ;;
    INT-*) [ $status -eq 130 ] ;;
    TERM-*) [ $status -eq 143 ] ;;
  esac && [ ! -s "$work/out" ] &&
    [ "$(grep -c '^nqueens-mpi: ' "$work/err")" -eq 1 ] &&
    # (mpirun passes SIGTERM on for either signal)
    grep -q "^nqueens-mpi: interrupted by SIG[A-Z]*; [1-9][0-9]* of [0-9]* units are saved in .*resume" "$work/err"
  ok=$?
  report "SIG$sig sent to ${how#*-}: status $status, one message, units saved" $((! ok))
  [ $ok -eq 0 ] || { sed 's/^/# /' "$work/err" "$work/out"; }
  out=$(run 3 -j 1 --checkpoint="$ck" $big 2>"$work/err")
  [ "$out" = $big_total ]; report "  the same job resumes to the exact count" $((! $?))
done

# every other signal that ends a process by default, to rank 0 or to one
# worker, and a second signal on the first: the same stop, status 128 + the
# first signal's number, the rank that got it named when it is a worker
rankpid() { # the pid of rank $2 among mpirun $1's children
  for c in $(pgrep -P "$1"); do
    tr '\0' '\n' <"/proc/$c/environ" 2>/dev/null | grep -q "^OMPI_COMM_WORLD_RANK=$2\$" &&
      echo "$c"
  done
}
for how in HUP-0:129 QUIT-0:131 XCPU-0:152 TERM2-0:143 HUP-1:129 XCPU-2:152; do
  want=${how#*:} how=${how%:*} r=${how#*-} sig=${how%-*} twice=0
  [ "$sig" = TERM2 ] && sig=TERM twice=1
  rm -f "$ck"
  "$mpiexec" --oversubscribe -np 3 "$bin" -j 1 --checkpoint="$ck" --checkpoint-interval=0 \
    $big >"$work/out" 2>"$work/err" &
  pid=$!
  wait_saved "$ck" "$pid"
  target=$(rankpid "$pid" "$r")
  kill -"$sig" "$target"
  [ $twice = 1 ] && kill -"$sig" "$target"
  wait "$pid"; status=$?
  on=""; [ "$r" != 0 ] && on=" (on rank $r)"
  [ $status -eq "$want" ] && [ ! -s "$work/out" ] && [ ! -e "$ck.lock" ] &&
    [ "$(grep -c '^nqueens-mpi: ' "$work/err")" -eq 1 ] &&
    grep -q "^nqueens-mpi: interrupted by SIG$sig$on; [0-9]* of [0-9]* units are saved in .*resume" "$work/err"
  ok=$?
  report "SIG$sig to rank $r$([ $twice = 1 ] && echo ', twice'): status $status, one message, saved, no lock" $((! ok))
  [ $ok -eq 0 ] || { sed 's/^/# /' "$work/err" "$work/out"; }
done
out=$(run 3 -j 1 --checkpoint="$ck" $big 2>"$work/err")
[ "$out" = $big_total ]; report "  the last of them resumes to the exact count" $((! $?))

# --max-memory, parsed as nqueens parses it; a worker that cannot fit is
# refused with the numbers
run 2 -j 1 -m join --max-memory=1K 14 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 1 ] && [ ! -s "$work/out" ] &&
  grep -q "^nqueens-mpi: rank [1-9][0-9]* failed: n = 14 needs at least .* with 1 thread, more than --max-memory allows (1.0 KiB)$" "$work/err"
report "--max-memory=1K: the worker's refusal names what it needs" $((! $?))
run 2 -j 3 -m join --max-memory=1K 14 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 1 ] && grep -q "^nqueens-mpi: rank [1-9][0-9]* failed: n = 14 needs at least .* with 3 threads" "$work/err"
ok=$?
report "--max-memory with 3 threads: the count of threads is named" $((! ok))
[ $ok -eq 0 ] || sed 's/^/# /' "$work/err"
out=$(run 2 -j 1 --max-memory=64MiB 12 2>"$work/err")
[ "$out" = 14200 ]; report "--max-memory=64MiB counts" $((! $?))
for bad in 0 0K 12X -1; do
  run 2 --max-memory=$bad 8 >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq 2 ] && [ ! -s "$work/out" ] && grep -q "^nqueens-mpi: --max-memory: " "$work/err"
  report "--max-memory=$bad is refused" $((! $?))
done

# a checkpoint that nqueens made with another method than the default is
# resumed by a default job, as nqueens resumes it; a wrong method is named
nq=$(dirname "$bin")/nqueens
if [ -x "$nq" ]; then
  rm -f "$ck"
  "$nq" -j 1 -m symmetry --checkpoint "$ck" 14 >/dev/null 2>&1
  out=$(run 2 -j 1 --checkpoint="$ck" 14 2>"$work/err")
  [ "$out" = 365596 ]; report "a default job resumes a symmetry checkpoint of nqueens" $((! $?))
  out=$(run 2 -j 1 -m plain --checkpoint="$ck" 14 2>"$work/err"); status=$?
  [ $status -eq 2 ] && [ -z "$out" ] &&
    grep -q "^nqueens-mpi: .*mpi.ckpt holds method symmetry, not plain (--method=symmetry resumes it); refusing to use it$" "$work/err"
  report "a checkpoint of another method: refused, naming both and the way out" $((! $?))
  out=$(run 2 -j 1 --method=symmetry --checkpoint="$ck" 14 2>"$work/err")
  [ "$out" = 365596 ]; report "  and --method=symmetry, as it says, resumes it" $((! $?))
  # a join checkpoint with --unique: the way out drops --unique
  rm -f "$ck"
  "$nq" -j 1 -m join --checkpoint "$ck" 12 >/dev/null 2>&1
  out=$(run 2 -j 1 -u --checkpoint="$ck" 12 2>"$work/err"); status=$?
  [ $status -eq 2 ] && [ -z "$out" ] &&
    grep -q "^nqueens-mpi: .*mpi.ckpt holds method join, not symmetry (the join method counts totals only: --method=join without --unique resumes it); refusing to use it$" "$work/err" &&
    out=$(run 2 -j 1 --method=join --checkpoint="$ck" 12 2>"$work/err") && [ "$out" = 14200 ]
  report "a join checkpoint with -u: the way out drops --unique, and resumes it" $((! $?))
fi

# a total that mpirun could not write (it exits 0 all the same: see
# docs/mpi.md) is not lost with a checkpoint: the job run again prints it at once
rm -f "$ck"
run 2 -j 1 --checkpoint="$ck" 13 >/dev/full 2>"$work/err"
out=$(run 2 -j 1 --checkpoint="$ck" 13 2>"$work/err")
[ "$out" = 73712 ]; report "a total lost to a full disk: the checkpointed job prints it again" $((! $?))

# a worker that stops answering ends the job once the checkpoint is saved
# (5 seconds: on a loaded machine a healthy rank has gone 2 seconds
# without a turn)
rm -f "$ck"
run_abort 3 -j 1 --batch=4 --checkpoint="$ck" --worker-timeout=5 --test-hang-rank=1 15 \
  >"$work/out" 2>"$work/err"; status=$?
[ $status -ne 0 ] && [ ! -s "$work/out" ] &&
  [ "$(grep -c '^nqueens-mpi: ' "$work/err")" -eq 1 ] &&
  grep -q "^nqueens-mpi: rank 1 has not answered for 5 seconds.*saved in" "$work/err"
ok=$?
[ $ok -eq 0 ] || { echo "stdout:"; cat "$work/out"; echo "stderr:"; cat "$work/err"; }
report "a silent worker ends the job (status $status)" $((! ok))
out=$(run 2 -j 1 --checkpoint="$ck" 15 2>"$work/err")
[ "$out" = 2279184 ]; report "  and the job resumes to the exact count" $((! $?))

# rank 0 itself stopped (SIGSTOP) for longer than --worker-timeout: the
# workers were never silent, rank 0 was not listening; the job goes on and
# ends with the exact count (a timeout of 5 seconds, as above: on a busy
# machine a healthy worker has gone 2 seconds between reports)
rm -f "$ck"
"$mpiexec" --oversubscribe -np 3 "$bin" -j 1 --checkpoint="$ck" --checkpoint-interval=0 \
  --worker-timeout=5 $big >"$work/out" 2>"$work/err" &
pid=$!
wait_saved "$ck" "$pid"
target=$(rank0 "$pid")
kill -STOP "$target"; sleep 8; kill -CONT "$target"
wait "$pid"; status=$?
[ $status -eq 0 ] && [ "$(cat "$work/out")" = $big_total ] && [ ! -s "$work/err" ]
ok=$?
report "rank 0 stopped for 8 s with --worker-timeout=5: the job goes on (status $status)" $((! ok))
[ $ok -eq 0 ] || sed 's/^/# /' "$work/err"

# two jobs on one checkpoint: the second is refused while the first runs
# (a killed job above may have left a lock file: a stale one, which locks
# nothing; so wait for the first job's first save instead). The first job
# is a long one, stopped with SIGTERM once the second was refused; it then
# saves.
rm -f "$ck"
"$mpiexec" --oversubscribe -np 2 "$bin" -j 1 -m plain --checkpoint="$ck" \
  --checkpoint-interval=0 17 >"$work/out1" 2>/dev/null &
pid=$!
wait_saved "$ck" "$pid"
run 2 -j 1 -m plain --checkpoint="$ck" 17 >"$work/out" 2>"$work/err"; status=$?
kill -TERM "$pid" 2>/dev/null
wait "$pid"
[ $status -eq 2 ] && [ ! -s "$work/out" ] && [ ! -s "$work/out1" ] &&
  grep -q "^nqueens-mpi: .*mpi.ckpt: another process is using this file" "$work/err"
ok=$?
report "a second job on one checkpoint is refused" $((! ok))
[ $ok -eq 0 ] || { echo "# status $status"; sed 's/^/# /' "$work/err" "$work/out1"; }

# a lock file that is a folder: the lock file is named, not the checkpoint
rm -f "$ck"; mkdir "$ck.lock"
run 2 -j 1 --checkpoint="$ck" 8 >"$work/out" 2>"$work/err"; status=$?
rmdir "$ck.lock"
[ $status -eq 2 ] && [ ! -s "$work/out" ] && [ ! -e "$ck" ] &&
  grep -q "^nqueens-mpi: .*mpi\.ckpt\.lock: the checkpoint's lock file is a folder$" "$work/err"
report "a lock file that is a folder: refused, naming the lock file" $((! $?))

# --- the command line ----------------------------------------------------------------
run 3 29 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ "$(grep -c "^nqueens-mpi: '29' is not a board size" "$work/err")" -eq 1 ] &&
  [ "$(grep -c "^Try 'nqueens-mpi --help'" "$work/err")" -eq 1 ]
report "a usage error is printed once" $((! $?))
# (without mpirun: a singleton MPI process, which starts faster)
"$bin" --bogus 12 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ "$(grep -c "^nqueens-mpi: unrecognized option '--bogus'" "$work/err")" -eq 1 ]
report "an unknown option: getopt's message, once" $((! $?))
out=$(run 2 -uj1 --meth=symmetry --batch=18446744073709551615 12 2>"$work/err")
[ "$out" = 1787 ]; report "combined short options, abbreviations, numbers up to 2^64 - 1" $((! $?))
"$bin" --version >"$work/out" 2>&1; status=$?
[ $status -eq 0 ] && head -n 1 "$work/out" | grep -q '^nqueens-mpi [0-9]*\.[0-9]*\.[0-9]*$' &&
  grep -q '^Copyright (c) ' "$work/out" && grep -q '^License ' "$work/out"
report "--version" $((! $?))
"$bin" --help >"$work/help" 2>&1
! grep -q "test-" "$work/help"; report "--help hides the testing aids" $((! $?))
man=$(dirname "$0")/../../man/nqueens-mpi.1
help_opts=$(sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z-]*\).*/\2/p' "$work/help" | sort -u)
man_opts=$(sed 's/\\-/-/g' "$man" | grep -A1 '^\.TP' | grep -o -- '--[a-z][a-z-]*' | sort -u)
[ -n "$help_opts" ] && [ "$help_opts" = "$man_opts" ]
report "the manual lists the options of --help" $((! $?))
if command -v groff >/dev/null 2>&1; then
  groff -man -ww -Tutf8 "$man" >/dev/null 2>"$work/err" && [ ! -s "$work/err" ]
  report "the manual renders without warnings" $((! $?))
fi

# --device=gpu: counts on each worker's GPU, or ends with the worker that
# has none named (never counting on its CPU instead); a method the GPU
# does not run is refused before anything starts
out=$(run_abort 2 -j 1 --device=gpu 10 2>"$work/err"); status=$?
{ [ $status -eq 0 ] && [ "$out" = 724 ]; } ||
  { [ $status -eq 1 ] && [ -z "$out" ] &&
    grep -q "rank 1 failed: --device=gpu: \(this build has no GPU support\|no NVIDIA driver\|the NVIDIA driver shows no GPU\)" "$work/err"; }
report "--device=gpu counts on the GPU or names the rank without one" $((! $?))
run_abort 2 --device=gpu --method=plain 10 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] &&
  grep -q "device=gpu counts with the symmetry and join methods, not --method=plain" "$work/err"
report "--device=gpu with the plain walk is a usage error" $((! $?))
run_abort 2 --device=tpu 10 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && grep -q "unknown device 'tpu'" "$work/err"
report "an unknown --device is a usage error" $((! $?))

# one rank is not enough
run 1 12 >"$work/out" 2>"$work/err"; status=$?
[ $status -ne 0 ] && grep -q "at least 2 ranks" "$work/err"; report "one rank is refused" $((! $?))

if [ -n "${ASAN_OPTIONS:-}" ]; then
  set -- "$work"/sanitizer.*
  [ ! -e "$1" ]; report "no sanitizer report from any rank (leaks included)" $((! $?))
  [ -e "$1" ] && head -n 30 "$@" | sed 's/^/# /'
fi

finish

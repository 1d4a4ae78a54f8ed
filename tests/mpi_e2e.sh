#!/bin/sh
# nqueens-mpi under Open MPI on one machine: 2 and 3 ranks against the known
# values, a rank that dies, and a checkpointed job that resumes after one.
# usage: mpi_e2e.sh MPIEXEC PATH/TO/nqueens-mpi
set -u
mpiexec=$1 bin=$2
. "$(dirname "$0")/e2e_lib.sh"
# Open MPI refuses root unless told; CI machines run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
run() { np=$1; shift; "$mpiexec" --oversubscribe -np "$np" "$bin" "$@"; }

for np in 2 3; do
  for case in "1 1 1" "6 4 1" "8 92 12" "12 14200 1787" "14 365596 45752"; do
    set -- $case
    out=$(run $np -j 1 --json "$1" 2>"$work/err")
    [ "$out" = "{\"n\":$1,\"total\":$2,\"unique\":$3,\"method\":\"symmetry\",\"ranks\":$np}" ]
    report "$np ranks, n = $1: $2 / $3" $((! $?))
  done
  out=$(run $np -j 1 --method=plain --batch=3 13 2>"$work/err")
  [ "$out" = 73712 ]; report "$np ranks, plain method, batches of 3: n = 13" $((! $?))
done

# a rank that dies fails the whole job: non-zero status, no count
run 3 -j 1 --batch=1 --test-crash-rank=2 13 >"$work/out" 2>"$work/err"; status=$?
[ $status -ne 0 ] && [ ! -s "$work/out" ]; report "a dead rank fails the job (status $status)" $((! $?))

# a checkpointed job that a dying rank ends resumes to the exact count
ck=$work/mpi.ckpt
run 3 -j 1 --batch=2 --checkpoint="$ck" --checkpoint-interval=0 --test-crash-rank=1 14 \
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

# one rank is not enough
run 1 12 >"$work/out" 2>"$work/err"; status=$?
[ $status -ne 0 ] && grep -q "at least 2 ranks" "$work/err"; report "one rank is refused" $((! $?))

finish
